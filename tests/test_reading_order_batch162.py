"""Rules found in the session of batches 155 onwards (the helpers' ro162 and later).

A REVTeX physics draft (batch 153) centres "III. CALIBRATION", 9-point bold capitals, over
its 10-point section 2.2 text sizes above the text, far under the table above it: a numbered
heading set smaller than the text was read only within 2 sizes of its paragraph, and a drag
from the left column into the right one left it out. A children's centre's leaflet (batch
138) sets "GETTING TO THE WEYBRIDGE CHILDREN'S CENTRE" in 10-point capitals over 11-point
text, 1.3 sizes above it: only a numbered heading set smaller may stand that far off. A
heading set smaller than the text in capitals stands as far off as a numbered one, and a
centred one up to 2.5 sizes; a number alone set smaller (a table's cell over a section's
heading, Tor's message diagram) is no heading, nor an identifier in capitals with digits
("RIN 2120–AA64"), nor a figure legend's last line (``test_reading_order_batch26``).

Warp's technical report (batch 153) draws its architecture in the right column: a row of
servers' icons, a range of keys under each in the text's own font, an axis drawn as a rule
under the labels and "Key Space" under it. The figure's region ended at the icons, the
labels were read as text and the caption, four ems under the region, as text too. A rule
right under a figure is a part of it, and so are two short lines between them.

A student newsletter (batch 155) sets three columns ending level, and under the left two
"Fast Eating Facts" in 18 points across their gutter over a map; the gutter right of the
middle column runs on down the page beside a box, so the page was cut there first and the
heading read between the middle column and the right one. A heading set larger than the
columns' text, right under a gap across the page and across a gutter of the columns above
it on one side, ends those columns, as a panel across them does.

A mathematics department's newsletter (batch 142) sets a photo across its left column and
right under it the caption in 10 points, the 12-point text going on a line under the caption:
with no text above it in the column, the caption hung on the paragraph under it like a
subheading and a drag past the photo read it. A picture right over a line counts as what is
above it: the caption is closer to its photo than to the text, a heading is not.

A science magazine set in Typst (batch 158) captions its photos in Lato Black, the text's
family and size, with no label: the editorial's left column stops mid-sentence over one
photo and the right column goes on under another, and both captions were read into the
sentence. A block set in a bold or italic face throughout, right under a picture and nearer
to it than to anything under it, is the picture's caption; a bold heading under a photo,
nearer to its paragraph, is still read.

A newsletter set with papertex (batch 160) opens each section with a title and a deck set
between two rules as wide as the column, and parts the sections with a rule across the page:
the four deck rules, one width one under the other, were taken for a table drawn with rules
only, and the second section's title and deck inside it were left out of a drag. A longer
rule between two rules ends what is above it: no table's rows are crossed by one.

An IEEE journal's accepted manuscript (batch 159) sets a diamond between two short rules
under its keywords, a Dingbats glyph whose text is "!": a drag from the keywords into the
introduction read it. A glyph of an ornament font (Dingbats, Wingdings, Webdings) is no word.

SWIM (DSN 2002, batch 159) opens its introduction with two lines of verse, 9-point italic in
10-point text, indented under "1. Introduction": set smaller, it was left out of a drag from
the left column into the section. A block of the text's family set smaller, right under a
heading flush with the text's left edge and over the text, which reaches past it on both
sides, is an epigraph read with the text (lines under a centred title are not).

A fund's prospectus (batch 162) sets a table in its right column, in the text's font and
size, under a head row with no rule above it, each row's rule drawn in four pieces, one a
column, rows three lines tall: each piece was shorter than a table's rule, and the head row
stood over the table's first rule. Rules that continue each other on one line are one rule;
rules drawn in pieces joined at the same places are a table's from the first, however tall
its rows; three short cells or more side by side over a ruled table's first rule, level
with one that reaches down to it, are its head row. A conference brochure (batch 160) sets
"The fee should be paid … only:" right over a ruled table, and the sentence was grouped with
the labels in the table's first column: a ruled table's top rule parts such a block when the
lines over it are in the text's size (a caption's lines are not parted).

A village magazine set in Publisher (batch 164) parts its two columns with a rule down the
page; the left column opens with a photo and the right one ends with one. The rule's mark
joined the two photos into one figure over the whole page, and every line of it was read as
a figure's, right column first. An upright rule with text or pictures beside it on both
sides along at least half its length parts two columns and groups no figure.

Science (batch 163) sets "uman impact" flush against its drop cap "H": the word's box started
a thousandth of a point inside the cap's, and the cap stayed a word of its own ("H uman").

Physics Today (batch 163) prints the top of an article's first page on a light blue ground
across the page's whole width, with the authors' note in a darker box on it: everything on
the ground was a boxed aside, so a drag from the deck into the text kept the note. A filled
box at least nine tenths of the page's width is its background.

IEEE Vehicular Technology Magazine (batch 165) draws a diagram of boxes over the top of its
left column, reaching past the gutter into the right column, which runs narrowed beside it;
the left column's text starts under the diagram, far below the right column's first line.
The diagram's labels closed the gutter, and the right column was read first. A figure's or a
drawn box's words small like labels, lying mostly on one side, leave a gutter under them.

The LaTeX team's two-column example (batch 166) sets its running head's "3 CITATIONS" at the
left and the page's number "2" at the right on one line: a bare number is a header only with
all other text under it, and the head's other piece stood level with it, so "2" was read as
the right column's first word. A piece of one line level with the number does not count.

A company brochure (batch 166) sets its four values two by two, each a number on a small
coloured square beside a head in capitals over a short paragraph: read as two columns, the
third value came before the second, and the squares' numbers were read as boxed asides.
Bands parted by a gap across the page, each opening on both sides of the gutter with a head
of one line set larger than the text under it, level with the other's, are a grid's rows;
a small square holding only a number, its heading starting right of it, is the heading's;
a number set larger than the text joins its title at its own size's space.

A student newsletter made in Canva (batch 168) sets its text in Saira, whose line boxes
(15.7 points for 10-point type) are taller than its lines' spacing (9.8 points): each line's
box reached more than half a size up into the box above, so no line joined the one above it
and a paragraph was read as two interleaved blocks, lines 1, 3, 5 then 2, 4, 6. Lines of text
whose middles stand a line's pitch apart go on from each other whatever their boxes.

McBride's extended abstract (batch 169) sets the author's affiliation under a short footnote
rule with no marker, his e-mail address under it in Courier: the affiliation was left as
text set smaller, and the address read as a code listing in the column's flow. Small print
right under a footnote rule is a footnote, marker or not.

IJRTE (batch 169) carries a paragraph's last two lines to the top of the right column, a
blank line over the next section, under its two-line running head: set apart in the header
band, they were read as a second running head. Where the running head is found repeating
on the neighbouring pages, a block of two lines in the text's size that does not repeat is
text.

IJCA (batch 169) sets two columns whose sections line up, "2.2 Document stores" beside
"2.4 Graph databases", paragraphs ending level under them, over lines across the page: the
heads were a row of their own, peeled off the top and read before both columns. Numbered
section heads over the columns stay with them, and the page is cut below the columns.
"""

from __future__ import annotations

import itertools

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEAD, LEFT, SIZE, WORDS, one_page, write_lines

from basehalf_core.documents.document import open_document


def _heading_over_text(head: str, *, size: float, above: float, centred: bool = False):
    """A page drawer: a column of 10-point text ending "into small complexes."; ``head``
    three lines lower, in ``size`` points of Helvetica (flush left, or centred over the
    column); its paragraph "The films were prepared ..." starting ``above`` points under
    the heading's baseline."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 70, [8] * 20, WORDS, size=SIZE, lead=LEAD)
        page.insert_text((LEFT, y), "into small complexes.", fontsize=SIZE, fontname="tiro")
        y += 4 * LEAD
        x = LEFT
        if centred:
            # Centred over the widest of the column's lines.
            lines = [" ".join(WORDS[(k + j) % len(WORDS)] for j in range(8)) for k in range(21)]
            right = LEFT + max(
                pymupdf.get_text_length(t, fontsize=SIZE, fontname="tiro") for t in lines
            )
            width = pymupdf.get_text_length(head, fontsize=size, fontname="helv")
            x = (LEFT + right - width) / 2
        page.insert_text((x, y), head, fontsize=size, fontname="helv")
        y += above
        page.insert_text((LEFT, y), "The films were prepared by sputtering", fontsize=SIZE)
        write_lines(page, LEFT, y + LEAD, [8] * 20, WORDS, size=SIZE, lead=LEAD, start=3)

    return draw


# (what stands over the text, its baseline's distance over the text's first one, centred
# over the column, read by a drag past it)
HEADS_SET_SMALLER = [
    # The leaflet's "GETTING TO THE ... CENTRE": capitals, 1.3 text sizes over its text.
    pytest.param("GETTING TO THE CENTRE", 27, False, True, id="capitals"),
    # REVTeX's "III. CALIBRATION", centred 2.2 text sizes over its section.
    pytest.param("III. CALIBRATION", 36, True, True, id="numbered-centred"),
    # A table's cell "1" centred over the text, set apart like the heading above.
    pytest.param("1", 36, True, False, id="number-alone"),
    # The Federal Register's "RIN 2120–AA64" over its text is title matter.
    pytest.param("RIN 2120-AA64", 27, False, False, id="identifier"),
]


@pytest.mark.parametrize(("head", "above", "centred", "read"), HEADS_SET_SMALLER)
def test_a_line_set_smaller_over_the_text_is_read_when_it_is_a_heading(
    tmp_path, head, above, centred, read
):
    doc = one_page(tmp_path, _heading_over_text(head, size=9, above=above, centred=centred))
    got = drag(doc, 0, "complexes.", "films")
    assert got == (f"complexes. {head} The films" if read else "complexes. The films"), got


def _servers_over_a_key_space(page) -> None:
    """Warp's figure 1 in a column: a row of five servers' icons joined by a line, a range
    of keys under each in the text's font ("K – O" over "Key Space" under the middle one),
    an axis drawn as a rule under the labels, the caption under it, the text going on."""
    y = write_lines(page, LEFT, 70, [8] * 12, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "we outline a novel protocol for", fontsize=SIZE, fontname="tiro")
    top = y + 20
    page.draw_line((LEFT + 20, top + 14), (LEFT + 200, top + 14), width=0.8)
    for k, keys in enumerate(["A - E", "F - J", "K - O", "P - T", "U - Z"]):
        x = LEFT + 10 + 40 * k
        page.draw_rect((x, top, x + 23, top + 28), width=0.4, fill=(0.6, 0.7, 0.9))
        page.insert_text((x, top + 38), keys, fontsize=SIZE, fontname="tiro")
    page.draw_line((LEFT + 5, top + 44), (LEFT + 200, top + 44), width=0.4)
    page.insert_text((LEFT + 80, top + 53), "Key Space", fontsize=SIZE, fontname="tiro")
    caption = "Figure 1: The architecture of Warp."
    page.insert_text((LEFT, top + 90), caption, fontsize=9, fontname="tiro")
    page.insert_text((LEFT, top + 120), "providing efficient transactions", fontsize=SIZE)
    write_lines(page, LEFT, top + 132, [8] * 12, WORDS, size=SIZE, lead=LEAD, start=5)


def _facts_under_two_columns(page) -> None:
    """A newsletter's page: three columns of 11-point text ending level; under the left two,
    "Fast Eating Facts" in 18 points across their gutter over a map drawn with no text in
    it, under the right one a box of addresses."""
    for k, x in enumerate((37, 221)):
        write_lines(page, x, 370, [5] * 11, WORDS, size=11, lead=13, start=7 * k)
    page.insert_text((37, 370 + 13 * 11), "and the last words", fontsize=11, fontname="tiro")
    page.insert_text((221, 370 + 13 * 11), "of the middle column", fontsize=11, fontname="tiro")
    page.insert_text((404, 370), "August. Wall's donated", fontsize=11, fontname="tiro")
    write_lines(page, 404, 383, [5] * 11, WORDS, size=11, lead=13, start=3)
    page.insert_text((100, 548), "Fast Eating Facts", fontsize=18, fontname="tiro")
    page.draw_rect((40, 570, 380, 740), width=0, fill=(0.7, 0.5, 0.8))
    page.draw_rect((419, 554, 560, 744), width=0, fill=(0.8, 0.7, 0.9))
    lines = ["1330 Miller Drive", "Student Center 204", "Coral Gables", "Media Contact:"]
    for k, line in enumerate(lines):
        page.insert_text((430, 600 + 14 * k), line, fontsize=11, fontname="hebo")


def _photo_in_a_column(line: str, under: float, over: float):
    """A page drawer: a department's newsletter, 12-point text in a column, a photo across
    it, ``line`` in 10 points with its baseline ``under`` points under the photo, the text
    going on ``over`` points under that baseline."""

    def draw(page) -> None:
        y = write_lines(page, 36, 80, [6] * 12, WORDS, size=12, lead=14.5, font="helv")
        page.insert_text((36, y), "to discuss the murmurations", fontsize=12)
        top = y + 12
        page.draw_rect((36, top, 290, top + 190), width=0, fill=(0.4, 0.5, 0.4))
        page.insert_text((36, top + 190 + under), line, fontsize=10)
        y = top + 190 + under + over
        page.insert_text((36, y), "phenomenon, which was first uncovered", fontsize=12)
        write_lines(page, 36, y + 14.5, [6] * 12, WORDS, size=12, lead=14.5, start=4, font="helv")

    return draw


def test_a_caption_closer_to_its_photo_than_to_the_text_is_no_heading(tmp_path):
    photo = _photo_in_a_column("Pozdnyakov (left) and Lee at ICERM", under=10, over=25)
    doc = one_page(tmp_path, photo)
    got = drag(doc, 0, "murmurations", "phenomenon,")
    assert got == "murmurations phenomenon,", got


def test_a_heading_closer_to_its_text_than_to_the_photo_over_it_is_read(tmp_path):
    doc = one_page(tmp_path, _photo_in_a_column("Murmurations in arithmetic", under=25, over=15))
    got = drag(doc, 0, "murmurations", "phenomenon,")
    assert got == "murmurations Murmurations in arithmetic phenomenon,", got


def _photos_with_bold_captions(page) -> None:
    """An editorial in two columns of 9-point Helvetica: the left column stops mid-sentence
    over a photo at the page's foot, the right one opens with a photo; under each photo its
    caption in Helvetica Bold, 9 points, no label."""
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    photo.clear_with(120)
    y = write_lines(page, 37, 130, [7] * 16, WORDS, size=9, lead=11, font="helv")
    page.insert_text((37, y), "If you have enjoyed reading this", fontsize=9)
    page.insert_image(pymupdf.Rect(37, y + 20, 285, y + 190), pixmap=photo, keep_proportion=False)
    page.insert_text(
        (37, y + 202), '"Question everything." Prof. Barma', fontsize=9, fontname="hebo"
    )
    page.insert_image(pymupdf.Rect(329, 121, 575, 298), pixmap=photo, keep_proportion=False)
    caption = ["Competition for limited nesting sites", "imposes fitness costs on ants."]
    for k, line in enumerate(caption):
        page.insert_text((329, 318 + 11 * k), line, fontsize=9, fontname="hebo")
    page.insert_text((329, 376), "issue and appreciate the effort behind it", fontsize=9)
    write_lines(page, 329, 387, [7] * 16, WORDS, size=9, lead=11, start=2, font="helv")


def _photo_over_a_bold_heading(page) -> None:
    """A column of 9-point Helvetica, a photo across it, a heading in Helvetica Bold a line
    under the photo and its paragraph (in Times) nearer under the heading."""
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    photo.clear_with(120)
    y = write_lines(page, 37, 130, [7] * 16, WORDS, size=9, lead=11, font="helv")
    page.insert_text((37, y), "as the season ended", fontsize=9)
    page.insert_image(pymupdf.Rect(37, y + 20, 285, y + 190), pixmap=photo, keep_proportion=False)
    page.insert_text((37, y + 210), "Nesting sites", fontsize=9, fontname="hebo")
    page.insert_text((37, y + 230), "Competition for limited sites", fontsize=9, fontname="tiro")
    write_lines(page, 37, y + 241, [7] * 16, WORDS, size=9, lead=11, start=2)


def _sections_with_ruled_decks(page) -> None:
    """papertex's newsletter: each section opens with a 25-point title and a deck set between
    two rules as wide as the column; a rule across the page parts the two sections."""
    page.insert_text((42, 95), "Internships", fontsize=25, fontname="tiro")
    for y in (130, 162, 270, 290):
        page.draw_line((42, y), (293, y), width=0.5)
    page.insert_text(
        (60, 150), "AIMS students are embarking on a wide range", fontsize=10, fontname="tibo"
    )
    page.insert_text((42, 180), "Stefan will be an intern", fontsize=10, fontname="tiro")
    page.draw_line((42, 197), (553, 197), width=0.5)
    page.insert_text((42, 235), "Papers Submitted to Conferences", fontsize=25, fontname="tiro")
    page.insert_text((60, 283), "AIMS students have had a good year", fontsize=10, fontname="tibo")
    page.insert_text((42, 306), "in both submitting and having", fontsize=10, fontname="tiro")
    write_lines(page, 42, 318, [8] * 20, WORDS, size=10, lead=12)


def test_a_longer_rule_between_two_ruled_decks_makes_no_table_of_them(tmp_path):
    doc = one_page(tmp_path, _sections_with_ruled_decks)
    got = drag(doc, 0, "intern", "submitting")
    title, deck = "Papers Submitted to Conferences", "AIMS students have had a good year"
    assert got == f"intern {title} {deck} in both submitting", got


def _diamond_between_rules(page) -> None:
    """IEEE's journal style: the keywords, then a diamond (a Dingbats glyph whose text is
    "!") centred between two short rules, then the first section's heading."""
    page.insert_text((54, 100), "Index Terms: edge computing.", fontsize=9, fontname="tiro")
    page.draw_line((200, 118), (290, 118), width=0.5)
    page.insert_text((295, 121), "!", fontsize=11, fontname="zadb")
    page.draw_line((310, 118), (400, 118), width=0.5)
    page.insert_text((54, 145), "1 INTRODUCTION", fontsize=10, fontname="tiro")
    write_lines(page, 54, 160, [9] * 20, WORDS, size=10, lead=12)


def test_a_glyph_of_an_ornament_font_is_no_word(tmp_path):
    doc = one_page(tmp_path, _diamond_between_rules)
    assert "!" not in [w.text for w in doc.words(0)]
    got = drag(doc, 0, "computing.", "INTRODUCTION")
    assert got == "computing. 1 INTRODUCTION", got


def _epigraph_under_a_heading(at: float = 54):
    """A page drawer: SWIM's introduction, "1. Introduction" in 12-point bold starting at
    ``at`` (the text's left edge, or further in), two lines of verse in 9-point italic
    indented under it, then the section's 10-point text."""

    def draw(page) -> None:
        _verse_between(page, at)

    return draw


def _verse_between(page, at: float) -> None:
    y = write_lines(page, 54, 80, [12] * 12, WORDS, size=10, lead=12)
    page.insert_text((54, y), "and experimental results.", fontsize=10, fontname="tiro")
    page.insert_text((at, y + 30), "1. Introduction", fontsize=12, fontname="tibo")
    page.insert_text(
        (80, y + 46), "As you swim lazily through the milieu,", fontsize=9, fontname="tiit"
    )
    page.insert_text(
        (80, y + 57), "The secrets of the world will infect you.", fontsize=9, fontname="tiit"
    )
    page.insert_text(
        (54, y + 75), "Several large-scale peer-to-peer systems", fontsize=10, fontname="tiro"
    )
    write_lines(page, 54, y + 87, [12] * 12, WORDS, size=10, lead=12, start=4)


def test_an_epigraph_under_a_sections_heading_is_read(tmp_path):
    doc = one_page(tmp_path, _epigraph_under_a_heading())
    got = drag(doc, 0, "results.", "Several")
    verse = "As you swim lazily through the milieu, The secrets of the world will infect you."
    assert got == f"results. 1. Introduction {verse} Several", got


def test_smaller_lines_under_a_centred_title_are_no_epigraph(tmp_path):
    # A title centred over the text and lines set smaller under it: an author's, not verse.
    doc = one_page(tmp_path, _epigraph_under_a_heading(at=200))
    got = drag(doc, 0, "results.", "Several")
    assert got == "results. 1. Introduction Several", got


def _rule_in_pieces(page, y: float, x0: float, joints: list[float], x1: float) -> None:
    """A row's rule drawn cell by cell, one piece a column, as a word processor draws it."""
    edges = [x0, *joints, x1]
    for a, b in itertools.pairwise(edges):
        page.draw_line((a, y), (b + 0.3, y), width=0.3)


def _leverage_table(page) -> None:
    """A prospectus's right column: a paragraph, then a table whose head row stands over its
    first rule with no rule above it, each row's rule drawn in four pieces (one a column),
    rows three lines tall; then the text goes on under a heading."""
    x0, joints, x1 = 304, [362, 420, 478], 537
    y = write_lines(page, x0, 110, [7] * 5, WORDS, size=8.5, lead=10.5)
    page.insert_text((x0, y), "under certain circumstances.", fontsize=8.5, fontname="tiro")
    heads = ["Subfunds", "Global risk|calculation|method", "Expected|leverage|value", "Reference"]
    for k, head in enumerate(heads):
        for j, line in enumerate(head.split("|")):
            page.insert_text(([x0, *joints][k] + 2, y + 20 + 10.5 * j), line, fontsize=8.5)
    top = y + 46
    for r in range(5):
        _rule_in_pieces(page, top + 48 * r, x0, joints, x1)
        if r < 4:
            for k, cell in enumerate(["Bantleon Fund", "Commitment", "n.a.", "n.a."]):
                page.insert_text(([x0, *joints][k] + 2, top + 12 + 48 * r), cell, fontsize=8.5)
    y = top + 4 * 48 + 24
    page.insert_text((x0, y), "Market Risk", fontsize=8.5, fontname="tibo")
    write_lines(page, x0, y + 12, [7] * 8, WORDS, size=8.5, lead=10.5, start=2)
    write_lines(page, 56, 110, [7] * 60, WORDS, size=8.5, lead=10.5, start=1)


def _bank_table(page) -> None:
    """A brochure's panel: a sentence in 12 points ending "deposit only:" right over a table
    of rules drawn cell by cell, its labels flush with the sentence; the text goes on under
    the table."""
    x0, joint, x1 = 36, 118, 262
    page.insert_text((x0, 320), "The fee should be paid through bank", fontsize=12)
    page.insert_text((x0, 334), "transfer or account deposit only:", fontsize=12)
    rows = [("Bank Name:", "State Bank of India"), ("Account No:", "10172902350")]
    rows += [("IFSC Code:", "SBIN0010653")]
    for k, (label, value) in enumerate(rows):
        _rule_in_pieces(page, 338 + 15 * k, x0, [joint], x1)
        page.insert_text((x0, 349 + 15 * k), label, fontsize=12)
        page.insert_text((joint + 3, 349 + 15 * k), value, fontsize=12)
    _rule_in_pieces(page, 338 + 15 * len(rows), x0, [joint], x1)
    page.insert_text((x0, 410), "The participants are required to upload", fontsize=12)
    write_lines(page, x0, 424, [5] * 10, WORDS, size=12, lead=14, font="helv")


def _photos_beside_a_column_rule(page) -> None:
    """A village magazine set in Publisher: two columns of 11-point Arial parted by a rule
    down the page; the left column opens with a photo, the right one ends with one."""
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 60, 40), False)
    photo.clear_with(120)
    page.draw_line((230, 46), (230, 582), width=1)
    page.insert_image(pymupdf.Rect(44, 87, 226, 351), pixmap=photo, keep_proportion=False)
    y = write_lines(page, 44, 380, [6] * 14, WORDS, size=11, lead=13, font="helv")
    page.insert_text((44, y), "the combat clothing had gone", fontsize=11)
    page.insert_text((234, 58), "Station, we had one in those", fontsize=11)
    write_lines(page, 234, 71, [6] * 20, WORDS, size=11, lead=13, start=2, font="helv")
    page.insert_image(pymupdf.Rect(234, 337, 418, 583), pixmap=photo, keep_proportion=False)


def _drop_cap_flush(page) -> None:
    """Science's opening: a drop cap "H" in 40 points, "uman impact ..." set flush against it,
    starting a hair inside the cap's box, the paragraph going on under it."""
    page.insert_text((54, 90), "the last words of the abstract.", fontsize=9, fontname="tiro")
    width = pymupdf.get_text_length("H", fontsize=40, fontname="tiro")
    page.insert_text((54, 150), "H", fontsize=40, fontname="tiro")
    page.insert_text((54 + width - 0.01, 126), "uman impact on the world", fontsize=9)
    write_lines(page, 54 + width + 2, 137, [6] * 2, WORDS, size=9, lead=11, font="helv")
    write_lines(page, 54, 159, [9] * 12, WORDS, size=9, lead=11, font="helv", start=3)


def test_a_word_set_flush_against_its_drop_cap_is_joined_to_it(tmp_path):
    doc = one_page(tmp_path, _drop_cap_flush)
    assert "Human" in doc.passage(0, range(len(doc.words(0)))).quote


def _article_on_a_tinted_ground(page) -> None:
    """Physics Today's opening page: the top of the page printed on a light blue ground across
    its whole width (title, deck, the columns' first lines), the authors' note in a darker
    box on it between the deck and the text."""
    page.draw_rect((0, 0, 595, 380), width=0, fill=(0.88, 0.9, 0.96))
    page.insert_text((37, 95), "Engineering a demon", fontsize=28, fontname="helv")
    y = write_lines(page, 36, 150, [6] * 4, WORDS, size=11, lead=13, font="helv")
    page.insert_text((36, y), "heat into information plus work.", fontsize=11, fontname="helv")
    page.draw_rect((36, 219, 276, 297), width=0, fill=(0.43, 0.52, 0.72))
    for k in range(5):
        page.insert_text((40, 234 + 12 * k), "Zhiyue Lu is a graduate student", fontsize=8.5)
    page.insert_text((36, 318), "The liter of ordinary air weighs", fontsize=9, fontname="tiro")
    write_lines(page, 36, 329, [8] * 20, WORDS, size=9, lead=10.5)
    write_lines(page, 288, 150, [8] * 40, WORDS, size=9, lead=10.5, start=4)


def _diagram_over_a_gutter(page) -> None:
    """IEEE's magazine: a diagram of boxes with 6-point labels over the top of the left column,
    reaching past the gutter into the right column, which is narrowed beside it; the left
    column's text starts under the diagram, well below the right column's first line."""
    for k, label in enumerate(["Update Q-Table", "Observe State", "Observe Reward", "Action"]):
        x = 42 + 80 * k
        page.draw_rect((x, 300, x + 70, 340), width=0.5, fill=(0.7, 0.8, 0.95))
        page.insert_text((x + 4, 322), label, fontsize=6, fontname="helv")
    page.draw_rect((42, 360, 360, 440), width=0.5, fill=(0.85, 0.85, 0.85))
    page.insert_text((60, 400), "Environment", fontsize=6, fontname="helv")
    for y, label in ((352, "Feedback loop"), (380, "Action Execution"), (420, "Reward signal")):
        page.insert_text((240, y), label, fontsize=6, fontname="helv")
    page.draw_rect((40, 296, 330, 306), width=0.5, fill=(0.9, 0.9, 0.7))
    title = "Q-learning agent: observe the state, act, observe the reward, update the table"
    page.insert_text((44, 303), title, fontsize=6, fontname="helv")
    page.insert_text((380, 300), "reinforcement-learning algorithm", fontsize=9, fontname="tiro")
    write_lines(page, 380, 311, [4] * 14, WORDS, size=9, lead=11)
    write_lines(page, 292, 465, [8] * 20, WORDS, size=9, lead=11, start=3)
    y = write_lines(page, 42, 470, [8] * 18, WORDS, size=9, lead=11, start=1)
    page.insert_text((42, y), "an example of a model-free", fontsize=9, fontname="tiro")


def _head_with_a_page_number(page) -> None:
    """The LaTeX team's two-column example, page 2: a running head "3 CITATIONS" in a face of
    its own at the left and the page's number "2" at the right, on one line, over two
    columns, the right one opening with its section's heading."""
    page.insert_text((72, 100), "3 CITATIONS", fontsize=10, fontname="helv")
    page.insert_text((517, 100), "2", fontsize=10, fontname="tiro")
    page.insert_text((302, 134), "3 Citations", fontsize=14.5, fontname="tiro")
    page.insert_text((302, 156), "It is also possible to cite", fontsize=10, fontname="tiro")
    write_lines(page, 302, 168, [8] * 38, WORDS, size=10, lead=12, start=2)
    y = write_lines(page, 72, 134, [8] * 40, WORDS, size=10, lead=12)
    page.insert_text((72, y), "to be displayed here.", fontsize=10, fontname="tiro")


def test_a_page_number_level_with_a_running_heads_other_piece_is_a_header(tmp_path):
    doc = one_page(tmp_path, _head_with_a_page_number)
    # Read as a header, it is left out of any drag that does not start or end in it.
    assert [w.role for w in doc.words(0) if w.text == "2"] == ["header"]
    got = drag(doc, 0, "here.", "It")
    assert got == "here. 3 Citations It", got


def _values_two_by_two(page) -> None:
    """A company brochure's values, two by two: each a number on a small coloured square, a
    head in 18-point capitals beside it and a short paragraph under the head."""
    items = [
        ("1", "PUT SAFETY FIRST", "mutuellement à nous exprimer."),
        ("2", "DO THE RIGHT THING", "et agissons avec intégrité."),
        ("3", "KEEP IT SIMPLE", "propositions et solutions."),
        ("4", "MAKE A DIFFERENCE", "qui compte vraiment."),
    ]
    for k, (number, head, last) in enumerate(items):
        x, y = (36 if k % 2 == 0 else 310), (190 if k < 2 else 351)
        page.draw_rect((x - 17, y - 3, x + 26, y + 44), width=0, fill=(0.1, 0.1, 0.6))
        page.insert_text((x, y + 27), number, fontsize=18, fontname="helv")
        page.insert_text((x + 34, y + 17), head, fontsize=18, fontname="helv")
        end = write_lines(page, x + 34, y + 36, [6] * 4, WORDS, size=12, lead=14, start=k)
        page.insert_text((x + 34, end), last, fontsize=12, fontname="tiro")


def test_a_heading_number_set_larger_joins_its_title_at_its_own_sizes_space():
    # The brochure's "2" (18 pt, on its square) stands 24 points left of its title, a head
    # read as text in the 12-point text's style: two of the number's spaces, not the text's.
    from basehalf_core.documents.pages import Word
    from basehalf_core.documents.selection import run_ins

    def word(k, text, rect, block, style):
        return Word(k, text, rect, (0, 0, 0, 0), block, 0, style=style)

    words = [
        word(0, "exprimer.", (150, 270, 200, 285), 4, "RRPioneer@12.0"),
        word(1, "2", (310, 200, 320, 222), 5, "Aptos@18.0"),
        word(2, "DO", (344, 190, 380, 212), 2, "RRPioneer@12.0"),
    ]
    assert run_ins(words, [0, 1, 2], {0, 2}, 12.0) == {1}


def _lines_closer_than_their_boxes(page) -> None:
    """A Canva newsletter's paragraph: 10-point lines 8 points apart, so each line's box
    (13.75 points of Helvetica) reaches well up into the box of the line above."""
    lines = [
        "From all these processes, I strongly believe that",
        "Biocon maintains very well cleanliness. For safety,",
        "as the saying goes, they also follow the same rules.",
        "If any contamination happens, the emergency team",
        "will take quick action and most likely dispose of",
        "the product.",
    ]
    for k, line in enumerate(lines):
        page.insert_text((40, 300 + 8 * k), line, fontsize=10, fontname="helv")


def test_lines_set_closer_than_their_boxes_are_read_in_turn(tmp_path):
    doc = one_page(tmp_path, _lines_closer_than_their_boxes)
    got = drag(doc, 0, "From", "product.")
    assert got.startswith("From all these processes, I strongly believe that Biocon"), got
    assert "rules. If any" in got and got.endswith("dispose of the product."), got


def _affiliation_under_a_footnote_rule(page) -> None:
    """An extended abstract's first page: two columns of 10-point Times; under a short rule at
    the left column's foot the author's affiliation in 8 points with no marker, and his
    e-mail address in 8-point Courier under it."""
    y = write_lines(page, 72, 100, [8] * 40, WORDS, size=10, lead=12)
    page.insert_text((72, y), "not as a kind of", fontsize=10, fontname="tiro")
    page.draw_line((72, y + 8), (160, y + 8), width=0.4)
    page.insert_text((86, y + 18), "Department of Computer Science, Durham", fontsize=8)
    page.insert_text((72, y + 28), "c.t.mcbride@durham.ac.uk", fontsize=8, fontname="cour")
    page.insert_text((311, 100), "subtraction of one type", fontsize=10, fontname="tiro")
    write_lines(page, 311, 112, [8] * 40, WORDS, size=10, lead=12, start=3)


def _journal_page(page, n: int) -> None:
    """A journal's page ``n``: its two-line running head; on page 3 the left column's last
    paragraph carried over to the right column's top in two lines, set off from the next
    section below by a blank line, level with the left column's heading over a figure."""
    page.insert_text((251, 20), "International Journal of Recent Technology", fontsize=10)
    page.insert_text((251, 30), "ISSN: 2277-3878, Volume-9 Issue-1, May 2020", fontsize=10)
    left = 90
    if n == 2:
        # The next page's left column opens with its section's head over a figure.
        page.insert_text((103, 60), "II. PROPOSED MODEL", fontsize=10)
        page.draw_rect((60, 80, 280, 290), width=0.8, fill=(0.8, 0.8, 0.8))
        left = 330
    y = write_lines(page, 47, left, [8] * 36, WORDS, size=10, lead=12, font="helv")
    page.insert_text((47, y), "how long it takes", fontsize=10)
    top = 60
    if n == 2:
        page.insert_text((305, 60), "to process the request and how many words", fontsize=10)
        page.insert_text((305, 72), "were used on the webpage.", fontsize=10)
        top = 100
    page.insert_text((305, top), "IV. RESULT The system uses", fontsize=10)
    write_lines(page, 305, top + 12, [8] * 50, WORDS, size=10, lead=12, start=2, font="helv")


def test_a_paragraphs_tail_under_a_repeated_running_head_is_text(tmp_path):
    pdf = pymupdf.open()
    for n in range(3):
        _journal_page(pdf.new_page(width=595, height=842), n)
    pdf.save(tmp_path / "journal.pdf")
    doc = open_document(tmp_path / "journal.pdf")
    got = drag(doc, 2, "takes", "IV.")
    assert got == "takes to process the request and how many words were used on the webpage. IV.", (
        got
    )


def _sections_level_in_two_columns(page) -> None:
    """IJCA's page: two columns whose sections happen to line up, "2.2 Document stores"
    beside "2.4 Graph databases" in 12 points over paragraphs of the same length, then
    "2.3" beside "3."; lines across the page at the foot close the gutter."""
    page.insert_text((54, 80), "2.2 Document stores", fontsize=12, fontname="tiro")
    page.insert_text((316, 80), "2.4 Graph databases", fontsize=12, fontname="tiro")
    write_lines(page, 54, 93, [9] * 10, WORDS, size=9, lead=11)
    page.insert_text((316, 93), "The graph databases are", fontsize=9, fontname="tiro")
    write_lines(page, 316, 104, [9] * 9, WORDS, size=9, lead=11, start=2)
    page.insert_text((54, 211), "2.3 Column stores", fontsize=12, fontname="tiro")
    page.insert_text((316, 211), "3. REDIS", fontsize=12, fontname="tiro")
    end = write_lines(page, 54, 224, [9] * 9, WORDS, size=9, lead=11, start=5)
    page.insert_text((54, end), "HyperTable, etc.", fontsize=9, fontname="tiro")
    y = write_lines(page, 316, 224, [9] * 10, WORDS, size=9, lead=11, start=7)
    wide = "a line across the page under both columns, as long as the two columns together are"
    write_lines(page, 54, y + 20, [1] * 3, [wide], size=9, lead=11)


# (page drawer, a drag's first and last words, the passage a person reads)
DRAGS = [
    pytest.param(
        _sections_level_in_two_columns,
        "etc.",
        "graph",
        "etc. 2.4 Graph databases The graph",
        id="numbered-heads-level-over-two-columns-stay-with-them",
    ),
    pytest.param(
        _affiliation_under_a_footnote_rule,
        "kind",
        "subtraction",
        "kind of subtraction",
        id="a-note-right-under-a-footnote-rule-needs-no-marker",
    ),
    pytest.param(
        _servers_over_a_key_space,
        "for",
        "providing",
        "for providing",
        id="a-rule-under-a-figures-labels-is-part-of-the-figure",
    ),
    pytest.param(
        _facts_under_two_columns,
        "column",
        "August.",
        "column August.",
        id="a-heading-across-a-gutter-under-columns-ends-them",
    ),
    pytest.param(
        _photos_with_bold_captions,
        "this",
        "issue",
        "this issue",
        id="a-caption-set-off-by-its-face-under-a-photo-is-the-photos",
    ),
    pytest.param(
        _photo_over_a_bold_heading,
        "ended",
        "Competition",
        "ended Nesting sites Competition",
        id="a-bold-heading-under-a-photo-close-over-its-text-is-read",
    ),
    pytest.param(
        _leverage_table,
        "circumstances.",
        "Market",
        "circumstances. Market",
        id="a-table-ruled-cell-by-cell-under-its-head-row-is-left-out",
    ),
    pytest.param(
        _bank_table,
        "only:",
        "participants",
        "only: The participants",
        id="a-sentence-over-a-ruled-table-is-parted-from-its-first-column",
    ),
    pytest.param(
        _photos_beside_a_column_rule,
        "gone",
        "Station,",
        "gone Station,",
        id="a-column-rule-between-two-photos-makes-no-figure-of-the-page",
    ),
    pytest.param(
        _article_on_a_tinted_ground,
        "work.",
        "liter",
        "work. The liter",
        id="a-tint-across-the-page-is-its-ground-and-a-box-on-it-an-aside",
    ),
    pytest.param(
        _diagram_over_a_gutter,
        "model-free",
        "reinforcement-learning",
        "model-free reinforcement-learning",
        id="a-diagram-reaching-past-a-gutter-leaves-the-columns-in-order",
    ),
    pytest.param(
        _values_two_by_two,
        "exprimer.",
        "DO",
        "exprimer. 2 DO",
        id="a-grid-of-items-under-level-heads-is-read-row-by-row",
    ),
]


@pytest.mark.parametrize(("draw", "first", "last", "expected"), DRAGS)
def test_a_drag_reads_the_passage_a_person_reads(tmp_path, draw, first, last, expected):
    got = drag(one_page(tmp_path, draw), 0, first, last)
    assert got == expected, got
