"""Column gutters the plain gap test misses: under a line that overhangs one, too narrow
for a gutter beside a sidebar, or narrow with a rule drawn in it.

Split out of :mod:`.reading_order`, whose XY-cut tries these in turn when the blocks leave
no gap of a column gutter's width.
"""

from __future__ import annotations

from collections.abc import Sequence

from basehalf_core.documents.text_blocks import FOOTNOTE_SIZE_RATIO, Block, gaps, right_ink

# A line that overhangs a gutter keeps at least this share of its width on one side of it,
# and at most this many lines overhang one gutter (a contents page's dot leaders are many).
OVERHANG_SIDE = 2 / 3
OVERHANG_LINES = 1
# The gutter runs between paragraphs of running text: a block of at least this many lines on
# either side (a table's cells and a contents page's entries are shorter).
OVERHANG_COLUMN_LINES = 5


def gutters_under_overhangs(blocks: list[Block], min_col_gap: float) -> list[tuple[float, float]]:
    """Column gutters that only a single line reaching over them from one side crosses.

    A picture's caption set under it reaches a little way into the next column (a textbook's
    photo across two of three columns) and closes the gutter the columns of text leave
    open: the page would be read across its columns, row by row. A gutter that the blocks
    of more than one line leave open, with paragraphs of at least
    :data:`OVERHANG_COLUMN_LINES` lines on both sides, is still a gutter when at most
    :data:`OVERHANG_LINES` block crosses it, as one line lying for at least
    :data:`OVERHANG_SIDE` of its width on one side, level with such a paragraph (not above
    the columns, with the title matter); that line is read on the side where its middle
    lies. A headline or a heading centred across two columns lies across the gutter,
    not on one side; the dot leaders of a contents page cross it row after row; a caption
    centred under a photo as wide as three columns crosses two gutters.
    """
    # A figure's or a drawn box's words are not the columns' text: a figure over the top of
    # one column may reach past the gutter into the next, narrowed beside it.
    tall = [b for b in blocks if b.lines > 1 and not b.region]
    if len(tall) < 2:
        return []
    out = []
    open_gaps = gaps([(b.bbox[0] + 0.5, b.bbox[2] - 0.5) for b in tall], min_col_gap)

    def spans(b: Block) -> int:
        return sum(b.bbox[0] + 1 < hi and b.bbox[2] - 1 > lo for lo, hi in open_gaps)

    for lo, hi in open_gaps:
        mid = (lo + hi) / 2
        text = [b for b in tall if b.lines >= OVERHANG_COLUMN_LINES]
        if not any(b.bbox[2] - 1 <= lo for b in text) or not any(b.bbox[0] + 1 >= hi for b in text):
            continue

        crossing = [b for b in blocks if b.bbox[0] + 1 < hi and b.bbox[2] - 1 > lo]
        if any(spans(b) > 1 for b in crossing):
            continue  # across two gutters: under something as wide as three columns
        lines = [b for b in crossing if not b.region]
        if (
            len(lines) <= OVERHANG_LINES
            and all(
                b.lines == 1
                and _one_side(b, mid)
                and any(t.bbox[1] <= b.bbox[1] and b.bbox[3] <= t.bbox[3] for t in text)
                for b in lines
            )
            # A drawn box's words small like a diagram's labels, not a sidebar's text.
            and all(
                _one_side(b, mid)
                and (
                    b.region == "float" or b.size < FOOTNOTE_SIZE_RATIO * min(t.size for t in text)
                )
                for b in crossing
                if b.region
            )
        ):
            out.append((lo, hi))
    return out


def _one_side(b: Block, x: float) -> bool:
    """Does ``b`` lie for at least :data:`OVERHANG_SIDE` of its width on one side of ``x``?"""
    return max(x - b.bbox[0], b.bbox[2] - x) >= OVERHANG_SIDE * (b.bbox[2] - b.bbox[0])


# Text beside a column rule on each side holds at least this many lines.
RULED_LINES = 3


def ruled_gutters(blocks: list[Block], rules: Sequence[tuple]) -> list[tuple[float, float]]:
    """Gutters narrower than a column gap with a column rule drawn in them.

    A parish bulletin draws a rule between its sermon and its schedule, the schedule's
    lines starting 3 points right of the sermon's: too close for a gutter, the two were
    read across, row by row. Any gap between the blocks that holds an upright rule, with
    :data:`RULED_LINES` lines of text level with the rule on each side, is a gutter.
    """
    out = []
    for lo, hi in gaps([(b.bbox[0] + 0.5, right_ink(b) - 0.5) for b in blocks], 0.5):
        for r in rules:
            if r[3] - r[1] < r[2] - r[0] or not lo - 2 <= (r[0] + r[2]) / 2 <= hi + 2:
                continue
            level = [b for b in blocks if b.bbox[1] < r[3] and b.bbox[3] > r[1]]
            left = sum(b.lines for b in level if b.bbox[2] <= hi)
            right = sum(b.lines for b in level if b.bbox[0] >= lo)
            if left >= RULED_LINES and right >= RULED_LINES:
                out.append((lo, hi))
                break
    return out


# A narrow gutter is at least this share of the usual one (a résumé's sidebar set close to
# its main column), with text of at least this many lines on each side.
NARROW_GUTTER = 0.5
NARROW_GUTTER_LINES = 10
# Lines of text hold this many characters on average: a contents page's page numbers, a
# table's figures or a listing's line numbers beside a narrow gap are no column.
NARROW_GUTTER_CHARS = 12


def narrow_gutters(blocks: list[Block], min_col_gap: float) -> list[tuple[float, float]]:
    """Gutters narrower than ``min_col_gap`` that run the whole height between two columns
    of text.

    A résumé sets its sidebar's text up to 5 points from the main column (Deedy's: the
    "About me" paragraph ends at 224.9, the main column starts at 229.5), under the gap a
    column break needs, and the page was read row by row across both. A gap of at least
    :data:`NARROW_GUTTER` of the usual one that no block crosses is a gutter when each side
    holds :data:`NARROW_GUTTER_LINES` lines of text or more (blocks of lines of
    :data:`NARROW_GUTTER_CHARS` characters on average); a word space is narrower.
    """
    out = []
    text = [b for b in blocks if b.chars >= NARROW_GUTTER_CHARS * b.lines]
    for lo, hi in gaps(
        [(b.bbox[0] + 0.5, right_ink(b) - 0.5) for b in blocks], NARROW_GUTTER * min_col_gap
    ):
        left = sum(b.lines for b in text if right_ink(b) - 0.5 <= lo)
        right = sum(b.lines for b in text if b.bbox[0] + 0.5 >= hi)
        if min(left, right) >= NARROW_GUTTER_LINES:
            out.append((lo, hi))
    return out
