"""Rules found on batch 25 (unseen pages, first measured 15/23).

- A list hangs each item's bullet left of the item's text. The bullets grouped on their
  own, a narrow column beside the list's text, and the XY-cut read that column between
  two lines of the text next to it ("names and • • • • affiliations", "software. • 1.2.
  Double-blind review"). A group of bullets only, each level with a line's first word in
  one other group and at most two sizes before it, goes into that group, each bullet
  right before the word it opens (scan: 5 of 455 pages change, all of them lists'
  bullets).
- Springer's book class sets a quotation in 8.5 pt in 10 pt text, indented 12 pt on both
  sides, after a paragraph; a drag from that paragraph past the quotation kept only text
  set like its ends and left the quotation out. A block in the text's family, set a little
  smaller, right under a paragraph that reaches past it on both sides, with the text going
  on under it, is read as text (scan: 5 of 455 pages change: that quotation, a displayed
  example sentence of an ACL paper, two displayed commands of Tufte's handout).

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import justify, one_page, write_lines

VOCABULARY = (
    "the author text is placed within a tabular environment to allow for multicolumn "
    "formatting of author names and affiliations and several commands are enabled"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 12.0
LEFT, RIGHT = 54, 322


def _line(page, x: float, y: float, text: str) -> None:
    """``text`` from ``(x, y)`` in PyMuPDF's built-in Droid Sans Fallback, written with a
    TextWriter (``insert_text`` writes "•" as "·")."""
    writer = pymupdf.TextWriter(page.rect)
    writer.append((x, y), text, font=pymupdf.Font("cjk"), fontsize=SIZE)
    writer.write_text(page)


def _list(page) -> None:
    """Two columns: the left one ends in a list item ("... for the writers' names and");
    the right one goes on with that item ("institutes. Several ...") and four more, all
    indented, each opening with a bullet hung 10 pt left of its text, in the items' own
    font and size: under the column's first line, nothing but bullets stands at its left
    edge."""
    y = write_lines(page, LEFT, 70, [8] * 50, WORDS, size=SIZE, lead=LEAD)
    _line(page, LEFT, y, "•")
    _line(page, LEFT + 10, y, "place a row for the writers' names and")
    items = [
        ["institutes. Several macros help keep", "this tidy; see the manual for more."],
        ["Place every writer in one row,", "institutes just below; emails"],
        ["follow in the row under them, set", "in a typewriter font."],
        ["Writers' names sit centred over", "their institutes."],
        ["A footnote marks whoever", "answers letters."],
    ]
    y = 70
    for k, item in enumerate(items):
        if k:
            _line(page, RIGHT, y, "•")
        for text in item:
            _line(page, RIGHT + 10, y, text)
            y += LEAD


def test_a_drag_from_a_column_foot_into_a_list_reads_no_column_of_bullets(tmp_path):
    doc = one_page(tmp_path, _list)
    got = drag(doc, 0, "place", "Several")
    assert got == "place a row for the writers' names and institutes. Several", got


def test_a_drag_across_two_items_reads_the_bullet_that_opens_the_second(tmp_path):
    doc = one_page(tmp_path, _list)
    got = drag(doc, 0, "below;", "follow")
    assert got == "below; emails • follow", got


def _quotation(page) -> None:
    """A paragraph ending "described in Sect. 2."; a quotation in 8.5 pt, indented 12 pt on
    both sides; then a paragraph going on "Instead of simply listing"."""
    left, right = 135, 465

    def paragraph(y: float, lines: int, step: int) -> float:
        for k in range(lines):
            words = [WORDS[(step * k + j) % len(WORDS)] for j in range(9)]
            justify(page, left, y, words, right, size=SIZE)
            y += LEAD
        return y

    def line(y: float, text: str, x: float = left, size: float = SIZE) -> None:
        page.insert_text((x, y), text, fontsize=size, fontname="tiro")

    y = paragraph(100, 5, 7)
    line(y, "quotation marks are described in Sect. 2.")
    y += LEAD + 6
    quote = "Please do not use quotation marks when quoting texts! Simply use the"
    justify(page, left + 12, y, quote.split(), right - 12, size=8.5)
    line(y + 10, "quotation environment.", left + 12, 8.5)
    y += 10 + LEAD + 6
    line(y, "Instead of simply listing headings of different levels")
    paragraph(y + LEAD, 6, 5)


def test_a_drag_across_a_quotation_set_smaller_reads_it(tmp_path):
    doc = one_page(tmp_path, _quotation)
    got = drag(doc, 0, "Sect.", "Instead")
    want = (
        "Sect. 2. Please do not use quotation marks when quoting texts! Simply use the "
        "quotation environment. Instead"
    )
    assert got == want, got
