"""Rules found on batch 19 (unseen pages: an IEEE conference paper, a Korean report, ...).

- An IEEE paper sets its section headings in small capitals: "IV. PROTOCOL OPERATION" is
  "IV." and the capitals "P", "O" at the text's size, the rest of each word at 0.8 of it.
  Styled by its smaller letters, the heading was set apart from the text and a drag across
  it left "PROTOCOL OPERATION" out. A word all in capitals of two sizes, starting in the
  larger, takes the larger (small capitals take their capitals' size).
- A Korean report sets a table's title ("[표 1] ...") a line's spacing over the table, in
  another font but no larger than the text: a drag from the paragraph above the table to
  the one under it read the title. A line of its own, alone on its line, right above a
  figure or table region and within its width, ending in no punctuation, is the region's
  title: read like a caption (kept only when a drag starts or ends in it).
- Read whole, the small capitals of an ACL caption ("Table 1: ... HMM-T outperforms
  N-GRAMS ...") no longer split it into pieces, and the five-line caption measured like a
  paragraph, which is never taken for a caption: it was read as running text. A block
  opening with a caption's label under a figure whose first short line is its last is all
  caption, read as one.
- The Korean report breaks its lines inside words ("이번에 개" / "정된 법에서") and keeps the
  space a line ends with where a line ends a word: a drag read "개 정된". At a Hangul line
  wrap of a full line, a line ending in no space joins the next without one, on a page
  whose lines keep their ending spaces at all.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import one_page, write_lines

VOCABULARY = (
    "selection of the route is out of scope of this paper while the nodes of each zone "
    "forward their data to the sink along the shortest path"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 11.5
LEFT = 56


def _text(page, x: float, y: float, lines: int, start: int = 0) -> float:
    """``lines`` full lines of 10 pt text (eight words each) from ``x``; the next baseline."""
    return write_lines(page, x, y, [8] * lines, WORDS, size=SIZE, lead=LEAD, start=start)


def _small_caps(page, x: float, y: float, parts: list[tuple[str, float]]) -> None:
    """Pieces of one line written one after another, each in its own size."""
    for text, size in parts:
        page.insert_text((x, y), text, fontsize=size, fontname="tiro")
        x += pymupdf.get_text_length(text, fontsize=size, fontname="tiro")


def _ieee_heading(page) -> None:
    """A paragraph, then a centred small-capitals heading set a line's spacing over the
    next paragraph, "IV." a wide word space before "PROTOCOL" (as IEEE's template does)."""
    y = _text(page, LEFT, 100, 6)
    page.insert_text((LEFT, y), "out of scope of this research paper.", fontsize=SIZE)
    y += 1.5 * LEAD
    page.insert_text((LEFT + 80, y), "IV.", fontsize=SIZE, fontname="tiro")
    parts = [("P", SIZE), ("ROTOCOL ", 0.8 * SIZE), ("O", SIZE), ("PERATION", 0.8 * SIZE)]
    _small_caps(page, LEFT + 80 + 11 + 1.1 * SIZE, y, parts)
    page.insert_text((LEFT + 10, y + LEAD), "This section describes the zones", fontsize=SIZE)
    _text(page, LEFT, y + 2 * LEAD, 6, start=3)


def test_a_small_capitals_heading_is_read_with_the_text(tmp_path):
    doc = one_page(tmp_path, _ieee_heading)
    got = drag(doc, 0, "research", "section")
    assert got == "research paper. IV. PROTOCOL OPERATION This section", got


def test_a_small_capitals_word_takes_its_capitals_size(tmp_path):
    doc = one_page(tmp_path, _ieee_heading)
    words = {w.text: w for w in doc.words(0)}
    assert words["PROTOCOL"].style == words["IV."].style


def _table(page, top: float, width: float = 240) -> float:
    """A table of three rows under a filled header row; the y of its bottom."""
    page.draw_rect(pymupdf.Rect(LEFT, top, LEFT + width, top + 14), color=None, fill=(0.8,) * 3)
    bottom = top + 14 + 14 * 3
    for k in range(4):
        page.draw_line((LEFT, top + 14 + 14 * k), (LEFT + width, top + 14 + 14 * k), width=0.5)
        page.draw_line((LEFT + width * k / 3, top), (LEFT + width * k / 3, bottom), width=0.5)
    for k, cell in enumerate(("class", "before", "after")):
        page.insert_text((LEFT + 4 + 80 * k, top + 10), cell, fontsize=9, fontname="helv")
    for r in range(3):
        for k in range(3):
            cell = f"{WORDS[r + k]} {r}"
            page.insert_text((LEFT + 4 + 80 * k, top + 25 + 14 * r), cell, fontsize=8)
    return bottom


def _titled_table(
    page, title: str = "Comparison of the law before and after", size=SIZE, font="tiro"
) -> None:
    """A paragraph, a title line (in the text's font and size: the report's is in another
    font, but a heading is read in the text's style) right over a table, a paragraph."""
    y = _text(page, LEFT, 100, 5)
    page.insert_text((LEFT, y), "as the report explains here.", fontsize=SIZE, fontname="tiro")
    y += 2.5 * LEAD
    page.insert_text((LEFT, y), title, fontsize=size, fontname=font)
    bottom = _table(page, y + 4)
    y = bottom + 2 * LEAD
    page.insert_text((LEFT, y), "In the life insurance of old", fontsize=SIZE, fontname="tiro")
    _text(page, LEFT, y + LEAD, 5, start=4)


def test_a_title_right_above_a_table_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _titled_table)
    got = drag(doc, 0, "explains", "insurance")
    assert got == "explains here. In the life insurance", got


def test_a_drag_from_inside_the_title_keeps_it(tmp_path):
    doc = one_page(tmp_path, _titled_table)
    words = doc.words(0)
    assert {w.role for w in words if w.text == "Comparison"} == {"float"}
    got = drag(doc, 0, "explains", "after")
    assert got == "explains here. Comparison of the law before and after", got


def _heading_over_a_table(page) -> None:
    _titled_table(page, "Attention Visualizations", size=12, font="hebo")


def test_a_larger_heading_over_a_table_is_still_read(tmp_path):
    doc = one_page(tmp_path, _heading_over_a_table)
    assert {w.role for w in doc.words(0) if w.text == "Visualizations"} == {"body"}


HANGUL = [
    "나 집단 발생의 우려가 커서 발생 또는 유행 ",
    "즉시 신고하여야 하고 음압격리와 같은 높은",
    "수준의 격리가 필요한 것이었으나 이번에 개",
    "정된 법에서 이들은 제이급으로 변경되었다.",
]


def _korean(page, lines: list[str]) -> None:
    write_lines(page, LEFT, 100, [1] * len(lines), lines, size=SIZE, lead=16, font="korea")


def test_a_hangul_word_broken_at_a_line_end_joins_without_a_space(tmp_path):
    doc = one_page(tmp_path, lambda page: _korean(page, HANGUL))
    got = drag(doc, 0, "이번에", "법에서")
    assert got == "이번에 개정된 법에서", got


def test_a_hangul_line_ending_in_a_space_keeps_it(tmp_path):
    doc = one_page(tmp_path, lambda page: _korean(page, HANGUL))
    got = drag(doc, 0, "유행", "신고하여야")
    assert got == "유행 즉시 신고하여야", got


def test_a_page_that_keeps_no_line_end_spaces_keeps_todays_space(tmp_path):
    lines = [line.rstrip() for line in HANGUL]
    doc = one_page(tmp_path, lambda page: _korean(page, lines))
    got = drag(doc, 0, "이번에", "법에서")
    assert got == "이번에 개 정된 법에서", got


def _justified(page, x: float, y: float, words: list[str], width: float) -> None:
    """One line of ``words`` in 10 pt Times, its word spaces stretched to fill ``width``."""
    lengths = [pymupdf.get_text_length(w, fontsize=SIZE, fontname="tiro") for w in words]
    space = (width - sum(lengths)) / (len(words) - 1)
    for word, length in zip(words, lengths, strict=True):
        page.insert_text((x, y), word, fontsize=SIZE, fontname="tiro")
        x += length + space


def _long_caption_under_a_table(page) -> None:
    """A paragraph, a table, and under it a justified caption of five lines in the text's
    font and size (ACL's "Table 1: ... HMM-T outperforms N-GRAMS ..."), a paragraph under
    that."""
    y = _text(page, LEFT, 100, 5)
    page.insert_text((LEFT, y), "as the report explains here.", fontsize=SIZE, fontname="tiro")
    bottom = _table(page, y + 2 * LEAD)
    y = bottom + LEAD
    lines = [
        line.split()
        for line in (
            "Table 1: Type checking of the zones is shown for each",
            "the route is out of scope of this paper while the nodes",
            "of each zone forward their data to the sink along the",
            "shortest path selection of the route is out of scope of",
        )
    ]
    width = max(
        pymupdf.get_text_length(" ".join(line), fontsize=SIZE, fontname="tiro") for line in lines
    )
    for k, line in enumerate(lines):
        _justified(page, LEFT, y + k * LEAD, line, width)
    y += 4 * LEAD
    page.insert_text((LEFT, y), "on average.", fontsize=SIZE, fontname="tiro")
    y += 2.5 * LEAD
    page.insert_text((LEFT, y), "In the life insurance of old", fontsize=SIZE, fontname="tiro")
    _text(page, LEFT, y + LEAD, 5, start=4)


def test_a_caption_that_is_all_its_block_is_read_as_one(tmp_path):
    doc = one_page(tmp_path, _long_caption_under_a_table)
    got = drag(doc, 0, "explains", "insurance")
    assert got == "explains here. In the life insurance", got
