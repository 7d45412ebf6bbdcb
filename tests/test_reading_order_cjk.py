"""Rules found on the fourth fresh batch (CJK pages), each checked on a page made for it.

The pages are made with PyMuPDF in tmp_path. Each shows one thing the batch's real pages showed
(MLIT's 2025 white paper): Japanese lines that break between kanji and digits, and two columns
of running text set on a tinted box that covers all of the page's text.
"""

from __future__ import annotations

import pymupdf

from basehalf_core.documents.document import open_document


def _drag(doc, i, first: str, last: str) -> str:
    """The passage of a drag from the first word ``first`` to the next word ``last``."""
    words = doc.words(i)
    a = next(w.index for w in words if w.text == first)
    b = next(w.index for w in words[a:] if w.text == last)
    return doc.passage(i, doc.select_between(i, a, b)).quote


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
    assert _drag(doc, 0, "宅", "。") == "宅配事業者の負担が増えており、2023年６月に会議で決まった。"
    assert _drag(doc, 0, "前", "た") == "前年（約10.4％）と比べて減った"


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
    assert _drag(doc, 0, "and", "column.") == (
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
