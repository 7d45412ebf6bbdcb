"""Sections whose columns are balanced: a heading across the page starts a new pair of columns.

A dictionary or a glossary sets each letter's entries in two columns balanced under the
letter's heading ("G", then "Gamut … / … notes"), and the next letter starts below both
columns. Its reading runs section by section: left column, right column, next letter. A
paper's columns run the page's whole height instead, whatever the headings inside them, so
XY-cut prefers columns to rows (see :func:`.reading_order.xy_cut`). These rules tell the
first kind from the second by the page's geometry alone: where the heading stands, and
whether both columns stop above it and start again level below it.
"""

from __future__ import annotations

import unicodedata
from itertools import pairwise

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.text_blocks import Block, gaps, split_at, text_size

# A heading set in the gutter has its middle within this share of its size of the gutter's.
GUTTER_SLACK = 0.5


def headings_in_gutter(
    blocks: list[Block], cols: list[tuple[float, float]]
) -> tuple[list[tuple[float, float]], list[Block]]:
    """``cols`` without the gutters that one-line headings set centred in them close, and
    those headings.

    A glossary centres each letter ("G") between its two columns. The letter is narrower
    than the gutter, so it splits the gutter into two gaps, and XY-cut read the letters as a
    narrow column of their own between the two real ones. A gutter is closed when every
    block between two neighbouring gaps is one line centred on the two gaps together; the
    rows then cut the page at each heading. A heading stands alone in its row; the labels of
    a reference list set in the gutter stand level with their entries.

    Args:
        blocks: the blocks being cut.
        cols: the gaps between them across the page, left to right.

    Returns:
        the gaps that are still gutters, and the headings in the others.
    """
    closed: set[tuple[float, float]] = set()
    headings: list[Block] = []
    ordered = sorted(cols)
    for left, right in pairwise(ordered):
        inside = [b for b in blocks if b.bbox[0] >= left[1] - 1 and b.bbox[2] <= right[0] + 1]
        middle = (left[0] + right[1]) / 2
        if inside and all(
            b.lines == 1
            and abs((b.bbox[0] + b.bbox[2]) / 2 - middle) <= GUTTER_SLACK * b.size
            and _alone_in_row(b, blocks)
            for b in inside
        ):
            closed.update((left, right))
            headings.extend(inside)
    return [g for g in cols if g not in closed], headings


def _alone_in_row(heading: Block, blocks: list[Block]) -> bool:
    """Does no other block stand level with ``heading``? A heading between sections has a
    row of its own; a reference list's labels ("[18]") stand level with their entries."""
    y0, y1 = heading.bbox[1], heading.bbox[3]
    return not any(b is not heading and b.bbox[1] < y1 and b.bbox[3] > y0 for b in blocks)


# A section's heading is set at least this much larger than the text under it.
HEADING_SIZE_RATIO = 1.2
# Balanced columns end within this many of the text's sizes of each other (two lines and their
# leading), and the next section's columns start level, within this share of a size.
BALANCED_ENDS = 3.0
LEVEL_STARTS = 0.5


# A page set in balanced sections shows it at this many headings at least: one heading alone
# in a row between columns that stop and start level can be a coincidence of a paper's
# spacing (a heading beside the gap between a table's caption and the next paragraph).
SECTION_HEADINGS = 2


def balanced_section_headings(
    blocks: list[Block], rows: list[tuple[float, float]], gutter: tuple[float, float]
) -> list[Block]:
    """The headings that stand alone in their rows between balanced columns.

    A dictionary that sets its letters flush left in the left column ("H" over "haema")
    leaves no gap in the gutter to tell by. Its letter stands alone in a row across the
    page, set larger than the entries; the two columns above it end within two lines of
    each other and the two under it start level. In a paper the other column's text runs on
    beside a heading, so no row across the page holds the heading alone, and where it does
    by chance, it does once: fewer than :data:`SECTION_HEADINGS` such headings count for
    nothing.

    Args:
        blocks: the blocks being cut, which leave ``gutter`` open between columns.
        rows: the gaps between them down the page, top to bottom.
        gutter: the gap between the columns.

    Returns:
        the headings, top to bottom, or an empty list.
    """
    cut = (gutter[0] + gutter[1]) / 2
    headings = []
    for above_gap, below_gap in pairwise(rows):
        row = [b for b in blocks if above_gap[1] <= (b.bbox[1] + b.bbox[3]) / 2 <= below_gap[0]]
        if len(row) != 1 or row[0].lines != 1:
            continue
        heading = row[0]
        above = [b for b in blocks if b.bbox[3] <= above_gap[1]]
        below = [b for b in blocks if b.bbox[1] >= below_gap[0]]
        ends = _sides(above, cut, lambda b: b.bbox[3], max)
        starts = _sides(below, cut, lambda b: b.bbox[1], min)
        if ends is None or starts is None:
            continue
        size = text_size(above + below)
        if (
            heading.size >= HEADING_SIZE_RATIO * size
            and abs(ends[0] - ends[1]) <= BALANCED_ENDS * size
            and abs(starts[0] - starts[1]) <= LEVEL_STARTS * size
        ):
            headings.append(heading)
    if len(headings) >= SECTION_HEADINGS:
        return headings
    # One heading alone counts where the other column leaves its row empty, with a line's
    # room to spare: a paragraph's end in a paper's other column leaves a line's gap at most.
    return [h for h in headings if _other_side_open(h, blocks, cut, text_size(blocks))]


def _other_side_open(heading: Block, blocks: list[Block], cut: float, size: float) -> bool:
    """Does the column across ``cut`` from ``heading`` hold nothing from a line over the
    heading to its foot, the two columns set alike over and under it?

    A newsletter opens the Vice President's letter under the President's with "Letter from
    the Vice President" across its left column only, in 16-point capitals: the right column
    ends the first letter 14 points over the heading and starts the second at its foot, and
    the two letters were read as the page's two columns.
    """
    left = (heading.bbox[0] + heading.bbox[2]) / 2 < cut
    other = [b for b in blocks if ((b.bbox[0] + b.bbox[2]) / 2 < cut) != left]
    mine = [b for b in blocks if b is not heading and b not in other]
    middle = (heading.bbox[1] + heading.bbox[3]) / 2

    def over(side: list[Block]) -> Block | None:
        return max((b for b in side if b.bbox[3] <= middle), key=lambda b: b.bbox[3], default=None)

    def under(side: list[Block]) -> Block | None:
        return min((b for b in side if b.bbox[1] >= middle), key=lambda b: b.bbox[1], default=None)

    ends = [over(other), under(other), over(mine), under(mine)]
    if None in ends:
        return False
    above, below, mine_above, mine_below = ends
    # The two columns are one text's, over and under the heading: the last blocks over it
    # are set alike, and so are the first under it (a résumé's sidebar beside its main
    # column is not).
    if above.style != mine_above.style or below.style != mine_below.style:
        return False
    top, foot = above.bbox[3], below.bbox[1]
    inside = any(b.bbox[1] < foot and b.bbox[3] > top for b in other)
    return not inside and top <= heading.bbox[1] - size and foot >= heading.bbox[3] - 1


# The heads of a grid's row stand level within this share of their size.
GRID_LEVEL = 0.5
# A grid read row by row has at least this many rows.
GRID_ROWS = 2


def grid_rows(
    blocks: list[Block], rows: list[tuple[float, float]], gutter: tuple[float, float]
) -> tuple[list[Block], list[Block]] | None:
    """A grid's first row and the rest, cut across the page before its columns, or
    None.

    A brochure sets its four values two by two, each a one-line head over a short paragraph
    ("1 PUT SAFETY FIRST" beside "2 DO THE RIGHT THING", then "3 KEEP IT SIMPLE" beside
    "4 MAKE A DIFFERENCE"): read as two columns, the third item came before the second. When
    a gap across the page parts the blocks into bands, every band opens on both sides of
    ``gutter`` with a head of one line, level with the other side's and set larger than the
    text under it, and the heads' numbers run across the rows (1, 2, then 3, 4), the bands
    are rows of a grid, read one after the other. Heads numbered down the columns (a
    horoscope's "1st years", "2nd years" on the left), a paper's level section headings
    ("2.2" beside "2.4") or heads with no numbers leave the columns.
    """
    if not rows:
        return None
    cut = (gutter[0] + gutter[1]) / 2
    edges = [min(b.bbox[1] for b in blocks) - 1, *(sum(r) / 2 for r in rows)]
    edges.append(max(b.bbox[3] for b in blocks) + 1)
    numbers: list[int | None] = []
    first = None  # the foot of the grid's first row
    for lo, hi in pairwise(edges):
        band = [b for b in blocks if lo <= (b.bbox[1] + b.bbox[3]) / 2 < hi]
        if first is None and all(b.bbox[0] < cut < b.bbox[2] for b in band):
            continue  # a lead across the page over the grid: read first
        heads = _grid_heads(band, cut)
        if heads is not None and first is None:
            first = hi
        if heads is None:
            # What lies under two rows of the grid or more (a flyer's fee box under its four
            # cards) is read after it.
            if len(numbers) >= 2 * GRID_ROWS:
                break
            return None
        numbers += [_item_number(h, blocks) for h in heads]
    # The items' numbers run across the rows (1 2 / 3 4): a grid's order is the page's own.
    # Numbered down the columns (1st and 2nd on the left), or not numbered, it is columns.
    if (
        len(numbers) < 2 * GRID_ROWS
        or any(n is None for n in numbers)
        or numbers != list(range(numbers[0], numbers[0] + len(numbers)))
    ):
        return None
    return split_at(blocks, first)


def _grid_heads(band: list[Block], cut: float) -> list[Block] | None:
    """The heads of a grid's row, left and right of ``cut``: on each side a head of one line
    over what it heads, set larger, or a card drawn round (a frame's stand-in, its number
    its first word), the two level; or None."""
    heads = []
    for side in (lambda b: b.bbox[2] <= cut, lambda b: b.bbox[0] >= cut):
        own = [b for b in band if side(b) and not b.region]
        if not own:
            return None
        if len(own) == 1 and own[0].frame == own[0].bbox:
            heads.append(own[0])
            continue
        head = min(own, key=lambda b: b.bbox[1])
        under = [b for b in own if b is not head and b.bbox[1] >= head.bbox[3] - 1]
        if head.lines != 1 or not under or head.size <= max(b.size for b in under):
            return None
        heads.append(head)
    if abs(heads[0].bbox[1] - heads[1].bbox[1]) > GRID_LEVEL * heads[0].size:
        return None
    return heads


# A grid of cards has at least this many rows of heads, its narrowest column at least this
# share of its widest.
CARD_ROWS = 2
CARD_WIDTHS = 0.6


def card_rows(blocks: list[Block], min_col_gap: float, body_style: str) -> list[list[Block]] | None:
    """A grid of cards, cell by cell (what stands over its first row first), or None.

    A school's prospectus sets its staff two by two: a photo, a name and a role in bold, a
    short biography; the names of a row stand level across the gutter. Read as two columns,
    the second card came after the third. When every column holds a one-line head in one
    style the running text is not set in (``body_style``; bold or italic throughout counts),
    level with the other columns' heads, in :data:`CARD_ROWS` rows or more, each over a
    paragraph, in columns about as wide (:data:`CARD_WIDTHS`), the rows of heads part the
    page into rows of cards, read one after the other, each card (a column's blocks between
    two rows of heads) on its own; what lies under the last row, further than a row's
    height, is read after the grid. A paper's numbered section heads ("2.2" beside "2.4")
    make no grid.
    """
    singles = [b for b in blocks if b.lines == 1]
    if len(singles) < 2 * CARD_ROWS:
        return None
    gutters = gaps([(b.bbox[0] + 0.5, b.bbox[2] - 0.5) for b in blocks], min_col_gap)
    if not gutters:
        return None
    cuts = [(lo + hi) / 2 for lo, hi in gutters]

    def column(b: Block) -> int:
        return sum(c < (b.bbox[0] + b.bbox[2]) / 2 for c in cuts)

    # Cards are alike: the columns about as wide (a contents' titles beside their page
    # numbers, a table's labels beside its figures, are not).
    widths = [
        max(b.bbox[2] for b in blocks if column(b) == k)
        - min(b.bbox[0] for b in blocks if column(b) == k)
        for k in range(len(cuts) + 1)
        if any(column(b) == k for b in blocks)
    ]
    if len(widths) != len(cuts) + 1 or min(widths) < CARD_WIDTHS * max(widths):
        return None

    by_style: dict[tuple[str, bool], list[Block]] = {}
    for b in singles:
        # Set apart from the text by its face or size, or in bold or italic throughout.
        # A numbered head opens a section of running text (a paper's "2.2" beside "2.4").
        numbered = bool(SECTION_NUMBER.fullmatch(b.first_word))
        if not b.region and not numbered and (b.style != body_style or b.emphasis):
            by_style.setdefault((b.style, b.emphasis), []).append(b)
    for heads in by_style.values():
        rows: list[list[Block]] = []
        for h in sorted(heads, key=lambda b: b.bbox[1]):
            middle = (h.bbox[1] + h.bbox[3]) / 2
            if rows and abs((rows[-1][0].bbox[1] + rows[-1][0].bbox[3]) / 2 - middle) <= (
                GRID_LEVEL * h.size
            ):
                rows[-1].append(h)
            else:
                rows.append([h])
        rows = [r for r in rows if sorted(column(h) for h in r) == list(range(len(cuts) + 1))]
        if len(rows) < CARD_ROWS:
            continue
        tops = [min(h.bbox[1] for h in r) - 0.5 for r in rows]
        # A row right under another, nothing of the cards between (a name's role set in the
        # same bold as the name), goes with the row above.
        kept = tops[:1]
        for top in tops[1:]:
            between = [b for b in blocks if kept[-1] <= b.bbox[1] < top]
            if len(between) > len(cuts) + 1:
                kept.append(top)
        tops = kept
        if len(tops) < CARD_ROWS:
            continue
        # The last row of cards is as tall as the one above it at most: what lies lower (the
        # columns of text under a grid of authors) is read after the grid.
        pitch = tops[-1] - tops[-2]
        bounds = [*tops, tops[-1] + pitch]
        if any(
            b.bbox[1] < tops[0] <= b.bbox[3]
            or any(lo < b.bbox[1] < hi < b.bbox[3] for lo, hi in pairwise(bounds))
            for b in blocks
        ):
            return None  # a block across a row's top: no grid
        cells = [[b for b in blocks if b.bbox[3] <= tops[0]]]
        for lo, hi in pairwise(bounds):
            band = [b for b in blocks if lo <= b.bbox[1] < hi]
            if any(_across(b, cuts) for b in band):
                return None  # a block across the gutter: not cards
            row = [[b for b in band if column(b) == k] for k in range(len(cuts) + 1)]
            if any(not any(b.lines >= 2 for b in cell) for cell in row):
                return None  # a card holds a paragraph under its head (a contents' row none)
            cells += row
        cells.append([b for b in blocks if b.bbox[1] >= bounds[-1]])
        return [c for c in cells if c]
    return None


def _across(b: Block, cuts: list[float]) -> bool:
    """Does ``b`` reach across one of the gutters' middles?"""
    return any(b.bbox[0] < c < b.bbox[2] for c in cuts)


def _item_number(head: Block, blocks: list[Block]) -> int | None:
    """The number a head opens with ("2 DO …", "3.") or stands right of, on its line (a
    number on a square of its own), or None."""
    number = _number(head.first_word)
    if number is None:
        beside = [
            b
            for b in blocks
            if b is not head
            and b.lines == 1
            and 0 <= head.bbox[0] - b.bbox[2] <= 2 * head.size
            and min(b.bbox[3], head.bbox[3]) - max(b.bbox[1], head.bbox[1]) > 0.3 * head.size
        ]
        if beside:
            number = _number(max(beside, key=lambda b: b.bbox[2]).first_word)
    return number


def _number(word: str) -> int | None:
    """The number ``word`` opens with: "3", "3.", "2)", or a circled or otherwise set
    number of one character ("①", "❷", "⑫"; no digits to ``int``)."""
    digits = word.rstrip(".):")
    if digits.isdecimal():
        return int(digits)
    value = unicodedata.numeric(word[:1], None)
    return int(value) if value is not None and value == int(value) and value > 0 else None


def _sides(blocks: list[Block], cut: float, edge, pick) -> tuple[float, float] | None:
    """``pick`` of ``edge`` over the blocks left of ``cut`` and over those right of it, or
    None when a side is empty. Blocks across the cut (a title over the columns) are not
    looked at."""
    left = [edge(b) for b in blocks if b.bbox[2] <= cut]
    right = [edge(b) for b in blocks if b.bbox[0] >= cut]
    if not left or not right:
        return None
    return pick(left), pick(right)


# Side heads stand in a margin column at most this share of the text column's width, each
# level with a paragraph's first line (their tops at most this share of the head's size apart).
SIDE_MARGIN_SHARE = 0.6
SIDE_LEVEL = 0.5
# A side head has at most this many lines (one more in a margin of side heads alone, which
# holds at least this many of them).
SIDE_HEAD_LINES = 2
SIDE_HEADS_ALONE = 2
# ... and is set at most this many times the text's size.
SIDE_HEAD_RATIO = 1.5


def side_heads(left: list[Block], right: list[Block], min_col_gap: float) -> list[Block]:
    """The side heads of a margin column ``left`` beside the text column ``right``, or none.

    A manual (FrameMaker's layout) or a textbook sets each section's heading in a wide left
    margin, level with the section's first paragraph, and tips and notes in the margin under
    it: read as a column of its own, every heading of the page came before the text. A side
    head is a block of at most :data:`SIDE_HEAD_LINES` lines, set at least as large as the
    text beside it, whose top stands level with the top of a paragraph of that text (in the
    text's size: a heading level with another column's heading is none); the margin is at
    most :data:`SIDE_MARGIN_SHARE` of the text column's width (a paper's two columns are
    alike), and the text beside it is one column, with no gutter of ``min_col_gap`` (a
    manual's first column beside two more is a column). Figures, boxes and their text
    (``Block.region``) are neither heads nor paragraphs, and a bare number (a line's number
    in a column of them) is no head.
    """
    text = [o for o in right if not o.region]
    if not left or not text:
        return []
    width = max(b.bbox[2] for b in left) - min(b.bbox[0] for b in left)
    text_width = max(b.bbox[2] for b in text) - min(b.bbox[0] for b in text)
    if width > text_width:
        return []
    if gaps([(o.bbox[0] + 0.5, o.bbox[2] - 0.5) for o in right], min_col_gap):
        return []
    size = text_size(text)

    def side_head(b: Block, lines: int, largest: float = float("inf")) -> bool:
        return (
            not (b.first_word.isdigit() and b.chars <= len(b.first_word))  # a line's number
            and b.lines <= lines
            and size <= b.size <= largest
            and any(
                o.lines >= 2
                and abs(o.size - size) <= 0.5
                and abs(o.bbox[1] - b.bbox[1]) <= SIDE_LEVEL * b.size
                for o in text
            )
        )

    own = [b for b in left if not b.region]
    # A margin holding nothing but side heads (a doctrine's executive summary, its italic
    # heads of three lines in a margin two thirds as wide as its text) is one however wide;
    # heads set in display type beside a letter (a prospectus's spread) are its title.
    largest = SIDE_HEAD_RATIO * size
    if len(own) >= SIDE_HEADS_ALONE and all(
        side_head(b, SIDE_HEAD_LINES + 1, largest) for b in own
    ):
        return own
    if width > SIDE_MARGIN_SHARE * text_width:
        return []
    return [b for b in own if side_head(b, SIDE_HEAD_LINES)]
