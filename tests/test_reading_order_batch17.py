"""Rules found on batch 17 (unseen pages: an IPAC paper, STOC, VLDB, a textbook, ...).

- An IPAC (JACoW) paper sets its captions in the text's own font and size, with no more
  space under them than a line's spacing: "Figure 2: Detuning the cavity with stepper
  motor." under a plot grouped with the paragraph below it, and a drag across the column
  break read it. A block whose first line opens with a caption's label, just under a figure,
  has its caption (down to its first line that ends short or is centred) split off and read
  like a caption.
- The same paper's Word writer drew the ":" of "Figure 3: ..." after the rest of the page,
  into the word space after "3"; MuPDF made it a line of its own, read between the two
  columns. A short piece drawn into a word space of a line, in its style and on its
  baseline, goes back into that line.
- A STOC paper (ACM's 2007 template) opens its right column with "Categories and Subject
  Descriptors: F.2.2 Nonnumer-" in bold over "ical Algorithms and Problems": a heading in
  the text's size, as wide as the column but wider than the one short line under it, so
  it was not taken for a heading and a drag left it out. A heading flush left over its
  paragraph is measured against its column.
- The same page sets its footnotes in the text's own size, under a short footnote rule:
  they were read as running text between the two columns. A block right under a short rule
  at its left edge, low on the page, is a footnote whatever its size.
- A textbook page in three columns sets a photo across the second and third and its caption
  under it, reaching from the second column into the third: no gutter was left between the
  two, and the page was read across them, row by row. A gutter that a single line crosses,
  lying mostly on one side and level with a column's paragraph, is still a gutter.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import write_lines

from basehalf_core.documents.document import open_document

VOCABULARY = (
    "the tuner was installed on the cavity as one of the last steps in preparation for "
    "installation into the test stand once the tuner was installed the piezo actuators were "
    "preloaded by means of stretching the cavity by ninety kilohertz"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 11.5
LEFT, RIGHT = 56, 304


def _doc(tmp_path, draw, width: float = 595) -> object:
    doc = pymupdf.open()
    draw(doc.new_page(width=width, height=842))
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path)


def _column(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` full lines of 10 pt text (eight words each) from ``x``; the next baseline."""
    return write_lines(page, x, y, [8] * lines, WORDS, size=SIZE, lead=LEAD, start=start)


def _caption_under_a_plot(page) -> None:
    """Two columns; atop the right one a plot, its caption centred under it in the text's
    font and size at a line's spacing, and the text going on right under the caption."""
    _column(page, LEFT, 100, 50)
    page.insert_text(
        (LEFT, 100 + 50 * LEAD), "remeasured after this procedure.", fontsize=SIZE, fontname="tiro"
    )
    page.draw_rect(pymupdf.Rect(RIGHT + 20, 90, RIGHT + 210, 260), color=(0, 0, 0), width=1)
    page.draw_line((RIGHT + 30, 250), (RIGHT + 200, 110), color=(0, 0, 1), width=1)
    caption = "Figure 2: Detuning the cavity with a motor."
    width = pymupdf.get_text_length(caption, fontsize=SIZE, fontname="tiro")
    column = max(
        pymupdf.get_text_length(" ".join(WORDS[k : k + 8]), fontsize=SIZE, fontname="tiro")
        for k in range(5, 5 + 8 * 30, 8)
        if k + 8 <= len(WORDS)
    )
    page.insert_text((RIGHT + (column - width) / 2, 276), caption, fontsize=SIZE, fontname="tiro")
    page.insert_text(
        (RIGHT, 276 + LEAD),
        "Normally the tuner operates by stretching",
        fontsize=SIZE,
        fontname="tiro",
    )
    _column(page, RIGHT, 276 + 2 * LEAD, 30, start=5)


def test_a_caption_grouped_with_the_text_under_it_is_left_out_of_a_drag(tmp_path):
    doc = _doc(tmp_path, _caption_under_a_plot)
    assert drag(doc, 0, "remeasured", "operates") == (
        "remeasured after this procedure. Normally the tuner operates"
    )


def test_a_drag_from_inside_such_a_caption_keeps_it(tmp_path):
    doc = _doc(tmp_path, _caption_under_a_plot)
    assert drag(doc, 0, "Detuning", "operates") == (
        "Detuning the cavity with a motor. Normally the tuner operates"
    )


def _colon_drawn_last(page) -> None:
    """A paragraph whose third line has a word space after "Summary", into which a ":" is
    drawn after everything else on the page (as Word wrote an IPAC caption's colon)."""
    y = _column(page, LEFT, 100, 2)
    page.insert_text((LEFT, y), "Summary", fontsize=SIZE, fontname="tiro")
    gap = pymupdf.get_text_length("Summary", fontsize=SIZE, fontname="tiro")
    colon = pymupdf.get_text_length(":", fontsize=SIZE, fontname="tiro")
    page.insert_text(
        (LEFT + gap + colon + 3, y), "the tuner was installed", fontsize=SIZE, fontname="tiro"
    )
    _column(page, LEFT, y + LEAD, 3, start=16)
    _column(page, RIGHT, 100, 6, start=30)
    page.insert_text((LEFT + gap, y), ":", fontsize=SIZE, fontname="tiro")


def test_a_piece_drawn_into_a_line_goes_back_into_it(tmp_path):
    doc = _doc(tmp_path, _colon_drawn_last)
    got = drag(doc, 0, "Summary", "installed")
    assert got == "Summary: the tuner was installed", got


def _stoc_page(page) -> None:
    """Two columns: the left one ends over a footnote rule and notes in the text's size;
    the right one opens with a bold line as wide as the column over one short line."""
    y = _column(page, LEFT, 100, 36)
    page.insert_text((LEFT, y), "learning mixtures of Gaussians.", fontsize=SIZE, fontname="tiro")
    page.draw_line((LEFT, y + 14), (LEFT + 90, y + 14), color=(0, 0, 0), width=0.4)
    notes = ["*Part of the work was done while the authors", "were visiting the institute."]
    notes += ["Research partially supported by a grant."]
    write_lines(page, LEFT, y + 14 + SIZE, [1] * 3, notes, size=SIZE, lead=LEAD)
    head = "Subject Descriptors: F.2.2 Nonnumer-"
    page.insert_text((RIGHT, 100), head, fontsize=SIZE, fontname="hebo")
    page.insert_text(
        (RIGHT, 100 + LEAD), "ical Algorithms and Problems", fontsize=SIZE, fontname="tiro"
    )
    _column(page, RIGHT, 100 + 4 * LEAD, 30, start=3)


def test_a_bold_heading_over_one_short_line_is_read(tmp_path):
    doc = _doc(tmp_path, _stoc_page)
    got = drag(doc, 0, "mixtures", "Problems")
    assert got.endswith(" Subject Descriptors: F.2.2 Nonnumerical Algorithms and Problems"), got


def test_notes_in_the_texts_size_under_a_footnote_rule_are_left_out(tmp_path):
    doc = _doc(tmp_path, _stoc_page)
    got = drag(doc, 0, "mixtures", "Problems")
    assert got == (
        "mixtures of Gaussians. Subject Descriptors: F.2.2 Nonnumerical Algorithms and Problems"
    ), got
    assert doc.words(0)[next(w.index for w in doc.words(0) if w.text == "*Part")].role == (
        "footnote"
    )


COLUMNS = (30, 270, 510)


def _three_columns_with_an_overhang(page) -> None:
    """Three columns of 10 pt text (the third opens higher than the second); under the
    second column's first paragraph a caption line reaches over the gutter into the third."""
    for k, x in enumerate(COLUMNS):
        if k == 1:
            y = _column(page, x, 110, 24, start=3)
            page.insert_text(
                (x + 150, y + 4), "A child receiving a vaccination.", fontsize=8.5, fontname="helv"
            )
            y = _column(page, x, y + 20, 20, start=11)
            page.insert_text((x, y), "whose victims had not been", fontsize=SIZE, fontname="tiro")
        elif k == 2:
            page.insert_text(
                (x, 96), "vaccinated, even though they were", fontsize=SIZE, fontname="tiro"
            )
            _column(page, x, 96 + LEAD, 50, start=17)
        else:
            _column(page, x, 110, 50)


def test_a_caption_reaching_over_a_gutter_leaves_the_columns_apart(tmp_path):
    doc = _doc(tmp_path, _three_columns_with_an_overhang, width=760)
    got = drag(doc, 0, "victims", "even")
    assert got == "victims had not been vaccinated, even", got
