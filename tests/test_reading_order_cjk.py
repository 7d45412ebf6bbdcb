"""Rules found on the fourth fresh batch (CJK pages), each checked on a page made for it.

The pages are made with PyMuPDF in tmp_path. Each shows one thing the batch's real pages showed
(MLIT's 2025 white paper): Japanese lines that break between kanji and digits, and two columns
of running text set on a tinted box that covers all of the page's text.
"""

from __future__ import annotations

import pymupdf
from conftest import drag

from basehalf_core.documents.document import open_document


def test_japanese_lines_that_break_between_kanji_and_digits_join_without_a_space(tmp_path):
    # Japanese breaks a line anywhere, also between "2023" and "年" or "約" and "10.4":
    # a person reads no space there, whichever side the digits are on.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    lines = [
        "宅配事業者の負担が増えており、2023",
        "年６月に会議で決まった。前年（約",
        "10.4％）と比べて減った。",
    ]
    for k, line in enumerate(lines):
        page.insert_text((60, 100 + 14 * k), line, fontsize=9, fontname="japan")
    path = tmp_path / "ja.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "宅", "。") == "宅配事業者の負担が増えており、2023年６月に会議で決まった。"
    assert drag(doc, 0, "前", "た") == "前年（約10.4％）と比べて減った"


def test_columns_on_a_tint_under_all_of_the_pages_text_are_read_column_by_column(tmp_path):
    # The whole text sits on one filled box (an interview set on a tint; under half the page,
    # so not a page background by size). The box is the text's background, not a sidebar, so
    # its two columns are read left then right, even though the file writes the right column
    # before the left column's last paragraph.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.draw_rect((50, 60, 570, 500), color=None, fill=(0.85, 0.92, 1.0))
    for k in range(10):
        page.insert_text((60, 100 + 12 * k), f"Left column line {k} of the text.", fontsize=10)
    page.insert_text((320, 100), "the top of the right column.", fontsize=10)
    for k in range(30):
        page.insert_text((320, 112 + 12 * k), f"Right column line {k} here.", fontsize=10)
    for k in range(10):
        page.insert_text((60, 260 + 12 * k), f"Second paragraph line {k} of it.", fontsize=10)
    page.insert_text((60, 380), "and the sentence goes on at", fontsize=10)
    path = tmp_path / "tint.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "and", "column.") == (
        "and the sentence goes on at the top of the right column."
    )
    assert {w.role for w in doc.words(0) if w.text == "Right"} == {"body"}


def test_a_tinted_sidebar_beside_running_text_is_still_a_box(tmp_path):
    # The counter-case: running text outside the tint makes the tint a sidebar again.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k in range(30):
        page.insert_text((60, 100 + 12 * k), f"Left column line {k} of the text.", fontsize=10)
    page.draw_rect((310, 90, 572, 300), color=None, fill=(0.85, 0.92, 1.0))
    for k in range(10):
        page.insert_text((320, 110 + 12 * k), f"Sidebar line {k} here.", fontsize=10)
    path = tmp_path / "sidebar.pdf"
    doc.save(path)
    doc = open_document(path)
    assert {w.role for w in doc.words(0) if w.text == "Sidebar"} == {"box"}
    assert {w.role for w in doc.words(0) if w.text == "Left"} == {"body"}


def _vertical_page(tmp_path, columns: list[tuple[float, float, str]], rule_at: float) -> object:
    """A page set vertically, one character at a time (as MuPDF gives such pages): each column
    ``(x, top, text)`` top down, 8-pt characters stacked with no gap; a rule across at
    ``rule_at``. The file writes the columns left to right, against their reading order."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for x, top, text in sorted(columns):
        for k, ch in enumerate(text):
            if ch != "　":
                page.insert_text((x, top + 8 * (k + 1) - 1), ch, fontsize=8, fontname="japan")
    page.draw_line((40, rule_at), (560, rule_at))
    path = tmp_path / "tategaki.pdf"
    doc.save(path)
    return open_document(path)


def test_vertical_writing_reads_down_the_columns_right_to_left_and_tier_by_tier(tmp_path):
    # The Official Gazette sets laws vertically: each column top down, the columns right to
    # left, the upper tier before the lower one (a rule between them). A lower column starting
    # a character's height under the rule still starts a column of its own, while a full-width
    # space inside a column reads as a space.
    upper = [
        (500, 70, "内閣は、道路交通法の一部を改正する法律に基づき"),
        (489, 70, "この政令を制定する。"),
        (60, 70, "第十三条中第一号の五を第一号の六とし、"),
        (49, 352, "次の一号を加える。"),  # ends a hair above the rule
    ]
    lower = [
        (500, 432, "一の五　医療機関が、傷病者の搬送をしようとする"),
        (489, 432, "都道府県の要請を受けて使用する自動車"),
        (49, 432, "第十六条中第二号を削る。"),
    ]
    doc = _vertical_page(tmp_path, upper + lower, 425)
    assert (
        drag(doc, 0, "内", "。")
        == "内閣は、道路交通法の一部を改正する法律に基づきこの政令を制定する。"
    )
    assert drag(doc, 0, "第", "て") == (
        "第十三条中第一号の五を第一号の六とし、次の一号を加える。"
        "一の五 医療機関が、傷病者の搬送をしようとする都道府県の要請を受けて"
    )
    # The lower tier's last column starts one advance under the upper tier's last column,
    # but across the rule: it is read last, not straight after the column above it.
    assert drag(doc, 0, "加", "一") == "加える。一"


def test_japanese_set_across_is_not_taken_for_vertical_writing(tmp_path):
    # The counter-case: lines set across, a line's space apart, stay lines.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for k in range(30):
        page.insert_text(
            (60, 100 + 14 * k), f"第{k}行の文章はここで終わる。", fontsize=9, fontname="japan"
        )
    path = tmp_path / "yokogaki.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "文", "。") == "文章はここで終わる。"


def test_japanese_set_across_and_turned_a_quarter_is_not_vertical_writing(tmp_path):
    # A landscape table turned on a portrait page: its characters stack too, but running up
    # the page; they are lines set across, read as they run.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for k in range(30):
        line = f"第{k}行の文章はここで終わる。"
        page.insert_text((60 + 14 * k, 700), line, fontsize=9, fontname="japan", rotate=90)
    path = tmp_path / "turned.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "文", "。") == "文章はここで終わる。"
