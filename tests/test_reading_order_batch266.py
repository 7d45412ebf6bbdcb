"""Rules found in the session of batches 266 onwards (the helpers' ro266 and later).

A farm's slide deck (batch 257) sets "VISION" and "MISSION" side by side, each centred over
its box's three centred lines, under a slogan across the page in the heads' own face and
size. A row of heads in a style that stood right above it was taken for title matter
repeating (an author's e-mail under the names) and read before the boxes: a drag from the
VISION box into the MISSION box left "MISSION" out. A block reaching over two of the heads
is no author's name; and a single row of heads, each centred over a text of two lines or
more of its own, is read box by box when nothing stands under those texts.

AEA Papers and Proceedings (batch 272) boxes the parentheses of its text font twice as tall
as its lines: the words holding one were read as lines of their own. A word boxed taller
round its line's middle takes the line's height.

A Portuguese IEEE paper (batch 266) centres each author's name over five lines (the
programme's name taking two): longer than the four lines title matter was allowed, the
authors side by side were read as the columns' tops, and a drag from the left column's foot
to the right column's top took in the second author. A block whose own first line is set
centred in it, narrower than it, may take six.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import across_columns, block, drag_across, one_page, write_lines

from basehalf_core.documents import regions
from basehalf_core.documents.grouping import Group
from basehalf_core.documents.outlines import with_tail_rows
from basehalf_core.documents.raw_text import _Segment, _Unit, even_heights

LEFT_CARD = ("Lead green", "farming with scale", "and trusted soil")
RIGHT_CARD = ("Give farmers", "a fair price and open", "ways to invest")
PARAGRAPH = "we farm the land with care and share the yield with every family"


def _centred(page, middle: float, y: float, text: str, size: float, font: str) -> None:
    width = pymupdf.get_text_length(text, fontsize=size, fontname=font)
    page.insert_text((middle - width / 2, y), text, fontsize=size, fontname=font)


def _slide(page) -> None:
    """A title, a paragraph, a slogan across the page, then two heads in the slogan's face,
    each centred over three centred lines of its own."""
    page.insert_text((60, 80), "Overview of the farm", fontsize=18, fontname="hebo")
    write_lines(page, 60, 120, [12] * 6, PARAGRAPH.split(), size=10, lead=13)
    _centred(page, 297, 215, "Growing fields. Growing yields.", 14, "hebo")
    for middle, head, card in ((170, "VISION", LEFT_CARD), (425, "MISSION", RIGHT_CARD)):
        _centred(page, middle, 260, head, 14, "hebo")
        for k, line in enumerate(card):
            _centred(page, middle, 285 + 14 * k, line, 11, "helv")


@pytest.mark.parametrize(
    ("first", "last", "quote"),
    [("soil", "Give", "soil MISSION Give"), ("yields.", "Lead", "yields. VISION Lead")],
    ids=["card-heads-read-card-by-card", "a-slogan-over-the-heads-is-no-title-matter"],
)
def test_a_row_of_card_heads_heads_its_cards(tmp_path, first, last, quote):
    assert drag(one_page(tmp_path, _slide), 0, first, last) == quote


AFFILIATION = (
    "Programa de Pos-Graduacao",
    "em Computacao (PPGC)",
    "Universidade do Vale do Itajai (UNIVALI)",
    "Itajai, Brasil",
    "someone@univali.br",
)


def _five_line_affiliations(page) -> None:
    """A title, two authors' names centred over five centred lines each, a third author
    under the first, then two columns."""
    page.insert_text((90, 80), "Tendencias em Monitoramento Ambiental", fontsize=22)
    for x, y, name in (
        (180, 140, "Klaus Kupper"),
        (430, 140, "Jordan Sausen"),
        (150, 225, "M. Campos"),
    ):
        _centred(page, x, y, name, 11, "tiro")
        for k, line in enumerate(AFFILIATION):
            _centred(page, x, y + 12 + 11 * k, line, 10, "tiro")
    write_lines(page, 50, 330, [11] * 30, PARAGRAPH.split(), size=10, lead=12)
    write_lines(page, 312, 330, [11] * 30, PARAGRAPH.split(), size=10, lead=12, start=3)


def _clipped_photo(page) -> None:
    """A panel's paragraph, a heading and three lines under it; a photo placed from the
    heading down past the page's foot, shown through a clip only well under the text."""
    write_lines(page, 300, 100, [6] * 2, PARAGRAPH.split(), size=10, lead=13)
    page.insert_text((300, 330), "What we make possible", fontsize=16, fontname="hebo")
    write_lines(page, 300, 355, [5] * 3, PARAGRAPH.split(), size=10, lead=13, start=7)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 40), 0)
    photo.set_rect(photo.irect, (40, 140, 60))
    page.insert_image((300, 300, 700, 900), pixmap=photo, keep_proportion=False)
    # Only (300, 650)-(500, 750) of the placement shows: a clip path (PDF space, y up).
    xref = page.get_contents()[-1]
    stream = page.parent.xref_stream(xref)
    page.parent.update_stream(xref, stream.replace(b"q\n", b"q\n300 92 200 100 re W n\n", 1))


def test_a_photo_shows_only_what_its_clip_shows(tmp_path):
    doc = one_page(tmp_path, _clipped_photo)
    assert drag(doc, 0, "every", "share") == "every What we make possible share"


def _outlined_bold(page) -> None:
    """A column of three paragraphs, a blank line between them; the middle one's third and
    fourth lines are set bold by stroking each glyph's outline over its fill."""
    y = write_lines(page, 300, 100, [6] * 3, PARAGRAPH.split(), size=10, lead=13) + 13
    y = write_lines(page, 300, y, [6] * 2, PARAGRAPH.split(), size=10, lead=13, start=5)
    for line in ("Disinfect surfaces and", "hands, wear gloves"):
        x = 300.0
        for char in line:
            page.insert_text((x, y), char, fontsize=10)
            x += pymupdf.get_text_length(char, fontsize=10)
            if char == " ":
                continue
            # The glyph's outline stroked over its fill: a path with the glyph's own box.
            log = page.get_bboxlog()
            r = pymupdf.Rect(next(r for kind, r in reversed(log) if kind == "fill-text"))
            corners = [(r.x0, r.y1), (r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1)]
            page.draw_polyline(corners, color=(0, 0, 0), width=0.05)
        y += 13
    y = write_lines(page, 300, y, [4], ["pay", "by", "card", "please"], size=10, lead=13) + 13
    write_lines(page, 300, y, [6] * 3, PARAGRAPH.split(), size=10, lead=13, start=3)


def test_text_outlined_over_its_fill_is_no_drawing(tmp_path):
    """The flyer's bold phrase made a figure that took in its paragraph (with a photo's
    placement cut to its clip, nothing else lay over it); here the figures the page's
    drawings make are looked at directly."""
    doc = one_page(tmp_path, _outlined_bold)
    with pymupdf.open(tmp_path / "page.pdf") as pdf:
        figures = regions._graphics(pdf[0], 10.0, [])[0]
    assert figures == []
    words = doc.words(0)
    first = next(w for w in words if w.text == "family")  # the first paragraph's last line
    last = [w for w in words if w.text == "share"][2]  # the last paragraph's first line
    got = doc.passage(0, doc.select_between(0, first.index, last.index)).quote
    assert "the land Disinfect surfaces and hands, wear gloves pay by card please land" in got


def _panel_heads(page) -> None:
    """Two panels: the left one's text starting a third of the way down; the right one
    opening at the page's top with a head of two lines in a large face, its second head
    further down in the same face, smaller."""
    page.set_mediabox(pymupdf.Rect(0, 0, 842, 595))
    write_lines(page, 300, 120, [6] * 10, PARAGRAPH.split(), size=10, lead=13)
    page.insert_text((600, 40), "WHAT WE", fontsize=25, fontname="hebo")
    page.insert_text((600, 68), "DO", fontsize=25, fontname="hebo")
    write_lines(page, 600, 100, [6] * 10, PARAGRAPH.split(), size=10, lead=13, start=2)
    page.insert_text((600, 260), "WHAT WE", fontsize=19, fontname="hebo")
    page.insert_text((600, 282), "MAKE POSSIBLE", fontsize=19, fontname="hebo")
    write_lines(page, 600, 305, [6] * 6, PARAGRAPH.split(), size=10, lead=13, start=5)


def test_a_panels_head_of_two_lines_set_as_its_heads_further_down_heads_it(tmp_path):
    doc = one_page(tmp_path, _panel_heads)
    got, last, first = drag_across(doc, lambda r: r[0] < 500, lambda r: r[0] > 590 and r[1] > 85)
    assert got == f"{last} WHAT WE DO {first}"


def _summary_over_smaller_columns(page) -> None:
    """A summary in 10 points across the page, low under it a heading and two columns of
    text in 9 points, the right column starting a line above the left one's heading."""
    write_lines(page, 90, 300, [14] * 24, PARAGRAPH.split(), size=10, lead=12)
    page.insert_text((60, 640), "Introduction", fontsize=10, fontname="hebo")
    write_lines(page, 60, 656, [7] * 4, PARAGRAPH.split(), size=9, lead=11, start=1)
    write_lines(page, 306, 630, [7] * 9, PARAGRAPH.split(), size=9, lead=11, start=4)


def _question_on_a_band(page) -> None:
    """A panel: a paragraph, a question in three lines at 16 points on a grey band, a
    paragraph."""
    write_lines(page, 272, 100, [6] * 5, PARAGRAPH.split(), size=11, lead=13)
    page.draw_rect((261, 170, 495, 242), color=None, fill=(0.8, 0.8, 0.8))
    for k, line in enumerate(("What if you don't", "recover from your injury", "as planned?")):
        page.insert_text((272, 190 + 19 * k), line, fontsize=16, fontname="tiro")
    write_lines(page, 272, 262, [6] * 5, PARAGRAPH.split(), size=11, lead=13, start=3)


HEADLINE = ("Gravitational Wave Astronomy", "Will be the Next Great", "Scientific Frontier")


def _long_headline(page) -> None:
    """A paragraph across the page; under it a headline of three lines and 72 characters in
    21 points over a column of 10-point text."""
    write_lines(page, 60, 100, [14] * 4, PARAGRAPH.split(), size=10, lead=13)
    for k, line in enumerate(HEADLINE):
        page.insert_text((250, 190 + 25 * k), line, fontsize=21, fontname="tiro")
    write_lines(page, 250, 260, [8] * 12, PARAGRAPH.split(), size=10, lead=13, start=5)


# One line of the AEA's page 2 as extracted: its words in parentheses boxed twice as tall.
AEA_LINE = [
    ((51.0, 542.0, 107.1, 553.2), "Immunization"),
    ((117.0, 542.0, 150.7, 553.2), "Registry"),
    ((160.6, 537.4, 206.2, 559.6), "(previously"),
    ((216.0, 542.0, 243.0, 553.2), "known"),
]


@pytest.mark.parametrize("turned", [False, True], ids=["across", "upright"])
def test_words_boxed_tall_round_their_line_are_cut_to_it(turned):
    """AEA Papers and Proceedings (batch 272) boxes its parentheses 22 points tall on
    11-point lines: "(previously" stood off the line's baseline and was read after its
    paragraph. A word boxed taller round its line's middle takes the line's height; a line
    running upright is left as it is."""
    units = [_Unit(box, text, 0, 0, False) for box, text in AEA_LINE]
    info = {"blocks": [{"number": 0, "type": 0, "lines": [{"dir": (0, 1) if turned else (1, 0)}]}]}
    got = [u.rect[1::2] for u in even_heights(units, info)]
    tall = (537.4, 559.6) if turned else (542.0, 553.2)
    assert got == [(542.0, 553.2), (542.0, 553.2), tall, (542.0, 553.2)]


def _column_goes_on_beside_a_heading(page) -> None:
    """A page opening with a heading over the left column's text, level with the right
    column's first two lines (a paragraph's tail), a blank line under them."""
    page.insert_text((36, 30), "Living with College Students", fontsize=14, fontname="hebo")
    write_lines(page, 36, 45, [7] * 24, PARAGRAPH.split(), size=11, lead=13)
    write_lines(page, 312, 28, [7] * 2, PARAGRAPH.split(), size=11, lead=13, start=5)
    write_lines(page, 312, 72, [7] * 20, PARAGRAPH.split(), size=11, lead=13, start=2)


def _two_letters(page) -> None:
    """A letter in two columns; under it, a heading in 16 points across the left column
    only, the right column empty beside it; the next letter in two columns from its foot."""
    write_lines(page, 52, 100, [7] * 12, PARAGRAPH.split(), size=11, lead=13)
    write_lines(page, 312, 100, [7] * 13, PARAGRAPH.split(), size=11, lead=13, start=4)
    page.insert_text((52, 290), "Letter from the Vice President", fontsize=16, fontname="hebo")
    write_lines(page, 52, 306, [7] * 14, PARAGRAPH.split(), size=11, lead=13, start=1)
    write_lines(page, 312, 306, [7] * 10, PARAGRAPH.split(), size=11, lead=13, start=6)


def test_a_heading_alone_in_its_row_parts_two_texts_in_columns(tmp_path):
    doc = one_page(tmp_path, _two_letters)
    got, last, first = drag_across(
        doc, lambda r: r[0] > 306 and r[3] < 280, lambda r: r[0] < 306 and r[1] > 292
    )
    assert got == f"{last} Letter from the Vice President {first}"


def _chart_over_caption_and_table(page) -> None:
    """Nature's page: a chart atop the left column, its caption's bold first line a block
    of its own over the caption's roman lines, the column's text under it; the right
    column's text from the page's top; a shaded table across the page's foot."""
    page.draw_rect((52, 55, 288, 220), color=(0, 0, 0), width=0.5)
    for k in range(6):
        points = [(60 + 35 * j, 200 - 20 * k - 12 * (j % 2)) for j in range(7)]
        page.draw_polyline(points, color=(0.2, 0.2, 0.8), width=0.8)
    page.insert_text(
        (50, 242), "Figure 2 Anomalies of the phases in Germany", fontsize=8, fontname="hebo"
    )
    write_lines(page, 50, 254, [9] * 5, PARAGRAPH.split(), size=8, lead=9, start=3)
    write_lines(page, 46, 320, [9] * 25, PARAGRAPH.split(), size=9.5, lead=12)
    # The right column's first paragraph ends level with the caption's first line.
    write_lines(page, 306, 58, [9] * 16, PARAGRAPH.split(), size=9.5, lead=12, start=6)
    write_lines(page, 306, 262, [9] * 32, PARAGRAPH.split(), size=9.5, lead=12, start=2)
    page.draw_rect((45, 656, 554, 748), color=None, fill=(0.85, 0.85, 0.9))
    title = "Table 1 Evidence of recent advances in the timing of spring events in Europe"
    more = "and North America, by taxon, location, observed changes and period of the records"
    page.insert_text((48, 664), f"{title} {more}", fontsize=6.5)
    for k in range(1, 6):
        for x, cell in (
            (48, f"Taxon {k}"),
            (140, "Europe"),
            (204, f"Observed change {k}"),
            (501, f"{k} yr"),
        ):
            page.insert_text((x, 668 + 12 * k), cell, fontsize=6.5)


def test_a_columns_caption_beside_the_next_columns_text_is_no_row(tmp_path):
    doc = one_page(tmp_path, _chart_over_caption_and_table)
    got, last, first = drag_across(
        doc, lambda r: r[0] < 300 and 300 < r[1] < 650, lambda r: r[0] > 300 and r[1] < 650
    )
    assert got == f"{last} {first}"


def _group(n: int, box, style: str, lines: int, text: str) -> Group:
    """A block of ``lines`` lines of ``text`` in ``style`` as the region rules see it."""
    b = block(n, box, style, lines)
    b.chars = len(text) * lines
    unit = _Unit(box, text, n, 0, False)
    return Group(b, [_Segment([unit], style.split("@")[0], b.size, (1.0, 0.0), len(text))], box)


def test_a_tables_rows_under_its_last_rule_are_the_tables():
    """PhoneLab (batch 278) rules its demographics table over "By Age" and not under the
    nine age rows: the table's region ended at the last rule, and the rows' labels and the
    caption under them were read as text between a drag's ends. Short cells set as the
    table's, under its cells, follow its last rule into it; the caption and the text do not.
    """
    table = (316.0, 63.0, 556.0, 133.0)
    rules = [(316.0, 62.7, 556.0, 63.3), (316.0, 97.7, 556.0, 98.3), (316.0, 132.7, 556.0, 133.3)]
    groups = [
        _group(1, (322.0, 102.0, 346.0, 124.0), "CMR@8.0", 2, "Female"),
        _group(2, (462.0, 102.0, 474.0, 124.0), "CMR@8.0", 2, "51"),
        _group(3, (322.0, 137.0, 341.0, 210.0), "CMR@8.0", 8, "18-20"),
        _group(4, (462.0, 137.0, 470.0, 210.0), "CMR@8.0", 8, "12"),
        _group(5, (335.0, 223.0, 497.0, 235.0), "CMR@9.0", 1, "Table 1: PhoneLab breakdown."),
        _group(6, (317.0, 253.0, 556.0, 628.0), "CMR@9.0", 34, "collecting data from the app"),
    ]

    def inside(g, r) -> bool:
        cx, cy = (g.box[0] + g.box[2]) / 2, (g.box[1] + g.box[3]) / 2
        return r[0] - 1 <= cx <= r[2] + 1 and r[1] - 1 <= cy <= r[3] + 1

    assert with_tail_rows(table, groups, rules, 9.0, inside) == (316.0, 63.0, 556.0, 210.0)
    # Without a rule under its last row drawn, the region is what it was.
    assert with_tail_rows(table, groups, rules[:2], 9.0, inside) == table


def _numbered_run_in(page) -> None:
    """A paragraph, then one opening with a numbered run-in heading in an italic sans
    ("2.1.1 The Biology."), its text going on in the text's serif."""
    write_lines(page, 54, 100, [8] * 4, PARAGRAPH.split(), size=9, lead=11)
    page.insert_text((64, 155), "2.1.1 The Biology.", fontsize=9, fontname="heit")
    page.insert_text((140, 155), "The cellular system is governed", fontsize=9, fontname="tiro")
    write_lines(page, 54, 166, [8] * 5, PARAGRAPH.split(), size=9, lead=11, start=4)


def test_a_numbered_run_in_heading_opens_its_paragraph(tmp_path):
    doc = one_page(tmp_path, _numbered_run_in)
    got, last, first = drag_across(doc, lambda r: r[3] < 140, lambda r: r[1] > 150)
    assert got == f"{last} 2.1.1 The Biology. The cellular system is governed {first}"


def _boxed_abstract_over_much_small_print(page) -> None:
    """PLOS ONE's first page: an abstract in a shaded box, seven lines of 7-point citation,
    dates and funding under it, then "Introduction" and a few lines of 9-point text in two
    columns: more small print than text outside the box."""
    page.draw_rect((64, 90, 549, 200), color=None, fill=(0.9, 0.9, 0.95))
    write_lines(page, 74, 110, [14] * 7, PARAGRAPH.split(), size=9, lead=12, font="helv")
    label = "Citation: Fertig EJ, Markovic A (2013) PLoS ONE 8(11) doi:10.1371/journal.pone.0078127"
    page.insert_text((67, 220), label, fontsize=7)
    write_lines(page, 67, 229, [14] * 6, PARAGRAPH.split(), size=7, lead=8.5, start=2, font="helv")
    page.insert_text((58, 350), "Introduction", fontsize=10, fontname="hebo")
    write_lines(page, 58, 366, [8] * 5, PARAGRAPH.split(), size=9, lead=11, start=6)
    write_lines(page, 315, 350, [8] * 5, PARAGRAPH.split(), size=9, lead=11, start=1)


def test_small_print_under_a_boxed_abstract_is_left_out_however_much(tmp_path):
    doc = one_page(tmp_path, _boxed_abstract_over_much_small_print)
    got, last, first = drag_across(doc, lambda r: r[3] < 200, lambda r: r[1] > 352 and r[0] < 300)
    assert got == f"{last} Introduction {first}"


@pytest.mark.parametrize(
    ("draw", "split", "right_below"),
    [
        (_five_line_affiliations, 306, 300),
        (_summary_over_smaller_columns, 300, 600),
        (_column_goes_on_beside_a_heading, 306, 0),
    ],
    ids=[
        "authors-over-five-centred-lines-are-title-matter",
        "a-columns-text-beside-text-in-its-style-is-no-note",
        "first-lines-beside-the-other-columns-heading-are-no-running-head",
    ],
)
def test_a_drag_across_the_column_break_reads_the_columns_alone(tmp_path, draw, split, right_below):
    doc = one_page(tmp_path, draw)
    quote, first, last = across_columns(doc, split=split, right_below=right_below)
    assert quote == f"{first} {last}"


@pytest.mark.parametrize(
    ("draw", "above", "below", "heading"),
    [
        (_question_on_a_band, 165, 245, "What if you don't recover from your injury as planned?"),
        (_long_headline, 150, 245, " ".join(HEADLINE)),
    ],
    ids=["a-question-of-three-lines-on-a-band", "a-headline-of-three-long-lines-set-large"],
)
def test_a_heading_between_a_drags_ends_is_read(tmp_path, draw, above, below, heading):
    doc = one_page(tmp_path, draw)
    got, last, first = drag_across(doc, lambda r: r[3] < above, lambda r: r[1] > below)
    assert got == f"{last} {heading} {first}"
