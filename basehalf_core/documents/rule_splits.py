"""Blocks split where a drawn rule or a box's top edge runs between their lines.

A footnote rule parts a column's notes from its text (and marks them ``ruled``), a ruled
table's top rule parts a sentence from the table's first cells grouped with it, and a box's
top edge parts a head set on it as a tab from the intro over the box. What counts as a rule
(:data:`RULE_THICKNESS`, :data:`COLUMN_RULE_EMS`) is set here and read by
:mod:`basehalf_core.documents.regions`, which finds the rules and boxes on the page.
"""

from __future__ import annotations

from basehalf_core.documents.captions import CAPTION_LABEL, first_line
from basehalf_core.documents.grouping import Group, next_block_id, split_group

# A rule is drawn at most this many points thick.
RULE_THICKNESS = 1.5
# ... or at most this share of an em: a poster's text is set at 25 points, its tables' rules
# in proportion (2.8 points).
RULE_EM = 0.15
# A column rule stands at least this many ems tall.
COLUMN_RULE_EMS = 5
# A footnote rule spans at most this share of the width of the notes under it (Word draws
# it two inches long whatever the column: 0.6 of a 3.3-inch column, more of its notes' text
# set in after their marker).
FOOTNOTE_RULE_SHARE = 0.65
# A note's text may start this many of its sizes right of its rule's left end.
NOTE_INDENT = 2.0


def mark_footnote_rules(groups: list[Group], rules: list, height: float, rot: tuple) -> None:
    """Set ``Block.ruled`` on a block right under a footnote rule.

    A column's footnotes are set off from its text by a short rule drawn at the column's
    left edge, over the first note (STOC's notes are set in the text's own size, so the
    rule is all that tells them from it). The rule lies in the lower half of the page, in
    the space above the block (not right under a line of text, as a link's underline does,
    nor across a block's lines, as a table's rule does), starts at the block's left edge or
    up to :data:`NOTE_INDENT` of its sizes left of it (a note set in), spans at most
    :data:`FOOTNOTE_RULE_SHARE` of its width; the block's first line starts within two of
    its sizes under it. A note grouped with the
    paragraph above it (PVLDB's, in the text's size) is split off where such a rule runs
    between two of the block's lines (:func:`split_at_rule`).
    """
    for r in rules:
        if r[1] < 0.5 * height:
            continue
        if split_at_rule(groups, r, rot):
            continue
        if any(
            g.box[1] < r[1] - 0.5 * g.block.size
            and g.box[3] >= r[1] - 0.3 * g.block.size
            and g.box[0] < r[2]
            and r[0] < g.box[2]
            for g in groups
        ):
            continue  # under a line of text or across a block: an underline, a table's rule
        for g in groups:
            x0, y0, x1, _y1 = g.box
            size = g.block.size
            if (
                # At the note's left edge, or over a note set in from it (LaTeX indents a
                # note's text, its marker raised, by more than a size under the rule).
                r[0] - size <= x0 <= r[0] + NOTE_INDENT * size
                and r[2] - r[0] <= FOOTNOTE_RULE_SHARE * (x1 - x0)
                and r[3] - 0.5 * size <= y0 <= r[3] + 2 * size
            ):
                g.block.ruled = True


def split_at_rule(groups: list[Group], r, rot: tuple, table: float = 0.0) -> bool:
    """Split the block a footnote rule runs through between two of its lines; the part
    under the rule is ``ruled``. True when a block was split.

    The rule starts at the block's left edge, spans at most :data:`FOOTNOTE_RULE_SHARE` of
    its width, and lies clear of both lines (an underline runs through its line's
    descenders); the line under it starts within two sizes of it. With ``table`` (the page's
    text size), ``r`` is a ruled table's top rule: a block whose lines it parts, those above
    it set in the text's size, is split there (a brochure's sentence "The fee should be paid
    … only:" grouped with the labels in the table's first column under it; a table's own
    label over its rule, "Tables:" set smaller, stays its), and the part under it is not
    marked.
    """
    for n, g in enumerate(groups):
        x0, y0, x1, y1 = g.box
        size = g.block.size
        if not (y0 < r[1] < y1 and r[0] < x1 and x0 < r[2]):
            continue
        if not table and not (
            abs(r[0] - x0) <= size and r[2] - r[0] <= FOOTNOTE_RULE_SHARE * (x1 - x0)
        ):
            continue
        members = g.segments
        for k in range(1, len(members)):
            above, below = members[:k], members[k:]
            if table:
                # Line boxes set tight overlap: each line's middle lies on its side.
                parted = max(_mid(m) for m in above) < r[1] < min(_mid(m) for m in below) and all(
                    m.size >= TEXT_SIZE_SHARE * table for m in above
                )
                parted = parted and not _caption_goes_on(g, above[0], groups)
            else:
                parted = (
                    max(m.box[3] for m in above) <= r[1] + 0.5
                    and min(m.box[1] for m in below) >= r[3] - 0.5
                )
            if parted and min(m.box[1] for m in below) - r[3] <= 2 * size:
                text, note = split_group(g, above, below, rot, next_block_id(groups), 1)
                note.block.ruled = not table
                groups[n : n + 1] = [text, note]
                return True
    return False


# A line reaches into a box when at least this share of its height lies under the box's top
# (a head set on the top edge as a tab reaches in by half).
BOX_TOP_SHARE = 0.25


def split_at_box_tops(groups: list[Group], boxes: list, rot: tuple) -> None:
    """Split off the last lines of a block that stand inside a box its other lines stand
    over.

    A slide's intro runs over a grid of boxes, and the head on the top edge of the right
    box ("3. Focus on the problem", set in the intro's size) comes out as the intro's last
    line: read with the intro, before the first box. Lines lying inside a box (reaching into
    it by :data:`BOX_TOP_SHARE` of their height at least), under lines standing over its
    top, are a block of their own (then the box's), when the lines over it reach out past
    the box's sides: a box's own head stands over it within them. A picture's box behind a
    paragraph holds none of its lines whole.
    """

    def reaches_in(m, r) -> bool:
        return m.box[3] - r[1] >= BOX_TOP_SHARE * (m.box[3] - m.box[1])

    n = 0
    while n < len(groups):
        g = groups[n]
        members = g.segments
        for r in boxes:
            inner = [
                r[0] - 1 <= m.box[0]
                and m.box[2] <= r[2] + 1
                and reaches_in(m, r)
                and m.box[1] <= r[3]
                for m in members
            ]
            k = inner.index(True) if True in inner else 0
            over = members[:k]
            if (
                k
                and all(inner[k:])
                and members[k].box[1] < r[1]  # a head on the box's top edge, as a tab
                and not any(reaches_in(m, r) for m in over)
                # The lines over it reach out past its sides: no head of its own.
                and (
                    min(m.box[0] for m in over) < r[0] - g.block.size
                    or max(m.box[2] for m in over) > r[2] + g.block.size
                )
            ):
                head, tail = split_group(g, over, members[k:], rot, next_block_id(groups), 1)
                groups[n : n + 1] = [head, tail]
                break
        n += 1


def _mid(m) -> float:
    """The middle height of a line segment's box."""
    return (m.box[1] + m.box[3]) / 2


def _caption_goes_on(g: Group, first, groups: list[Group]) -> bool:
    """Does ``g``'s line ``first`` go on a caption: ``g`` opens with a caption's label, or a
    block that does stands on that line (a caption's first line cut in two blocks)?"""
    return any(
        (c is g or min(c.box[3], first.box[3]) > max(c.box[1], first.box[1]))
        and CAPTION_LABEL.match(first_line(c))
        for c in groups
    )


# Lines over a table's top rule are text, not the table's, when set at least this share of
# the page's text size.
TEXT_SIZE_SHARE = 0.95
