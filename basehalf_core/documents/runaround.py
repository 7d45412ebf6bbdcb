"""Lines a picture breaks: the pieces left of a photo set over a column's first lines.

A magazine lets a cut-out photo reach over a column's first lines, which run round it: the
left pieces fall inside the photo's box and were read as its contents. These rules find
such pieces and put them back into their paragraph (:mod:`.regions` calls them).
"""

from __future__ import annotations

from basehalf_core.documents.grouping import Group

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
        b, o = h.block, g.block
        if g.box[1] <= h.box[1]:
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
        groups.remove(g)
