"""Running heads and footers: a page's edge lines repeated at the same height on nearby pages."""

from __future__ import annotations

import re

import pymupdf

from basehalf_core.documents.grouping import Group
from basehalf_core.documents.lines import SPLIT_GAP
from basehalf_core.documents.raw_text import PYMUPDF_LOCK, TEXT_FLAGS

# Running heads and footers are looked for this far (a fraction of the height) from the edges.
EDGE_BAND = 0.15
# The same head sits at the same height on every page, give or take this many points.
EDGE_SLACK = 2.0


def edge_lines(raw_words: list, height: float) -> list[tuple[str, float, frozenset]]:
    """A page's pieces of line near its top or foot: ``(text, top y, word boxes)``.

    Args:
        raw_words: PyMuPDF ``extractWORDS`` tuples (unrotated points).
        height: the unrotated page height.

    The text has every run of digits written ``#`` (page numbers, dates and volume numbers
    differ from page to page); a line is cut at a wide gap like the segments (a page number
    far right of the running head is a piece of its own).
    """
    lines: dict[tuple[int, int], list] = {}
    for w in raw_words:
        if w[3] <= EDGE_BAND * height or w[1] >= (1 - EDGE_BAND) * height:
            lines.setdefault((w[5], w[6]), []).append(w)
    out = []
    for ws in lines.values():
        ws.sort(key=lambda w: w[0])
        pieces = [[ws[0]]]
        for w in ws[1:]:
            if w[0] - pieces[-1][-1][2] > SPLIT_GAP * max(w[3] - w[1], 1.0):
                pieces.append([w])
            else:
                pieces[-1].append(w)
        for piece in pieces:
            text = re.sub(r"\d+", "#", " ".join(w[4] for w in piece))
            out.append((text, piece[0][1], frozenset(tuple(w[:4]) for w in piece)))
    return out


def edge_lines_of(page: pymupdf.Page) -> list[tuple[str, float, frozenset]]:
    """:func:`edge_lines` of a page, reading only its two edge bands (half the cost of the
    whole page's words)."""
    raw = []
    with PYMUPDF_LOCK:
        box = page.cropbox
        w, h = box.width, box.height
        for y0, y1 in ((0, EDGE_BAND * h), ((1 - EDGE_BAND) * h, h)):
            raw += page.get_text("words", flags=TEXT_FLAGS, clip=pymupdf.Rect(0, y0, w, y1))
    return edge_lines(raw, h)


def mark_running(groups: list[Group], raw_words: list, height: float, running: list) -> None:
    """Set ``Block.running`` on short blocks whose every word repeats on a nearby page."""
    seen: dict[str, list[float]] = {}
    for text, y, _ in running:
        seen.setdefault(text, []).append(y)
    matched: set = set()
    for text, y, boxes in edge_lines(raw_words, height):
        if any(abs(y - y2) <= EDGE_SLACK for y2 in seen.get(text, ())):
            matched |= boxes
    if not matched:
        return
    for g in groups:
        units = [tuple(u.rect) for seg in g.segments for u in seg.units]
        if g.block.lines <= 2 and all(r in matched for r in units):
            g.block.running = True
