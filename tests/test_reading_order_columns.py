"""Columns set close together, and a column's last lines reaching into the page's foot.

Pages made with PyMuPDF in tmp_path, text written line by line across the columns (as some
layout programs write it), so MuPDF's own lines run across the gutters.
"""

from __future__ import annotations

import pymupdf
from conftest import drag

from basehalf_core.documents.document import open_document

WORDS = [
    "tax",
    "income",
    "form",
    "return",
    "treaty",
    "source",
    "wages",
    "trade",
    "business",
    "resident",
    "alien",
]


def _line(k: int, col: int) -> str:
    """Ragged right: lines 166 to 175 pt long in 175 pt columns 8 pt apart, so the gap to the
    next column is narrower than a wide space (one line to MuPDF) but never closed."""
    target = 175 - (k * 7 + col * 3) % 10
    out: list[str] = []
    j = k + col
    while True:
        word = WORDS[j % len(WORDS)]
        j += 1
        longer = " ".join([*out, word])
        if pymupdf.get_text_length(longer, fontname="helv", fontsize=9.5) > target:
            return " ".join(out)
        out.append(word)


def _three_columns(tmp_path, last_y: float):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    lefts = (42, 225, 408)
    rows = int((last_y - 40) // 11)
    for k in range(rows):
        for col, x in enumerate(lefts):
            text = _line(k, col)
            if (k, col) == (rows - 1, 0):
                text = "the sentence goes on"
            if (k, col) == (0, 1):
                text = "at the next column's top."
            # The left column's last two lines in another face (a list set in a bullet font):
            # a short block of their own.
            face = "tiro" if col == 0 and k >= rows - 2 else "helv"
            page.insert_text((x, 40 + 11 * k), text, fontsize=9.5, fontname=face)
    path = tmp_path / "columns.pdf"
    doc.save(path)
    return open_document(path)


def test_ragged_columns_a_few_points_apart_are_read_one_after_the_other(tmp_path):
    doc = _three_columns(tmp_path, 600)
    assert drag(doc, 0, "sentence", "top.") == "sentence goes on at the next column's top."


def test_a_column_reaching_into_the_page_foot_is_not_a_footer(tmp_path):
    doc = _three_columns(tmp_path, 760)  # the last rows sit in the bottom tenth of the page
    assert {w.role for w in doc.words(0)} == {"body"}
    assert drag(doc, 0, "sentence", "top.") == "sentence goes on at the next column's top."
