"""Rules found in the session of batches 311 onwards (the helpers' ro318 and later).

An MNRAS paper (batch 313) sets its abstract full width in 10 points and its columns in 9,
so on its first page the abstract makes the page's text size and the columns under it are
small print in the page's lower half. "1 INTRODUCTION", set in 9-point bold over the left
column, opens with a number, and was taken for a footnote's marker: the heading and the
column under it were left out of a drag from the abstract into the column. A numbered
heading (bold or italic, or ending in capitals) of a line or two, ending no sentence, is no
note.

A Japanese flyer (batch 314) sets four cards two by two, each a numbered head ("①") in 11
points over three lines in 8.5, in a rounded frame of its own, under a lead in 10.5: the
frames' drawings clustered into one region holding no paragraph of four lines, and the cards
were read as a figure, their heads left out of drags from card to card. Cards drawn round,
each a short paragraph under at most one head, set down to three quarters of the text's
size, are text. Read as two columns, card ③ came before ②: a grid whose cards are numbered
across its rows is read row by row also when its cards are frames (their numbers are their
first words, circled ones too), under a lead across the page and over a box under the grid.
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


def _card_grid(page) -> None:
    """A lead across the page over four cards two by two, each a numbered head in 11 points
    over three lines in 8.5 in a frame of its own, and a line under the grid."""
    page.insert_text((LEFT, 90), "Why measure speed", fontsize=16, fontname="tiro")
    end = write_lines(page, LEFT, 115, [16] * 7, WORDS, size=10.5, lead=13)
    page.insert_text((LEFT, end), "and the scheme ends.", fontsize=10.5, fontname="tiro")
    for k, (x, y) in enumerate([(54, 250), (315, 250), (54, 360), (315, 360)]):
        page.draw_rect((x - 10, y - 20, x + 220, y + 60), color=(0.6, 0.6, 0.6))
        head = f"{'①②③④'[k]} Card {'ABCD'[k]} head"
        page.insert_text((x, y), head, fontsize=11, fontname="china-s")
        end = write_lines(page, x, y + 18, [11, 11], WORDS, size=8.5, lead=11, start=4 * k)
        last = f"it ends {'ABCD'[k].lower()}here."
        page.insert_text((x, end), last, fontsize=8.5, fontname="tiro")
    page.insert_text((LEFT, 470), "Entry is free for every learner.", fontsize=12, fontname="tiro")


def test_cards_two_by_two_in_frames_of_their_own_are_text_read_by_their_numbers(tmp_path):
    doc = one_page(tmp_path, _card_grid)
    # The cards' text, smaller than the lead's, is running text under its heads (a figure's
    # labels lost their heads from a drag), and the cards, numbered across the rows (① ②
    # over ③ ④), are read row by row.
    assert drag(doc, 0, "ahere.", "bhere.").startswith("ahere. ② Card B head the")
    assert drag(doc, 0, "bhere.", "chere.").startswith("bhere. ③ Card C head")
