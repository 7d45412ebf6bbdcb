"""Rules found in the session of batches 311 onwards (the helpers' ro318 and later).

An MNRAS paper (batch 313) sets its abstract full width in 10 points and its columns in 9,
so on its first page the abstract makes the page's text size and the columns under it are
small print in the page's lower half. "1 INTRODUCTION", set in 9-point bold over the left
column, opens with a number, and was taken for a footnote's marker: the heading and the
column under it were left out of a drag from the abstract into the column. A numbered
heading (bold or italic, or ending in capitals) of a line or two, ending no sentence, is no
note.
"""

from __future__ import annotations

from conftest import drag
from pagedraw import LEFT, WORDS, one_page, write_lines

ABSTRACT_LINES = 30


def _abstract_over_smaller_columns(page) -> None:
    """A full-width abstract in 10 points, then two columns in 9 from the page's lower half,
    the left one under "1 INTRODUCTION" in 9-point bold."""
    y = write_lines(page, LEFT, 190, [14] * ABSTRACT_LINES, WORDS, size=10, lead=12)
    page.insert_text((LEFT, y), "Closing words.", fontsize=10, fontname="tiro")
    top = y + 20
    # TeX sets the number and the title as two pieces, an em apart.
    page.insert_text((LEFT, top), "1", fontsize=9, fontname="tibo")
    page.insert_text((LEFT + 14, top), "INTRODUCTION", fontsize=9, fontname="tibo")
    write_lines(page, LEFT, top + 26, [8] * 10, WORDS, size=9, lead=11, start=3)
    page.insert_text((310, top), "As the", fontsize=9, fontname="tiro")
    write_lines(page, 340, top, [6], WORDS, size=9, lead=11, start=5)
    write_lines(page, 310, top + 11, [8] * 10, WORDS, size=9, lead=11, start=11)


def test_a_small_numbered_heading_under_a_larger_abstract_is_no_footnote(tmp_path):
    doc = one_page(tmp_path, _abstract_over_smaller_columns)
    first = WORDS[3]
    assert drag(doc, 0, "Closing", first) == f"Closing words. 1 INTRODUCTION {first}"
