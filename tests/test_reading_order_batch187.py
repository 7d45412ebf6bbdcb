"""Rules found in the session of batches 187 onwards (the helpers' ro194 and later).

BMC Health Services Research (batch 187) sets "Table 1 Patient-provider relationship during
consultation" over a table ruled only across: a rule over its head row, one under it, and
one under the last of its ten rows, 14 sizes further down; its cells are in 8 points under
10-point text. A table's rules stacked only when each lay at most twelve sizes under the
one above, so the two rules over the body made no table and its cells were read between
the caption and the paragraph under the table. Under a head row (its two rules at most
four sizes apart), the body may run undivided to the foot rule. A pseudocode box drawn the
same way, its title between the first two rules ("Function free(...)"), is a float too.

A college fest's brochure (batch 188) sets its events in three columns, the first flush
left, the second centred and starting lower, the third flush right; the third's first head,
"Code Completion", stands on the page's top line beside the first column's "CRYPTEX" and was
read as title matter, before the centred column. A column's lone first line set larger than
its text and as its heads further down are ("Robotics", "Web designing": the same face and
size, flush right) is that column's head; a journal's smaller label flush over a column
stays title matter.

A conference's tri-fold leaflet (batch 188) heads its first panel "Location Info" over a map
and its tinted middle panel "Cooperating Partners" over logos, the two level: with no
paragraph right under either, they were read as a row of title matter before the first
panel. A row of heads, one of them a box's first line with the box's text going on under
it and another outside any box, is the panels' first lines.

A REVTeX preprint (batch 189) sets a long display equation across both columns between their
upper and lower halves; its pieces left a gap of 10 points where the columns' 18-point
gutter runs, so the page was cut into columns through it and the upper left column was read
on through the display into the lower one. A row between gaps across the page, with pieces
on both sides of the gutter and one reaching into the gutter the columns leave, set between
paragraphs on both sides above and below it, is one line across the columns: the upper
halves are read, then the display, then the lower halves.

A student magazine (batch 190) centres a byline over its four columns in the text's face
("By Zoe Bendoff / October 26, 2020", between two rules): taken with the columns under it,
it closed the gutter between the second and third, the first column (a drop cap at its top,
level with the second's first paragraph) was taken for a margin with a side head, and read
after the next two. One line in the text's face centred over the columns, across a gutter
of theirs, is title matter.

CGO (batch 191) sets an algorithm at the top of a column with no rules: its Input and
Output in the text's face, seventeen lines numbered in 7 points, "Fig. 6: Configuration
search algorithm." under it; its lines in the text's face were read as running text. A run
of line numbers counting up, set small down the left of their lines, under a caption or
over one, is a float with everything beside it and the lines set close above it. Another
CGO paper's listing in Courier, its lines as long as a paragraph's, was taken for running
text inside its own region: a listing in a typewriter face makes no region running text.

A student chapter's newsletter (batch 192) sets a photo in its left column, captioned in a
sans face, over a footer bar across the page on which the right column's photo
stands: the bar joined that photo, their box took in the left column's photo, and the
region, holding paragraphs, was no figure, so the caption was read between the paragraphs
above and under the photo. A bar across the page is no part of a figure.

Molecular & Cellular Proteomics (batch 195) sets its introduction in 9 points and its
experimental procedures in 8, a subsection's head "Proteomics Platforms" centred between two
of their paragraphs in 8.5: measured against the 9-point text only, and its paragraphs' 8
points more than a tenth off it, the head was left out of a drag through it. A paragraph
style within 15 % of the text's size is running text a head over it may take.

A school's prospectus (batch 200) sets its teachers two by two: a photo beside each card, a
name and a role in bold over a short biography, the names of a row level across the
gutter. Read as two columns, the third card came before the second. Rows of level heads,
in a style the text is not set in (bold throughout counts), over a paragraph in every card,
in two rows or more and columns about as wide, are a grid of cards read row by row.

An IEEE-style paper (batch 201) rules its TABLE I under the head row and under the last row
only, the caption over the head row: two rules make no stack, and the cells were read as
running text between the column's foot and the paragraph under the table. Between a
table's caption and the second of two rules, with a paragraph starting right under it, is
the table.

A generated handout (batch 204) sets four cards two by two, numbered down the columns ("1.
Euler's Identity" beside "3. The Fundamental Theorem of Calculus"), a formula under each
head before its paragraph: the first row of heads was peeled as title matter and the cards
read row by row. A row of heads each opening with an item's number is no title matter.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEAD, LEFT, SIZE, WORDS, block, one_page, write_lines

from basehalf_core.documents.reading_order import xy_cut
from basehalf_core.documents.sections import card_rows
from basehalf_core.documents.title_band import lone_column_head

RIGHT = 290  # the left column's right edge
ROWS = (
    ("Privacy given", "99", "1"),
    ("Health conditions told", "88.7", "11.3"),
    ("Treatment implications told", "79.4", "20.6"),
    ("Opportunity to ask questions", "62.8", "37.2"),
    ("Your preferences considered", "91.1", "18.9"),
    ("Told how to take your medication", "95.7", "4.3"),
    ("Treated with respect", "97.9", "2.1"),
    ("Informed on staying healthier", "70.1", "29.9"),
    ("Physical exam performed", "90.6", "9.4"),
    ("Informed to come for check-up", "60.5", "39.4"),
)


def _table_ruled_under_its_head(body_gap: float):
    """BMC's left column: the caption in bold, a rule, the head row, a rule, ten rows in 8
    points, a rule ``body_gap`` points under the middle one, then the column's text; the
    right column's text beside it."""

    def draw(page) -> None:
        page.insert_text(
            (LEFT, 70), "Table 1 Patient-provider relationship", fontsize=9, fontname="hebo"
        )
        page.draw_line((LEFT, 75), (RIGHT, 75), width=0.5)
        for x, cell in ((LEFT, "Item"), (190, "Yes (%)"), (230, "No (%)")):
            page.insert_text((x, 84), cell, fontsize=8, fontname="hebo")
        page.draw_line((LEFT, 88), (RIGHT, 88), width=0.5)
        step = (body_gap - 8) / len(ROWS)
        for k, (item, yes, no) in enumerate(ROWS):
            y = 88 + step * (k + 1)
            page.insert_text((LEFT, y), item, fontsize=8, fontname="hebo")
            page.insert_text((195, y), yes, fontsize=8, fontname="helv")
            page.insert_text((235, y), no, fontsize=8, fontname="helv")
        foot = 88 + body_gap
        page.draw_line((LEFT, foot), (RIGHT, foot), width=0.5)
        page.insert_text((LEFT, foot + 18), "Emerging themes from", fontsize=SIZE, fontname="tiro")
        write_lines(page, LEFT, foot + 18 + LEAD, [7] * 30, WORDS, size=SIZE, lead=LEAD)
        write_lines(page, 316, 70, [7] * 55, WORDS, size=SIZE, lead=LEAD, start=3)

    return draw


def _pseudocode_box(page) -> None:
    """A GPU allocator paper's left column: a paragraph, then a box of pseudocode ruled only
    across, "Function free(SuperBlock, pointer)" between its first two rules and fourteen
    numbered steps down to the third, then the paragraph under it."""
    y = write_lines(page, LEFT, 70, [7] * 12, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "a page are used.", fontsize=SIZE, fontname="tiro")
    top = y + 10
    page.draw_line((LEFT, top), (RIGHT, top), width=0.5)
    page.insert_text(
        (LEFT + 4, top + 10), "Function free(SuperBlock, pointer)", fontsize=SIZE, fontname="tibo"
    )
    page.draw_line((LEFT, top + 14), (RIGHT, top + 14), width=0.5)
    steps = ("p = pointer / pagesize", "page = block + p", "mask = 1 << spot", "count = count - 1")
    for k in range(14):
        page.insert_text(
            (LEFT + 4, top + 26 + LEAD * k),
            f"{k + 1} {steps[k % 4]}",
            fontsize=SIZE,
            fontname="tiro",
        )
    foot = top + 26 + LEAD * 14
    page.draw_line((LEFT, foot), (RIGHT, foot), width=0.5)
    page.insert_text((LEFT, foot + 18), "The provided pseudo code", fontsize=SIZE, fontname="tiro")
    write_lines(page, LEFT, foot + 18 + LEAD, [7] * 12, WORDS, size=SIZE, lead=LEAD)
    write_lines(page, 316, 70, [7] * 55, WORDS, size=SIZE, lead=LEAD, start=3)


def _list_between_rules(page) -> None:
    """A newsletter's column: a paragraph ending "as in this list:", a heading between two
    rules five sizes apart, a list of eight short items, a rule under it, and the text."""
    y = write_lines(page, LEFT, 70, [7] * 6, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "as in this list:", fontsize=SIZE, fontname="tiro")
    top = y + 10
    page.draw_line((LEFT, top), (RIGHT, top), width=0.5)
    page.insert_text((LEFT, top + 28), "What is new", fontsize=SIZE, fontname="tibo")
    page.draw_line((LEFT, top + 50), (RIGHT, top + 50), width=0.5)
    names = ("First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh", "Eighth")
    for k, name in enumerate(names):
        page.insert_text(
            (LEFT, top + 66 + LEAD * k), f"{name} item of the list", fontsize=SIZE, fontname="tiro"
        )
    foot = top + 66 + LEAD * 8 + 60
    page.draw_line((LEFT, foot), (RIGHT, foot), width=0.5)
    page.insert_text((LEFT, foot + 18), "The items.", fontsize=SIZE, fontname="tiro")
    write_lines(page, LEFT, foot + 18 + LEAD, [7] * 12, WORDS, size=SIZE, lead=LEAD)
    write_lines(page, 316, 70, [7] * 55, WORDS, size=SIZE, lead=LEAD, start=3)


def _numbered_algorithm(listing_face: str, listing_size: float, head: bool, numbered=True):
    """A column's top: an algorithm's Input and Output (``head``), seventeen lines in
    ``listing_face`` (``numbered`` in 7 points), its caption, then the column's text; the
    left column's text beside it."""

    def draw(page) -> None:
        y = 60
        if head:
            for line in (
                "Input: two programs and a block size.",
                "Output: the best configuration.",
            ):
                page.insert_text((330, y), line, fontsize=SIZE, fontname="tiro")
                y += LEAD
        steps = (
            "function Main(K1, K2, d) is the search over all of the kernel pairs",
            "t = profile the running time of the fused kernel F",
            "if t is less than the best time found so far then",
            "keep the kernel and its register bound as the best",
        )
        for k in range(17):
            if numbered:
                page.insert_text((312, y + 2), str(k + 1), fontsize=7, fontname="tiro")
            text = steps[k % 4]
            page.insert_text((324, y + 2), text, fontsize=listing_size, fontname=listing_face)
            y += LEAD
        page.insert_text(
            (360, y + 10), "Fig. 6: Configuration search algorithm.", fontsize=SIZE, fontname="tiro"
        )
        page.insert_text((316, y + 36), "of the fusion candidate", fontsize=SIZE, fontname="tiro")
        write_lines(page, 316, y + 36 + LEAD, [7] * 25, WORDS, size=SIZE, lead=LEAD, start=3)
        y = write_lines(page, LEFT, 60, [7] * 55, WORDS, size=SIZE, lead=LEAD)
        page.insert_text((LEFT, y), "the desired block dimension", fontsize=SIZE, fontname="tiro")

    return draw


def _photo_over_a_footer_bar(page) -> None:
    """The newsletter's page: a paragraph, a photo centred in the left column, its caption
    centred under it in a smaller sans face, the next paragraph; a photo in the right
    column, level with the left one, standing on a dark bar across the page's foot."""
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 22), False)
    photo.set_rect(photo.irect, (120, 90, 60))
    y = write_lines(page, LEFT, 80, [13] * 14, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "nor any space to house them.", fontsize=SIZE, fontname="tiro")
    right = max(w[2] for w in page.get_text("words"))
    middle = (LEFT + right) / 2
    page.insert_image(pymupdf.Rect(middle - 100, y + 12, middle + 100, y + 122), pixmap=photo)
    caption = "Photo of the dispensary from the trip"
    width = pymupdf.get_text_length(caption, fontname="helv", fontsize=8.5)
    page.insert_text((middle - width / 2, y + 133), caption, fontsize=8.5, fontname="helv")
    page.insert_text((LEFT, y + 158), "With all these challenges", fontsize=SIZE, fontname="tiro")
    write_lines(page, LEFT, y + 158 + LEAD, [13] * 8, WORDS, size=SIZE, lead=LEAD)
    page.draw_rect(pymupdf.Rect(0, 780, 595, 830), color=None, fill=(0.1, 0.1, 0.15))
    tall = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 48), False)
    tall.set_rect(tall.irect, (200, 120, 90))
    page.insert_image(pymupdf.Rect(right + 20, 300, right + 220, 780), pixmap=tall)
    write_lines(page, right + 26, 80, [3] * 15, WORDS, size=SIZE, lead=LEAD, start=3)


def _methods_in_smaller_print(page) -> None:
    """The journal's page: the left column's introduction in 9 points; the right column's
    introduction's end, then its methods in 8 points, "Proteomics Platforms" centred in 8.5
    between two of their paragraphs."""
    write_lines(page, LEFT, 70, [8] * 58, WORDS, size=9, lead=11)
    y = write_lines(page, 316, 70, [8] * 12, WORDS, size=9, lead=11, start=3)
    y = write_lines(page, 316, y + 20, [9] * 14, WORDS, size=8, lead=10, start=5)
    page.insert_text((316, y), "thawed twice before analysis.", fontsize=8, fontname="tiro")
    head = "Proteomics Platforms"
    width = pymupdf.get_text_length(head, fontname="tiro", fontsize=8.5)
    page.insert_text((390 - width / 2, y + 18), head, fontsize=8.5, fontname="tiro")
    page.insert_text((316, y + 34), "Five different laboratories", fontsize=8, fontname="tiro")
    write_lines(page, 316, y + 44, [9] * 14, WORDS, size=8, lead=10, start=2)


def _table_ruled_twice(page) -> None:
    """The paper's right column: "TABLE I" and its title over a head row, a rule, six rows
    of cells, a rule, then a paragraph; the left column's text beside it."""
    page.insert_text((400, 60), "TABLE I", fontsize=8, fontname="tiro")
    page.insert_text((340, 70), "SPECIFICATIONS OF THE TEST SYSTEMS", fontsize=8, fontname="tiro")
    for x, cell in ((325, "System"), (420, "Cartesius"), (510, "Vilje")):
        page.insert_text((x, 92), cell, fontsize=SIZE, fontname="tiro")
    page.draw_line((317, 96), (561, 96), width=0.5)
    rows = (
        ("CPUs", "Ivy Bridge", "Sandy Bridge"),
        ("Sockets", "2", "2"),
        ("Cores", "12", "8"),
        ("GHz", "2.5", "2.6"),
        ("Network", "InfiniBand", "InfiniBand"),
        ("Topology", "Fat tree", "Hypercube"),
    )
    for k, row in enumerate(rows):
        for x, cell in zip((325, 420, 510), row, strict=True):
            page.insert_text((x, 110 + LEAD * k), cell, fontsize=SIZE, fontname="tiro")
    page.draw_line((317, 110 + LEAD * 6), (561, 110 + LEAD * 6), width=0.5)
    page.insert_text((316, 200), "We performed two experiments", fontsize=SIZE, fontname="tiro")
    write_lines(page, 316, 200 + LEAD, [9] * 40, WORDS, size=SIZE, lead=LEAD, start=3)
    y = write_lines(page, LEFT, 60, [7] * 55, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "the STREAM performance.", fontsize=SIZE, fontname="tiro")


DRAGS = [
    pytest.param(
        _table_ruled_under_its_head(150),
        "Table",
        "themes",
        "Table 1 Patient-provider relationship Emerging themes",
        id="a-tables-body-runs-undivided-to-its-foot-rule",
    ),
    pytest.param(
        _list_between_rules,
        "list:",
        "items.",
        "list: What is new First item of the list Second item of the list Third item of the list"
        " Fourth item of the list Fifth item of the list Sixth item of the list"
        " Seventh item of the list Eighth item of the list The items.",
        id="guard-rules-further-apart-than-a-head-row-make-no-table",
    ),
    pytest.param(
        _photo_over_a_footer_bar,
        "them.",
        "challenges",
        "them. With all these challenges",
        id="a-bar-across-the-page-joins-no-figure",
    ),
    pytest.param(
        _methods_in_smaller_print,
        "analysis.",
        "Five",
        "analysis. Proteomics Platforms Five",
        id="a-head-over-methods-in-smaller-print-is-read",
    ),
    pytest.param(
        _table_ruled_twice,
        "performance.",
        "performed",
        "performance. We performed",
        id="a-table-ruled-under-its-head-row-and-its-last-is-a-float",
    ),
    pytest.param(
        _pseudocode_box,
        "used.",
        "provided",
        "used. The provided",
        id="a-pseudocode-box-ruled-across-is-a-float",
    ),
    pytest.param(
        _numbered_algorithm("tiro", SIZE, head=True),
        "dimension",
        "candidate",
        "dimension of the fusion candidate",
        id="a-numbered-algorithm-over-its-caption-is-a-float",
    ),
    pytest.param(
        _numbered_algorithm("cour", 8, head=False),
        "dimension",
        "candidate",
        "dimension of the fusion candidate",
        id="a-numbered-listing-in-courier-over-its-caption-is-a-float",
    ),
    pytest.param(
        _numbered_algorithm("cour", 8, head=False, numbered=False),
        "dimension",
        "candidate",
        "dimension of the fusion candidate",
        id="a-listing-in-courier-as-long-as-a-paragraph-is-a-float",
    ),
]


@pytest.mark.parametrize(("draw", "first", "last", "expected"), DRAGS)
def test_a_drag_reads_the_passage_a_person_reads(tmp_path, draw, first, last, expected):
    got = drag(one_page(tmp_path, draw), 0, first, last)
    assert got == expected, got


def test_a_lone_head_set_as_its_columns_heads_heads_that_column():
    """The fest's page as the reader groups it (batch 188): the centred column and the flush
    right one under "Code Completion", the only line above the centred column's first."""
    head = block(0, (1064, 5, 1146, 22), "MyriadPro@14.0")
    centre = [
        block(9, (909, 84, 966, 101), "MyriadPro@14.0"),
        block(10, (885, 103, 990, 196), "MyriadPro@9.0", lines=7),
        block(21, (914, 230, 961, 247), "MyriadPro@14.0"),
        block(22, (875, 249, 1000, 342), "MyriadPro@9.0", lines=7),
    ]
    right = [
        block(4, (1013, 23, 1146, 117), "MyriadPro@9.0", lines=7),
        block(14, (1104, 148, 1146, 165), "MyriadPro@14.0"),
        block(16, (1021, 167, 1146, 272), "MyriadPro@9.0", lines=8),
        block(26, (1074, 291, 1146, 308), "MyriadPro@14.0"),
        block(28, (1015, 310, 1146, 403), "MyriadPro@9.0", lines=7),
    ]
    rest = centre + right
    assert lone_column_head([head], rest, 8.4, [head, *rest])
    # Set as no head under it (the events' heads set 30 points in), it heads no column.
    centred = [
        block(b.id, (b.bbox[0] - 30, b.bbox[1], b.bbox[2] - 30, b.bbox[3]), b.style)
        if b.lines == 1
        else b
        for b in right
    ]
    assert not lone_column_head([head], centre + centred, 8.4, [head, *centre, *centred])


def test_a_smaller_label_over_a_column_stays_title_matter():
    """PLOS ONE's "RESEARCH ARTICLE" in 8 points flush left over the main column, a note of
    one line in the same print further down it: a label, not the column's head."""
    label = block(0, (200, 90, 283, 99), "Helvetica@8.0")
    text = [
        block(1, (200, 110, 560, 300), "Helvetica@10.0", lines=16),
        block(2, (200, 310, 340, 319), "Helvetica@8.0"),
        block(3, (200, 330, 560, 700), "Helvetica@10.0", lines=30),
    ]
    sidebar = [block(4, (40, 300, 170, 700), "Helvetica@8.0", lines=40)]
    rest = text + sidebar
    assert not lone_column_head([label], rest, 6.0, [label, *rest])


def test_heads_of_a_panel_and_a_tinted_panel_are_read_with_their_panels():
    """The leaflet's first page as the reader groups it (batch 188): each panel's head, then
    what the panel holds; the tinted panel's blocks lie in its box."""
    sans = "UBScalaSans@10.0"
    blocks = [
        block(0, (23, 32, 88, 44), "UBScalaSans@12.0"),  # Location Info
        block(1, (23, 381, 237, 444), sans, lines=6),  # Means of Transport ...
        block(2, (23, 462, 93, 501), sans, lines=4),  # Contact ...
        block(3, (303, 32, 408, 44), "UBScalaSans@12.0", region="box"),  # Cooperating Partners
        block(4, (303, 185, 350, 198), "UBScalaSans@12.0", region="box"),  # Sponsors
        block(5, (384, 543, 458, 553), "LMMono@10.0", region="box"),  # www.mmb2014.de
        block(6, (610, 472, 798, 497), "UBScalaSans@25.0", region="box"),  # MMB & DFT 2014
    ]
    assert [b.id for b in xy_cut(blocks[::-1], 6.0, sans)] == list(range(7))
    # A table's shaded cells, in bold at the text's size, are no heads: peeled as before.
    bold = "UBScalaSansBold@10.0"
    cells = [block(b.id, b.bbox, bold, b.lines, b.region) if b.id in (0, 3) else b for b in blocks]
    assert [b.id for b in xy_cut(cells[::-1], 6.0, sans)][:2] == [0, 3]


def _widetext_page(author_row: bool = False):
    """The preprint's page as the reader groups it (batch 189): two columns' upper halves,
    the display's pieces (a sum, fractions, its number), the lower halves. ``author_row``:
    the same row as names over two columns' title page (no paragraphs above it)."""
    cmr = "CMR@10.0"
    upper = [block(1, (54, 54, 299, 363), cmr, 26), block(2, (317, 54, 562, 363), cmr, 26)]
    pieces = [
        block(9, (132, 400, 274, 413), cmr),
        block(3, (276, 393, 281, 403), cmr),
        block(6, (283, 396, 288, 419), cmr, 2),
        block(10, (290, 402, 299, 412), cmr),
        block(7, (309, 396, 314, 406), cmr),
        block(8, (326, 396, 425, 413), cmr),
        block(5, (436, 396, 465, 420), "CMMI@10.0", 2),
        block(11, (549, 402, 562, 412), cmr),
    ]
    lower = [block(15, (54, 457, 299, 527), cmr, 7), block(16, (317, 457, 565, 648), cmr, 17)]
    return (pieces + lower) if author_row else (upper + pieces + lower)


def test_a_display_across_both_columns_parts_their_halves():
    order = [b.id for b in xy_cut(_widetext_page()[::-1], 6.0, "CMR@10.0")]
    assert order[:2] == [1, 2] and order[-2:] == [15, 16], order
    # Over the columns, with no halves above it, the row is read as before: the cut through
    # its gap reads the left side's pieces with the left column.
    order = [b.id for b in xy_cut(_widetext_page(author_row=True)[::-1], 6.0, "CMR@10.0")]
    assert order.index(15) < order.index(7), order


def _magazine_page() -> list:
    """The magazine's first page as the reader groups it (batch 190): headline, deck,
    byline, the drop cap and four columns of two paragraphs each."""
    minion = "MinionPro@12.0"
    page = [
        block(1, (22.8, 205.9, 589.2, 301.1), "SinhalaSangamMN@44.5", 2),
        block(2, (57.8, 304.9, 557.4, 320.5), "SinhalaSangamMN@13.5"),
        block(3, (220.0, 325.4, 386.4, 341.6), minion),
        block(4, (35.0, 346.9, 56.1, 393.0), "MinionPro@34.0"),
        block(5, (36.0, 354.5, 161.6, 529.0), minion, 12),
        block(11, (36.0, 541.7, 158.5, 730.6), minion, 13),
        block(6, (174.0, 354.5, 299.7, 471.4), minion, 8),
        block(9, (174.0, 484.1, 296.7, 759.4), minion, 19),
        block(7, (312.0, 354.5, 435.8, 500.2), minion, 10),
        block(10, (312.0, 512.9, 436.0, 716.2), minion, 14),
        block(8, (450.0, 354.5, 572.9, 557.8), minion, 14),
        block(12, (450.0, 570.5, 567.0, 745.0), minion, 12),
    ]
    for b in page:
        b.first_word = "T" if b.id == 4 else "the"
    page[3].chars = 1
    return page


def test_a_byline_centred_over_the_columns_is_title_matter():
    order = [b.id for b in xy_cut(_magazine_page()[::-1], 7.2, "MinionPro@12.0")]
    columns = [order.index(k) for k in (5, 11, 6, 9, 7, 10, 8, 12)]
    assert order[:3] == [1, 2, 3] and columns == sorted(columns), order


def _cards(widths=(129, 128)) -> list:
    """The prospectus's page of teachers as the reader groups it (batch 200): in each card a
    name and a role in bold, one line each, over a biography of six lines; two cards a row,
    two rows. ``widths``: the two columns' widths."""
    sans = "DejaVuSans@6.0"
    out = []
    for row, top in enumerate((96, 182)):
        for col, (x, width) in enumerate(zip((97, 307), widths, strict=True)):
            first = 2 + 6 * row + col
            name = block(first, (x, top, x + 60, top + 10), sans)
            role = block(first + 2, (x, top + 12, x + 40, top + 19), sans)
            bio = block(first + 4, (x, top + 23, x + width, top + 67), sans, lines=6)
            name.emphasis = role.emphasis = True
            out += [name, role, bio]
    return out


def test_a_grid_of_cards_is_read_row_by_row():
    order = [b.id for b in xy_cut(_cards()[::-1], 3.6, "DejaVuSans@6.0")]
    assert order == [2, 4, 6, 3, 5, 7, 8, 10, 12, 9, 11, 13], order
    # A contents' titles beside their narrow column of page numbers are no cards.
    assert card_rows(_cards(widths=(129, 30)), 3.6, "DejaVuSans@6.0") is None
    # A paper's numbered section heads level across its columns (2.2 beside 2.4) are none.
    numbered = _cards()
    for b in numbered:
        if b.id in (2, 3, 8, 9):
            b.first_word = {2: "2.2", 3: "2.4", 8: "2.3", 9: "3."}[b.id]
        else:
            b.emphasis = False  # a paper's text under its bold heads
    assert card_rows(numbered, 3.6, "DejaVuSans@6.0") is None
    # The columns of text under a grid (of authors) are read after it, not in its last row.
    text = [
        block(20, (97, 300, 226, 700), "DejaVuSans@6.0", lines=40),
        block(21, (307, 300, 436, 700), "DejaVuSans@6.0", lines=40),
    ]
    order = [b.id for b in xy_cut([*_cards(), *text][::-1], 3.6, "DejaVuSans@6.0")]
    assert order[-2:] == [20, 21], order


def test_numbered_heads_level_across_the_columns_are_no_title_matter():
    """The handout's page as the reader groups it (batch 204): title and subtitle, then
    four cards numbered down the columns, each a head, a formula and a paragraph."""
    tahoma, head, math = "Tahoma@11.0", "Tahoma@13.0", "KaTeX_Main@14.5"
    blocks = [
        block(0, (137, 41, 655, 67), "Tahoma@21.5"),
        block(1, (195, 78, 597, 92), "Tahoma@12.0"),
        block(2, (74, 135, 192, 151), head),
        block(3, (229, 176, 263, 193), math),
        block(4, (74, 215, 382, 252), tahoma, lines=3),
        block(5, (74, 307, 237, 323), head),
        block(6, (238, 347, 250, 364), math),
        block(7, (74, 386, 382, 423), tahoma, lines=3),
        block(8, (409, 135, 679, 151), head),
        block(9, (503, 186, 565, 203), math),
        block(10, (409, 233, 718, 270), tahoma, lines=3),
        block(11, (409, 307, 560, 323), head),
        block(12, (529, 350, 578, 368), math),
        block(13, (409, 510, 716, 559), tahoma, lines=4),
    ]
    for b, word in zip(blocks[2::3], ("1.", "2.", "3.", "4."), strict=True):
        b.first_word = word
    order = [b.id for b in xy_cut(blocks[::-1], 6.6, tahoma)]
    assert order == list(range(14)), order
