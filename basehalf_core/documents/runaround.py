"""Lines a picture breaks: the pieces left of a photo set over a column's first lines.

A magazine lets a cut-out photo reach over a column's first lines, which run round it: the
left pieces fall inside the photo's box and were read as its contents. These rules find
such pieces and put them back into their paragraph (:mod:`.regions` calls them).
"""

from __future__ import annotations

from basehalf_core.documents.grouping import Group
from basehalf_core.documents.line_pieces import left_to_right, lines_of

# A line's piece stands level with another's when their middles lie within this share of
# the text's size. A picture breaks at most RUNAROUND_LINES lines of a column.
RUNAROUND_LEVEL = 0.3
RUNAROUND_LINES = 8


def wrapped_with(g: Group, groups: list[Group], pictures: list) -> Group | None:
    """The paragraph whose lines ``g`` opens where a picture breaks them (None if none).

    A magazine sets an apple's photo over the gutter and the second column's first lines run
    round it: "Richard's" left of the apple, "market. If Bob" right of it, the paragraph
    going on under the photo from the same left edge. The pieces on the left, inside the
    photo's box, were read as its contents. A block of at most :data:`RUNAROUND_LINES`
    lines inside a picture (an image: a table's cells stand in rules), each line level with
    a line right of it of one other block in its style and size, which starts at the same
    left edge (within a size), holds more lines and runs on past the picture, is that
    block's running text.
    """
    b = g.block
    cx, cy = (g.box[0] + g.box[2]) / 2, (g.box[1] + g.box[3]) / 2
    held = [r for r in pictures if r[0] <= cx <= r[2] and r[1] <= cy <= r[3]]
    if not held or b.lines > RUNAROUND_LINES or not g.segments:
        return None
    for h in groups:
        o = h.block
        if (
            h is g
            or o.style != b.style
            or o.lines <= b.lines
            or abs(h.box[0] - g.box[0]) > b.size
            or all(h.box[3] <= r[3] + b.size for r in held)
        ):
            continue
        if all(any(_level(s, t, b.size) for t in h.segments) for s in g.segments):
            return h
    return None


def _level(s, t, size: float) -> bool:
    """Piece ``t`` stands on piece ``s``'s line, right of it."""
    middle = abs((t.box[1] + t.box[3]) - (s.box[1] + s.box[3])) / 2
    return middle <= RUNAROUND_LEVEL * size and t.box[0] >= s.box[2]


def runaround_pairs(groups: list[Group], pictures: list) -> dict[int, tuple[Group, Group]]:
    """Each block of pieces a picture breaks off (:func:`wrapped_with`) with its paragraph,
    by the piece block's id()."""
    if not pictures:
        return {}
    pairs = {}
    for g in groups:
        h = wrapped_with(g, groups, pictures)
        if h is not None:
            pairs[id(g)] = (g, h)
    return pairs


def straddled(g: Group, h: Group, pictures: list) -> bool:
    """Do ``g``'s lines go on right of a picture in ``h``, one paragraph run round both of
    its sides?

    A brochure sets a flower in the middle of an oval of text: the lines above it run across
    the oval, the lines beside it are broken in two by the flower ("of brandy, water, and
    flower" left of it, "extracts and are meant to" right), and each line's left piece is
    read before its right piece. Two blocks in one style and size stand so when at least two
    of ``g``'s lines are level each with a line of ``h`` right of it, with a picture between
    the two (its middle in the gap, its box reaching the line and neither piece's middle: a
    page's backdrop is no such picture), no other line of either standing among those lines,
    and a line of either running across all their gaps right above or under them. Two
    columns with a photo between them have no such line: above the photo, each column's
    lines stop at the gutter.
    """
    b = g.block
    if h is g or h.block.style != b.style or not g.segments or not h.segments:
        return False
    size = b.size
    pairs = []
    for s in g.segments:
        for t in h.segments:
            if not _level(s, t, size):
                continue
            mid = _middle(s)
            pics = [
                r
                for r in pictures
                if s.box[2] < (r[0] + r[2]) / 2 < t.box[0]
                and r[1] <= mid <= r[3]
                and r[0] >= _centre(s)
                and r[2] <= _centre(t)
            ]
            if pics:
                pairs.append((s, t, pics[0]))
    if len(pairs) < 2:
        return False
    top = min(min(s.box[1], t.box[1]) for s, t, _ in pairs)
    bottom = max(max(s.box[3], t.box[3]) for s, t, _ in pairs)
    paired = {id(s) for s, _, _ in pairs} | {id(t) for _, t, _ in pairs}
    among = [
        s
        for s in g.segments + h.segments
        if top < (s.box[1] + s.box[3]) / 2 < bottom and id(s) not in paired
    ]
    if among:
        return False
    # The line across starts left of every gap between the pieces and ends right of it.
    gap_left = min(s.box[2] for s, _, _ in pairs)
    gap_right = max(t.box[0] for _, t, _ in pairs)
    return any(
        s.box[0] < gap_left
        and s.box[2] > gap_right
        and (
            (_middle(s) < top and top - s.box[3] <= size)
            or (_middle(s) > bottom and s.box[1] - bottom <= size)
        )
        for s in g.segments + h.segments
    )


def straddled_pairs(groups: list[Group], pictures: list) -> list[tuple[Group, Group]]:
    """Each two blocks of one paragraph run round both sides of a picture (:func:`straddled`),
    the left one first."""
    if not pictures:
        return []
    return [(g, h) for g in groups for h in groups if straddled(g, h, pictures)]


def interleave(groups: list[Group], pairs, rot: tuple) -> None:
    """Make each two blocks of ``pairs`` (:func:`straddled_pairs`) one, read line by line:
    a line's left piece, then its right piece beyond the picture."""
    if rot != (1, 0, 0, 1, 0, 0):
        return  # the pieces' boxes are compared unrotated; a turned page keeps its blocks
    for g, h in pairs:
        if g.block.region or h.block.region or g not in groups or h not in groups:
            continue
        size = g.block.size
        lines = lines_of(g.segments + h.segments, size)
        g.segments[:] = [s for line in lines for s in left_to_right(line, size)]
        _absorb(g, h, h.box[1] < g.box[1] - RUNAROUND_LEVEL * size)
        groups.remove(h)


def _middle(s) -> float:
    return (s.box[1] + s.box[3]) / 2


def _centre(s) -> float:
    return (s.box[0] + s.box[2]) / 2


def _absorb(h: Group, g: Group, first: bool) -> None:
    """``h`` takes in ``g``'s box and counts, and its first line when ``first``."""
    b, o = h.block, g.block
    if first:
        b.first_line, b.first_word, b.first_char = o.first_line, o.first_word, o.first_char
    h.box = (
        min(g.box[0], h.box[0]),
        min(g.box[1], h.box[1]),
        max(g.box[2], h.box[2]),
        max(g.box[3], h.box[3]),
    )
    b.bbox = h.box
    b.lines += o.lines
    b.chars += o.chars


def merge_runaround(groups: list[Group], pairs, rot: tuple) -> None:
    """Put the pieces a picture parts from their lines back into their paragraph (``pairs``
    of :func:`runaround_pairs`): each piece before the piece of its line right of the
    picture, where neither was since taken for a figure's or a box's."""
    if rot != (1, 0, 0, 1, 0, 0):
        return  # the pieces' boxes are compared unrotated; a turned page keeps its blocks
    for g, h in pairs:
        if g.block.region or h.block.region or g not in groups or h not in groups:
            continue
        for s in g.segments:
            at = next(k for k, t in enumerate(h.segments) if _level(s, t, g.block.size))
            h.segments.insert(at, s)
        _absorb(h, g, g.box[1] <= h.box[1])
        groups.remove(g)
