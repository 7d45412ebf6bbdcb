"""Rules found on batch 13 (unseen pages: Neural Computation, NIPS, APS, IOP, Nature, ...).

- MIT Press's *Neural Computation* opens a paragraph with "Let S = {w ∈ R^n} be ...": the
  line breaks into a piece of text, a piece in a math font and the rest of the paragraph,
  whose boxes overlap and whose tops differ by a point with their fonts' heights. Ordered
  by top, "Let S" was read after its paragraph. Blocks whose first lines stand level are
  read left to right.
- Scanned pages under an invisible OCR text layer (APS *Physical Review Letters* 1987, a
  NIPS 1993 paper) give every word the size OCR guessed for it, so one line of text comes
  out in sizes from 7.5 to 10 pt and lines and words were grouped and read out of order.
  On a page whose text is all invisible, a line takes one size and lines near the page's
  size take the page's.
- An NIH author manuscript (Psychological Review 2014, batch 14) sets "Introduction" out into
  the margin straight over the subheading "Overview of Homeostasis": the heading hangs on its
  paragraph only once the subheading is read as text, so headings are settled until nothing
  changes.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import random

import pymupdf
import pytest
from conftest import drag

from basehalf_core.documents.document import open_document
from basehalf_core.documents.raw_text import _span_styles
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.text_blocks import Block

VOCABULARY = (
    "we show that dynamical systems with spatial degrees of freedom naturally evolve into a "
    "critical point and flicker noise can be identified with the dynamics of the critical "
    "state while this picture also yields insight into the origin of fractal objects"
)
WORDS = VOCABULARY.split()


def _block(n: int, box, first=None, lines: int = 1) -> Block:
    return Block(
        id=n,
        bbox=box,
        direction=(1.0, 0.0),
        size=9.5,
        chars=40 * lines,
        lines=lines,
        style="Palatino@9.5",
        first_line=first or box,
    )


# Each case: blocks (given in a shuffled order) whose reading order is their ids, 0 first.
LEVEL_CASES = {
    # Neural Computation's "Let S = {w ∈ R^n} be a parameter space ...", boxes as MuPDF gives
    # them: the rest of the paragraph starts a point higher than "Let S"; it is read from its
    # start.
    "inline-math-opens-a-paragraph": [
        _block(0, (133.0, 456.5, 217.0, 466.0)),
        _block(3, (133.4, 478.6, 444.2, 511.8), first=(208.0, 478.6, 444.2, 488.9), lines=3),
        _block(2, (156.4, 477.0, 206.3, 495.3)),
        _block(1, (133.4, 479.3, 153.8, 488.9)),
    ],
    # Advances in Physics: "... asymptotically (t → ∞) to non-" ends a paragraph; the arrow's
    # box reaches into the first line of the next paragraph, which must not be pulled ahead.
    "a-tall-symbol-reaches-into-the-next-line": [
        _block(3, (28.0, 168.2, 386.0, 459.0), first=(63.0, 168.2, 173.0, 178.0), lines=24),
        _block(2, (354.0, 156.0, 386.0, 166.0)),
        _block(1, (323.0, 156.0, 349.0, 173.4)),
        _block(0, (48.0, 48.0, 386.0, 166.0), first=(48.0, 48.0, 326.0, 58.0), lines=10),
    ],
    "one-above-the-other": [
        _block(1, (133.0, 150.0, 300.0, 160.0)),
        _block(0, (133.0, 100.0, 444.0, 140.0), first=(200.0, 100.0, 444.0, 110.0), lines=4),
    ],
}


@pytest.mark.parametrize("blocks", list(LEVEL_CASES.values()), ids=list(LEVEL_CASES))
def test_blocks_whose_first_lines_stand_level_are_read_left_to_right_and_no_further(blocks):
    order = [b for b, _role in order_blocks(blocks, 792.0)]
    assert order == sorted(order) == list(range(len(blocks)))


def _ocr_page(page) -> None:
    """Two columns of invisible text, each word at its own OCR-guessed size and baseline."""
    rng = random.Random(13)
    k = 0
    for x0 in (55.0, 317.0):
        y = 100.0
        for _line in range(40):
            x = x0
            for _w in range(6):
                word = WORDS[k % len(WORDS)]
                k += 1
                size = rng.uniform(7.5, 10.0)
                page.insert_text(
                    (x, y + rng.uniform(-1.0, 1.0)), word, fontsize=size, render_mode=3
                )
                x += pymupdf.get_text_length(word, fontsize=size) + 3.0
            y += 11.0


def _read_words(tmp_path, draw) -> list[str]:
    """The words of a one-page PDF drawn by ``draw``, in the order the reader reads them."""
    doc = pymupdf.open()
    draw(doc.new_page(width=612, height=792))
    path = tmp_path / "drawn.pdf"
    doc.save(path)
    return [w.text for w in open_document(path).words(0)]


def test_an_ocr_layer_with_a_size_per_word_is_read_in_order(tmp_path):
    got = _read_words(tmp_path, _ocr_page)
    # Columns left then right, each line left to right: the order the words were written.
    assert got == [WORDS[k % len(WORDS)] for k in range(480)]


def _info(alpha: int, sizes: list[list[float]]) -> dict:
    lines = [
        {
            "dir": (1.0, 0.0),
            "spans": [
                {
                    "bbox": (50 + 30 * i, 100 + 12 * n, 75 + 30 * i, 110 + 12 * n),
                    "font": "Times-Roman",
                    "size": s,
                    "text": "word",
                    "alpha": alpha,
                }
                for i, s in enumerate(line)
            ],
        }
        for n, line in enumerate(sizes)
    ]
    return {"blocks": [{"type": 0, "number": 0, "lines": lines}]}


def test_only_an_invisible_layer_has_its_sizes_evened_out():
    sizes = [[9.1, 8.2, 9.8, 8.9], [8.4, 9.6, 9.2, 8.7], [12.0, 12.4, 11.8, 12.1]]
    ocr = _span_styles(_info(0, sizes))
    # Text lines take the page's size; the larger line (a title) keeps a size of its own.
    assert {s[2] for s in ocr[(0, 0)][:-1]} == {s[2] for s in ocr[(0, 1)][:-1]} == {9.0}
    assert {s[2] for s in ocr[(0, 2)][:-1]} == {12.0}
    # Visible text keeps its sizes as set.
    seen = _span_styles(_info(255, sizes))
    assert [s[2] for s in seen[(0, 0)][:-1]] == [9.0, 8.0, 10.0, 9.0]


def _ocr_page_wide_spaces(page) -> None:
    """Two columns 20 pt apart of invisible text whose word boxes are narrower than the ink:
    one space in each line comes out about two sizes wide."""
    rng = random.Random(7)
    k = 0
    x0 = 55.0
    for _column in range(2):
        y, right = 100.0, 0.0
        for _line in range(40):
            size = rng.uniform(8.5, 9.5)
            wide = rng.randrange(7)
            x = x0
            for n in range(8):
                word = WORDS[k % len(WORDS)]
                k += 1
                page.insert_text(
                    (x, y + rng.uniform(-0.8, 0.8)), word, fontsize=size, render_mode=3
                )
                x += pymupdf.get_text_length(word, fontsize=size)
                right = max(right, x)
                x += (rng.uniform(1.7, 2.5) if n == wide else rng.uniform(0.25, 0.45)) * size
            y += 11.0
        x0 = right + 20.0


def test_an_ocr_layer_with_wide_word_spaces_is_read_column_by_column(tmp_path):
    got = _read_words(tmp_path, _ocr_page_wide_spaces)
    assert got == [WORDS[k % len(WORDS)] for k in range(640)]


def test_a_visible_stamp_on_a_scan_leaves_it_an_ocr_layer():
    sizes = [[9.1, 8.2, 9.8, 8.9]] * 8 + [[8.0]]
    info = _info(0, sizes)
    info["blocks"][0]["lines"][-1]["spans"][0]["alpha"] = 255  # a download stamp, in ink
    assert {s[2] for s in _span_styles(info)[(0, 0)][:-1]} == {9.0}
    # Mostly visible text is not an OCR layer, whatever else is hidden on the page.
    info = _info(255, sizes)
    info["blocks"][0]["lines"][-1]["spans"][0]["alpha"] = 0
    assert [s[2] for s in _span_styles(info)[(0, 0)][:-1]] == [9.0, 8.0, 10.0, 9.0]


def _manuscript_page(page) -> None:
    """An NIH author manuscript: headings set out into the margin, a section heading
    straight over a subheading, text in one column from x = 150."""
    y, k = 80.0, 0

    def para(y: float, lines: int) -> float:
        nonlocal k
        for _ in range(lines):
            page.insert_text(
                (150, y),
                " ".join(WORDS[(k + j) % len(WORDS)] for j in range(9)),
                fontsize=10,
                fontname="tiro",
            )
            k += 9
            y += 14.0
        return y

    y = para(y, 6)
    page.insert_text((90, y + 16), "Introduction", fontsize=12, fontname="hebo")
    page.insert_text((90, y + 38), "Overview of Homeostasis", fontsize=10, fontname="hebo")
    page.insert_text(
        (150, y + 56), "Homeostasis the ongoing maintenance", fontsize=10, fontname="tiro"
    )
    para(y + 70, 20)


def test_a_heading_over_a_subheading_set_out_into_the_margin_is_read(tmp_path):
    doc = pymupdf.open()
    _manuscript_page(doc.new_page(width=612, height=792))
    path = tmp_path / "nihpa.pdf"
    doc.save(path)
    opened = open_document(path)
    words = [w.text for w in opened.words(0)]
    k = words.index("Introduction")
    got = drag(opened, 0, words[k - 2], "ongoing")
    assert got.endswith("Introduction Overview of Homeostasis Homeostasis the ongoing"), got
