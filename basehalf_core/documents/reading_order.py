"""Reading order of a page's text blocks, and which blocks are not part of the running text.

A learner's drag from the foot of the left column to the top of the right one must read like
the sentence on the page, without the footnote, running footer or margin stamp that sits
between the two in file order. This module only sees boxes (in displayed page space, points),
text directions and font sizes, so it is pure Python and testable without a PDF.

Roles: ``body`` (running text, read column by column), ``header`` / ``footer`` (running heads,
page numbers, conference lines), ``footnote`` (small print at the foot of a column) and
``margin`` (text at an angle to the page's text, such as arXiv's vertical stamp), and two roles
read in the flow of the running text but left out of a drag whose two ends are running text:
``float`` (a figure's or table's contents and its caption) and ``box`` (a sidebar in a filled
rectangle). The caller finds those from the page's drawings and puts them in ``Block.region``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

# Page bands (fractions of the displayed height) where running heads and footers live.
HEADER_BAND = 0.09
FOOTER_BAND = 0.90
# A footnote is set smaller than the running text (NeurIPS: 9 pt under 10 pt).
FOOTNOTE_SIZE_RATIO = 0.92
FOOTNOTE_MARKERS = "*∗†‡§¶#0123456789⁰¹²³⁴⁵⁶⁷⁸⁹"
# Unmarked small print is a foot block (permission, copyright, "received" lines) when it starts
# below this fraction of the page, is at most this tall, and sits this many body sizes below the
# running text above it in its column.
FOOT_BLOCK_TOP = 0.6
FOOT_BLOCK_HEIGHT = 0.25
FOOT_BLOCK_GAP = 1.0
# Text under this share of the page's text size is a figure's contents.
TINY_RATIO = 0.5
# A heading is set at most this many times the body's size (at least a footnote's ratio).
HEADING_MAX_RATIO = 1.6
# A display heading (the Royal Society's section heads: 16 pt over 9 pt text) is set larger,
# up to this ratio, and hangs on its paragraph: the text starts at most this many body sizes
# under it, and more space sets it off above than below.
DISPLAY_HEADING_RATIO = 2.4
DISPLAY_HEADING_GAP = 1.0
# A one-line subheading in small capitals comes out smaller still (Frontiers: 8.5 pt over
# 9.5 pt text); down to this ratio it is read when it hangs on its paragraph like the above.
SUBHEADING_MIN_RATIO = 0.8
# A heading may start left of its column by up to this share of the column's width.
OUTDENT_MAX = 0.5
# Roles read in the running text's flow (column by column), as opposed to marginalia.
FLOW_ROLES = ("body", "float", "box")


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
        first_line: the box of its first line in displayed page space (None if unknown).
        ruled: it starts right under a short rule at its left edge, low on the page (a
            footnote rule).
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


def _dir_key(direction: tuple[float, float]) -> tuple[int, int]:
    return (round(direction[0]), round(direction[1]))


def assign_roles(blocks: list[Block], page_height: float) -> dict[object, str]:
    """Decide each block's role; see the module docstring for the roles."""
    if not blocks:
        return {}
    dirs: Counter = Counter()
    for b in blocks:
        dirs[_dir_key(b.direction)] += b.chars
    dominant = dirs.most_common(1)[0][0]
    roles: dict[object, str] = {}
    for b in blocks:
        roles[b.id] = "body" if _dir_key(b.direction) == dominant else "margin"
    if dominant != (1, 0):
        # Vertical or right-to-left page flow: keep file order, flag only the odd directions.
        return roles
    # Print far smaller than the text (the pages of a document shown inside a figure, the
    # labels of a dense chart) is a figure's contents, never running text, however much of it.
    tiny = TINY_RATIO * text_size(b for b in blocks if roles[b.id] == "body")
    for b in blocks:
        if roles[b.id] == "body" and b.size < tiny:
            roles[b.id] = "float"
    body_size = text_size(b for b in blocks if roles[b.id] == "body")
    for b in blocks:
        if roles[b.id] != "body":
            continue
        _x0, y0, _x1, y1 = b.bbox
        if b.running:
            roles[b.id] = "header" if y0 < 0.5 * page_height else "footer"
        elif (
            b.lines <= 2
            and y1 <= HEADER_BAND * page_height
            and _stands_apart(b, blocks, roles, body_size)
        ):
            roles[b.id] = "header"
        elif (
            b.lines <= 2
            and y0 >= FOOTER_BAND * page_height
            and _apart_from_above(b, blocks, roles, body_size)
            and not _beside_running_text(b, blocks, roles, body_size, page_height)
        ):
            roles[b.id] = "footer"
        elif b.lines == 1 and b.chars <= 6 and b.first_char.isdigit():
            # A bare page number above or below everything else, wherever the margin is.
            others = [o for o in blocks if o is not b and roles[o.id] == "body"]
            if others and all(o.bbox[1] < y0 for o in others):
                roles[b.id] = "footer"
            elif others and all(o.bbox[3] > y1 for o in others):
                roles[b.id] = "header"
    # Footnotes: small print in the lower half, starting with a marker (or continuing one),
    # with no running text below it in its column.
    # Notes set in the text's own size are told by the footnote rule over them (``ruled``);
    # a piece of one of their lines set otherwise (small capitals) lies inside their box.
    ruled = [b for b in blocks if b.ruled and roles[b.id] == "body"]

    def under_rule(b: Block) -> bool:
        return any(
            r is b or (_x_overlap(r, b) and r.bbox[1] < b.bbox[1] and b.bbox[3] <= r.bbox[3] + 1)
            for r in ruled
        )

    candidates = sorted(
        (
            b
            for b in blocks
            if roles[b.id] == "body"
            and (b.size <= FOOTNOTE_SIZE_RATIO * body_size or under_rule(b))
        ),
        key=lambda b: b.bbox[1],
    )
    footnotes: list[Block] = []
    for b in candidates:
        if b.bbox[1] < 0.5 * page_height:
            continue
        marked = b.first_char in FOOTNOTE_MARKERS
        continues = any(_x_overlap(b, f) and f.bbox[1] < b.bbox[1] for f in footnotes)
        if not (marked or continues or _set_apart_below(b, blocks, roles, body_size, page_height)):
            continue
        below = [
            o
            for o in blocks
            if roles[o.id] == "body"
            and o is not b
            and o.bbox[1] > (b.bbox[3] - 1 if b.ruled else b.bbox[1])
            and _x_overlap(o, b)
            and o.size > FOOTNOTE_SIZE_RATIO * body_size
        ]
        if not below:
            footnotes.append(b)
    for b in footnotes:
        roles[b.id] = "footnote"
    # A filled box behind all of the page's running text (a white paper's interview set on a
    # tint) is the page's background, not a sidebar beside the text: its text stays running
    # text, read column by column.
    body = [b for b in blocks if roles[b.id] == "body"]
    background = all(b.region for b in body) and any(b.region == "box" for b in body)
    for b in body:
        if b.region and not (background and b.region == "box"):
            roles[b.id] = b.region
    return roles


def text_size(blocks) -> float:
    """The font size that covers the most of the page (characters times size squared).

    Counting characters alone, a figure holding thousands of words in 2-point print would
    outvote a page's running text.
    """
    area: Counter = Counter()
    for b in blocks:
        area[round(b.size * 2) / 2] += b.chars * b.size * b.size
    return area.most_common(1)[0][0] if area else 0.0


def _body_style(body: list[Block]) -> str:
    """The style that covers the most of the running text's area (see :func:`text_size`)."""
    styles: Counter = Counter()
    for b in body:
        styles[b.style] += b.chars * b.size * b.size
    return styles.most_common(1)[0][0] if styles else ""


def _headings_read_as_text(body: list[Block], body_style: str) -> None:
    """Give section headings and code listings the running text's style: a drag reads them.

    Repeated until nothing changes: a heading whose paragraph opens with a subheading
    ("Introduction" over "Overview of Homeostasis") hangs on it only once the subheading is
    read as text. See :func:`_headings_read_as_text_once`.
    """
    while _headings_read_as_text_once(body, body_style):
        pass


def _headings_read_as_text_once(body: list[Block], body_style: str) -> bool:
    """One pass of :func:`_headings_read_as_text`; whether it restyled any block.

    A drag keeps only text set like its two ends (a caption, table or permission block
    between them is set otherwise), but a heading between two paragraphs is read. A heading
    is one or two short lines at about the body's size or larger, inside a column of
    running text (no wider than it) and within three body sizes of it above or below. A
    headline across columns or a pull quote set much larger keeps its own style. A block set
    in a fixed-pitch font, in a column of running text and as close to it, is a code listing
    in the text's flow (a command shown between two sentences of a manual): it is read too, at
    any length, down to half the text's size. Captions, tables and permission blocks are set
    in the text's proportional fonts.
    """
    if not body_style:
        return False
    text = [b for b in body if b.style == body_style]
    if not text:
        return False
    changed = False
    size = Counter(b.size for b in text).most_common(1)[0][0]
    for b in body:
        if b.style == body_style or b.region:
            continue
        if b.fixed:
            # A code listing between paragraphs is read with them, whatever its length; it
            # is set smaller than the text, and may run a little past the column's edge.
            if b.size < TINY_RATIO * size:
                continue
            slack = size
        elif b.lines > 2 or b.chars > 120:
            continue
        elif HEADING_MAX_RATIO * size < b.size <= DISPLAY_HEADING_RATIO * size or (
            b.lines == 1 and SUBHEADING_MIN_RATIO * size <= b.size < FOOTNOTE_SIZE_RATIO * size
        ):
            # Set out into the margin (a textbook's section heads start left of the text
            # they open) it hangs on its paragraph at the column's edge.
            if _hangs_on_its_paragraph(b, text, size) or _outdented_heading(b, text, size):
                b.style = body_style
                changed = True
            continue
        elif not FOOTNOTE_SIZE_RATIO * size <= b.size <= HEADING_MAX_RATIO * size:
            continue  # small capitals come out a little under the body's size
        else:
            slack = 1
        for t in text:
            inside = t.bbox[0] - slack <= b.bbox[0] and b.bbox[2] <= t.bbox[2] + slack
            over = b.bbox[3] <= t.bbox[1] + 0.5 * size  # line boxes set tight may overlap
            if not inside and over and abs(b.bbox[0] - t.bbox[0]) <= slack:
                # A heading flush left over a paragraph of one short line ("Categories and
                # Subject Descriptors: ... Nonnumer-" over "ical Algorithms and Problems") is
                # as wide as its column, wider than that line: measured against the column.
                right = max(o.bbox[2] for o in text if abs(o.bbox[0] - t.bbox[0]) <= slack)
                inside = b.bbox[2] <= right + slack
            near = max(t.bbox[1] - b.bbox[3], b.bbox[1] - t.bbox[3]) <= 3 * size
            if inside and near:
                b.style = body_style
                changed = True
                break
        else:
            if not b.fixed and _outdented_heading(b, text, size):
                b.style = body_style
                changed = True
    return changed


def _outdented_heading(b: Block, text: list[Block], size: float) -> bool:
    """A heading set out into the left margin (Europe PMC's manuscripts) that hangs on its
    paragraph: it starts left of a column's edge (the left edge of at least two of the
    text's blocks) by more than a body size and less than half the column's width, reaches
    into the column, and the text starts at that edge right under it (see
    :func:`_hangs_on_its_paragraph`)."""
    edges = Counter(round(t.bbox[0]) for t in text)
    for edge, count in edges.items():
        if count < 2:
            continue
        column = [t for t in text if abs(t.bbox[0] - edge) <= 1]
        width = max(t.bbox[2] for t in column) - edge
        if not (
            b.bbox[0] < edge - size
            and edge - b.bbox[0] <= OUTDENT_MAX * width
            and edge < b.bbox[2] <= edge + width + 1
        ):
            continue
        shifted = Block(b.id, (edge, b.bbox[1], b.bbox[2], b.bbox[3]), b.direction, b.size, 0, 1)
        if _hangs_on_its_paragraph(shifted, column, size):
            return True
    return False


def _hangs_on_its_paragraph(b: Block, text: list[Block], size: float) -> bool:
    """A heading set apart above and close above the paragraph it opens.

    A heading set much larger than the text (or a subheading in small capitals, smaller) is
    still a section heading when the text starts
    right under it (within :data:`DISPLAY_HEADING_GAP` body sizes), flush with it at the
    column's left edge and no narrower than it, and the space above it (to the text above in
    its column, if any) is wider than the space below. A pull quote or a headline sits in the
    middle of its space or across columns; a title is followed by its authors, not by text.
    """
    x0, y0, x1, y1 = b.bbox
    under = [
        t
        for t in text
        if -1 <= t.bbox[1] - y1 <= DISPLAY_HEADING_GAP * size
        and abs(t.bbox[0] - x0) <= size
        and t.bbox[2] >= x1 - 1
    ]
    if not under:
        return False
    below = min(t.bbox[1] for t in under) - y1
    above = [y0 - t.bbox[3] for t in text if t.bbox[3] <= y0 + 1 and _x_overlap(t, b)]
    return not above or min(above) > below


def _stands_apart(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """A running head is set off from the text below it by more than a line's spacing.

    Top margins vary (lecture notes start their text 55 pt from the top); a heading close
    above the text belongs to it.
    """
    below = [
        o.bbox[1]
        for o in blocks
        if o is not b and roles[o.id] == "body" and o.bbox[1] >= b.bbox[3] - 1
    ]
    return not below or min(below) - b.bbox[3] >= 1.2 * body_size


def _apart_from_above(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """A running footer is set off from the text above it in its column; the last lines of a
    column's paragraph that reach into the foot of the page follow on at a line's spacing."""
    above = [
        o.bbox[3]
        for o in blocks
        if o is not b
        and roles[o.id] == "body"
        and o.bbox[1] < b.bbox[1]
        and o.bbox[3] <= b.bbox[1] + 0.5 * body_size  # line boxes set tight may overlap
        and _x_overlap(o, b)
        and o.size >= FOOTNOTE_SIZE_RATIO * body_size
    ]
    return not above or b.bbox[1] - max(above) >= 0.5 * body_size


def _set_apart_below(
    b: Block, blocks: list[Block], roles: dict, body_size: float, page_height: float
) -> bool:
    """Small print without a marker at a column's foot, below a gap after the running text.

    A permission or copyright block, a corresponding-author note or a received/accepted line
    is set smaller than the text, low on the page, and separated from the running text above
    it in its column by more than a line's spacing (often by a rule too). A figure's or
    table's small print is not this: it belongs to its region.
    """
    if b.region or b.bbox[1] < FOOT_BLOCK_TOP * page_height:
        return False
    if b.bbox[3] - b.bbox[1] > FOOT_BLOCK_HEIGHT * page_height:
        return False
    above = [
        o
        for o in blocks
        if o is not b
        and roles[o.id] == "body"
        and not o.region
        and o.bbox[3] <= b.bbox[1] + 1
        and _x_overlap(o, b)
    ]
    if not above:
        return False
    nearest = max(above, key=lambda o: o.bbox[3])
    return (
        nearest.size > FOOTNOTE_SIZE_RATIO * body_size
        and b.bbox[1] - nearest.bbox[3] >= FOOT_BLOCK_GAP * body_size
    )


def _beside_running_text(
    b: Block, blocks: list[Block], roles: dict, body_size: float, page_height: float
) -> bool:
    """Another column's running text goes on at this height: this is a column's last line.

    A column may end with a display equation and one short line reaching into the foot
    band; while the next column's text, following on from above at a line's spacing, runs
    level with it, it is no footer.
    """
    for o in blocks:
        if o is b or roles[o.id] != "body" or _x_overlap(o, b):
            continue
        if o.size < FOOTNOTE_SIZE_RATIO * body_size or o.bbox[3] < b.bbox[1]:
            continue
        level = min(o.bbox[3], b.bbox[3]) - max(o.bbox[1], b.bbox[1]) > 0
        if level and (o.bbox[1] < FOOTER_BAND * page_height or o.lines > 2):
            return True
    return False


def _x_overlap(a: Block, b: Block) -> bool:
    return min(a.bbox[2], b.bbox[2]) - max(a.bbox[0], b.bbox[0]) > 0


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


def xy_cut(
    blocks: list[Block], min_col_gap: float, body_style: str = "", page: list[Block] | None = None
) -> list[Block]:
    """Order blocks by recursive XY-cut, preferring a column split when one exists.

    Columns win over rows: two columns whose paragraphs happen to end at the same height
    must still be read left column first. A page region that neither splits is read top to
    bottom, then left to right. One exception: a band across the top with no block in the
    running text's style (``body_style``: a title, rows of authors and affiliations) is read
    before the columns under it, even where its rows happen to leave a gutter's gap; not
    when the band is a column's first line (:func:`_runs_on`). Rows of authors set in the
    running text's own font are such a band when centred (:func:`_title_band`, against the
    blocks of ``page``).
    """
    if len(blocks) <= 1:
        return list(blocks)
    page = blocks if page is None else page
    # Shrink by a hair so boxes that merely touch still leave a gap.
    eps = 0.5
    rows = gaps([(b.bbox[1] + eps, b.bbox[3] - eps) for b in blocks], 0.0)
    if body_style and rows:
        cut = sum(rows[0]) / 2
        top = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 < cut]
        rest = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 >= cut]
        if top and rest and all(b.style != body_style for b in top) and not _runs_on(top, rest):
            return xy_cut(top, min_col_gap, body_style, page) + xy_cut(
                rest, min_col_gap, body_style, page
            )
        band = _title_band(blocks, rows, body_style, page)
        if band:
            # Read as a table of its own: an author's name, affiliation and e-mail in turn.
            rest = [b for b in blocks if b not in band]
            return xy_cut(band, min_col_gap) + xy_cut(rest, min_col_gap, body_style, page)
    cols = gaps([(b.bbox[0] + eps, b.bbox[2] - eps) for b in blocks], min_col_gap)
    if not cols:
        cols = _gutters_under_overhangs(blocks, min_col_gap)
    if cols:
        # Cut at the widest gutter; recurse on each side.
        lo, hi = max(cols, key=lambda g: g[1] - g[0])
        cut = (lo + hi) / 2
        left = [b for b in blocks if (b.bbox[0] + b.bbox[2]) / 2 < cut]
        right = [b for b in blocks if (b.bbox[0] + b.bbox[2]) / 2 >= cut]
        return xy_cut(left, min_col_gap, body_style, page) + xy_cut(
            right, min_col_gap, body_style, page
        )
    if rows:
        # Peel off the top band only: what lies below may split into columns of its own
        # (a title above two columns whose paragraphs end level).
        cut = sum(rows[0]) / 2
        top = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 < cut]
        rest = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 >= cut]
        if top and rest:
            return xy_cut(top, min_col_gap, body_style, page) + xy_cut(
                rest, min_col_gap, body_style, page
            )
    return _by_rows(blocks)


# A line that overhangs a gutter keeps at least this share of its width on one side of it,
# and at most this many lines overhang one gutter (a contents page's dot leaders are many).
OVERHANG_SIDE = 2 / 3
OVERHANG_LINES = 1
# The gutter runs between paragraphs of running text: a block of at least this many lines on
# either side (a table's cells and a contents page's entries are shorter).
OVERHANG_COLUMN_LINES = 5


def _gutters_under_overhangs(blocks: list[Block], min_col_gap: float) -> list[tuple[float, float]]:
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
    not on one side; the dot leaders of a contents page cross it row after row.
    """
    tall = [b for b in blocks if b.lines > 1]
    if len(tall) < 2:
        return []
    out = []
    for lo, hi in gaps([(b.bbox[0] + 0.5, b.bbox[2] - 0.5) for b in tall], min_col_gap):
        mid = (lo + hi) / 2
        text = [b for b in tall if b.lines >= OVERHANG_COLUMN_LINES]
        if not any(b.bbox[2] - 1 <= lo for b in text) or not any(b.bbox[0] + 1 >= hi for b in text):
            continue
        crossing = [b for b in blocks if b.bbox[0] + 1 < hi and b.bbox[2] - 1 > lo]
        if len(crossing) <= OVERHANG_LINES and all(
            b.lines == 1
            and max(mid - b.bbox[0], b.bbox[2] - mid) >= OVERHANG_SIDE * (b.bbox[2] - b.bbox[0])
            and any(t.bbox[1] <= b.bbox[1] and b.bbox[3] <= t.bbox[3] for t in text)
            for b in crossing
        ):
            out.append((lo, hi))
    return out


def _title_band(
    blocks: list[Block], rows: list[tuple[float, float]], body_style: str, page: list[Block]
) -> list[Block]:
    """The rows of authors at the top of ``blocks`` set in the running text's own font.

    Rows are taken from the top while each block above the row's gap is set otherwise or
    is centred title matter (:func:`_centred`); empty when no block of the band is in the
    running text's style (the exception above reads those), when the band is all there is,
    or when it is a column's first line (:func:`_runs_on`).
    """
    band: list[Block] = []
    for gap in rows:
        cut = sum(gap) / 2
        above = [b for b in blocks if (b.bbox[1] + b.bbox[3]) / 2 < cut]
        new = [b for b in above if b not in band]
        if not all(b.style != body_style or _centred(b, page) for b in new):
            break
        band = above
    if not any(b.style == body_style for b in band) or len(band) == len(blocks):
        return []
    rest = [b for b in blocks if b not in band]
    return [] if _runs_on(band, rest) else band


# Title matter is a short block (at most this many lines) centred on a block right above or
# below it (within this many of its sizes) to this share of its size, the two widths
# differing by more than a size.
CENTRED_LINES = 3
CENTRED_GAP = 2.0
CENTRED_SLACK = 0.2


def _centred(b: Block, page: list[Block]) -> bool:
    """Is ``b`` a short block set centred on its neighbour above or below (an author's name
    over the affiliation and e-mail of a row of authors)?

    Running text is set flush left (or justified): its blocks share a left edge, not a
    middle, and a paragraph is longer. A caption or a table's cell is not looked at.
    """
    if b.lines > CENTRED_LINES or b.direction != (1.0, 0.0) or b.region:
        return False
    x0, y0, x1, y1 = b.bbox
    middle, width = (x0 + x1) / 2, x1 - x0
    for o in page:
        if o is b or o.direction != b.direction or not _x_overlap(o, b):
            continue
        if max(o.bbox[1] - y1, y0 - o.bbox[3]) > CENTRED_GAP * b.size:
            continue
        if abs((o.bbox[0] + o.bbox[2]) / 2 - middle) <= CENTRED_SLACK * b.size and (
            abs((o.bbox[2] - o.bbox[0]) - width) > b.size
        ):
            return True
    return False


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


def _runs_on(top: list[Block], rest: list[Block]) -> bool:
    """The band is one line of blocks side by side, one of which goes on in a block right
    under it, as wide and as far left.

    IEEE's abstract opens with a line of its own ("ABSTRACT | This paper …", set otherwise)
    level with the other column's first heading: that band is the columns' first lines, and
    the column under each goes on at a line's spacing, edge for edge. A title band's rows
    (title, authors, affiliations) are set off from what follows, and centred or narrower.
    """
    if len(top) < 2 or any(b.lines > 1 for b in top):
        return False  # a caption or a note in two halves, a lone line: peeled as before
    for b in top:
        for r in rest:
            if (
                abs(r.bbox[0] - b.bbox[0]) <= 2
                and abs(r.bbox[2] - b.bbox[2]) <= 2
                and 0 <= r.bbox[1] - b.bbox[3] <= b.size
            ):
                return True
    return False


def order_blocks(blocks: list[Block], page_height: float) -> list[tuple[object, str]]:
    """Blocks in reading order with their roles.

    Order: headers, then the running text column by column with each footnote placed right
    after the column it sits under, then footers, then margin text. Putting marginalia
    outside the body's stretch keeps a drag across a column break from sweeping them in.
    A section heading's ``style`` is set to the running text's (see
    :func:`_headings_read_as_text`).

    Args:
        blocks: the page's text blocks in file order.
        page_height: displayed page height in points.

    Returns:
        ``(block id, role)`` pairs in reading order; every block appears exactly once.
    """
    roles = assign_roles(blocks, page_height)
    if not blocks:
        return []
    by_role: dict[str, list[Block]] = {
        r: [] for r in ("header", "body", "float", "box", "footnote", "footer")
    }
    margin = []
    for b in blocks:
        (margin if roles[b.id] == "margin" else by_role[roles[b.id]]).append(b)
    dominant_lr = any(_dir_key(b.direction) == (1, 0) for b in by_role["body"])
    if dominant_lr:
        sizes = sorted(b.size for b in by_role["body"]) or [10.0]
        gap = max(4.0, 0.6 * sizes[len(sizes) // 2])
        # Floats and boxes keep their place in the flow: a drag may start or end in them.
        flow = [b for b in blocks if roles[b.id] in FLOW_ROLES]
        body_style = _body_style(by_role["body"])
        # Headings first: one at a column's top is part of the text, not a title band.
        _headings_read_as_text(by_role["body"], body_style)
        body = xy_cut(flow, gap, body_style)
    else:
        body = [b for b in blocks if roles[b.id] in FLOW_ROLES]
    ordered = list(body)
    for note in sorted(by_role["footnote"], key=lambda b: b.bbox[1]):
        at = len(ordered)
        for k, b in enumerate(ordered):
            if _x_overlap(b, note) and b.bbox[1] < note.bbox[1]:
                at = k + 1
        ordered.insert(at, note)
    header = sorted(by_role["header"], key=lambda b: (b.bbox[1], b.bbox[0]))
    footer = sorted(by_role["footer"], key=lambda b: (b.bbox[1], b.bbox[0]))
    seq = header + ordered + footer + margin
    return [(b.id, roles[b.id]) for b in seq]
