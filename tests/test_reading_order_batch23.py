"""Rules found on batches 22 and 23 (unseen pages, first measured 19/22 and 18/24).

- APS's REVTeX sets a section heading centred over its column in 9 pt capitals over 10 pt
  text ("III. TESTING WITH THE CMB"), a line and a half above its paragraph. It is smaller
  than the two ends of a drag across it and neither flush left nor close enough to hang on
  its paragraph, so the drag left it out as small print. A one-line heading centred over
  the paragraph under it (indented alike on both sides, at most two body sizes above it,
  more space above than below) is read with the text (the side-effect scan: 3 of 286 pages
  change: the four section heads of that paper and its "Acknowledgements").

(The line-end hyphen kept in "lower-privileged" beside "higher-privileged" is tested in
test_documents.py.) The pages are made with PyMuPDF in tmp_path.
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
LEFT, RIGHT, WIDTH = 54, 316, 245


def _justified(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` lines of eight words set flush on both sides of a column (as REVTeX sets
    its text), from baseline ``y``; the next baseline."""
    for k in range(lines):
        words = [WORDS[(start + 8 * k + j) % len(WORDS)] for j in range(8)]
        justify(page, x, y, words, x + WIDTH, size=SIZE)
        y += LEAD
    return y


def _line(page, x: float, y: float, text: str) -> None:
    page.insert_text((x, y), text, fontsize=SIZE, fontname="tiro")


def _heading(page, y: float, text: str, size: float) -> None:
    """``text`` in ``size`` pt Times bold capitals, centred over the left column."""
    width = pymupdf.get_text_length(text, fontsize=size, fontname="tibo")
    page.insert_text((LEFT + (WIDTH - width) / 2, y), text, fontsize=size, fontname="tibo")


def _page(size: float, gap_under: float):
    """Two columns of 10 pt text; the left one holds a paragraph ending "perturbations.", a
    heading centred over the column in ``size`` pt, and a paragraph ``gap_under`` pt under
    it opening "The first interrogative"."""

    def draw(page) -> None:
        y = _justified(page, LEFT, 80, 12)
        _line(page, LEFT, y, "function to the metric perturbations.")
        y += 2.2 * LEAD
        _heading(page, y, "III. TESTING WITH THE CMB", size)
        y += gap_under + SIZE
        _line(page, LEFT + 10, y, "The first interrogative is whether the")
        _justified(page, LEFT, y + LEAD, 10, start=3)
        write_lines(page, RIGHT, 80, [8] * 40, WORDS, size=SIZE, lead=LEAD, start=5)

    return draw


def test_a_drag_across_a_centred_heading_in_smaller_capitals_reads_it(tmp_path):
    doc = one_page(tmp_path, _page(9.0, 1.5 * SIZE))
    got = drag(doc, 0, "perturbations.", "interrogative")
    assert got == "perturbations. III. TESTING WITH THE CMB The first interrogative", got


def test_a_small_centred_line_far_above_the_text_is_still_left_out(tmp_path):
    # Four body sizes of space under it: nothing it opens, so it stays other print.
    doc = one_page(tmp_path, _page(9.0, 4 * SIZE))
    got = drag(doc, 0, "perturbations.", "interrogative")
    assert got == "perturbations. The first interrogative", got
