"""Rules found in the session of batches 207 onwards (the helpers' ro214 and later).

A slide sets three tinted boxes in a row under its title, each a head over a paragraph, and
nothing else: every line of running text is inside a box, so the only block outside the
boxes, the title, gave the page its text style. Measured against the title's size, the heads
were no heads over columns, and the boxes' row of heads was read across before their
paragraphs. Where the boxes hold more of the page's text than the rest, the text style is
taken from them too.

A park-care group's newsletter (batch 208) signs an article "Jenny Horsfield" in an italic
sans, flush right under its last line, in the text's size; the text is set in a serif.
Set unlike the drag's two ends, the name was left out of a drag into the next article as if
it were a caption. A short line flush right under the paragraph before it, in the text's
size, is read with it.

SOSP (batch 207) sets "Figure 1. Left: Memory layout when serving an" in its own line's
faces, the caption's seven more lines ("13B parameters on NVIDIA A100. ...") under it as a
block of their own: a caption's next lines were taken only up to six and only when they
opened in lower case, so the rest of the caption was read as running text at the top of
the right column. They may run to ten lines and open with a number.

A poster (batch 210) centres its box's "Results" on a band over text in the box's left half,
plots in its right half: with nothing under it on its side, the head made a column of its
own and was read after the text. A single line set larger than the text, level with no
block of the other side of the cut, under a paragraph spanning both, is read between what
lies above it and what lies under it. Its "Introduction", on a band as wide as its box,
ended where the box's widest line does, six thousandths of a point past it: the head was
taken to reach into the gutter, a headline, and the row of heads was read before the boxes.

A charity's guide (batch 210) prints two pages on a sheet, each opening with its title set
large in white on a green band bled off the sheet's edge ("Which therapies are effective to
improve arm and hand function?", three lines): three lines on a band twice as wide as tall,
the right one was taken for a boxed sidebar a drag leaves out. A title at twice the text's
size or more takes three lines on a band half as wide as a heading's, the band measured as
far as it shows on the sheet.

The poster's boxes set subheads ("Incorporating into MESA") half a point over their 6.5-point
text, in bold: the rule that reads a heading set about the text's size between two
paragraphs looked only outside boxes, and a drag through the box left the subhead out. A
box's own heads are read with its text; a figure's are not.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEAD, LEFT, SIZE, WORDS, block, justify, one_page, write_lines

from basehalf_core.documents.document import open_document
from basehalf_core.documents.grouping import Group
from basehalf_core.documents.raw_text import _Segment, _Unit
from basehalf_core.documents.runaround import merge_runaround, runaround_pairs, wrapped_with
from basehalf_core.documents.text_blocks import Block
from basehalf_core.documents.title_band import heads_over_columns

SLIDE_TOP, SLIDE_FOOT = 300, 520


def _boxes_under_a_title(count: int, tinted: bool = True):
    """A slide: its title, then ``count`` boxes in a row, each a head over eight lines whose
    words name their box ("b0w12": the first box's thirteenth word)."""

    def draw(page) -> None:
        page.insert_text((40, 200), "The Title of the Slide", fontsize=24, fontname="hebo")
        gap = 20
        width = (595 - 2 * 40 - gap * (count - 1)) / count
        for i in range(count):
            x = 40 + i * (width + gap)
            if tinted:
                box = pymupdf.Rect(x, SLIDE_TOP, x + width, SLIDE_FOOT)
                page.draw_rect(box, fill=(0.9, 0.93, 1), color=None)
            page.insert_text((x + 8, 325), f"Part {i}", fontsize=13, fontname="hebo")
            words = [f"b{i}w{k}" for k in range(24)]
            write_lines(page, x + 8, 345, [3] * 8, words, size=9, lead=11)

    return draw


ACROSS = "b0w22 b0w23 Part 1 b1w0 b1w1"


@pytest.mark.parametrize(
    ("count", "tinted"),
    [(3, True), (2, True), (3, False), (4, True)],
    ids=["three-tinted", "two-tinted", "three-plain", "four-tinted"],
)
def test_a_drag_from_one_box_into_the_next_takes_the_next_boxs_head(tmp_path, count, tinted):
    got = drag(one_page(tmp_path, _boxes_under_a_title(count, tinted)), 0, "b0w22", "b1w1")
    assert got == ACROSS, got


def _signed_article(past: float):
    """A column set ragged right: a paragraph, the article's last paragraph of short lines,
    its writer's name in an italic sans under it, ending ``past`` points right of the
    column's edge, the next article's head and text."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 80, [8] * 6, WORDS, size=SIZE, lead=LEAD)
        lines = [" ".join(WORDS[(8 * k + j) % len(WORDS)] for j in range(8)) for k in range(6)]
        right = LEFT + max(
            pymupdf.get_text_length(t, fontsize=SIZE, fontname="tiro") for t in lines
        )
        y = write_lines(page, LEFT, y + LEAD, [5, 5], WORDS, size=SIZE, lead=LEAD)
        y = write_lines(page, LEFT, y, [3], ["the", "last", "line."], size=SIZE, lead=LEAD)
        name = "Jenny Horsfield"
        width = pymupdf.get_text_length(name, fontsize=SIZE, fontname="heit")
        y += 4
        page.insert_text((right + past - width, y), name, fontsize=SIZE, fontname="heit")
        page.insert_text((LEFT, y + 24), "Ridge on TV", fontsize=13, fontname="heit")
        write_lines(page, LEFT, y + 42, [8] * 4, ["On", *WORDS], size=SIZE, lead=LEAD)

    return draw


@pytest.mark.parametrize(
    ("past", "expected"),
    [
        (0, "last line. Jenny Horsfield Ridge on TV On the"),
        # Out past the column's edge, it is a note in the margin.
        (40, "last line. Ridge on TV On the"),
    ],
    ids=["flush-right", "past-the-column"],
)
def test_a_name_flush_right_under_an_article_is_read_with_it(tmp_path, past, expected):
    got = drag(one_page(tmp_path, _signed_article(past)), 0, "last", "the")
    assert got == expected, got


def _caption_over_seven_lines(tail: list[str]):
    """The right column: a figure, "Figure 1. Left: memory layout when serving an" in
    10-point bold, ``tail`` (the caption's next lines) in 9-point roman, then the column's
    text opening "cost"; the left column's text, its last line "the column ends."."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 80, [7] * 50, WORDS, size=9, lead=11)
        page.insert_text((LEFT, y), "the column ends.", fontsize=9, fontname="tiro")
        page.draw_rect(pymupdf.Rect(316, 70, 540, 200), color=(0, 0, 0), fill=(0.8, 0.8, 0.8))
        page.insert_text(
            (316, 215),
            "Figure 1. Left: memory layout when serving an",
            fontsize=10,
            fontname="tibo",
        )
        for k, line in enumerate(tail):
            page.insert_text((316, 226 + 11 * k), line, fontsize=9, fontname="tiro")
        write_lines(
            page, 316, 226 + 11 * len(tail) + 14, [7] * 30, ["cost", *WORDS], size=9, lead=11
        )

    return draw


TAIL = [
    "13B parameters on NVIDIA A100. The parameters",
    "persist in GPU memory throughout serving. The",
    "memory for the KV cache is allocated per serving",
    "request. A small amount of memory is used for",
    "activation. Right: vLLM smooths out the rapid",
    "growth curve of KV cache memory seen in existing",
    "systems, leading to a notable boost in throughput.",
]


@pytest.mark.parametrize("tail", [TAIL, TAIL[:3]], ids=["seven-lines", "three-lines"])
def test_a_caption_s_lines_under_its_first_open_with_a_number(tmp_path, tail):
    got = drag(one_page(tmp_path, _caption_over_seven_lines(tail)), 0, "ends.", "cost")
    assert got == "ends. cost", got


def _results_head_beside_plots(page) -> None:
    """A poster's box: a paragraph across it, a paragraph in its left half, "Results"
    centred in its right half over nothing (plots are drawn there), then text in the left
    half under the head's line."""
    write_lines(page, LEFT, 80, [24] * 4, WORDS, size=SIZE, lead=LEAD)
    write_lines(page, LEFT, 140, [6] * 5, ["above", *WORDS], size=SIZE, lead=LEAD)
    page.insert_text((400, 212), "Results", fontsize=14, fontname="hebo")
    write_lines(page, LEFT, 232, [6] * 8, ["below", *WORDS], size=SIZE, lead=LEAD)


def test_a_head_with_nothing_under_it_is_read_between_the_rows_beside_it(tmp_path):
    doc = one_page(tmp_path, _results_head_beside_plots)
    words = [w.text for w in doc.words(0)]
    assert words.index("Results") == words.index("below") - 1, words


def test_a_head_on_a_band_as_wide_as_its_box_heads_its_column():
    """The poster's top row as the reader groups it (batch 210): "Introduction" widened to
    its band, "Methods" and "Analysis" in their boxes, over each box's text."""
    style, head = "Montserrat@6.5", "Montserrat@9.5"
    heads = [
        block(4, (5.284, 68.97, 196.483, 80.67), head),
        block(5, (399.37, 68.97, 442.80, 80.67), head),
        block(3, (683.34, 68.83, 723.13, 80.53), head),
    ]
    under = [
        block(7, (7.0, 92.0, 195.0, 287.0), style, 22),
        block(20, (5.284, 458.0, 196.477, 469.0), head),
        block(9, (206.9, 100.0, 638.0, 161.0), style, 7),
        block(8, (656.0, 93.0, 758.0, 232.0), style, 16),
        block(18, (206.0, 260.0, 350.0, 557.0), style, 19),
        block(17, (648.0, 230.0, 757.0, 460.0), style, 12),
    ]
    assert heads_over_columns(heads, under, 4.8, style, heads + under)


def _spread(page) -> None:
    """Two A4 pages on one sheet, a fold between them; each opens with its title in 40
    points on a tinted band, the right one's three lines on a band bled off the top and the
    right edge, over paragraphs in 12 points."""
    page.draw_line((595, 0), (595, 842), width=0.5)
    page.draw_rect(pymupdf.Rect(-60, -50, 545, 150), fill=(0.2, 0.6, 0.3), color=None)
    for k, line in enumerate(("What happens", "after diagnosis?")):
        page.insert_text((50, 70 + 44 * k), line, fontsize=40, fontname="helv")
    write_lines(page, 50, 260, [12] * 14, ["left", *WORDS], size=12, lead=15)
    page.insert_text((50, 490), "the left page ends.", fontsize=12, fontname="helv")
    page.draw_rect(pymupdf.Rect(645, -70, 1250, 230), fill=(0.2, 0.6, 0.3), color=None)
    title = ("Which therapies are", "effective to improve arm", "and hand function?")
    for k, line in enumerate(title):
        page.insert_text((700, 60 + 44 * k), line, fontsize=40, fontname="helv")
    write_lines(page, 645, 290, [12] * 14, ["There", *WORDS], size=12, lead=15)


def test_a_spread_is_read_page_by_page_its_titles_on_bands_with_them(tmp_path):
    doc = pymupdf.open()
    _spread(doc.new_page(width=1190, height=842))
    doc.save(tmp_path / "spread.pdf")
    got = drag(open_document(tmp_path / "spread.pdf"), 0, "ends.", "There")
    expected = "ends. Which therapies are effective to improve arm and hand function? There"
    assert got == expected, got


def _boxed_subhead(page) -> None:
    """A poster's box: paragraphs in 6.5 points, a subhead in 7-point bold between two of
    them; the poster's title outside the box."""
    page.insert_text((40, 40), "Simulating Binary Systems", fontsize=16, fontname="helv")
    page.draw_rect(pymupdf.Rect(30, 60, 300, 400), fill=(0.93, 0.95, 1), color=None)
    y = write_lines(page, 40, 80, [9] * 8, WORDS, size=6.5, lead=8)
    page.insert_text((40, y + 6), "Incorporating into MESA", fontsize=7, fontname="hebo")
    write_lines(page, 40, y + 16, [9] * 8, ["Once", *WORDS], size=6.5, lead=8)


def test_a_subhead_in_a_box_is_read_with_the_box_s_text(tmp_path):
    got = drag(one_page(tmp_path, _boxed_subhead), 0, "energy", "Once")
    assert got.endswith("Incorporating into MESA Once"), got


def _centre(page, cx: float, y: float, text: str, size: float, font: str) -> None:
    width = pymupdf.get_text_length(text, fontsize=size, fontname=font)
    page.insert_text((cx - width / 2, y), text, fontsize=size, fontname=font)


def _authors_two_by_two(page) -> None:
    """An IEEE conference's first page: a title, four authors two by two (a name in 11
    points 2.5 points right of the middle of its affiliation's four centred lines), the two
    columns under them."""
    _centre(page, 306, 70, "Linking Governance in MLOps", 24, "tiro")
    affiliation = ("Electrical and Computer Engineering", "Concordia University")
    for cx in (190.5, 417.5):
        for top, name in ((150, "Elie Neghawi"), (210, "Zerui Wang")):
            _centre(page, cx + 2.5, top, name, 11, "tiro")
            lines = (*affiliation, "Montreal, Canada", "zerui.wang@concordia.ca")
            for k, line in enumerate(lines):
                _centre(page, cx, top + 12 + 11 * k, line, 10, "tiit")
    y = write_lines(page, 49, 310, [8] * 30, WORDS, size=10, lead=12)
    page.insert_text((49, y), "the column ends.", fontsize=10, fontname="tiro")
    write_lines(page, 316, 310, [8] * 30, ["thiness", *WORDS], size=10, lead=12)


def test_authors_centred_over_their_affiliations_are_title_matter(tmp_path):
    got = drag(one_page(tmp_path, _authors_two_by_two), 0, "ends.", "thiness")
    assert got == "ends. thiness", got


def _lines(n: int, pieces, lines: int | None = None) -> Group:
    """Group ``n`` of one-piece lines: ``pieces`` as (x0, top, x1, text), ProximaNova 10."""
    segments = []
    for x0, top, x1, text in pieces:
        box = (x0, top, x1, top + 12.3)
        units = [_Unit(box, w, 0, 0, False) for w in text.split()]
        segments.append(_Segment(units, "ProximaNova", 10.0, (1.0, 0.0), len(text), box=box))
    box = tuple(f(s.box[k] for s in segments) for k, f in enumerate((min, min, max, max)))
    block = Block(
        id=n,
        bbox=box,
        direction=(1.0, 0.0),
        size=10.0,
        chars=sum(len(p[3]) for p in pieces),
        lines=lines or len(pieces),
        style="ProximaNova@10.0",
        first_word=pieces[0][3].split()[0],
    )
    return Group(block, segments, box)


def test_a_line_a_picture_breaks_is_read_left_piece_first():
    """The magazine's second column as the reader groups it (batch 212): the left pieces of
    three lines, inside the cut-out apple's picture, a block of their own; the right pieces
    and the paragraph's full lines under the picture another."""
    left = _lines(
        13,
        [
            (318.8, 271, 357.8, "Richard's"),
            (318.8, 283, 379.1, "wants Richard"),
            (318.8, 295, 393.1, "his apples for the"),
        ],
    )
    right = _lines(
        14,
        [
            (511.8, 271, 571.1, "market. If Bob"),
            (501.4, 283, 566.1, "to keep buying"),
            (478.4, 295, 548.0, "market, Bob has"),
            (318.8, 307, 550.6, "to make sure his apples are the ones being sold. Bob,"),
            (318.8, 319, 562.7, "decides to offer an incentive to Lenny, Penny and Benny."),
        ],
    )
    apple = (300.0, 150.0, 500.0, 316.0)
    groups = [left, right]
    assert wrapped_with(left, groups, [apple]) is right
    merge_runaround(groups, runaround_pairs(groups, [apple]).values(), (1, 0, 0, 1, 0, 0))
    assert groups == [right]
    first_words = [seg.units[0].text for seg in right.segments]
    assert first_words == ["Richard's", "market.", "wants", "to", "his", "market,", "to", "decides"]
    assert right.block.lines == 8 and right.block.first_word == "Richard's"


def test_a_table_s_first_column_is_no_line_a_picture_breaks():
    """A table drawn as an image: its first column's cells, level with the other cells of
    their rows, stay the picture's when nothing of theirs runs on under it."""
    cells = _lines(1, [(60, 100, 90, "Item"), (60, 112, 90, "Cost")])
    rows = _lines(2, [(150, 100, 200, "Yes No"), (150, 112, 200, "12 14"), (150, 124, 200, "3 4")])
    table = (50.0, 90.0, 250.0, 150.0)
    assert wrapped_with(cells, [cells, rows], [table]) is None


def _summary_over_a_copyright_line(first: str, font: str):
    """A summary's last lines, a line ``first`` in the text's size (in ``font``), then
    "Introduction" and the introduction's text."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 80, [12] * 4, WORDS, size=SIZE, lead=LEAD)
        page.insert_text((LEFT, y), "the summary ends.", fontsize=SIZE, fontname="tiro")
        page.insert_text((LEFT, y + 26), first, fontsize=SIZE, fontname=font)
        page.insert_text((LEFT, y + 50), "Introduction", fontsize=12, fontname="tibo")
        write_lines(page, LEFT, y + 66, [12] * 6, ["Coronaviruses", *WORDS], size=SIZE, lead=LEAD)

    return draw


@pytest.mark.parametrize(
    ("first", "font", "expected"),
    [
        (
            "Copyright © 2020 Elsevier Ltd. All rights reserved.",
            "tiro",
            "ends. Introduction Coronaviruses",
        ),
        ("© The Author(s) 2018", "tiro", "ends. Introduction Coronaviruses"),
        # Set bold, the notice is told by the formula it ends in.
        (
            "Copyright © 2020 Elsevier Ltd. All rights reserved.",
            "tibo",
            "ends. Introduction Coronaviruses",
        ),
        # A line holding only the article's DOI, as Physical Review sets it under the abstract.
        ("DOI: 10.1103/PhysRevLett.133.106001", "tiro", "ends. Introduction Coronaviruses"),
        (
            "https://doi.org/10.1016/j.cognition.2016.01.002",
            "tiro",
            "ends. Introduction Coronaviruses",
        ),
        # A heading in bold that opens with the word is read.
        ("Copyright and licence", "tibo", "ends. Copyright and licence Introduction Coronaviruses"),
    ],
    ids=[
        "copyright-line",
        "copyright-sign",
        "bold-notice",
        "doi",
        "doi-address",
        "a-heading-about-it",
    ],
)
def test_a_copyright_line_in_the_text_s_size_is_left_out(tmp_path, first, font, expected):
    page = _summary_over_a_copyright_line(first, font)
    got = drag(one_page(tmp_path, page), 0, "ends.", "Coronaviruses")
    assert got == expected, got


def _abstract_over_a_credit(credit: str):
    """An abstract justified to its last full line, ``credit`` flush right on the line under
    it, then "1. Introduction" and the text."""

    def draw(page) -> None:
        right = 400
        y = 80
        for k in range(5):
            words = [WORDS[(16 * k + j) % len(WORDS)] for j in range(16)]
            if k == 4:
                words[-1] = "ends."
            justify(page, LEFT, y, words, right, size=SIZE)
            y += LEAD
        width = pymupdf.get_text_length(credit, fontsize=SIZE, fontname="tiro")
        page.insert_text((right - width, y), credit, fontsize=SIZE, fontname="tiro")
        page.insert_text((LEFT, y + 30), "1. Introduction", fontsize=SIZE, fontname="tibo")
        write_lines(page, LEFT, y + 46, [12] * 6, ["Gravity", *WORDS], size=SIZE, lead=LEAD)

    return draw


@pytest.mark.parametrize(
    ("credit", "expected"),
    [
        ("2016 Elsevier B.V. All rights reserved.", "ends. 1. Introduction Gravity"),
        # One word pushed right (a wrapped item's last word) is no credit.
        ("reserved.", "ends. reserved. 1. Introduction Gravity"),
    ],
    ids=["a-credit-line", "one-word"],
)
def test_one_credit_line_under_a_justified_abstract_is_left_out(tmp_path, credit, expected):
    got = drag(one_page(tmp_path, _abstract_over_a_credit(credit)), 0, "ends.", "Gravity")
    assert got == expected, got


def _section_at_the_column_foot(page) -> None:
    """Two columns; the left one ends with a paragraph, then "2.2. Design" and a sentence of
    two lines low in the page's last tenth; the right column's text starts at the top."""
    y = write_lines(page, LEFT, 80, [7] * 50, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "was used.", fontsize=SIZE, fontname="tiro")
    page.insert_text((LEFT, 776), "2.2. Design", fontsize=SIZE, fontname="tiro")
    write_lines(page, LEFT, 802, [7, 4], ["A", *WORDS], size=SIZE, lead=LEAD)
    write_lines(page, 316, 80, [7] * 50, ["Stimuli", *WORDS], size=SIZE, lead=LEAD)


def test_a_section_opened_at_a_column_s_foot_is_read(tmp_path):
    got = drag(one_page(tmp_path, _section_at_the_column_foot), 0, "used.", "Stimuli")
    assert got == "used. 2.2. Design A the wave moves to the right and its energy stays Stimuli", (
        got
    )
