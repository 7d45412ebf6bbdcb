"""Rules found on the fresh batch of real pages, each checked on a page made for it.

The pages are made with PyMuPDF in tmp_path (or given as blocks to ``order_blocks``); each shows
one thing that the fresh batch's real pages showed: a plotting tool's invisible frame, print so
small it can only be a figure's contents, an unmarked permission block at a column's foot, a
title and author rows above two columns, a section heading between two paragraphs, a column's
last line reaching into the foot band, and a line that goes on in inline math.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag

from basehalf_core.documents.document import open_document
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.text_blocks import Block


def _b(id_, box, size=9.0, style="Serif@9.0", lines=5, chars=300, first="A") -> Block:
    return Block(id_, box, (1.0, 0.0), size, chars, lines, first, style)


def _two_columns(tmp_path, draw_right) -> pymupdf.Document:
    """Left column ending "...goes on at"; ``draw_right(page)`` writes the right column."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    left = [f"Left column line {k} of the running text." for k in range(20)]
    for k, line in enumerate([*left, "and the sentence goes on at"]):
        page.insert_text((60, 420 + 12 * k), line, fontsize=10)
    draw_right(page)
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path)


def _right_column(page, top: float) -> None:
    """The right column from ``top`` down, opening with "the top of the right column."."""
    page.insert_text((320, top), "the top of the right column.", fontsize=10)
    for k in range(20):
        page.insert_text((320, top + 12 + 12 * k), f"Right column line {k} here.", fontsize=10)


def test_an_invisible_frame_neither_boxes_nor_frames_the_text(tmp_path):
    # A figure with its caption at the top of the right column, and over the whole column a
    # rectangle painted at opacity 0 (as plotting tools leave them): the running text under it
    # is still running text, so a drag from text to text leaves the caption out.
    def right(page):
        page.draw_rect((330, 70, 540, 170), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
        page.insert_text((330, 186), "Figure 1: A caption.", fontsize=10)
        page.draw_rect((300, 60, 580, 700), color=None, fill=(0, 0, 0), fill_opacity=0)
        _right_column(page, 220)

    doc = _two_columns(tmp_path, right)
    assert drag(doc, 0, "and", "column.") == (
        "and the sentence goes on at the top of the right column."
    )
    assert {w.role for w in doc.words(0) if w.text == "Right"} == {"body"}


def test_print_far_smaller_than_the_text_is_a_figures_contents():
    # A figure showing document pages in 2-point print holds more characters than the page's
    # running text; it must not make 2 pt the page's text size (nor hide the footnote).
    blocks = [
        _b("L", (50, 80, 290, 600)),
        _b("R", (320, 80, 560, 600)),
        *(
            _b(f"tiny{k}", (330, 620 + 8 * k, 550, 626 + 8 * k), 2.0, "Sans@2.0", 3, 900)
            for k in range(5)
        ),
        _b("note", (50, 640, 290, 660), 7.0, "Serif@7.0", 2, 80, "1"),
    ]
    roles = dict(order_blocks(blocks, 792))
    assert {roles[f"tiny{k}"] for k in range(5)} == {"float"}
    assert roles["note"] == "footnote"
    assert roles["L"] == roles["R"] == "body"


def test_an_unmarked_small_print_block_at_a_columns_foot_is_a_foot_block():
    # ACM's permission block: 7 pt under 9 pt text, no marker, a gap above it.
    blocks = [
        _b("L", (50, 80, 290, 600)),
        _b("permission", (50, 630, 290, 680), 7.0, "Serif@7.0", 6, 400, "P"),
        _b("conference", (50, 682, 290, 690), 7.0, "SerifItalic@7.0", 1, 60, "K"),
        _b("R", (320, 80, 560, 700)),
    ]
    order = order_blocks(blocks, 792)
    roles = dict(order)
    assert roles["permission"] == roles["conference"] == "footnote"
    # Read after the column it sits under; a drag from text to text leaves footnotes out.
    assert [i for i, _ in order] == ["L", "permission", "conference", "R"]


def test_small_print_that_follows_on_from_the_text_stays_text():
    # The same small print a line's space under the text (a smaller quotation, a list set
    # tighter) is not a foot block.
    blocks = [
        _b("L", (50, 80, 290, 600)),
        _b("small", (50, 603, 290, 680), 7.0, "Serif@7.0", 8, 400, "P"),
        _b("R", (320, 80, 560, 700)),
    ]
    assert dict(order_blocks(blocks, 792))["small"] == "body"


def test_a_title_and_author_rows_are_read_before_the_columns():
    blocks = [
        _b("title", (100, 60, 500, 80), 16.0, "Sans@16.0", 1, 60),
        _b("author1", (100, 100, 200, 112), 12.0, "Serif@12.0", 1, 20),
        _b("author2", (350, 100, 450, 112), 12.0, "Serif@12.0", 1, 20),
        _b("L", (50, 140, 290, 700)),
        _b("R", (320, 140, 560, 700)),
    ]
    assert [i for i, _ in order_blocks(blocks, 792)] == ["title", "author1", "author2", "L", "R"]


@pytest.mark.parametrize(
    ("size", "font"),
    [(11, "hebo"), (9.5, "tiro")],
    ids=["bold, larger", "small capitals, a little smaller"],
)
def test_a_section_heading_between_two_paragraphs_is_read_with_them(tmp_path, size, font):
    def right(page):
        page.insert_text((320, 80), "2 Related Work", fontsize=size, fontname=font)
        _right_column(page, 100)

    doc = _two_columns(tmp_path, right)
    assert drag(doc, 0, "and", "column.") == (
        "and the sentence goes on at 2 Related Work the top of the right column."
    )


def test_a_headline_across_the_columns_keeps_its_own_style():
    blocks = [
        _b("L", (50, 80, 290, 400)),
        _b("headline", (50, 420, 560, 436), 10.0, "Sans@10.0", 1, 40),
        _b("R", (320, 80, 560, 400)),
    ]
    order_blocks(blocks, 792)
    assert blocks[1].style == "Sans@10.0"


def test_a_columns_last_line_level_with_the_next_columns_text_is_no_footer():
    # A display equation ends the left column's paragraph; its last two lines reach into the
    # foot band while the right column's text runs on beside them.
    blocks = [
        _b("L", (50, 80, 290, 690), 10.0, "Serif@10.0", 50, 2500),
        _b("eq", (120, 695, 250, 708), 10.0, "Math@10.0", 1, 12),
        _b("last", (50, 724, 290, 748), 10.0, "Serif@10.0", 2, 80, "w"),
        _b("R", (320, 80, 560, 748), 10.0, "Serif@10.0", 55, 2700),
    ]
    assert dict(order_blocks(blocks, 792))["last"] == "body"


def test_a_page_number_alone_in_the_foot_band_is_still_a_footer():
    blocks = [
        _b("L", (50, 80, 290, 690), 10.0, "Serif@10.0", 50, 2500),
        _b("R", (320, 80, 560, 690), 10.0, "Serif@10.0", 50, 2500),
        _b("folio", (290, 740, 320, 750), 10.0, "Serif@10.0", 1, 2, "7"),
    ]
    assert dict(order_blocks(blocks, 792))["folio"] == "footer"


def test_the_next_line_follows_a_line_that_goes_on_in_inline_math(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for k in range(5):
        page.insert_text((60, 100 + 12 * k), f"Running text line {k} before it.", fontsize=10)
    # The math sits a little lower (its boxes reach further down), so the line comes out of
    # MuPDF in two pieces of two styles.
    page.insert_text((60, 160), "where z", fontsize=10)
    page.insert_text((94, 164), "~N(0,1) is noise added between each", fontsize=10, fontname="tiit")
    page.insert_text((60, 178), "step of the process.", fontsize=10)
    path = tmp_path / "math.pdf"
    doc.save(path)
    doc = open_document(path)
    assert drag(doc, 0, "added", "process.") == "added between each step of the process."
