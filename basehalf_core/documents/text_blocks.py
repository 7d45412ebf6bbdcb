"""A text block as the reading-order rules see it, and the measures of blocks they share.

Pure Python: boxes, text directions and font sizes, no PDF.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

# A footnote is set smaller than the running text (NeurIPS: 9 pt under 10 pt).
FOOTNOTE_SIZE_RATIO = 0.92
# Text under this share of the page's text size is a figure's contents.
TINY_RATIO = 0.5
# A heading outside the rules that know a column's headings (a résumé's "AWARDS", a
# newsletter's banner) is set at least this much larger than the text, in at most this many
# lines.
HEADING_RATIO = 1.1
HEADING_LINES = 2
# A heading of at most this many characters may take three lines (a manual's narrow column:
# "Hands-free locking when / moving away from the / vehicle"; a newspaper's headline).
NARROW_HEADING_CHARS = 60


def heading_lines(chars: int, ratio: float = 1.0) -> int:
    """How many lines a heading of ``chars`` characters may take: :data:`HEADING_LINES`, or
    three when it is short (:data:`NARROW_HEADING_CHARS`, that many times ``ratio`` for a
    heading set ``ratio`` times the text's size: a newsletter's 72-character headline in 21
    points over 10-point text takes three lines of its column)."""
    return 3 if chars <= NARROW_HEADING_CHARS * max(ratio, 1.0) else HEADING_LINES


@dataclass
class Block:
    """One text block as the reading-order pass sees it.

    Attributes:
        id: the caller's key for the block.
        bbox: (x0, y0, x1, y1) in displayed page space, points, y down.
        direction: the text direction in displayed space, e.g. (1, 0) for left to right.
        size: the block's typical font size in points.
        chars: how many characters it holds (weights the page's dominant direction and size).
        lines: how many lines it has.
        first_char: its first non-space character ("" if none), to spot footnote markers.
        style: its font family and size, e.g. ``Times@10.0`` ("" if unknown).
        region: ``float`` or ``box`` when the page's drawings set it apart ("" if not).
        running: it repeats at the same height on nearby pages (a running head or footer).
        fixed: most of its characters are set in a fixed-pitch font (a code listing).
        emphasis: all but a few of its characters are set in a bold or italic face (a
            photo's caption in the text's family and size, set off only by its weight).
        first_line: the box of its first line in displayed page space (None if unknown).
        ruled: it starts right under a short rule at its left edge, low on the page (a
            footnote rule).
        first_word: its first word ("" if none), to spot a section's number.
        banner: it is a heading set on a filled band of its own (a poster's column head).
        frame: the box of the outline drawn around it and other blocks (a poster's section),
            in displayed page space (None if none); a frame's stand-in in the reading order
            (its blocks read as one) has its own box.
        ink_right: the right edge of its lines' ink where the box says more: a CJK line's
            closing punctuation ("，" "。") sits in the left half of its cell, whose blank
            right half reaches into the gutter (None if the box's edge is the ink's).
        numbered: how many of its lines open with a section's number and go on (a section's
            heading and its first subsection's heading grouped as one block).
        last_word: its last word ("" if none), to see whether its sentence goes on.
    """

    id: object
    bbox: tuple[float, float, float, float]
    direction: tuple[float, float]
    size: float
    chars: int
    lines: int
    first_char: str = ""
    style: str = ""
    region: str = ""
    running: bool = False
    fixed: bool = False
    first_line: tuple[float, float, float, float] | None = None
    ruled: bool = False
    first_word: str = ""
    banner: bool = False
    frame: tuple[float, float, float, float] | None = None
    ink_right: float | None = None
    numbered: int = 0
    last_word: str = ""
    emphasis: bool = False


def dir_key(direction: tuple[float, float]) -> tuple[int, int]:
    return (round(direction[0]), round(direction[1]))


# A block's characters cover at most this many times its box's area (a size squared a
# character is about twice the area a character of running text takes).
BOX_AREA = 2.0


def text_size(blocks) -> float:
    """The font size that covers the most of the page (characters times size squared).

    Counting characters alone, a figure holding thousands of words in 2-point print would
    outvote a page's running text. A block counts at most twice its box's area: a masthead's
    one line ("PROCRASTINATOR", 60 pt, then its motto in 16 pt) takes its largest size for
    all of its characters, and outvoted the newspaper's text.
    """
    area: Counter = Counter()
    chars: Counter = Counter()
    lines: Counter = Counter()  # the most lines a block of that size takes
    for b in blocks:
        x0, y0, x1, y1 = getattr(b, "bbox", None) or b.box  # a block, or a line's segment
        box = (x1 - x0) * (y1 - y0)
        size = round(b.size * 2) / 2
        area[size] += min(b.chars * b.size * b.size, BOX_AREA * box)
        chars[size] += b.chars
        lines[size] = max(lines[size], getattr(b, "lines", 1))
    ranked = [size for size, _ in area.most_common(2)]
    if not ranked:
        return 0.0
    # A slide's title of two lines in 44 points covers more of it than the 17-point text
    # under it: set in short blocks only, with a third of the characters of the size after
    # it, it is a title's size, not the text's.
    if (
        len(ranked) == 2
        and ranked[1] >= MIN_TEXT_SIZE
        and lines[ranked[0]] <= TITLE_LINES
        and TITLE_CHARS * chars[ranked[0]] <= chars[ranked[1]]
    ):
        return ranked[1]
    return ranked[0]


# A size set in blocks of at most this many lines, with at most this share of the characters
# of the size covering the next most of the page, is a title's ...
TITLE_LINES = 3
TITLE_CHARS = 3
# ... when that size is at least this many points: a figure's 4.5-point labels under its
# 12-point title (a paper's page holding only a figure) are no running text.
MIN_TEXT_SIZE = 6.0


def text_style(blocks) -> str:
    """The style whose characters cover the most of the page (characters times size squared),
    "" if none: the running text's, which a figure's small print or a title's few large
    letters do not outvote."""
    area: Counter = Counter()
    for b in blocks:
        area[b.style] += b.chars * b.size * b.size
    return area.most_common(1)[0][0] if area else ""


def x_overlap(a: Block, b: Block) -> bool:
    return min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0]) > 0


def split_at(blocks: list[Block], y: float) -> tuple[list[Block], list[Block]]:
    """A row cut at height ``y``: the blocks whose middle lies above it, and the rest."""
    above = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 < y]
    return above, [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 >= y]


def gaps(intervals: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """Empty stretches between merged intervals that are at least ``min_gap`` wide."""
    out = []
    ordered = sorted(intervals)
    end = ordered[0][1]
    for lo, hi in ordered[1:]:
        if lo - end >= min_gap:
            out.append((end, lo))
        end = max(end, hi)
    return out


def right_ink(b: Block) -> float:
    """Where ``b``'s ink ends on the right, for finding gutters (see ``Block.ink_right``)."""
    return b.bbox[2] if b.ink_right is None else b.ink_right
