"""Rules found in the session of batches 82 onwards (and two cases of earlier batches that
a later rule cost).

A KOSEN paper (batch 68) repeats its department's name, "機械工学科", at the top right of both
of its pages, a line's spacing over the right column's first line. PyMuPDF gives the name
as one word, but the reader cuts a CJK run into its characters (a drag starts at any of
them), and the repeated words were matched by their boxes: no character's box is the word's,
so the head was never found repeated and was read into a drag across the columns. A unit
repeats when it lies inside a repeated word's box. Over 1456 cases: 1 more read, none
fewer; scan of 514 pages: no change.
"""

from __future__ import annotations

import pymupdf

from basehalf_core.documents.document import open_document

JAPANESE = "生成されたマップを図に示す赤い点群はカメラ画像から得られた周囲の位置関係である"


def _japanese_column(page, x: float, y: float, lines: int, start: int) -> None:
    """``lines`` lines of 20 Japanese characters in 10 pt at 16 pt leading."""
    for k in range(lines):
        at = (start + 20 * k) % len(JAPANESE)
        text = (JAPANESE * 2)[at : at + 20]
        page.insert_text((x, y + 16 * k), text, fontsize=10, fontname="japan")


def _headed_pages(tmp_path, head: str):
    """Two pages of two Japanese columns under ``head``, set at the top right a line's
    spacing over the right column (too close to be a head by its position alone)."""
    doc = pymupdf.open()
    for _ in range(2):
        page = doc.new_page(width=595, height=842)
        page.insert_text((520, 60), head, fontsize=10, fontname="japan")
        _japanese_column(page, 50, 80, 40, 0)
        _japanese_column(page, 320, 80, 40, 7)
    path = tmp_path / "headed.pdf"
    doc.save(path)
    return open_document(path)


def test_a_cjk_running_head_repeated_on_the_next_page_is_left_out(tmp_path):
    doc = _headed_pages(tmp_path, "機械工学科")
    words = doc.words(1)
    assert {w.role for w in words if w.text in "機械工学科"} == {"header"}
    left = [w for w in words if w.role == "body" and w.rect[0] < 300]
    right = [w for w in words if w.role == "body" and w.rect[0] > 300 and w.rect[1] > 75]
    got = doc.passage(1, doc.select_between(1, left[-1].index, right[0].index)).quote
    assert "機械" not in got
    assert got.startswith(left[-1].text) and got.endswith(right[0].text)
