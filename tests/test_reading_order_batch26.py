"""Rules found on batches 25 and 26 (unseen pages), kept for later ones.

- A line opening in another font than its paragraph (inline code: Springer's side caption
  line "[t] with the sidecaption", the bracket and the command in Courier) took the style
  of its first word and stood as a block of its own, and the paragraph's next line, a line
  gap under the last one it had, began another: a drag inside the caption lost both. A
  line that opens its line (nothing level with it before it), in about the paragraph's
  size, not with a bullet, with two or more words of three letters or more in the
  paragraph's font and size, goes on the paragraph.
- REVTeX centres a caption line by line ("FIG. 2: Time evolution of the Gaussian wave",
  lines centred under it, a full one among them) and sets it in the text's font and size
  at a line's spacing from the text under it. The caption was taken to end at its first
  centred line, and the lines under it were read as text in a drag past the figure. A
  caption goes on past a centred line while the lines under it are centred or full, to the
  last centred one; running text under a caption is justified, full until a short line at
  the left edge.

Scan of 514 pages (``bench/reading_order_scan.py``): 33 change, mostly captions and
reference lists read whole; a few pieces of display math move inside math-set lines.

Found on batch 27 (Pis'ma v Astronomicheskii Zhurnal, first measured 21/24 with two of its
misses here):

- The running head set in the text's font and size, less than half a line over the right
  column, grouped with the column's first line; the block held words no other page has
  and was read as text. A block whose first (or last) one or two lines repeat on nearby
  pages, the rest not, set off from the rest by more than its lines are from each other,
  is cut there, and the repeated lines are a running head (not in a figure or a table,
  whose first row of numbers may repeat). A piece of digits only that stands right beside
  words that do not repeat ("5.6" of a section heading at the top of a page) is no page
  number.
- The page's two edge bands are read apart, and MuPDF numbers each read's blocks from 0:
  the footer's words were put in a line of the head's band, so no head ever repeated.

Scan: 4 of 514 pages change (ACM TOG's and AIP's footers, Neuron's "OPEN ACCESS" head, a
line number).

Found on batch 30 (first measured 15/21): a poster's box titles, centred over their boxes'
text in the text's own font, a row of them level across the columns, were taken for a
band of title matter (an author's name centred over an affiliation) and read before the
columns. Title matter is centred on other short title matter: a block centred on a
paragraph of more than three lines is a heading. Scan: 2 of 514 pages change (ICML's
abstract heading no longer pulls the other column's first line into the title band;
a Word paper's reference numbers).

Found on batch 29 (first measured 22/23): ASME sets a section's heading and its first
subsection's one under the other in 9 pt bold sans in 10 pt text; the two group as one
block, and a subheading set smaller than the text was read only when it was one line. Two
lines are read the same way (hanging on the paragraph under them). Scan: 7 of 514 pages
change: IEEE Access's two-line section-and-subsection heads, a run-in heading, and short
listings of LaTeX commands in IEEEtran's how-to, read as text.

Found on batch 32 (first measured 17/24): LaTeX News closes an item with "(tagging-project
issue 1115)" in slanted type a size smaller, flush right on a line of its own; a drag past
it kept only text set like its ends. A one-line block no larger than the text, right under
a paragraph, ending at its right edge and starting well in from its left, is read as text.
Scan: 3 of 514 pages change, in the style of a math piece only.

Found on batch 27 (USENIX ATC's template): TikZ sets a drawing's axis labels ("y" over the
arrow's tip, "x" beside the other) in the text's own font and size, just outside the
drawing's region, and a drag from the column above into the text under the drawing read
them. One character alone on a line (or a sign and a letter, "−u") within a size of a
figure is the figure's, in any style but CJK. Scan: 7 of 514 pages change, all labels or
tick numbers of plots (and a margin figure's number no longer read into the text).

Found on batch 34 (first measured 12/20): Japanese papers label captions "図1:", and the
caption label knew Chinese 图 and 表 only; a caption under its picture was read into a drag
past it. 図 and Korean 그림 and 표 label captions too, and a full-width colon may close the
label. Scan: 1 of 514 pages changes (a figure's own words, reordered).

Found on batch 33 (first measured 18/20): REVTeX and AIP set numbered section heads in 9 pt
bold over 10 pt text, 1.7 sizes above what follows, and a subsection's head under a
section's; a subheading set smaller was read only within one size of its paragraph, and
only over one as wide. A numbered one ("II.", "A.", "3.1", "(1)") may stand up to two
sizes off, over its first subsection's head too; small print without a number (a legend's
last line, ACM's reference format, a copyright line) may not. Scan: 1 of 514 pages
changes (IEEE Access's "C. TRAINING THE NETWORKS", read now).

Found on batch 35 (first measured 16/21): USENIX's "Abstract", 12 pt bold flush left a line
under the last author's centred affiliation, joined the authors' block (a line joins
against its block's width), which then reached down into the right column's first lines:
no row's gap was left under the title matter, and the right column was read before the
left one. A line set larger than the text that is clear of the line above it, itself set
in from the block's edge, does not join. Scan: 0 of 514 pages change.

Found on batch 38 (first measured 19/21): a SIGIR page's right column opens with the end
of the left column's sentence ("phase smoothing approach:") over a display equation; one
line near the page's top, set off from what follows, it was taken for a running head, and
a drag into it ran backwards. A line level with the first line of a paragraph in another
column is no running head. Scan: 7 of 514 pages change (column heads and first lines no
longer heads; a form's titles and a table's head row read as floats).

The pages here are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import itertools

import pymupdf
from conftest import drag
from pagedraw import LEAD, SIZE, WORDS, justify, one_page, write_lines

LEFT, RIGHT = 54, 317
WIDTH = 245


def _quote(doc, first, last, page: int = 0) -> str:
    """The quote of a drag on ``page`` from word ``first`` to word ``last``."""
    return doc.passage(page, doc.select_between(page, first.index, last.index)).quote


def _side_caption(page) -> None:
    """Springer's side caption in 8.5 pt Times beside a drawing, one line of it opening
    with "[t]" in Courier, the command after it in Courier too, its last line "command"."""
    write_lines(page, 135, 100, [10] * 12, WORDS, size=SIZE, lead=LEAD)
    page.draw_rect((300, 330, 460, 470), width=0.8)
    page.draw_line((300, 470), (460, 330), width=0.8)
    lines = [
        "Fig. 1 If the width of the",
        "figure is less than 7.8 cm use",
        "the sidecaption command to",
        "flush the caption on the left",
        "side of the page. You simply",
        "need to use the optional",
    ]
    y = 340.0
    for text in lines:
        page.insert_text((135, y), text, fontsize=8.5, fontname="tiro")
        y += 9.8
    x = 135.0
    for text, font in (("[t] ", "cour"), ("with the ", "tiro"), ("sidecaption", "cour")):
        page.insert_text((x, y), text, fontsize=8.5, fontname=font)
        x += pymupdf.get_text_length(text, fontname=font, fontsize=8.5)
    page.insert_text((135, y + 9.8), "command", fontsize=8.5, fontname="tiro")


def test_a_drag_inside_a_caption_reads_its_line_that_opens_in_code(tmp_path):
    doc = one_page(tmp_path, _side_caption)
    got = drag(doc, 0, "flush", "command")
    want = (
        "flush the caption on the left side of the page. You simply need to use the "
        "optional [t] with the sidecaption command"
    )
    assert got == want, got


def _centred(page, y: float, text: str, size: float = SIZE) -> None:
    """``text`` centred in the right column."""
    width = pymupdf.get_text_length(text, fontname="tiro", fontsize=size)
    page.insert_text((RIGHT + (WIDTH - width) / 2, y), text, fontsize=size, fontname="tiro")


def _revtex(page) -> None:
    """Left column: text ending "shown in the figures 2, 4, 5 respectively.". Right column:
    a drawing; its caption centred line by line in the text's font and size, one full
    line among them; a line's spacing under it, the text going on justified."""
    y = write_lines(page, LEFT, 70, [8] * 50, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "shown in the figures 2, 4, 5 respectively.", fontsize=SIZE)
    page.draw_rect((RIGHT + 20, 70, RIGHT + 220, 220), width=0.8)
    page.draw_line((RIGHT + 20, 220), (RIGHT + 220, 70), width=0.8)
    y = 236.0
    _centred(page, y, "FIG. 4: Time evolution of the Gaussian wave")
    _centred(page, y + LEAD, "for the viscosity 0.05 captured at six times")
    full = ["0.010s,", "0.015s,", "0.020s,", "0.025s,", "0.030s,", "0.035s,", "0.040s,", "0.045s."]
    justify(page, RIGHT, y + 2 * LEAD, full, RIGHT + WIDTH, size=SIZE)
    _centred(page, y + 3 * LEAD, "As we can clearly see the wave is")
    _centred(page, y + 4 * LEAD, "tilting towards the right.")
    y += 5 * LEAD + 2
    opening = ["As", "we", "can", "see", "from", "the", "figure", "2", "that", "as", "the"]
    justify(page, RIGHT, y, opening, 562, size=SIZE)
    for k in range(1, 20):
        words = [WORDS[(3 * k + j) % len(WORDS)] for j in range(9)]
        justify(page, RIGHT, y + k * LEAD, words, 562, size=SIZE)


def test_a_caption_centred_line_by_line_is_left_out_of_a_drag_past_it(tmp_path):
    doc = one_page(tmp_path, _revtex)
    got = drag(doc, 0, "respectively.", "figure")
    assert got == "respectively. As we can see from the figure", got


def test_a_drag_inside_a_caption_centred_line_by_line_reads_it_to_its_end(tmp_path):
    doc = one_page(tmp_path, _revtex)
    got = drag(doc, 0, "Gaussian", "right.")
    want = (
        "Gaussian wave for the viscosity 0.05 captured at six times 0.010s, 0.015s, "
        "0.020s, 0.025s, 0.030s, 0.035s, 0.040s, 0.045s. As we can clearly see the wave is "
        "tilting towards the right."
    )
    assert got == want, got


def _journal(doc) -> None:
    """Four pages of a journal set in 11 pt: on even pages the page number at the top left
    and the authors' running head centred over the gutter, in the text's own font and size,
    less than half a line over the columns' first lines; the journal's name in the footer.
    No line of text repeats from page to page."""
    size, lead = 11.0, 12.2

    def word(*digits: int) -> str:  # a word of letters only, its own on each page and line
        return "".join("abcdefghij"[int(c)] for c in "".join(map(str, digits))) + "a"

    for n in range(1, 5):
        page = doc.new_page(width=595, height=842)
        if n % 2 == 0:
            page.insert_text((60, 65), str(n), fontsize=size, fontname="tiro")
            page.insert_text((262, 65), "I. A. Mereminsky et al.", fontsize=size, fontname="tiro")
        else:
            page.insert_text((200, 65), "Evolution of the quasi-periodic wave", fontsize=size)
        y = 84.0
        for k in range(55):
            justify(page, 60, y, [word(n, 1, k, j) for j in range(8)], 300, size=size)
            if k == 0:
                first = "0.8 to 10 keV." if n == 2 else f"{word(n, 2)} {word(n, 3)}."
                page.insert_text((315, y), first, fontsize=size, fontname="tiro")
            else:
                justify(page, 315, y, [word(n, 2, k, j) for j in range(8)], 556, size=size)
            y += lead
        page.insert_text((60, 790), "LETTERS IN ASTRONOMY  vol 0  no 0  2018", fontsize=9)


def test_a_running_head_close_over_a_column_is_left_out_of_a_drag(tmp_path):
    doc = pymupdf.open()
    _journal(doc)
    path = tmp_path / "journal.pdf"
    doc.save(path)
    from basehalf_core.documents.document import open_document

    reader = open_document(path)
    words = reader.words(1)
    left = [w for w in words if w.box[0] < 0.5 and w.role == "body"]
    last = max(left, key=lambda w: (w.box[1], w.box[0]))  # the left column's last word
    top = next(w for w in words if w.text == "0.8")  # the right column's first
    got = _quote(reader, last, top, page=1)
    assert got == f"{last.text} 0.8", got


def test_a_page_edge_lines_keep_the_head_and_the_footer_apart(tmp_path):
    # The two edge bands are read apart and MuPDF numbers each read's blocks from 0: keyed
    # by block and line alone, the footer's words joined a line of the head's band.
    from basehalf_core.documents.running_heads import edge_lines_of

    doc = pymupdf.open()
    _journal(doc)
    texts = [text for text, _y, _boxes in edge_lines_of(doc[1])]
    assert "LETTERS IN ASTRONOMY vol # no # #" in texts, texts
    assert not any("LETTERS" in t and t != "LETTERS IN ASTRONOMY vol # no # #" for t in texts)


def _poster(page) -> None:
    """Three columns of boxes, each opening with its title centred over its text, in the
    text's own font and size, a little apart from it (tikzposter's block titles)."""
    size, lead, width = 10.0, 12.0, 170.0
    for c, title in enumerate(("An Important Problem", "Results", "Comparison")):
        x = 40 + c * 190
        span = pymupdf.get_text_length(title, fontname="helv", fontsize=size)
        page.insert_text((x + (width - span) / 2, 60), title, fontsize=size, fontname="helv")
        for k in range(30):
            text = [WORDS[(7 * k + 3 * c + j) % len(WORDS)] for j in range(6)]
            if k == 29:
                text[-1] = f"end{c}."
            if k == 0:
                text[0] = f"Start{c}"
            justify(page, x, 84 + k * lead, text, x + width, size=size, font="helv")


def test_a_drag_from_a_poster_box_into_the_next_reads_its_centred_title(tmp_path):
    doc = one_page(tmp_path, _poster)
    got = drag(doc, 0, "end0.", "Start1")
    assert got == "end0. Results Start1", got


def _asme(page) -> None:
    """A column of 10 pt text; a list's last item; then a section's heading and its first
    subsection's, one under the other in 9 pt bold sans; the text going on under them."""
    y = write_lines(page, LEFT, 70, [8] * 20, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "period it is online.", fontsize=SIZE, fontname="tiro")
    y += 2 * LEAD
    page.insert_text((LEFT, y), "4. MODELING AND SIMULATION", fontsize=9, fontname="hebo")
    page.insert_text((LEFT, y + 11), "4.1 Modules", fontsize=9, fontname="hebo")
    write_lines(page, LEFT, y + 14 + LEAD, [8] * 20, WORDS, size=SIZE, lead=LEAD, start=3)


def test_a_drag_past_a_heading_over_a_subheading_set_smaller_reads_both(tmp_path):
    doc = one_page(tmp_path, _asme)
    first = WORDS[(3 + 1) % len(WORDS)]  # the second word of the text under the headings
    got = drag(doc, 0, "online.", first)
    want = f"online. 4. MODELING AND SIMULATION 4.1 Modules {WORDS[3]} {first}"
    assert got == want, got


def _news(page) -> None:
    """LaTeX News: an item's paragraph ends "applied silently."; under it, flush right on a
    line of its own, "(tagging-project issue 1115)" in italics a size smaller; the next
    item's heading and text follow in the same column."""
    y = 70.0
    for k in range(20):
        justify(page, LEFT, y, [WORDS[(7 * k + j) % len(WORDS)] for j in range(9)], 299, size=SIZE)
        y += LEAD
    page.insert_text((LEFT, y), "the fallback is applied silently.", fontsize=SIZE, fontname="tiro")
    tag = "(tagging-project issue 1115)"
    span = pymupdf.get_text_length(tag, fontname="tiit", fontsize=9)
    page.insert_text((LEFT + WIDTH - span, y + 11), tag, fontsize=9, fontname="tiit")
    y += 11 + 2 * LEAD
    page.insert_text((LEFT, y), "Using metadata more than once", fontsize=SIZE, fontname="tibo")
    write_lines(page, LEFT, y + LEAD + 2, [8] * 20, WORDS, size=SIZE, lead=LEAD, start=5)
    write_lines(page, RIGHT, 70, [8] * 50, WORDS, size=SIZE, lead=LEAD, start=2)


def test_a_drag_past_a_tag_set_flush_right_under_a_paragraph_reads_it(tmp_path):
    doc = one_page(tmp_path, _news)
    got = drag(doc, 0, "silently.", "Using")
    assert got == "silently. (tagging-project issue 1115) Using", got


def _axes(page) -> None:
    """A drawing of two axes atop the right column, TikZ's labels "y" over the arrow's tip
    and "x" right of the other, in the text's own font and size; the left column's text
    ends "at the end of the"; the right column's text under the drawing opens "paper,"."""
    write_lines(page, LEFT, 70, [8] * 49, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, 70 + 49 * LEAD), "references at the end of the", fontsize=SIZE)
    page.draw_line((RIGHT + 40, 160), (RIGHT + 200, 160), width=0.6)  # the x axis
    page.draw_line((RIGHT + 120, 240), (RIGHT + 120, 82), width=0.6)  # the y axis
    page.draw_line((RIGHT + 120, 160), (RIGHT + 170, 110), width=1.2, color=(0, 0, 1))
    page.insert_text((RIGHT + 117, 78), "y", fontsize=SIZE, fontname="tiro")
    page.insert_text((RIGHT + 204, 163), "x", fontsize=SIZE, fontname="tiro")
    page.insert_text((RIGHT + 173, 108), "u", fontsize=SIZE, fontname="tiit")
    y = write_lines(page, RIGHT, 270, [1], ["paper,"], size=SIZE, lead=LEAD)
    write_lines(page, RIGHT, y, [8] * 30, WORDS, size=SIZE, lead=LEAD)


def test_a_drag_past_a_drawing_leaves_its_axis_labels_out(tmp_path):
    doc = one_page(tmp_path, _axes)
    words = doc.words(0)
    last = [w for w in words if w.text == "the" and w.box[0] < 0.5][-1]
    top = next(w for w in words if w.text == "paper,")
    got = _quote(doc, last, top)
    assert got == "the paper,", got


def _japanese_figure(page) -> None:
    """A Japanese two-column abstract: the left column's text, a picture, under it its
    caption "図1: 本実験の生成画像" in the text's font, the text going on under it."""
    lines = ["勾配消失を防ぐことは画像の生成において", "より安定した画像の生成につながると考え"]
    y = 70.0
    for k in range(18):
        page.insert_text((LEFT, y), lines[k % 2], fontsize=9, fontname="japan")
        y += 14
    page.insert_text((LEFT, y), "られる．", fontsize=9, fontname="japan")
    page.draw_rect((LEFT + 20, y + 10, LEFT + 200, y + 130), width=0.8, fill=(0.8, 0.8, 0.8))
    page.insert_text((LEFT + 50, y + 146), "図1: 本実験の生成画像", fontsize=9, fontname="japan")
    y += 172
    page.insert_text((LEFT, y), "５ おわりに", fontsize=9, fontname="japan")
    for k in range(8):
        page.insert_text((LEFT, y + 14 * (k + 1)), lines[k % 2], fontsize=9, fontname="japan")
    for k in range(40):
        page.insert_text((RIGHT, 70 + 14 * k), lines[k % 2], fontsize=9, fontname="japan")


def test_a_drag_past_a_japanese_figure_leaves_its_caption_out(tmp_path):
    doc = one_page(tmp_path, _japanese_figure)
    words = doc.words(0)
    first = next(w for w, n in itertools.pairwise(words) if (w.text, n.text) == ("ら", "れ"))
    last = next(n for w, n in itertools.pairwise(words) if (w.text, n.text) == ("５", "お"))
    got = _quote(doc, first, last)
    assert got == "られる．５ お", got


def _set_apart(lines: list[tuple[str, str]]):
    """A page drawer: text ending "into small complexes."; then ``lines`` (text, font) in
    9 pt in 10 pt text, flush left, each 1.7 sizes over what follows and further under what
    precedes; then the text going on "The films were prepared ..."."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 70, [8] * 20, WORDS, size=SIZE, lead=LEAD)
        page.insert_text((LEFT, y), "into small complexes.", fontsize=SIZE, fontname="tiro")
        y += 4
        for text, font in lines:
            y += 26
            page.insert_text((LEFT, y), text, fontsize=9, fontname=font)
        y += 26
        page.insert_text((LEFT, y), "The films were prepared by sputtering", fontsize=SIZE)
        write_lines(page, LEFT, y + LEAD, [8] * 20, WORDS, size=SIZE, lead=LEAD, start=3)

    return draw


def test_a_drag_past_numbered_heads_set_apart_and_smaller_reads_them(tmp_path):
    # AIP's section head over its first subsection's, 9 pt bold sans.
    heads = [("II. EXPERIMENTAL DETAILS", "hebo"), ("A. Sputter deposition", "hebo")]
    doc = one_page(tmp_path, _set_apart(heads))
    got = drag(doc, 0, "complexes.", "films")
    assert got == "complexes. II. EXPERIMENTAL DETAILS A. Sputter deposition The films", got


def test_small_print_without_a_section_number_is_no_heading_however_set(tmp_path):
    # The end of a figure legend, spaced the same: a drag past it leaves it out.
    doc = one_page(tmp_path, _set_apart([("frequencies below 0.2 MHz each", "helv")]))
    assert drag(doc, 0, "complexes.", "films") == "complexes. The films"


def _usenix_title(page) -> None:
    """USENIX's first page: a title; two rows of two authors, the left ones' affiliation
    reaching past the page's middle, and a fifth author centred under them, all in 12 pt
    at a line's spacing; "Abstract" in 12 pt bold flush left a line under the centred
    affiliation; the right column's text starting level with "Abstract"."""
    page.insert_text((120, 60), "How Double Fetches turn into Vulnerabilities", fontsize=14)
    y = 90.0
    for left, right in (("Pengfei Wang", "Jens Krinke"), ("Kai Lu", "Gen Li")):
        page.insert_text((LEFT + 40, y), left, fontsize=12, fontname="tiro")
        page.insert_text((380, y), right, fontsize=12, fontname="tiro")
        place = "National University of Defense Technology, Changsha"
        page.insert_text((LEFT, y + 14), place, fontsize=12, fontname="tiit")
        page.insert_text((360, y + 14), "University College London", fontsize=12, fontname="tiit")
        y += 28
    page.insert_text((240, y), "Steve Dodier", fontsize=12, fontname="tiro")
    page.insert_text((214, y + 14), "University College London", fontsize=12, fontname="tiit")
    y += 36
    page.insert_text((LEFT, y), "Abstract", fontsize=12, fontname="tibo")
    end = write_lines(page, LEFT, y + 18, [8] * 38, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, end), "accessing one shared memory location", fontsize=SIZE)
    write_lines(page, RIGHT, y, [8] * 40, WORDS[3:] + WORDS[:3], size=SIZE, lead=LEAD)


def test_a_heading_under_a_centred_author_row_leaves_the_columns_in_order(tmp_path):
    doc = one_page(tmp_path, _usenix_title)
    words = doc.words(0)
    last = next(w for w in words if w.text == "location")
    right = [w for w in words if w.box[0] > 0.5 and w.box[1] > 0.2]
    top = min(right, key=lambda w: (round(w.box[3], 2), w.box[0]))  # the column's first word
    got = _quote(doc, last, top)
    assert got == f"location {top.text}", got


def _carried_line(page) -> None:
    """SIGIR: the left column's last sentence runs on to the right column's first line,
    "ing approach:", which stands over a display equation near the page's top, level with
    the left column's first line."""
    write_lines(page, LEFT, 50, [8] * 55, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, 50 + 55 * LEAD), "language model and a smooth-", fontsize=SIZE)
    page.insert_text((RIGHT, 50), "ing approach:", fontsize=SIZE, fontname="tiro")
    page.insert_text((RIGHT + 60, 80), "p(w|d) = n(w, D) + mu", fontsize=SIZE, fontname="tiit")
    write_lines(page, RIGHT, 106, [8] * 50, WORDS, size=SIZE, lead=LEAD, start=4)


def test_a_column_first_line_level_with_the_other_column_is_no_running_head(tmp_path):
    doc = one_page(tmp_path, _carried_line)
    got = drag(doc, 0, "smooth-", "approach:")
    assert got == "smoothing approach:", got


def _plot(page) -> None:
    """A plot in the left column between two paragraphs: a frame with a curve, its y ticks
    "7" … "0" stacked left of it and its x ticks "10 20 30 40 50" in a row under it, in the
    text's font, outside the drawing's region."""
    y = write_lines(page, LEFT, 70, [8] * 12, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT, y), "on a benchmark that searches for", fontsize=SIZE, fontname="tiro")
    top, bottom = y + 20, y + 150
    page.draw_rect((LEFT + 30, top, LEFT + 230, bottom), width=0.6)
    page.draw_polyline([(LEFT + 30, bottom), (LEFT + 120, top + 60), (LEFT + 230, top + 10)])
    for k in range(8):
        page.insert_text((LEFT + 11, bottom - k * 17 + 3), str(k), fontsize=SIZE, fontname="tiro")
    ticks = "    ".join(str(10 * (k + 1)) for k in range(5))
    page.insert_text((LEFT + 60, bottom + 24), ticks, fontsize=SIZE, fontname="tiro")
    page.insert_text((LEFT, bottom + 52), "a structural motif the wave moves", fontsize=SIZE)
    write_lines(page, LEFT, bottom + 52 + LEAD, [8] * 12, WORDS, size=SIZE, lead=LEAD)


def test_a_drag_past_a_plot_leaves_its_tick_labels_out(tmp_path):
    doc = one_page(tmp_path, _plot)
    assert drag(doc, 0, "for", "structural") == "for a structural"
