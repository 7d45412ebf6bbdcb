"""Rules found on batch 45 (Chinese and Japanese papers, first measured 8/22).

- A Chinese section's heading ("1.3 图的统计", the number in Times, the title in Hei) stands
  flush with its column's left edge over a paragraph of one line, which opens with its
  two-character indent: the heading was not inside that paragraph's block, and a drag past
  it left it out. A one-line text block is measured from its column's edge (that of the
  text blocks around it, at most three sizes left).
- A heading whose number and title come out as two blocks ("2" in Times, "图的基础分析" in
  Hei, both 14 pt) had its number read as a numbered heading and its title not. A one-line
  block right after a one-line block read as text, level with it, in its size, at most 1.5
  sizes to its right, is read too (the same holds for a piece of inline math closing a
  line).

Scan of 514 pages (``bench/reading_order_scan.py``): 10 pages change with the first rule
(headings read as text: CJC's "1 一级标题", USENIX's "References", GeoTopo's "Bemerkung
15"), 22 with the second (mostly pieces of inline math taking the text's style).

Found on batch 54 (a Chinese course paper): its abstract runs across the first page in KaiTi,
more of it than the columns' SimSun, so KaiTi was taken for the page's text, and "1. 赛题简介"
over "1. 1 赛题任务" over a SimSun paragraph kept their own fonts. A heading right over a
paragraph set in the text's size in another font (three lines or more, or a heading read so)
takes that paragraph's style. Scan: 23 pages change, nearly all title matter (a title or an
author line taking the style of the block under it) and "Abstract"/"Introduction" heads.

The first page here is made with PyMuPDF in tmp_path; the second rule is checked on the
report's own block boxes (the two pieces do not come apart on a page PyMuPDF draws).
"""

from __future__ import annotations

from conftest import drag
from pagedraw import one_page

from basehalf_core.documents.headings import headings_read_as_text
from basehalf_core.documents.text_blocks import Block

SIZE = 10.5
LEFT = 56.0
LINE = "the graph holds one node for each person named in the news and one edge"


def _paragraph(page, y: float, lines: int) -> float:
    """``lines`` lines of text from the column's edge, the first indented by two
    characters' width; returns the next baseline."""
    for k in range(lines):
        x = LEFT + (2 * SIZE if k == 0 else 0)
        page.insert_text((x, y), LINE, fontsize=SIZE, fontname="tiro")
        y += 1.5 * SIZE
    return y


def _line(page, y: float, text: str, x: float = LEFT + 2 * SIZE) -> None:
    """One line of text, indented two characters' width."""
    page.insert_text((x, y), text, fontsize=SIZE, fontname="tiro")


def _report(page) -> None:
    """A report's page: a paragraph, then the heading "1.3 Graph statistics" in a bold sans
    over a paragraph of one indented line; a paragraph, then the heading "2" (bold serif)
    "Basic analysis" (bold sans), its subheading "2.1 Counts" and a paragraph whose lines
    start in from the heading's title."""
    y = _paragraph(page, 90, 6)
    _line(page, y, "the size of a node shows its degree.")
    # A drawing between the paragraph and the heading, as in the report.
    page.draw_rect((LEFT + 40, y + SIZE, LEFT + 200, y + 9 * SIZE), width=0.8)
    y += 11 * SIZE
    page.insert_text((LEFT, y), "1.3 Graph statistics", fontsize=11, fontname="hebo")
    y += 1.6 * SIZE
    _line(page, y, "Counting the graph gives:")
    y += 6 * SIZE


def test_a_heading_over_an_indented_line_is_read(tmp_path):
    doc = one_page(tmp_path, _report)
    got = drag(doc, 0, "degree.", "Counting")
    assert got == "degree. 1.3 Graph statistics Counting", got


def _block(key, bbox, style, size, lines=1) -> Block:
    """A left-to-right block whose first line is as high as its size."""
    first = (bbox[0], bbox[1], bbox[2], bbox[1] + size)
    chars = 20 * lines
    return Block(key, bbox, (1.0, 0.0), size, chars, lines, style=style, first_line=first)


def test_a_headings_title_is_read_with_its_number():
    """The number "2" (Times) stands in the column over its paragraph and is read; its title
    ("图的基础分析", Hei) runs past the paragraph's right edge, the two apart by half a size."""
    text = "SimSun@10.5"
    number = _block("2", (308.3, 409.7, 315.3, 425.2), "TimesNewRomanPSMT@14.0", 14.0)
    title = _block("title", (322.2, 410.1, 480.0, 424.2), "SimHei@14.0", 14.0)
    body = [
        _block("above", (308.3, 271.3, 538.9, 375.5), text, 10.5, lines=7),
        number,
        title,
        _block("under", (308.3, 435.0, 460.0, 489.8), text, 10.5, lines=3),
    ]
    headings_read_as_text(body, text)
    assert number.style == text
    assert title.style == text


def _course_paper(page) -> None:
    """A course paper's first page: an abstract across the page in Helvetica, more of it
    than the columns' Times; the right column opens with "1. Overview" (bold, 12 pt) over
    "1.1 Task" (in a third font, as BUAA's "1. 1 赛题任务" is in Times) over its paragraph."""
    abstract = "the abstract of this paper runs across the whole page in another typeface"
    for n in range(14):
        page.insert_text((48, 80 + n * 14), abstract, fontsize=10.5, fontname="helv")
    words = "production data of every part was measured and checked".split()  # noqa: SIM905
    for n in range(9):
        line = " ".join(words[(n + j) % len(words)] for j in range(5))
        page.insert_text((48, 320 + n * 14), line, fontsize=10.5, fontname="tiro")
    page.insert_text((48, 320 + 9 * 14), "the final quality index.", fontsize=10.5, fontname="tiro")
    page.insert_text((308, 330), "1. Overview", fontsize=12, fontname="hebo")
    page.insert_text((308, 360), "1.1 Task", fontsize=10.5, fontname="china-s")
    for n in range(5):
        line = ("Since " if n == 0 else "") + " ".join(
            words[(n + j) % len(words)] for j in range(6)
        )
        page.insert_text((308, 376 + n * 14), line, fontsize=10.5, fontname="tiro")


def test_headings_over_a_paragraph_in_the_columns_font_are_read(tmp_path):
    doc = one_page(tmp_path, _course_paper)
    assert drag(doc, 0, "index.", "Since") == "index. 1. Overview 1.1 Task Since"


def test_a_heading_over_two_paragraphs_set_otherwise_is_read_once():
    """A heading right over two paragraphs, each in a font other than the page's text: it
    takes the first one's style and keeps it (it once went back and forth for ever)."""
    text = "Times@10.5"
    body = [
        _block(f"t{k}", (300.0, 100.0 + 60 * k, 540.0, 150.0 + 60 * k), text, 10.5, lines=4)
        for k in range(6)
    ]
    heading = _block("h", (56.0, 100.0, 120.0, 110.0), "Heiti@10.5", 10.5)
    first = _block("a", (56.0, 112.0, 280.0, 150.0), "KaiTi@10.5", 10.5, lines=3)
    second = _block("b", (56.0, 125.0, 280.0, 160.0), "SimSun@10.5", 10.5, lines=3)
    headings_read_as_text([*body, heading, first, second], text)
    assert heading.style == "KaiTi@10.5"
