"""Rules found in the session of batches 106 onwards.

A poster (batch 103) sets its boxes' titles, "Abstract", "Methods" and "Results", level
across the page in 48 points over three columns of 29-point text, on no band of their own.
No block of the row is in the running text's style, so the row was peeled off the page as
title matter and read before the columns: a drag from the left column's foot into the middle
column's top lost "Methods". A row of single-line heads, each inside one column of the text
under it, in two columns or more, one of them right over a paragraph of running text (within
two of its sizes, three lines or more, set 1.15 times smaller) that does not end at the first
gap across the columns, is read with its columns. A row of authors' names over their
affiliations is not: the affiliations end above the columns, at a gap across the page; nor
is a row of their e-mails right over the columns (batch 110), set like the names above it: a
row whose style a block above it has is title matter. Over 2261 cases: 1 more read, none
fewer.

A Portuguese student paper (batch 108) sets "Keywords: embedded systems, firmware, …" in 6.5
points between its 9-point abstract and its 10-point text; a drag from the abstract into the
text left the line out, as print smaller than both ends (a footnote, a DOI line). A block
that opens with a label (a lettered word ending in a colon or a dash among its first three
words) and a word without a digit, alone on its line, is read. A DOI or a date after its
label has digits, and PRX's "Subject Areas: …" stands on one line with its DOI. Over 2197
cases: 2 more read (that paper, an Indonesian one of batch 103), none fewer.

A game's rulebook (batch 112) sets its section headings in white, 12 points, on grey bands
over 11-point text. A banner's heading had to be set 1.1 times the text's size, so the band
was a boxed sidebar and a drag from one section into the next left the heading out. A band
holding one short line at least the text's size is a banner. Over 2197 cases: 3 more read
(that rulebook, an engrXiv preprint, a Tufte handout), none fewer; scan of 514 pages: no
change.

An AASTeX paper (batch 106) sets a heading's number, "2.", in 9 points, a block of its own,
before "METHODOLOGY" in the text's style: a drag across the heading kept the title and left
the number out (a run-in needed a word of two letters, so that a line's number is not read).
A run of section numbers at least 0.85 of its title's size, opening the line of a block of
at most two lines, is read. Over 2197 cases: 1 more read, none fewer.

An Elsevier article (batch 106) closes its abstract with "Published by Elsevier B.V. This is
an open access article …" in two lines set right-aligned, in the abstract's font at its
spacing. A credit line was split off where the paragraph before it ends short of the edge;
this abstract's last line is full. The lines before the flush-right one that start well in
too, two or more, after a sentence's end, are the credit (a ragged-left epigraph's last line
follows no sentence's end). Over 2197 cases: 1 more read, none fewer; scan: no change.

Jurnal Infotel (batch 99) sets its abstract across the page and its keywords line under it,
short; the right column's first line starts right under that line, one line down and inside
the abstract's width, and joined its block. After a paragraph's short last line, a line
starting far in, not centred, as long as a column's line and reaching the block's right
edge, with a line starting where it starts under it, after a paragraph of three lines or
more, starts a block of its own. Over 2261 cases: 4 more read (that journal, an Indonesian
one of batch 103), none fewer; scan: 1 page (a "CAUTION" icon's place).

An Indonesian course paper (batch 113) captions its figure "Gambar 2.1 Contoh makanan …":
the caption labels known were English, Chinese, Japanese and Korean, so it was small print at
the column's foot, a footnote, left out of a drag that ended inside it. The labels of the
other languages the batches hold are known too (Indonesian, German, Spanish, Portuguese,
Italian, Dutch, French, Russian, Turkish, Polish). Over 2261 cases: 2 more read, none fewer;
scan: 8 pages, a German lecture's "Abbildung" captions now read as captions.

A newsletter (batch 107) sets "From the Secretary's Desk" on a dark band right under a
photo; the photo's cluster of marks took the band in, and a band inside a region heads that
region (a poster's section, a table), so the heading was a sidebar's and a drag from the
left column into the section left it out. A band at a region's foot heads what lies under
it. Over 2261 cases: 1 more read, none fewer; scan: no change.

PoC||GTFO (batch 107) sets an article's byline, "by Travis Goodspeed and Muur P.", in
italic, flush right under the title, over the right column; one line in the text's size
inside the column and near it, it was read as the column's heading, at its top, in a drag
from the left column into the right. One line set flush right, starting past the column's
first third, not centred, with no text of the column above it, is no heading; Maxim's
datasheets set their headings flush right between two paragraphs, and those are read. Over
2261 cases: 4 more read (two PoC||GTFO articles, two pages of a Chinese report), none fewer;
scan: no change in order or roles. (``quotations`` split out of ``headings``, a pure move,
to keep it under 450 lines.)
"""

from __future__ import annotations

import pymupdf
import pytest
from pagedraw import across_columns, justify, one_page, write_lines

from basehalf_core.documents.captions import CAPTION_LABEL
from basehalf_core.documents.pages import Word
from basehalf_core.documents.selection import keep_running_text
from basehalf_core.documents.text_blocks import Block
from basehalf_core.documents.title_band import heads_over_columns

PROSE = (
    "the network learns a map from the joint angles to the position of the hand and keeps it "
    "while the body grows so that a reach lands where the eye sees the target"
)
TEXT = PROSE.split()


def _centred(page, middle: float, y: float, text: str, size: float, font: str) -> None:
    width = pymupdf.get_text_length(text, fontsize=size, fontname=font)
    page.insert_text((middle - width / 2, y), text, fontsize=size, fontname=font)


def _poster(page) -> None:
    """Three columns of 10-pt text under heads in 17 pt centred over them, level across the
    page."""
    for k, (x, head) in enumerate(((40, "Abstract"), (225, "Methods"), (410, "Results"))):
        _centred(page, x + 75, 90, head, 17, "helv")
        write_lines(page, x, 108, [5] * 30, TEXT, size=10, lead=13, start=7 * k)


def test_a_row_of_column_heads_is_read_with_its_columns(tmp_path):
    doc = one_page(tmp_path, _poster)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 200 and w.text != "Abstract"]
    middle = [w for w in words if 200 < w.rect[0] < 390 and w.text != "Methods"]
    got = doc.passage(0, doc.select_between(0, left[-1].index, middle[0].index)).quote
    assert got == f"{left[-1].text} Methods {middle[0].text}"


def _authors(emails: bool):
    """Two authors' names in 12 pt over their affiliations in the text's style (with
    ``emails``: in a face of their own, and the authors' e-mails in the names' style right
    over the columns), a gap, then two columns of text."""

    def draw(page) -> None:
        lines = ("Department of Mathematics", "University of London", "UK")
        for x, name, mail in (
            (160, "Ada Lovelace", "ada@example.org"),
            (420, "Alan Turing", "alan@example.org"),
        ):
            _centred(page, x, 80, name, 12, "tiro")
            for k, line in enumerate(lines):
                _centred(page, x, 94 + 12 * k, line, 10, "helv" if emails else "tiro")
            if emails:
                _centred(page, x, 137, mail, 12, "tiro")
        write_lines(page, 50, 160, [7] * 40, TEXT, size=10, lead=13)
        write_lines(page, 310, 160, [7] * 40, TEXT, size=10, lead=13, start=3)

    return draw


@pytest.mark.parametrize("emails", [False, True], ids=["affiliations", "e-mails"])
def test_a_row_of_authors_is_read_before_the_columns(tmp_path, emails):
    doc = one_page(tmp_path, _authors(emails))
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 300 and w.rect[1] > 145]
    right = [w for w in words if w.rect[0] > 300 and w.rect[1] > 145]
    got = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    assert got == f"{left[-1].text} {right[0].text}"


def _abstract_then(line: list[tuple[float, str]]):
    """An abstract in 9 pt, one line of 6.5-pt print under it (its pieces at the x given),
    then the text in 10 pt."""

    def draw(page) -> None:
        write_lines(page, 60, 100, [7] * 6, TEXT, size=9, lead=11)
        for x, text in line:
            page.insert_text((x, 175), text, fontsize=6.5, fontname="helv")
        write_lines(page, 60, 200, [7] * 20, TEXT, size=10, lead=12, start=4)

    return draw


def test_a_keywords_line_between_the_abstract_and_the_text_is_read(tmp_path):
    """Set smaller than both ends of the drag, it was left out as a note; a line opening
    with a label and a word is read."""
    doc = one_page(tmp_path, _abstract_then([(60, "Keywords: embedded systems, firmware")]))
    words = doc.words(0)
    last = [w for w in words if w.rect[1] < 165][-1]
    first = next(w for w in words if w.rect[1] > 185)
    got = doc.passage(0, doc.select_between(0, last.index, first.index)).quote
    assert got == f"{last.text} Keywords: embedded systems, firmware {first.text}"


@pytest.mark.parametrize(
    "line",
    [
        [(60, "DOI: 10.1103/PhysRevX.6.041017")],
        [(60, "DOI: 10.1103/PhysRevX"), (200, "Subject Areas: Quantum Physics")],
        [(60, "Received: 12 March 2020")],
    ],
    ids=["doi", "metadata-row", "dates"],
)
def test_a_metadata_line_between_the_abstract_and_the_text_is_left_out(tmp_path, line):
    doc = one_page(tmp_path, _abstract_then(line))
    words = doc.words(0)
    last = [w for w in words if w.rect[1] < 165][-1]
    first = next(w for w in words if w.rect[1] > 185)
    got = doc.passage(0, doc.select_between(0, last.index, first.index)).quote
    assert got == f"{last.text} {first.text}"


def _rulebook(page) -> None:
    """Paragraphs in 11 pt, a heading in 12 pt (white) on a grey band between them."""
    write_lines(page, 40, 100, [10] * 6, TEXT, size=11, lead=14)
    page.draw_rect((36, 186, 150, 203), color=None, fill=(0.34, 0.34, 0.34))
    page.insert_text((40, 199), "1.2 Inspirations", fontsize=12, fontname="hebo", color=(1, 1, 1))
    write_lines(page, 40, 222, [10] * 6, TEXT, size=11, lead=14, start=3)


def test_a_heading_on_a_band_in_about_the_texts_size_is_read(tmp_path):
    """A band holding one short line at least the text's size is a banner the heading sits
    on, not a boxed sidebar (``regions._banner``)."""
    doc = one_page(tmp_path, _rulebook)
    words = doc.words(0)
    above = [w for w in words if w.rect[1] < 180][-1]
    below = next(w for w in words if w.rect[1] > 205)
    got = doc.passage(0, doc.select_between(0, above.index, below.index)).quote
    assert got == f"{above.text} 1.2 Inspirations {below.text}"


def _word(k: int, text: str, x: float, y: float, block: int, line: int, size: float) -> Word:
    rect = (x, y, x + 6 * len(text), y + size)
    return Word(k, text, rect, rect, block, line, "body", False, f"Times@{size}")


def test_a_headings_number_in_a_font_of_its_own_is_read():
    """AASTeX sets "2." in 9 points, a block of its own, on the line of its title
    "METHODOLOGY" (10 points, the text's style); a line's number in 9 points stands beside
    a paragraph's line as close. A drag from the paragraph above to the one below keeps the
    heading's number (a run-in that opens a heading's line), not the line's."""
    spec = [
        ("as", 60, 100, 0, 0, 10),
        ("before.", 80, 100, 0, 0, 10),
        ("2.", 120, 120, 2, 0, 9),
        ("METHODOLOGY", 132, 120, 1, 0, 10),
        ("21", 44, 140, 4, 0, 9),
        ("The", 60, 140, 3, 0, 10),
        ("data", 84, 140, 3, 0, 10),
        ("came", 60, 152, 3, 1, 10),
        ("in", 90, 152, 3, 1, 10),
        ("late.", 60, 164, 3, 2, 10),
    ]
    words = [_word(k, *row) for k, row in enumerate(spec)]
    kept = keep_running_text(words, list(range(len(words))))
    assert [words[k].text for k in kept] == [
        "as",
        "before.",
        "2.",
        "METHODOLOGY",
        "The",
        "data",
        "came",
        "in",
        "late.",
    ]


def _abstract_with_credit(page, last_full: bool) -> None:
    """An abstract of justified lines, the last one full or short, closed by a credit line
    of two lines set right-aligned, then the text."""
    lines = [(TEXT * 3)[k * 12 : k * 12 + 12] for k in range(5)]
    lines[-1] = [*lines[-1][:-1], "data."]
    right = 60 + max(pymupdf.get_text_length(" ".join(w), fontsize=8) for w in lines) + 4
    credit = (
        "Published by Elsevier B.V. Open access under CC BY.",
        "(http://creativecommons.org/licenses/by/4.0/).",
    )
    for k, words in enumerate(lines):
        if k == 4 and not last_full:
            page.insert_text((60, 140), " ".join(words[-4:]), fontsize=8, fontname="tiro")
        else:
            justify(page, 60, 100 + 10 * k, words, right, size=8)
    for k, line in enumerate(credit):
        width = pymupdf.get_text_length(line, fontsize=8, fontname="tiro")
        page.insert_text((right - width, 150 + 10 * k), line, fontsize=8, fontname="tiro")
    write_lines(page, 60, 200, [8] * 10, TEXT, size=10, lead=12, start=2)


@pytest.mark.parametrize("last_full", [True, False], ids=["last-line-full", "last-line-short"])
def test_a_credit_closing_an_abstract_is_left_out_of_a_drag(tmp_path, last_full):
    doc = one_page(tmp_path, lambda page: _abstract_with_credit(page, last_full))
    words = doc.words(0)
    end = next(w for w in words if w.text == "data.")
    first = next(w for w in words if w.rect[1] > 185)
    got = doc.passage(0, doc.select_between(0, end.index, first.index)).quote
    assert got == f"data. {first.text}"


def _abstract_over_columns(page) -> None:
    """A 9-pt abstract across the page, its short keywords line, and right under it the
    two columns of the text in the same font and size, the right one starting level with
    the left column's heading."""
    lines = [(TEXT * 4)[k * 15 : k * 15 + 15] for k in range(6)]
    right = 60 + max(pymupdf.get_text_length(" ".join(w), fontsize=9) for w in lines) + 4
    for k, words in enumerate(lines):
        justify(page, 60, 100 + 11 * k, words, right, size=9)
    page.insert_text((60, 166), "Keywords - hand, reach, body", fontsize=9, fontname="tiro")
    middle = (60 + right) / 2
    _centred(page, (60 + middle - 6) / 2, 178, "INTRODUCTION", 9, "tiro")
    for k in range(20):
        words = (TEXT * 3)[k * 6 : k * 6 + 6]
        justify(page, 60, 190 + 11 * k, words, middle - 6, size=9)
        justify(page, middle + 6, 177 + 11 * k, (TEXT * 3)[k * 6 + 3 : k * 6 + 9], right, size=9)


def test_a_column_starting_under_the_abstracts_short_last_line_is_its_own(tmp_path):
    """Right under the keywords line, the right column's first line joined the abstract's
    block (one line down, inside its width): the right column read from its second line,
    its first line with the abstract."""
    doc = one_page(tmp_path, _abstract_over_columns)
    words = doc.words(0)
    abstract = words[0].block
    middle = (words[0].rect[0] + max(w.rect[2] for w in words)) / 2
    right = [w for w in words if w.rect[1] > 170 and w.rect[0] > middle]
    first, second = right[0], next(w for w in right if w.rect[1] > right[0].rect[3])
    assert first.block != abstract
    assert first.block == second.block


@pytest.mark.parametrize(
    ("line", "caption"),
    [
        ("Gambar 2.1 Contoh makanan dalam Guild Wars 2", True),
        ("Abbildung 1.7: Die blaue Umgebung", True),
        ("Cuadro 3. Resultados del modelo", True),
        ("Tabel 1 Hasil pengujian", True),
        ("Рисунок 2. Схема установки", True),
        ("Şekil 1. Önerilen model", True),
        ("Rysunek 3. Wyniki", True),
        ("Gambar 2 menunjukkan hasil pengujian", False),
        ("Tabela 4 apresenta os resultados", False),
    ],
)
def test_caption_labels_in_other_languages(line, caption):
    """Indonesian, German, Spanish, Russian, Turkish and Polish captions were running text:
    read between two columns when a drag passed them, left out when it ended in one."""
    assert bool(CAPTION_LABEL.match(line)) is caption


def _photo_over_a_band(page) -> None:
    """Two columns of text in 12 pt; over the right one a photo, right under it a dark band
    holding the section's heading in 17.5 pt, and the section's text under the band."""
    write_lines(page, 40, 100, [5] * 30, TEXT, size=12, lead=15)
    photo = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 40, 20), 0)
    photo.set_rect(photo.irect, (90, 140, 60))
    page.insert_image((310, 90, 550, 190), pixmap=photo)
    page.draw_rect((307, 192, 550, 215), color=None, fill=(0.17, 0.27, 0.3))
    page.insert_text((312, 209), "From the Desk", fontsize=17.5, fontname="helv", color=(1, 1, 1))
    write_lines(page, 310, 235, [5] * 20, TEXT, size=12, lead=15, start=3)


def test_a_band_right_under_a_photo_heads_the_text_under_it(tmp_path):
    """The photo's cluster of marks took in the band (half an em under it), and a band
    inside a region is that region's heading: the heading was a sidebar's, left out of a
    drag from the left column into the section under it."""
    got, first, last = across_columns(one_page(tmp_path, _photo_over_a_band), right_below=220)
    assert got == f"{first} From the Desk {last}"


def _byline(page) -> None:
    """A title across the page, a byline in another face set flush right over the right column,
    two columns of text under them; in the left column a heading set flush right between
    two paragraphs."""
    page.insert_text((60, 80), "A Protocol for Booklegging by Radio", fontsize=14, fontname="hebo")
    column = [" ".join((TEXT * 3)[7 * k + 2 : 7 * k + 9]) for k in range(30)]
    for k, line in enumerate(column):
        page.insert_text((320, 130 + 12 * k), line, fontsize=10, fontname="tiro")
    edge = 320 + max(pymupdf.get_text_length(line, fontsize=10, fontname="tiro") for line in column)
    byline = "by Ann Lee and Bo Li"
    width = pymupdf.get_text_length(byline, fontsize=10, fontname="heit")
    page.insert_text((edge - width, 112), byline, fontsize=10, fontname="heit")
    lines = [" ".join((TEXT * 8)[10 * k : 10 * k + 10]) for k in range(24)]
    for k, line in enumerate(lines):
        y = 130 + 12 * k + (16 if k >= 12 else 0)
        page.insert_text((60, y), line, fontsize=10, fontname="tiro")
    right = 60 + max(pymupdf.get_text_length(line, fontsize=10, fontname="tiro") for line in lines)
    heading = "Temperature Conversion"
    width = pymupdf.get_text_length(heading, fontsize=10, fontname="hebo")
    page.insert_text((right - width, 276), heading, fontsize=10, fontname="hebo")


def test_a_byline_over_a_column_is_left_out_and_a_flush_right_heading_is_read(tmp_path):
    """The byline, one line flush right at the top of the right column, was read there as
    the column's heading; a datasheet's heading set flush right between two paragraphs
    still is."""
    doc = one_page(tmp_path, _byline)
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < 300 and w.rect[1] > 115]
    right = [w for w in words if w.rect[0] > 300 and w.rect[1] > 115]
    got = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    assert got == f"{left[-1].text} {right[0].text}"
    above = next(w for w in left if w.rect[1] > 250).index - 1
    below = next(w for w in left if w.rect[1] > 282)
    got = doc.passage(0, doc.select_between(0, above, below.index)).quote
    assert "Temperature Conversion" in got, got


def _block(k: int, bbox, size: float, lines: int, style: str) -> Block:
    return Block(k, bbox, (1.0, 0.0), size, 40 * lines, lines, style=style)


@pytest.mark.parametrize("names_above", [False, True], ids=["poster-heads", "authors-e-mails"])
def test_a_row_repeating_the_style_of_title_matter_above_it_heads_no_columns(names_above):
    """Tiago's extended abstract (batch 110) sets its authors' names, affiliations and
    e-mails in rows over two columns; the e-mails' row stands right over the columns' text,
    like a poster's heads, in the names' style. A row whose style a block above it has is
    title matter, read before the columns."""
    heads = [
        _block(1, (110, 180, 270, 192), 12, 1, "Sans@12"),
        _block(2, (330, 180, 505, 192), 12, 1, "Sans@12"),
    ]
    columns = [
        _block(3, (54, 210, 292, 600), 9, 40, "CMR@9"),
        _block(4, (317, 210, 556, 600), 9, 40, "CMR@9"),
    ]
    above = [_block(0, (160, 137, 224, 149), 12, 1, "Sans@12")] if names_above else []
    page = above + heads + columns
    assert heads_over_columns(heads, columns, 5.4, "CMR@9", page) is not names_above
