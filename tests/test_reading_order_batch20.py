"""Rules found on batch 20 (unseen pages: a PNAS article, ...).

- PNAS opens a paragraph with a run-in heading set in a smaller bold sans ("Oleic Acid
  Oxidation.", 8 pt) and goes on in the text's 9 pt serif a word space on. The line came
  out as one segment styled by its first word: the text on it was read as other print,
  and a drag from the foot of the left column to the top of the right one left the right
  column's first line out. A line opening with a short capitalised phrase ending in a full
  stop or colon, in another font, whose rest is all set in the page's text style, takes
  that style (a math symbol or a word's second half ending a sentence at a line start does
  not: "W. More concrete results"; restyling every line of two styles by most of its
  characters moved 202 of 762 pages of the side-effect scan, this rule 7).

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page, write_lines

VOCABULARY = (
    "myotubes were cultured in the medium with serum for two days before the assay and "
    "the cells were washed twice then lysed in buffer as the kit describes"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 9.0, 10.2
LEFT, RIGHT = 43, 305
TOP = 60


def _text(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` full lines of 9 pt text (eight words each) from ``x``; the next baseline."""
    return write_lines(page, x, y, [8] * lines, WORDS, size=SIZE, lead=LEAD, start=start)


def _line(page, x: float, y: float, text: str) -> None:
    page.insert_text((x, y), text, fontsize=SIZE, fontname="tiro")


def _run_in(page, x: float, y: float, heading: str, text: str, font: str = "hebo") -> None:
    """A line opening with ``heading`` in 8 pt ``font``, then ``text`` in the text's 9 pt
    serif a word space on (as PNAS sets a paragraph's run-in heading)."""
    page.insert_text((x, y), heading, fontsize=8, fontname=font)
    x += pymupdf.get_text_length(heading, fontsize=8, fontname=font) + 2.5
    page.insert_text((x, y), text, fontsize=SIZE, fontname="tiro")


def _two_columns(page) -> None:
    """A left column of running text ending in "Beverly, MA)."; the right column opens with a
    run-in heading's line; lower in it, another paragraph opens with one."""
    y = _text(page, LEFT, TOP, 40)
    _line(page, LEFT, y, "dilution from the kit of Beverly, MA).")
    _run_in(page, RIGHT, TOP, "Oleic Acid Oxidation.", "The oleate oxidation assay was done as")
    _line(page, RIGHT, TOP + LEAD, "described (17). Briefly, the cells")
    y = _text(page, RIGHT, TOP + 2 * LEAD, 10, start=5)
    _line(page, RIGHT, y, "counted by liquid scintillation.")
    _run_in(
        page, RIGHT, y + LEAD, "Glycogen Content Analysis.", "Cells were grown for six days in DMEM"
    )
    _text(page, RIGHT, y + 2 * LEAD, 10, start=2)


def test_a_drag_into_a_column_opening_with_a_run_in_heading_reads_its_line(tmp_path):
    doc = one_page(tmp_path, _two_columns)
    got = drag(doc, 0, "dilution", "(17).")
    want = (
        "dilution from the kit of Beverly, MA). Oleic Acid Oxidation. The oleate oxidation "
        "assay was done as described (17)."
    )
    assert got == want, got


def test_a_drag_across_a_run_in_heading_keeps_it(tmp_path):
    doc = one_page(tmp_path, _two_columns)
    got = drag(doc, 0, "scintillation.", "DMEM")
    want = "scintillation. Glycogen Content Analysis. Cells were grown for six days in DMEM"
    assert got == want, got


def test_the_run_in_heading_line_takes_the_text_style(tmp_path):
    doc = one_page(tmp_path, _two_columns)
    words = {w.text: w for w in doc.words(0)}
    assert words["Oxidation."].style == words["oleate"].style == words["Briefly,"].style
    assert words["Oxidation."].role == "body"
