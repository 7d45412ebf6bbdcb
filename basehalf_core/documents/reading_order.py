"""Reading order of a page's text blocks: running text by XY-cut, then notes and marginalia.

A learner's drag from the foot of the left column to the top of the right one must read like
the sentence on the page, without the footnote, running footer or margin stamp that sits
between the two in file order. This module only sees boxes (in displayed page space, points),
text directions and font sizes, so it is pure Python and testable without a PDF. Which blocks
are not part of the running text is decided by :mod:`.roles`; which headings and listings are
read with it, by :mod:`.headings`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from basehalf_core.documents.bands import (
    band_beside_gutter,
    band_under_columns,
    display_across_gutter,
    line_across_gutter,
    rule_across_gutter,
)
from basehalf_core.documents.gutters import (
    OVERHANG_COLUMN_LINES,
    gutters_under_overhangs,
    narrow_gutters,
    ruled_gutters,
)
from basehalf_core.documents.headings import headings_read_as_text
from basehalf_core.documents.line_pieces import SENTENCE_END
from basehalf_core.documents.roles import assign_roles
from basehalf_core.documents.sections import (
    SIDE_LEVEL,
    balanced_section_headings,
    card_rows,
    grid_rows,
    headings_in_gutter,
    side_heads,
)
from basehalf_core.documents.text import style_size
from basehalf_core.documents.text_blocks import (
    Block,
    dir_key,
    gaps,
    right_ink,
    split_at,
    text_style,
    x_overlap,
)
from basehalf_core.documents.title_band import (
    column_text,
    heads_over_columns,
    lone_column_head,
    numbered_heads,
    opens_a_box,
    runs_on,
    title_band,
)

# Roles read in the running text's flow (column by column), as opposed to marginalia.
FLOW_ROLES = ("body", "float", "box")


def _body_style(body: list[Block], boxes: Sequence[Block] = ()) -> str:
    """The style that covers the most of the running text's area (see :func:`.text_size`).

    Where no paragraph stands outside the boxes (a slide of three boxes under its title),
    the running text is in the boxes: the style is then the one covering the most of both,
    not the title's.
    """
    paragraphs = any(b.lines >= 2 for b in body)
    return text_style(body if paragraphs else [*body, *boxes])


def xy_cut(
    blocks: list[Block],
    min_col_gap: float,
    body_style: str = "",
    page: list[Block] | None = None,
    rules: Sequence[tuple] = (),
) -> list[Block]:
    """Order blocks by recursive XY-cut, preferring a column split when one exists.

    Columns win over rows: two columns whose paragraphs happen to end at the same height
    must still be read left column first. A page region that neither splits is read top to
    bottom, then left to right. One exception: a band across the top with no block in the
    running text's style (``body_style``: a title, rows of authors and affiliations) is read
    before the columns under it, even where its rows happen to leave a gutter's gap; not
    when the band is a column's first line (:func:`.runs_on`), holds a column's running
    text (:func:`.column_text`), a column going on under it (:func:`_column_goes_on`) or a
    row of column heads set on bands (``Block.banner``).
    Rows of authors set in the running text's own font are such a band when centred
    (:func:`.title_band`, against the blocks of ``page``). Blocks that neither cut splits
    are read row by row, unless only the boxes of title matter above the columns (or a line
    under them) close both cuts (:func:`_bands_off_columns`).
    """
    if len(blocks) <= 1:
        return list(blocks)
    page = blocks if page is None else page
    if cells := card_rows(blocks, min_col_gap, body_style):
        return [b for cell in cells for b in xy_cut(cell, min_col_gap, body_style, page, rules)]
    # Shrink by a hair so boxes that merely touch still leave a gap.
    eps = 0.5
    rows = gaps([(b.bbox[1] + eps, b.bbox[3] - eps) for b in blocks], 0.0)
    headed = False  # the top band is a row of heads over the columns under it
    if body_style and rows:
        cut = sum(rows[0]) / 2
        top, rest = split_at(blocks, cut)
        if top and rest and heads_over_columns(top, rest, min_col_gap, body_style, page):
            headed = True  # read with the columns they head, by the column cut below
        elif (
            top
            and rest
            and all(b.style != body_style for b in top)
            and not _paragraphs_of_their_own(top, min_col_gap, body_style)
            and not runs_on(top, rest)
            and not column_text(top, rest)
            and not _column_goes_on(top, rest, min_col_gap)
            and not lone_column_head(top, rest, min_col_gap, page)
            and not opens_a_box(top, rest, body_style)
            and not numbered_heads(top)
            # A row of column heads on bands of their own heads the columns under them.
            and not all(b.banner for b in top)
        ):
            return xy_cut(top, min_col_gap, body_style, page, rules) + xy_cut(
                rest, min_col_gap, body_style, page, rules
            )
        elif band := title_band(blocks, rows, body_style, page):
            # Read as a table of its own: an author's name, affiliation and e-mail in turn.
            rest = [b for b in blocks if b not in band]
            return xy_cut(band, min_col_gap) + xy_cut(rest, min_col_gap, body_style, page, rules)
    cols, headings = headings_in_gutter(
        blocks, gaps([(b.bbox[0] + eps, right_ink(b) - eps) for b in blocks], min_col_gap)
    )
    if headings:
        return _sections(blocks, headings, min_col_gap, body_style, page, rules)
    if not cols:
        cols = (
            gutters_under_overhangs(blocks, min_col_gap)
            or narrow_gutters(blocks, min_col_gap)
            or ruled_gutters(blocks, rules)
        )
    if cols:
        # Cut at the widest gutter; recurse on each side.
        lo, hi = max(cols, key=lambda g: g[1] - g[0])
        headings = balanced_section_headings(blocks, rows, (lo, hi)) if rows else []
        if headings:
            return _sections(blocks, headings, min_col_gap, body_style, page, rules)
        band = (
            grid_rows(blocks, rows, (lo, hi))
            or band_beside_gutter(blocks, rows, (lo, hi), min_col_gap)
            or band_under_columns(blocks, rows, (lo, hi), min_col_gap)
            or line_across_gutter(blocks, rows, (lo, hi), min_col_gap)
            or rule_across_gutter(blocks, rows, (lo, hi), rules)
        )
        if band:
            top, rest = band
            return xy_cut(top, min_col_gap, body_style, page, rules) + xy_cut(
                rest, min_col_gap, body_style, page, rules
            )
        if parts := display_across_gutter(blocks, rows, (lo, hi), min_col_gap):
            return [b for part in parts for b in xy_cut(part, min_col_gap, body_style, page, rules)]
        cut = (lo + hi) / 2
        left = [b for b in blocks if (b.bbox[0] + b.bbox[2]) / 2 < cut]
        right = [b for b in blocks if (b.bbox[0] + b.bbox[2]) / 2 >= cut]
        if head := _lone_head(left, right, body_style, page):
            above = [b for b in blocks if b.bbox[3] <= head.bbox[1]]
            below = [b for b in blocks if b is not head and b not in above]
            return [
                *xy_cut(above, min_col_gap, body_style, page, rules),
                head,
                *xy_cut(below, min_col_gap, body_style, page, rules),
            ]
        heads = side_heads(left, right, min_col_gap)
        if heads:
            return _by_side_heads(heads, left, right, min_col_gap, body_style, page, rules)
        return xy_cut(left, min_col_gap, body_style, page, rules) + xy_cut(
            right, min_col_gap, body_style, page, rules
        )
    # Heads over columns stay with them: the band is cut below the columns they head.
    if headed:
        rows = rows[1:]
    if rows:
        # Peel off the top band only: what lies below may split into columns of its own
        # (a title above two columns whose paragraphs end level).
        cut = _row_cut(blocks, rows, min_col_gap)
        top, rest = split_at(blocks, cut)
        if top and rest:
            return xy_cut(top, min_col_gap, body_style, page, rules) + xy_cut(
                rest, min_col_gap, body_style, page, rules
            )
    # Before reading by height across the gutter: a band that only touches the columns'
    # top or foot is read before or after them, and the columns split.
    bands = _bands_off_columns(blocks, min_col_gap, body_style)
    if bands:
        above, rest, below = bands
        return (
            xy_cut(above, min_col_gap, body_style, page, rules)
            + xy_cut(rest, min_col_gap, body_style, page, rules)
            + xy_cut(below, min_col_gap, body_style, page, rules)
        )
    return _by_rows(blocks)


def _lone_head(
    left: list[Block], right: list[Block], body_style: str, page: list[Block]
) -> Block | None:
    """The top block of a side of a column cut made only of headings between the other
    side's rows.

    A poster centres its box's "Results" on a band over text in the box's left half, plots
    in its right half: the head, nothing under it, made a column of its own right of the
    text's, and was read after it. A side of single lines, each set larger than the running
    text (or in its size in bold or italic, ending no sentence: a washing machine's guide
    heads each row of a picture and its text at the picture's left), level with no block of
    the other side and over some of them, and under a paragraph of the page that spans it
    and the gutter (inside the text's area: a note in the margin stays out), is read
    between what is above each head and what is under it. (A paragraph is left alone: a
    column's text under a picture starts low.)
    """
    size = style_size(body_style)
    if size <= 0:
        return None

    def lone(head: Block, other: list[Block]) -> bool:
        return (
            head.lines == 1
            and (
                head.size > size
                or (
                    head.emphasis
                    and head.size >= TEXT_SIZE_SHARE * size
                    # nor a lead-in's colon ("the availability of:")
                    and not head.last_word.endswith((*SENTENCE_END, ":"))
                )
            )
            and any(o.bbox[1] >= head.bbox[3] for o in other)
            and all(o.bbox[1] >= head.bbox[3] or o.bbox[3] <= head.bbox[1] for o in other)
            and any(
                p.lines >= 2
                and p.bbox[3] <= head.bbox[1]
                and p.bbox[0] <= min(head.bbox[0], *(o.bbox[0] for o in other)) + size
                and p.bbox[2] >= max(head.bbox[2], *(o.bbox[2] for o in other)) - size
                for p in page
            )
        )

    for side, other in ((left, right), (right, left)):
        if side and other and all(lone(head, other) for head in side):
            return min(side, key=lambda b: b.bbox[1])
    return None


def _row_cut(blocks: list[Block], rows: list[tuple[float, float]], min_col_gap: float) -> float:
    """Where to cut off the top band: the first gap across the page, unless columns of text
    run on through it and a gap of a text size or more lies lower.

    A newsletter's two columns stand over a band across the page (a calendar), which closes
    the gutter; the left column's paragraphs run on at a paragraph's spacing past the foot
    of the shorter right one. The first gap across the page was there, between two of the
    left column's paragraphs: cut there, the right column was read in the middle of the left
    one. A gap is run through when what lies above it splits into columns with paragraphs
    (three lines or more) on both sides, and one of its blocks goes on under the gap, in its
    column, within :data:`RUN_ON` text sizes of it (a Word newsletter leaves a blank line
    between paragraphs, level in both columns). A list's numbers and a table's cells are no
    columns of paragraphs: their rows are read in turn. A figure's caption beside a column's
    paragraph is such a column too (:func:`_figure_beside_text`).
    """
    size = sorted(b.size for b in blocks)[len(blocks) // 2]

    def runs_through(cut: float) -> bool:
        top, rest = split_at(blocks, cut)
        columns = (
            _paragraph_columns(top, min_col_gap)
            or _figure_beside_text(top, min_col_gap)
            or _column_goes_on(top, rest, min_col_gap)
        )
        # Text goes on under the gap in its column, a figure's caption under the figure; a
        # table or a box under a column's text is no column going on.
        return columns and any(
            x_overlap(a, b) and b.bbox[1] - a.bbox[3] < RUN_ON * size and b.region == a.region
            for a in top
            for b in rest
        )

    first = sum(rows[0]) / 2
    if not runs_through(first):
        return first
    lower = [(lo + hi) / 2 for lo, hi in rows[1:] if hi - lo >= size]
    return next((cut for cut in lower if not runs_through(cut)), first)


# A paragraph has at least this many lines (a title's rows, a list's numbers and a table's
# cells have fewer).
PARAGRAPH_LINES = 3
# An author's block (name, department, institution, place, e-mail) has at most this many.
TITLE_BLOCK_LINES = 5
# A paragraph set at least this share of the text's size is in the text's size.
TEXT_SIZE_SHARE = 0.9
# A column's next paragraph follows within this many text sizes (a blank line between).
RUN_ON = 2.0


def _paragraphs_of_their_own(top: list[Block], min_col_gap: float, body_style: str) -> bool:
    """Does a band above a row's gap hold running text in a font of its own, not title
    matter?

    A booklet's boxed aside sets paragraphs side by side in a sans font (columns of
    paragraphs set alike, longer than an author's block of name, place and e-mail); a
    bulletin's sermon runs beside its schedule in a font of its own, in the text's size.
    A paper's list of affiliations is as long, but set smaller than the text.
    """
    if _paragraph_columns(top, min_col_gap, TITLE_BLOCK_LINES + 1):
        return True
    size = style_size(body_style)
    return any(b.lines > TITLE_BLOCK_LINES and b.size >= TEXT_SIZE_SHARE * size for b in top)


def _paragraph_columns(
    blocks: list[Block], min_col_gap: float, lines: int = PARAGRAPH_LINES
) -> bool:
    """Do ``blocks`` split into columns with a paragraph (of ``lines`` lines or more) set
    alike on each side of the widest gutter?"""
    gutter = _widest_gutter(blocks, min_col_gap)
    if gutter is None:
        return False
    lo, hi = gutter
    left = {b.style for b in blocks if b.lines >= lines and b.bbox[2] <= hi}
    return any(b.lines >= lines and b.bbox[0] >= lo and b.style in left for b in blocks)


def _column_goes_on(top: list[Block], rest: list[Block], min_col_gap: float) -> bool:
    """Does a side of the band's widest gutter hold a stack of paragraphs set alike that
    goes on under the gap at the stack's own spacing?

    Elsevier sets a paper's article info (its history, classification codes and keywords,
    each a paragraph of several lines) in a narrow column beside the abstract, set smaller:
    the keywords went on under the abstract's last line, past a gap of two points between
    the abstract and the copyright line under it, and were read after the abstract. A
    column of two paragraphs or more (of :data:`PARAGRAPH_LINES` lines or more) in one
    style, whose next paragraph in that style starts under the gap no further under the
    last than they stand apart (a point's play), runs through the gap.
    """
    gutter = _widest_gutter(top, min_col_gap)
    if gutter is None:
        return False
    lo, hi = gutter
    for side in ([b for b in top if b.bbox[2] <= hi], [b for b in top if b.bbox[0] >= lo]):
        stack = sorted((b for b in side if b.lines >= PARAGRAPH_LINES), key=lambda b: b.bbox[1])
        for a, b in pairwise(stack):
            if a.style != b.style or not x_overlap(a, b):
                continue
            spacing = b.bbox[1] - a.bbox[3]
            if any(
                c.style == b.style
                and c.lines >= PARAGRAPH_LINES
                and x_overlap(b, c)
                and 0 <= c.bbox[1] - b.bbox[3] <= spacing + 1
                for c in rest
            ):
                return True
    return False


def _widest_gutter(blocks: list[Block], min_col_gap: float) -> tuple[float, float] | None:
    """The widest gap across ``blocks`` at least ``min_col_gap`` wide, or None."""
    columns = gaps([(b.bbox[0] + 0.5, right_ink(b) - 0.5) for b in blocks], min_col_gap)
    return max(columns, key=lambda g: g[1] - g[0], default=None)


def _figure_beside_text(blocks: list[Block], min_col_gap: float) -> bool:
    """Do ``blocks`` split into a column holding only a figure's blocks (its caption) and a
    column with a paragraph (Nature's chart and its caption's first line beside the right
    column's first paragraph: the gap under that line is no gap across the page's text)?"""
    gutter = _widest_gutter(blocks, min_col_gap)
    if gutter is None:
        return False
    lo, hi = gutter
    sides = ([b for b in blocks if b.bbox[2] <= hi], [b for b in blocks if b.bbox[0] >= lo])
    return any(
        figure
        and all(b.region == "float" for b in figure)
        and any(b.lines >= PARAGRAPH_LINES and not b.region for b in text)
        for figure, text in (sides, sides[::-1])
    )


def _sections(
    blocks: list[Block], headings: list[Block], min_col_gap: float, body_style: str, page, rules
) -> list[Block]:
    """``blocks`` read section by section: each heading opens a section of columns of its
    own (:mod:`.sections`). A heading gets the running text's style, so that a drag from
    one section into the next reads it (see :func:`headings_read_as_text`)."""
    out: list[Block] = []
    rest = [b for b in blocks if b not in headings]
    for heading in sorted(headings, key=lambda b: b.bbox[1]):
        if body_style and not heading.region:
            heading.style = body_style
        middle = (heading.bbox[1] + heading.bbox[3]) / 2
        above, rest = split_at(rest, middle)
        out += [*xy_cut(above, min_col_gap, body_style, page, rules), heading]
    return out + xy_cut(rest, min_col_gap, body_style, page, rules)


def _by_side_heads(
    heads: list[Block],
    left: list[Block],
    right: list[Block],
    min_col_gap: float,
    body_style,
    page,
    rules,
) -> list[Block]:
    """A margin column's side heads (:func:`.sections.side_heads`) each read before the text
    beside and under it down to the next head, then the margin's notes in that stretch; what
    stands above the first head comes first. A side head gets the running text's style, so
    that a drag from one section into the next reads it."""
    # Each head's stretch starts at the top of the paragraph level with it.
    tops = sorted(h.bbox[1] - SIDE_LEVEL * h.size for h in heads)

    def stretch(b: Block) -> int:
        # 0 above the first head, k under the k-th head (level with it counts as under it).
        return sum(b.bbox[1] >= top for top in tops)

    out: list[Block] = []
    for k in range(len(tops) + 1):
        head = [h for h in heads if stretch(h) == k]
        text = [b for b in right if stretch(b) == k]
        notes = [b for b in left if b not in heads and stretch(b) == k]
        for h in head:
            if body_style and not h.region:
                h.style = body_style
        out += head + xy_cut(text, min_col_gap, body_style, page, rules)
        out += xy_cut(notes, min_col_gap, body_style, page, rules)
    return out


# A block across the columns' top (or foot) reaches at most this share of its font size into
# the columns' first (or last) line: the slop of its box, not a line set level with them.
BAND_REACH = 0.5


def _bands_off_columns(
    blocks: list[Block], min_col_gap: float, body_style: str = ""
) -> tuple[list[Block], list[Block], list[Block]] | None:
    """The blocks above and below the columns of running text, when only their boxes'
    reach into the columns' first or last line closes both the gutter and the gap between
    rows: ``(above, columns, below)``, or None.

    IJCAI's title matter runs down to the columns' top (seven lines of authors and
    affiliations); the box of its last line reaches a point or two into the first line of
    the right column, which starts level with the centred "Abstract" heading over the
    indented abstract on the left. No row's gap is left across the page and no gutter runs
    its whole height, so the page was read line by line across the gutter: the right
    column's paragraphs before the abstract.

    The gutter is looked for between the paragraphs of at least
    :data:`OVERHANG_COLUMN_LINES` lines in the running text's style (``body_style``, when
    known: five lines of affiliations are not a paragraph). Every block across it must
    reach at most :data:`BAND_REACH` of its size into the top of the highest paragraph
    (then it lies above the columns, with every block no lower than it: title matter
    beside it) or up into the foot of the lowest (below them, with every block no higher).
    A block across the gutter level with the paragraphs is a headline or a figure between
    them: no band.
    """
    paragraphs = [
        b
        for b in blocks
        if b.lines >= OVERHANG_COLUMN_LINES and (not body_style or b.style == body_style)
    ]
    if len(paragraphs) < 2:
        return None
    top = min(b.bbox[1] for b in paragraphs)
    foot = max(b.bbox[3] for b in paragraphs)
    for lo, hi in gaps([(b.bbox[0] + 0.5, b.bbox[2] - 0.5) for b in paragraphs], min_col_gap):
        across = [b for b in blocks if b.bbox[0] + 0.5 < hi and b.bbox[2] - 0.5 > lo]
        over = [b for b in across if b.bbox[3] <= top + BAND_REACH * b.size]
        under = [b for b in across if b.bbox[1] >= foot - BAND_REACH * b.size and b not in over]
        if not across or len(over) + len(under) < len(across):
            continue
        above = [b for b in blocks if over and b.bbox[3] <= max(o.bbox[3] for o in over)]
        below = [
            b
            for b in blocks
            if under and b not in above and b.bbox[1] >= min(u.bbox[1] for u in under)
        ]
        rest = [b for b in blocks if b not in above and b not in below]
        return above, rest, below
    return None


def _by_rows(blocks: list[Block]) -> list[Block]:
    """Blocks that no cut separates, top to bottom, and blocks whose first lines stand level
    left to right.

    A paragraph whose first line is broken by inline math in a symbol font comes out as a
    piece of that line ("Let S"), the math, and the rest of the paragraph, whose boxes
    overlap; their tops differ by a point or two with the fonts' heights, so ordering by top
    alone can read the paragraph before the words that open it.
    """
    ordered = sorted(blocks, key=lambda b: (b.bbox[1], b.bbox[0]))
    out: list[Block] = []
    row: list[Block] = []
    for b in ordered:
        if row and not _level(row[0], b):
            out.extend(sorted(row, key=lambda r: (r.first_line or r.bbox)[0]))
            row = []
        row.append(b)
    out.extend(sorted(row, key=lambda r: (r.first_line or r.bbox)[0]))
    return out


# First lines whose middles lie within this share of a font size stand on one line.
LEVEL_SLACK = 0.4


def _level(a: Block, b: Block) -> bool:
    """Do the first lines of horizontal blocks ``a`` and ``b`` stand side by side, on one
    line? Their middles, not their overlap, are compared: a symbol's tall box (an arrow, a
    brace) reaches into the next line down, whose words must not be read before it."""
    if a.first_line is None or b.first_line is None or a.direction != b.direction:
        return False
    if a.direction != (1.0, 0.0):
        return False
    _ax0, ay0, _ax1, ay1 = a.first_line
    _bx0, by0, _bx1, by1 = b.first_line
    return abs((ay0 + ay1) - (by0 + by1)) / 2 <= LEVEL_SLACK * max(a.size, b.size, 1.0)


def _by_frames(
    blocks: list[Block], min_col_gap: float, body_style: str, rules: Sequence[tuple] = ()
) -> list[Block]:
    """XY-cut with what is drawn around (``Block.frame``) read as one, then its own blocks.

    Each frame stands in the cut as one block the size of its outline, so no column or row
    cut runs through it: a poster's sections whose text lines up across the page were read
    column by column through all of them.
    """
    framed: dict[tuple, list[Block]] = {}
    for b in blocks:
        if b.frame is not None:
            framed.setdefault(b.frame, []).append(b)
    if not framed:
        return xy_cut(blocks, min_col_gap, body_style, rules=rules)
    members: dict[int, list[Block]] = {}  # id() of a frame's stand-in -> the frame's blocks
    stand_ins = []
    for box, inner in framed.items():
        styles = Counter(b.style for b in inner)
        top = min(inner, key=lambda b: (b.bbox[1], b.bbox[0]))
        stand_in = Block(
            id=("frame", box),
            bbox=box,
            direction=inner[0].direction,
            size=max(b.size for b in inner),
            chars=sum(b.chars for b in inner),
            lines=sum(b.lines for b in inner),
            style=body_style if body_style in styles else styles.most_common(1)[0][0],
            # Its own box as its frame: it is one (a grid of cards numbers its frames).
            frame=box,
            first_word=top.first_word,
        )
        members[id(stand_in)] = inner
        stand_ins.append(stand_in)
    loose = [b for b in blocks if b.frame is None]
    out: list[Block] = []
    for b in xy_cut(loose + stand_ins, min_col_gap, body_style, rules=rules):
        inner = members.get(id(b))
        out += [b] if inner is None else xy_cut(inner, min_col_gap, body_style, blocks, rules)
    return out


def order_blocks(
    blocks: list[Block],
    page_height: float,
    drawn: Sequence[tuple] = (),
    rules: Sequence[tuple] = (),
) -> list[tuple[object, str]]:
    """Blocks in reading order with their roles.

    Order: headers, then the running text column by column with each footnote placed right
    after the column it sits under, then footers, then margin text. Putting marginalia
    outside the body's stretch keeps a drag across a column break from sweeping them in.
    A section heading's ``style`` is set to the running text's (see
    :func:`headings_read_as_text`).

    Args:
        blocks: the page's text blocks in file order.
        page_height: displayed page height in points.
        drawn: the figures' and boxes' rectangles in displayed space (see
            :func:`~basehalf_core.documents.regions.mark_regions`).
        rules: the rules drawn upright between columns and those drawn across the page, in
            displayed space.

    Returns:
        ``(block id, role)`` pairs in reading order; every block appears exactly once.
    """
    roles = assign_roles(blocks, page_height, drawn)
    if not blocks:
        return []
    by_role: dict[str, list[Block]] = {
        r: [] for r in ("header", "body", "float", "box", "footnote", "footer")
    }
    margin = []
    for b in blocks:
        (margin if roles[b.id] == "margin" else by_role[roles[b.id]]).append(b)
    dominant_lr = any(dir_key(b.direction) == (1, 0) for b in by_role["body"])
    if dominant_lr:
        sizes = sorted(b.size for b in by_role["body"]) or [10.0]
        gap = max(4.0, 0.6 * sizes[len(sizes) // 2])
        # Floats and boxes keep their place in the flow: a drag may start or end in them.
        flow = [b for b in blocks if roles[b.id] in FLOW_ROLES]
        body_style = _body_style(by_role["body"], by_role["box"])
        # Headings first: one at a column's top is part of the text, not a title band.
        headings_read_as_text(by_role["body"] + by_role["box"], body_style, drawn)
        body = _by_frames(flow, gap, body_style, rules)
    else:
        body = [b for b in blocks if roles[b.id] in FLOW_ROLES]
    ordered = list(body)
    for note in sorted(by_role["footnote"], key=lambda b: b.bbox[1]):
        at = len(ordered)
        for k, b in enumerate(ordered):
            if x_overlap(b, note) and b.bbox[1] < note.bbox[1]:
                at = k + 1
        ordered.insert(at, note)
    header = sorted(by_role["header"], key=lambda b: (b.bbox[1], b.bbox[0]))
    footer = sorted(by_role["footer"], key=lambda b: (b.bbox[1], b.bbox[0]))
    seq = header + ordered + footer + margin
    return [(b.id, roles[b.id]) for b in seq]
