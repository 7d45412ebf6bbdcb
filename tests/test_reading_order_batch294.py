"""Rules found in the session of batches 294 onwards (the helpers' ro294 and later).

A Chinese two-column template (batch 281) sets its headings ("4 实验") larger than the
text and runs the text on under them. Lines of text without spaces were joined without
one, also where a heading ended and its text began: "4 实验Suspendisse", "第二段3 方法". A
line break between a CJK character and a Latin or digit piece in two blocks set in different
sizes is no wrap inside a paragraph: it reads as a space. A paragraph going on in the next
block in its own size (the next column) still joins without one, and two CJK characters
never take one (a Chinese report, batch 278, heads its panels "警告" over Chinese text).

A conference's sponsorship slides (batch 290) set four cards two by two, each a tinted title
bar over a few centred lines in a rounded frame. The cards of two or three lines held no
paragraph of four lines, so their frames were taken for figures and their text left out of
every drag. A drawn shape holding one paragraph of full lines in the text's size, ending a
sentence, under at most one head, is a card: its text is read.

A student's paper in the USENIX template (batch 287) sets a program in bold keywords and
italic names over "Figure 1: Program described in [8]", with no rules and no line numbers:
nothing drawn made it a figure, and its caption, in the text's face, came into a drag from
the left column's foot to the right column's text under it. A caption-labelled block right
under four lines or more set in other faces, none larger than the text, is a float.

GENETICS (batch 293) sets a caption's label in a bold sans and its words in the text's
serif; the caption's block takes the label's style, and its second line, grouped apart in
the serif, did not go with it: "batch effect removed" came into a drag past the figure. A
caption's next lines may be set in any face its own lines use.

A French school magazine made in PowerPoint (batch 292) opens a lead with a drop cap "L"
whose box sits lower than its first line's ("a santé et la"), in one text box with the
line at its foot: it was read after the first line, inside a drag starting on "santé". The
cap may share its block with a line far shorter than it, and its first line's box may
rise a line's height over the cap's top.

Hackathon workshop slides (batch 298) set an intro over a grid of four boxes, each with a
head on its top edge; the right box's head ("3. Focus on the problem", in the intro's size)
came out as the intro's last line and was read before the first box. The lines of a block
that reach into a box, under lines that stand over it and reach out past its sides, are a
block of their own.

A WCSP paper (batch 295) sets "SNR(dB)" under each plot's tick labels, in the text's font
and size, outside the plot's region: a drag under a row of plots read "SNR(dB) SNR(dB)".
A line of a few words centred under a figure, right under what is read as the figure's,
is the figure's.

A CogSci paper (batch 301) draws its Figure 1 as a bar 8 points tall between its labels,
"Target concept T" over it, "0" and "1" under it: lower than an em, the bar made no figure,
and its caption was read in a drag from the left column's foot to the right column's text
under it. A drawing half an em tall may be a figure by its caption.

A GENETICS-template manuscript (batch 301) numbers its lines in the margin; under a figure
and its caption, the numbered lines of the column were taken for a numbered listing
captioned by the figure's caption, and read as a float. A caption that is already a
figure's captions no listing.

A handbook (batch 306) sets its heads ("Provide Soap") in 11-point bold over 12-point text,
nearly two sizes above the paragraph each opens: a smaller head was read only within a size
of its paragraph (unless numbered or in capitals), and drags left these out. A one-line
head in bold throughout, ending no sentence, may stand as far off as a numbered one.

A Japanese flyer (batch 310) letter-spaces its banded heads, "日 程 ・ 会 場", each character a
word of its own: read with spaces between them. Three single characters or more on a line,
their gaps alike and none glued to a character set tight beside it, are tracking; a Chinese
paper's authors padded to one width ("柴若楠 郜 帅 兰江雨") keep their spaces between names.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page, write_lines

from basehalf_core.documents.document import open_document

CJK = "china-s"
PARAGRAPH = "we farm the land with care and share the yield with every family"


def _chinese_heading(text: str):
    def draw(page) -> None:
        page.insert_text((60, 100), "这是第二段。", fontsize=10.5, fontname=CJK)
        page.insert_text((60, 130), "3", fontsize=14, fontname="hebo")
        page.insert_text((74, 130), "方法", fontsize=14, fontname=CJK)
        page.insert_text((60, 155), text, fontsize=10.5, fontname=CJK)

    return draw


def test_a_larger_chinese_heading_is_parted_from_latin_text_by_a_space(tmp_path):
    doc = one_page(tmp_path, _chinese_heading("Quisque ullamcorper placerat."))
    assert drag(doc, 0, "段", "Quisque") == "段。 3 方法 Quisque"


def test_chinese_text_under_a_chinese_heading_joins_it_without_a_space(tmp_path):
    # No space is written between two CJK characters, a heading's break between them or not.
    doc = one_page(tmp_path, _chinese_heading("本文采用可视化试验方法。"))
    assert drag(doc, 0, "段", "文") == "段。 3 方法本文"


def test_text_without_spaces_goes_on_in_the_next_column_without_one(tmp_path):
    def draw(page) -> None:
        for x, line in ((60, "喷雾锥角的测量结果是"), (320, "本文采用可视化试验法")):
            for k in range(6):
                page.insert_text((x, 100 + 14 * k), line * 2, fontsize=10.5, fontname=CJK)

    doc = one_page(tmp_path, draw)
    got = drag(doc, 0, "是", "本")
    assert " " not in got and got.startswith("是") and got.endswith("本"), got


def _cards(page) -> None:
    """A slide's two cards side by side: a tinted title bar over two lines of text, in a
    frame; under them a paragraph of running text."""
    texts = (
        (
            "Put your Business first",
            "Stand out among the attendees by showing",
            "your products and your material.",
        ),
        (
            "Recruitment Openings",
            "The conference has a history of bringing",
            "smart folks from many backgrounds.",
        ),
    )
    for x, (title, *lines) in zip((60, 320), texts, strict=True):
        page.draw_rect((x, 100, x + 230, 190), color=(0.6, 0.8, 0.8), width=1, radius=0.05)
        page.draw_rect((x, 100, x + 230, 125), color=None, fill=(0.7, 0.9, 0.9))
        page.insert_text((x + 20, 117), title, fontsize=12)
        for k, line in enumerate(lines):
            page.insert_text((x + 10, 150 + 14 * k), line, fontsize=10)
    write_lines(page, 60, 240, [12] * 6, PARAGRAPH.split(), size=10, lead=14)


def test_a_card_of_two_lines_under_its_title_bar_is_read_as_text(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _cards).words(0)}
    assert roles["attendees"] != "float" and roles["folks"] != "float", roles


PROGRAM = (
    "function COUNT(N)",
    "i <- 0",
    "while i < N do",
    "i <- i + 2",
    "end while",
    "assert i != 41",
)


def _program(page) -> None:
    """A left column of text; atop the right column a program in bold and oblique lines
    over its caption "Figure 1: Program described in [8]", then the right column's text."""
    write_lines(page, 60, 80, [9] * 30, PARAGRAPH.split(), size=10, lead=12)
    for k, line in enumerate(PROGRAM):
        font = "hebo" if k % 2 == 0 else "heit"
        page.insert_text((330 + 10 * (k % 2), 80 + 12 * k), line, fontsize=10, fontname=font)
    page.insert_text((370, 170), "Figure 1: Program described in [8]", fontsize=10, fontname="tiro")
    write_lines(page, 320, 200, [9] * 20, PARAGRAPH.split(), size=10, lead=12, start=3)


def test_the_caption_of_a_program_set_in_other_faces_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _program)
    words = doc.words(0)
    start = max((w for w in words if w.rect[0] < 300), key=lambda w: (w.rect[1], w.rect[0]))
    end = min(
        (w for w in words if w.rect[0] > 300 and w.rect[1] > 190),
        key=lambda w: (w.rect[1], w.rect[0]),
    )
    quote = doc.passage(0, doc.select_between(0, start.index, end.index)).quote
    assert quote.startswith(start.text) and quote.endswith(end.text), quote
    assert "Figure" not in quote and "COUNT" not in quote, quote


def _caption_in_two_faces(page) -> None:
    """A drawn figure atop a column; under it a caption whose label is a bold sans and its
    words the text's serif, going on on a second line; then the column's text."""
    page.draw_rect((60, 60, 290, 180), color=(0, 0, 0), fill=(0.8, 0.8, 0.9))
    page.draw_line((80, 170), (270, 80), color=(0.8, 0, 0), width=2)
    page.insert_text((60, 195), "Figure 1", fontsize=8.5, fontname="hebo")
    words = "Hierarchical clustering of the samples with the TSS"
    page.insert_text((97, 195), words, fontsize=8.5, fontname="tiro")
    page.insert_text((60, 205), "batch effect removed", fontsize=9, fontname="tiro")
    write_lines(page, 60, 230, [9] * 20, PARAGRAPH.split(), size=9, lead=11)


def test_a_caption_goes_on_in_the_face_of_its_words_not_of_its_label(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _caption_in_two_faces).words(0)}
    assert roles["Hierarchical"] == "float"
    assert roles["removed"] == "float", roles


def _drop_cap(page) -> None:
    """A lead of three short lines opened by a drop cap "L" two lines tall, its box set
    lower than the first line's; a column of text to its right."""
    page.insert_text((76, 404), "L", fontsize=36, fontname="tiro")
    page.insert_text((98, 373), "a santé et la", fontsize=11, fontname="tiro")
    page.insert_text((98, 395), "sécurité sont", fontsize=11, fontname="tiro")
    page.insert_text((98, 417), "essentielles en", fontsize=11, fontname="tiro")
    page.insert_text((81, 431), "gymnastique.", fontsize=11, fontname="tiro")
    write_lines(page, 214, 340, [4] * 12, PARAGRAPH.split(), size=11, lead=21.6)


def test_a_drop_cap_lower_than_its_first_line_opens_it(tmp_path):
    doc = one_page(tmp_path, _drop_cap)
    assert (
        drag(doc, 0, "santé", "gymnastique.")
        == "santé et la sécurité sont essentielles en gymnastique."
    )
    assert drag(doc, 0, "L", "santé") == "La santé"


def _slide_of_boxes(path):
    """A 16:9 slide: an intro over four filled boxes, each with a head on its top edge; the
    right box's head is set in one text object with the intro, so it comes out as the
    intro's last line."""
    doc = pymupdf.open()
    page = doc.new_page(width=1440, height=810)
    for x0, y0 in ((63, 237), (725, 239), (63, 531), (725, 537)):
        page.draw_rect(
            (x0, y0, x0 + 583, y0 + 254), color=(0.2, 0.4, 0.8), fill=(0.3, 0.6, 0.9), radius=0.1
        )
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("helv")
    intro = (
        "Good hackathon projects start with a strong idea that is interesting and new, but",
        "takes into consideration the limited time-frame and resources.",
    )
    writer.append((63, 150), intro[0], font=font, fontsize=30)
    writer.append((63, 187), intro[1], font=font, fontsize=30)
    writer.append((865, 248), "3. Focus on the problem", font=font, fontsize=30)
    writer.write_text(page)
    for x, y, head in (
        (234, 250, "1. Brainstorming"),
        (222, 546, "2. Narrow it down"),
        (907, 546, "4. Define it"),
    ):
        page.insert_text((x, y), head, fontsize=30)
    for k, (x, y) in enumerate(((106, 300), (785, 290), (109, 600), (782, 590))):
        for j in range(4):
            page.insert_text(
                (x, y + j * 30), f"item {k + 1} line {j + 1} of the box's list", fontsize=25
            )
    doc.save(path)
    return open_document(path)


def test_a_box_head_grouped_with_the_intro_over_it_is_read_with_its_box(tmp_path):
    doc = _slide_of_boxes(tmp_path / "slide.pdf")
    assert drag(doc, 0, "resources.", "Brainstorming") == "resources. 1. Brainstorming"


def _plot_over_a_column(page) -> None:
    """A plot atop the left column: a framed curve, tick labels under it, and its axis title
    "SNR(dB)" in the text's face and size; the column's text under it."""
    page.draw_rect((90, 80, 290, 200), color=(0, 0, 0), width=0.8)
    page.draw_polyline([(95, 190), (150, 150), (200, 120), (285, 90)], color=(0, 0, 1), width=1)
    for k, tick in enumerate(("0", "5", "10", "15", "20")):
        page.insert_text((88 + 48 * k, 212), tick, fontsize=8, fontname="helv")
    page.insert_text((170, 226), "SNR(dB)", fontsize=10, fontname="tiro")
    page.insert_text((60, 250), "Fig. 2. Accuracy of the classifier against the SNR.", fontsize=8)
    write_lines(page, 60, 280, [9] * 30, PARAGRAPH.split(), size=10, lead=12)


def test_an_axis_title_under_a_plots_tick_labels_is_the_plots(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _plot_over_a_column).words(0)}
    assert roles["SNR(dB)"] == "float", roles


def _bar_figure(page) -> None:
    """Atop the right column, a bar 8 points tall between its labels, and its caption under
    it; the left column's text and the right column's under the caption."""
    write_lines(page, 54, 80, [9] * 50, PARAGRAPH.split(), size=10, lead=12)
    page.insert_text((408, 80), "Target concept T", fontsize=7, fontname="helv")
    page.draw_rect((319, 82, 554, 90), color=(0, 0, 0), width=0.5)
    page.draw_rect((407, 82, 466, 90), color=(0, 0, 0), fill=(0, 0, 0))
    page.insert_text((318, 100), "0", fontsize=7, fontname="helv")
    page.insert_text((552, 100), "1", fontsize=7, fontname="helv")
    page.insert_text(
        (315, 125), "Figure 1: The target concept T is a subset of the concept S.", fontsize=9
    )
    write_lines(page, 315, 160, [9] * 40, PARAGRAPH.split(), size=10, lead=12, start=4)


def test_the_caption_of_a_bar_half_an_em_tall_is_the_bars(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _bar_figure).words(0)}
    assert roles["concept"] == roles["subset"] == "float", roles


def _numbered_column_under_a_figure(page) -> None:
    """A figure drawn across the page, its caption under it, and under that the left
    column's lines, each numbered in the margin in small print."""
    page.draw_rect((64, 48, 554, 270), color=(0, 0, 0), fill=(0.7, 0.8, 0.7))
    page.insert_text(
        (48, 294), "Figure 1 Phosphorus distribution for maize and sorghum samples", fontsize=8.5
    )
    for k in range(12):
        page.insert_text((34, 326 + 11 * k), str(k + 1), fontsize=4.5, fontname="helv")
    write_lines(page, 48, 326, [9] * 12, PARAGRAPH.split(), size=9, lead=11)


def test_margin_line_numbers_under_a_figures_caption_make_no_listing(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _numbered_column_under_a_figure).words(0)}
    assert roles["farm"] == roles["yield"] == "body", roles


def _handbook(page) -> None:
    """Paragraphs in 12 points, each under a head in 11-point bold nearly two sizes above it."""
    y = 120.0
    for k, head in enumerate(("Brush Teeth", "Provide Soap", "Remove Waste")):
        page.insert_text((72, y), head, fontsize=11, fontname="tibo")
        y = write_lines(
            page, 72, y + 36, [12] * 3, PARAGRAPH.split(), size=12, lead=18, start=4 * k
        )
        y += 28


def test_a_bold_head_smaller_than_the_text_two_sizes_over_its_paragraph_is_read(tmp_path):
    doc = one_page(tmp_path, _handbook)
    words = doc.words(0)
    head = next(w for w in words if w.text == "Provide")
    before = max((w for w in words if w.rect[3] < head.rect[1]), key=lambda w: w.index)
    after = min((w for w in words if w.rect[1] > head.rect[3]), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, before.index, after.index)).quote
    assert quote == f"{before.text} Provide Soap {after.text}", quote


def _letter_spaced(page) -> None:
    """A letter-spaced head, its characters 0.6 em apart, over a line of text; a line of
    authors, the two-character name padded to three characters' width."""
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("china-s")
    for k, ch in enumerate("参考文献"):
        writer.append((160 + 23 * k, 440), ch, font=font, fontsize=14)
    writer.write_text(page)
    page.insert_text((95, 470), "本文采用可视化试验方法。", fontsize=10, fontname=CJK)
    page.insert_text((95, 520), "柴若楠", fontsize=10, fontname=CJK)
    page.insert_text((135, 520), "郜", fontsize=10, fontname=CJK)
    page.insert_text((155, 520), "帅", fontsize=10, fontname=CJK)
    page.insert_text((175, 520), "兰江雨", fontsize=10, fontname=CJK)


def test_a_letter_spaced_cjk_head_reads_without_spaces_and_padded_names_with_them(tmp_path):
    doc = one_page(tmp_path, _letter_spaced)
    assert drag(doc, 0, "参", "献") == "参考文献"
    assert drag(doc, 0, "柴", "雨") == "柴若楠 郜帅 兰江雨"
