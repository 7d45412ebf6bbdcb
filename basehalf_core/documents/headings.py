"""Section headings and code listings between paragraphs: read with the running text."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from basehalf_core.documents.quotations import closing_tags_read_as_text, quotations_read_as_text
from basehalf_core.documents.text_blocks import (
    FOOTNOTE_SIZE_RATIO,
    TINY_RATIO,
    Block,
    heading_lines,
    x_overlap,
)

# A heading is set at most this many times the body's size (at least a footnote's ratio).
HEADING_MAX_RATIO = 1.6
# A display heading (the Royal Society's section heads: 16 pt over 9 pt text) is set larger,
# up to this ratio, and hangs on its paragraph: the text starts at most this many body sizes
# under it, and more space sets it off above than below.
DISPLAY_HEADING_RATIO = 2.4
DISPLAY_HEADING_GAP = 1.0
# A heading centred over its paragraph may stand this many body sizes above it (REVTeX's
# "III. CALIBRATION", 9 pt over 10 pt text, 2.2 sizes over it).
CENTRED_HEADING_GAP = 2.5
# A one-line subheading in small capitals comes out smaller still (Frontiers: 8.5 pt over
# 9.5 pt text); down to this ratio it is read when it hangs on its paragraph like the above.
SUBHEADING_MIN_RATIO = 0.8
# A section's heading and its first subsection's, one under the other, group as one block
# (ASME: "4. MODELING AND SIMULATION" over "4.1 Modules", 9 pt sans in 10 pt text).
SUBHEADING_LINES = 2
# A section's number: "2", "3.1", "II.", "A.", "(1)", and Korean papers' "2-1" and "Ⅱ-1.".
SECTION_NUMBER = re.compile(
    r"\d+(\.\d+)*\.?|[IVXLC]+\.|[A-Z]\.|[(（]\d+[)）]|(\d+|[\u2160-\u216b])(-\d+)+\.?"
)
# A heading may start left of its column by up to this share of the column's width.
OUTDENT_MAX = 0.5
# A heading in the text's size may start this many sizes left of its column (a list's numbers
# are indented a little under the heading over it: a flyer's "Netgear R6120"); it ends inside
# it (an e-mail line centred under an affiliation, wider, is title matter).
HEADING_SLACK = 0.5


def headings_read_as_text(body: list[Block], body_style: str, drawn: Sequence[tuple] = ()) -> None:
    """Give section headings and code listings the running text's style: a drag reads them.

    Repeated until nothing changes: a heading whose paragraph opens with a subheading
    ("Introduction" over "Overview of Homeostasis") hangs on it only once the subheading is
    read as text. See :func:`_headings_read_as_text_once`. Quotations set off between two
    paragraphs are read too (:func:`.quotations.quotations_read_as_text`). Each pass that changes
    anything reads at least one more block, so there are at most as many passes as blocks;
    the bound holds should a rule ever restyle a block back and forth.
    """
    quotations_read_as_text(body, body_style)
    closing_tags_read_as_text(body, body_style)
    for _ in range(len(body) + 1):
        if not (
            _headings_read_as_text_once(body, body_style, drawn)
            or _heading_pieces_read_as_text(body, body_style)
        ):
            break


# A heading's pieces on one line stand at most this many of their sizes apart.
PIECE_GAP = 1.5


def _heading_pieces_read_as_text(body: list[Block], body_style: str) -> bool:
    """Read the rest of a heading's line once its first piece is read; whether any was.

    A Chinese heading sets its number in Times and its title in a Hei font ("2" and
    "图的基础分析"), and the two come out as two blocks. The number was read as a numbered
    heading, the title, wider than the indented line under it, was not. A one-line block
    right after a one-line block read as text, level with it, in the same size, at most
    :data:`PIECE_GAP` sizes to its right, is the same heading's next piece. The same holds
    for a piece of inline math that closes a line of one line's block ("∩U_2 ∈T").
    """
    if not body_style:
        return False
    changed = False
    read = [h for h in body if h.style == body_style and h.lines == 1 and h.first_line]
    for b in body:
        if b.style == body_style or b.region or b.lines != 1 or b.first_line is None:
            continue
        for h in read:
            level = (
                abs((h.first_line[1] + h.first_line[3]) - (b.first_line[1] + b.first_line[3])) / 2
            )
            if (
                abs(h.size - b.size) <= 0.05 * b.size
                and level <= 0.4 * b.size
                and 0 <= b.bbox[0] - h.bbox[2] <= PIECE_GAP * b.size
            ):
                b.style = body_style
                changed = True
                break
    return changed


def _headings_read_as_text_once(body: list[Block], body_style: str, drawn: Sequence[tuple]) -> bool:
    """One pass of :func:`headings_read_as_text`; whether it restyled any block.

    A drag keeps only text set like its two ends (a caption, table or permission block
    between them is set otherwise), but a heading between two paragraphs is read. A heading
    is one or two short lines (three when short: :func:`.text_blocks.heading_lines`) at
    about the body's size or larger, inside a column of
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
    heads = _column_heads(body, text, size, body_style)
    paragraph_styles: set[str] | None = None  # computed once, when first needed
    columns = {id(t): _column_of(t, text, size) for t in text}  # once, not per heading
    ragged: dict[int, float] = {}  # each column's ragged edge, when first asked for
    for b in body:
        # A box's own heads are read with its text (a poster's boxes); a float's are not.
        if b.style == body_style or b.region == "float":
            continue
        if id(b) in heads:
            b.style = body_style
            changed = True
            continue
        if _title_row(b, body, text, size):
            continue
        code = b.fixed and b.size <= size
        if code:
            # A code listing between paragraphs is read with them, whatever its length; it
            # is set smaller than the text, and may run a little past the column's edge. (A
            # heading set larger in a typewriter face is a heading.)
            if b.size < TINY_RATIO * size:
                continue
            slack = outdent = size
        elif b.chars > 120 or b.lines > heading_lines(b.chars) * max(b.numbered, 1):
            continue  # a heading and its first subsection's, grouped: up to two lines each
        elif HEADING_MAX_RATIO * size < b.size <= DISPLAY_HEADING_RATIO * size or (
            b.lines <= SUBHEADING_LINES
            and SUBHEADING_MIN_RATIO * size <= b.size < FOOTNOTE_SIZE_RATIO * size
        ):
            # Set out into the margin (a textbook's section heads start left of the text
            # they open) it hangs on its paragraph at the column's edge.
            if _hangs_on_its_paragraph(b, text, size, drawn) or _outdented_heading(b, text, size):
                b.style = body_style
                changed = True
            continue
        elif not FOOTNOTE_SIZE_RATIO * size <= b.size <= HEADING_MAX_RATIO * size:
            continue  # small capitals come out a little under the body's size
        else:
            slack, outdent = 1, HEADING_SLACK * size
        for t in text:
            left, right = columns[id(t)]
            inside = left - outdent <= b.bbox[0] and b.bbox[2] <= right + slack
            if not inside and b.lines == 1:
                # A line flush right with the column's edge, past the ragged lines of the
                # paragraph over it: a writer's name signing it off.
                if id(t) not in ragged:
                    ragged[id(t)] = _ragged_edge(t, right, text, size)
                edge = ragged[id(t)]
                inside = b.bbox[0] > (left + edge) / 2 and abs(b.bbox[2] - edge) <= size
            over = b.bbox[3] <= t.bbox[1] + 0.5 * size  # line boxes set tight may overlap
            if not inside and over and abs(b.bbox[0] - t.bbox[0]) <= slack:
                # A heading flush left over a paragraph of one short line ("Categories and
                # Subject Descriptors: ... Nonnumer-" over "ical Algorithms and Problems") is
                # as wide as its column, wider than that line: measured against the column.
                right = max(o.bbox[2] for o in text if abs(o.bbox[0] - t.bbox[0]) <= slack)
                inside = b.bbox[2] <= right + slack
            near = max(t.bbox[1] - b.bbox[3], b.bbox[1] - t.bbox[3]) <= 3 * size
            if inside and near and not _byline(b, text, left, right, size):
                b.style = body_style
                changed = True
                break
        else:
            if not code and _outdented_heading(b, text, size):
                b.style = body_style
                changed = True
            elif not code and slack == 1:
                if paragraph_styles is None:
                    paragraph_styles = _paragraph_styles(body, body_style, size)
                # Read once: a heading over two paragraphs set otherwise keeps the first.
                over = (
                    None
                    if b.style in paragraph_styles
                    else _paragraph_under(b, body, paragraph_styles)
                )
                if over is not None:
                    b.style = over.style
                    changed = True
    return changed


def _title_row(b: Block, body: list[Block], text: list[Block], size: float) -> bool:
    """Is ``b`` one of a row of title matter: two lines or more set otherwise than the text,
    set in from the left edge of the text under it, level with a block of its own style
    beside it, with no running text above either (two authors' affiliations and e-mails
    centred side by side over the columns)? Such a row is read as title matter before the
    columns, not as a column's heading."""
    if b.lines < 2:
        return False

    def clear_above(o: Block) -> bool:
        return not any(x_overlap(t, o) and t.bbox[3] <= o.bbox[1] + 1 for t in text)

    # Centred over the text under it, not flush with its left edge (a manual's column heads
    # stand level across the columns' tops, flush left: headings).
    under = [t.bbox[0] for t in text if x_overlap(t, b) and t.bbox[1] >= b.bbox[3] - 1]
    if not under or b.bbox[0] - min(under) <= size:
        return False
    return clear_above(b) and any(
        o is not b
        and o.style == b.style
        and abs(o.bbox[1] - b.bbox[1]) <= size
        and not x_overlap(o, b)
        and clear_above(o)
        for o in body
    )


def _byline(b: Block, text: list[Block], left: float, right: float, size: float) -> bool:
    """Is ``b`` one line set flush right over the column from ``left`` to ``right``,
    starting past its first third, not centred, with no text of the column above it (an
    article's byline, "by Travis Goodspeed", under a title across the page)? A datasheet
    sets its headings flush right between two paragraphs (Maxim's "Temperature
    Conversion")."""
    return (
        b.lines == 1
        and b.bbox[2] >= right - 0.5 * size
        and b.bbox[0] > left + (right - left) / 3
        and abs((b.bbox[0] + b.bbox[2]) - (left + right)) / 2 > size
        and not any(x_overlap(o, b) and o.bbox[3] <= b.bbox[1] + 1 for o in text)
    )


# A paragraph in another font than the page's text is set at most this share of the text's
# size off it, in at least this many lines (a journal's methods in 8 points under an
# introduction in 9).
OTHER_TEXT_SLACK = 0.15
OTHER_TEXT_LINES = 3


def _paragraph_styles(body: list[Block], body_style: str, size: float) -> set[str]:
    """Styles other than the page's text's in which a paragraph of the text's size is set
    (:data:`OTHER_TEXT_LINES` lines or more)."""
    return {
        t.style
        for t in body
        if t.style != body_style
        and t.lines >= OTHER_TEXT_LINES
        and abs(t.size - size) <= OTHER_TEXT_SLACK * size
        and not t.region
        and not t.fixed
    }


def _paragraph_under(b: Block, body: list[Block], styles: set[str]) -> Block | None:
    """The paragraph set in another font than the page's text that ``b`` heads, if any.

    A Chinese course paper sets its abstract across the page in KaiTi, more of it than the
    columns' SimSun on the first page, so KaiTi is taken for the page's text; the right
    column's "1. 赛题简介" and "1. 1 赛题任务" over a SimSun paragraph were measured against
    the abstract only, kept their own fonts and were left out of a drag through them. A
    heading right over (within three sizes) a block in one of ``styles`` (see
    :func:`_paragraph_styles`; a heading already read so counts too), inside its width,
    takes that block's style.
    """
    for t in body:
        if t is b or t.style == b.style or t.style not in styles or t.region:
            continue
        size = t.size
        inside = t.bbox[0] - 1 <= b.bbox[0] and b.bbox[2] <= t.bbox[2] + 1
        over = b.bbox[3] <= t.bbox[1] + 0.5 * size and t.bbox[1] - b.bbox[3] <= 3 * size
        if inside and over:
            return t
    return None


# A column's text starts at most this many body sizes under its head.
COLUMN_HEAD_GAP = 2.0
# Heads on one baseline have middles within this share of their size of each other.
COLUMN_HEAD_LEVEL = 0.3


# A paragraph's first line is indented by at most this many text sizes.
INDENT_MAX = 3.0


# A paragraph right above or under another, flush left with it, stands at most this many
# sizes from it.
RAGGED_REACH = 3.0


def _ragged_edge(t: Block, right: float, text: list[Block], size: float) -> float:
    """The column's right edge beside text block ``t`` (whose own is ``right``), set ragged
    right: the farthest of its own and of the paragraphs flush left with it right above or
    under it.

    A newsletter signs an article ("Jenny Horsfield") flush right under its last paragraph,
    whose lines stop short of the column's edge: measured against that paragraph alone, the
    name stood out of the column and was left out of a drag as if it were a caption.
    """
    for o in text:
        near = max(o.bbox[1] - t.bbox[3], t.bbox[1] - o.bbox[3]) <= RAGGED_REACH * size
        if o is not t and near and abs(o.bbox[0] - t.bbox[0]) <= 1:
            right = max(right, o.bbox[2])
    return right


def _column_of(t: Block, text: list[Block], size: float) -> tuple[float, float]:
    """The left and right edges of text block ``t``, its left edge moved out to its
    column's when ``t`` is one indented line.

    A paragraph of one line opens with its indent (two characters in Chinese), so its block
    starts right of the column's edge, where the heading over it starts. The column's edge
    is that of the text blocks that reach past ``t`` on both sides, at most
    :data:`INDENT_MAX` sizes left of it."""
    x0, _, x1, _ = t.bbox
    if t.lines == 1:
        edges = [o.bbox[0] for o in text if o.bbox[0] < x0 and o.bbox[2] >= x1]
        if edges and x0 - min(edges) <= INDENT_MAX * size:
            x0 = min(edges)
    return x0, x1


def _column_heads(body: list[Block], text: list[Block], size: float, body_style: str) -> set[int]:
    """ids of the heads of a row of columns: read with the text, however large.

    A report sets three columns side by side under heads on one baseline ("Insight",
    "Challenge", "Strategy"), each at its own column's left edge and often much larger
    than the text (a display heading's ratio is no limit here). Alone, a line that large
    could be a headline or a pull quote; a row of them is not: two or more one-line blocks
    in one style, level with each other, each with a column of running text (two lines or
    more, no narrower than the head) starting flush with it within
    :data:`COLUMN_HEAD_GAP` body sizes under it, and the columns side by side. Read as
    title matter, the row went before all of its columns, and a drag from one column's foot
    to the next one's top left the next head out.
    """
    under: dict[int, Block] = {}
    for b in body:
        if (
            b.style == body_style
            or b.region
            or b.lines != 1
            or b.direction != (1.0, 0.0)
            or b.size < FOOTNOTE_SIZE_RATIO * size
        ):
            continue
        x0, _y0, x1, y1 = b.bbox
        column = [
            t
            for t in text
            if t.lines >= 2
            and -1 <= t.bbox[1] - y1 <= COLUMN_HEAD_GAP * size
            and abs(t.bbox[0] - x0) <= size
            and t.bbox[2] >= x1 - 1
        ]
        if column:
            under[id(b)] = min(column, key=lambda t: t.bbox[1])
    heads: set[int] = set()
    cands = [b for b in body if id(b) in under]
    for b in cands:
        mid = (b.bbox[1] + b.bbox[3]) / 2
        for o in cands:
            if (
                o is not b
                and o.style == b.style
                and abs((o.bbox[1] + o.bbox[3]) / 2 - mid) <= COLUMN_HEAD_LEVEL * b.size
                and not x_overlap(o, b)
                and not x_overlap(under[id(o)], under[id(b)])
            ):
                heads.add(id(b))
                break
    return heads


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


def _hangs_on_its_paragraph(
    b: Block, text: list[Block], size: float, drawn: Sequence[tuple] = ()
) -> bool:
    """A heading set apart above and close above the paragraph it opens.

    A heading set much larger than the text (or a subheading in small capitals, smaller) is
    still a section heading when the text starts
    right under it (within :data:`DISPLAY_HEADING_GAP` body sizes), flush with it at the
    column's left edge and no narrower than it (or, centred over it, within
    :data:`CENTRED_HEADING_GAP`), and the space above it (to the text above in its column,
    or a picture in ``drawn``, if any) is wider than the space below. A pull quote or a
    headline sits in the middle of its space or across columns; a title is followed by its
    authors, not by text.
    """
    x0, y0, x1, y1 = b.bbox
    ends = (b.first_word, b.last_word)
    if b.size < size and not any(sum(c.isalpha() for c in w) >= 2 for w in ends):
        return False  # a number alone, set smaller than the text: a table's cell, a marker
    # A numbered subheading set smaller than the text may stand further off it (REVTeX's and
    # AIP's "II. EXPERIMENTAL DETAILS", 9 pt bold over 10 pt text, 1.7 sizes above it), and
    # so may one in capitals (a leaflet's "GETTING TO THE CENTRE", 10 pt over 11 pt, 1.3
    # sizes); a display heading set larger hangs closer, and so does small print without a
    # section's number (a figure legend's last line, ACM's reference format, a copyright line).
    # So may one set in bold throughout (a handbook's "Provide Soap", 11 pt bold over 12 pt
    # text, 1.9 sizes above it), ending no sentence, with no picture right over it (whose
    # italic caption it would be).
    under_picture = any(
        0 <= y0 - r[3] <= CENTRED_HEADING_GAP * size and min(r[2], x1) > max(r[0], x0)
        for r in drawn
    )
    far = b.size < size and (
        bool(SECTION_NUMBER.fullmatch(b.first_word))
        or _capitals(b)
        or (
            b.emphasis
            and b.lines == 1
            and not b.last_word.endswith((".", ",", ";"))
            and not under_picture
        )
    )
    reach = CENTRED_HEADING_GAP if far else DISPLAY_HEADING_GAP

    def opens(t: Block) -> bool:
        gap = t.bbox[1] - y1
        # Over its paragraph, as wide; or over its first subsection's heading, read as text
        # already, which may be narrower ("II. EXPERIMENTAL DETAILS" over "A. Sputtering").
        wide = t.bbox[2] >= x1 - 1 or (far and t.lines <= 2)
        if abs(t.bbox[0] - x0) <= size and wide:
            return -1 <= gap <= reach * size
        # Centred over its paragraph (APS's "III. TESTING WITH THE CMB", 9 pt capitals over
        # 10 pt text): indented on both sides alike, with a little more space under it.
        indents = x0 - t.bbox[0], t.bbox[2] - x1
        skew = abs(indents[0] - indents[1])
        # Or centred over its first subsection's centred heading, narrower than it (REVTeX's
        # "III. RESULTS AND DISCUSSION" over "A. One-cell quantum battery").
        over_head = far and t.lines <= 2
        centred = skew <= 2 * size if over_head else min(indents) > size and skew <= size
        return centred and -1 <= gap <= CENTRED_HEADING_GAP * size

    under = [t for t in text if opens(t)]
    if not under:
        return False
    below = min(t.bbox[1] for t in under) - y1
    above = [y0 - t.bbox[3] for t in text if t.bbox[3] <= y0 + 1 and x_overlap(t, b)]
    # A picture right over it counts too: a photo's caption set smaller than the text hangs
    # on its photo, closer to it than to the text under it.
    above += [y0 - r[3] for r in drawn if r[3] <= y0 + 1 and min(r[2], x1) > max(r[0], x0)]
    return not above or min(above) > below


def _capitals(b: Block) -> bool:
    """Does ``b`` open and close with words in capitals ("GETTING TO THE CENTRE", "FOR YOUR
    PRAYERS")? A heading is set so; a figure legend's last line or a copyright line is not,
    nor an identifier ("RIN 2120–AA64")."""
    return all(
        sum(c.isalpha() for c in w) >= 2 and w.isupper() and not any(c.isdigit() for c in w)
        for w in (b.first_word, b.last_word)
    )
