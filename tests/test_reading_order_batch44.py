"""Rules found on batch 44 (résumés, brochures, posters, a newspaper; first measured 11/23).

A drag keeps the text set like its two ends: a caption, a table or a permission block
between them is set otherwise. A résumé's section heading ("AWARDS", 14 pt over 10 pt
items) stands outside any column of running text the heading rules know, and a drag from
one item into the next dropped it. A block of the running text's flow (or a framed box's)
of at most two lines, set at least 1.1 times the ends' size, with a word of two letters or
more, is read: not a figure's panel letter ("A"), not small print, not a caption.

Measured over every case written so far (committed set and batches 30 to 45, 649 cases):
7 more read, 1 fewer (a newspaper whose other article's headline was read between one
article's columns, hidden until now by the style filter).

The résumé page is made with PyMuPDF in tmp_path; the panel letter is checked on words.
"""

from __future__ import annotations

from conftest import drag
from pagedraw import one_page, write_lines

from basehalf_core.documents.document import _keep_running_text
from basehalf_core.documents.pages import Word

SIZE = 10.0
LEFT = 60.0


PROSE = "the club ran a day for schools and the students built small rovers".split()  # noqa: SIM905


def _resume(page) -> None:
    """A résumé: a left column of prose in 9 pt Times (most of the page's text), and the
    right column's items in 10 pt Helvetica with the section heading "AWARDS" (14 pt bold)
    between two of them."""
    write_lines(page, LEFT, 80, [7] * 40, PROSE, size=9, lead=11)
    x = 330.0
    page.insert_text(
        (x, 100), "Mentored students at the robotics day.", fontsize=SIZE, fontname="helv"
    )
    page.insert_text((x, 130), "AWARDS", fontsize=14, fontname="hebo")
    page.insert_text((x, 150), "2019 Sports Club Colours Award", fontsize=SIZE, fontname="helv")


def test_a_heading_set_larger_between_two_items_is_read(tmp_path):
    doc = one_page(tmp_path, _resume)
    assert drag(doc, 0, "robotics", "Colours") == "robotics day. AWARDS 2019 Sports Club Colours"


def _word(k: int, text: str, style: str, block: int) -> Word:
    return Word(k, text, (0, 0, 1, 1), (0, 0, 0.1, 0.1), block, 0, style=style)


def test_a_figures_panel_letter_between_the_ends_is_left_out():
    """PNAS sets a figure's panel letter ("A", 13.5 pt sans) beside the drawing, in the
    running text's flow when no drawing frames it."""
    words = [
        _word(0, "time.", "Times@10.0", 0),
        _word(1, "A", "Helvetica@13.5", 1),
        _word(2, "Pseudoknots", "Times@10.0", 2),
    ]
    assert _keep_running_text(words, [0, 1, 2]) == [0, 2]
