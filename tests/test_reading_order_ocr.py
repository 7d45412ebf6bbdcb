"""Reading order on an OCR text layer whose line boxes overlap their neighbours'.

- A scanned US patent's invisible OCR text is set in a font stretched tall: its line boxes
  are about 15 pt high while its lines are about 10 pt apart, so each box reaches more
  than half a size into the boxes of the lines above and below. Measured by box edges, a
  line stood level with the one above and joined the line before that instead: each
  column grouped as two blocks of every other line, read one whole block after the other.
  On a page whose boxes overlap their neighbours' that much, line by line, lines are
  measured middle to middle (:func:`basehalf_core.documents.grouping._overlapping_lines`);
  born-digital pages, whose boxes at most touch, keep the box-edge test.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page

VOCABULARY = (
    "the pet moves along the passage in the vest and the wearer shows it to a spectator "
    "while the graphics mask the paths that the tunnels take across the chest"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 9.0, 10.0
# An OCR layer's font is stretched this much upright: boxes about 15 pt tall, 10 pt apart.
STRETCH = 1.6
LEFT, RIGHT = 60, 300
TOP = 80


def _ocr_line(page, x: float, y: float, text: str) -> None:
    """One line of invisible (render mode 3) text with a box stretched as an OCR layer's."""
    page.insert_text(
        (x, y),
        text,
        fontsize=SIZE,
        fontname="cour",
        render_mode=3,
        morph=(pymupdf.Point(x, y), pymupdf.Matrix(1, STRETCH)),
    )


def _ocr_lines(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` lines of six words each from the vocabulary; the next baseline."""
    k = start
    for _ in range(lines):
        _ocr_line(page, x, y, " ".join(WORDS[(k + j) % len(WORDS)] for j in range(6)))
        k += 6
        y += LEAD
    return y


def _scanned_columns(page) -> None:
    """Two columns of an OCR layer, the left ending in "column ends here.", the right
    opening with three marked lines; line numbers every fifth line in the gutter."""
    y = _ocr_lines(page, LEFT, TOP, 40)
    _ocr_line(page, LEFT, y, "so the left column ends here.")
    _ocr_line(page, RIGHT, TOP, "Opening the right column, this")
    _ocr_line(page, RIGHT, TOP + LEAD, "second line goes on to the")
    _ocr_line(page, RIGHT, TOP + 2 * LEAD, "third line, which follows it.")
    y = _ocr_lines(page, RIGHT, TOP + 3 * LEAD, 15, start=3)
    _ocr_line(page, RIGHT, y, "Further down, a sentence starts")
    _ocr_line(page, RIGHT, y + LEAD, "on one line and runs over to")
    _ocr_line(page, RIGHT, y + 2 * LEAD, "its close on the next lines.")
    _ocr_lines(page, RIGHT, y + 3 * LEAD, 20, start=5)
    for n in range(5, 45, 5):
        page.insert_text(
            (282, TOP + (n - 1) * LEAD), str(n), fontsize=6, fontname="cour", render_mode=3
        )


def test_a_drag_from_the_left_column_foot_reads_the_right_columns_lines_in_order(tmp_path):
    doc = one_page(tmp_path, _scanned_columns)
    got = drag(doc, 0, "left", "follows")
    want = (
        "left column ends here. Opening the right column, this second line goes on to the "
        "third line, which follows"
    )
    assert got == want, got


def test_a_drag_inside_a_column_reads_line_after_line(tmp_path):
    doc = one_page(tmp_path, _scanned_columns)
    got = drag(doc, 0, "Further", "close")
    want = "Further down, a sentence starts on one line and runs over to its close"
    assert got == want, got
