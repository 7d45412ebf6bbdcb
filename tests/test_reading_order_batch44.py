"""Rules found on batch 44 (résumés, brochures, posters, a newspaper; first measured 11/23).

A drag keeps the text set like its two ends: a caption, a table or a permission block
between them is set otherwise. A résumé's section heading ("AWARDS", 14 pt over 10 pt
items) stands outside any column of running text the heading rules know, and a drag from
one item into the next dropped it. A block of the running text's flow (or a framed box's)
of at most two lines, set at least 1.1 times the ends' size, with a word of two letters or
more, is read: not a figure's panel letter ("A"), not small print, not a caption.

A résumé sets its sidebar's text up to 5 points from the main column (Deedy's), under the
gap a column break needs, and the page was read row by row across both. A gap of at least
half the usual one that no block crosses is a gutter when each side holds ten lines of
text or more, in lines of twelve characters or more on average: a contents page's page
numbers, a table's figures or a listing's line numbers beside a narrow gap are no column.
Scan of 514 pages: 2 change (ACM's right column now read after the left one on a page
whose gutter a long URL narrowed; a table's figures, in their own order).

Measured over every case written so far (committed set and batches 30 to 45, 649 cases):
7 more read, 1 fewer (a newspaper whose other article's headline was read between one
article's columns, hidden until now by the style filter).

The résumé page is made with PyMuPDF in tmp_path; the panel letter is checked on words.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page, write_lines

from basehalf_core.documents.pages import Word
from basehalf_core.documents.selection import keep_running_text

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


SIDEBAR = "Highly motivated and independent problem solver who loves hard problems".split()  # noqa: SIM905
MAIN = "Building end to end features at planet scale on every level of the stack".split()  # noqa: SIM905


def _flush_line(page, x: float, y: float, words: list[str], right: float) -> None:
    """``words`` from ``x``, the last one moved out to end at ``right`` (a ragged line with
    a slightly wider last space, as a justified line)."""
    head = " ".join(words[:-1])
    page.insert_text((x, y), head, fontsize=SIZE)
    width = pymupdf.get_text_length(words[-1], fontsize=SIZE)
    page.insert_text((right - width, y), words[-1], fontsize=SIZE)


def _sidebar(page) -> None:
    """A sidebar: a paragraph of five lines set out to 4.6 points left of the main column,
    and seven short lines; the main column's twelve baselines 5 points under the
    sidebar's."""
    y = 100.0
    for k in range(12):
        left = [SIDEBAR[(k + j) % len(SIDEBAR)] for j in range(5)]
        if k < 5:
            _flush_line(page, 49.2, y, left, 224.9)
        else:
            page.insert_text((49.2, y), " ".join(left[:3]), fontsize=SIZE)
        right = " ".join(MAIN[(k + j) % len(MAIN)] for j in range(9))
        page.insert_text((229.5, y + 5), right, fontsize=SIZE)
        y += 12.0
    page.insert_text((49.2, y), "Query languages: SQL.", fontsize=SIZE)


def test_a_sidebar_set_close_to_the_main_column_is_read_before_it(tmp_path):
    doc = one_page(tmp_path, _sidebar)
    words = [w.text for w in doc.words(0)]
    # All of the sidebar, to its last line, before the main column's first word.
    assert words.index("SQL.") < words.index("Building"), words[:20]


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
    assert keep_running_text(words, [0, 1, 2]) == [0, 2]


def test_a_cjk_heading_set_larger_between_the_ends_is_read():
    """CJK is written a character a word: "赛题简介" (12 pt Hei between 10.5 pt Song) is a
    heading of four words of one character, not a panel letter."""
    words = [
        _word(0, "据。", "SimSun@10.5", 0),
        *(_word(k, ch, "SimHei@12.0", 1) for k, ch in enumerate("赛题简介", start=1)),
        _word(5, "由", "SimSun@10.5", 2),
    ]
    assert keep_running_text(words, list(range(6))) == list(range(6))
