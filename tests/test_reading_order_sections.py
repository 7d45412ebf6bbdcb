"""Sections of balanced columns, found on batches 32, 36 and 39 (glossaries and dictionaries).

A glossary sets each letter's entries in two columns balanced under the letter, and the next
letter starts under both columns; it is read section by section. Two ways of setting the
letter were read as a paper's columns:

- centred between the columns ("G" in the gutter): narrower than the gutter, it split it
  into two gaps, and the letters were read as a narrow column of their own;
- flush left in the left column ("H" over "haema"), set larger, alone in its row: the
  columns ran the page's height, each letter's entries read after the whole left column.

Scan of 514 pages (``bench/reading_order_scan.py``): 0 change. The pages here are made with
PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import one_page, write_lines

SIZE, LEAD = 10.0, 12.0
LEFT, RIGHT, WIDTH = 72, 320, 220
LETTER = 14.5

# Each section: its letter, and the words of its entries, half in each column.
SECTIONS = [
    ("F", ["fable", "fathom", "feral", "fiasco", "flagon", "forage", "fulcrum", "furtive"]),
    ("G", ["gamut", "gallant", "garner", "gauche", "genial", "gibbet", "glean", "gourd"]),
    ("H", ["haggle", "halcyon", "harbinger", "hector", "heresy", "hubris", "humdrum", "hymnal"]),
]


def _glossary(letter_x):
    """A glossary page: per section the letter at ``letter_x(width)``, then two columns of
    four one-word lines each, level at top and foot."""

    def draw(page) -> None:
        y = 80.0
        for letter, words in SECTIONS:
            width = pymupdf.get_text_length(letter, fontname="helv", fontsize=LETTER)
            page.insert_text((letter_x(width), y), letter, fontsize=LETTER, fontname="helv")
            y += 2.5 * LEAD
            write_lines(page, LEFT, y, [1] * 4, words[:4], size=SIZE, lead=LEAD)
            write_lines(page, RIGHT, y, [1] * 4, words[4:], size=SIZE, lead=LEAD)
            y += 4 * LEAD + 1.5 * LEAD

    return draw


def _centred_in_gutter(width: float) -> float:
    middle = (LEFT + WIDTH + RIGHT) / 2
    return middle - width / 2


def _flush_left(width: float) -> float:
    return LEFT + 12


@pytest.mark.parametrize("letter_x", [_centred_in_gutter, _flush_left], ids=["centred", "left"])
def test_a_glossary_is_read_letter_by_letter(tmp_path, letter_x):
    doc = one_page(tmp_path, _glossary(letter_x))
    assert drag(doc, 0, "forage", "gallant") == "forage fulcrum furtive G gamut gallant"
    assert drag(doc, 0, "glean", "halcyon") == "glean gourd H haggle halcyon"


def _paper_with_one_lone_heading(page) -> None:
    """Two columns of running text; the left column's "Conclusion" heading stands alone in
    its row because the right column has a gap between a caption and its next paragraph
    there, level with it."""
    words = [
        "the",
        "model",
        "reads",
        "the",
        "page",
        "as",
        "a",
        "learner",
        "would",
        "and",
        "keeps",
        "its",
        "order",
    ]
    y = write_lines(page, LEFT, 80, [6] * 10, words, size=SIZE, lead=LEAD)
    write_lines(page, RIGHT, 80, [6] * 9, words, size=SIZE, lead=LEAD, start=3)
    page.insert_text((RIGHT, 80 + 9 * LEAD), "Table 2: ablation", fontsize=SIZE)
    page.insert_text((LEFT, y + LEAD), "Conclusion", fontsize=LETTER, fontname="helv")
    y += 2.5 * LEAD
    write_lines(page, LEFT, y, [6] * 10, words, size=SIZE, lead=LEAD, start=5)
    write_lines(page, RIGHT, y, [6] * 10, words, size=SIZE, lead=LEAD, start=7)


def test_one_heading_alone_in_its_row_leaves_a_paper_read_column_by_column(tmp_path):
    doc = one_page(tmp_path, _paper_with_one_lone_heading)
    sides = ["left" if w.rect[0] < RIGHT - 10 else "right" for w in doc.words(0)]
    # The left column, heading and all, is read before any word of the right column.
    assert sides == sorted(sides), sides
