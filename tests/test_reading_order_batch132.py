"""Rules found in the session of batches 132 onwards.

A preprint in IEEE's two-column style (batch 133) opens its right column with a section
heading ("IV. Text Data", small capitals, centred over the column) under the page's number,
its left column with a figure. The heading lies in the page's top band, set off from the text
under it by more than a line, so it was taken for a running head and a drag from the foot of
the left column to the top of the right one left it out. A line that opens with a section's
number and has a title after it, inside the column of the paragraph under it, within two text
sizes of it and nearer to it than to what stands above, is the column's first line.

A newsletter (batch 133) sets its leading article over the second and third of three columns,
the first column empty beside it; all three columns start under it. The gutter left of the
second column runs the page's whole height, so the first column was read before the article.
What lies above a row's gap on one side of the gutter and spans a gutter of the columns under
it is read first.

A car's manual (batch 133) sets a column's bold heading on three lines ("Hands-free locking
when / moving away from the / vehicle"): a heading was one or two lines, so a drag from the
foot of the column before it to its first sentence left it out. A heading of at most 60
characters may take three.
"""

from __future__ import annotations

from pagedraw import one_page, write_lines

PROSE = (
    "the network learns a map from the joint angles to the position of the hand and keeps it "
    "while the body grows so that a reach lands where the eye sees the target"
)
TEXT = PROSE.split()


def _column_top_heading(page) -> None:
    """An A4 page: its number at the top right, a left column opening lower (under a figure
    without text), a right column under a centred numbered heading."""
    page.insert_text((551, 32), "3", fontsize=7, fontname="tiro")
    write_lines(page, 50, 300, [7] * 36, TEXT, size=10, lead=12)
    page.insert_text((395, 66), "IV. Text Data", fontsize=10, fontname="tiro")
    write_lines(page, 303, 92, [7] * 55, TEXT, size=10, lead=12, start=3)


def test_a_numbered_heading_at_a_columns_top_under_the_page_number_is_read(tmp_path):
    doc = one_page(tmp_path, _column_top_heading)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 295]
    right = [w for w in words if w.rect[0] > 295 and w.rect[1] > 75]
    quote = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    assert quote == f"{left[-1].text} IV. Text Data {right[0].text}"
    # The page's number stays out: a bare number is no heading.
    assert next(w for w in words if w.text == "3" and w.rect[1] < 40).role == "header"


def _article_over_two_columns(page) -> None:
    """A newsletter's article over the second and third of three columns, all starting under
    it; the first column is empty beside the article."""
    page.insert_text((200, 90), "Burrowing Owl", fontsize=20, fontname="tiro")
    write_lines(page, 260, 190, [6] * 20, TEXT, size=9, lead=11)
    for x, start in ((55, 1), (205, 5), (375, 9)):
        write_lines(page, x, 520, [4] * 16, TEXT, size=9, lead=11, start=start)


def test_an_article_over_two_of_three_columns_is_read_before_them(tmp_path):
    doc = one_page(tmp_path, _article_over_two_columns)
    words = doc.words(0)
    article = [w for w in words if w.rect[0] > 250 and 170 < w.rect[1] < 420]
    first_column = [w for w in words if w.rect[0] < 190 and w.rect[1] > 500]
    assert max(w.index for w in article) < min(w.index for w in first_column)
    # From the article's end to the first column's top: nothing between.
    quote = doc.passage(0, doc.select_between(0, article[-1].index, first_column[0].index)).quote
    assert quote.split() == [article[-1].text, *[w.text for w in first_column[:1]]]


def _paragraph_over_a_lower_column(page) -> None:
    """Two columns: the right one's first paragraph stands above a gap, level with which the
    left column starts (under a picture without text)."""
    write_lines(page, 50, 420, [7] * 30, TEXT, size=10, lead=12)
    write_lines(page, 303, 90, [7] * 26, TEXT, size=10, lead=12, start=2)
    write_lines(page, 303, 420, [7] * 30, TEXT, size=10, lead=12, start=5)


def test_a_columns_first_paragraph_above_a_gap_is_still_read_with_its_column(tmp_path):
    doc = one_page(tmp_path, _paragraph_over_a_lower_column)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 295]
    right_top = [w for w in words if w.rect[0] > 295 and w.rect[1] < 400]
    assert max(w.index for w in left) < min(w.index for w in right_top)


def _three_line_heading(page) -> None:
    """A manual's two narrow columns, the second under a bold heading on three lines."""
    page.insert_text((40, 80), "Hands-free unlocking,", fontsize=11, fontname="hebo")
    page.insert_text((40, 94), "approaching the car", fontsize=11, fontname="hebo")
    write_lines(page, 40, 112, [7] * 12, TEXT, size=9, lead=11)
    for k, line in enumerate(("Hands-free locking when", "moving away from the", "vehicle")):
        page.insert_text((215, 80 + 14 * k), line, fontsize=11, fontname="hebo")
    write_lines(page, 215, 126, [7] * 12, TEXT, size=9, lead=11, start=4)


def test_a_three_line_heading_of_a_narrow_column_is_read(tmp_path):
    doc = one_page(tmp_path, _three_line_heading)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 205 and w.rect[1] > 100]
    right = [w for w in words if w.rect[0] > 205 and w.rect[1] > 115]
    quote = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    assert "Hands-free locking when moving away from the vehicle" in quote
