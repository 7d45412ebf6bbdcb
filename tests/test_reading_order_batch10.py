"""Rules found on batch 10 (unseen pages from ten publishers), checked on pages made for them.

- The Royal Society sets its section heads at 16 pt over 9 pt text: far larger than a heading
  was allowed to be, so a drag over one left it out. A large heading that hangs on its
  paragraph (text right under it, more space above) is read; a large line in the middle of
  its space (a pull quote) still is not.
- APS puts a line of small print (DOI, subject areas) between the abstract and the text: a
  drag from one into the other read it, as its two ends differ in style and nothing was left
  out. Print smaller than both ends of such a drag is left out.
- IEEE opens its text with a drop cap: a drag read "T O SOLVE"; the cap is glued to the rest
  of its word.
- A two-page file (an extended abstract, pages cut out of a paper) never compared its pages,
  so a running head at the top of both was read across a column break.

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

import pymupdf
from conftest import drag
from pagedraw import write_lines

from basehalf_core.documents.document import open_document

LEFT = (50.0, 280.0)
RIGHT = (310.0, 540.0)
SIZE, LEAD = 9.0, 11.0
VOCABULARY = (
    "plants respond to salient features of their environment under the principle and "
    "the cognitive sciences have been neglectful of the plant world until now while "
    "roots and shoots anticipate the future competing for patchily distributed resources"
)
WORDS = VOCABULARY.split()


def _para(page, x: float, y: float, lines: int, start: int = 0, last_short: bool = True) -> float:
    """``lines`` lines of 9 pt Times from the vocabulary above; returns the next baseline."""
    counts = [8] * (lines - 1) + [4 if last_short else 8]
    return write_lines(page, x, y, counts, WORDS, size=SIZE, lead=LEAD, start=start)


def _doc(tmp_path, pages) -> object:
    doc = pymupdf.open()
    for draw in pages:
        page = doc.new_page(width=595, height=842)
        draw(page)
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path)


def _heading_page(page) -> None:
    y = _para(page, LEFT[0], 100, 20)
    page.insert_text((LEFT[0], y + 20), "2. Plant processing", fontsize=16, fontname="hebo")
    page.insert_text(
        (LEFT[0], y + 34), "Because the overt behaviour", fontsize=SIZE, fontname="tiro"
    )
    _para(page, LEFT[0], y + 34 + LEAD, 20, start=5)
    _para(page, RIGHT[0], 100, 50, start=9)


def test_a_large_heading_that_hangs_on_its_paragraph_is_read(tmp_path):
    doc = _doc(tmp_path, [_heading_page])
    got = drag(doc, 0, "Because", "overt")
    assert got == "Because the overt"
    words = [w.text for w in doc.words(0)]
    k = words.index("Plant")
    # From the last word of the paragraph before it to the first word after it.
    before = words[k - 3]
    got = drag(doc, 0, before, "overt")
    assert got.endswith("2. Plant processing Because the overt"), got


def _pull_quote_page(page) -> None:
    y = _para(page, LEFT[0], 100, 20, last_short=False)
    # A line set large in the middle of its space, centred, mid-sentence: a pull quote.
    page.insert_text((LEFT[0] + 30, y + 14), "The plant world", fontsize=16, fontname="hebo")
    _para(page, LEFT[0], y + 34, 20, start=3)
    _para(page, RIGHT[0], 100, 50, start=9)


def test_a_large_line_in_the_middle_of_its_space_is_not_read(tmp_path):
    doc = _doc(tmp_path, [_pull_quote_page])
    words = [w.text for w in doc.words(0)]
    k = words.index("The")
    got = drag(doc, 0, words[k - 2], words[k + 5])
    assert "The plant world" not in got


ABSTRACT = [
    "We investigate the connection between recent results in quantum thermodynamics and",
    "fluctuation relations by adopting a fully quantum mechanical description of it.",
]


def _aps_page(page) -> None:
    y = 100.0
    for line in ABSTRACT:
        page.insert_text((100, y), line, fontsize=9.5, fontname="tiro")
        y += 12
    # The line of small print between the abstract and the text, in two pieces.
    page.insert_text((100, y + 10), "DOI: 10.1103/PhysRevX.6.041017", fontsize=8.5, fontname="tiro")
    page.insert_text((330, y + 10), "Subject Areas: Quantum Physics", fontsize=8.5, fontname="tiro")
    page.insert_text((120, y + 40), "I. INTRODUCTION", fontsize=10.5, fontname="tiro")
    top = y + 58
    for x, start in ((LEFT[0], 0), (RIGHT[0], 7)):
        yy = top
        for n in range(30):
            text = " ".join(WORDS[(start + n * 7 + j) % len(WORDS)] for j in range(7))
            page.insert_text((x, yy), text, fontsize=10.5, fontname="tiro")
            yy += 12.5


def test_small_print_between_an_abstract_and_the_text_is_not_read(tmp_path):
    doc = _doc(tmp_path, [_aps_page])
    got = drag(doc, 0, "fluctuation", "features")
    assert got.startswith("fluctuation relations by adopting")
    assert "I. INTRODUCTION plants respond to salient features" in got
    assert "DOI" not in got and "Subject" not in got


def test_a_drag_that_starts_in_the_small_print_keeps_it(tmp_path):
    doc = _doc(tmp_path, [_aps_page])
    got = drag(doc, 0, "Subject", "features")
    assert got.startswith("Subject Areas: Quantum Physics I. INTRODUCTION")


def _drop_cap_page(page) -> None:
    page.insert_text((LEFT[0] + 60, 90), "I. INTRODUCTION", fontsize=10, fontname="tiro")
    # A 30 pt "T" whose top is level with the first line's, then "O SOLVE ..." beside it.
    page.insert_text((LEFT[0], 132), "T", fontsize=30, fontname="tiro")
    page.insert_text(
        (LEFT[0] + 22, 113), "O SOLVE existential problems such", fontsize=10, fontname="tiro"
    )
    page.insert_text(
        (LEFT[0] + 22, 125), "as avoiding hunger or heat a baby", fontsize=10, fontname="tiro"
    )
    _para(page, LEFT[0], 137, 40, start=2)
    _para(page, RIGHT[0], 80, 45, start=9)


def test_a_drop_cap_is_glued_to_the_rest_of_its_word(tmp_path):
    doc = _doc(tmp_path, [_drop_cap_page])
    assert drag(doc, 0, "INTRODUCTION", "existential") == "INTRODUCTION TO SOLVE existential"
    assert drag(doc, 0, "T", "SOLVE") == "TO SOLVE"


def _flat_line_cap_page(page) -> None:
    # A one-letter word as tall as its line ("a T junction") is no drop cap.
    page.insert_text((LEFT[0], 100), "joined at a", fontsize=10, fontname="tiro")
    page.insert_text((LEFT[0] + 48, 100), "T", fontsize=10, fontname="hebo")
    page.insert_text((LEFT[0] + 56, 100), "junction here", fontsize=10, fontname="tiro")
    _para(page, LEFT[0], 112, 40)
    _para(page, RIGHT[0], 80, 45, start=9)


def test_a_letter_as_tall_as_its_line_is_no_drop_cap(tmp_path):
    doc = _doc(tmp_path, [_flat_line_cap_page])
    assert drag(doc, 0, "a", "junction") == "a T junction"


def _headed(side: str):
    """A page of two columns under a running head at the top left or right, set below
    the top band where heads are found by position alone (found by repetition, then)."""

    def draw(page) -> None:
        x = 60 if side == "left" else 480
        page.insert_text((x, 76), "OPEN ACCESS", fontsize=8.5, fontname="helv")
        _para(page, LEFT[0], 110, 55, last_short=False)
        _para(page, RIGHT[0], 110, 55, start=4)

    return draw


def test_a_running_head_of_a_two_page_file_is_not_read(tmp_path):
    doc = _doc(tmp_path, [_headed("left"), _headed("right")])
    words = doc.words(1)
    body = [w for w in words if w.role == "body"]
    left = [w for w in body if w.rect[0] < 300]
    right = [w for w in body if w.rect[0] > 300]
    a, b = left[-1].index, right[0].index
    got = doc.passage(1, doc.select_between(1, a, b)).quote
    assert "OPEN" not in got and "ACCESS" not in got
    assert {w.role for w in words if w.text == "OPEN"} == {"header"}


def _subheading_page(gap_above: float, gap_below: float):
    """Text, a 10 pt heading, a one-line 8 pt subheading (small capitals come out smaller
    than the 9 pt text), then text: the subheading's spacing is given."""

    def draw(page) -> None:
        y = _para(page, LEFT[0], 100, 20)
        y += gap_above
        page.insert_text((LEFT[0], y), "2 Synchronization model", fontsize=10, fontname="tiro")
        y += 12
        page.insert_text((LEFT[0], y), "2.1 Introduction to the model", fontsize=8, fontname="tiro")
        y += gap_below
        page.insert_text((LEFT[0], y), "Like Winfree before him", fontsize=SIZE, fontname="tiro")
        _para(page, LEFT[0], y + LEAD, 10, start=5)
        _para(page, RIGHT[0], 100, 50, start=9)

    return draw


def test_a_smaller_subheading_that_hangs_on_its_paragraph_is_read(tmp_path):
    doc = _doc(tmp_path, [_subheading_page(gap_above=24, gap_below=11)])
    words = [w.text for w in doc.words(0)]
    before = words[words.index("Synchronization") - 2]
    got = drag(doc, 0, before, "Winfree")
    assert got.endswith("2 Synchronization model 2.1 Introduction to the model Like Winfree"), got


def test_a_smaller_line_set_apart_from_the_text_below_is_not_read(tmp_path):
    # Close under the heading but far above the text: not a subheading of that text.
    doc = _doc(tmp_path, [_subheading_page(gap_above=24, gap_below=40)])
    words = [w.text for w in doc.words(0)]
    before = words[words.index("Synchronization") - 2]
    assert "2.1 Introduction" not in drag(doc, 0, before, "Winfree")


def _justified(page, x0: float, x1: float, y: float, text: str, size: float, font: str) -> None:
    """One line set flush at both edges, as IEEE sets its columns."""
    words = text.split()
    widths = [pymupdf.get_text_length(w, fontname=font, fontsize=size) for w in words]
    gap = (x1 - x0 - sum(widths)) / (len(words) - 1)
    for w, width in zip(words, widths, strict=True):
        page.insert_text((x0, y), w, fontsize=size, fontname=font)
        x0 += width + gap


def _ieee_invited_page(page) -> None:
    """IEEE's invited-paper opening: the abstract's first line set in its own font level with
    the other column's first heading, a line's spacing above the rest of each column."""
    page.insert_text((52, 120), "Cognitive Dynamics From Attractors", fontsize=24, fontname="tibo")
    first = "ABSTRACT This paper combines recent formulations of self-"
    _justified(page, 52, 283, 302, first, 8, "hebo")
    page.insert_text((295, 302), "I. INTRODUCTION", fontsize=11, fontname="tiro")
    rest = ["organization and neuronal processing to provide an account of"]
    rest += [" ".join(WORDS[k : k + 9]) for k in range(0, 27, 3)] * 3
    y = 313.0
    for line in rest:
        _justified(page, 52, 283, y, line, 8, "tiro")
        y += 10
    epigraph = "How can the events in space and time"
    page.insert_text((317, 322), epigraph, fontsize=10, fontname="tiit")
    _para(page, 295, 380, 35, start=3)


def test_a_column_s_first_line_level_with_the_other_s_heading_is_no_title_band(tmp_path):
    doc = _doc(tmp_path, [_ieee_invited_page])
    words = [w.text for w in doc.words(0)]
    k = words.index("self-")
    assert words[k + 1] == "organization"
    assert "INTRODUCTION" not in drag(doc, 0, "self-", "processing")


def _manuscript_page(head: str, x: float):
    """One column at x = 150 with a 10 pt bold line at ``x`` (Europe PMC sets its headings
    out into the margin), between two paragraphs."""

    def draw(page) -> None:
        y = _para(page, 150, 100, 12)
        page.insert_text((x, y + 14), head, fontsize=10, fontname="hebo")
        first = "Hippocampal place cells recorded"
        page.insert_text((150, y + 28), first, fontsize=SIZE, fontname="tiro")
        _para(page, 150, y + 28 + LEAD, 30, start=7)

    return draw


def test_a_heading_set_out_into_the_margin_is_read(tmp_path):
    doc = _doc(tmp_path, [_manuscript_page("The dual-oscillator interference model", 90)])
    words = [w.text for w in doc.words(0)]
    k = words.index("Hippocampal")
    got = doc.passage(0, doc.select_between(0, k - 6, k)).quote
    assert got.endswith("The dual-oscillator interference model Hippocampal"), got


def test_a_note_wholly_in_the_margin_is_no_heading(tmp_path):
    # It does not reach into the column: a margin note, left out of a drag across it.
    doc = _doc(tmp_path, [_manuscript_page("Key idea", 60)])
    words = doc.words(0)
    k = next(w.index for w in words if w.text == "Hippocampal")
    last = max(w.index for w in words if w.text != "Hippocampal" and w.rect[1] < words[k].rect[1])
    got = doc.passage(0, doc.select_between(0, last - 1, k)).quote
    assert "Key idea" not in got, got
