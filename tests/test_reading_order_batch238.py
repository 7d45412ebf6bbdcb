"""Rules found in the session of batches 238 onwards (the helpers' ro238 and later).

A brochure (batch 241) sets its text in an oval with a flower in the middle: the lines
above the flower run across the oval, the lines beside it are broken in two by the flower,
and the lines under it run across again. The reader grouped the lines above with the left
pieces, the right pieces with the lines under them, and read all the left pieces before
the right ones. Two blocks in one style whose lines stand level in pairs, a picture between
each pair, and a line of theirs running across the picture right above or under those
lines, are one paragraph read line by line. Two columns with a photo set between them are
not: above the photo, each column's lines stop at the gutter.

A society's newsletter (batch 239) parts its paragraphs by a blank line; the left column's
last paragraph, two lines at the page's foot, stood a blank line under a paragraph that
followed a heading, and was taken for a footer, read after the right column. A block that
stands under the text above it at the gap the page leaves between its paragraphs is text.
The same page draws a pink rule from edge to edge between its two articles, each in two
columns: the gutter ran on through the rule and the first article's right column was read
after the second article's left one. A rule across the gutter, in a gap between rows, parts
what lies above it from what lies under it.

A department's newsletter (batch 239) sets a photo across its three columns and centres an
italic caption two ems under it, in the text's size: further than a caption set off only by
its face was looked for, it was read as text. Centred under the picture, it may stand three
ems under it. Taken for a caption, it was then taken for a line reaching over one gutter
from a column (as a caption under a photo two columns wide does): the columns were read
from the page's top to its foot through the photo. A block across two gutters reaches over
neither from one side.

Cognition (batch 225, still missed) closes its abstract with "© 2016 Elsevier B.V. All
rights reserved." flush right; the abstract is in two paragraphs, and the credit was
looked for after the first one's short last line, far above. The paragraph before a
credit ends within a credit's few lines of the block's end, or the credit is the one
line set flush right after a full line.

ACL 2019 (batch 235) sets "where W^{l+1}_k = 1, and W^{l+1}_k = 0" in a line of its left
column: the raised and lowered pieces stand off the baseline, so no piece was taken to go on
from the one before it, and the line's pieces after the first formula were read after the
whole column. A piece goes on from the nearest piece left of it a style's gap away when
their boxes overlap and one is a smaller piece off the other's baseline; a formula's pieces
that go on from their line join its paragraph set as small as 0.6 of its size.

Methods in Ecology and Evolution (batch 241) sets its methods in 8 points under a heading
in 10, opening with a subheading in 7-point capitals: set apart under the heading low on the
page, the two were taken for a footnote, the first as small print set apart under the text
above. The text a note is set apart from is no heading (a line or two set larger than the
text, with no sentence's end); and a one-line subheading in capitals right over text the
drag reads on into is read, however small.

A club's newsletter (batch 248), made in Word, sets one paragraph in Times among paragraphs
in Calibri, all at 14 points: a drag kept only text set like its two ends. A paragraph of
three lines or more between the ends, in their size, as wide as the column the kept text
fills, in an upright face not fixed-pitch, is read.

REVTeX (batch 245) opens a line with a math symbol font's "E" whose box reaches seven
points under the line: off the line's bottom, it went on no line. A single glyph of the
line's size whose top is the line's goes on it.

PLoS ONE (batch 257) sets its citation, editor, dates, copyright and funding in 7 points
between the abstract's box and the text: a drag from the box left nothing out, the rule for
print set smaller than a drag's two ends applying only between running text, and the
block's "Citation:" made it a labelled line to keep. A boxed abstract is running text for
that rule, and a labelled block naming a DOI is a citation.

A REVTeX draft (batch 241) centres "III. RESULTS AND DISCUSSION" in 9-point bold capitals
over "A. One-cell quantum battery", centred too and narrower: a numbered heading set smaller
than the text hung on its paragraph only flush with it or centred over a wider block, and a
drag through both headings read only the second. It hangs on its first subsection's centred
heading too.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import justify, one_page

from basehalf_core.documents.grouping import group
from basehalf_core.documents.line_pieces import split_credit_lines
from basehalf_core.documents.lines import _continues, _link_scripts
from basehalf_core.documents.raw_text import _Segment, _Unit

SIZE, LEAD = 10.0, 13.0
# The flower's box, and where the pieces beside it stop and start again.
FLOWER = (250.0, 150.0, 330.0, 230.0)
LEFT_END, RIGHT_START = 245.0, 335.0
TEXT_LEFT, TEXT_RIGHT = 80.0, 500.0


def _flower(page) -> None:
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), 0)
    photo.set_rect(photo.irect, (230, 220, 120))
    page.insert_image(FLOWER, pixmap=photo)


def _run_round_both_sides(page) -> None:
    """Three full lines, five lines broken in two by the flower, three full lines."""
    _flower(page)
    y = 120.0
    for k in range(3):
        line = f"full line {k} runs across the oval from its left side over the flower to {k}"
        page.insert_text((TEXT_LEFT, y), line, fontsize=SIZE)
        y += LEAD
    for k in range(5):
        page.insert_text((TEXT_LEFT + 20, y), f"left piece {k} beside", fontsize=SIZE)
        page.insert_text((RIGHT_START, y), f"right piece {k} goes on", fontsize=SIZE)
        y += LEAD
    for k in range(3):
        line = f"lower line {k} runs across the oval again under the flower to its right edge {k}"
        page.insert_text((TEXT_LEFT, y), line, fontsize=SIZE)
        y += LEAD


def test_lines_run_round_both_sides_of_a_picture_are_read_line_by_line(tmp_path):
    doc = one_page(tmp_path, _run_round_both_sides)
    got = drag(doc, 0, "2", "lower")
    pieces = " ".join(f"left piece {k} beside right piece {k} goes on" for k in range(5))
    assert (
        got == f"2 runs across the oval from its left side over the flower to 2 {pieces} lower"
    ), got


def _photo_between_columns(page) -> None:
    """Two columns whose lines stop at the gutter, the flower set in the gutter's middle
    over five of their lines, each column's lines going on level with the other's."""
    _flower(page)
    y = 120.0
    for k in range(11):
        narrow = 3 <= k < 8
        left_end = "beside" if narrow else "beside the gutter"
        page.insert_text((TEXT_LEFT, y), f"left column {k} {left_end}", fontsize=SIZE)
        x = RIGHT_START if narrow else 300.0
        page.insert_text((x, y), f"right column {k} goes on", fontsize=SIZE)
        y += LEAD


def test_two_columns_with_a_photo_between_them_are_read_column_by_column(tmp_path):
    doc = one_page(tmp_path, _photo_between_columns)
    got = drag(doc, 0, "9", "right")
    assert got.startswith("9 beside the gutter left column 10 beside the gutter right"), got


def _blank_line_paragraphs(page) -> None:
    """A newsletter's two columns whose paragraphs a blank line parts: three short ones, a
    heading, a long one, and under it, at the page's foot, the left column's last
    paragraph in two lines, its sentence going on at the top of the right column."""
    for x, name in ((54, "left"), (320, "right")):
        y = 120.0
        for k in range(3):
            for j in range(4):
                end = "and closes." if j == 3 else "of the text"
                page.insert_text((x, y), f"{name} {k} line {j} {end}", fontsize=SIZE)
                y += LEAD
            y += LEAD  # the blank line
        page.insert_text((x, y + 4), f"{name.title()} Events", fontsize=14)
        y += 26
        for j in range(33):
            end = "and ends." if j == 32 else "of the story"
            page.insert_text((x, y), f"{name} story line {j} {end}", fontsize=SIZE)
            y += LEAD
        y += LEAD  # the blank line
        if x == 54:
            page.insert_text((x, y), "the last paragraph starts low on the page", fontsize=SIZE)
            page.insert_text((x, y + LEAD), "and its sentence goes on in the", fontsize=SIZE)


def test_a_paragraph_at_the_foot_a_blank_line_under_the_text_is_read(tmp_path):
    """The last paragraph stands a blank line under the one above, as every paragraph of
    the page does: the column's text, not a footer read after the other column."""
    doc = one_page(tmp_path, _blank_line_paragraphs)
    got = drag(doc, 0, "ends.", "right")
    assert (
        got
        == "ends. the last paragraph starts low on the page and its sentence goes on in the right"
    )


def _two_articles_ruled_apart(page, rule: bool = True) -> None:
    """Two articles one above the other, each in two columns, a rule drawn across the page
    between them (or, with ``rule`` False, only the white space)."""
    for x, name in ((54, "upper-left"), (320, "upper-right")):
        for j in range(10 if x == 54 else 6):
            page.insert_text((x, 120 + j * LEAD), f"{name} line {j} of the story", fontsize=SIZE)
    if rule:
        page.draw_line((40, 272), (560, 272), color=(1, 0, 0.4), width=1)
    page.insert_text((54, 300), "Events", fontsize=16)
    for x, name in ((54, "lower-left"), (320, "lower-right")):
        top = 322 if x == 54 else 300
        for j in range(12):
            page.insert_text((x, top + j * LEAD), f"{name} line {j} of the story", fontsize=SIZE)


def test_a_rule_across_the_columns_parts_two_articles(tmp_path):
    """Above the rule, the upper article's right column follows its left column; the lower
    article, under the rule, is read after both."""
    doc = one_page(tmp_path, _two_articles_ruled_apart)
    assert drag(doc, 0, "9", "upper-right") == "9 of the story upper-right"


def _photo_with_a_centred_caption(page, centred: bool = True) -> None:
    """A column's text, a wide photo, its caption in the text's size in italics two ems
    under it (centred under it, or flush left), and the text going on under the caption."""
    for j in range(6):
        page.insert_text((54, 100 + j * LEAD), f"text above line {j} of the story", fontsize=SIZE)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), 0)
    photo.set_rect(photo.irect, (90, 140, 60))
    page.insert_image((54, 190, 500, 400), pixmap=photo, keep_proportion=False)
    caption = "Inauguration of the training programme by the guests"
    width = pymupdf.get_text_length(caption, fontsize=SIZE, fontname="heit")
    x = (54 + 500 - width) / 2 if centred else 54
    page.insert_text((x, 428), caption, fontsize=SIZE, fontname="heit")
    for j in range(6):
        page.insert_text((54, 480 + j * LEAD), f"text below line {j} of the story", fontsize=SIZE)


def test_a_caption_centred_two_ems_under_its_photo_is_left_out(tmp_path):
    doc = one_page(tmp_path, _photo_with_a_centred_caption)
    assert drag(doc, 0, "5", "below") == "5 of the story text below"


def test_an_italic_line_flush_left_two_ems_under_a_photo_is_read(tmp_path):
    """Not centred under the photo, the italic line that far under it is the column's."""
    doc = one_page(tmp_path, lambda page: _photo_with_a_centred_caption(page, centred=False))
    got = drag(doc, 0, "5", "below")
    assert got == "5 of the story Inauguration of the training programme by the guests text below"


def _photo_across_three_columns(page) -> None:
    """Three columns, a photo across all three, its caption centred under it in two
    lines (a little right of the middle), and three more columns under the caption."""
    xs = (54, 230, 406)
    for x, name in zip(xs, ("first", "second", "third"), strict=True):
        for j in range(8):
            page.insert_text((x, 100 + j * LEAD), f"upper {name} line {j} text", fontsize=SIZE)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), 0)
    photo.set_rect(photo.irect, (90, 140, 60))
    page.insert_image((80, 215, 540, 420), pixmap=photo, keep_proportion=False)
    for k, line in enumerate(
        (
            "Inauguration of the training programme on road safety and youth leadership held",
            "by the department in association with the institute",
        )
    ):
        width = pymupdf.get_text_length(line, fontsize=SIZE, fontname="heit")
        page.insert_text((300 - width / 2, 440 + k * LEAD), line, fontsize=SIZE, fontname="heit")
    for x, name in zip(xs, ("first", "second", "third"), strict=True):
        for j in range(8):
            page.insert_text((x, 490 + j * LEAD), f"lower {name} line {j} text", fontsize=SIZE)


def test_a_caption_under_a_photo_across_three_columns_parts_them(tmp_path):
    """The caption crosses both gutters: the columns above it are read before those under
    it, not each column from the page's top to its foot."""
    doc = one_page(tmp_path, _photo_across_three_columns)
    got = drag(doc, 0, "third", "lower")
    assert got.endswith("upper third line 7 text lower") and "Inauguration" not in got, got
    words = [w.text for w in doc.words(0) if w.text in ("upper", "lower")]
    assert words == ["upper"] * 24 + ["lower"] * 24


def _segment(x0: float, top: float, x1: float, text: str):
    box = (x0, top, x1, top + 8.0)
    units = [_Unit(box, w, 0, 0, False) for w in text.split()]
    return _Segment(units, "AdvGulliv-R", 7.5, (1.0, 0.0), len(text), box=box)


def test_a_credit_line_under_an_abstract_in_paragraphs_is_split_off():
    """Cognition's abstract (batch 232): a paragraph ends short of the edge far above, the
    last paragraph runs to the edge, "© 2016 Elsevier B.V. All rights reserved." flush right
    under it. The credit was looked for only after the short line, too far up."""
    lines = [
        _segment(197, 289, 553, "Gravity is a pervasive force that shapes how we move and"),
        _segment(197, 299, 380, "how we see it."),
        *(
            _segment(197, 309 + 10 * k, 553, f"the second paragraph line {k} runs on")
            for k in range(6)
        ),
        _segment(197, 369, 544, "of gravity in the configural processing of observed bodies."),
        _segment(424, 379, 553, "2016 Elsevier B.V. All rights reserved."),
    ]
    box = (197, 289, 553, 387)
    out, credits = split_credit_lines([(lines, box)], lines)
    assert [len(members) for members, _ in out] == [9, 1] and credits == [1]
    assert out[1][0][0].units[0].text == "2016"


def _piece(x0: float, top: float, x1: float, bottom: float, text: str, family: str, size: float):
    box = (x0, top, x1, bottom)
    units = [_Unit(box, w, 0, 0, False) for w in text.split()]
    return _Segment(units, family, size, (1.0, 0.0), len(text), box=box)


def test_a_formula_s_raised_and_lowered_pieces_stay_in_their_line():
    """ACL 2019 (batch 235): "case of DLCL, where W^{l+1}_k = 1, and W^{l+1}_k = 0" comes out
    as "where W", "l+1" raised, "k" lowered, "= 1, and W", ... Off the baseline, no piece went
    on from the one before it, and the pieces after the first formula were read after the
    whole column, inside a drag from its foot to the next column."""
    text = "NimbusRomNo9L"
    segs = [
        _piece(77, 685, 290, 698, "ample, the standard residual network is a special", text, 11.0),
        _piece(77, 699, 182, 712, "case of DLCL, where W", text, 11.0),
        _piece(183, 698, 197, 706, "l+1", "CMR", 8.0),
        _piece(182, 706, 184, 714, "k", "CMMI", 8.0),
        _piece(201, 699, 253, 712, "= 1, and W", "CMR", 11.0),
        _piece(255, 698, 268, 706, "l+1", "CMR", 8.0),
        _piece(253, 706, 258, 714, "k", "CMMI", 8.0),
        _piece(273, 700, 290, 711, "= 0", "CMR", 11.0),
        _piece(77, 712, 290, 725, "for k < l. Figure (2) compares different meth-", text, 11.0),
    ]
    _link_scripts(segs)
    groups = group(segs, (1, 0, 0, 1, 0, 0))
    assert len(groups) == 1
    words = [u.text for m in groups[0].segments for u in m.units]
    at = words.index("where")
    formula = ["where", "W", "l+1", "k", "=", "1,", "and", "W", "l+1", "k", "=", "0", "for"]
    assert words[at : at + 13] == formula, words


@pytest.mark.parametrize(
    ("ends", "expected"),
    [
        ("on a log\u2013", "plot on a log\u2013log scale"),  # an en dash close to its word
        ("in 1990\u2013", "plot in 1990\u20131995 log scale"),
        ("on a log \u2013", "plot on a log \u2013 log scale"),  # a spaced dash: a word
    ],
    ids=["log-log", "years", "spaced"],
)
def test_a_dash_at_a_line_end_goes_on_to_the_next_word_as_closely(tmp_path, ends, expected):
    """Methods in Ecology and Evolution (batch 241) breaks "log–log" after its en dash:
    the quote put a space after it, as after a line's last word."""
    tail = "1995 log scale" if "1990" in ends else "log scale"

    def draw(page) -> None:
        writer = pymupdf.TextWriter(page.rect)
        font = pymupdf.Font("cjk")  # a built-in font whose text layer keeps the dashes
        writer.append((60, 100), f"the plot {ends}", font=font, fontsize=SIZE)
        writer.append((60, 100 + LEAD), f"{tail} shows it", font=font, fontsize=SIZE)
        writer.write_text(page)

    got = drag(one_page(tmp_path, draw), 0, "plot", "scale")
    assert got == expected, got


def _centred_heads(page) -> None:
    """A column's paragraph, "III. RESULTS AND DISCUSSION" centred in 9 pt bold capitals,
    "A. One-cell quantum battery" centred under it in 9 pt, and the next paragraph."""
    left, right = 54.0, 299.0
    for j in range(6):
        words = f"the paragraph above on line {j} runs on to the column's edge".split()
        justify(page, left, 100 + j * 12, words, right, size=10)
    page.insert_text((left, 172), "with the baths.", fontsize=10)
    for y, text, font in (
        (204, "III. RESULTS AND DISCUSSION", "tibo"),
        (228, "A. One-cell quantum battery", "tiro"),
    ):
        width = pymupdf.get_text_length(text, fontsize=9, fontname=font)
        page.insert_text(((left + right - width) / 2, y), text, fontsize=9, fontname=font)
    for j in range(6):
        words = f"let us start below on line {j} and run on to the column's edge".split()
        justify(page, left, 246 + j * 12, words, right, size=10)


def test_a_centred_section_heading_over_its_centred_subheading_is_read(tmp_path):
    """REVTeX (batch 241) centres "III. RESULTS AND DISCUSSION" over "A. One-cell quantum
    battery", both smaller than the text: the section's heading, wider than the
    subheading under it, was left out of a drag through them."""
    got = drag(one_page(tmp_path, _centred_heads), 0, "baths.", "let")
    assert got == "baths. III. RESULTS AND DISCUSSION A. One-cell quantum battery let", got


def _heading_box(page) -> None:
    """A flyer's paragraph, "SUAS COMPETITION" in 30 points on a black box padded
    above and below (90 points tall, 2.2 times its line), and the paragraph under it."""
    for j in range(4):
        page.insert_text((61, 300 + j * 18), f"the club above line {j} goes on", fontsize=14)
    page.draw_rect((133, 348, 479, 438), color=None, fill=(0, 0, 0))
    page.insert_text((170, 404), "SUAS COMPETITION", fontsize=30, color=(1, 1, 1))
    for j in range(4):
        page.insert_text((61, 455 + j * 18), f"the contest below line {j} goes on", fontsize=14)


def test_a_heading_on_a_padded_box_is_a_banner_read_in_the_flow(tmp_path):
    """A Canva sponsorship packet (batch 246): the box, 2.2 times its heading's height, was
    taken for a boxed sidebar, and a drag from the list above it to the text under it left
    the heading out."""
    got = drag(one_page(tmp_path, _heading_box), 0, "3", "contest")
    assert got == "3 goes on SUAS COMPETITION the contest", got


def _methods_in_small_type(page) -> None:
    """A column in 9 points down to the middle of the page, "Materials and methods" in 10,
    "DEFINING THE PORTFOLIO" in 7-point capitals, and the section in 8 points to the foot."""
    y = 80.0
    for j in range(30):
        page.insert_text((54, y), f"the introduction line {j} goes on", fontsize=9)
        y += 11
    page.insert_text((54, y + 14), "Materials and methods", fontsize=10)
    page.insert_text((54, y + 40), "DEFINING THE PORTFOLIO", fontsize=7, fontname="hebo")
    for j in range(19):
        page.insert_text((54, y + 56 + j * 10), f"in the metaphor line {j} runs", fontsize=8)


def test_a_section_set_in_smaller_type_under_its_heading_is_read(tmp_path):
    """Methods in Ecology and Evolution (batch 241) sets its methods in 8 points under a
    heading in 10: the section's capitals subheading and text, set apart under the heading
    low on the page, were taken for a footnote, and the subheading left out of a drag."""
    got = drag(one_page(tmp_path, _methods_in_small_type), 0, "29", "metaphor")
    assert got == "29 goes on Materials and methods DEFINING THE PORTFOLIO in the metaphor", got


@pytest.mark.parametrize(("lines", "read"), [(4, True), (2, False)], ids=["paragraph", "two-lines"])
def test_a_paragraph_in_another_face_between_the_ends_is_read(tmp_path, lines, read):
    """A club's newsletter (batch 248) sets one paragraph in Times among paragraphs in
    Calibri, all at 14 points: a drag from the paragraph above it to the one under it kept
    only text set like its ends and left the paragraph out. Upright, as wide as the column
    and three lines or more, it is the text; two lines may be a table's cells or a note."""

    def draw(page) -> None:
        y = 100.0
        for j in range(4):
            page.insert_text((54, y), f"the column text above on line {j} goes on", fontsize=14)
            y += 17
        y += 17
        for j in range(lines):
            line = f"a pot luck paragraph line {j} set in another face"
            page.insert_text((54, y), line, fontsize=14, fontname="tiro")
            y += 17
        y += 17
        for j in range(4):
            page.insert_text((54, y), f"the column text below on line {j} goes on", fontsize=14)
            y += 17

    got = drag(one_page(tmp_path, draw), 0, "3", "below")
    middle = " ".join(f"a pot luck paragraph line {j} set in another face" for j in range(lines))
    assert got == (
        f"3 goes on {middle} the column text below" if read else "3 goes on the column text below"
    ), got


def test_a_symbol_whose_box_reaches_under_the_line_goes_on_it():
    """REVTeX (batch 245) opens a line with a calligraphic "E" from a math symbol font whose
    box reaches seven points under the line ("E and the energy E in the charging protocol"):
    its bottom off the line's, it was a block of its own, read after its paragraph. A single
    glyph of the line's size whose top is the line's goes on it; a word is not so taken."""
    e = _Unit((54.0, 516.0, 59.0, 533.0), "E", 1, 1, False)
    seg = _Segment([e], "CMSY", 10.0, (1.0, 0.0), 1, box=e.rect)
    word = _Unit((64.0, 516.0, 80.0, 526.0), "and", 1, 1, False)
    assert _continues(seg, word, "CMR", 10.0, (1.0, 0.0), (1, 1))
    tall = _Unit((54.0, 516.0, 80.0, 533.0), "Energy", 1, 1, False)
    seg = _Segment([tall], "CMSY", 10.0, (1.0, 0.0), 6, box=tall.rect)
    word = _Unit((84.0, 516.0, 100.0, 526.0), "and", 1, 1, False)
    assert not _continues(seg, word, "CMR", 10.0, (1.0, 0.0), (1, 1))


def _abstract_box_over_a_citation(page) -> None:
    """An abstract in a shaded box, a citation block in 7 points under it (its label, the
    reference, the DOI), then "Introduction" and the text in 9 points."""
    page.draw_rect((64, 90, 549, 180), color=None, fill=(0.85, 0.9, 0.95))
    for j in range(6):
        line = f"the abstract in its box on line {j} goes on"
        page.insert_text((74, 105 + j * 12), line, fontsize=9, fontname="tiro")
    page.insert_text((74, 177), "and the abstract ends.", fontsize=9, fontname="tiro")
    page.insert_text(
        (67, 200), "Citation: Chan M, Johansson MA (2012) The Incubation Periods of", fontsize=7
    )
    page.insert_text(
        (67, 209),
        "Dengue Viruses. PLoS ONE 7(11): e50972. doi:10.1371/journal.pone.0050972",
        fontsize=7,
    )
    page.insert_text((58, 240), "Introduction", fontsize=10, fontname="hebo")
    for j in range(20):
        page.insert_text(
            (58, 256 + j * 12), f"dengue text under the heading line {j} runs", fontsize=9
        )


def test_a_citation_block_under_an_abstract_box_is_left_out(tmp_path):
    """PLoS ONE (batch 257): a drag from the abstract's box into the text kept the citation
    block between them: from a box, the small-print rule did not apply, and the block's
    "Citation:" label made it a line of keywords to keep."""
    got = drag(one_page(tmp_path, _abstract_box_over_a_citation), 0, "ends.", "dengue")
    assert got == "ends. Introduction dengue", got
