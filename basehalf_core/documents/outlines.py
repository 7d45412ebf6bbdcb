"""What a page's lines and outlines set apart: tables ruled across, frames drawn around.

Pure geometry over the rectangles :mod:`.regions` reads from the page's drawings: stacks of
rules of one width are tables (an algorithm set "ruled" among them, rules drawn cell by cell
joined first, a head row over the first rule taken in; two rules under a caption and over a
paragraph, :func:`headed_table`), and an outline drawn around blocks
of running text makes them one unit of the reading order (``Block.frame``).
"""

from __future__ import annotations

from itertools import pairwise

import pymupdf

from basehalf_core.documents.captions import first_line
from basehalf_core.documents.grouping import Group
from basehalf_core.documents.labels import CAPTION_LABEL

# A frame holds a paragraph of at least this many lines (a poster's section may hold two lines
# and a figure).
FRAMED_LINES = 2
# A frame is at least this many ems wide and tall (a button or a node of a diagram is less).
FRAME_SIZE = 4.0


def frames_of(outlines: list, em: float) -> list:
    """Outlines drawn around parts of the page: a poster's sections, a flyer's panels.

    An outline stacked right on another of the same width is one frame with it (a poster's
    band over its section's box, each drawn as a path of its own).
    """
    out: list[list[float]] = []
    for r in sorted(outlines, key=lambda r: (r[1], r[0])):
        for f in out:
            if abs(r[0] - f[0]) <= 1 and abs(r[2] - f[2]) <= 1 and -1 <= r[1] - f[3] <= 0.5 * em:
                f[3] = max(f[3], r[3])
                break
        else:
            out.append(list(r))
    return [tuple(f) for f in out if min(f[2] - f[0], f[3] - f[1]) >= FRAME_SIZE * em]


# A table ruled only across (booktabs' top, middle and bottom rules; \hline rows) has at
# least this many rules of one width, each at most this many ems below the one above, and
# at least this many ems wide.
RULED_TABLE_RULES = 3
RULED_TABLE_GAP = 12.0
RULED_TABLE_WIDTH = 8.0
# Its first two rules (booktabs' top and middle rules) are at most this many ems apart.
RULED_TABLE_HEAD = 4.0
# Under a head row that far at most, the body runs this many ems to the foot rule at most.
RULED_TABLE_BODY = 60.0
# Two rules closer than this many ems are one double rule.
RULED_TABLE_DOUBLE = 0.3


def ruled_tables(rules: list, em: float, captions: list, joints: dict | None = None) -> list:
    """Regions of tables drawn with horizontal rules only: stacks of rules of the same width.

    With no vertical rule and no frame, each rule is a mark too thin to make a figure, so
    the cells between them were read as running text. Three or more rules of one width
    (their ends within a point), one under the other, the first two close (a head row),
    bound a table from the first to the last. Two rules (an abstract set between rules) are
    no table; a stack holding a paragraph is dropped with the other regions that hold one
    (:func:`.regions.mark_regions`). A caption under the second rule of a stack or further starts
    another table: a data sheet's second table, under its own heading and caption close
    below the first, is no part of it. Rules each drawn in pieces joined at the same places
    (``joints``: a word processor draws a row's rule cell by cell) are a table's from the
    first, however tall its head row: the joints are its columns.
    """
    joints = joints or {}
    across = sorted(
        (r for r in rules if r[2] - r[0] >= RULED_TABLE_WIDTH * em), key=lambda r: (r[1], r[0])
    )
    stacks: list[list] = []
    for r in across:
        for stack in stacks:
            last = stack[-1]
            if not (abs(r[0] - last[0]) <= 1 and abs(r[2] - last[2]) <= 1):
                continue
            if r[1] - last[3] <= RULED_TABLE_DOUBLE * em:
                # A double rule (under a running head, a table's foot) is one rule.
                stack[-1] = [last[0], last[1], last[2], max(last[3], r[3])]
                break
            # A caption under a stack's second rule or further opens the next table; over
            # the second (an algorithm's, set between its top rules) it heads this one. A
            # longer rule between two ends what is above it: no table's rows are crossed by
            # one (a newsletter's rule across the page between two sections' ruled decks).
            # Rules drawn cell by cell at the same joints are one table's across a tall row.
            reach = RULED_TABLE_GAP * (2 if _cells_alike([last, r], joints) else 1)
            if len(stack) == 2 and stack[1][1] - stack[0][3] <= RULED_TABLE_HEAD * em:
                # Under a head row, the body's rows may run on undivided to the foot rule
                # (a medical journal's table of ten rows between its middle and bottom rules).
                reach = RULED_TABLE_BODY
            if (
                r[1] - last[3] <= reach * em
                and not (len(stack) >= 2 and _caption_between(captions, last, r))
                and not _longer_rule_between(rules, last, r, em)
            ):
                stack.append(r)
                break
        else:
            stacks.append([r])
    out = []
    for st in stacks:
        # A table opens with its head: its first two rules hold a row or two between them.
        # A rule of the same width further up (under a running head, over a block of
        # agency names) starts no table.
        while (
            len(st) >= 2
            and st[1][1] - st[0][3] > RULED_TABLE_HEAD * em
            and not _cells_alike(st, joints)
        ):
            st = st[1:]
        if len(st) == 2 and _caption_between(captions, st[0], st[1]):
            # An algorithm set "ruled": its caption between two rules, its steps down to a
            # third rule of the same width, however long they run.
            foot = [
                r
                for r in across
                if r[1] > st[1][3] and abs(r[0] - st[1][0]) <= 1 and abs(r[2] - st[1][2]) <= 1
            ]
            st = [*st, min(foot, key=lambda r: r[1])] if foot else st
        if len(st) >= RULED_TABLE_RULES:
            out.append([st[0][0], st[0][1], st[0][2], st[-1][3]])
    return out


def _cells_alike(stack: list, joints: dict) -> bool:
    """Are all the rules of ``stack`` drawn in pieces joined at the same places (within a
    point)?"""
    cuts = [joints.get(tuple(r)) for r in stack]
    if not cuts[0] or any(c is None or len(c) != len(cuts[0]) for c in cuts):
        return False
    return all(abs(a - b) <= 1 for c in cuts[1:] for a, b in zip(c, cuts[0], strict=True))


def _longer_rule_between(rules: list, above, below, em: float) -> bool:
    """Is a rule drawn between ``above`` and ``below`` across their width and an em longer?"""
    width = above[2] - above[0]
    return any(
        above[3] < q[1] < below[1]
        and q[0] <= above[0] + 1
        and q[2] >= above[2] - 1
        and q[2] - q[0] > width + em
        for q in rules
    )


def _caption_between(captions: list, above, below) -> bool:
    """Does a caption's block start between the rules ``above`` and ``below``, across them?"""
    return any(
        above[3] < c[1] < below[1] and min(c[2], above[2]) > max(c[0], above[0]) for c in captions
    )


def within(r, q, slack: float = 1.0) -> bool:
    """``r`` lies inside ``q``, a larger rectangle."""
    larger = (q[2] - q[0]) * (q[3] - q[1]) > (r[2] - r[0]) * (r[3] - r[1]) + slack
    return (
        larger
        and q[0] - slack <= r[0]
        and q[1] - slack <= r[1]
        and r[2] <= q[2] + slack
        and r[3] <= q[3] + slack
    )


def same_rect(r, q, slack: float = 1.0) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(r, q, strict=True))


def mark_frames(groups: list[Group], frames: list, page: pymupdf.Page, paragraph) -> None:
    """Set ``Block.frame`` to the outermost frame a block lies in that holds other blocks too.

    What is drawn around is read as one: a drag from the foot of a poster's section to the
    next section's top reads the one, then the other, whatever columns the sections' text
    lines up in across the page. A frame around one block or around all of them changes
    nothing to read; an outline a block runs across (into it and out) is drawn over the
    text, not around it; one around no lines of running text (``paragraph`` of at least
    :data:`FRAMED_LINES` lines) is a figure's (a schematic's chip, its labels inside).
    """
    if not frames:
        return
    rot = pymupdf.Matrix(page.rotation_matrix)

    def inside(g: Group, r) -> bool:
        cx, cy = (g.box[0] + g.box[2]) / 2, (g.box[1] + g.box[3]) / 2
        return r[0] <= cx <= r[2] and r[1] <= cy <= r[3]

    def straddles(g: Group, r) -> bool:
        x0, y0, x1, y1 = g.box
        overlaps = min(x1, r[2]) - max(x0, r[0]) > 1 and min(y1, r[3]) - max(y0, r[1]) > 1
        return overlaps and not (
            r[0] - 2 <= x0 and r[1] - 2 <= y0 and x1 <= r[2] + 2 and y1 <= r[3] + 2
        )

    # An outline that text runs across (a shape drawn over three columns) frames nothing.
    held = [
        (r, [g for g in groups if inside(g, r)])
        for r in frames
        if not any(straddles(g, r) for g in groups)
    ]
    held = [
        (r, inner)
        for r, inner in held
        if 1 < len(inner) < len(groups) and any(paragraph(g, FRAMED_LINES) for g in inner)
    ]
    for r, inner in held:
        if any(within(r, q) for q, _ in held):
            continue  # inside another frame: read with it
        x0, y0, x1, y1 = pymupdf.Rect(r) * rot
        for g in inner:
            g.block.frame = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


# Rules whose ends lie this many points apart at most are drawn across the same width.
TABLE_RULE_SLACK = 2.0


def rule_pairs(rules: list, em: float) -> list:
    """Where a caption may stand over a table drawn with horizontal rules alone: the space
    between two rules drawn across the same width, one under the other.

    A journal's table (a medical journal's "Table 1 Summary characteristics ...") is often
    drawn with rules over and under its header row and under its last row, and nothing else:
    no region of drawings holds it, but its caption sits right over its top rule. Each pair
    of such rules next to each other, at least an em apart, bounds a region (two tables of
    the same width stacked give a region between them too, which holds the second one's
    caption; the caption is still found over that one's top rule). These regions only place
    captions; a table whose rules stack with a head row is itself a float
    (:func:`ruled_tables`).
    """
    tables = []
    for r in rules:
        same = sorted(
            (
                q
                for q in rules
                if abs(q[0] - r[0]) <= TABLE_RULE_SLACK and abs(q[2] - r[2]) <= TABLE_RULE_SLACK
            ),
            key=lambda q: q[1],
        )
        below = [q for q in same if q[1] >= r[3] + em]
        if below:
            q = below[0]
            tables.append((min(r[0], q[0]), r[1], max(r[2], q[2]), q[3]))
    return tables


# Two pieces of one rule stand at most this many points apart end to end, on one line.
RULE_JOIN = 1.0


def joined_rules(thin: list) -> tuple[list, dict]:
    """Thin marks joined where they continue each other on one line: a table's rule drawn
    cell by cell (a prospectus draws each row's rule in four pieces, one a column) is one
    rule across the table.

    Returns:
        The rules, and for each rule drawn in pieces the x of the joints between them.
    """
    out: list[list[float]] = []
    cuts: list[list[float]] = []
    for r in sorted(thin, key=lambda r: (round((r[1] + r[3]) / 2), r[0])):
        last = out[-1] if out else None
        if (
            last is not None
            and abs((r[1] + r[3]) - (last[1] + last[3])) / 2 <= RULE_JOIN
            and r[0] - last[2] <= RULE_JOIN
        ):
            cuts[-1].append(r[0])
            last[1], last[2], last[3] = min(last[1], r[1]), max(last[2], r[2]), max(last[3], r[3])
        else:
            out.append(list(r))
            cuts.append([])
    rules = [tuple(r) for r in out]
    return rules, {r: tuple(c) for r, c in zip(rules, cuts, strict=True) if c}


# A table's head row stands at most this many ems over its first rule; its cells hold at most
# HEAD_CELL_LINES lines of at most HEAD_CELL_CHARS characters each.
HEAD_ROW_REACH = 1.0
HEAD_CELL_LINES = 4
HEAD_CELL_CHARS = 25
HEAD_CELLS = 3


def with_head_row(r, groups: list[Group], rules: list, em: float, inside) -> tuple:
    """A table drawn with rules, grown up by its head row when the row stands over its first
    rule with no rule above it (a prospectus's "Subfunds | Global risk calculation method |
    …" over the rule under it): :data:`HEAD_CELLS` or more short blocks side by side within
    the table's width, no larger than the page's text, starting level with one that reaches
    down to the rule on the region's top edge (within :data:`HEAD_ROW_REACH` ems)."""
    if not ruled_top(r, rules):
        return r
    over = [
        g
        for g in groups
        if not inside(g, r)
        and g.box[3] <= r[1] + 1
        and g.box[0] >= r[0] - 1
        and g.box[2] <= r[2] + 1
        and g.block.lines <= HEAD_CELL_LINES
        and g.block.chars <= HEAD_CELL_CHARS * g.block.lines
        and g.block.size <= em + 0.5  # a heading over the table is set larger
        and not CAPTION_LABEL.match(first_line(g))
    ]
    # The row's tallest cell reaches down to the rule; the others start level with it.
    tops = [g.box[1] for g in over if r[1] - g.box[3] <= HEAD_ROW_REACH * em]
    cells = sorted(
        (g for g in over if any(abs(g.box[1] - t) <= 0.5 * em for t in tops)),
        key=lambda g: g.box[0],
    )
    # Three cells or more, one beside the next: a heading and a unit's note over a table
    # ("1、资产负债表…" and "单位：人民币元") are two.
    apart = all(a.box[2] < b.box[0] for a, b in pairwise(cells))
    if len(cells) < HEAD_CELLS or not apart:
        return r
    return (r[0], min(g.box[1] for g in cells), r[2], r[3])


def with_tail_rows(r, groups: list[Group], rules: list, em: float, inside) -> tuple:
    """A table drawn with rules, grown down by the rows under its last rule when no rule
    closes them (a paper's demographics table ruled over "By Age" and not under its nine age
    rows): short cells in the text's size or smaller, set as a cell of the table is, within
    the table's width, each under a cell of the table (overlapping it across), the first
    starting within :data:`HEAD_ROW_REACH` ems of the rule and each row within an em of the
    one above; no caption and no paragraph."""
    if not any(abs(q[3] - r[3]) <= 1 and q[0] <= r[0] + 1 and q[2] >= r[2] - 1 for q in rules):
        return r
    cells = [g for g in groups if inside(g, r)]
    if not cells:
        return r
    styles = {c.block.style for c in cells}
    foot = r[3]
    grown = True
    while grown:
        grown = False
        for g in groups:
            if inside(g, r) or g.box[1] < foot - 1 or g.box[3] <= foot:
                continue
            if (
                g.box[1] - foot <= (HEAD_ROW_REACH if foot == r[3] else 1.0) * em
                and g.box[0] >= r[0] - 1
                and g.box[2] <= r[2] + 1
                and g.block.size <= em + 0.5
                and g.block.style in styles
                and g.block.chars <= HEAD_CELL_CHARS * g.block.lines
                and not CAPTION_LABEL.match(first_line(g))
                and any(min(g.box[2], c.box[2]) > max(g.box[0], c.box[0]) for c in cells)
            ):
                foot = g.box[3]
                grown = True
    return r if foot == r[3] else (r[0], r[1], r[2], foot)


def ruled_top(r, rules: list) -> bool:
    """Is the top edge of region ``r`` a rule drawn across its width (a ruled table's)?"""
    return any(abs(q[1] - r[1]) <= 1 and q[0] <= r[0] + 1 and q[2] >= r[2] - 1 for q in rules)


# A table's caption (its first line) stands at most this many ems over the rule under its
# head row (a second line of caption and the head row between).
HEADED_TABLE_REACH = 5.0
# A paragraph's lines hold this many characters on average at least; a table's cells are
# short.
FRAME_LINE_CHARS = 30


def headed_table(r, labelled: list[Group], groups: list[Group], em: float):
    """The table between two rules of one width, with its head row over the first, when its
    caption (any label: "TABLE I", "表 2") stands right over that row and running text
    follows the second; or None.

    IEEE's tables are often ruled under their head row and under their last row alone, the
    caption ("TABLE I Specifications of the test systems") over the head row: no drawing
    holds the cells, and a table ruled so twice was no stack of rules (:func:`ruled_tables`
    takes three), so its cells were read as running text. The space from the caption's foot
    to the second rule is the table's when a paragraph (lines of
    :data:`FRAME_LINE_CHARS` characters) starts within :data:`HEADED_TABLE_REACH` ems under
    it: a table whose rules only frame its head row goes on under them.
    """
    if not any(
        g.block.lines >= 2
        and g.block.chars >= FRAME_LINE_CHARS * g.block.lines
        and 0 <= g.box[1] - r[3] <= HEADED_TABLE_REACH * em
        and min(g.box[2], r[2]) > max(g.box[0], r[0])
        for g in groups
    ):
        return None
    for g in labelled:
        x0, _y0, x1, y1 = g.box
        if (
            y1 <= r[1]
            and r[1] - y1 <= HEADED_TABLE_REACH * em
            and min(x1, r[2]) - max(x0, r[0]) > 0.5 * (x1 - x0)
        ):
            return (r[0], y1, r[2], r[3])
    return None
