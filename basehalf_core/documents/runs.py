"""The page's text as runs that search and re-anchoring look in (see :func:`make_runs`)."""

from __future__ import annotations

from basehalf_core.documents.reading_order import FLOW_ROLES
from basehalf_core.documents.selection import NOTE_WORDS, caption_blocks, keep_running_text
from basehalf_core.documents.text import Run, join, run_key, small_print_sizes, style_size
from basehalf_core.documents.text_blocks import FOOTNOTE_SIZE_RATIO


def make_runs(words: list, vocabulary) -> list[Run]:
    """The page's text as runs that search and re-anchoring look in.

    The body words (marginalia, figures, tables and boxed sidebars between them skipped), the
    marginalia, the flow (body with the figures, tables and boxes) when the page has any, the
    body with the captions (:func:`~.selection.floats_between`), and
    for each style of the body or the flow whose words are interrupted by another style (a
    caption, a table between two columns of running text) what a drag from that style's first
    word to its last keeps (:func:`~.selection.keep_running_text`: the style's words, and a
    heading or a run-in set otherwise), so any such drag's quote is found word for word, and
    for each size the words not set smaller than it (small print between an abstract and the
    text): a drag narrowed to the running text (``Document.select_between``) reads without a
    gap there; and for each note long enough to start a drag in, the body with that note
    (:func:`~.selection.note_at_end`).
    """
    groups: dict[str, list] = {}
    for w in words:
        groups.setdefault(run_key(w), []).append(w)
    flow = [w for w in words if w.role in FLOW_ROLES]
    if len(flow) != len(groups.get("body", [])):
        # A drag that starts or ends in a caption or a boxed sidebar reads them in the flow.
        groups["flow"] = flow
        # One from running text into a caption reads the captions, not the figures' labels.
        captions = caption_blocks(words)
        captioned = [w for w in flow if w.role == "body" or w.block in captions]
        if captions and len(captioned) != len(flow):
            groups["captioned"] = captioned
    # The sizes a drag's smaller end may have for small print to be left out (per page).
    low, high = small_print_sizes(words)
    for base in ("body", "flow"):
        part = groups.get(base, [])
        styles = [w.style for w in part]
        for style in dict.fromkeys(styles):
            where = [k for k, s in enumerate(styles) if s == style]
            if where and where[-1] - where[0] + 1 != len(where):
                span = part[where[0] : where[-1] + 1]
                read = set(keep_running_text(words, [w.index for w in span]))
                groups[f"{base} style {style}"] = [w for w in span if w.index in read]
        # A drag whose ends differ in style leaves out print smaller than both ends
        # (Document.select_between): for each size, the words not set smaller than it.
        # Sizes that leave out the same words share one run; only sizes a drag's smaller end
        # can have for the narrowing to apply (see small_print_sizes).
        if base != "body":
            continue  # only a drag with both ends in running text is narrowed so
        sizes = [style_size(s) for s in styles]
        kept: set[tuple[int, ...]] = set()
        for size in sorted(s for s in set(sizes) if low <= s <= high):
            small = FOOTNOTE_SIZE_RATIO * size
            where = tuple(k for k, s in enumerate(sizes) if not 0 < s < small)
            if where and where[-1] - where[0] + 1 != len(where) and where not in kept:
                kept.add(where)
                groups[f"{base} from size {size}"] = [part[k] for k in where]
    # A drag from a note into the running text (or back) reads the text and that note
    # (selection.note_at_end): one run for each note long enough to start a drag in.
    body = groups.get("body", [])
    if body:
        notes: dict[int, int] = {}
        for w in words:
            if w.role not in FLOW_ROLES:
                notes[w.block] = notes.get(w.block, 0) + 1
        for block, n in notes.items():
            if n >= NOTE_WORDS:
                groups[f"body with note {block}"] = [
                    w for w in words if w.role == "body" or w.block == block
                ]
    runs = []
    for key, group in groups.items():
        text, spans = join(group, vocabulary)
        runs.append(Run(key, text, [w.index for w in group], spans))
    return runs
