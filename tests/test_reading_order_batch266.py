"""Rules found in the session of batches 266 onwards (the helpers' ro266 and later).

A farm's slide deck (batch 257) sets "VISION" and "MISSION" side by side, each centred over
its box's three centred lines, under a slogan across the page in the heads' own face and
size. A row of heads in a style that stood right above it was taken for title matter
repeating (an author's e-mail under the names) and read before the boxes: a drag from the
VISION box into the MISSION box left "MISSION" out. A block reaching over two of the heads
is no author's name; and a single row of heads, each centred over a text of two lines or
more of its own, is read box by box when nothing stands under those texts.

A Portuguese IEEE paper (batch 266) centres each author's name over five lines (the
programme's name taking two): longer than the four lines title matter was allowed, the
authors side by side were read as the columns' tops, and a drag from the left column's foot
to the right column's top took in the second author. A block whose own first line is set
centred in it, narrower than it, may take six.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import across_columns, one_page, write_lines

LEFT_CARD = ("Lead green", "farming with scale", "and trusted soil")
RIGHT_CARD = ("Give farmers", "a fair price and open", "ways to invest")
PARAGRAPH = "we farm the land with care and share the yield with every family"


def _centred(page, middle: float, y: float, text: str, size: float, font: str) -> None:
    width = pymupdf.get_text_length(text, fontsize=size, fontname=font)
    page.insert_text((middle - width / 2, y), text, fontsize=size, fontname=font)


def _slide(page) -> None:
    """A title, a paragraph, a slogan across the page, then two heads in the slogan's face,
    each centred over three centred lines of its own."""
    page.insert_text((60, 80), "Overview of the farm", fontsize=18, fontname="hebo")
    write_lines(page, 60, 120, [12] * 6, PARAGRAPH.split(), size=10, lead=13)
    _centred(page, 297, 215, "Growing fields. Growing yields.", 14, "hebo")
    for middle, head, card in ((170, "VISION", LEFT_CARD), (425, "MISSION", RIGHT_CARD)):
        _centred(page, middle, 260, head, 14, "hebo")
        for k, line in enumerate(card):
            _centred(page, middle, 285 + 14 * k, line, 11, "helv")


def test_a_row_of_card_heads_is_read_card_by_card(tmp_path):
    doc = one_page(tmp_path, _slide)
    assert drag(doc, 0, "soil", "Give") == "soil MISSION Give"


def test_a_slogan_over_the_heads_is_no_title_matter_repeating(tmp_path):
    doc = one_page(tmp_path, _slide)
    assert drag(doc, 0, "yields.", "Lead") == "yields. VISION Lead"


AFFILIATION = (
    "Programa de Pos-Graduacao",
    "em Computacao (PPGC)",
    "Universidade do Vale do Itajai (UNIVALI)",
    "Itajai, Brasil",
    "someone@univali.br",
)


def _five_line_affiliations(page) -> None:
    """A title, two authors' names centred over five centred lines each, a third author
    under the first, then two columns."""
    page.insert_text((90, 80), "Tendencias em Monitoramento Ambiental", fontsize=22)
    for x, y, name in (
        (180, 140, "Klaus Kupper"),
        (430, 140, "Jordan Sausen"),
        (150, 225, "M. Campos"),
    ):
        _centred(page, x, y, name, 11, "tiro")
        for k, line in enumerate(AFFILIATION):
            _centred(page, x, y + 12 + 11 * k, line, 10, "tiro")
    write_lines(page, 50, 330, [11] * 30, PARAGRAPH.split(), size=10, lead=12)
    write_lines(page, 312, 330, [11] * 30, PARAGRAPH.split(), size=10, lead=12, start=3)


def test_authors_over_five_centred_lines_are_title_matter(tmp_path):
    doc = one_page(tmp_path, _five_line_affiliations)
    quote, first, last = across_columns(doc, split=306, right_below=300)
    assert quote == f"{first} {last}"
