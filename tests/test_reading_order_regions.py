"""Figures, tables and boxed sidebars found from a page's drawings, not from the text's style.

Each page here is made with PyMuPDF in tmp_path: two columns of running text, and between the
foot of the left column and the text of the right one a figure with its caption, a ruled
table or a shaded sidebar, all set in the running text's own font and size (so nothing in the
style tells them apart). A drag from running text to running text must read past them; a drag
that starts in them keeps them.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag

from basehalf_core.documents.captions import CAPTION_LABEL
from basehalf_core.documents.document import open_document

LEFT = [
    "Running text fills the left column of this page",
    "and its last sentence goes on at the top of",
]
RIGHT = ["the right column after what stands between.", "More running text follows it here."]


def _page(tmp_path, between) -> tuple:
    """A two-column page; ``between(page)`` draws what sits at the top of the right column
    and returns the y where the right column's text starts."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 400
    for line in [*(f"Filler line number {k} of the left column text." for k in range(20)), *LEFT]:
        page.insert_text((60, y), line, fontsize=10, fontname="helv")
        y += 12
    y = between(page)
    for line in [*RIGHT, *(f"Filler line number {k} of the right column text." for k in range(6))]:
        page.insert_text((320, y), line, fontsize=10, fontname="helv")
        y += 12
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path), 0


def _figure(page) -> float:
    page.draw_rect((330, 80, 540, 200), color=(0, 0, 0), fill=(0.2, 0.4, 0.8), width=1)
    page.draw_line((340, 190), (530, 100), color=(1, 0, 0), width=2)
    page.insert_text((330, 216), "Figure 1: A caption set in the body's font.", fontsize=10)
    return 250


def _table(page) -> float:
    rows = ["Source articles", "Basic clusters", "Patterns (token)", "Patterns (type)"]
    for k, label in enumerate([*rows, "Metaclusters", "Tables kept"]):
        page.insert_text((335, 92 + 14 * k), label, fontsize=10, fontname="helv")
        page.insert_text((470, 92 + 14 * k), f"{1000 + 37 * k:,}", fontsize=10, fontname="helv")
    for k in range(7):
        page.draw_line((330, 80 + 14 * k), (540, 80 + 14 * k), width=0.5)
    for x in (330, 460, 540):
        page.draw_line((x, 80), (x, 164), width=0.5)
    page.insert_text((350, 180), "Table 2: Articles and the tables made.", fontsize=10)
    return 220


def _sidebar(page) -> float:
    page.draw_rect((320, 70, 560, 170), color=None, fill=(0.88, 0.88, 0.88))
    page.insert_text((330, 90), "In brief", fontsize=10, fontname="helv")
    for k, line in enumerate(["A boxed note in the body's own", "font, read apart from the text."]):
        page.insert_text((330, 104 + 12 * k), line, fontsize=10, fontname="helv")
    return 200


WANT = "and its last sentence goes on at the top of the right column after what stands between."


@pytest.mark.parametrize("between", [_figure, _table, _sidebar], ids=["figure", "table", "box"])
def test_a_drag_between_running_text_reads_past_it(tmp_path, between):
    doc, i = _page(tmp_path, between)
    assert drag(doc, i, "and", "between.") == WANT


def _banner(page) -> float:
    page.draw_rect((320, 70, 560, 92), color=None, fill=(0.1, 0.2, 0.5))
    page.insert_text((330, 86), "Club news", fontsize=14, fontname="helv", color=(1, 1, 1))
    return 110


def _banner_over_box(page) -> float:
    page.draw_rect((320, 70, 560, 92), color=None, fill=(0.1, 0.2, 0.5))
    page.insert_text((330, 86), "In brief", fontsize=14, fontname="helv", color=(1, 1, 1))
    page.draw_rect((320, 92, 560, 170), color=None, fill=(0.88, 0.88, 0.88))
    for k, line in enumerate(["A boxed note in the body's own", "font, read apart from the text."]):
        page.insert_text((330, 108 + 12 * k), line, fontsize=10, fontname="helv")
    return 200


def _placeholder(page) -> float:
    page.draw_rect((320, 70, 560, 190), color=None, fill=(0.6, 0.6, 0.6))
    page.insert_text((400, 140), "Image", fontsize=24, fontname="helv")
    return 220


def test_a_heading_on_a_banner_is_read_in_the_flow(tmp_path):
    """A newsletter's heading set on a filled band is no boxed sidebar (``regions._banner``)."""
    doc, i = _page(tmp_path, _banner)
    assert drag(doc, i, "and", "between.") == WANT.replace("of the right", "of Club news the right")


@pytest.mark.parametrize(
    "between", [_banner_over_box, _placeholder], ids=["band-over-box", "placeholder"]
)
def test_a_band_over_a_box_or_a_word_in_a_picture_stays_out(tmp_path, between):
    """The band over a sidebar heads the sidebar; a large word in a picture is no banner."""
    doc, i = _page(tmp_path, between)
    assert drag(doc, i, "and", "between.") == WANT


def test_a_poster_column_head_on_a_band_is_read_with_its_column(tmp_path):
    """A poster's column heads sit on bands over the columns' shaded boxes: each is read at
    the top of its column, not as a band across the page (``Block.banner``)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((120, 40), "Simulating binary systems", fontsize=24, fontname="helv")
    for x, head in ((40, "Methods"), (320, "Results")):
        page.draw_rect((x, 60, x + 250, 84), color=None, fill=(0.1, 0.4, 0.2))
        page.insert_text((x + 80, 78), head, fontsize=14, fontname="helv", color=(1, 1, 1))
        page.draw_rect((x, 84, x + 250, 700), color=None, fill=(0.9, 0.95, 0.9))
        for k in range(40):
            line = f"{head} line {k} of the column text, which runs on."
            page.insert_text((x + 8, 104 + 14 * k), line, fontsize=9)
    path = tmp_path / "poster.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "39", "1") == (
        "39 of the column text, which runs on. Results Results line 0 of the column text, "
        "which runs on. Results line 1"
    )


def test_a_drag_that_starts_in_a_caption_keeps_it(tmp_path):
    doc, i = _page(tmp_path, _figure)
    assert drag(doc, i, "Figure", "right") == (
        "Figure 1: A caption set in the body's font. the right"
    )


def test_a_drag_inside_a_box_reads_the_box(tmp_path):
    doc, i = _page(tmp_path, _sidebar)
    assert drag(doc, i, "In", "text.") == (
        "In brief A boxed note in the body's own font, read apart from the text."
    )


def test_a_frame_around_running_text_is_no_figure(tmp_path):
    def framed(page) -> float:
        page.draw_rect((50, 380, 300, 680), color=(0, 0, 0), width=0.8)
        return 80

    doc, i = _page(tmp_path, framed)
    assert drag(doc, i, "and", "between.") == WANT
    words = doc.words(i)
    assert {w.role for w in words} == {"body"}


@pytest.mark.parametrize(
    ("line", "caption"),
    [
        ("Figure 3: Results.", True),
        ("Fig. 2. The set-up", True),
        ("TABLE II", True),
        ("Table 1 | Sizes", True),
        ("图 1：结构", True),  # a full-width colon closes a CJK label
        ("図1: 本実験の生成画像", True),
        ("그림 2. 구조", True),
        ("(그림 1) 초음파 센서(HC-SR04) 측정 원리", True),  # a Korean label in brackets
        ("(Table 2) gives the sizes", False),
        ("図2 学習に伴う性能指標の推移", True),  # a CJK title after a space
        ("그림 1 이더리움 기반 투표시스템 구조", True),
        ("図 2 に示す結果である", False),  # a particle: running text
        ("图 2 给出了喷雾锥角随时间的变化，", False),  # a sentence's comma: running text
        ("Table 1 summarises the extensions", False),
        ("Figures show the trend", False),
        ("Figure 3 shows the trend", False),
    ],
)
def test_a_caption_opens_with_its_label_number_and_punctuation(line, caption):
    assert bool(CAPTION_LABEL.match(line)) is caption


def _journal(tmp_path, pages: int):
    """Pages of two columns with a footer line under the left column, 88% down the page
    (above the band where footers are looked for by position alone), its issue number varying."""
    doc = pymupdf.open()
    for n in range(pages):
        page = doc.new_page(width=612, height=792)
        y = 420
        for k in range(20):
            page.insert_text((60, y), f"Left column line {k} of page {n + 1} text.", fontsize=10)
            y += 12
        page.insert_text((60, y), "and the sentence goes on", fontsize=10)
        page.insert_text((60, 700), f"Journal of Made-up Studies 12 ({n + 3}) 2026", fontsize=10)
        page.insert_text((320, 80), "at the top of the right column.", fontsize=10)
        for k in range(20):
            page.insert_text((320, 92 + 12 * k), f"Right column line {k} goes here.", fontsize=10)
    path = tmp_path / f"journal{pages}.pdf"
    doc.save(path)
    return open_document(path)


def test_a_footer_repeated_across_pages_is_left_out_wherever_it_sits(tmp_path):
    doc = _journal(tmp_path, 4)
    for i in range(4):
        journal = [w for w in doc.words(i) if w.text == "Journal"]
        assert [w.role for w in journal] == ["footer"]
        assert drag(doc, i, "and", "column.") == (
            "and the sentence goes on at the top of the right column."
        )


def test_the_same_line_on_a_single_page_is_not_taken_for_a_footer(tmp_path):
    doc = _journal(tmp_path, 1)
    assert [w.role for w in doc.words(0) if w.text == "Journal"] == ["body"]
    # Set like the text and under its column, nothing else tells the line apart.
    assert "Journal of Made-up Studies" in drag(doc, 0, "and", "column.")
