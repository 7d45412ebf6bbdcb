"""Labels hung left of the lines they open: glossary terms in the margin, list numbers."""

from __future__ import annotations

import re

from basehalf_core.documents.grouping import Group

# A hanging label has at most this many words, and ends at most this many of its sizes
# before the line it opens.
LABEL_WORDS = 3
LABEL_GAP = 2.0
# A list's number stands further off: its item starts at a tab stop (Word's hanging indent,
# a regulation's "1.4" two sizes before "Upon receipt"), up to this many of its sizes.
NUMBER_GAP = 3.0
# ... where no line of more words reaches across it within this many of its sizes above or
# below (the margin, or a list's hanging indent)...
LABEL_NEAR = 3.0
# ... set at least this share of its line's size (an affiliation's raised number is no label)
LABEL_SIZE = 0.85
# ... and hangs in a column of at least this many other labels sharing an edge.
LABEL_COLUMN = 1
# Two letters in a row: a word, not an equation's number in a font that maps its brackets
# to letters ("ð3Þ").
_LETTERS = re.compile(r"[^\W\d_]{2}")
# A numbered list's label: "1", "2.", "[3]", "(4)", a section's "1.4".
LIST_NUMBER = re.compile(r"\[\d{1,3}\]|\(\d{1,3}\)|\d{1,3}(?:\.\d{1,3})*\.?")


def hanging_labels(blocks: list[Group], roles: dict) -> dict:
    """Labels hung left of the lines they open: label block id -> (block id, line index).

    A glossary (biblatex's manual) sets each term in the margin, right-aligned against the
    definition's first line, and RSC hangs each reference's number left of its entry: the
    labels group apart, and the XY-cut read them after the entries, or as a column before
    them. A one-line block of at most :data:`LABEL_WORDS` words with a word of two letters
    or more (not an equation's number), or a list's number, set at least
    :data:`LABEL_SIZE` of the line's size, ending at most :data:`LABEL_GAP` of its sizes
    before a line of another block of its role that it stands level with, opens that line,
    when it hangs in the margin or a hanging indent (no line of more words reaches across it
    within :data:`LABEL_NEAR` sizes), in a column of such labels (at least
    :data:`LABEL_COLUMN` others sharing its right edge). A heading set flush right in its
    column, and a piece of a line broken by display math, stand in a column of text; line
    numbers stand on line after line, and a number hangs only on an entry's first line.
    """
    out: dict = {}
    by_id = {g.block.id: g for g in blocks}
    # The lines of running text: a term hangs where none of them reaches nearby (the margin,
    # a list's hanging indent).
    lines = [
        seg.box
        for g in blocks
        if roles.get(g.block.id) in ("body", "box")
        for seg in g.segments
        if len(seg.units) > LABEL_WORDS
    ]
    for lab in blocks:
        b = lab.block
        units = [u for seg in lab.segments for u in seg.units]
        if (
            roles.get(b.id) not in ("body", "box")  # a table's cells are floats
            or b.lines != 1
            or len(lab.segments) != 1
            or not 0 < len(units) <= LABEL_WORDS
            or lab.segments[0].direction != (1.0, 0.0)
            or not (
                any(_LETTERS.search(u.text) for u in units)
                or (len(units) == 1 and LIST_NUMBER.fullmatch(units[0].text))
            )
        ):
            continue
        x0, y0, x1, y1 = lab.box
        near = LABEL_NEAR * b.size
        if any(
            min(x1, r[2]) - max(x0, r[0]) > 1 and r[1] < y1 + near and r[3] > y0 - near
            for r in lines
        ):
            continue  # in a column of text: a piece of a line, a heading
        middle = (y0 + y1) / 2
        number = len(units) == 1 and LIST_NUMBER.fullmatch(units[0].text)
        reach = (NUMBER_GAP if number else LABEL_GAP) * b.size
        for t in blocks:
            if t is lab or roles.get(t.block.id) != roles.get(b.id) or t.block.lines < 2:
                continue
            k = next(
                (
                    k
                    for k, seg in enumerate(t.segments)
                    if seg.box[1] <= middle <= seg.box[3]
                    and -0.5 <= seg.box[0] - x1 <= reach
                    and b.size >= LABEL_SIZE * seg.size  # not a superscript's mark
                ),
                None,
            )
            if k is not None:
                out[b.id] = (t.block.id, k)
                break
    # Terms hang in a column, right-aligned one under another: a heading set flush right in
    # its column, alone, ends near the next column's text too, and the pieces of lines
    # broken by display math share only their column's left edge.
    edges = [by_id[label].box for label in out]
    # A number hangs on an entry's first line only: line numbers stand on line after line.
    lines_hung = set(out.values())
    return {
        label: at
        for label, at in out.items()
        if sum(abs(e[2] - by_id[label].box[2]) <= 1 for e in edges) >= LABEL_COLUMN + 1
        and not (
            LIST_NUMBER.fullmatch(by_id[label].segments[0].units[0].text)
            and ((at[0], at[1] - 1) in lines_hung or (at[0], at[1] + 1) in lines_hung)
        )
    }
