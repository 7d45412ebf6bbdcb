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

A consultancy's slides (batch 317) set a title of two lines in 44 points over text in 17.5:
counting characters times size squared, the title covered the most of the slide, so the
text was under half "the text's size" and read as a figure's small print, and the two
tinted boxes holding a head and a line each made a figure whose labels were the lead and
the closing line. A size set in blocks of three lines at most, with a third of the
characters of the size after it (six points or more), is a title's. Three tinted cards side
by side, each a head over a line or two, were read heads first, as a row; boxes standing
level, each a card, are read each whole.

A US joint doctrine publication (batch 322) sets its executive summary's italic side heads,
of up to three lines, in a left margin two thirds as wide as its text: the side-head rule
wanted a margin at most 0.6 of the text's width and heads of two lines, so the margin was
read as a column before the text. A margin holding nothing but heads of up to three lines,
each level with a paragraph's first line and set in about the text's size, is a margin of
side heads however wide (not wider than the text); a title in display type beside a letter
(a prospectus's spread, batch 298) is none.

An eNeuro paper (batch 320) sets its list's "●" half an em before each item's first word,
with no space character between them in the text layer: PyMuPDF made one word of them
("●Pose"). A word opening with a list's mark (a symbol, or the bullet) is cut where its
glyphs stand a space apart, as a long word drawn without spaces is; a mark set tight
against its word stays on it.

A one-pager (batch 321) sets "THE CONCEPT" and "WHY IT WINS" in 9.5-point bold over its two
columns in 8.5, the right one a list whose lines stand 12 points in from its head: the heads
were read as a row before the columns. A head over its column's text may be a little larger
in bold or italic throughout (not 1.15 times), and may hang left of its text as far as over
a list.

A German brochure (batch 325) justifies its paragraphs in a letter-spaced face, its word
spaces 0.6 of its size: down a paragraph beside a sign's icon, the spaces after "Route" and
"nur" stood one under the other with the short lines' ends left of them, a white stripe no
word crossed, and the paragraph was cut into two columns at it. A narrow gutter is wider
than the word spaces of the line's part before it.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEFT, WORDS, block, one_page, write_lines

from basehalf_core.documents.text_blocks import text_size

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


def _slide_of_boxed_cards(page) -> None:
    """A 16:9 slide: a title of two lines in 44 points, a lead of two lines in 17.5, two
    tinted boxes side by side, each a head in 22-point bold over a line in 17.5, and a
    closing line."""
    page.insert_text((63, 200), "Digital change asks for more", fontsize=44, fontname="tibo")
    page.insert_text((63, 254), "than technology", fontsize=44, fontname="tibo")
    write_lines(page, 63, 320, [16, 9], WORDS, size=17.5, lead=29)
    for k, x in enumerate((63, 585)):
        page.draw_rect((x, 376, x + 505, 479), color=None, fill=(0.9, 0.87, 0.82))
        page.insert_text((x + 17, 414), ("Strategy", "Execution")[k], fontsize=22, fontname="tibo")
        line = ("Business goals and return aligned", "Delivery on time and on budget")[k]
        page.insert_text((x + 17, 453), line, fontsize=17.5, fontname="tiro")
    page.insert_text((63, 520), "Success needs both sides at once.", fontsize=17.5)


def _slide(tmp_path, draw):
    """A 16:9 slide that ``draw(page)`` drew."""
    return one_page(tmp_path, draw, size=(1152, 648))


def test_boxed_cards_side_by_side_under_a_large_title_are_read_card_by_card(tmp_path):
    doc = _slide(tmp_path, _slide_of_boxed_cards)
    quote = drag(doc, 0, "Business", "budget")
    assert quote == "Business goals and return aligned Execution Delivery on time and on budget"


def test_two_tinted_cards_and_the_lines_round_them_are_no_figure(tmp_path):
    doc = _slide(tmp_path, _slide_of_boxed_cards)
    roles = {w.text: w.role for w in doc.words(0)}
    # Under the title's two lines in 44 points, the text in 17.5 is no figure's small print
    # (the boxes' drawings made a figure whose labels were the lead and the closing line).
    assert {roles[t] for t in ("Strategy", "Business", "Delivery")} == {"box"}
    assert {roles[t] for t in ("Success", WORDS[0])} == {"body"}


@pytest.mark.parametrize(
    ("blocks", "size"),
    [
        # a slide's title of two lines in 44 points over 17.5-point text
        (
            [
                block(0, (63, 150, 1030, 270), "Lato@44.0", 2),
                block(1, (63, 300, 1050, 350), "Lato@17.5", 2),
                block(2, (63, 400, 900, 520), "Lato@17.5", 4),
            ],
            17.5,
        ),
        # a figure's 4.5-point labels under its 12-point title are no text
        (
            [
                block(0, (400, 100, 560, 150), "Noto@12.0", 3),
                block(1, (60, 100, 390, 700), "Noto@4.5", 15),
            ],
            12.0,
        ),
        # a paper's text outnumbers its title anyway
        (
            [
                block(0, (60, 80, 540, 120), "Times@17.0", 2),
                block(1, (60, 150, 290, 700), "Times@10.0", 50),
            ],
            10.0,
        ),
    ],
)
def test_the_texts_size_is_no_titles(blocks, size):
    assert text_size(blocks) == size


def _side_heads_in_a_wide_margin(page) -> None:
    """Paragraphs in a column from x 269 to 511, and italic side heads of one to three lines
    in a margin from 90 to 245, each level with a paragraph's first line."""
    y = 80
    for k, heads in enumerate(
        [[], ["Integrating cyber", "operations with other", "operations"], ["Operations forces"]]
    ):
        for n, head in enumerate(heads):
            page.insert_text((90, y + 13.5 * n), head, fontsize=12, fontname="tiit")
        y = write_lines(page, 269, y, [6] * 5, WORDS, size=12, lead=13.5, start=7 * k)
        page.insert_text(
            (269, y), f"and so on{'.' if k else ' to the end.'}", fontsize=12, fontname="tiro"
        )
        y += 40


def test_a_margin_of_side_heads_alone_is_read_head_before_paragraph(tmp_path):
    doc = one_page(tmp_path, _side_heads_in_a_wide_margin)
    quote = drag(doc, 0, "end.", WORDS[7])
    assert quote == f"end. Integrating cyber operations with other operations {WORDS[7]}"


def _title_beside_a_letter(page) -> None:
    """A title in 30 points, two lines and one, in the margin beside a letter's paragraphs."""
    page.insert_text((90, 100), "A letter", fontsize=30, fontname="tiro")
    page.insert_text((90, 132), "from the", fontsize=30, fontname="tiro")
    page.insert_text((90, 206), "director", fontsize=30, fontname="tiro")
    y = write_lines(page, 269, 80, [6] * 4, WORDS, size=12, lead=13.5)
    page.insert_text((269, y), "and so to the end.", fontsize=12, fontname="tiro")
    write_lines(page, 269, 200, [6] * 4, WORDS, size=12, lead=13.5, start=7)


def test_a_title_in_display_type_beside_a_letter_is_no_side_head(tmp_path):
    doc = one_page(tmp_path, _title_beside_a_letter)
    assert drag(doc, 0, "end.", WORDS[7]) == f"end. {WORDS[7]}"


def _bullets_glued_to_their_words(page) -> None:
    """Two list items, each a "●" a third of an em before its first word, no space
    character between them in the text layer; a third item set tight against its mark."""
    mark = 9.5  # the mark's box in the text layer: an em, wider than its advance
    for k, (gap, item) in enumerate(
        [(4.7, "Pose the question"), (3.0, "Count the cost"), (0.0, "Say it")]
    ):
        page.insert_text((60, 100 + 12 * k), "●", fontsize=9.5, fontname="china-s")
        page.insert_text((60 + mark + gap, 100 + 12 * k), item, fontsize=9.5, fontname="helv")


def test_a_list_mark_glued_to_its_word_but_set_apart_is_a_word_of_its_own(tmp_path):
    doc = one_page(tmp_path, _bullets_glued_to_their_words)
    assert [w.text for w in doc.words(0)][:3] == ["●", "Pose", "the"]
    assert drag(doc, 0, "●", "it") == "● Pose the question ● Count the cost ●Say it"


def _heads_a_size_over_their_columns(page) -> None:
    """Two columns under heads in 9.5-point bold capitals over 8.5-point text; the right
    column a list whose lines stand 12 points in (its bullets drawn), and under both a line
    across the page."""
    page.insert_text((47, 195), "THE CONCEPT", fontsize=9.5, fontname="hebo")
    page.insert_text((313, 195), "WHY IT WINS", fontsize=9.5, fontname="hebo")
    end = write_lines(page, 47, 210, [8] * 9, WORDS, size=8.5, lead=12, font="helv")
    page.insert_text((47, end), "and the text ends here.", fontsize=8.5, fontname="helv")
    for k in range(3):
        page.draw_circle((318, 207 + 24 * k), 1.5, fill=(0, 0, 0))
        write_lines(
            page, 325, 210 + 24 * k, [7, 5], WORDS, size=8.5, lead=12, start=9 * k, font="helv"
        )
    page.insert_text(
        (47, 360),
        "An established maker is what we seek, and we say so here, across the whole page.",
        fontsize=8.5,
    )


def test_heads_a_little_larger_in_bold_over_columns_are_read_with_their_columns(tmp_path):
    doc = one_page(tmp_path, _heads_a_size_over_their_columns)
    assert drag(doc, 0, "here.", WORDS[0]) == f"here. WHY IT WINS {WORDS[0]}"


def _spaces_aligned_down_a_paragraph(page) -> None:
    """A justified paragraph in 10.5 points, its word spaces 6.5 points (0.6 of its size, a
    letter-spaced face's): the spaces after "Route" and "nur" stand one under the other, the
    second and fourth lines end short of them."""

    def line(x: float, y: float, words: list[str]) -> float:
        for word in words:
            page.insert_text((x, y), word, fontsize=10.5, fontname="tiro")
            x += pymupdf.get_text_length(word, fontsize=10.5, fontname="tiro") + 6.5
        return x - 6.5

    first = ["Choose", "your", "own", "Route"]
    edge = line(76, 700, first)
    line(edge + 6.5, 700, ["and", "follow", "the", "signs", "like"])
    line(76, 714, ["this."])
    head = ["Some", "paths", "are", "only"]
    width = sum(pymupdf.get_text_length(w, fontsize=10.5, fontname="tiro") for w in head)
    line(edge - width - 6.5 * 3, 728, head)
    line(edge + 6.5, 728, ["for", "riders", "and", "others"])
    line(76, 742, ["they", "share", "the", "way."])


def test_word_spaces_standing_one_under_another_make_no_gutter(tmp_path):
    doc = one_page(tmp_path, _spaces_aligned_down_a_paragraph)
    assert drag(doc, 0, "Choose", "way.") == (
        "Choose your own Route and follow the signs like this. Some paths are only for "
        "riders and others they share the way."
    )
