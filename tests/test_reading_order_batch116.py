"""Rules found in the session of batches 116 onwards.

A conference poster (batch 117) draws each section in a box of its own (a band outlined over
the box's outline); "Results 1" holds two sub-columns over "Conclusion", whose text lines up
with them across the page. The column cut ran through both boxes, so a drag from the foot of
the left sub-column to the top of the right one read the conclusion's left half in between.
What an outline is drawn around (``Block.frame``, the outermost one around two blocks or
more, an outline stacked right on another of its width being one with it) is read as one: it
stands in the cut as one block its size, then its blocks are read by the cut. Over 2385
cases: see the session's note for the figures.

A LaTeX data sheet (batch 117) hangs its captions: "Figure 2:" then the title, whose second
line starts under the title. Over the plot, the tick labels end at that stripe and no word
crosses it, so the line split there as at a narrow gutter, and the label was read apart
from its caption. A line's first words that are a caption's label and number alone do not
split at a narrow gutter (``lines._label_alone``).

The same data sheet sets two booktabs tables close together, the second under its own
heading and caption: the rules of both made one table, the heading inside it. A caption
between a stack's second rule or a later one and the next rule starts another table. An
algorithm set "ruled" (batch 116) puts its caption between its two top rules and its steps
down to a third rule far below: a stack of two rules around a caption runs to the next rule
of that width. A poster's tables are ruled in proportion to its 25-point text (2.8 points):
a rule is at most 0.15 of an em thick as well as 1.5 points.

A drag from running text into a caption (batch 119, a thesis addendum) read the figure's
labels between ("L z ˆκ L"); only a drag that starts or ends in a figure's contents keeps
them (``selection.floats_between``). A unit vector's label "ˆκ" (an accent set as a
character of its own) is an axis label.

A tri-fold flyer (batch 117) sets its panels' heads level across the top; the middle panel
is empty under its head, which therefore lay in a gutter of the text under the row, and the
row was peeled off as title matter: a drag down the left panel read "Where can I learn
more?" before it. A head inside a gutter or beside all the text under the row stands in a
column of its own.

A Chinese two-column paper (batch 123) sets its columns 1.2 points apart: its full-width
"。" and "，" sit in the left half of their cells, whose blank right half reaches into the
gutter, so no column cut was found and four of five drags missed. Gutters are sought from
where the lines' ink ends (``Block.ink_right``).
"""

from __future__ import annotations

import pymupdf
import pytest
from pagedraw import across_columns, one_page, write_lines

from basehalf_core.documents.pages import Word
from basehalf_core.documents.selection import floats_between
from basehalf_core.documents.text_blocks import Block
from basehalf_core.documents.title_band import heads_over_columns

PROSE = (
    "the network learns a map from the joint angles to the position of the hand and keeps it "
    "while the body grows so that a reach lands where the eye sees the target"
)
TEXT = PROSE.split()
BLUE = (0.0, 0.5, 0.8)


def _framed_sections(page) -> None:
    """Two outlined sections stacked on the right, each a band's outline over its box's,
    each holding two sub-columns whose gutter lines up with the other's; a column of text on
    the left."""
    write_lines(page, 30, 90, [8] * 50, TEXT, size=7, lead=9)
    for top, start in ((70, 5), (350, 17)):
        page.draw_rect((290, top, 580, top + 24), color=BLUE, width=2)
        page.draw_rect((290, top + 24, 580, top + 260), color=BLUE, width=2)
        page.insert_text((296, top + 17), f"Section {start}", fontsize=12, fontname="helv")
        write_lines(page, 296, top + 44, [8] * 20, TEXT, size=7, lead=9, start=start)
        write_lines(page, 440, top + 44, [8] * 20, TEXT, size=7, lead=9, start=start + 9)


def test_what_an_outline_is_drawn_around_is_read_as_one(tmp_path):
    doc = one_page(tmp_path, _framed_sections)
    words = doc.words(0)
    first_left = [w for w in words if 290 < w.rect[0] < 435 and 95 < w.rect[1] < 330]
    first_right = [w for w in words if w.rect[0] > 435 and 95 < w.rect[1] < 330]
    got = doc.passage(0, doc.select_between(0, first_left[-1].index, first_right[0].index))
    assert got.quote == f"{first_left[-1].text} {first_right[0].text}"


def _datasheet(page) -> None:
    """Text on the left; on the right a plot whose tick labels end where a hanging caption's
    title starts, under it "Figure 2:" and its title on two lines."""
    write_lines(page, 40, 90, [5] * 40, TEXT, size=10, lead=13)
    page.draw_rect((340, 230, 540, 300), color=(0, 0, 0), width=0.5)
    for k, tick in enumerate(("100%", "80%", "60%", "40%", "20%", "0%")):
        width = pymupdf.get_text_length(tick, fontsize=8, fontname="helv")
        page.insert_text((346 - width, 234 + 13 * k), tick, fontsize=8, fontname="helv")
    page.insert_text((300, 320), "Figure 2:", fontsize=10, fontname="tibo")
    page.insert_text((350, 320), "Typical data sheet production", fontsize=10, fontname="tibo")
    page.insert_text((350, 332), "efficiency", fontsize=10, fontname="tibo")


def test_a_hanging_captions_label_is_read_with_its_title(tmp_path):
    doc = one_page(tmp_path, _datasheet)
    words = doc.words(0)
    figure = next(w for w in words if w.text == "Figure")
    end = next(w for w in words if w.text == "efficiency")
    title = next(w for w in words if w.text == "Typical")
    assert title.block == figure.block  # one caption, not a label and a paragraph
    got = doc.passage(0, doc.select_between(0, figure.index, end.index)).quote
    assert got == "Figure 2: Typical data sheet production efficiency"


def _booktabs(page, top: float, rows: int, *, thick: float = 0.8, size: float = 9) -> float:
    """A table of ``rows`` rows ruled as booktabs rules it; returns its bottom rule's y."""
    lead = 1.4 * size
    page.draw_line((60, top), (540, top), width=thick)
    page.insert_text((66, top + lead), "Parameter", fontsize=size, fontname="tibo")
    page.insert_text((300, top + lead), "Rating", fontsize=size, fontname="tibo")
    page.draw_line((60, top + 1.4 * lead), (540, top + 1.4 * lead), width=thick / 2)
    y = top + 1.4 * lead
    for k in range(rows):
        y += lead
        page.insert_text((66, y), f"Exposure {k + 1}", fontsize=size, fontname="tiro")
        page.insert_text((300, y), f"{k + 2} hours", fontsize=size, fontname="tiro")
    y += 0.5 * lead
    page.draw_line((60, y), (540, y), width=thick)
    return y


def _two_tables(page) -> None:
    """Text, a table, a heading, the next table's caption and that table, then a note."""
    y = write_lines(page, 60, 80, [9] * 4, TEXT, size=10, lead=13)
    y = _booktabs(page, y, 3)
    page.insert_text((60, y + 40), "Absolute Maximum Ratings", fontsize=14, fontname="helv")
    page.insert_text((60, y + 70), "Table 2: Absolute Maximum Ratings", fontsize=9, fontname="tibo")
    y = _booktabs(page, y + 80, 1)
    write_lines(page, 60, y + 25, [9] * 3, ["Note:", *TEXT], size=10, lead=13)


def test_a_caption_between_two_ruled_tables_parts_them(tmp_path):
    doc = one_page(tmp_path, _two_tables)
    words = doc.words(0)
    head = next(w for w in words if w.text == "Absolute")
    note = next(w for w in words if w.text == "Note:")
    got = doc.passage(0, doc.select_between(0, head.index, note.index)).quote
    assert got == "Absolute Maximum Ratings Note:"


def _poster_table(page) -> None:
    """A poster's 25-point text over and under a table ruled 2.8 points thick."""
    y = write_lines(page, 40, 80, [4] * 4, TEXT, size=25, lead=30)
    y = _booktabs(page, y, 3, thick=2.8, size=20)
    write_lines(page, 40, y + 40, [4] * 4, TEXT, size=25, lead=30, start=16)


def test_a_posters_table_ruled_in_proportion_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _poster_table)
    words = doc.words(0)
    above = [w for w in words if w.style.endswith("@25.0") and w.rect[1] < 200][-1]
    below = next(w for w in words if w.style.endswith("@25.0") and w.rect[1] > 300)
    got = doc.passage(0, doc.select_between(0, above.index, below.index)).quote
    assert got == f"{above.text} {below.text}"


def _algorithm(page) -> None:
    """Two columns; at the right one's top an algorithm set "ruled": its caption between two
    rules, 22 steps, a rule under them; the column's text under it."""
    write_lines(page, 40, 80, [5] * 50, TEXT, size=10, lead=13)
    page.draw_line((310, 70), (560, 70), width=0.8)
    page.insert_text((312, 82), "Algorithm 1 Encryption", fontsize=10, fontname="tibo")
    page.draw_line((310, 86), (560, 86), width=0.4)
    for k in range(22):
        page.insert_text((312, 100 + 12 * k), f"{k + 1}: Y <- Y + K", fontsize=10, fontname="tiro")
    page.draw_line((310, 370), (560, 370), width=0.4)
    write_lines(page, 310, 390, [5] * 25, TEXT, size=10, lead=13, start=3)


def test_a_ruled_algorithm_is_left_out_of_a_drag_across_the_column_break(tmp_path):
    got, first, last = across_columns(one_page(tmp_path, _algorithm), right_below=375)
    assert got == f"{first} {last}"


def _word(k: int, text: str, block: int, line: int, role: str) -> Word:
    rect = (60.0 + 30 * k, 100.0 + 12 * block, 80.0 + 30 * k, 110.0 + 12 * block)
    return Word(k, text, rect, rect, block, line, role, False, "Times@10.0")


@pytest.mark.parametrize(
    ("end_block", "kept"),
    [
        (3, ["as", "before.", "Figure", "1:", "The", "cell"]),  # into the caption
        (2, ["as", "before.", "L", "z", "ˆκ"]),  # into the figure's labels: all kept
    ],
    ids=["caption", "labels"],
)
def test_a_drag_from_text_into_a_caption_leaves_the_figures_labels_out(end_block, kept):
    spec = [
        ("as", 0, 0, "body"),
        ("before.", 0, 0, "body"),
        ("L", 1, 0, "float"),
        ("z", 2, 0, "float"),
        ("ˆκ", 2, 0, "float"),
        ("Figure", 3, 0, "float"),
        ("1:", 3, 0, "float"),
        ("The", 3, 0, "float"),
        ("cell", 3, 1, "float"),
    ]
    words = [_word(k, *row) for k, row in enumerate(spec)]
    end = max(k for k, w in enumerate(words) if w.block == end_block)
    chosen = floats_between(words, list(range(end + 1)), 0, end)
    assert [words[k].text for k in chosen] == kept


def _unit_vector(page) -> None:
    """A paragraph, a drawing of axes with "z" over one arrow and "ˆκ" just past the other's
    tip, and the figure's caption, all in one font (TikZ sets labels in the text's)."""
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("tiro")
    for k in range(5):
        line = " ".join(TEXT[10 * k : 10 * k + 10] or TEXT[:10])
        writer.append((60, 80 + 13 * k), line, font=font, fontsize=10)
    writer.append((297, 154), "z", font=font, fontsize=10)
    writer.append((344, 203), "ˆκ", font=font, fontsize=10)
    writer.append(
        (60, 270), "Figure 1: The cell is repeated along both axes.", font=font, fontsize=10
    )
    writer.write_text(page)
    page.draw_line((300, 200), (300, 160), width=0.8)
    page.draw_line((300, 200), (340, 200), width=0.8)
    page.draw_rect((120, 150, 260, 240), color=(0, 0, 0), width=0.8)


def test_a_unit_vectors_label_by_an_arrow_is_the_figures(tmp_path):
    doc = one_page(tmp_path, _unit_vector)
    words = doc.words(0)
    hat = next(w for w in words if w.text == "ˆκ")
    assert hat.role == "float"
    last = [w for w in words if w.rect[1] < 140][-1]
    end = next(w for w in words if w.text == "cell")
    got = doc.passage(0, doc.select_between(0, last.index, end.index)).quote
    assert got == f"{last.text} Figure 1: The cell"


def _block(k: int, bbox, size: float, lines: int, style: str) -> Block:
    return Block(k, bbox, (1.0, 0.0), size, 40 * lines, lines, style=style)


@pytest.mark.parametrize("where", ["in-a-gutter", "beside-the-text"])
def test_a_head_over_an_empty_panel_stands_in_a_column_of_its_own(where):
    """The matrix flyer: "Matrix Manifesto" over its panel's text, "Where can I learn more?"
    over an empty panel (in the gutter between that text and the third panel's title, or,
    once the cut took the third panel away, right of all the text under the row)."""
    heads = [
        _block(1, (23, 30, 117, 42), 12, 1, "Helvetica@12"),
        _block(2, (303, 30, 442, 42), 12, 1, "Helvetica@12"),
    ]
    under = [_block(3, (23, 54, 258, 218), 10, 12, "Helvetica@10")]
    if where == "in-a-gutter":
        under.append(_block(4, (590, 156, 813, 195), 17, 2, "Helvetica@17"))
    assert heads_over_columns(heads, under, 6.0, "Helvetica@10", heads + under)


CJK = "语义回响与所有基于采样的多样性增强方法是互补而非竞争关系模型计算了候选的概率分布"


def _cjk_columns(page) -> None:
    """Two columns of Chinese in 10 points: the left one's lines (two paragraphs) end at 290,
    every other one with a full-width "。" set a little further, its cell reaching 296; the
    right column starts at 296.5, its lines half a line lower (not level across the gutter).
    """
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("cjk")
    for k in range(40):
        y = 80 + 14 * k
        left = y + (12 if k >= 20 else 0)  # two paragraphs in the left column
        writer.append((60, left), (CJK * 2)[k % 20 : k % 20 + 23], font=font, fontsize=10)
        if k % 2:
            writer.append((286, left), "。", font=font, fontsize=10)
        writer.append((296.5, y + 7), (CJK * 2)[k % 17 : k % 17 + 24], font=font, fontsize=10)
    writer.write_text(page)


def test_cjk_punctuation_reaching_into_the_gutter_does_not_close_it(tmp_path):
    """A Chinese paper (batch 123) sets its columns 1.2 points apart: a line ending with a
    full-width "。" has its cell's blank right half in the gutter, so no column cut was found
    and the page was read row by row across both columns. The gutter is sought from where the
    lines' ink ends (``Block.ink_right``)."""
    doc = one_page(tmp_path, _cjk_columns)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 290]
    right = [w for w in words if w.rect[0] > 290]
    assert max(w.index for w in left) < min(w.index for w in right)
