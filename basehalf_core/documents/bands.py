"""Bands across a gutter: a row the XY-cut reads on its own before (or after) the columns.

When a gutter runs down part of a page only, something lies across it: a row beside a
column that ends above it, a band under the columns, one printed line that happens to leave
a gap where the gutter is. Each finder takes the blocks, their row gaps and the gutter and
returns ``(the band or what is read first, the rest)`` or None; :mod:`.reading_order` tries
them in turn; a display across the columns between their halves parts the page in three
(:func:`display_across_gutter`). Split out of :mod:`.title_band`, which tells title matter.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from basehalf_core.documents.text_blocks import HEADING_RATIO, Block, gaps, right_ink, split_at


def band_beside_gutter(
    blocks: list[Block],
    rows: list[tuple[float, float]],
    gutter: tuple[float, float],
    min_gap: float,
) -> tuple[list[Block], list[Block]] | None:
    """The blocks above a row's gap and those below, when what lies above stands on one side
    of ``gutter`` only and spans a gutter of the columns under it: ``(above, below)`` or None.

    A newsletter sets its leading article over the second and third of three columns, the
    first column empty beside it: the gutter left of the second column runs the page's whole
    height, but the article is read before the three columns, which all start under it. A
    column's first paragraphs above a gap on one side (the other column opening lower, under
    a picture) span no gutter of the columns below: they are read as a column.
    """
    eps = 0.5
    for lo, hi in rows:
        cut = (lo + hi) / 2
        above, below = split_at(blocks, cut)
        if not above or not below:
            continue
        one_side = all(b.bbox[0] >= gutter[1] - eps for b in above) or all(
            b.bbox[2] <= gutter[0] + eps for b in above
        )
        if not one_side:
            continue
        under = gaps([(b.bbox[0] + eps, right_ink(b) - eps) for b in below], min_gap)
        if any(
            b.lines >= 2 and b.bbox[0] < g_lo and b.bbox[2] > g_hi
            for b in above
            for g_lo, g_hi in under
        ):
            return above, below
    return None


# A panel under columns is a paragraph (this many lines or more) across this share of them.
BAND_LINES = 3
BAND_SPAN = 0.8
# A line of prose holds at least this many characters.
BAND_CHARS = 15
# The panel's top stands within this many of its sizes under the gap.
BAND_REACH = 3.0


def band_under_columns(
    blocks: list[Block],
    rows: list[tuple[float, float]],
    gutter: tuple[float, float],
    min_gap: float,
) -> tuple[list[Block], list[Block]] | None:
    """The blocks above a row's gap and those below, when a paragraph below it on one side
    of ``gutter`` spans the columns of paragraphs above it on that side: ``(above, below)``
    or None.

    An annual report sets three columns over a row of panels, the first panel across the
    first two columns: the gutter right of the second column runs the page's whole height,
    and the third column was read after the panel under the first two. The gap across the
    page over the panels ends the columns. (A column that goes on down the page leaves no
    such gap; figures' and boxes' contents, and a table's columns of figures, are not
    looked at.) A heading of at most two lines set larger than the columns' text
    (:data:`.text_blocks.HEADING_RATIO`) across a gutter of theirs ends them too (a
    newsletter's "Fast Eating Facts" over a map under its first two columns).
    """
    eps = 0.5

    def left_of(b: Block) -> bool:
        return b.bbox[2] <= gutter[0] + eps

    def right_of(b: Block) -> bool:
        return b.bbox[0] >= gutter[1] - eps

    for lo, hi in rows:
        above, below = split_at(blocks, (lo + hi) / 2)
        for side in (left_of, right_of):
            over = [b for b in above if side(b) and not b.region]
            if not over or not below:
                continue
            width = max(b.bbox[2] for b in over) - min(b.bbox[0] for b in over)
            # Lines of prose, not a table's column of figures.
            paragraphs = [
                b for b in over if b.lines >= BAND_LINES and b.chars >= BAND_CHARS * b.lines
            ]
            text = max((b.size for b in paragraphs), default=0.0)
            panels = [
                b
                for b in below
                if side(b)
                and not b.region
                and b.bbox[1] <= hi + BAND_REACH * b.size  # right under the gap
                and (
                    (b.lines >= BAND_LINES and b.bbox[2] - b.bbox[0] >= BAND_SPAN * width)
                    # A heading set larger than the columns' text, across a gutter of theirs.
                    or (b.lines <= 2 and text and b.size >= HEADING_RATIO * text)
                )
            ]
            for g_lo, g_hi in gaps([(b.bbox[0] + eps, right_ink(b) - eps) for b in over], min_gap):
                if (
                    any(b.bbox[2] <= g_lo + eps for b in paragraphs)
                    and any(b.bbox[0] >= g_hi - eps for b in paragraphs)
                    and any(b.bbox[0] < g_lo and b.bbox[2] > g_hi for b in panels)
                ):
                    return above, below
    return None


# A line of names stands at least this many of its sizes over what follows it, its blocks
# at most this many apart (a poster's box titles, level across its columns, stand further).
LINE_APART = 1.0
LINE_SPACE = 3.0


def line_across_gutter(
    blocks: list[Block],
    rows: list[tuple[float, float]],
    gutter: tuple[float, float],
    min_gap: float,  # unused: the band finders share one signature
) -> tuple[list[Block], list[Block]] | None:
    """A top row that is one printed line across ``gutter``: ``(the row, the rest)`` or None.

    ICML sets its four authors' names and affiliation marks in one centred line over the
    columns, and the space between "Zeng 1 2" and "Bin Yang" fell where the columns' gutter
    is: the line was cut in two and its right half read as the right column's head. A row
    of three blocks or more, each one line, level with each other, whose gap across the
    gutter is no wider than the widest of its other gaps (each at most :data:`LINE_SPACE`
    sizes), standing apart (:data:`LINE_APART`) from what follows, is one line: read before
    the columns. (Column heads level across the columns stand a column's width apart, a
    poster's box titles further than that; authors' names right over their affiliations are
    a grid; a table's head row is the table's.)
    """
    if not rows:
        return None
    top, rest = split_at(blocks, sum(rows[0]) / 2)
    if len(top) < 3 or not rest or any(b.lines != 1 or b.region for b in top):
        return None
    size = max(b.size for b in top)
    if min(b.bbox[1] for b in rest) - max(b.bbox[3] for b in top) < LINE_APART * size:
        return None  # names over their affiliations: a grid of authors, read name by name
    if max(b.bbox[1] for b in top) >= min(b.bbox[3] for b in top):
        return None  # not level: every block of a line overlaps every other's height
    line = sorted(top, key=lambda b: b.bbox[0])
    spaces = [(a.bbox[2], b.bbox[0]) for a, b in pairwise(line)]
    if any(x1 - x0 < -1 for x0, x1 in spaces):
        return None  # blocks overlapping side by side: not one line of words
    across = [s for s in spaces if s[0] <= gutter[0] + 1 and s[1] >= gutter[1] - 1]
    others = [s[1] - s[0] for s in spaces if s not in across]
    if len(across) != 1 or not others or max(others) > LINE_SPACE * size:
        return None
    return (top, rest) if across[0][1] - across[0][0] <= max(others) else None


def rule_across_gutter(
    blocks: list[Block],
    rows: list[tuple[float, float]],
    gutter: tuple[float, float],
    rules: Sequence[tuple],
) -> tuple[list[Block], list[Block]] | None:
    """The blocks above a rule drawn across the columns and those under it: ``(above,
    below)`` or None.

    A newsletter ends one article and begins the next across its two columns, a pink rule
    between them from edge to edge: the columns' gutter runs on through the rule, and the
    first article's right column was read after the second's left one. A rule lying in a
    gap between rows, across the gutter and over half of each column's width at least,
    parts what lies above it from what lies under it, each read column by column. (A
    full-width table's rules part the columns above it from those under it as its box does;
    a footnote's rule or an underline stays within a column.)
    """
    lo, hi = gutter
    x_min = min(b.bbox[0] for b in blocks)
    x_max = max(b.bbox[2] for b in blocks)
    across = [
        r
        for r in rules
        if r[2] - r[0] > RULE_ASPECT * (r[3] - r[1])
        and r[0] <= (x_min + lo) / 2
        and r[2] >= (hi + x_max) / 2
    ]
    for r in sorted(across, key=lambda r: r[1]):
        y = (r[1] + r[3]) / 2
        if not any(g_lo <= y <= g_hi for g_lo, g_hi in rows):
            continue
        above, below = split_at(blocks, y)
        if above and below:
            return above, below
    return None


# A rule is at least this many times as long as it is thick.
RULE_ASPECT = 4.0
# A display's pieces: blocks of at most this many lines (a fraction stacks two).
DISPLAY_LINES = 3


def display_across_gutter(
    blocks: list[Block],
    rows: list[tuple[float, float]],
    gutter: tuple[float, float],
    min_gap: float,
) -> tuple[list[Block], list[Block], list[Block]] | None:
    """A row between two gaps across the page that reaches into the columns' gutter:
    ``(what lies above, the row, what lies below)`` or None.

    REVTeX sets a long display equation across both columns between their upper and lower
    halves (``widetext``): its pieces (a fraction, a sum, the number) left a gap where the
    gutter runs, narrower than the gutter, so the columns were cut through it and the upper
    left column was read on through the display into the lower one before the upper right.
    A row of pieces of a line or a fraction each, on both sides of ``gutter``, set between
    gaps across the page, one of them reaching into the gutter the other blocks leave, is
    one line across the columns: what lies above it is read first (its columns one after
    the other), then the row, then what lies below. No text of a column reaches into the
    gutter; a row of heads level across the columns stands within them; rows of authors
    stand over the columns, not between their halves (a paragraph on each side of the
    gutter above the row and below it).
    """
    lo, hi = gutter
    y_min, y_max = min(b.bbox[1] for b in blocks), max(b.bbox[3] for b in blocks)
    edges = [y_min, *(y for gap in rows for y in gap), y_max]
    for top, bottom in zip(edges[::2], edges[1::2], strict=True):
        row = [b for b in blocks if top <= (b.bbox[1] + b.bbox[3]) / 2 <= bottom]
        others = [b for b in blocks if all(b is not r for r in row)]
        if not row or not others or any(b.lines > DISPLAY_LINES for b in row):
            continue
        if not any(b.bbox[2] <= lo + 1 for b in row) or not any(b.bbox[0] >= hi - 1 for b in row):
            continue  # not across the gutter
        if not _between_columns(others, top, bottom, gutter):
            continue  # title matter's rows (authors level across the gutter) stand over them
        wide = [
            (g_lo, g_hi)
            for g_lo, g_hi in gaps([(b.bbox[0] + 0.5, right_ink(b) - 0.5) for b in others], min_gap)
            if g_lo <= lo + 1 and g_hi >= hi - 1 and g_hi - g_lo > hi - lo + 1
        ]
        if not wide or not any(
            b.bbox[0] < g_hi - 1 and b.bbox[2] > g_lo + 1 for b in row for g_lo, g_hi in wide
        ):
            continue
        above = [b for b in others if b.bbox[3] <= top + 0.5]
        return above, row, [b for b in others if all(b is not a for a in above)]
    return None


def _between_columns(others: list[Block], top: float, bottom: float, gutter) -> bool:
    """Do paragraphs (:data:`DISPLAY_LINES` lines or more) stand left and right of
    ``gutter`` both above ``top`` and below ``bottom``?"""
    lo, hi = gutter
    paragraphs = [b for b in others if b.lines > DISPLAY_LINES]
    return all(
        any(where(b) and side(b) for b in paragraphs)
        for where in (lambda b: b.bbox[3] <= top + 0.5, lambda b: b.bbox[1] >= bottom - 0.5)
        for side in (lambda b: b.bbox[2] <= lo + 1, lambda b: b.bbox[0] >= hi - 1)
    )
