"""Title matter over a page's columns: which top band the XY-cut reads before the columns.

A title, its authors and their affiliations stand over the columns and are read first; a
column's first lines, and a row of heads over the columns, are read with the columns. Split
out of :mod:`.reading_order`, which calls these from its XY-cut.
"""

from __future__ import annotations

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.text import style_family, style_size
from basehalf_core.documents.text_blocks import (
    Block,
    gaps,
    right_ink,
    split_at,
    x_overlap,
)

# A column head stands at most this many of its sizes over a paragraph of running text of at
# least this many lines, set this much smaller than the head.
HEAD_GAP = 2.0
HEAD_LINES = 3
HEAD_RATIO = 1.15
# Title matter's rows stand at most this many of their sizes apart.
REPEAT_REACH = 4.0
# A column's head may hang out into the gutter by this many of its sizes.
HEAD_HANG = 1.5


def heads_over_columns(
    top: list[Block], rest: list[Block], min_col_gap: float, body_style: str, page: list[Block]
) -> bool:
    """Is ``top`` a row of single-line heads over the columns of ``rest`` (its blocks down
    to the first gap across them)?

    A poster sets its boxes' titles ("Abstract", "Methods", "Results") level across the
    page, in a size of their own and on no band, over columns of text; a datasheet its
    "FEATURES" and "GENERAL DESCRIPTION" over its two columns. Peeled as title matter, the
    row was read before the columns, and a drag from one column's foot into the next
    column's top lost the next column's head. Each head lies between two gutters of the
    columns under it, the heads lie in two columns or more, and one stands right over a
    paragraph of running text (within :data:`HEAD_GAP` of its size, :data:`HEAD_LINES`
    lines or more, :data:`HEAD_RATIO` smaller) that does not end at the columns' foot. A
    row of authors' names stands over affiliations that end above the columns; their
    e-mails, right over the columns, are set like the names above them (title matter). (Whether
    such heads are *read* in a drag, as headings, is :mod:`.headings`' question.)
    """
    if len(top) < 2 or any(b.lines != 1 for b in top):
        return False
    styles = {b.style for b in top}
    y0 = min(b.bbox[1] for b in top)
    if any(
        o.style in styles
        and o.bbox[3] <= y0
        and y0 - o.bbox[3] <= REPEAT_REACH * o.size
        and sum(x_overlap(o, h) for h in top) <= 1
        for o in page
    ):
        # A row repeating title matter's style right above it: the authors' e-mails under
        # their names and affiliations, some lines down (a flyer's earlier row of heads,
        # over its own columns further up, is no such matter; nor is a slogan across the
        # page over the heads, reaching over two of them, which no author's name does).
        return False
    # The first gap across the columns: a paragraph ending there is a row of its own.
    rows = gaps([(b.bbox[1] + 0.5, b.bbox[3] - 0.5) for b in rest], 0.0)
    foot = rows[0][0] if rows else float("inf")
    under = [b for b in rest if b.bbox[3] - 0.5 <= foot]
    if not under:
        return False
    gutters = gaps([(b.bbox[0] + 0.5, b.bbox[2] - 0.5) for b in under], min_col_gap)
    # Beside the text under the row lies a column with nothing under its head (a tri-fold's
    # empty panel): the page's space left and right of that text counts as a gutter too.
    left, right = min(b.bbox[0] for b in under), max(b.bbox[2] for b in under)
    columns = set()
    for b in top:
        # A point in from each side, where the gutters are measured half a point in: a
        # poster's head on a band as wide as its box (:func:`.regions.mark_regions` widens
        # it) ends where the box's widest line does, to a hair.
        x0, x1 = b.bbox[0] + 1, b.bbox[2] - 1
        hang = HEAD_HANG * b.size
        if any(
            x0 < hi
            and x1 > lo
            and not lo <= x0 < x1 <= hi  # a head may lie in a gutter, its panel empty under it
            and not (lo < x0 and x1 > hi and hi - x0 <= hang)  # or hang out over its list
            for lo, hi in gutters
        ):
            # Into or across a gutter: a headline, not a column's head. A head may hang a
            # little into the gutter left of its column ("Organizers:" a size left of its
            # bullets).
            return False
        middle = (b.bbox[0] + b.bbox[2]) / 2
        if b.bbox[2] <= left or b.bbox[0] >= right:
            columns.add(-1 if middle < left else len(gutters) + 1)
        else:  # by its middle: a head may lie in a gutter, its panel empty below it
            columns.add(sum(lo <= middle for lo, _hi in gutters))
    if len(columns) < 2:
        return False
    if len(under) == len(rest) and _card_texts(top, under):
        return True
    return any(
        _running_paragraph(r, body_style)
        # Larger than the paragraph, or a little larger in bold or italic throughout (a
        # one-pager's "THE CONCEPT" and "WHY IT WINS", 9.5-point bold over 8.5).
        and (b.size >= HEAD_RATIO * r.size or (b.size > r.size and b.emphasis))
        and 0 <= r.bbox[1] - b.bbox[3] <= HEAD_GAP * b.size
        # It may hang left of its paragraph as of a list (bullets drawn before the lines).
        and r.bbox[0] - HEAD_HANG * b.size <= b.bbox[0]
        and b.bbox[2] <= r.bbox[2] + b.size
        # A section's numbered head may stand over a paragraph that ends level with the
        # other column's (a paper's "2.2" and "2.4" side by side, sections alike in length).
        and (r.bbox[3] - 0.5 < foot - 1 or bool(SECTION_NUMBER.fullmatch(b.first_word)))
        for b in top
        for r in under
    )


# A card's text under its head holds at least this many lines.
CARD_LINES = 2


def _card_texts(heads: list[Block], under: list[Block]) -> bool:
    """Does every head stand over a text of its own, centred under it, the last row there is?

    A slide sets "VISION" and "MISSION" side by side, each over its box's three lines; a
    brochure its two deadlines over two lines each. Nothing stands under those texts in
    their part of the page, so the texts end at the row's foot as a row of authors'
    affiliations does over a paper's columns (which then stand under them, and the row is
    not the last). Each head here is larger than the text under it, within
    :data:`HEAD_GAP` of its size, the text of :data:`CARD_LINES` lines or more, centred
    under the head within the head's size, and no text lies under two heads.
    """
    owners: dict[int, Block] = {}
    for b in heads:
        middle = (b.bbox[0] + b.bbox[2]) / 2
        mine = [
            r
            for r in under
            if r.lines >= CARD_LINES
            and b.size >= HEAD_RATIO * r.size
            and 0 <= r.bbox[1] - b.bbox[3] <= HEAD_GAP * b.size
            and abs((r.bbox[0] + r.bbox[2]) / 2 - middle) <= b.size
        ]
        if not mine:
            return False
        for r in mine:
            if owners.setdefault(id(r), b) is not b:
                return False
    return True


def title_band(
    blocks: list[Block], rows: list[tuple[float, float]], body_style: str, page: list[Block]
) -> list[Block]:
    """The rows of authors at the top of ``blocks`` set in the running text's own font.

    Rows are taken from the top while each block above the row's gap is set otherwise or
    is centred title matter (:func:`centred_title`, :func:`_centred_across`), and none is a
    paragraph longer than an author's block (:data:`CENTRED_SET_LINES`); empty when no
    block of the band is in the running text's style (:func:`.reading_order.xy_cut` peels
    those itself), when the band is all there is, or when it is a column's first line
    (:func:`runs_on`).
    """
    band: list[Block] = []
    for gap in rows:
        cut = sum(gap) / 2
        above = split_at(blocks, cut)[0]
        new = [b for b in above if b not in band]
        # A paragraph set otherwise (a paper's bold abstract, longer than any author's block)
        # is the text's start, not title matter: the band ends over it.
        if any(b.lines > CENTRED_SET_LINES and b.region != "float" for b in new):
            break
        if not all(
            b.style != body_style
            or (
                (centred_title(b, page) or _centred_across(b, blocks))
                # A numbered line is a section's head ("IV. Grover's Algorithm" centred
                # over its column's figure), not an author's row.
                and not (b.lines == 1 and SECTION_NUMBER.fullmatch(b.first_word))
            )
            for b in new
        ):
            break
        band = above
    if not any(b.style == body_style for b in band) or len(band) == len(blocks):
        return []
    rest = [b for b in blocks if b not in band]
    return [] if runs_on(band, rest) or _section_head(band, rest, body_style) else band


def _centred_across(b: Block, blocks: list[Block]) -> bool:
    """Is ``b`` one line centred over the columns under it, across a gutter of theirs (a
    magazine's byline, "By Zoe Bendoff / October 26, 2020", between rules over four columns,
    in the text's face)? No line of a column crosses its gutter."""
    under = [o for o in blocks if o.bbox[1] >= b.bbox[3] - 0.5]
    if b.lines != 1 or not under:
        return False
    gutters = gaps([(o.bbox[0] + 0.5, right_ink(o) - 0.5) for o in under], 0.5 * b.size)
    left, right = min(o.bbox[0] for o in under), max(right_ink(o) for o in under)
    return any(b.bbox[0] < lo and hi < b.bbox[2] for lo, hi in gutters) and (
        abs((b.bbox[0] + b.bbox[2]) - (left + right)) / 2 <= b.size
    )


# A section's head stands closer than this many of its sizes over its paragraph; an author's
# row is set further off from what follows it.
SECTION_HEAD_GAP = 1.0


def _section_head(band: list[Block], rest: list[Block], body_style: str) -> bool:
    """Is the band's lowest block in the text's style a section's head, centred right over
    the paragraph it opens (IEEE Network's "Securing the Open Interfaces" over "New
    Vulnerabilities" at the right column's top, 3 points over its text)? A column's head
    is read with its column; rows of authors stand further off the text under them.
    """
    own = [b for b in band if b.style == body_style]
    low = max(own, key=lambda b: b.bbox[3])
    return any(
        _running_paragraph(r, body_style)
        and 0 <= r.bbox[1] - low.bbox[3] <= SECTION_HEAD_GAP * low.size
        and r.bbox[0] <= low.bbox[0] + 1
        and low.bbox[2] <= r.bbox[2] + 1
        for r in rest
    )


# Title matter is a short block (at most this many lines: an author's department,
# university, city and e-mail) centred on a block right above or below it (within this many
# of its sizes) to this share of its size, the two widths differing by more than a size.
CENTRED_LINES = 4
CENTRED_GAP = 2.0
CENTRED_SLACK = 0.3
# ... and at most this share of the widest block on the page.
CENTRED_WIDTH = 0.8


# ... or this many when its own lines are set centred (an affiliation whose department takes
# two lines: "Programa de Pós-Graduação" / "em Computação (PPGC)").
CENTRED_SET_LINES = 6


def _short(b: Block) -> int:
    """How many lines title matter may take: more when ``b``'s first line is set centred in
    it, narrower than it by more than its size (a paragraph's first line is as wide as the
    paragraph, or indented at its left only)."""
    if b.first_line is None:
        return CENTRED_LINES
    x0, _y0, x1, _y1 = b.first_line
    centred = abs((x0 + x1) - (b.bbox[0] + b.bbox[2])) / 2 <= CENTRED_SLACK * b.size
    narrower = (b.bbox[2] - b.bbox[0]) - (x1 - x0) > b.size
    return CENTRED_SET_LINES if centred and narrower else CENTRED_LINES


def centred_title(b: Block, page: list[Block]) -> bool:
    """Is ``b`` a short block set centred on its neighbour above or below (an author's name
    over the affiliation and e-mail of a row of authors)?

    Running text is set flush left (or justified): its blocks share a left edge, not a
    middle, and a paragraph is longer. A caption or a table's cell is not looked at. The
    neighbour is short title matter too: a heading centred over the paragraph it opens (a
    poster's box titles, "Results" over its box's text) is no author's name.
    """
    if b.lines > _short(b) or b.direction != (1.0, 0.0) or b.region:
        return False
    x0, y0, x1, y1 = b.bbox
    middle, width = (x0 + x1) / 2, x1 - x0
    # Nearly as wide as the page's text, a block is a paragraph or a list's item (a
    # booklet's bullet line and the item's next lines, 8 points apart, look centred on each
    # other); an author's name or affiliation is shorter.
    if width > CENTRED_WIDTH * max(o.bbox[2] - o.bbox[0] for o in page):
        return False
    for o in page:
        if o is b or o.direction != b.direction or not x_overlap(o, b):
            continue
        if o.lines > _short(o):
            continue
        if max(o.bbox[1] - y1, y0 - o.bbox[3]) > CENTRED_GAP * b.size:
            continue
        if abs((o.bbox[0] + o.bbox[2]) / 2 - middle) <= CENTRED_SLACK * b.size and (
            abs((o.bbox[2] - o.bbox[0]) - width) > b.size
        ):
            return True
    return False


# A lone column head is set at most this much larger than the text of the column under it.
LONE_HEAD_RATIO = 1.3
# ... or takes at most this many lines, set as a head further down its column, this much
# larger than the column's text.
HEAD_LINES_OVER = 2
HEADING_OVER = 1.3


def lone_column_head(
    top: list[Block], rest: list[Block], min_col_gap: float, page: list[Block]
) -> bool:
    """Is ``top`` the page's first line (or two, set as a later head of its column is),
    centred over one column of ``rest`` and at least the size of its text: that column's
    head rather than title matter?

    A parish bulletin opens its left column with a picture ("Mass Intentions", no text) and
    its right column with "OFFERINGS", a line centred over the column in a font of its own:
    the only text above the columns' first lines, it was peeled as a title and read before
    the left column. A title crosses the gutter or stands over the page's middle; a journal's
    label ("RESEARCH ARTICLE") or a date line is set flush with an edge, and smaller; the
    authors' line centred over a paper's main column stands under its title. A line larger
    than the column's text and set as heads further down the column are (a brochure's
    "Code Completion" flush right over a column whose events are headed "Robotics" and "Web
    designing" the same way) is that column's first head, however much larger.
    """
    if len(top) != 1 or top[0].lines > HEAD_LINES_OVER:
        return False
    head = top[0]
    if any(b.bbox[3] <= head.bbox[1] for b in page):
        return False
    gutters = gaps([(b.bbox[0] + 0.5, right_ink(b) - 0.5) for b in rest], min_col_gap)
    if not gutters:
        return False
    edges = [min(b.bbox[0] for b in rest), *(hi for _lo, hi in gutters)]
    ends = [lo for lo, _hi in gutters] + [max(right_ink(b) for b in rest)]
    for left, right in zip(edges, ends, strict=True):
        if not (left - 1 <= head.bbox[0] and head.bbox[2] <= right + 1):
            continue
        under = [b for b in rest if left - 1 <= b.bbox[0] and right_ink(b) <= right + 1]
        if not under:
            return False
        size = sorted(b.size for b in under)[len(under) // 2]
        if head.size > size and any(_set_alike(head, b, size) for b in under):
            return True  # larger than the text, set as the column's heads further down are
        middle = (head.bbox[0] + head.bbox[2] - left - right) / 2
        return (
            head.lines == 1 and size <= head.size <= LONE_HEAD_RATIO * size and abs(middle) <= size
        )
    return False


def _set_alike(head: Block, other: Block, size: float) -> bool:
    """Is ``other`` set as ``head`` is: a one-line block in its face and size, aligned as it
    is (same left edge, right edge or middle, within a point); or a block of as many lines
    as it may take, in its face at another size larger than the column's text (``size``),
    flush left with it (a flyer's panel opens with "WAS WIR / TUN" in 25 points, its second
    head "WAS WIR / MÖGLICH MACHEN" in 19)?"""
    (a0, _, a1, _), (b0, _, b1, _) = head.bbox, other.bbox
    if other.lines == 1 and other.style == head.style and head.lines == 1:
        return min(abs(a0 - b0), abs(a1 - b1), abs((a0 + a1) - (b0 + b1)) / 2) <= 1
    return (
        other.lines <= HEAD_LINES_OVER
        and style_family(other.style) == style_family(head.style)
        and other.size > HEADING_OVER * size
        and abs(a0 - b0) <= 1
    )


def opens_a_box(top: list[Block], rest: list[Block], body_style: str) -> bool:
    """Is the band a row of heads, one of them a box's first line, another outside any box?

    A tri-fold leaflet heads its tinted middle panel "Cooperating Partners", level with the
    white panel's "Location Info" left of it, over logos and a map (no paragraph right
    under either head): peeled as a row of title matter, the two heads were read before the
    first panel. A head in a box whose text goes on under it is that box's first line, and
    a row of heads that also holds one outside any box is the panels' first lines, read with
    them. Heads: single lines set larger than the running text (a table's shaded cells are
    set as the text is).
    """
    size = style_size(body_style)
    if all(b.region == "box" for b in top) or any(b.lines != 1 or b.size <= size for b in top):
        return False
    return any(
        b.region == "box"
        and any(r.region == "box" and r.bbox[1] >= b.bbox[3] and x_overlap(b, r) for r in rest)
        for b in top
    )


def numbered_heads(top: list[Block]) -> bool:
    """Is the band a row of two heads or more, each opening with an item's number ("1.",
    "3.", "2.4", "IV.")?

    A handout sets its cards two by two, numbered down the columns ("1. Euler's Identity"
    beside "3. The Fundamental Theorem of Calculus"), a display under each head before its
    paragraph: peeled as title matter, the row was read before the columns and the cards
    row by row. Title matter carries no item numbers; numbered heads head their columns.
    """
    return len(top) >= 2 and all(
        "." in b.first_word and SECTION_NUMBER.fullmatch(b.first_word) for b in top
    )


def runs_on(top: list[Block], rest: list[Block]) -> bool:
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


def column_text(top: list[Block], rest: list[Block]) -> bool:
    """Does the band hold the top of a column's running text, set as the paragraphs of the
    column under it?

    An annual report's page sets its left column's head ("Overview", 18 points) level with
    the right column's first lines, the end of a sentence carried over from the left
    column: no block of the band was in the page's text style (a band of 8-point notes
    above holds the most text), so it was read as title matter, right column first. A
    block of two lines or more that opens in lower case (a sentence going on: an author's
    affiliation opens with a capital), set in the style of a paragraph (three lines or
    more) under it in its column and no wider than it by a fifth, is running text: the
    band is no title's.
    """
    return any(
        b.lines >= 2
        and b.first_char.islower()
        and r.lines >= 3
        and r.style == b.style
        and x_overlap(b, r)
        and b.bbox[3] <= r.bbox[1]
        and b.bbox[2] - b.bbox[0] <= 1.2 * (r.bbox[2] - r.bbox[0])
        for b in top
        for r in rest
    )


def _running_paragraph(r: Block, body_style: str) -> bool:
    """Is ``r`` a paragraph of running text a head may stand over: :data:`HEAD_LINES` lines
    or more in the page's text style, or twice as many in a size of its own (a tri-fold's
    panels each set their text in a size of their own)?"""
    return r.lines >= HEAD_LINES and (r.style == body_style or r.lines >= 2 * HEAD_LINES)
