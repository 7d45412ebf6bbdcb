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
A government form (batch 135) hangs Word's second-level bullets left of a list's items: a
letter "o" in Courier New. They were read as a narrow column of their own, after the paragraph
under the list ("… must be completed. o o o o o Submitting your application"). A group of
nothing but such marks (Courier's "o", Wingdings' signs read in Latin-1, dashes, arrows, a
symbol font's private-use glyphs), each level with a line's first word, goes into that line.

A magazine (batch 135) sets a pull quote between two rules drawn as rows of hyphens in the
text's size; the upper row was read as the last line of the paragraph above it. A row of at
least eight of one mark and nothing else is a rule: it joins no paragraph and is left out of a
drag like a figure's lines.

A paper set in Word (batch 132) sets a footnote in the text's own size under Word's two-inch
rule, 0.6 of its column, its marker raised and apart from its text: the rule was longer than
the 0.6 of the notes' width a footnote rule was allowed, and the note was read as the column's
last paragraph. A footnote rule may span 0.65 of the notes under it.
A conference paper (batch 132) draws a graph atop the right column, its curved arrows' box
reaching past the caption under it; the caption, four lines, made the region running text
and it was read between the columns. A caption inside a figure's box does not make it text.
The same paper draws a sentence as a figure, three lines of words with arrows: the arrows
under the first line and those round the other two cluster apart, and the middle line was
read as a heading. Two figure regions one right over the other with single lines between
are one figure, when the box round both takes in nothing else.

An LNCS paper's footnotes (a URL each) are set smaller than the text with their markers
raised and apart: a note's text that starts just right of a footnote's marker, level with
it, is marked by it.
A workshop paper (batch 136) sets a section's heading on two lines and its first subsection's
heading right under it, one block of three lines: a heading was at most two lines, and both
headings were left out of a drag across them. A block takes up to two lines (three when
short) for each of its lines that opens with a section's number (``Block.numbered``).
The same batch's paper sets an Excel chart atop the right column, its legend in a row under
the plot in the chart's font (Calibri in a Times paper), each entry's marker a line too thin
to be drawn into the figure's region; its nine-line caption under the legend was read as the
column's first paragraph. A block of at most two lines set smaller than the text, right
under or over a figure, in a font family of the figure's own labels that no paragraph is set
in, is one of its labels and grows its region; a caption as long as a paragraph stands beside
its figure when close to it (four ems), not across white space.
A calculator's guidebook (batch 135) sets each section's heading in a wide left margin, level
with the section's first paragraph, with tips and notes in the margin under it: read as a
column of its own, every heading of the page came before the text, and a drag from one
section into the next missed the heading between. A margin at most 0.6 of the text column's
width, beside one column of text, whose blocks of one or two lines set at least as large as
the text stand level with a paragraph's top, holds side heads: each is read before the text
beside and under it, the margin's notes after that text (``sections.side_heads``).
A routing paper (batch 138) sets its list's bullets in TeX's math symbols (CMSY, 7 points in
10-point text): each item's first line was one segment styled by its first unit, the bullet,
and read as other print, out of the paragraph's flow. A line opening with a bullet in another
font takes the style of the rest of it, as a line opening with a run-in heading does.
A LaTeX newspaper (batch 139) sets a story's headline on three short lines, its byline
centred under it in small bold capitals, and a photo's credit ("Reuters") centred under the
photo in the text's own font: a drag from one story into the next left out the headline and
byline and read the credit. A heading of at most 60 characters may take three lines at the
drag's level too, a line centred right under a heading read is read with it, and a short
line centred right under a picture is its credit, read like a caption.
A front page made in InDesign (batch 139) sets its last story across the page's foot under a
rule, its text smaller than the columns' and under a heading set large: taken for footnotes,
the story was left out of a drag inside it. Footnotes have no heading: small print under a
heading 1.3 times the text's size or larger, in the notes' band, is a story's text.
A technical report set in LaTeX (batch 133) sets a one-line footnote in the text's own size
under the footnote rule, indented 13 points from the rule's left end (its marker raised
before it): the rule was looked for at the note's left edge only, and the note was read as
the column's last line. A note may start up to two of its sizes right of its rule's start.
The CogSci template (batch 125) shows a figure that is one line of text boxed by four rules
(LaTeX's fbox), 14 points tall, over its caption: a drawing lower than two ems was no figure,
and the boxed line was read between the paragraphs. A drawing at least two ems wide and one
tall with a caption right above or under it is a figure.
A PVLDB paper (batch 135) sets its two authors' affiliations and e-mails centred side by
side over the columns, a line's spacing above the right column's first line: the heading
rules read the left one as the left column's heading (two lines in about the text's size),
the band was no longer title matter, and the right one was read as the right column's first
lines. A row of two blocks of two lines or more, level, set alike and otherwise than the
text, centred over the text under them with no text above, is title matter.
"""

from __future__ import annotations

import pymupdf
from pagedraw import across_columns, one_page, write_lines

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
    quote, first, last = across_columns(doc, split=295, right_below=75)
    assert quote == f"{first} IV. Text Data {last}"
    # The page's number stays out: a bare number is no heading.
    assert next(w for w in doc.words(0) if w.text == "3" and w.rect[1] < 40).role == "header"


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


def _word_bullets(page) -> None:
    """A paragraph, a list whose bullets are Courier New's "o" hung left of the items, and a
    paragraph under the list."""
    write_lines(page, 56, 80, [9] * 4, TEXT, size=10, lead=12, font="helv")
    y = 140
    for k, lines in enumerate((1, 2, 1, 1, 2)):
        page.insert_text((56.8, y), "o", fontsize=10, fontname="cour")
        y = write_lines(
            page, 78.6, y, [6] * lines, TEXT, size=10, lead=13, start=3 * k, font="helv"
        )
        y += 2
    write_lines(page, 56, y + 14, [9] * 4, TEXT, size=10, lead=12, start=7, font="helv")


def test_word_bullets_set_as_letters_open_their_items(tmp_path):
    doc = one_page(tmp_path, _word_bullets)
    words = doc.words(0)
    bullets = [w for w in words if w.text == "o"]
    assert len(bullets) == 5
    for b in bullets:
        item = words[b.index + 1]
        assert abs(item.rect[1] - b.rect[1]) < 3 and item.rect[0] > b.rect[0]
    # A drag through the paragraph under the list reads no bullet.
    under = [w for w in words if w.rect[1] > 245]
    quote = doc.passage(0, doc.select_between(0, under[0].index, under[-1].index)).quote
    assert " o " not in f" {quote} "


def _pull_quote_between_dashes(page) -> None:
    """A column's paragraph, a pull quote between two rows of hyphens right under its last
    line, and the paragraph's next (the quote set large, a headline's size: read or not by
    the heading rules, never part of the rules' rows)."""
    end = write_lines(page, 56, 80, [8] * 6, TEXT, size=10, lead=12)
    page.insert_text((56, end), " ".join("-" * 30), fontsize=10, fontname="tiro")
    page.insert_text(
        (56, end + 26), "Set to become a key requirement", fontsize=18, fontname="helv"
    )
    page.insert_text((56, end + 48), " ".join("-" * 30), fontsize=10, fontname="tiro")
    write_lines(page, 56, end + 66, [8] * 6, TEXT, size=10, lead=12, start=5)


def test_rows_of_hyphens_around_a_pull_quote_are_rules_not_text(tmp_path):
    doc = one_page(tmp_path, _pull_quote_between_dashes)
    words = doc.words(0)
    text = [w for w in words if w.text != "-" and w.style.startswith("Times")]
    last_above = max((w for w in text if w.rect[1] < 150), key=lambda w: w.index)
    first_below = min((w for w in text if w.rect[1] > 200), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, last_above.index, first_below.index)).quote
    assert "-" not in quote.split()


def _word_footnote(page) -> None:
    """Two columns; at the left one's foot Word's two-inch footnote rule (0.6 of the column),
    a raised marker, and the note in the text's own size set in after it."""
    write_lines(page, 54, 90, [13] * 50, TEXT, size=9, lead=11)
    page.draw_rect((54, 665.5, 198, 666), color=None, fill=(0, 0, 0))
    page.insert_text((54, 679), "3", fontsize=6, fontname="tiro")
    write_lines(page, 60, 682, [13] * 3, TEXT, size=9, lead=11, start=20)
    write_lines(page, 330, 90, [13] * 50, TEXT, size=9, lead=11, start=4)


def test_a_word_footnote_under_its_rule_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _word_footnote)
    words = doc.words(0)
    note = [w for w in words if w.rect[1] > 670 and w.rect[0] < 300]
    assert {w.role for w in note} == {"footnote"}
    left = max((w for w in words if w.rect[0] < 300 and w.rect[1] < 660), key=lambda w: w.index)
    right = min((w for w in words if w.rect[0] > 300), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, left.index, right.index)).quote
    assert quote == f"{left.text} {right.text}"


def _graph_atop_a_column(page) -> None:
    """Two columns; atop the right one a graph of circles and curved arrows (the arrows' box
    reaching past the caption) over a four-line caption set like the text."""
    write_lines(page, 54, 70, [9] * 56, TEXT, size=10, lead=12)
    for x, y in ((340, 80), (420, 70), (500, 120), (360, 200), (460, 230), (530, 250)):
        page.draw_circle((x, y), 6, color=(0.8, 0, 0), fill=(0.9, 0.2, 0.1))
    page.draw_bezier((340, 80), (330, 400), (540, 400), (530, 250), color=(0, 0, 0), width=1)
    page.draw_bezier((420, 70), (380, 150), (460, 150), (460, 230), color=(0, 0, 0), width=1)
    caption = "Figure 2: Example of graph representation of a text in which an edge"
    write_lines(page, 318, 300, [9] * 4, caption.split() + TEXT, size=10, lead=12)
    write_lines(page, 318, 432, [9] * 24, TEXT, size=10, lead=12, start=4)


def test_a_caption_inside_a_figures_loose_box_is_the_figures(tmp_path):
    doc = one_page(tmp_path, _graph_atop_a_column)
    words = doc.words(0)
    assert {w.role for w in words if w.rect[0] > 300 and 285 < w.rect[1] < 345} == {"float"}
    left = max((w for w in words if w.rect[0] < 300), key=lambda w: w.index)
    right = min((w for w in words if w.rect[0] > 300 and w.rect[1] > 420), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, left.index, right.index)).quote
    assert quote == f"{left.text} {right.text}"


def _sentence_as_a_figure(page) -> None:
    """A column: a paragraph, a sentence drawn as a figure (three lines set larger, arrows
    under the first and round the other two), its caption, and the paragraph's next."""
    end = write_lines(page, 54, 70, [9] * 8, TEXT, size=9, lead=11)
    lines = ("information retrieval is the activity of", "information resources relevant to an")
    for k, line in enumerate((*lines, "from a collection of resources")):
        page.insert_text((57, end + 20 + 37 * k), line, fontsize=12, fontname="tiro")
    for x in (70, 110, 150):
        page.draw_bezier((x, end + 24), (x + 5, end + 30), (x + 30, end + 30), (x + 35, end + 24))
    for x in (70, 120, 170):
        y = end + 64
        page.draw_bezier((x, y), (x + 10, y + 20), (x + 40, y + 20), (x + 50, y + 37))
        page.draw_bezier((x, y + 37), (x + 10, y + 55), (x + 40, y + 55), (x + 50, y + 39))
    caption = "Figure 1: Example of graph creation from text parsing."
    write_lines(page, 54, end + 130, [8, 9], caption.split() + TEXT, size=9, lead=11, font="tibo")
    write_lines(page, 54, end + 165, [9] * 8, TEXT, size=9, lead=11, start=3)


def test_the_parts_of_a_figure_drawn_round_lines_of_words_are_one_figure(tmp_path):
    doc = one_page(tmp_path, _sentence_as_a_figure)
    words = doc.words(0)
    drawn = [w for w in words if w.style.endswith("@12.0")]
    assert len(drawn) == 16 and {w.role for w in drawn} == {"float"}
    body = [w for w in words if w.role == "body" and w.style == "Times@9.0"]
    above = max((w for w in body if w.rect[1] < 170), key=lambda w: w.index)
    below = min((w for w in body if w.rect[1] > 280), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, above.index, below.index)).quote
    assert quote == f"{above.text} {below.text}"


def _lncs_footnotes(page) -> None:
    """One column of text, and under it two footnotes (URLs) set smaller than the text, each
    marker raised and apart from its note."""
    write_lines(page, 135, 107, [11] * 45, TEXT, size=10, lead=12)
    for k, url in enumerate(("pypi.org/project/pycocotools", "ds4sd.github.io/icdar23")):
        page.insert_text((138, 648 + 11 * k), str(k + 1), fontsize=6, fontname="tiro")
        page.insert_text((145, 652 + 11 * k), url, fontsize=9, fontname="tiro")


def test_a_footnote_set_apart_from_its_raised_marker_is_marked_by_it(tmp_path):
    doc = one_page(tmp_path, _lncs_footnotes)
    notes = [w for w in doc.words(0) if w.text.startswith(("pypi", "ds4sd"))]
    assert [w.role for w in notes] == ["footnote", "footnote"]


def _heading_over_its_first_subheading(page) -> None:
    """A column: a paragraph, a section's heading on two lines with its first subsection's
    heading right under it (12 points over 10), and the subsection's paragraph."""
    end = write_lines(page, 54, 80, [11] * 10, TEXT, size=10, lead=12)
    heads = ("2 Measurements from the", "warehouse cluster", "2.1 Brief description of the system")
    for k, head in enumerate(heads):
        page.insert_text((54, end + 10 + 14 * k), head, fontsize=12, fontname="tibo")
    write_lines(page, 54, end + 62, [11] * 10, TEXT, size=10, lead=12, start=5)


def test_a_heading_over_its_first_subheading_in_one_block_is_read(tmp_path):
    doc = one_page(tmp_path, _heading_over_its_first_subheading)
    words = doc.words(0)
    text = [w for w in words if w.style == "Times@10.0" and w.rect[3] < 200]
    after = min((w for w in words if w.rect[1] > 245), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, text[-1].index, after.index)).quote
    heads = "2 Measurements from the warehouse cluster 2.1 Brief description of the system"
    assert quote == f"{text[-1].text} {heads} {after.text}"


def _chart_with_a_legend_row(page) -> None:
    """Two columns; atop the right one a chart (its title and ticks in Helvetica), a legend
    row under the plot in Helvetica with thin line markers, a nine-line caption set like the
    text, then the column's text."""
    write_lines(page, 54, 70, [9] * 56, TEXT, size=9, lead=11)
    page.draw_rect((330, 70, 556, 240), color=(0.5, 0.5, 0.5), width=0.5)
    page.draw_polyline([(330, 200), (380, 150), (430, 170), (480, 90), (556, 120)], width=1)
    page.insert_text((390, 84), "Temporal Development", fontsize=10, fontname="helv")
    for k in range(6):
        page.insert_text((336 + 42 * k, 236), str(5 * k), fontsize=6.5, fontname="helv")
    for k, entry in enumerate(("Overhead (%)", "Alloc (cycles)", "Fill-level")):
        x = 340 + 75 * k
        page.draw_line((x, 246), (x + 12, 246), color=(0, 0, 1), width=1)
        page.insert_text((x + 15, 249), entry, fontsize=8.5, fontname="helv")
    caption = ["Figure", "2:", "Temporal", "development", "of", "the", "allocator", "under", "load"]
    write_lines(page, 318, 296, [9] * 9, caption + TEXT, size=9, lead=11, font="tibo")
    write_lines(page, 318, 410, [9] * 30, TEXT, size=9, lead=11, start=4)


def test_a_charts_legend_row_and_long_caption_are_the_figures(tmp_path):
    doc = one_page(tmp_path, _chart_with_a_legend_row)
    words = doc.words(0)
    legend = [w for w in words if w.rect[0] > 300 and 239 < w.rect[1] < 255]
    caption = [w for w in words if w.rect[0] > 300 and 285 < w.rect[1] < 390]
    assert legend and {w.role for w in legend + caption} == {"float"}
    left = max((w for w in words if w.rect[0] < 300), key=lambda w: w.index)
    right = min((w for w in words if w.rect[0] > 300 and w.rect[1] > 400), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, left.index, right.index)).quote
    assert quote == f"{left.text} {right.text}"


def _side_heads(page) -> None:
    """A manual's page: a wide left margin with two side heads, each level with its
    section's first paragraph, and a note in smaller italics under the first."""
    page.insert_text((47, 131), "Running a Program", fontsize=9, fontname="hebo")
    write_lines(page, 46, 160, [5] * 4, TEXT, size=7, lead=9, font="heit")
    write_lines(page, 165, 129, [9] * 18, TEXT, size=8, lead=10)
    page.insert_text((47, 368), "Breaking a Program", fontsize=9, fontname="hebo")
    write_lines(page, 165, 366, [9] * 10, TEXT, size=8, lead=10, start=6)


def test_side_heads_in_a_margin_are_read_before_their_sections(tmp_path):
    doc = one_page(tmp_path, _side_heads)
    words = doc.words(0)
    first = [w for w in words if w.rect[0] > 160 and w.rect[1] < 320]
    second = [w for w in words if w.rect[0] > 160 and w.rect[1] > 350]
    head = next(w for w in words if w.text == "Running")
    assert head.index < min(w.index for w in first)
    quote = doc.passage(0, doc.select_between(0, first[-1].index, second[0].index)).quote
    assert quote == f"{first[-1].text} Breaking a Program {second[0].text}"


def _tex_bullets(page) -> None:
    """A paragraph, three items each opening with a bullet set smaller in another font, and
    the paragraph after the list."""
    y = write_lines(page, 54, 80, [11] * 4, TEXT, size=10, lead=12)
    for k in range(3):
        page.insert_text((64, y), "•", fontsize=7, fontname="japan")  # a font with a bullet
        y = write_lines(page, 76, y, [9, 8], TEXT, size=10, lead=12, start=5 * k)
    write_lines(page, 54, y + 4, [11] * 4, TEXT, size=10, lead=12, start=9)


def test_a_list_items_first_line_opening_with_a_tex_bullet_is_text(tmp_path):
    doc = one_page(tmp_path, _tex_bullets)
    words = doc.words(0)
    items = [w for w in words if 120 < w.rect[1] < 190 and w.text != "•"]
    assert {w.style for w in items} == {"Times@10.0"}
    quote = doc.passage(0, doc.select_between(0, 0, len(words) - 1)).quote
    assert all(w.text in quote for w in items)
    assert quote.count("•") == 3


def _newspaper_column(page) -> None:
    """A newspaper's column: a story's end, a photo with its credit centred under it, the
    next story's headline on three lines with its byline centred under it, and its text."""
    end = write_lines(page, 42, 80, [6] * 12, TEXT, size=10, lead=12)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 30), False)
    photo.set_rect(photo.irect, (90, 60, 40))
    page.insert_image(pymupdf.Rect(50, end, 190, end + 100), pixmap=photo)
    page.insert_text((104, end + 112), "Reuters", fontsize=10, fontname="tiro")
    for k, line in enumerate(("International", "Moose Count", "Underway")):
        width = pymupdf.get_text_length(line, fontsize=17, fontname="tibo")
        page.insert_text((122 - width / 2, end + 140 + 20 * k), line, fontsize=17, fontname="tibo")
    byline = "By BOB OBOBSTON"
    width = pymupdf.get_text_length(byline, fontsize=8, fontname="tibo")
    page.insert_text((122 - width / 2, end + 196), byline, fontsize=8, fontname="tibo")
    write_lines(page, 42, end + 222, [6] * 12, TEXT, size=10, lead=12, start=3)


def test_a_headline_its_byline_and_a_photo_credit_in_a_drag(tmp_path):
    doc = one_page(tmp_path, _newspaper_column)
    words = doc.words(0)
    text = [w for w in words if w.style == "Times@10.0" and w.text != "Reuters"]
    above = max((w for w in text if w.rect[1] < 230), key=lambda w: w.index)
    below = min((w for w in text if w.rect[1] > 300), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, above.index, below.index)).quote
    heads = "International Moose Count Underway By BOB OBOBSTON"
    assert quote == f"{above.text} {heads} {below.text}"


def _story_at_the_foot(page) -> None:
    """Three columns of 14-point text; under a rule across the page, a story's heading set
    large and its text in 12 points, in two columns."""
    for x, start in ((60, 0), (260, 4), (460, 8)):
        write_lines(page, x, 100, [5] * 30, TEXT, size=14, lead=16, start=start)
    page.draw_line((60, 600), (640, 600), width=1)
    page.insert_text((60, 640), "BEHIND THE MOTIVE", fontsize=24, fontname="tiro")
    write_lines(page, 60, 670, [6] * 4, TEXT, size=12, lead=14, start=2)
    write_lines(page, 360, 630, [7] * 7, TEXT, size=12, lead=14, start=6)


def test_a_story_under_its_heading_at_the_foot_is_no_footnote(tmp_path):
    doc = one_page(tmp_path, _story_at_the_foot)
    words = doc.words(0)
    story = [w for w in words if w.rect[1] > 610 and w.style == "Times@12.0"]
    assert {w.role for w in story} == {"body"}
    first = [w for w in story if w.rect[0] < 340]
    quote = doc.passage(0, doc.select_between(0, first[0].index, first[-1].index)).quote
    assert quote == " ".join(w.text for w in first)


def _indented_note(page) -> None:
    """Two columns in 9 points; at the left one's foot a short rule and a one-line note in
    the text's size set in 13 points from the rule's start."""
    write_lines(page, 43, 90, [13] * 50, TEXT, size=9, lead=11)
    page.draw_rect((43, 704, 100, 704.4), color=None, fill=(0, 0, 0))
    page.insert_text((56, 719), "Measured by the Oberist-Ketty xenon technique.", fontsize=9)
    write_lines(page, 313, 90, [13] * 57, TEXT, size=9, lead=11, start=4)


def test_a_note_set_in_from_its_rule_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _indented_note)
    words = doc.words(0)
    assert next(w for w in words if w.text == "Oberist-Ketty").role == "footnote"
    left = max((w for w in words if w.rect[0] < 300 and w.role == "body"), key=lambda w: w.index)
    right = min((w for w in words if w.rect[0] > 300), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, left.index, right.index)).quote
    assert quote == f"{left.text} {right.text}"


def _boxed_line_figure(page) -> None:
    """A column: a paragraph, one line of text boxed by four rules, its caption under it,
    and the next paragraph."""
    end = write_lines(page, 54, 80, [9] * 8, TEXT, size=10, lead=12)
    top, bottom = end + 4, end + 18
    for a, b in (((130, top), (222, top)), ((130, bottom), (222, bottom))):
        page.draw_line(a, b, width=0.4)
    for x in (130, 222):
        page.draw_line((x, top), (x, bottom), width=0.4)
    page.insert_text((134, end + 14), "Cognitive Science", fontsize=10, fontname="tiro")
    page.insert_text((126, end + 42), "Figure 1: This is a figure.", fontsize=10, fontname="tiro")
    write_lines(page, 54, end + 66, [9] * 8, TEXT, size=10, lead=12, start=4)


def test_a_boxed_line_over_its_caption_is_a_figure(tmp_path):
    doc = one_page(tmp_path, _boxed_line_figure)
    words = doc.words(0)
    assert {w.role for w in words if w.text in ("Cognitive", "Science")} == {"float"}
    above = max((w for w in words if w.rect[1] < 170), key=lambda w: w.index)
    below = min((w for w in words if w.rect[1] > 225), key=lambda w: w.index)
    quote = doc.passage(0, doc.select_between(0, above.index, below.index)).quote
    assert quote == f"{above.text} {below.text}"


def _authors_over_columns(page) -> None:
    """A paper's first page: a title across the page, two authors' names and their
    affiliations centred side by side, then two columns (the left opening with ABSTRACT) a
    line under them."""
    title = "Elle: Inferring Isolation Anomalies from Experimental Observations"
    page.insert_text((95, 100), title, fontsize=15, fontname="hebo")
    for x, name, where in ((146, "Kyle Kingsbury", "Jepsen"), (399, "Peter Alvaro", "UC Santa")):
        page.insert_text((x, 138), name, fontsize=12, fontname="tiro")
        page.insert_text((x + 8, 153), where, fontsize=10, fontname="tiro")
        page.insert_text((x + 5, 165), "someone@site.org", fontsize=10, fontname="tiro")
    page.insert_text((54, 186), "ABSTRACT", fontsize=11, fontname="tibo")
    write_lines(page, 54, 200, [13] * 40, TEXT, size=9, lead=11)
    write_lines(page, 318, 185, [13] * 42, TEXT, size=9, lead=11, start=4)


def test_two_affiliations_side_by_side_over_the_columns_are_title_matter(tmp_path):
    doc = one_page(tmp_path, _authors_over_columns)
    quote, first, last = across_columns(doc, split=305, right_below=175)
    assert quote == f"{first} {last}"
