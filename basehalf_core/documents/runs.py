"""The page's text as runs that search and re-anchoring look in (see :func:`make_runs`)."""

from __future__ import annotations

from basehalf_core.documents.reading_order import FLOW_ROLES
from basehalf_core.documents.text import Run, join, run_key, small_print_sizes, style_size
from basehalf_core.documents.text_blocks import FOOTNOTE_SIZE_RATIO


def make_runs(words: list, vocabulary, keep=None) -> list[Run]:
    """The page's text as runs that search and re-anchoring look in.

    The body words (marginalia, figures, tables and boxed sidebars between them skipped), the
    marginalia, the flow (body with the figures, tables and boxes) when the page has any, and
    for each style of the body or the flow whose words are interrupted by another style (a
    caption, a table between two columns of running text) the words of that style alone, and
    for each size the words not set smaller than it (small print between an abstract and the
    text): a drag narrowed to the running text (``Document.select_between``) reads without a
    gap there.

    Args:
        words: the page's words in reading order.
        vocabulary: the document's words (or a callable giving them), for line-end hyphens.
        keep: the drag's narrowing (``selection.keep_running_text``): given the words and a
            span's indices, the indices it keeps. With it a style's run holds what a drag
            from its first word to its last keeps (a heading or a run-in set otherwise as
            well), so any such drag's quote is found in it word for word.
    """
    groups: dict[str, list] = {}
    for w in words:
        groups.setdefault(run_key(w), []).append(w)
    flow = [w for w in words if w.role in FLOW_ROLES]
    if len(flow) != len(groups.get("body", [])):
        # A drag that starts or ends in a caption or a boxed sidebar reads them in the flow.
        groups["flow"] = flow
    for base in ("body", "flow"):
        part = groups.get(base, [])
        styles = [w.style for w in part]
        for style in dict.fromkeys(styles):
            where = [k for k, s in enumerate(styles) if s == style]
            if where and where[-1] - where[0] + 1 != len(where):
                span = part[where[0] : where[-1] + 1]
                if keep is None:
                    members = [part[k] for k in where]
                else:
                    kept = set(keep(words, [w.index for w in span]))
                    members = [w for w in span if w.index in kept]
                groups[f"{base} style {style}"] = members
        # A drag whose ends differ in style leaves out print smaller than both ends
        # (Document.select_between): for each size, the words not set smaller than it.
        # Sizes that leave out the same words share one run; only sizes a drag's smaller end
        # can have for the narrowing to apply (see small_print_sizes).
        sizes = [style_size(s) for s in styles]
        low, high = small_print_sizes(groups.get("body", []))
        if base != "body":
            continue  # only a drag with both ends in running text is narrowed so
        kept: set[tuple[int, ...]] = set()
        for size in sorted(s for s in set(sizes) if low <= s <= high):
            small = FOOTNOTE_SIZE_RATIO * size
            where = tuple(k for k, s in enumerate(sizes) if not 0 < s < small)
            if where and where[-1] - where[0] + 1 != len(where) and where not in kept:
                kept.add(where)
                groups[f"{base} from size {size}"] = [part[k] for k in where]
    runs = []
    for key, group in groups.items():
        text, spans = join(group, vocabulary)
        runs.append(Run(key, text, [w.index for w in group], spans))
    return runs
