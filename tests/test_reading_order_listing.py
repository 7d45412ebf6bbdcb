"""Rules found on the seventh fresh batch (a textbook's pages), each checked on a page made for it.

The pages are made with PyMuPDF in tmp_path. They show what the kaobook documentation's page
showed: a code listing between two paragraphs, set smaller in a fixed-pitch font, each of its
lines on a rectangle filled in white. A person dragging from the paragraph above to the one
below reads the listing; a caption or a table's small print in the text's own kind of font is
still left out.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag

from basehalf_core.documents.document import open_document

ABOVE = [
    "The command can be used anywhere in the document, but it",
    "makes sense at the start of a chapter, with this code:",
]
BELOW = [
    "As the space in the margin is a valuable resource, there is",
    "a shorter title for it. Nothing else changes on the page.",
]


def _page(tmp_path, between: list[str], fontname: str, fill) -> pymupdf.Document:
    """Two paragraphs in Times 10 pt with ``between`` set at 7.5 pt between them.

    Each line between is drawn on its own rectangle filled with ``fill`` (None: no fill) as
    the LaTeX listings package does.
    """
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 100
    for line in ABOVE:
        page.insert_text((70, y), line, fontsize=10, fontname="tiro")
        y += 12
    y += 4
    for line in between:
        if fill is not None:
            page.draw_rect((70, y - 9, 374, y + 3), color=None, fill=fill)
        page.insert_text((70, y), line, fontsize=7.5, fontname=fontname)
        y += 12
    y += 6
    for line in BELOW:
        page.insert_text((70, y), line, fontsize=10, fontname="tiro")
        y += 12
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path)


LISTING = ["\\setchapterpreamble[u]{\\margintoc}", "\\chapter{Chapter title}"]
READ = (
    "makes sense at the start of a chapter, with this code: "
    "\\setchapterpreamble[u]{\\margintoc} \\chapter{Chapter title} "
    "As the space in the margin is a valuable resource,"
)


@pytest.mark.parametrize("fill", [None, (1, 1, 1)], ids=["bare", "on-white-fills"])
def test_a_code_listing_between_two_paragraphs_is_read_with_them(tmp_path, fill):
    doc = _page(tmp_path, LISTING, "cour", fill)
    assert drag(doc, 0, "makes", "resource,") == READ


def test_lines_filled_in_white_make_no_figure(tmp_path):
    # Two stacked white rectangles measure like a figure, but on a white page they draw
    # nothing: the text on them is not a figure's contents.
    doc = _page(tmp_path, LISTING, "cour", (1, 1, 1))
    assert {w.role for w in doc.words(0) if w.text.startswith("\\")} == {"body"}


def test_a_listing_on_grey_lines_is_still_set_apart(tmp_path):
    # The counter-case: lines filled in a visible grey are drawn, so they still make a region
    # that a drag from running text to running text leaves out, as before.
    doc = _page(tmp_path, LISTING, "cour", (0.85, 0.85, 0.85))
    assert {w.role for w in doc.words(0) if w.text.startswith("\\")} == {"float"}
    assert drag(doc, 0, "makes", "resource,") == (
        "makes sense at the start of a chapter, with this code: "
        "As the space in the margin is a valuable resource,"
    )


def test_small_print_in_a_proportional_font_between_paragraphs_is_still_left_out(tmp_path):
    # A caption or a permission line set small in the text's kind of font (Helvetica here)
    # is not a listing: a drag from the paragraph above to the one below leaves it out.
    doc = _page(tmp_path, ["Figure 2 Structure of the compound"], "helv", None)
    assert drag(doc, 0, "makes", "resource,") == (
        "makes sense at the start of a chapter, with this code: "
        "As the space in the margin is a valuable resource,"
    )


def test_a_plots_white_background_still_holds_its_labels(tmp_path):
    # A plotting tool paints a white rectangle under the axes and puts the tick labels on it,
    # outside the lines it draws. Something is drawn on that white: it is the figure's
    # ground, and the labels on it stay the figure's contents (a drag leaves them out).
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    for k, line in enumerate(ABOVE):
        page.insert_text((70, 100 + 12 * k), line, fontsize=10, fontname="tiro")
    page.draw_rect((70, 130, 370, 330), color=None, fill=(1, 1, 1))
    page.draw_polyline([(120, 300), (200, 220), (280, 180), (350, 150)], color=(0, 0, 1))
    page.draw_rect((110, 140, 360, 310), color=(0, 0, 0), fill=None)
    for k, tick in enumerate(["90", "80", "70", "60"]):
        page.insert_text((80, 150 + 45 * k), tick, fontsize=6, fontname="helv")
    page.insert_text((180, 325), "k: number of passages", fontsize=6, fontname="helv")
    for k, line in enumerate(BELOW):
        page.insert_text((70, 360 + 12 * k), line, fontsize=10, fontname="tiro")
    path = tmp_path / "plot.pdf"
    doc.save(path)
    doc = open_document(path)
    assert {w.role for w in doc.words(0) if w.text in ("90", "passages")} == {"float"}
