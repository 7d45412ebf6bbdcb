"""Vertical writing (tategaki): a page of CJK columns read top down, right to left, tier by tier.

Japanese (and Chinese) set vertically come out of MuPDF one character a line, so the page
reader (:mod:`.pages`) asks :func:`_vertical_columns` first whether a page is set this way and,
if it is, reads it by the columns built here (:func:`_column_segments`) instead of by lines.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from itertools import pairwise

import pymupdf

from basehalf_core.documents.raw_text import (
    PYMUPDF_LOCK,
    _invisible,
    _Segment,
    _span_styles,
    _style_of,
    _Unit,
)
from basehalf_core.documents.text import is_cjk
from basehalf_core.documents.text_blocks import gaps

# Two characters touch when the gap between them is at most this many character sizes.
TOUCH_GAP = 0.15
# A column goes on over a gap up to this many character sizes (a full-width space is one).
COLUMN_GAP = 1.1
# A column's character that starts this many advances (top to top) below the one before it
# follows a full-width space: two advances. Brackets and stops of vertical writing sit loosely
# in their cells (a stop's cell starts about 1.75 advances down), so the bar is a little lower.
COLUMN_SPACE = 1.9
# Characters stacked this many times as often as set side by side: the page is set vertically.
VERTICAL_RATIO = 2.0
VERTICAL_MIN = 20
# Any space at all between columns or tiers (after shrinking their ends) is a gap.
GAP_MIN = 0.01


def _vertical_columns(
    units: list[_Unit], page: pymupdf.Page, info: dict
) -> list[list[_Unit]] | None:
    """The page's columns of vertical writing in reading order, or None if it is set across.

    Japanese (and Chinese) set vertically stack characters top down with no gap, columns
    right to left, tiers (段) top to bottom; MuPDF often gives each character as a line of
    its own, so the line-based pass would read across the columns. The page is vertical when
    CJK characters touch the one below far more often than the one beside them. Only
    characters whose MuPDF line runs across or down count: text set across and turned a
    quarter (a landscape table, a rotated page) also stacks its characters, running up. A
    column never goes on across a rule drawn between two tiers.
    """
    if page.rotation % 360:
        return None  # displayed columns would not be the unrotated ones: not handled
    styles = _span_styles(info)

    def direction(u: _Unit) -> tuple[float, float]:
        entry = styles.get((u.block, u.line))
        return entry[-1] if entry else (1.0, 0.0)

    def upright(u: _Unit) -> bool:
        dx, dy = direction(u)
        return (dx > 0.5 and abs(dy) < 0.5) or (dy > 0.5 and abs(dx) < 0.5)

    cjk = [u for u in units if is_cjk(u.text[:1]) and upright(u)]
    if len(cjk) < VERTICAL_MIN:
        return None
    # Cheap first: when MuPDF already strung most characters into lines across, it is set
    # across (the stacking count below costs a quarter of such a page's build).
    per_line = Counter((u.block, u.line) for u in cjk)
    across = sum(n for (b, ln), n in per_line.items() if n >= 3 and _runs_across(styles, b, ln))
    if across > 0.5 * len(cjk):
        return None
    em = sorted(max(u.rect[2] - u.rect[0], u.rect[3] - u.rect[1]) for u in cjk)[len(cjk) // 2]
    touch = TOUCH_GAP * em
    by_top = sorted(cjk, key=lambda u: u.rect[1])
    tops = [u.rect[1] for u in by_top]
    by_left = sorted(cjk, key=lambda u: u.rect[0])
    lefts = [u.rect[0] for u in by_left]
    below = beside = 0
    for u in cjk:
        x0, y0, x1, y1 = u.rect
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        # Touching, or overlapping a little (glyph boxes taller than the advance).
        lo, hi = bisect_left(tops, y1 - 0.3 * em), bisect_right(tops, y1 + touch)
        below += any(abs((o.rect[0] + o.rect[2]) / 2 - cx) < 0.3 * em for o in by_top[lo:hi])
        lo, hi = bisect_left(lefts, x1 - 0.3 * em), bisect_right(lefts, x1 + touch)
        beside += any(abs((o.rect[1] + o.rect[3]) / 2 - cy) < 0.3 * em for o in by_left[lo:hi])
    if below < VERTICAL_MIN or below < VERTICAL_RATIO * beside:
        return None
    rules = _horizontal_rules(page, em)
    columns: list[list[_Unit]] = []
    open_cols: list[list[_Unit]] = []
    for u in sorted(units, key=lambda u: (u.rect[1], -u.rect[0])):
        x0, y0, x1, y1 = u.rect
        cx = (x0 + x1) / 2
        open_cols = [c for c in open_cols if y0 - c[-1].rect[3] <= COLUMN_GAP * em]
        home = None
        for c in open_cols:
            last = c[-1].rect
            # One column, one size: a running head set larger above it starts no column.
            same_size = abs((last[2] - last[0]) - (x1 - x0)) <= 0.2 * em
            ruled = any(
                rx0 - 1 <= cx <= rx1 + 1 and last[3] - 1 <= ry <= y0 for rx0, ry, rx1 in rules
            )
            if (
                abs((last[0] + last[2]) / 2 - cx) < 0.4 * em
                and y0 >= last[1]
                and same_size
                and not ruled
            ):
                home = c
                break
        if home is None:
            home = [u]
            columns.append(home)
            open_cols.append(home)
        else:
            home.append(u)
    return _tiers_then_right_to_left(columns, em)


def _horizontal_rules(page: pymupdf.Page, em: float) -> list[tuple[float, float, float]]:
    """Horizontal lines drawn on the page, at least two characters long: (x0, y, x1)."""
    with PYMUPDF_LOCK:
        drawings = page.get_cdrawings()
    out = []
    for d in drawings:
        x0, y0, x1, y1 = d["rect"]
        if x1 - x0 >= 2 * em and y1 - y0 <= 0.3 * em and not _invisible(d):
            out.append((x0, (y0 + y1) / 2, x1))
    return out


def _runs_across(styles: dict, block: int, line: int) -> bool:
    """Does MuPDF's line ``(block, line)`` run across, left to right?"""
    entry = styles.get((block, line))
    dx, dy = entry[-1] if entry else (1.0, 0.0)
    return dx > 0.5 and abs(dy) < 0.5


def _tiers_then_right_to_left(columns: list[list[_Unit]], em: float) -> list[list[_Unit]]:
    """Columns in reading order: a band across the page above a gap first, else the columns
    right of the widest gap between them first (recursively), else right to left.

    A column's first and last characters (brackets, stops) sit loosely in their cells, so
    columns are shrunk by half a character at either end before looking for a gap.
    """
    if len(columns) <= 1:
        return columns

    def box(c):
        return (
            min(u.rect[0] for u in c),
            min(u.rect[1] for u in c) + 0.5 * em,
            max(u.rect[2] for u in c),
            max(u.rect[3] for u in c) - 0.5 * em,
        )

    boxes = [box(c) for c in columns]
    rows = gaps([(b[1], b[3]) for b in boxes], GAP_MIN)
    if rows:
        cut = sum(rows[0]) / 2
        top = [c for c, b in zip(columns, boxes, strict=True) if (b[1] + b[3]) / 2 < cut]
        rest = [c for c, b in zip(columns, boxes, strict=True) if (b[1] + b[3]) / 2 >= cut]
        if top and rest:
            return _tiers_then_right_to_left(top, em) + _tiers_then_right_to_left(rest, em)
    cols = gaps([(b[0], b[2]) for b in boxes], GAP_MIN)
    if cols:
        lo, hi = max(cols, key=lambda g: g[1] - g[0])
        cut = (lo + hi) / 2
        right = [c for c, b in zip(columns, boxes, strict=True) if (b[0] + b[2]) / 2 >= cut]
        left = [c for c, b in zip(columns, boxes, strict=True) if (b[0] + b[2]) / 2 < cut]
        if right and left:
            return _tiers_then_right_to_left(right, em) + _tiers_then_right_to_left(left, em)
    return sorted(columns, key=lambda c: (-max(u.rect[2] for u in c), c[0].rect[1]))


def _column_segments(columns: list[list[_Unit]], info: dict) -> list[tuple[list[_Segment], tuple]]:
    """Each column as a one-line block read top down, its characters glued but where a
    full-width space separates them; the page's commonest style for every column."""
    styles = _span_styles(info)
    seen: dict[tuple[str, float], int] = {}
    for c in columns:
        for u in c:
            entry = styles.get((u.block, u.line))
            if entry:
                key = _style_of(u, entry[:-1])
                seen[key] = seen.get(key, 0) + 1
    family, size = max(seen, key=seen.get) if seen else ("", 0.0)
    steps = sorted(u.rect[1] - p.rect[1] for c in columns for p, u in pairwise(c))
    advance = steps[len(steps) // 2] if steps else size or 10.0
    out = []
    for c in columns:
        units = [c[0]]
        for prev, u in pairwise(c):
            glued = u.rect[1] - prev.rect[1] < COLUMN_SPACE * advance
            units.append(_Unit(u.rect, u.text, u.block, u.line, glued))
        seg = _Segment(units, family, size, (0.0, 1.0), sum(len(u.text) for u in units))
        seg.close()
        out.append(([seg], seg.box))
    return out
