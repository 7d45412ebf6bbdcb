"""A display equation whose pieces come out in the text's font (batch 27's REVTeX page).

APS's REVTeX sets display equation (5) under "... which in Fourier space reads": its left
part in the math fonts, its closing fraction ("∂ln f0 / ∂ln q") in the text's font, set
right of the column's middle one line under "reads", the equation number "(5)" at the
column's right edge. The fraction joined the paragraph above as its next line, and the
paragraph under the display ("This equation gives ... perturbations.") joined the same
block, which then enclosed the equation's other pieces and was read before them: a drag
from "perturbations." to the next section read the equation. A narrow piece holding a sign
of mathematics, far right of a paragraph's left edge, level with an equation number at its
right edge, under a line that stops short without closing its sentence, starts a block of
its own, and the text under the display goes on in another (the side-effect scan: 1 of 455
pages changes, that page).

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import justify, one_page, write_lines

VOCABULARY = (
    "the phase space distribution of the field follows the collisionless equation which in "
    "the Fourier space reads as the response of the density to the metric perturbations"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 12.0
# The first line of the paragraph under the display.
UNDER = ["This", "equation", "gives", "the", "response", "of", "the", "phase-space", "distribu-"]
LEFT, RIGHT, WIDTH = 54, 316, 245


def _justified(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` lines of eight words set flush on both sides of the left column; the next
    baseline."""
    for k in range(lines):
        words = [WORDS[(start + 8 * k + j) % len(WORDS)] for j in range(8)]
        justify(page, x, y, words, x + WIDTH, size=SIZE)
        y += LEAD
    return y


def _line(page, x: float, y: float, text: str, font: str = "tiro", size: float = SIZE) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname=font)


def _page(number: str):
    """Two columns of 10 pt text; the left one holds a paragraph ending "writes", a display
    equation numbered ``number`` (its left part in Courier, its closing fraction in the
    text's font), the paragraph under it ending "perturbations.", a section heading and the
    next paragraph opening "The first interrogative"."""

    def draw(page) -> None:
        y = _justified(page, LEFT, 80, 12)
        _line(page, LEFT, y, "writes")
        y += 19  # the display's fraction one line under the short line
        _line(page, LEFT + 30, y + 6, "dPsi - iqPsi = -(k n)psi + i(k n)phi", "cour", 8.0)
        _line(page, LEFT + 187, y, "± ln f0")
        _line(page, LEFT + 192, y + 13, "ln q")
        if number:
            width = pymupdf.get_text_length(number, fontsize=SIZE, fontname="tiro")
            _line(page, LEFT + WIDTH - width, y + 6, number)
        y += 32  # the paragraph under it one line under its denominator
        justify(
            page,
            LEFT,
            y,
            UNDER,
            LEFT + WIDTH,
            size=SIZE,
        )
        _line(page, LEFT, y + LEAD, "function to the metric perturbations.")
        y += 3.2 * LEAD
        width = pymupdf.get_text_length("III. TESTING WITH THE CMB", fontsize=9, fontname="tibo")
        page.insert_text(
            (LEFT + (WIDTH - width) / 2, y),
            "III. TESTING WITH THE CMB",
            fontsize=9,
            fontname="tibo",
        )
        y += 2.5 * SIZE
        _line(page, LEFT + 10, y, "The first interrogative is whether the")
        _justified(page, LEFT, y + LEAD, 10, start=3)
        write_lines(page, RIGHT, 80, [8] * 40, WORDS, size=SIZE, lead=LEAD, start=5)

    return draw


def test_a_drag_from_under_a_display_to_the_next_section_leaves_the_equation_out(tmp_path):
    doc = one_page(tmp_path, _page("(5)"))
    got = drag(doc, 0, "perturbations.", "interrogative")
    assert got == "perturbations. III. TESTING WITH THE CMB The first interrogative", got


def test_the_equation_is_read_between_the_paragraphs_it_sits_between(tmp_path):
    doc = one_page(tmp_path, _page("(5)"))
    got = drag(doc, 0, "writes", "This")
    for piece in ("dPsi - iqPsi", "± ln f0", "ln q", "(5)"):
        assert piece in got, got
