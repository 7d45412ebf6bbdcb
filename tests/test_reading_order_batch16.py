"""Rules found on batch 16 (unseen pages: an Italian textbook, ACL papers, a Korean report, ...).

- An Italian school textbook sets its section heads at 20 pt over 10.5 pt text and out into
  the left margin: too large for the outdented-heading rule and not flush with the text for
  the display-heading rule, so a drag over one left it out. A display heading set out into
  the margin that hangs on its paragraph at the column's edge is read.
- An ACL paper's justified lines open with inline code in a fixed-pitch font
  ("use_cache=False, and turn on TF32"), and another's first keyword line opens with
  "Keywords:" set smaller than the keywords: the stretched space between the two styles
  split the line, and the piece that opens it was read after the whole paragraph. A piece
  of a paragraph's line set otherwise, split off only by its style, is read in its line.
- A ROCLING (ACL) paper sets its authors in the text's own font, centred in a table of two
  columns, one author more on the left: the rows of authors are no title band by style, so
  the page split into columns first and the right author's name, affiliation and e-mail were
  read at the top of the right column, between the two halves of a sentence. Rows of short
  blocks set centred on each other are title matter, read before the columns.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import one_page, write_lines

VOCABULARY = (
    "the freedom of a person grows with the responsibility for the consequences of the "
    "decisions taken in the history of the first human couple and in the life of everyone "
    "who learns to answer for what they choose to do with the gifts they have received"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.5, 12.5


def _para(page, x: float, y: float, lines: int, start: int = 0, per_line: int = 11) -> float:
    """``lines`` lines of 10.5 pt text from the vocabulary; returns the next baseline."""
    counts = [per_line] * (lines - 1) + [3]
    return write_lines(page, x, y, counts, WORDS, size=SIZE, lead=LEAD, start=start)


def _textbook_page(head_x: float, head_size: float):
    """One column of text at x = 71 with a bold heading at ``head_x`` between two
    paragraphs, close above the second (the textbook's section heads)."""

    def draw(page) -> None:
        y = _para(page, 71, 100, 8)
        page.insert_text(
            (head_x, y + 22), "Persons free of constraints", fontsize=head_size, fontname="hebo"
        )
        page.insert_text((71, y + 22 + 18), "Momentum begins", fontsize=SIZE, fontname="tiro")
        _para(page, 71, y + 22 + 18 + LEAD, 12, start=3)

    return draw


@pytest.mark.parametrize(
    "head_x, head_size",
    [
        (57, 20),  # set out 14 pt into the margin, 1.9 times the text's size
        (71, 20),  # flush with the text (the display-heading rule as before)
    ],
)
def test_a_display_heading_set_out_into_the_margin_is_read(tmp_path, head_x, head_size):
    doc = one_page(tmp_path, _textbook_page(head_x, head_size))
    words = [w.text for w in doc.words(0)]
    k = words.index("Momentum")
    got = doc.passage(0, doc.select_between(0, k - 8, k + 1)).quote
    assert got.endswith("Persons free of constraints Momentum begins"), got


def test_a_large_line_wholly_in_the_margin_is_no_heading(tmp_path):
    # It does not reach into the column: a margin note, left out of a drag across it.
    def draw(page) -> None:
        y = _para(page, 200, 100, 8)
        page.insert_text((40, y + 22), "Note", fontsize=20, fontname="hebo")
        page.insert_text((200, y + 38), "Momentum begins", fontsize=SIZE, fontname="tiro")
        _para(page, 200, y + 38 + LEAD, 12, start=3)

    doc = one_page(tmp_path, draw)
    assert "Note" not in drag(doc, 0, "who", "begins")


def _code_page(opening: str, font: str, size: float, gap: float):
    """A justified paragraph whose fourth line opens with ``opening`` set in ``font`` at
    ``size``, then the line's text ``gap`` points further on."""

    def draw(page) -> None:
        y = _para(page, 72, 100, 3)
        page.insert_text((72, y), opening, fontsize=size, fontname=font)
        end = 72 + pymupdf.get_text_length(opening, fontname=font, fontsize=size)
        page.insert_text(
            (end + gap, y), "and turn on the gradient checkpoints", fontsize=SIZE, fontname="tiro"
        )
        _para(page, 72, y + LEAD, 4, start=7)

    return draw


@pytest.mark.parametrize(
    "opening, font, size",
    [
        ("use_cache=False,", "cour", SIZE),  # inline code opening a justified line
        ("Keywords:", "tiro", 9.0),  # a label set smaller than the words it opens
    ],
)
def test_a_piece_of_a_line_set_otherwise_is_read_in_its_line(tmp_path, opening, font, size):
    doc = one_page(tmp_path, _code_page(opening, font, size, gap=8.0))
    words = [w.text for w in doc.words(0)]
    k = words.index("turn")
    assert words[k - 2 : k] == [opening, "and"], words
    got = drag(doc, 0, "freedom", "checkpoints")
    assert f"{opening} and turn on the gradient checkpoints" in got, got


def test_a_line_number_beside_the_text_is_no_piece_of_its_line(tmp_path):
    # Two sizes away from the text: a wide gap, not a stretched word space.
    def draw(page) -> None:
        y = _para(page, 72, 100, 3)
        page.insert_text((42, y), "104", fontsize=8, fontname="helv")
        page.insert_text(
            (72, y), "and turn on the gradient checkpoints", fontsize=SIZE, fontname="tiro"
        )
        _para(page, 72, y + LEAD, 4, start=7)

    doc = one_page(tmp_path, draw)
    assert "104" not in drag(doc, 0, "freedom", "checkpoints")


def _centred_line(page, middle: float, y: float, text: str, font: str) -> None:
    width = pymupdf.get_text_length(text, fontname=font, fontsize=SIZE)
    page.insert_text((middle - width / 2, y), text, fontsize=SIZE, fontname=font)


def _authors_page(centred: bool):
    """A title, two authors side by side and a third under the left one (names in Helvetica, the
    affiliation and e-mail in the text's font, centred on each column, or flush left), over
    two columns of text."""

    def draw(page) -> None:
        page.insert_text(
            (120, 80), "Recognising Speech of a Rare Language", fontsize=16, fontname="tibo"
        )
        for middle, people in ((180, ["Ada Chen", "Bo Chang"]), (420, ["Cy Hsu"])):
            y = 120
            for name in people:
                for line in (name, "Department of Digital Marketing", f"{name[:2]}@uni.edu"):
                    if centred:
                        _centred_line(page, middle, y, line, "hebo" if line == name else "tiro")
                    else:
                        page.insert_text((middle - 110, y), line, fontsize=SIZE, fontname="tiro")
                    y += LEAD
                y += 14
        _para(page, 70, 230, 30, per_line=5)
        _para(page, 310, 230, 30, start=4, per_line=5)

    return draw


def test_rows_of_authors_set_centred_in_the_text_s_font_are_read_before_the_columns(tmp_path):
    doc = one_page(tmp_path, _authors_page(True))
    words = doc.words(0)
    left_end = max((w for w in words if w.rect[0] < 290), key=lambda w: w.rect[1]).index
    right_start = min(
        (w for w in words if w.rect[0] > 300 and w.rect[1] > 220),
        key=lambda w: (w.rect[1], w.rect[0]),
    ).index
    got = doc.passage(0, doc.select_between(0, left_end, right_start)).quote
    assert "Cy Hsu" not in got, got
    assert [w.text for w in words[:3]] == ["Recognising", "Speech", "of"]
