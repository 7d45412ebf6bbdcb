"""Rules found in the session of batches 139 onwards (the helpers' ro146 and later).

A mathematics preprint (batch 139) ends its right column with a paragraph of two lines under
a chessboard drawn with rules, no text in it; the lines stand level with the left column's
last lines, 120 points under the column's text above the drawing. A line that far under its
column's text with nothing between is a note (a Japanese society's contact address), so the
paragraph was left out of a drag into it. A figure drawn between them is something between:
the lines under it go on the column.

A newsletter set in Google Docs (batch 140) stands two columns over a calendar across the
page; the right column is short, the left one's paragraphs run on at a paragraph's spacing
past its foot. With the calendar closing the gutter, the page was cut at the first gap across
it, between two of the left column's paragraphs, and the right column was read in the middle
of the left one. A gap that columns of paragraphs run on through is not where the top band
ends when a wider gap lies lower.

A care provider's newsletter set in Word (batch 145) leaves a blank line between paragraphs,
level in both of its columns, over a box across the page: the gaps across the page were a
blank line wide, wider than the text size a column was allowed to run on within, and the
columns were read in rows of paragraph pairs. A column's next paragraph follows within two
text sizes.

A parish bulletin (batch 140) opens its left column with a picture (no text) and its right
column with "OFFERINGS", one line centred over the column in a font of its own: the only text
above the columns' first lines, it was peeled as the page's title and read before the left
column. The page's first line, centred over one column and at least the size of its text, is
that column's head.

A parish letter (batch 140) opens its page with a section's heading and a line right under
it ("In Anlage 1 findet sich die Terminübersicht für OKTOBER."), set off from the text below
by two lines: the heading was text, the line under it was taken for a running head and a drag
from it left it out. A line that follows text right above it at a line's spacing is no
running head.

A networking paper (batch 144) draws a ring atop its right column on a box that reaches 14
points into the first line of the caption under it ("Figure 2: An identifier circle ..."):
a caption was looked for at most an em inside its figure, so the caption was read at the
column break. Up to half a caption may lie inside its figure's box.

A cancer charity's booklet (batch 145) sets an aside in a box: a heading over two columns of
paragraphs in a sans font, both columns breaking a paragraph at the same height. The
heading closes the gutter, and the box's first row of paragraphs, in no block of the
running text's font, was peeled as title matter: the box was read in rows of paragraph
pairs. Paragraphs side by side, set alike and longer than an author's block, are columns.
Above the box, a list item's bullet line and its next lines (8 points further right) looked
centred on each other and were taken for rows of authors: a block nearly as wide as the
page's text is no title matter.

A school's newsletter (batch 147) sets a page's title in 21 points at the top, over a photo
across the page, the text in 13: standing apart from the text in the page's top band, it was
taken for a running head and a drag from it into the first column left it out. A line set
half again the text's size or larger, centred over the text, is no running head; a
newsletter's large running head stands in a corner (batch 130's "NEWSLETTER" flush right).

A university's IT newsletter printed from a browser (batch 148) wraps a story round an icon:
its last two lines run on under the icon, full width, 12 points under the lines beside it, in
the page's foot band, and were taken for a running footer. A block opening in lower case
under a line of the same style that ends without a sentence's end goes on with that sentence
(a URL or a chart's axis letter is no sentence's word).

A parish bulletin (batch 147) frames its sermon in a box whose right side runs 3 points
left of the schedule beside it, the whole half-page set in a font other than the facing
page's text: too close for a gutter, the sermon and the schedule were read across, row by
row, and each row of the sermon in a font of its own was peeled as title matter. A gap
holding an upright rule (a column rule, or a frame's side) with text level on both sides is
a gutter, and a paragraph of more than five lines in the text's size is no title matter.

A TACL paper (batch 149) justifies a list item's heading of three words across its column
("Sequence-to-sequence  text  generation."), two text sizes between the words: split at the
wide spaces, the last two words were a block of their own, read at the column's foot. A gap
on a line that the words of the lines above and below run across is a word space.
With the words of such lines kept together, a paragraph right under a table's bottom rule
was taken for a footnote under its rule: a drawn table's own rule is no footnote rule.

An astronomy club's newsletter (batch 140) sets a story's byline ("June 2014 – Tony
Falletta") in 8 points flush with its heading's left edge, over 9-point text: a drag from
the heading into the text left the byline out as small print, and one across it from the
story before read only a byline centred under its heading. A one-line block right under a
heading, centred on it or flush with its left edge, is read with it.

An annual report (batch 152) sets three columns over a row of panels, the first panel
across the first two columns, an app's badges under the third: the gutter right of the
second column runs the page's whole height, and the third column was read after the panel.
A paragraph right under a gap across the page, on one side of the gutter, spanning the
columns of prose above it on that side, ends those columns: the row above is read first.

The same newsletter signs a story "- ARHAAN ABBAS ABIDI" at the page's foot, under the right
column, in about the text's size: it was taken for a running footer and left out of a drag to
it. One line opening with a dash and ending in a word of letters is a signature; a footer's
dashes frame a number ("- 3 -").

A simulation conference's paper set in Word (batch 141) labels a caption "Figure 3 - An
AABB will span ...", a hyphen for the dash: not a caption's label, it was read between two
paragraphs. A hyphen with a space on each side after the number is the label's dash; a
range ("Figures 3-5") is not.
"""

from __future__ import annotations

import pymupdf
import pytest
from pagedraw import across_columns, justify, one_page, write_lines

from basehalf_core.documents.captions import CAPTION_LABEL
from basehalf_core.documents.pages import Word
from basehalf_core.documents.selection import keep_running_text
from basehalf_core.documents.text_blocks import Block
from basehalf_core.documents.title_band import centred_title

PROSE = (
    "suppose we remove two opposite corners of the board and ask whether the figure that is "
    "left can be tiled with dominoes laid across two cells each"
)
TEXT = PROSE.split()


def _paragraph_under_a_drawn_board(page, board: bool = True) -> None:
    """An A4 page of two columns; the right one's text stops, a board of rules (no text)
    stands under it, and two lines under the board run level with the left column's foot."""
    write_lines(page, 72, 104, [7] * 58, TEXT, size=11, lead=12)  # down to y = 788
    write_lines(page, 310, 104, [7] * 40, TEXT, size=11, lead=12, start=3)  # to y = 572
    if board:
        for k in range(9):  # an 8 x 8 board: nine rules each way
            page.draw_line((330 + 10 * k, 640), (330 + 10 * k, 720), width=0.5)
            page.draw_line((330, 640 + 10 * k), (410, 640 + 10 * k), width=0.5)
    write_lines(page, 322, 776, [7], TEXT, size=11, lead=12, start=9)
    write_lines(page, 310, 788, [6], TEXT, size=11, lead=12, start=16)


def test_lines_under_a_drawn_figure_at_the_foot_go_on_the_column(tmp_path):
    doc = one_page(tmp_path, _paragraph_under_a_drawn_board)
    words = doc.words(0)
    foot = [w for w in words if w.rect[0] > 300 and w.rect[1] > 750]
    assert {w.role for w in foot} == {"body"}
    above = [w for w in words if w.rect[0] > 300 and w.rect[1] < 600]
    quote = doc.passage(0, doc.select_between(0, above[-1].index, foot[-1].index)).quote
    assert quote.split() == [above[-1].text, *(w.text for w in foot)]


def test_without_the_drawing_such_lines_stay_a_note(tmp_path):
    # The contact-note rule still holds where white space alone stands between.
    doc = one_page(tmp_path, lambda page: _paragraph_under_a_drawn_board(page, board=False))
    foot = [w for w in doc.words(0) if w.rect[0] > 300 and w.rect[1] > 750]
    assert {w.role for w in foot} == {"footer"}


def _short_column_over_a_calendar(page) -> None:
    """Two columns, the right one short, the left one's paragraphs (each under a bold event
    heading) two points apart, over a calendar whose rows span the gutter."""
    y = write_lines(page, 72, 84, [7] * 22, TEXT, size=10, lead=12.5)  # to y = 359
    for start in (4, 8):
        page.insert_text((72, y + 2), "Pistol Whippin Party Penguins", fontsize=10, fontname="hebo")
        y = write_lines(page, 72, y + 14.5, [7] * 7, TEXT, size=10, lead=12.5, start=start)
    write_lines(page, 324, 84, [7] * 14, TEXT, size=10, lead=12.5, start=2)  # to y = 247
    page.insert_text((254, 600), "Calendar in Brief", fontsize=15, fontname="tiro")
    for k, (month, act) in enumerate((("September", "5 - a reading"), ("October", "11 - a dance"))):
        page.insert_text((72, 630 + 30 * k), month, fontsize=10, fontname="tiro")
        page.insert_text((144, 630 + 30 * k), act + " at the store all evening", fontsize=10)


def test_a_short_column_is_read_after_the_long_one_over_a_band(tmp_path):
    doc = one_page(tmp_path, _short_column_over_a_calendar)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 300 and w.rect[1] < 580]
    right = [w for w in words if w.rect[0] > 300 and w.rect[1] < 580]
    calendar = [w for w in words if w.rect[1] > 580]
    assert max(w.index for w in left) < min(w.index for w in right)
    assert max(w.index for w in right) < min(w.index for w in calendar)


def _head_over_the_right_column(page) -> None:
    """A letter page as the bulletin sets it: the right column's head centred over it at the
    top, a picture (no text) under it, then centred lines and a paragraph; the left
    column's text starts level with the picture (under a picture of its own)."""
    page.set_mediabox(pymupdf.Rect(0, 0, 612, 792))
    page.insert_text((402, 70), "OFFERINGS", fontsize=11, fontname="hebo")
    write_lines(page, 35, 114, [8] * 40, TEXT, size=10, lead=12)
    page.insert_text((392, 121), "Sunday Offerings", fontsize=11, fontname="helv")
    page.insert_text((360, 147), "Sunday October 16th $6,863.10", fontsize=11, fontname="helv")
    write_lines(page, 331, 244, [8] * 36, TEXT, size=10, lead=12, start=5)


def test_the_pages_first_line_centred_over_a_column_heads_it(tmp_path):
    doc = one_page(tmp_path, _head_over_the_right_column)
    quote, first, last = across_columns(doc, split=320, right_below=100)
    assert (quote, last) == (f"{first} OFFERINGS Sunday", "Sunday")


def _heading_and_a_line_at_the_top(page) -> None:
    """An A4 page: a section's heading at the top, a line under it at a line's spacing,
    then after a gap two columns of text."""
    page.insert_text((36, 48), "2", fontsize=12, fontname="helv")
    page.insert_text((72, 48), "Blick auf Gottesdienste und Veranstaltungen", fontsize=12)
    page.insert_text((36, 66), "In Anlage 1 findet sich die Termine fuer Oktober.", fontsize=11.5)
    write_lines(page, 36, 110, [6] * 40, TEXT, size=11.5, lead=14, font="helv")
    write_lines(page, 300, 110, [6] * 40, TEXT, size=11.5, lead=14, start=3, font="helv")


def test_a_line_right_under_text_at_the_top_is_no_running_head(tmp_path):
    doc = one_page(tmp_path, _heading_and_a_line_at_the_top)
    words = doc.words(0)
    line = [w for w in words if 53 < w.rect[1] < 70]
    assert line and {w.role for w in line} == {"body"}
    first = next(w for w in words if w.text == "Anlage")
    quote = doc.passage(0, doc.select_between(0, first.index, first.index + 9)).quote
    assert quote.startswith("Anlage 1 findet sich die Termine fuer Oktober.")


def _caption_under_a_reaching_box(page) -> None:
    """Two columns; atop the right one a ring drawn on a box whose foot reaches into the
    first line of the caption under it."""
    write_lines(page, 54, 80, [8] * 60, TEXT, size=9, lead=11)
    page.draw_rect((360, 40, 520, 166), color=None, fill=(0.93, 0.93, 0.93))
    page.draw_circle((440, 98), 38, color=(0, 0, 0), width=0.6)
    for k, line in enumerate(
        (
            "Figure 2: An identifier circle consisting of the",
            "three nodes 0, 1, and 3. In this example, key 1",
            "is located at node 1 and key 6 at node 0.",
        )
    ):
        page.insert_text((317, 160 + 11 * k), line, fontsize=9, fontname="tibo")
    write_lines(page, 317, 215, [8] * 50, TEXT, size=9, lead=11, start=3)


def test_a_caption_reaching_into_its_figures_box_is_the_figures(tmp_path):
    doc = one_page(tmp_path, _caption_under_a_reaching_box)
    quote, first, last = across_columns(doc, split=310, right_below=200)
    assert quote == f"{first} {last}"


def _aside_in_two_columns(page) -> None:
    """A booklet's A5 page: running text in a serif font, then a box with a sans heading
    over two columns of sans paragraphs that break at the same height."""
    page.set_mediabox(pymupdf.Rect(0, 0, 420, 595))
    write_lines(page, 108, 110, [9] * 8, TEXT, size=11, lead=15)
    page.draw_rect((86, 262, 376, 540), color=(0.9, 0.7, 0.1), fill=(1, 0.97, 0.85), width=1.5)
    page.insert_text((96, 282), "Inherited breast cancer gene", fontsize=12, fontname="hebo")
    for x, start in ((96, 0), (236, 7)):
        y = write_lines(page, x, 302, [4] * 7, TEXT, size=9, lead=12.5, start=start, font="helv")
        write_lines(page, x, y + 10, [4] * 7, TEXT, size=9, lead=12.5, start=start + 3, font="helv")


def test_paragraphs_side_by_side_in_a_font_of_their_own_are_columns(tmp_path):
    doc = one_page(tmp_path, _aside_in_two_columns)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 230 and w.rect[1] > 290]
    right = [w for w in words if w.rect[0] > 230 and w.rect[1] > 290]
    assert max(w.index for w in left) < min(w.index for w in right)


def _block(k: int, bbox, lines: int = 1) -> Block:
    return Block(k, bbox, (1.0, 0.0), 11.0, 40 * lines, lines, style="MinionPro@11.0")


def _paragraphs_level_over_a_box(page) -> None:
    """Two columns of paragraphs, a blank line between them level in both columns, over a
    line of contact details across the page."""
    for x, start in ((142, 0), (369, 5)):
        y = 400.0
        for k in range(3):
            y = write_lines(page, x, y, [6] * 4, TEXT, size=11, lead=13.4, start=start + 4 * k)
            y += 13.4  # the blank line
    page.insert_text(
        (187, 690), "We love to hear suggestions and feedback from clients", fontsize=12
    )


def test_paragraphs_a_blank_line_apart_level_in_two_columns_read_column_by_column(tmp_path):
    doc = one_page(tmp_path, _paragraphs_level_over_a_box)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 360 and w.rect[1] < 650]
    right = [w for w in words if w.rect[0] > 360 and w.rect[1] < 650]
    assert max(w.index for w in left) < min(w.index for w in right)


def _title_over_a_photo(page) -> None:
    """An A4 page: a title in 21 points at the top, a photo (no text) under it, then two
    columns of 13-point text."""
    page.insert_text(
        (59, 52), "IT IS NOT THE END, RATHER IT BEGINS HERE", fontsize=21, fontname="tibo"
    )
    page.draw_rect((14, 66, 585, 200), color=None, fill=(0.4, 0.5, 0.3))
    write_lines(page, 14, 232, [7] * 38, TEXT, size=13, lead=14.5)
    write_lines(page, 323, 228, [7] * 36, TEXT, size=13, lead=14.5, start=4)


def test_a_title_half_again_the_texts_size_at_the_top_is_no_running_head(tmp_path):
    doc = one_page(tmp_path, _title_over_a_photo)
    words = doc.words(0)
    title = [w for w in words if w.rect[1] < 60]
    assert title and {w.role for w in title} == {"body"}
    first = next(w for w in words if w.rect[1] > 205 and w.rect[0] < 300)
    quote = doc.passage(0, doc.select_between(0, title[-1].index, first.index)).quote
    assert quote.split() == ["HERE", first.text]


def _story_wrapped_round_an_icon(page, tail: str = "no visible downtime for users at all") -> None:
    """A letter page: a story's heading, four lines set right of an icon, and two lines
    under the icon near the page's foot, the browser's address line under them."""
    page.set_mediabox(pymupdf.Rect(0, 0, 611, 792))
    write_lines(page, 63, 520, [12] * 8, TEXT, size=11.5, lead=14, font="helv")
    page.insert_text((63, 648), "Users move to new mail servers", fontsize=10, fontname="hebo")
    page.draw_rect((63, 660, 130, 716), color=None, fill=(0.2, 0.4, 0.8))
    y = write_lines(page, 142, 670, [9] * 3, TEXT, size=11.5, lead=14, font="helv")
    page.insert_text((142, y), "the new servers are ready for the repair with", fontsize=11.5)
    page.insert_text((63, 744), tail, fontsize=11.5)
    page.insert_text((63, 758), "the move takes one night.", fontsize=11.5)
    page.insert_text((26, 782), "https://mail.example.org/mail/u/0/?ui=2&view=pt", fontsize=8)


def test_lines_going_on_with_a_sentence_at_the_foot_are_no_footer(tmp_path):
    doc = one_page(tmp_path, _story_wrapped_round_an_icon)
    words = doc.words(0)
    tail = [w for w in words if 728 < w.rect[1] < 760]
    assert tail and {w.role for w in tail} == {"body"}
    assert next(w for w in words if w.text.startswith("https")).role == "footer"


def test_a_url_at_the_foot_starts_no_sentence(tmp_path):
    doc = one_page(tmp_path, lambda p: _story_wrapped_round_an_icon(p, "https://uw.edu/it"))
    words = doc.words(0)
    assert next(w for w in words if w.text == "https://uw.edu/it").role == "footer"


def _sermon_beside_a_schedule(page, frame: bool = True) -> None:
    """A landscape spread: on the left half, a sermon (sans) in a frame or beside a rule,
    its schedule 3 points right of it; on the right half, the facing page's serif text."""
    page.set_mediabox(pymupdf.Rect(0, 0, 1008, 612))
    if frame:
        page.draw_rect((15, 18, 242, 524), color=(0, 0, 0), width=0.8)
    else:
        page.draw_line((242, 18), (242, 524), color=(0, 0, 0), width=0.8)
    for k in range(3):
        write_lines(
            page, 18, 80 + 130 * k, [6] * 8, TEXT, size=12, lead=14, start=3 * k, font="helv"
        )
    page.insert_text((322, 170), "WEEKEND LITURGY", fontsize=16, fontname="hebo")
    for k, day in enumerate(
        ("Sat. Oct. 13th", "Sun. Oct. 14th", "Sun. Oct. 14th", "Sat. Oct. 20th")
    ):
        page.insert_text((245, 206 + 30 * k), f"{day} 5:00 pm at St. Anne's", fontsize=13)
    for y in (60, 240, 400):
        write_lines(page, 536, y, [12] * 10, TEXT, size=12, lead=14, start=5, font="tiro")


@pytest.mark.parametrize("frame", [True, False], ids=["frame", "rule"])
def test_a_rule_in_a_narrow_gap_is_a_gutter(tmp_path, frame):
    doc = one_page(tmp_path, lambda page: _sermon_beside_a_schedule(page, frame))
    words = doc.words(0)
    sermon = [w for w in words if w.rect[2] < 241]
    schedule = [w for w in words if 243 < w.rect[0] < 500]
    assert max(w.index for w in sermon) < min(w.index for w in schedule)


def _large_head_in_a_corner(page) -> None:
    """An A4 page: the issue flush left and "NEWSLETTER" flush right at the very top, set
    large, then two columns of 12-point text."""
    page.insert_text((17, 30), "Aug 2019/001", fontsize=20, fontname="helv")
    page.insert_text((423, 34), "NEWSLETTER", fontsize=27.5, fontname="hebo")
    write_lines(page, 22, 74, [7] * 30, TEXT, size=12, lead=14.5, font="helv")
    write_lines(page, 298, 74, [7] * 30, TEXT, size=12, lead=14.5, start=4, font="helv")


def test_a_large_head_in_a_corner_stays_a_running_head(tmp_path):
    doc = one_page(tmp_path, _large_head_in_a_corner)
    head = [w for w in doc.words(0) if w.text == "NEWSLETTER"]
    assert [w.role for w in head] == ["header"]


def _justified_list_heading(page) -> None:
    """Two columns of 11-point text; in the left one a list item's heading of three words
    stretched across the column, two sizes between them."""
    y = 90.0
    for k in range(6):  # justified lines, flush on both sides of the column
        justify(page, 72, y, TEXT[k : k + 7], 298.8, size=11)
        y += 13.5
    for x, word in ((82.9, "Sequence-to-sequence"), (206.8, "text"), (246.4, "generation.")):
        page.insert_text((x, y), word, fontsize=11, fontname="tiro")
    for k in range(40):
        justify(page, 72, y + 13.5 * (k + 1), TEXT[k % 10 : k % 10 + 7], 298.8, size=11)
    write_lines(page, 313, 90, [8] * 50, TEXT, size=11, lead=13.5, start=5)


def test_a_justified_lines_wide_word_spaces_do_not_split_it(tmp_path):
    doc = one_page(tmp_path, _justified_list_heading)
    words = doc.words(0)
    heading = [w for w in words if w.text in ("Sequence-to-sequence", "text", "generation.")]
    assert len({w.block for w in heading}) == 1
    left = [w for w in words if w.rect[0] < 305]
    right = [w for w in words if w.rect[0] > 305]
    quote = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    assert quote.split() == [left[-1].text, right[0].text]


def _paragraph_under_a_ruled_table(page) -> None:
    """A letter page's left column: text, a table drawn with four rules across the column,
    then a paragraph right under its bottom rule, low on the page."""
    page.set_mediabox(pymupdf.Rect(0, 0, 612, 792))
    write_lines(page, 54, 80, [9] * 26, TEXT, size=9, lead=11.5)
    page.insert_text((57, 403), "Table 1: Effect of distance on throughput", fontsize=9)
    for y in (408, 436, 520, 550):
        page.draw_line((54, y), (294, y), width=0.6)
    for k in range(6):
        page.insert_text((60, 450 + 12 * k), f"Local {k}   1.6 ms   0.6%   44 Mbps", fontsize=7.5)
    write_lines(page, 54, 562, [9] * 14, TEXT, size=9, lead=11.5, start=4)
    write_lines(page, 318, 80, [9] * 56, TEXT, size=9, lead=11.5, start=6)


def test_a_paragraph_under_a_tables_bottom_rule_is_no_footnote(tmp_path):
    doc = one_page(tmp_path, _paragraph_under_a_ruled_table)
    under = [w for w in doc.words(0) if w.rect[0] < 300 and w.rect[1] > 552]
    assert under and {w.role for w in under} == {"body"}


def _story_with_a_byline() -> list[Word]:
    """As the newsletter's words come out: the story's heading (restyled to the text's
    family), its byline flush under it in 8 points, the story's text in 9."""
    rows = [
        (["President's", "Message"], 561, 579, "Arial@10.0"),
        (["June", "2014", "–", "Tony", "Falletta"], 580, 589, "Arial@8.0"),
        (["Greetings", "Fellow", "Astronomers!"], 591, 601, "Arial@9.0"),
        (["June", "is", "just", "about", "here"], 612, 622, "Arial@9.0"),
    ]
    words = []
    for block, (texts, y0, y1, style) in enumerate(rows):
        x = 178.0
        for text in texts:
            rect = (x, y0, x + 6 * len(text), y1)
            words.append(Word(len(words), text, rect, rect, block, 0, style=style))
            x = rect[2] + 3
    return words


def test_a_drag_from_a_heading_keeps_the_byline_flush_under_it():
    words = _story_with_a_byline()
    kept = keep_running_text(words, list(range(len(words))))
    assert [words[k].text for k in kept][:7] == [
        "President's", "Message", "June", "2014", "–", "Tony", "Falletta"
    ]  # fmt: skip


def _three_columns_over_panels(page) -> None:
    """A letter page: three columns of prose, the third the longest, over a panel across
    the first two and a line of badges under the third."""
    page.set_mediabox(pymupdf.Rect(0, 0, 612, 792))
    for x, start, lines in ((54, 0, 30), (216, 3, 30), (398, 6, 34)):
        write_lines(page, x, 72, [5] * lines, TEXT, size=8, lead=12.5, start=start, font="helv")
    write_lines(page, 54, 540, [11] * 6, TEXT, size=8, lead=11, start=9, font="helv")
    page.insert_text((419, 540), "iOS Android", fontsize=9, fontname="helv")


def test_a_panel_under_two_of_three_columns_ends_them(tmp_path):
    doc = one_page(tmp_path, _three_columns_over_panels)
    words = doc.words(0)
    third = [w for w in words if w.rect[0] > 390 and w.rect[1] < 520]
    panel = [w for w in words if w.rect[0] < 380 and w.rect[1] > 520]
    assert max(w.index for w in third) < min(w.index for w in panel)


@pytest.mark.parametrize(("foot", "role"), [("- ARHAAN ABBAS ABIDI", "body"), ("- 3 -", "footer")])
def test_a_signature_at_the_foot_is_read_and_a_framed_number_is_not(tmp_path, foot, role):
    def draw(page) -> None:
        write_lines(page, 14, 232, [7] * 38, TEXT, size=13, lead=14.5)
        write_lines(page, 323, 228, [7] * 36, TEXT, size=13, lead=14.5, start=4)
        page.insert_text((418, 822), foot, fontsize=12, fontname="tiro")

    doc = one_page(tmp_path, draw)
    signed = [w for w in doc.words(0) if w.rect[1] > 805]
    assert signed and {w.role for w in signed} == {role}


@pytest.mark.parametrize(
    ("bbox", "centred"),
    [
        ((116, 121, 368, 136), False),  # a list item's next line under its bullet line
        ((190, 121, 294, 136), True),  # an author's affiliation under the name
    ],
)
def test_a_block_nearly_as_wide_as_the_text_is_no_title_row(bbox, centred):
    bullet = _block(0, (108, 106, 374, 121))
    name = _block(1, (200, 106, 284, 121)) if centred else bullet
    page = [bullet, name, _block(2, (108, 200, 376, 245), 3), _block(3, bbox)]
    assert centred_title(page[3], page) is centred


@pytest.mark.parametrize(
    ("line", "caption"),
    [
        ("Figure 3 - An AABB will span multiple cells", True),
        ("Table 2 - Results of the runs", True),
        ("Figure 3 – An AABB will span", True),
        ("Figures 3-5 show the three cases", False),
        ("Figure 3-5 shows the three cases", False),
        ("Figure 3 -an odd line", False),
    ],
)
def test_a_hyphen_with_spaces_after_the_number_is_a_captions_dash(line, caption):
    assert bool(CAPTION_LABEL.match(line)) is caption
