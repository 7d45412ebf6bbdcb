"""Rules found in the session of batches 335 onwards (the helpers' ro342 and later).

A seminar's programme (batch 333) sets each paper in three faces: the speaker in bold, the
title in the text's face, "followed by discussion" in italics; "Coffee break" and a panel's
head a little larger; and the hours in a column of their own left of the entries. A drag
from one title to the next kept the titles alone, as if the lines between were a caption or
a table between two columns of running text. Short lines in about the text's size, flush
with the text's left edge and stacked at a list's spacing between two kept lines, are read,
with the hour set level with an entry's first line.

A recycling guide made as slides (batch 337) frames three boxes side by side, each headed
in 14 points at the slide's very top: standing apart from the items under them in the
header band, the heads were taken for running heads and left out of a drag from one box
into the next. A line drawn round in one frame with the text under it heads that box.

An AI report (batch 342) sets a band of 8-point notes across the page's top, the most text
on the page, so the columns' 10-point text was not the page's text style; under it the left
column's head "Overview" stands level with the right column's first lines, the end of a
sentence carried over. The two made a band with no block in the text style, read as title
matter before the left column. A band block that opens in lower case, in the style of a
paragraph under it in its column, is running text.

An Elsevier paper (batch 340) sets its article info (history, codes, keywords) in a
narrow column beside the abstract, smaller: the keywords went on under the abstract's last
line, past a gap of two points between it and the copyright line, and were read after the
abstract, inside a drag from the abstract into the introduction. A column of paragraphs set
alike that goes on under a gap at its own spacing runs through the gap.

A router's manual (batch 346) sets its steps' letters in bold before the text; a washing
machine's guide heads each row of a picture and its text with a bold line at the picture's
left; an IEEE paper opens its right column with "IV. Grover's Algorithm" over a figure.

A disaster-planning handbook (batch 350) hangs its list's bullets 2.3 of the text's sizes
left of the items: beyond the two sizes a bullet was looked for in, the bullets made a
column of their own, read before the items. A bullet opens a line up to three sizes on.
"""

from __future__ import annotations

from dataclasses import replace

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEFT, WORDS, block, one_page, write_lines

from basehalf_core.documents.pages import Word
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.selection import keep_running_text, list_lines
from basehalf_core.documents.text_blocks import gaps
from basehalf_core.documents.title_band import title_band

# The seminar's page as the layout gives it (batch 333): text, size, box, face, one block a
# line, in reading order; the hours stand left of their rows.
PROGRAMME = [
    ("In their own hands: reconstructing difference", 12, (135, 500, 347, 513), "Serif"),
    ("craftspeople", 12, (135, 516, 192, 528), "Serif"),
    ("followed by discussion", 11, (135, 536, 220, 548), "Italic"),
    ("11:30", 11.5, (57, 563, 77, 575), "Numerals"),
    ("Coffee break", 13, (135, 564, 200, 577), "Display"),
    ("11:45", 11.5, (57, 593, 77, 605), "Numerals"),
    ("Panel 2 · Empire, Race and Collecting", 13, (135, 593, 326, 606), "Display"),
    ("Professor Caroline Bressey (University College London)", 12, (135, 618, 397, 630), "Bold"),
    ("Hostile environments: Victorian prison archives", 12, (135, 633, 360, 645), "Serif"),
]


def _programme() -> list[Word]:
    words = []
    for n, (text, size, (x0, y0, x1, y1), face) in enumerate(PROGRAMME):
        pieces = text.split()
        step = (x1 - x0) / len(pieces)
        for k, piece in enumerate(pieces):
            rect = (x0 + k * step, y0, x0 + (k + 1) * step - 3, y1)
            words.append(Word(len(words), piece, rect, rect, n, 0, style=f"{face}@{size}"))
    # The title's two lines are one block.
    return [replace(w, block=0, line=1) if w.text == "craftspeople" else w for w in words]


def test_programme_reads_its_entries_hours_and_heads():
    words = _programme()
    kept = keep_running_text(words, [w.index for w in words])
    assert " ".join(words[k].text for k in kept) == " ".join(text for text, *_ in PROGRAMME)


def test_without_the_list_a_drag_keeps_the_titles_alone():
    """The same lines spaced as a table's rows (two sizes apart) are not a list."""
    words = [
        replace(w, rect=(w.rect[0], w.rect[1] + 12 * w.block, w.rect[2], w.rect[3] + 12 * w.block))
        for w in _programme()
    ]
    kept = keep_running_text(words, [w.index for w in words])
    assert {words[k].style for k in kept} == {"Serif@12"}


def _line(block: int, line: int, x: float, y: float, texts: str, style: str) -> list[Word]:
    """A printed line's words, 6 points a letter, 12 points tall, from ``x`` at top ``y``."""
    out = []
    for text in texts.split():
        out.append(
            Word(0, text, (x, y, x + 6 * len(text), y + 12), (0, 0, 0, 0), block, line, style=style)
        )
        x += 6 * len(text) + 3
    return out


def _indexed(lines: list[list[Word]]) -> list[Word]:
    words = [w for line in lines for w in line]
    return [replace(w, index=k) for k, w in enumerate(words)]


@pytest.mark.parametrize(
    ("label_line", "read"),
    [(0, True), (1, False)],
    ids=["hour-beside-entry", "number-beside-paragraph-line"],
)
def test_a_label_is_read_beside_an_entrys_first_line_only(label_line, read):
    """A one-line label in another face, read right before the line it stands level with: an
    hour beside an entry's first line is read, one beside a paragraph's second line is not
    (a note's mark, a margin's date)."""
    text, bold, small = "Times@10.0", "Times-Bold@10.0", "Helvetica@9.5"
    label = _line(2, 0, 100, 128 + 14 * label_line, "11:30", small)
    lines = [
        _line(0, 0, 135, 100, "the wave moves to the right", text),
        _line(1, 0, 135, 114, "followed by discussion", bold),
        _line(3, 0, 135, 128, "the scheme keeps the sum", text),
        _line(3, 1, 135, 142, "of squares over the run", text),
        _line(4, 0, 135, 156, "and its energy stays", text),
    ]
    lines.insert(2 + label_line, label)
    words = _indexed(lines)
    kept = {w.index for w in words if w.style == text}
    added = list_lines(words, [w.index for w in words], kept, 10.0)
    assert any(words[k].text == "11:30" for k in added) is read


def _three_boxes(page) -> None:
    """A slide of three framed boxes, each headed at the slide's top in 14 points over
    items in 10.5 (a recycling guide's "Kitchen items", "Kitchen items (contd.)", "Sports /
    Outdoors")."""
    heads = ["Kitchen items", "Kitchen items (contd.)", "Sports / Outdoors"]
    for n, head in enumerate(heads):
        x = 13 + 320 * n
        page.draw_rect(
            pymupdf.Rect(x, 5, x + 300, 500), color=(0, 0, 0), fill=(0.98, 0.9, 0.84), width=2
        )
        page.insert_text((x + 8, 25), head, fontsize=14, fontname="hebo")
        write_lines(page, x + 8, 56, [7] * 30, WORDS, size=10.5, lead=13, start=5 * n)
        page.insert_text((x + 8, 56 + 13 * 30), f"box {n} ends here.", fontsize=10.5)


def test_a_boxs_head_at_the_slides_top_is_no_running_head(tmp_path):
    doc = one_page(tmp_path, _three_boxes, size=(960, 540))
    quote = drag(doc, 0, "ends", "Sports")
    assert quote.startswith("ends here.") and quote.endswith("Sports"), quote


def _report_page(page) -> None:
    """An annual report's page: a band of notes in 8 points across the page (the most text
    on it), then two columns in 10 under a left head "Overview" in 18 points set level with
    the right column's first lines, a sentence carried over from the left column."""
    write_lines(page, LEFT, 80, [18] * 12, WORDS, size=8, lead=10)
    page.insert_text((LEFT, 262), "Overview", fontsize=18, fontname="helv")
    page.insert_text(
        (315, 262), "patents and the papers of each region for", fontsize=10, fontname="tiro"
    )
    page.insert_text((315, 275), "the years of the report.", fontsize=10, fontname="tiro")
    write_lines(page, LEFT, 290, [7] * 5 + [4], WORDS, size=10, lead=13, start=2)
    page.insert_text(
        (LEFT, 290 + 13 * 6), "The section also breaks down", fontsize=10, fontname="tiro"
    )
    page.insert_text((315, 300), "Total Number of Publications", fontsize=11, fontname="hebo")
    write_lines(page, 315, 318, [7] * 4, WORDS, size=10, lead=13, start=4)
    page.insert_text((LEFT, 420), "Number of Publications in the World, 2010-21", fontsize=10)


def test_a_columns_text_level_with_a_head_is_no_title_band(tmp_path):
    doc = one_page(tmp_path, _report_page)
    quote = drag(doc, 0, "breaks", "years")
    assert quote == "breaks down patents and the papers of each region for the years", quote


# The Elsevier page's blocks under its title (batch 340): id, box, style, lines.
ARTICLE_INFO = [
    ("info-head", (43, 294, 101, 303), "Gulliver@9.0", 1),
    ("abstract-head", (208, 294, 279, 303), "Gulliver@9.0", 1),
    ("history", (43, 315, 168, 356), "Gulliver@6.5", 5),
    ("codes", (43, 369, 91, 410), "Gulliver@6.5", 5),
    ("abstract", (208, 314, 563, 418), "Gulliver@7.0", 11),
    ("keywords", (43, 423, 106, 463), "Gulliver@6.5", 5),
    ("copyright", (432, 420, 563, 428), "Gulliver@7.0", 1),
    ("intro-head", (43, 497, 103, 505), "Gulliver@8.0", 1),
    ("left", (43, 517, 294, 662), "Gulliver@8.0", 14),
    ("right", (312, 497, 563, 662), "Gulliver@8.0", 16),
]


@pytest.mark.parametrize(
    ("keywords_top", "read_before_abstract"),
    [(423, True), (470, False)],
    ids=["at-the-columns-spacing", "set-apart"],
)
def test_article_info_going_on_beside_the_abstract_is_read_before_it(
    keywords_top, read_before_abstract
):
    """The keywords go on under the abstract's last line, 13 points under the codes as
    the codes stand under the history: the info column is read whole before the abstract.
    Set further off, the keywords are a band of their own under the abstract."""
    blocks = []
    for n, (name, bbox, style, lines) in enumerate(ARTICLE_INFO):
        if name == "keywords":
            bbox = (bbox[0], keywords_top, bbox[2], keywords_top + 40)
        blocks.append(replace(block(n, bbox, style, lines), id=name))
    order = [b for b, _role in order_blocks(blocks, 794.0)]
    assert (order.index("keywords") < order.index("abstract")) is read_before_abstract, order


@pytest.mark.parametrize(
    ("mark", "read"),
    [("d.", True), ("(b)", True), ("iv)", True), ("12", False)],
    ids=["letter", "bracketed", "roman", "line-number"],
)
def test_a_list_items_mark_in_a_font_of_its_own_is_read(mark, read):
    """A router's manual (batch 346) sets its steps' letters in bold ("d.") before the
    step's text: a drag from step c into step d left the letter out. A line's number
    beside a paragraph carries no point or bracket."""
    text = "Times@11.0"
    words = _indexed(
        [
            _line(0, 0, 90, 100, "Locate the cable that connects the modem.", text),
            _line(1, 0, 72, 130, mark, "Times-Bold@11.0"),
            _line(2, 0, 90, 130, "Disconnect the cable at the computer end", text),
            _line(2, 1, 90, 144, "only and leave it plugged into the modem", text),
            _line(2, 2, 90, 158, "while the router starts up again.", text),
        ]
    )
    kept = keep_running_text(words, [w.index for w in words])
    assert any(words[k].text == mark for k in kept) is read


@pytest.mark.parametrize(
    ("emphasis", "order"),
    [
        (True, ["intro", "head1", "text1", "head2", "text2"]),
        (False, ["intro", "head1", "head2", "text1", "text2"]),
    ],
    ids=["bold-heads", "plain-lines"],
)
def test_heads_left_of_pictures_are_read_between_their_rows(emphasis, order):
    """A washing machine's guide (batch 346) heads each row, a control panel's picture and
    the text right of it, with a bold line at the picture's left over it ("Enabling Remote
    mode"): the heads made a column of their own, read before the text. Lines in the text's
    size and face are a column all the same."""
    spec = [
        ("intro", (26, 161, 390, 206), 4, False),
        ("head1", (26, 217, 159, 227), 1, emphasis),
        ("text1", (211, 252, 383, 327), 7, False),
        ("head2", (26, 351, 124, 362), 1, emphasis),
        ("text2", (211, 385, 390, 463), 7, False),
    ]
    blocks = [
        replace(block(n, bbox, "Gotham@8.0", lines), id=name, emphasis=bold)
        for n, (name, bbox, lines, bold) in enumerate(spec)
    ]
    assert [b for b, _role in order_blocks(blocks, 595.0)] == order


# A German seminar paper's first page under its title (batch 347): id, box, style, lines,
# region, first line's box.
AUTHORS_OVER_FIGURE = [
    ("name1", (115, 122, 155, 133), "Nimbus@10.0", 1, "", (115, 122, 155, 133)),
    ("name2", (262, 122, 350, 133), "Nimbus@10.0", 1, "", (262, 122, 350, 133)),
    ("name3", (437, 122, 516, 133), "Nimbus@10.0", 1, "", (437, 122, 516, 133)),
    ("aff1", (51, 135, 216, 182), "Nimbus@10.0", 4, "", (68, 135, 199, 145)),
    ("aff2", (221, 135, 387, 182), "Nimbus@10.0", 4, "", (239, 135, 370, 145)),
    ("aff3", (392, 135, 558, 195), "Nimbus@10.0", 5, "", (410, 135, 540, 145)),
    ("mail1", (85, 185, 186, 195), "Nimbus@10.0", 1, "", (85, 185, 186, 195)),
    ("mail2", (232, 185, 380, 195), "Nimbus@10.0", 1, "", (232, 185, 380, 195)),
    ("abstract", (49, 231, 300, 320), "Nimbus@9.0", 9, "", (59, 231, 300, 240)),
    ("client", (363, 240, 382, 248), "Calibri@8.5", 1, "float", (363, 240, 382, 248)),
    ("server", (493, 240, 515, 248), "Calibri@8.5", 1, "float", (493, 240, 515, 248)),
    ("label1", (386, 261, 397, 270), "Calibri@4.0", 2, "float", (386, 261, 397, 265)),
    ("label2", (331, 314, 340, 323), "Calibri@4.0", 2, "float", (331, 314, 340, 318)),
    ("intro", (49, 331, 300, 645), "Nimbus@10.0", 26, "", (59, 331, 300, 341)),
    ("right", (312, 462, 563, 719), "Nimbus@10.0", 20, "", (322, 462, 563, 472)),
]


def test_the_authors_band_ends_over_a_bold_abstract():
    """Three authors side by side over the abstract (nine lines in 9-point bold) and a
    figure in the right column: rows set otherwise were taken into the authors' band down
    to the figure's foot, and the gap between the second and third authors, open down
    through the figure, cut the third author off, read after the figure. A paragraph longer
    than an author's block ends the band."""
    blocks = [
        replace(block(n, bbox, style, lines, region), id=name, first_line=first)
        for n, (name, bbox, style, lines, region, first) in enumerate(AUTHORS_OVER_FIGURE)
    ]
    rows = gaps([(b.bbox[1] + 0.5, b.bbox[3] - 0.5) for b in blocks], 0.0)
    band = {b.id for b in title_band(blocks, rows, "Nimbus@10.0", blocks)}
    assert band == {"name1", "name2", "name3", "aff1", "aff2", "aff3", "mail1", "mail2"}, band


def _bullets_hung_wide(page) -> None:
    """A handbook's list (batch 350): "•" in the text's face hung 2.3 sizes left of its
    items, one a line, under a lead-in and over a head."""
    page.insert_text((113, 235), "What is the availability and capacity of:", fontsize=10)
    items = ["resources and equipment?", "transport options?", "suitable accommodation?"]
    for n, item in enumerate(items):
        page.insert_text((113, 259 + 14 * n), "•", fontsize=10)
        page.insert_text((142, 259 + 14 * n), item, fontsize=10)
    page.insert_text((113, 320), "Documentation and communication", fontsize=12, fontname="hebo")


def test_bullets_hung_two_sizes_and_more_open_their_items(tmp_path):
    doc = one_page(tmp_path, _bullets_hung_wide)
    quote = drag(doc, 0, "capacity", "Documentation")
    mark = next(w.text for w in doc.words(0) if w.rect[0] < 120 and w.rect[1] > 245)
    assert quote == (
        f"capacity of: {mark} resources and equipment? {mark} transport options? {mark} "
        "suitable accommodation? Documentation"
    ), quote


# A seminar's tri-fold inside (batch 353): each panel's head level with the others', each
# panel's text in a size of its own.
TRIFOLD = [
    ("head1", (22, 37, 247, 70), "Arial@23.0", 1),
    ("text1", (17, 75, 265, 357), "ArialMT@10.0", 25),
    ("head2", (292, 38, 487, 71), "Arial@23.0", 1),
    ("text2", (291, 80, 540, 256), "ArialMT@12.5", 10),
    ("head3", (580, 40, 835, 73), "Arial@23.0", 1),
    ("text3", (566, 80, 839, 288), "ArialMT@11.5", 13),
]


def test_a_trifolds_panel_heads_are_read_with_their_panels():
    """The heads stood over paragraphs not in the page's text style (the first panel's
    10 points; the others set theirs in 12.5 and 11.5) and were read as a row before the
    panels. A paragraph of six lines or more is text in a size of its own."""
    blocks = [
        replace(block(n, bbox, style, lines), id=name)
        for n, (name, bbox, style, lines) in enumerate(TRIFOLD)
    ]
    order = [b for b, _role in order_blocks(blocks, 595.0)]
    assert order == [name for name, *_ in TRIFOLD], order


def test_an_exercise_boxs_head_is_left_out_with_its_box():
    """A textbook (batch 358) sets an exercise box across its column between two
    paragraphs, headed "LET'S WORK THESE OUT" in 14 points over questions in 9.5, then a
    banner head "MODERN FORMS OF MONEY" over the next paragraph: a drag from one paragraph
    into the next left the questions out but read the box's head."""
    text = "Bookman@10.5"
    lines = [
        _line(0, 0, 82, 100, "it is called a medium of exchange.", text),
        _line(1, 0, 97, 130, "LET'S WORK THESE OUT", "Helvetica@14.0"),
        _line(2, 0, 91, 150, "1. How does the use of money help?", "Helvetica@9.5"),
        _line(2, 1, 91, 162, "2. Can you think of some examples?", "Helvetica@9.5"),
        _line(3, 0, 82, 190, "MODERN FORMS OF MONEY", "Display@14.0"),
        _line(4, 0, 82, 212, "We have seen that money is something", text),
    ]
    words = _indexed(lines)
    words = [replace(w, role="box") if w.block in (1, 2, 3) else w for w in words]
    kept = keep_running_text(words, [w.index for w in words])
    assert " ".join(words[k].text for k in kept) == (
        "it is called a medium of exchange. MODERN FORMS OF MONEY We have seen that money is "
        "something"
    )
