"""Rules found on two unseen pages whose PDFs were lost: heads over a row of columns, and a
figure's panel letter beside a column of text.

- A report (AXA) sets three columns side by side under heads on one baseline ("Insight",
  "Challenge", "Strategy"), large and bold, each at its own column's left edge. A head as
  wide as most of its column leaves less than a line's split gap to the next one, and the
  paragraph across the page above them crosses the gutters, so "Challenge Strategy" came
  out as one line; and a row of heads set that much larger than the text was read as
  title matter, before all of its columns. A drag from the foot of one column to the top
  of the next left the next column's head out. Now a word that stands where a column of
  smaller text starts right under it begins a line of its own
  (:meth:`~basehalf_core.documents.lines._Gutters.column_edge`), and a row of one-line
  blocks level with each other, each heading its own column, is read with the text
  (:func:`~basehalf_core.documents.headings._column_heads`).

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page

VOCABULARY = (
    "the group continues to invest in prevention and protection services for its customers "
    "while managing the exposure of its balance sheet to natural catastrophes and to the "
    "transition of the economy"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 9.0, 11.5
HEADS = ("Insight", "Challenge", "Strategy")


def _text(
    page, x: float, y: float, lines: int, start: int = 0, width: float = 148, size: float = SIZE
) -> float:
    """``lines`` lines of sans from ``x``, each filled with words up to ``width`` points
    (ragged right); the next baseline."""
    k = start
    for _ in range(lines):
        line: list[str] = []
        while True:
            nxt = " ".join([*line, WORDS[k % len(WORDS)]])
            if pymupdf.get_text_length(nxt, fontname="helv", fontsize=size) > width:
                break
            line.append(WORDS[k % len(WORDS)])
            k += 1
        page.insert_text((x, y), " ".join(line), fontsize=size, fontname="helv")
        y += LEAD * size / SIZE
    return y


def _report(page, *, head_size: float, pitch: float, lines: int, intro: bool = True) -> None:
    """A report page: a title, a paragraph across the page (with ``intro``), then three columns
    ``pitch`` apart under large bold heads on one baseline, each column ending in
    "customers." and a word of its own ("first", "second", "third")."""
    page.insert_text(
        (40, 60), "Climate risk and the role of insurers", fontsize=20, fontname="hebo"
    )
    y = 90.0
    if intro:
        y = _text(page, 40, y, 5, 0, 3 * pitch - 15, size=10)
    head_base = y + 30
    for k, head in enumerate(HEADS):
        page.insert_text((40 + k * pitch, head_base), head, fontsize=head_size, fontname="hebo")
    for k, last in enumerate(("first", "second", "third")):
        x = 40 + k * pitch
        end = _text(page, x, head_base + 1.2 * head_size, lines, 7 * k, pitch - 12)
        page.insert_text((x, end), f"customers. {last}", fontsize=SIZE, fontname="helv")


def _narrow_report(page) -> None:
    # Columns 160 pt apart: "Challenge" in 26 pt bold fills 124 pt of its column, 36 pt
    # from "Strategy", under the 39 pt a line splits at.
    _report(page, head_size=26, pitch=160, lines=9)


def test_heads_on_one_baseline_over_their_columns_are_lines_of_their_own(tmp_path):
    doc = one_page(tmp_path, _narrow_report)
    words = doc.words(0)
    lines = {w.text: (w.block, w.line) for w in words if w.text in HEADS}
    assert len(set(lines.values())) == 3, lines


def test_a_drag_from_a_columns_foot_reads_the_next_columns_head(tmp_path):
    doc = one_page(tmp_path, _narrow_report)
    got = drag(doc, 0, "first", "protection")
    assert got == "first Challenge and protection", got
    got = drag(doc, 0, "second", "exposure")
    assert got == "second Strategy managing the exposure", got


def test_a_row_of_large_column_heads_is_not_read_before_its_columns(tmp_path):
    # Wider columns: the heads split apart already; set at 2.7 times the text's size they
    # were a title band read before all three columns.
    doc = one_page(tmp_path, lambda page: _report(page, head_size=24, pitch=180, lines=20))
    got = drag(doc, 0, "first", "protection")
    assert got == "first Challenge and protection", got


def test_a_lone_large_line_over_a_column_keeps_its_own_style(tmp_path):
    # One head alone on its baseline is no row of columns: a headline or pull quote that
    # large keeps its style (and stays out of a drag between two pieces of text).
    def draw(page):
        page.insert_text((40, 80), "Insight", fontsize=26, fontname="hebo")
        end = _text(page, 40, 80 + 1.2 * 26, 20)
        page.insert_text((40, end), "customers. first", fontsize=SIZE, fontname="helv")
        _text(page, 300, 80, 20, start=4)

    doc = one_page(tmp_path, draw)
    styles = {w.text: w.style for w in doc.words(0)}
    assert styles["Insight"] != styles["customers."], styles
