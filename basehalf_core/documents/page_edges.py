"""A page's edges: is a line at the page's top a running head, one at its foot a footer?

Heads and footers repeated at the same height on nearby pages are found by
:mod:`running_heads`; these are the tests for the edge lines that do not repeat. A head stands
apart from the text under it, follows no text and is no page's title; a footer stands apart
from its column's text above, goes on no sentence, is no signature, no section opened at a
column's foot and no column's last line beside the next column's text. Each test takes the
page's blocks and the roles decided so far (``roles``: block id -> role).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.text_blocks import FOOTNOTE_SIZE_RATIO, Block, x_overlap

# Page bands (fractions of the displayed height) where running heads and footers live.
HEADER_BAND = 0.09
FOOTER_BAND = 0.90
# A line at the page's top set this many times the text's size or larger, centred over the
# text, is a title, not a running head (unless it repeats on the pages around it).
TITLE_RATIO = 1.5
# A line at the foot follows the column's text at its own spacing when the last this many
# gaps between its blocks (lines or paragraphs) each differ from the line's gap by at most
# this ratio.
SPACING_LINES = 3
SPACING_SAME = 0.8


def is_running_head(
    b: Block,
    blocks: list[Block],
    roles: dict,
    body_size: float,
    page_height: float,
    drawn: Sequence[tuple] = (),
) -> bool:
    """Is ``b``, which does not repeat on the pages around, a running head all the same?

    Where a running head was found repeating, a second line under it that does not repeat
    is a paragraph's tail carried to the column's top: only one line may be a head then. A
    line drawn round in one frame with the text under it heads that box, not the page.
    """
    if b.bbox[3] > HEADER_BAND * page_height:
        return False
    repeated = any(o.running for o in blocks)
    return (
        b.lines <= (1 if repeated and b.size >= FOOTNOTE_SIZE_RATIO * body_size else 2)
        and not _page_title(b, blocks, roles, body_size)
        and _stands_apart(b, blocks, roles, body_size)
        and not _heads_its_column(b, blocks, roles, body_size, drawn)
        and not _follows_text(b, blocks, roles, body_size)
        and not _framed_with_text(b, blocks, roles, drawn)
    )


def _framed_with_text(b: Block, blocks: list[Block], roles: dict, drawn: Sequence[tuple]) -> bool:
    """Is ``b`` inside a drawn frame that holds running text under it too (a slide's three
    boxes, each headed "Kitchen items", "Sports / Outdoors" at the slide's top)?"""
    x0, y0, x1, y1 = b.bbox
    for r in drawn:
        if not (r[0] <= x0 + 1 and r[1] <= y0 + 1 and x1 <= r[2] + 1 and y1 <= r[3] + 1):
            continue
        if any(
            o is not b
            and roles[o.id] == "body"
            and o.bbox[1] >= y1 - 1
            and r[0] <= o.bbox[0] + 1
            and o.bbox[2] <= r[2] + 1
            and o.bbox[3] <= r[3] + 1
            for o in blocks
        ):
            return True
    return False


def is_footer(
    b: Block,
    blocks: list[Block],
    roles: dict,
    body_size: float,
    page_height: float,
    drawn: Sequence[tuple],
) -> bool:
    """Is ``b``, which does not repeat on the pages around, a running footer all the same?"""
    return (
        b.lines <= 2
        and b.bbox[1] >= FOOTER_BAND * page_height
        and _apart_from_above(b, blocks, roles, body_size)
        and not _continues_sentence(b, blocks, roles, body_size)
        and not _signature(b, body_size)
        and not _section_at_foot(b, blocks, body_size)
        and (
            not _beside_running_text(b, blocks, roles, body_size, page_height)
            or _far_below_its_column(b, blocks, roles, body_size, drawn)
        )
    )


def page_number_edge(b: Block, blocks: list[Block], roles: dict) -> str | None:
    """``"footer"`` or ``"header"`` for a bare page number below or above all the page's
    running text, wherever the margin is; None for anything else.

    Clear of them all: a paragraph's number level with its first line ("1.7" of a
    regulation's last paragraph on the page) starts under the others' tops.
    """
    if not (b.lines == 1 and b.chars <= 6 and b.first_char.isdigit()):
        return None
    _x0, y0, _x1, y1 = b.bbox
    others = [o for o in blocks if o is not b and roles[o.id] == "body"]
    # A running head's other piece on its line ("3 CITATIONS" left of "2") is no text above
    # it; everything else starts under the line.
    under = [o for o in others if not _on_its_line(o, b)]
    if others and all(o.bbox[3] <= y0 + 1 for o in others):
        return "footer"
    if under and all(o.bbox[1] >= y1 - 1 for o in under):
        return "header"
    return None


def _stands_apart(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """A running head is set off from the text below it by more than a line's spacing.

    Top margins vary (lecture notes start their text 55 pt from the top); a heading close
    above the text belongs to it. A line level with the first line of a paragraph in
    another column is that column's first line (a sentence's end carried over, "phase
    smoothing approach:" over a display equation), not a head above the text; so is a line
    level with a column's heading over its first paragraph (a newsletter's right column goes
    on "Liaison, Tym at …" level with the left column's "Living with College Students").
    """
    level = [
        o
        for o in blocks
        if o is not b
        and roles[o.id] == "body"
        and abs(o.bbox[1] - b.bbox[1]) <= 0.5 * body_size
        and (o.lines >= 2 or _heads_text(o, blocks, roles, body_size))
    ]
    if level:
        return False
    below = [
        o.bbox[1]
        for o in blocks
        if o is not b and roles[o.id] == "body" and o.bbox[1] >= b.bbox[3] - 1
    ]
    return not below or min(below) - b.bbox[3] >= 1.2 * body_size


def _heads_text(o: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """Does running text follow ``o`` right under it, at a line's spacing (a column's
    heading over its first paragraph)?"""
    return any(
        p is not o
        and roles[p.id] == "body"
        and x_overlap(p, o)
        and -1 <= p.bbox[1] - o.bbox[3] <= 0.5 * body_size
        for p in blocks
    )


def nearest_above(b: Block, blocks: list[Block], keep) -> Block | None:
    """The block ``keep`` accepts that ends nearest above ``b`` in its column (overlapping it
    across), or None."""
    above = [
        o
        for o in blocks
        if o is not b and keep(o) and x_overlap(o, b) and o.bbox[3] <= b.bbox[1] + 1
    ]
    return max(above, key=lambda o: o.bbox[3], default=None)


def _follows_text(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """Does ``b`` follow a line of the text right above it, at a line's spacing?

    A parish letter opens its page with a section's heading ("2 Blick auf Gottesdienste")
    and a line under it ("In Anlage 1 findet sich die Terminübersicht"); set off from the
    text below, the second line was taken for a running head though the heading over it was
    not. What follows text at a line's spacing is text.
    """
    return any(
        o is not b
        and roles[o.id] == "body"
        and x_overlap(o, b)
        and o.size >= FOOTNOTE_SIZE_RATIO * body_size
        and 0 <= b.bbox[1] - o.bbox[3] <= 0.5 * body_size
        for o in blocks
    )


def _on_its_line(o: Block, b: Block) -> bool:
    """Is ``o`` one line standing level with the one line ``b``?"""
    return (
        o.lines == 1 and abs((o.bbox[1] + o.bbox[3]) - (b.bbox[1] + b.bbox[3])) / 2 <= 0.5 * b.size
    )


def _page_title(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """Is ``b`` a page's title: set half again the text's size or larger, centred over the
    text (within two text sizes)?

    A school's newsletter sets a page's title ("IT IS NOT THE END, RATHER IT BEGINS HERE",
    21 points over 13-point text) across the top over a photo: apart from the text, it was
    taken for a running head. A newsletter's large running head stands in a corner
    ("NEWSLETTER" flush right, the issue flush left).
    """
    if b.size < TITLE_RATIO * body_size:
        return False
    text = [o for o in blocks if roles[o.id] == "body" and o is not b]
    if not text:
        return False
    middle = (min(o.bbox[0] for o in text) + max(o.bbox[2] for o in text)) / 2
    return abs((b.bbox[0] + b.bbox[2]) / 2 - middle) <= 2 * body_size


# What ends a sentence, or a line that is no sentence's middle.
SENTENCE_ENDS = '.!?:;)]"”’»…'


def _continues_sentence(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """Does ``b`` go on with the sentence of the text right above it in its column?

    An e-mail newsletter printed from a browser wraps a story round an icon: the story's
    last two lines run on under the icon, full width, 12 points under the lines beside it,
    in the foot band: they were taken for a running footer. A footer starts no sentence in
    the middle: a block opening in lower case under a line of the same style that ends
    without a sentence's end is that sentence going on, when it stands nearer to it than a
    note far under its column (:data:`FAR_BELOW`).
    """
    word = b.first_word.rstrip(",;:")
    if len(word) < 2 or not word.isalpha() or not word.islower():
        return False  # a URL, a chart's axis letter: no sentence's words
    nearest = nearest_above(b, blocks, lambda o: roles[o.id] == "body" and o.style == b.style)
    return (
        nearest is not None
        and b.bbox[1] - nearest.bbox[3] < FAR_BELOW * body_size
        and bool(nearest.last_word)
        and not nearest.last_word.endswith(tuple(SENTENCE_ENDS))
    )


# Dashes that open an author's signature ("- ARHAAN ABBAS ABIDI", "— J. Smith").
SIGNATURE_DASHES = ("-", "\u2013", "\u2014")


def _signature(b: Block, body_size: float) -> bool:
    """Is ``b`` an author's signature under the text: one line at about the text's size,
    opening with a dash and ending in a word of letters?

    A school's newsletter signs a story "- ARHAAN ABBAS ABIDI" at the page's foot, under
    the right column: it was taken for a running footer. A footer's dashes frame a page's
    number ("- 3 -"), an issue ("– Issue 12"), or a web address: it ends in no name.
    """
    return (
        b.lines == 1
        and b.first_word.startswith(SIGNATURE_DASHES)
        and b.last_word.rstrip(".").isalpha()
        and b.size >= FOOTNOTE_SIZE_RATIO * body_size
    )


# A section heading at a column's top stands at most this many text sizes over the column's
# first paragraph.
COLUMN_TOP_HEADING_GAP = 2.0


# A section opened at a column's foot: its numbered heading stands at most this many text
# sizes over the text under it.
FOOT_SECTION_GAP = 3.0


def _numbered_line(b: Block) -> bool:
    """One line opening with a section's number and going on ("2.2. Design"): a page's bare
    number is none."""
    titled = b.chars > len(b.first_word) + 1
    return b.lines == 1 and titled and bool(SECTION_NUMBER.fullmatch(b.first_word))


def _numbered_head(b: Block, body_size: float) -> bool:
    """A :func:`_numbered_line` in the text's size (a footer set smaller is none)."""
    return _numbered_line(b) and abs(b.size - body_size) <= 0.1 * body_size


def _section_at_foot(b: Block, blocks: list[Block], body_size: float) -> bool:
    """A section opened at a column's foot, in the footer's band: its numbered heading with
    text under it, or that text (Cognition's "2.2. Design" and its sentence under the left
    column's last paragraph were taken for the page's footer).

    The heading is :func:`_numbered_head` with a block in the text's size under it in its
    column within :data:`FOOT_SECTION_GAP` text sizes; the text is such a block right under
    such a heading.
    """

    def under(head: Block, o: Block) -> bool:
        gap = o.bbox[1] - head.bbox[3]
        level = abs(o.size - body_size) <= 0.1 * body_size
        return (
            o is not head
            and x_overlap(o, head)
            and level
            and -1 <= gap <= FOOT_SECTION_GAP * body_size
        )

    if _numbered_head(b, body_size):
        return any(under(b, o) for o in blocks)
    head = nearest_above(b, blocks, lambda o: True)
    return head is not None and _numbered_head(head, body_size) and under(head, b)


def _heads_its_column(
    b: Block, blocks: list[Block], roles: dict, body_size: float, drawn: Sequence[tuple] = ()
) -> bool:
    """A numbered section heading at the top of a column ("IV. Text Data" under the page's
    number, the left column opening with a figure) is the column's first line, not a head.

    It is one line opening with a section's number, inside the column of the paragraph under
    it, within :data:`COLUMN_TOP_HEADING_GAP` text sizes of it or of a figure (drawn, or a
    float's block) standing between them ("IV. Grover's Algorithm" over a circuit and its
    caption), and nearer to that than to whatever stands above (the page's number or head,
    or the page's edge): a running head's second line follows its first at a line's
    spacing and stands well off the text.
    """
    if not _numbered_line(b):
        return False
    under = [
        o
        for o in blocks
        if o is not b
        and roles[o.id] == "body"
        and o.region != "float"
        and o.bbox[1] >= b.bbox[3] - 1
        and x_overlap(o, b)
    ]
    if not under:
        return False
    first = min(under, key=lambda o: o.bbox[1])
    # A figure may stand between the heading and its paragraph: the heading's gap is to it.
    figures = [
        r[1]
        for r in drawn
        if r[1] >= b.bbox[3] - 1
        and r[3] <= first.bbox[1] + 1
        and r[0] < b.bbox[2]
        and b.bbox[0] < r[2]
    ] + [
        o.bbox[1]
        for o in blocks
        if (roles[o.id] == "float" or o.region == "float")
        and b.bbox[3] - 1 <= o.bbox[1] < first.bbox[1]
        and x_overlap(o, b)
    ]
    below = min([first.bbox[1], *figures]) - b.bbox[3]
    inside = first.bbox[0] - 0.5 * body_size <= b.bbox[0] and b.bbox[2] <= first.bbox[2] + 1
    if not (inside and first.lines >= 2 and below <= COLUMN_TOP_HEADING_GAP * body_size):
        return False
    above = [o.bbox[3] for o in blocks if o is not b and o.bbox[3] <= b.bbox[1] + 1]
    return b.bbox[1] - max(above, default=0.0) > below


def _apart_from_above(b: Block, blocks: list[Block], roles: dict, body_size: float) -> bool:
    """A running footer is set off from the text above it in its column; the last lines of a
    column's paragraph that reach into the foot of the page follow on at a line's spacing.

    A text set with wide spacing (a Word paper's double-spaced Korean, each line a block of
    its own, 9 points apart) leaves that much between its lines: a line that follows the
    column's last lines at their own spacing is the column's next line, however wide. So
    is a line that follows the column's last paragraphs at theirs (a brochure's panel
    ends "Learn more at rladies.org" one bullet's spacing under its last bullet, lower on
    the page than the other panels' text).
    """
    above = sorted(
        (
            o
            for o in blocks
            if o is not b
            and roles[o.id] == "body"
            and o.bbox[1] < b.bbox[1]
            and o.bbox[3] <= b.bbox[1] + 0.5 * body_size  # line boxes set tight may overlap
            and x_overlap(o, b)
            # Small print is no text a footer sits apart from, unless the line is set in
            # its size (a slide's list in 22 points over 30-point text goes on in 22).
            and (o.size >= FOOTNOTE_SIZE_RATIO * body_size or abs(o.size - b.size) <= 0.5)
        ),
        key=lambda o: o.bbox[3],
    )
    if not above:
        return True
    gap = b.bbox[1] - above[-1].bbox[3]
    if gap < 0.5 * body_size:
        return False
    if _paragraph_gap(b, gap, blocks, roles):
        return False
    spacing = [
        lower.bbox[1] - upper.bbox[3] for upper, lower in pairwise(above[-SPACING_LINES - 1 :])
    ]
    same = all(SPACING_SAME * gap <= s <= gap / SPACING_SAME for s in spacing)
    return not (len(spacing) == SPACING_LINES and same)


# The page's paragraphs are set apart by a gap when at least this many pairs of them are.
PARAGRAPH_GAPS = 2


def _paragraph_gap(b: Block, gap: float, blocks: list[Block], roles: dict) -> bool:
    """Does ``b`` stand under the text above it at the gap the page leaves between its
    paragraphs?

    A newsletter sets a blank line between paragraphs: its column's last paragraph, two
    lines at the page's foot ("We are excited about the developments that have taken place
    in WiSE since last semester, and are"), stands as far under the paragraph above as the
    page's other paragraphs do under theirs, and is the column's text, no footer. Counted
    are blocks in ``b``'s style under the nearest block above them, in that style too.
    """
    same = [o for o in blocks if roles[o.id] == "body" and o.style == b.style and o is not b]
    found = 0
    for o in same:
        up = nearest_above(o, same, lambda _u: True)
        if up is None:
            continue
        g = o.bbox[1] - up.bbox[3]
        found += SPACING_SAME * gap <= g <= gap / SPACING_SAME
    return found >= PARAGRAPH_GAPS


# A note at a column's foot stands at least this many text sizes under the column's text,
# with nothing between (a column's last line after a display follows it more closely).
FAR_BELOW = 3.0
# Such a note is a line of prose: a reference's label, a list's number or a table's figures
# left alone at a column's foot are shorter, a listing's line is set in a fixed-pitch font.
NOTE_CHARS = 20


def _far_below_its_column(
    b: Block, blocks: list[Block], roles: dict, body_size: float, drawn: Sequence[tuple]
) -> bool:
    """Does ``b`` stand far under its column's running text, with nothing between?

    JSAI sets the corresponding author's address ("連絡先: 川本一彦, kawa@…") in the text's
    size at the left column's foot, 49 points under the column's last line; the right
    column's text runs on level with it, which makes a column's last line of its foot-band
    lines, and a drag across the column break read the address. A line that far under the
    text above it in its column, no figure or box between, is a note however its neighbour
    runs. A figure drawn with no text in it (a chessboard of rules) stands between too: the
    lines under it go on the column.
    """
    nearest = nearest_above(b, blocks, lambda o: roles[o.id] in ("body", "float", "box"))
    if nearest is None:
        return False
    between = any(
        min(r[2], b.bbox[2]) > max(r[0], b.bbox[0]) and nearest.bbox[3] - 1 <= r[1] < b.bbox[1]
        for r in drawn
    )
    return (
        b.chars >= NOTE_CHARS
        and not b.fixed
        and roles[nearest.id] == "body"
        and not nearest.region
        and not between
        and b.bbox[1] - nearest.bbox[3] >= FAR_BELOW * body_size
    )


def _beside_running_text(
    b: Block, blocks: list[Block], roles: dict, body_size: float, page_height: float
) -> bool:
    """Another column's running text goes on at this height: this is a column's last line.

    A column may end with a display equation and one short line reaching into the foot
    band; while the next column's text, following on from above at a line's spacing, runs
    level with it, it is no footer.
    """
    full = _fills_its_column(b, blocks, roles)
    for o in blocks:
        if o is b or roles[o.id] != "body" or x_overlap(o, b):
            continue
        if o.size < FOOTNOTE_SIZE_RATIO * body_size or o.bbox[3] < b.bbox[1]:
            continue
        level = min(o.bbox[3], b.bbox[3]) - max(o.bbox[1], b.bbox[1]) > 0
        if level and (
            o.bbox[1] < FOOTER_BAND * page_height
            or o.lines > 2
            # Two full lines level at the foot of two columns are the columns' last lines
            # (a Korean paper's text runs to 25 points above the page's edge); a footer is
            # shorter than its column.
            or (full and _fills_its_column(o, blocks, roles))
        ):
            return True
    return False


# A column's line is full when it spans this share of the widest block of its column.
FULL_COLUMN = 0.9


def _fills_its_column(b: Block, blocks: list[Block], roles: dict) -> bool:
    """Is ``b`` as wide as its column (the widest other block of running text that overlaps
    it across, of at least three lines)?"""
    widths = [
        o.bbox[2] - o.bbox[0]
        for o in blocks
        if o is not b and roles[o.id] == "body" and o.lines >= 3 and x_overlap(o, b)
    ]
    return bool(widths) and b.bbox[2] - b.bbox[0] >= FULL_COLUMN * max(widths)
