"""Captions told by their label and their place beside a figure or a table (ro29).

- IEEE Access sets "FIGURE 1: System overview." in the text's font and size, 41 pt under its
  picture (the image file has white space at its foot): the caption rule reached only 4 em
  under a figure, so the caption was read as a one-line paragraph between the left column's
  foot and the right column's text. A caption standing by itself may lie farther, up to half
  its figure's height, when no other text lies between the two.
- A medical journal sets a full-width table at the page's foot drawn with rules alone, its
  caption "Table 1 Summary characteristics ..." (no punctuation after the number) right under
  the left column's last line: no drawing region held the table, the label was not taken for
  a caption's, and the line was read as that column's next one. A label followed by a
  capitalised title opens a caption too, and two rules drawn across the same width, one under
  the other, bound a table whose caption sits over its top rule.
- A caption's title line over a legend set smaller than the text ("Figure 6 Binding of ..."
  over "(A) Residues ...") is split off no more: the legend is the caption's, not the text
  resuming under it.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pytest
from conftest import drag
from pagedraw import one_page, write_lines

from basehalf_core.documents.captions import CAPTION_LABEL

VOCABULARY = (
    "the model was fitted to the pooled data of all the trials and its estimates were "
    "compared with those of the fixed effects model for each of the outcomes"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 11.5
LEFT, RIGHT = 40, 310
TOP = 60


def _text(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` full lines of 10 pt text (seven words each) from ``x``; the next baseline."""
    return write_lines(page, x, y, [7] * lines, WORDS, size=SIZE, lead=LEAD, start=start)


def _line(page, x: float, y: float, text: str, size: float = SIZE, font: str = "tiro") -> None:
    page.insert_text((x, y), text, fontsize=size, fontname=font)


def _far_caption(page) -> None:
    """A left column ending "... ends here."; the right column opens with a picture whose
    caption, in the text's font and size, stands 41 pt under it (more than 4 em), and its
    text starts "Resumed text ..." a paragraph's space under the caption."""
    y = _text(page, LEFT, TOP, 50)
    _line(page, LEFT, y, "the last line of the left column ends here.")
    # The picture: a filled rectangle 120 pt tall (drawings make a figure region as an
    # image does).
    page.draw_rect((RIGHT, TOP - 8, 550, TOP + 112), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
    cap = TOP + 112 + 52  # baseline: the line's top lies 41 pt under the picture
    _line(page, 370, cap, "FIGURE 1: System overview.")
    _line(page, RIGHT, cap + 30, "Resumed text of the right column goes on")
    _text(page, RIGHT, cap + 30 + LEAD, 30, start=3)


def test_a_caption_well_under_its_picture_is_not_read_between_the_columns(tmp_path):
    doc = one_page(tmp_path, _far_caption)
    got = drag(doc, 0, "ends", "Resumed")
    assert got == "ends here. Resumed", got
    roles = {w.role for w in doc.words(0) if w.text in ("FIGURE", "overview.")}
    assert roles == {"float"}, roles


def _paragraph_between(page) -> None:
    """As :func:`_far_caption`, but a paragraph of the right column stands between the
    picture and a line opening "Figure 2:" 55 pt under it: that line is not beside the
    picture, and stays running text."""
    y = _text(page, LEFT, TOP, 50)
    _line(page, LEFT, y, "the last line of the left column ends here.")
    page.draw_rect((RIGHT, TOP - 8, 550, TOP + 112), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
    _text(page, RIGHT, TOP + 112 + 20, 2, start=5)
    _line(page, RIGHT, TOP + 112 + 64, "Figure 2: the second one shows the same.")
    _text(page, RIGHT, TOP + 112 + 64 + 30, 20, start=9)


def test_a_labelled_line_with_text_between_it_and_a_picture_far_above_stays_running_text(
    tmp_path,
):
    doc = one_page(tmp_path, _paragraph_between)
    roles = {w.role for w in doc.words(0) if w.text == "second"}
    assert roles == {"body"}, roles


def _ruled_table(caption: str, title_font: str = "tiro"):
    """A page drawer: two columns, the left one ending "... underlying assump-", the right one
    going on "tion of the model ..."; under both, a table across the page drawn with three
    rules alone, ``caption`` a line under the left column's last line and right over the
    table's top rule (its label in bold, the rest in ``title_font``)."""

    def draw(page) -> None:
        y = _text(page, LEFT, TOP, 45)
        _line(page, LEFT, y, "of the trials was also fitted. The underlying assump-")
        last = y
        _line(page, RIGHT, TOP, "tion of the model is that the studies are from a")
        _text(page, RIGHT, TOP + LEAD, 45, start=4)
        top_rule = last + 32
        label, _, title = caption.partition(" ")
        number, _, title = title.partition(" ")
        _line(page, LEFT, top_rule - 3, f"{label} {number}", font="tibo")
        _line(page, LEFT + 36, top_rule - 3, title, font=title_font)
        for dy in (0, 22, 110):
            page.draw_line((LEFT, top_rule + dy), (555, top_rule + dy), width=0.5)
        heads = ["Reference", "Year", "Country", "Participants", "Treatment"]
        for k, head in enumerate(heads):
            _line(page, LEFT + 100 * k, top_rule + 14, head, size=7.5, font="helv")
            for row in range(8):
                cell = f"{head[:3]} {1999 + row}"
                _line(page, LEFT + 100 * k, top_rule + 34 + 10 * row, cell, size=7.5, font="helv")

    return draw


def test_a_caption_over_a_table_drawn_with_rules_is_not_read_in_the_column(tmp_path):
    doc = one_page(
        tmp_path, _ruled_table("Table 1 Summary characteristics of studies and participants")
    )
    got = drag(doc, 0, "underlying", "model")
    assert got == "underlying assumption of the model", got


def test_running_text_opening_with_a_table_reference_over_a_table_stays_in(tmp_path):
    """A line of running text ("Table 1 shows the results ...") right over the table's rule
    reads on: the label is followed by a word in lower case, no title. (It ends its
    sentence: a line with no closing mark right over a table is read as the table's title.)"""
    doc = one_page(tmp_path, _ruled_table("Table 1 shows the results we pooled.", "tiro"))
    roles = {w.role for w in doc.words(0) if w.text in ("shows", "pooled.")}
    assert roles == {"body"}, roles


@pytest.mark.parametrize(
    ("line", "caption"),
    [
        ("Table 1 Summary characteristics of studies", True),
        ("Figure 1 Flow chart depicting the trial flow", True),
        ("Table 2 SVM results", True),
        ("Table 1 shows the results", False),
        ("Figure 2 plots the error", False),
        ("Figure 1 A and B show the two runs", False),  # panels named, not a title
    ],
)
def test_a_caption_label_may_be_followed_by_its_capitalised_title(line, caption):
    assert bool(CAPTION_LABEL.match(line)) is caption


def _legend(page) -> None:
    """A left column of 10 pt text; a picture at the top of the right column, and under it a
    caption of a title line and four lines of legend in 8 pt, then the right column's text."""
    _text(page, LEFT, TOP, 55)
    page.draw_rect((RIGHT, TOP - 8, 550, TOP + 112), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
    y = TOP + 112 + 16
    _line(page, RIGHT, y, "Figure 6 Binding of the compound", size=8)
    legend = (
        "(A) Residues of the domain interacting with the compound are shown as sticks and",
        "the hydrogen bonds and water mediated interactions are shown as dashed lines in",
        "black and red respectively while the density corresponds to the omitted map for",
        "the compound at one sigma and the water and zinc ions are shown as red spheres.",
    )
    for k, line in enumerate(legend):
        _line(page, RIGHT, y + 9.5 * (k + 1), line, size=8)
    _text(page, RIGHT, y + 9.5 * 5 + 24, 30, start=2)


def test_a_caption_s_legend_set_smaller_than_the_text_stays_with_its_title(tmp_path):
    doc = one_page(tmp_path, _legend)
    roles = {w.text: w.role for w in doc.words(0)}
    assert roles["Binding"] == "float"
    assert roles["Residues"] == "float", roles["Residues"]
