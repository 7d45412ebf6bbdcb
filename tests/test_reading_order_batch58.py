"""Rules found on batches 58 to 61 (papers, posters, CJK papers, books; first measured at
d2044a4: 20/23, 15/23, 16/21 and 18/22).

A drag keeps the text set like its two ends (see :func:`keep_running_text`), and two kinds of
words set otherwise belong to the sentence all the same:

- PNAS sets a paragraph's run-in heading ("Appendices.") in a smaller sans face on the line
  of the text it opens. A run of words set otherwise, on one line, with a word of two
  letters or more, that the kept text goes on from on that line a word space or so away, is
  read. A line number (no letters) and a word far along the line (a table's cell beside
  the text) are not.
- A Chinese heading "2 相关工作" sets its number in Times and its title in Hei: two blocks
  on one line, the number without letters. A heading's number on the title's line is read;
  an icon's glyph ("M" in an icon font, before "Yeaaaah!") is no number.

Measured over every case written so far (1015 cases): 2 more read, none fewer.

Korean (batch 64): a heading's block of two short lines was measured by its own right edge,
so its longer line was "full" and a word broken there ran into the paragraph under it; a
particle after a bracket at a broken line's end ("(1~4)" / "에") is one word. Over 1108
cases: 1 more read, none fewer.

Korean captions (batch 64): "[표 4] …" is set centred over its table, a line's spacing under
the paragraph before, and groups with it; "[그림 3] epoch별 …" opens in lower case; and a
Korean column's lines hold about thirty characters, each as wide as two Latin ones, so the
paragraph under a caption did not measure as one and was read as caption. Over 1153 cases:
4 more read, none fewer; scan of 514 pages: 1 changes (a Japanese appliance manual's framed
paragraphs, read as text now).

PVLDB (batch 69) sets a first-page note in the text's size under a short rule, grouped with
the paragraph above: a rule at the block's left edge, clear of the lines on both sides,
splits the note off. Over 1196 cases: 1 more read, none fewer; scan: 0 change.

A newspaper (batch 71) was read in file order, every block a float: its masthead's one line
counted 55 characters at 60 pt and outvoted the text's size. A block counts at most twice
its box's area. Over 1239 cases: 1 more read, none fewer; scan: 0 change.

biblatex's manual (batch 73) hangs each term in the margin, right-aligned on its
definition's first line: a one-line block of at most three words, in the margin (no line of
more words reaches across it), with others sharing its right edge, ending within two sizes
of a line it stands level with, opens that line. Over 1281 cases: 3 more read, none fewer;
scan: 0 change. RSC (batch 62) hangs its references' numbers so: a list's number, set in its
line's size, hung on an entry's first line (not on line after line, as line numbers are),
where no longer line reaches across it within three sizes, opens it too. Over 1456 cases: 1
more read, none fewer; scan: 15 pages change, all reference lists (and a form's numbered
lines) now read number by entry.

A Korean paper exported from Hwp (batch 76) draws its word spaces as gaps of 0.68 em, with
no space characters: PyMuPDF gives one word a line. A Hangul word, or any word of twenty
characters or more, is cut where its glyphs stand 0.3 of their size apart. Over 1367 cases:
1 more read, none fewer; scan: 2 pages change (math italic letters a font maps into the
Hangul block, split at the gaps around "=").
"""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf
import pytest
from conftest import drag
from pagedraw import one_page

from basehalf_core.documents.captions import CAPTION_LABEL
from basehalf_core.documents.pages import Word, _column_right
from basehalf_core.documents.selection import keep_running_text
from basehalf_core.documents.text import join_words
from basehalf_core.documents.text_blocks import Block, text_size

TEXT = "Times@10.0"


def _w(k: int, text: str, style: str, block: int, x0: float, y0: float, width: float = 30):
    size = float(style.split("@")[1])
    return Word(k, text, (x0, y0, x0 + width, y0 + size), (0, 0, 0.1, 0.1), block, 0, style=style)


def _paragraph(between: list[tuple[str, str, float, float]]) -> list[Word]:
    """The end of one paragraph ("only."), what ``between`` gives (text, style, x, y), and
    the text it opens on the next line ("prefers ... authors")."""
    words = [_w(0, "only.", TEXT, 0, 60, 100)]
    for text, style, x, y in between:
        words.append(_w(len(words), text, style, 1, x, y))
    words.append(_w(len(words), "prefers", TEXT, 2, 130, 112))
    words.append(_w(len(words), "authors", TEXT, 2, 165, 112))
    return words


@pytest.mark.parametrize(
    ("between", "read"),
    [
        ([("Appendices.", "NimbusSans@7.5", 60, 113), ("PNAS", "NimbusSans@7.5", 95, 113)], True),
        ([("Proof.", "Times-Bold@10.0", 90, 112)], True),
        ([("12", "Times@7.0", 92, 113)], False),  # a line number: no letters
        ([("Setting", "Helvetica@8.0", 30, 112)], False),  # beside, not on the text's way
        ([("Figure", "Helvetica@8.0", 60, 160)], False),  # under the line, not on it
        ([("Run", "Sans@8.0", 60, 113), ("on", "Sans@8.0", 60, 140)], False),  # two lines
    ],
    ids=["run-in-heading", "bold-lead-in", "line-number", "far-off", "other-line", "two-lines"],
)
def test_words_set_otherwise_on_the_texts_line_are_read_when_they_open_it(between, read):
    words = _paragraph(between)
    kept = keep_running_text(words, list(range(len(words))))
    assert kept == (list(range(len(words))) if read else [0, len(words) - 2, len(words) - 1])


def test_a_headings_number_in_a_font_of_its_own_is_read():
    words = [
        _w(0, "部", "SimSun@10.0", 0, 60, 100, 10),
        _w(1, "2", "TimesNewRoman@14.5", 1, 60, 120, 8),
        *(_w(k, ch, "SimHei@14.5", 2, 45 + 15 * k, 120, 14) for k, ch in enumerate("相关", 2)),
        _w(4, "这", "SimSun@10.0", 3, 60, 140, 10),
    ]
    assert keep_running_text(words, list(range(5))) == list(range(5))


def test_an_icons_glyph_before_a_heading_is_no_number():
    words = [
        _w(0, "massa.", "FiraSans@10.0", 0, 60, 100),
        _w(1, "M", "FontAwesome@11.5", 1, 75, 128, 11),
        _w(2, "Yeaaaah!", "FiraSans@12.0", 2, 97, 128, 48),
        _w(3, "Quisque", "FiraSans@10.0", 3, 60, 150),
    ]
    assert keep_running_text(words, list(range(4))) == [0, 2, 3]


# Korean (batch 64, KCC 2024 from Hwp): a heading's two lines, and a particle after a bracket.


def _line_block(x0: float, x1: float, lines: int = 1) -> SimpleNamespace:
    """A block as the page's words are built from: its box and its block's measures."""
    block = SimpleNamespace(lines=lines, size=9.0, direction=(1.0, 0.0))
    return SimpleNamespace(box=(x0, 0.0, x1, 10.0), block=block)


def test_a_two_line_headings_longer_line_is_not_full():
    """ "2. 데이터셋 구축" over "2.1 데이터 출처" is one block of two short lines; measured by
    its own right edge its longer line was full, so a word broken there ran into the
    paragraph under it ("출처난독화된"). A block under three lines is measured by its column."""
    column = [_line_block(56.0, 287.0, lines=12) for _ in range(3)]
    heading = _line_block(56.0, 130.0, lines=2)
    assert _column_right(heading, [*column, heading]) == 287.0
    assert _column_right(column[0], [*column, heading]) == 287.0


def _hangul(k: int, text: str, line: int, broken: bool = False) -> Word:
    return Word(k, text, (0, 0, 1, 1), (0, 0, 0.1, 0.1), 0, line, broken=broken)


@pytest.mark.parametrize(
    ("first", "then", "want"),
    [
        ("(1~4)", "에", "(1~4)에"),  # a particle after a bracket
        ("데이터", "를", "데이터를"),
        ("1.17.3", "시각화:", "1.17.3 시각화:"),  # a list's next item after a version number
        ("BLEU", "점수를", "BLEU 점수를"),
    ],
)
def test_a_korean_word_broken_at_a_line_end_after_a_bracket_is_joined(first, then, want):
    words = [_hangul(0, first, 0, broken=True), _hangul(1, then, 1)]
    assert join_words(words, None) == want


# A Korean paper's captions in the text's font and size, grouped with its paragraphs.
HANGUL_WORDS = "모델의 사이즈가 클수록 작을수록 좋은 성능을 보이는 것을 확인할 수 있다".split()  # noqa: SIM905
KX0, KX1 = 60.0, 300.0


def _korean_paragraph(page, y: float, lines: int, last: str) -> float:
    """``lines`` lines of Hangul words in 9 pt, then ``last`` short; returns the baseline
    under it."""
    for k in range(lines):
        words = [HANGUL_WORDS[(k + j) % len(HANGUL_WORDS)] for j in range(7)]
        page.insert_text((KX0, y), " ".join(words), fontsize=9, fontname="korea")
        y += 14
    page.insert_text((KX0, y), last, fontsize=9, fontname="korea")
    return y + 14


def _centred(page, y: float, text: str) -> None:
    page.insert_text((KX0 + 40, y), text, fontsize=9, fontname="korea")


def _caption_over_a_table(page) -> None:
    y = _korean_paragraph(page, 100, 5, "율이 높음을 확인할 수 있다.")
    _centred(page, y, "[표 4] 모델의 크기에 따른 점수.")
    top = y + 6
    for k in range(4):
        page.draw_line((KX0, top + 16 * k), (KX1, top + 16 * k), width=0.6)
        if k < 3:
            for c, cell in enumerate(("small", "62.7", "51.5")):
                page.insert_text((KX0 + 10 + 90 * c, top + 12 + 16 * k), cell, fontsize=8)
    _korean_paragraph(page, top + 80, 5, "그 다음 문단이 이어진다.")


def _caption_under_a_figure(page) -> None:
    page.draw_rect((80, 90, 280, 200), color=(0, 0, 0), fill=(0.7, 0.8, 0.9), width=1)
    _centred(page, 214, "[그림 3] epoch별 성능 비교.")
    _korean_paragraph(page, 228, 5, "그 다음 문단이 이어진다.")


def test_a_korean_caption_over_its_table_is_split_off_the_paragraph_above(tmp_path):
    """ "[표 4] …" sits a line's spacing under the paragraph before it, centred, over a ruled
    table: it groups with that paragraph, and a drag into the next one read it
    (``captions._caption_over``)."""
    doc = one_page(tmp_path, _caption_over_a_table)
    got = drag(doc, 0, "율이", "이어진다.")
    assert got.startswith("율이 높음을 확인할 수 있다. 모델의"), got
    assert "[표" not in got and "62.7" not in got


def test_a_korean_paragraph_under_a_caption_is_a_paragraph(tmp_path):
    """A Korean column's lines hold about thirty characters, each as wide as two Latin
    ones: under a figure's caption they are a paragraph, not more caption."""
    doc = one_page(tmp_path, _caption_under_a_figure)
    roles = {w.text: w.role for w in doc.words(0)}
    assert roles["[그림"] == "float"
    assert roles["이어진다."] == "body"


@pytest.mark.parametrize(
    ("line", "caption"),
    [
        ("[그림 3] epoch별 성능 비교.", True),  # a Korean title may open in lower case
        ("[표 4] 모델의 크기", True),
        ("[Table 2] gives the sizes", False),
    ],
)
def test_a_bracketed_cjk_label_opens_a_caption(line, caption):
    assert bool(CAPTION_LABEL.match(line)) is caption


def _note_fused_with_the_text(page) -> None:
    """PVLDB: the left column's last paragraph, a short rule a few points under it, and a
    note in the text's size right under the rule; the right column's text."""
    words = "systems often eschew protocols guaranteeing consistency of reads".split()  # noqa: SIM905
    y = 100.0
    for k in range(40):
        line = " ".join(words[(k + j) % len(words)] for j in range(6))
        page.insert_text((60, y), line, fontsize=9, fontname="tiro")
        y += 12
    page.insert_text((60, y), "and instead opt for eventually", fontsize=9, fontname="tiro")
    page.draw_line((60, y + 4.5), (150, y + 4.5), color=(0, 0, 0), width=0.4)
    for k, note in enumerate(["1This replica consistency differs from", "the transactional kind."]):
        page.insert_text((60, y + 15 + 12 * k), note, fontsize=9, fontname="tiro")
    for k in range(40):
        line = " ".join(words[(k + j + 3) % len(words)] for j in range(6))
        line = ("consistent protocols " if k == 0 else "") + line
        page.insert_text((320, 100 + 12 * k), line, fontsize=9, fontname="tiro")


def test_a_note_grouped_with_the_paragraph_above_its_rule_is_left_out(tmp_path):
    """A short rule at a block's left edge between two of its lines splits the note under it
    off the paragraph (``rule_splits.split_at_rule``)."""
    doc = one_page(tmp_path, _note_fused_with_the_text)
    assert drag(doc, 0, "instead", "protocols") == (
        "instead opt for eventually consistent protocols"
    )


def _block(id_, bbox, size: float, chars: int, lines: int) -> Block:
    return Block(id_, bbox, (1.0, 0.0), size, chars, lines)


def test_a_mastheads_one_line_does_not_outvote_the_text():
    """The Procrastinator's masthead is one line: "PROCRASTINATOR" in 60 pt, then its motto
    in 16 pt, 55 characters the line takes as 60 pt; counted at most twice its box's area,
    the newspaper's 10 pt columns cover the page (batch 71)."""
    masthead = _block(7, (36.0, 412.0, 568.0, 495.0), 60.0, 55, 1)
    columns = [
        _block(k, (x, 554.0, x + 172.0, 554.0 + 12.0 * lines), 10.0, 36 * lines, lines)
        for k, (x, lines) in enumerate([(36, 7), (220, 17), (404, 3), (404, 12), (36, 9)])
    ]
    assert text_size([masthead, *columns]) == 10.0


GLOSSARY = [
    ("indextitle", "field (literal)", "A title to use for indexing if the latter is undefined."),
    ("institution", "list (literal)", "The name of a university or some other institution."),
    ("isbn", "field (literal)", "The International Standard Book Number of a book."),
]


def _glossary(page) -> None:
    """biblatex's manual: each term in the margin in 10 pt sans, right-aligned at 103 pt on
    the first line of its definition, set in 11 pt serif from 113 pt."""
    tops = [100.0 + 70 * n for n in range(len(GLOSSARY))]
    for y, (_term, kind, text) in zip(tops, GLOSSARY, strict=True):
        page.insert_text((113, y), kind, fontsize=11, fontname="tiro")
        for k in range(3):
            page.insert_text((113, y + 14 * (k + 1)), text, fontsize=11, fontname="tiro")
    # Written after the text, as a margin paragraph is: each term a block of its own.
    for y, (term, _kind, _text) in zip(tops, GLOSSARY, strict=True):
        width = pymupdf.get_text_length(term, fontsize=10, fontname="helv")
        page.insert_text((103 - width, y), term, fontsize=10, fontname="helv")


def test_a_term_hung_in_the_margin_opens_its_definition(tmp_path):
    """The terms group apart from their definitions and were read after all of them
    (``hanging.hanging_labels``)."""
    doc = one_page(tmp_path, _glossary)
    words = [w.text for w in doc.words(0)]
    assert words.index("institution") == words.index("list") - 1
    got = drag(doc, 0, "undefined.", "name")
    assert got.endswith("latter is undefined. institution list (literal) The name"), got


@pytest.mark.parametrize(
    ("words", "font", "gap"),
    [
        (["기계학습", "기반", "상권", "매출"], "korea", 6.8),  # Hwp's word spaces, 0.68 em
        (["Pellentesque", "tincidunt", "purus", "vel", "magna."], "tiro", 3.5),
    ],
    ids=["hangul", "latin"],
)
def test_words_drawn_apart_without_space_characters_are_words(tmp_path, words, font, gap):
    """A writer that draws word spaces as gaps gives PyMuPDF one word a line: Hwp's Korean
    (batch 76) is split at its gaps (``glued.split_at_gaps``). MuPDF itself puts a space
    into a Latin line at such a gap; the rule must not split or join those words."""

    def draw(page) -> None:
        x = 60.0
        for word in words:
            page.insert_text((x, 100), word, fontsize=10, fontname=font)
            x += pymupdf.get_text_length(word, fontsize=10, fontname=font) + gap

    doc = one_page(tmp_path, draw)
    assert [w.text for w in doc.words(0)] == words


ENTRY = "A. Author, B. Author and C. Author, A Journal of Examples, 2009, 12, 345 to 367"


def _references(page, numbers_on_every_line: bool) -> None:
    """RSC's references: each entry's number hung left of its first line, in the text's
    size, written after the entries (a block of its own each). With
    ``numbers_on_every_line``, a number stands on every line instead: line numbers. The
    left column's text runs from the top of the page to its foot."""
    left = "The left column's running text goes on here."
    for k in range(50):
        page.insert_text((60, 60 + 14 * k), left, fontsize=9)
    page.insert_text((315, 80), "Notes and references", fontsize=12, fontname="hebo")
    y = 100.0
    for n in range(1, 5):
        first = y
        for line in (ENTRY, "and the pages that follow."):
            page.insert_text((325, y), line, fontsize=9)
            y += 11
        y += 3
        if not numbers_on_every_line:
            page.insert_text((315, first), str(n), fontsize=9)
    under = "A paragraph of the right column under them."
    for k in range(10):
        page.insert_text((315, 260 + 11 * k), under, fontsize=9)
    if numbers_on_every_line:
        for k in range(int((y - 100) // 11)):
            page.insert_text((315, 100 + 11 * k), str(k + 1), fontsize=9)


def test_a_references_numbers_open_their_entries(tmp_path):
    """The numbers grouped apart and were read as a column before all entries ("1 2 3 4
    A. Author …"); a number hung on an entry's first line opens it (batch 62's RSC)."""
    doc = one_page(tmp_path, lambda page: _references(page, False))
    words = [w.text for w in doc.words(0)]
    first = words.index("1")
    assert words[first : first + 3] == ["1", "A.", "Author,"], words[first : first + 6]
    assert [words[k + 1] for k, w in enumerate(words) if w == "follow."][:3] == ["2", "3", "4"]


def test_numbers_on_line_after_line_are_not_hung(tmp_path):
    """Line numbers stand on consecutive lines: they are not put into the text."""
    doc = one_page(tmp_path, lambda page: _references(page, True))
    words = [w.text for w in doc.words(0)]
    assert words[words.index("A.") - 1] != "1"
