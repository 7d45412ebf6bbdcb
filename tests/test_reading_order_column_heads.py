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

- A Nature article sets a figure's panel letters ("a" ... "f") in a bold sans at each
  panel's top left, just outside the plot the panel draws (so outside the figure's region),
  with a column of text narrowed beside the figure. The letters in the left row of panels
  lay within the width of that column (its lines run on under the figure) and were read as
  its headings: a drag from the column's foot to the next column's top read "c e" between
  the two. A lone word of one or two letters set otherwise than the page's text, within a
  text size of a figure's region, is read like the figure
  (:func:`~basehalf_core.documents.figure_labels.panel_labels`).

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


FIGURE_VOCABULARY = (
    "neurons in the dorsal striatum responded to the cue with a burst of spikes that scaled "
    "with the expected reward and decayed over the following trials as the mice learned the "
    "new contingency"
)
FIGURE_TEXT = FIGURE_VOCABULARY.split()


def _serif(page, x: float, y: float, lines: int, width: float, start: int = 0) -> tuple:
    """``lines`` lines of 9 pt serif filled up to ``width``; (next baseline, next word)."""
    k = start
    for _ in range(lines):
        line: list[str] = []
        while True:
            word = FIGURE_TEXT[k % len(FIGURE_TEXT)]
            if pymupdf.get_text_length(" ".join([*line, word]), fontsize=SIZE) > width:
                break
            line.append(word)
            k += 1
        page.insert_text((x, y), " ".join(line), fontsize=SIZE, fontname="tiro")
        y += 11
    return y, k


def _figure_page(page) -> None:
    """A figure of six plotted panels (a-f) over the right of the page's top, its letters in
    9 pt bold sans just left of each panel's axes; the left column narrowed beside it runs
    on under it at full width, ending "... last words"; the right column starts under the
    figure's caption with "Next column"."""
    fx0, fx1, fy0, fy1 = 200.0, 555.0, 50.0, 404.0
    pw, ph = (fx1 - fx0 - 15) / 2, (fy1 - fy0 - 30) / 3
    letters = iter("abcdef")
    for row in range(3):
        for col in range(2):
            x, y = fx0 + col * (pw + 15), fy0 + row * (ph + 15)
            shape = page.new_shape()
            shape.draw_polyline([(x + 12, y + 2), (x + 12, y + ph - 12), (x + pw, y + ph - 12)])
            shape.finish(color=(0, 0, 0), width=0.6)
            trace = [
                (x + 14 + i * (pw - 16) / 40, y + ph - 20 - (ph - 30) * ((i * 7) % 11) / 11)
                for i in range(41)
            ]
            shape.draw_polyline(trace)
            shape.finish(color=(0.8, 0.1, 0.1), width=0.8)
            shape.commit()
            page.insert_text((x + 14, y + ph - 4), "Time (s)", fontsize=5.5, fontname="helv")
            page.insert_text((x, y + 8), next(letters), fontsize=SIZE, fontname="hebo")
    y, k = _serif(page, 40, 58, 32, fx0 - 47)
    page.insert_text(
        (fx0, fy1 + 14), "Fig. 2 | Responses to the cue.", fontsize=7.5, fontname="hebo"
    )
    y, k = _serif(page, 40, y, 29, 250, k)
    page.insert_text((40, y), "last words", fontsize=SIZE, fontname="tiro")
    page.insert_text((305, 460), "Next column", fontsize=SIZE, fontname="tiro")
    _serif(page, 305, 471, 24, 250, k + 1)


def test_a_drag_past_a_figure_leaves_its_panel_letters_out(tmp_path):
    doc = one_page(tmp_path, _figure_page)
    got = drag(doc, 0, "last", "column")
    assert got == "last words Next column", got


def test_a_one_letter_heading_away_from_figures_is_read(tmp_path):
    # An appendix's "A" over its text, a figure's plot in the other column: a heading,
    # read with the text.
    def draw(page):
        y, _k = _serif(page, 40, 60, 20, 250)
        page.insert_text((40, y + 6), "A", fontsize=12, fontname="hebo")
        _serif(page, 40, y + 20, 10, 250, 5)
        shape = page.new_shape()
        shape.draw_polyline([(320, 60), (320, 200), (550, 200)])
        shape.draw_polyline([(330, 190), (400, 90), (470, 150), (540, 70)])
        shape.finish(color=(0, 0, 0), width=0.6)
        shape.commit()
        page.insert_text((305, 230), "Next column", fontsize=SIZE, fontname="tiro")
        _serif(page, 305, 241, 30, 250, 3)

    doc = one_page(tmp_path, draw)
    assert next(w for w in doc.words(0) if w.text == "A").role == "body"
