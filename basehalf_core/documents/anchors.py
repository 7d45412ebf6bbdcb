"""Finding a stored passage again in a document: exact, moved, fuzzy, or orphan (DESIGN §3).

A note's ``grown_from`` anchor (quote, prefix, suffix, page, rects, fingerprint) is looked up
in order: the recorded rects still hold the quote (``exact``); the quote occurs verbatim on
the recorded page or, failing that, the nearest page that has it (``moved``); an approximate
match scored on quote, prefix, suffix and page distance (``fuzzy``); else ``orphan``. The
status always says what happened, so a highlight is never moved silently.

Comparison is on normalised text (ligatures expanded, line-end hyphens resolved, whitespace
collapsed) with case, curly quotes and dashes folded, and mapped back to words and rects.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from basehalf_core.documents.document import Document, DocumentError
from basehalf_core.documents.pages import line_rects
from basehalf_core.documents.reading_order import FLOW_ROLES
from basehalf_core.documents.text import (
    HYPHENS,
    Run,
    fold,
    join_words,
    normalise,
    strip_scripts,
)
from basehalf_core.errors import BasehalfError

# Fuzzy acceptance: the quote itself must be close, and the combined score high enough.
FUZZY_MIN_QUOTE = 80.0
FUZZY_MIN_SCORE = 75.0
# Short quotes match random text too easily; demand more of them.
SHORT_QUOTE = 24
SHORT_MIN_QUOTE = 92.0
PAGE_PENALTY = 1.0  # points per page away from the recorded page
MAX_PAGE_PENALTY = 15.0
CONTEXT = 32


class BadAnchor(BasehalfError, ValueError):
    """A stored anchor that lacks what re-anchoring needs; the message names the field."""


@dataclass
class Match:
    """A verbatim occurrence of a quote: 1-based page, its words, one rect per line."""

    page: int
    word_indices: list[int]
    rects: list[list[float]]
    start: int = 0
    end: int = 0
    run: int = 0


@dataclass
class Anchor:
    """Where a stored passage is now.

    Attributes:
        page: 1-based page (the recorded one for an orphan).
        rects: one per line, unrotated PDF points; empty for an orphan.
        status: exact | moved | fuzzy | orphan.
        score: 0..100, how well the found text matches (100 for exact and moved).
        word_indices: the words found on ``page``.
        found: the document's text at the new place (differs from the quote when fuzzy).
        note: one sentence for the learner saying what happened.
    """

    page: int
    rects: list[list[float]]
    status: str
    score: float
    word_indices: list[int] = field(default_factory=list)
    found: str = ""
    note: str = ""


key = fold  # case, curly quotes and dashes folded; lengths kept so offsets map back


def _words_in_span(run: Run, start: int, end: int) -> list[int]:
    return [w for w, (a, b) in zip(run.words, run.spans, strict=True) if a < end and b > start]


def find_in_page(doc: Document, i: int, needle: str) -> list[list[int]]:
    """Word indices of each verbatim (normalised, folded) occurrence of ``needle`` on page ``i``."""
    return [m.word_indices for m in find_on_page(doc, i, normalise(needle))]


def find_on_page(doc: Document, i: int, needle: str, checked: bool = False) -> list[Match]:
    # cheap: no words built for the page (``checked``: the caller has ruled pages out itself)
    if not needle or not (checked or doc.may_contain(i, needle)):
        return []
    k = key(needle)
    out = []
    for r, run in enumerate(doc.runs(i)):
        hay = key(run.text)
        at = hay.find(k)
        while at >= 0:
            idx = _words_in_span(run, at, at + len(k))
            words = doc.words(i)
            if all(m.word_indices != idx for m in out):  # the same words in another run
                out.append(
                    Match(i + 1, idx, line_rects([words[j] for j in idx]), at, at + len(k), r)
                )
            at = hay.find(k, at + 1)  # overlapping hits too: a quote may overlap its repeat
    if not out:
        out = _find_unscripted(doc, i, k)
    if needle.endswith("-") and len(needle) > 1:
        # A selection that ended on a line-end hyphen the page text joined ("sum-" / "maries"):
        # the broken word's own place, also when the hyphenated text stands elsewhere on the
        # page too ("eval-" / "uation" beside a footnote's "longeval-summarization").
        joined = find_on_page(doc, i, needle[:-1], checked)
        if not out:
            return joined
        words = doc.words(i)
        out += [
            m
            for m in joined
            if m.word_indices
            and words[m.word_indices[-1]].text.endswith(HYPHENS)
            and all(o.word_indices != m.word_indices for o in out)
        ]
    return out


def _find_unscripted(doc: Document, i: int, k: str) -> list[Match]:
    """Occurrences compared without the marks of sub- and superscripts.

    A quote stored before scripts were written out says ``dk`` where the page now reads
    ``d_k``: it is still the same text of the document.
    """
    plain, _ = strip_scripts(k)
    out = []
    for r, run in enumerate(doc.runs(i)):
        hay = key(run.text)
        if ("^" not in hay and "_" not in hay) or not plain:
            continue
        flat, offsets = strip_scripts(hay)
        at = flat.find(plain)
        while at >= 0:
            start, end = offsets[at], offsets[at + len(plain) - 1] + 1
            idx = _words_in_span(run, start, end)
            if all(m.word_indices != idx for m in out):
                rects = line_rects([doc.words(i)[j] for j in idx])
                out.append(Match(i + 1, idx, rects, start, end, r))
            at = flat.find(plain, at + 1)
    return out


def find_quote(doc: Document, quote: str, page: int | None = None) -> list[Match]:
    """Verbatim occurrences of ``quote`` (normalised), on 1-based ``page`` or anywhere.

    Tolerant of ligatures, line-end hyphenation, line breaks, case and curly quotes.
    """
    needle = normalise(quote)
    if page is not None:
        if not 1 <= page <= doc.page_count:
            return []
        return find_on_page(doc, page - 1, needle)
    out: list[Match] = []
    for i in doc.candidate_pages(needle):
        out.extend(find_on_page(doc, i, needle))
    return out


def _context_score(doc: Document, m: Match, prefix: str, suffix: str) -> float:
    """0..100: how well the text around a match agrees with the stored prefix and suffix."""
    run = doc.runs(m.page - 1)[m.run]
    scores = []
    for stored, actual, before in (
        (prefix, run.text[max(0, m.start - CONTEXT) : m.start], True),
        (suffix, run.text[m.end : m.end + CONTEXT], False),
    ):
        want = key(normalise(stored))
        have = key(normalise(actual))
        if not want:
            scores.append(100.0 if not have else 50.0)
            continue
        # Compare the stored context with the same amount of text next to the match.
        have = have[-len(want) :] if before else have[: len(want)]
        scores.append(fuzz.ratio(want, have))
    return sum(scores) / len(scores)


def _get(stored: Mapping, name: str, kind: type) -> object:
    value = stored.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadAnchor(f"anchor field {name!r} must be {kind.__name__}, got {value!r}")
    return value


def reanchor(doc: Document, stored: Mapping) -> Anchor:
    """Find a stored ``grown_from`` anchor in ``doc`` (see the module docstring).

    Args:
        doc: the document as it is now.
        stored: mapping with ``quote`` and ``page`` (1-based); ``prefix``, ``suffix``,
            ``rects`` and ``fingerprint`` are used when present.

    Raises:
        BadAnchor: ``quote`` is missing or empty, or ``page`` is not an integer.
    """
    quote = normalise(str(_get(stored, "quote", str)))
    if not quote:
        raise BadAnchor("anchor field 'quote' is empty")
    page = int(_get(stored, "page", int))
    prefix = str(stored.get("prefix") or "")
    suffix = str(stored.get("suffix") or "")
    rects = stored.get("rects") or []
    distance = _distance(doc, page, stored.get("chapter"))

    if distance(page) > 0:
        # An EPUB laid out anew: its recorded page is outside the recorded chapter now.
        rects = []
    if 1 <= page <= doc.page_count and rects:
        hit = _text_under_rects(doc, page - 1, rects)
        if hit is not None and key(hit[0]) == key(quote):
            kept = [[float(v) for v in r] for r in rects]
            note = "the recorded place still holds the quote"
            return Anchor(page, kept, "exact", 100.0, hit[1], hit[0], note)

    matches = find_quote(doc, quote, page) if distance(page) == 0 else []
    for m in matches:
        # Words of another line can sit inside a recorded rect (a subscript, an accent line);
        # a verbatim match at the recorded rects is just as exact.
        if rects and _same_rects(m.rects, rects):
            note = "the recorded place still holds the quote"
            return Anchor(page, m.rects, "exact", 100.0, m.word_indices, quote, note)
    if not matches:
        matches = find_quote(doc, quote)
    if matches:
        best = max(
            matches,
            key=lambda m: (_context_score(doc, m, prefix, suffix) - distance(m.page), -m.page),
        )
        where = "on the same page" if best.page == page else f"on page {best.page} (was {page})"
        return Anchor(
            best.page,
            best.rects,
            "moved",
            100.0,
            best.word_indices,
            quote,
            f"the quote was found {where}",
        )

    fuzzy = _fuzzy(doc, quote, prefix, suffix, distance)
    if fuzzy is not None:
        return fuzzy
    return Anchor(
        page, [], "orphan", 0.0, note=f"the quote is no longer in {doc.path.name}: {quote[:60]!r}"
    )


def _chapter_spans(doc: Document, chapter: str) -> list[tuple[int, int]]:
    """First and last 1-based page of each table-of-contents entry with this title."""
    toc = doc.toc()
    want = normalise(chapter)
    spans = []
    for k, (_level, title, start) in enumerate(toc):
        if normalise(title) == want and start >= 1:
            later = [p for _l, _t, p in toc[k + 1 :] if p > start]
            spans.append((start, later[0] if later else doc.page_count))
    return spans


def _distance(doc: Document, page: int, chapter: object):
    """Pages between a candidate page and where the anchor was recorded.

    With a chapter (EPUB), any page of that chapter is as good as the recorded one: page
    numbers there come from one layout of the book and change with the next. Titles can
    repeat (every part of a manual may have its "Overview"): any entry of that title counts.
    """
    named = isinstance(chapter, str) and chapter.strip()
    spans = _chapter_spans(doc, chapter) if named else []

    def distance(p: int) -> float:
        if not spans:
            return float(abs(p - page))
        return min(
            0.0 if lo <= p <= hi else float(min(abs(p - lo), abs(p - hi))) for lo, hi in spans
        )

    return distance


def _same_rects(found: list[list[float]], stored, tol: float = 0.5) -> bool:
    try:
        pairs = list(zip(found, stored, strict=True))
        return all(abs(a - float(b)) <= tol for f, r in pairs for a, b in zip(f, r, strict=True))
    except (TypeError, ValueError):
        return False


def _text_under_rects(doc: Document, i: int, rects) -> tuple[str, list[int]] | None:
    try:
        boxes = [tuple(float(v) for v in r) for r in rects]
    except (TypeError, ValueError):
        return None
    if any(len(b) != 4 for b in boxes):
        return None
    tol = 1.0
    words = doc.words(i)
    idx = [
        w.index
        for w in words
        if any(
            b[0] - tol <= (w.rect[0] + w.rect[2]) / 2 <= b[2] + tol
            and b[1] - tol <= (w.rect[1] + w.rect[3]) / 2 <= b[3] + tol
            for b in boxes
        )
    ]
    if not idx:
        return None
    idx = [k for k in idx if words[k].role in FLOW_ROLES] or idx
    return join_words([words[k] for k in idx], doc.vocabulary), idx


def _fuzzy(doc: Document, quote: str, prefix: str, suffix: str, distance) -> Anchor | None:
    q = key(quote)
    floor = SHORT_MIN_QUOTE if len(q) < SHORT_QUOTE else FUZZY_MIN_QUOTE
    best: tuple[float, Anchor] | None = None
    for i in doc.fuzzy_candidate_pages(quote, floor - 15):
        for r, run in enumerate(doc.runs(i)):
            hay = key(run.text)
            if not hay:
                continue
            al = fuzz.partial_ratio_alignment(q, hay, score_cutoff=floor)
            if al is None or al.score < floor:
                continue
            m = Match(i + 1, [], [], al.dest_start, al.dest_end, r)
            ctx = _context_score(doc, m, prefix, suffix)
            penalty = min(MAX_PAGE_PENALTY, PAGE_PENALTY * distance(i + 1))
            score = 0.7 * al.score + 0.3 * ctx - penalty
            if score < FUZZY_MIN_SCORE or (best is not None and score <= best[0]):
                continue
            idx = _fit_words(run, q, al.dest_start, al.dest_end)
            words = doc.words(i)
            found = run.text[run.spans[run.words.index(idx[0])][0] : _span_end(run, idx[-1])]
            anchor = Anchor(
                i + 1,
                line_rects([words[k] for k in idx]),
                "fuzzy",
                round(score, 1),
                idx,
                found,
                f"the quote has changed; closest text on page {i + 1} ({round(al.score)}% alike)",
            )
            best = (score, anchor)
    return best[1] if best else None


def _span_end(run: Run, word: int) -> int:
    return run.spans[run.words.index(word)][1]


def _fit_words(run: Run, q: str, start: int, end: int, reach: int = 3) -> list[int]:
    """Whole words around an alignment, widened or narrowed a few words to fit the quote best.

    ``partial_ratio_alignment`` aligns a window as long as the quote, so an edit that made
    the text longer ("in one step" → "in a single step") leaves the last word outside it.
    """
    inside = [k for k, (a, b) in enumerate(run.spans) if a < end and b > start]
    if not inside:
        return []
    first, last = inside[0], inside[-1]
    best, best_score = (first, last), -1.0
    for a in range(max(0, first - reach), min(len(run.words), first + reach + 1)):
        for b in range(max(a, last - reach), min(len(run.words), last + reach + 1)):
            text = key(run.text[run.spans[a][0] : run.spans[b][1]])
            score = fuzz.ratio(q, text)
            if score > best_score:
                best, best_score = (a, b), score
    return run.words[best[0] : best[1] + 1]


@dataclass
class Highlight:
    """Where a stored passage is drawn now: what a reader shows and the app reports.

    Attributes:
        note: the id of the item (a note's folder-relative path).
        page: 1-based page (the recorded one, or 1, for an orphan).
        boxes: displayed 0..1 boxes, one per line, rounded to 1e-5 (empty for an orphan).
        status: exact | moved | fuzzy | orphan.
        message: ``"<note>: <what happened>"`` for anything but ``exact``.
        label: the item's label (the note's title), for the reader to show.
    """

    note: str
    page: int
    boxes: list[list[float]]
    status: str
    message: str = ""
    label: str = ""


def highlights(doc: Document, items: Iterable[Mapping]) -> list[Highlight]:
    """Re-anchor stored passages for drawing: the one highlight path of app, widget and CLI.

    Args:
        doc: the document as it is now.
        items: ``grown_from`` anchors (``quote``, ``page`` 1-based, optional ``prefix``,
            ``suffix``, ``rects``, ``chapter``), each with an ``id`` and a ``label``.

    Returns:
        One :class:`Highlight` per item, in order. An anchor that cannot be read or found is
        an ``orphan`` with the reason, never dropped silently.
    """
    out = []
    for item in items:
        hid = str(item.get("id", ""))
        label = str(item.get("label", hid))
        page = item.get("page") if isinstance(item.get("page"), int) else 1
        try:
            anchor = reanchor(doc, item)
            words = doc.words(anchor.page - 1) if anchor.word_indices else []
        except (DocumentError, TypeError, ValueError) as exc:  # BadAnchor is a ValueError
            out.append(Highlight(hid, page, [], "orphan", f"{hid}: {exc}", label))
            continue
        if anchor.status == "orphan" or not words:
            out.append(Highlight(hid, anchor.page, [], "orphan", f"{hid}: {anchor.note}", label))
            continue
        boxes = line_rects([words[k] for k in anchor.word_indices], space="box")
        message = "" if anchor.status == "exact" else f"{hid}: {anchor.note}"
        out.append(Highlight(hid, anchor.page, boxes, anchor.status, message, label))
    return out
