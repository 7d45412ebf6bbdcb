"""Rules found on batch 48 (Korean, Chinese and Japanese papers; first measured 20/24).

- A Korean paper made in Word sets its text double-spaced: each line is a block of its own,
  9 points under the last. The columns' last lines reach into the page's foot band, set off
  from the line above by more than half a line, and were taken for running footers: a drag
  across the column break lost them. A line at the foot that follows its column's last
  three one-line blocks at their own spacing (each gap within 0.8 to 1.25 of its own) is the
  column's next line. Scan of 514 pages: 0 change.
- The same paper breaks its lines inside words ("추출했" / "다."), and keeps the space a line
  ends with where it breaks between words. A line's end with no space was taken for a
  break inside a word only in a block of two lines or more; a one-line block's full line
  reaches the right edge where three or more blocks starting at its left edge end (two
  headings at one indent, KIIT's, end anywhere: batch 54).
- JSAI sets the corresponding author's address in the text's size at the left column's
  foot, 49 points under the column's last line, the right column running on level with it:
  it was read as the column's last line. A line of prose (20 characters or more, not code)
  at least three text sizes under its column's text, nothing between, is a note. Scan: 0
  change.
- JSMS (batch 51) opens lines of its Japanese text with a number in Times ("(13 ﾎﾟｲﾝﾄ)，");
  a line takes its first word's style, and a line opening in another font goes on its
  paragraph only with two words of its paragraph's style: CJK, written without spaces, had
  none. Three CJK characters count as a word. Scan: 4 pages change (CJC's numbered list
  items and AAS's lines read in their paragraphs' style).
- KIIT numbers a subsection "2-1" and sets its heading in the text's size a line over a
  figure: it was taken for the figure's title line (read like a caption). A numbered
  heading ("2-1", "Ⅱ-1." now count as section numbers) is no title. Scan: 0 change.

The pages here are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

from types import SimpleNamespace

import pymupdf
from conftest import drag
from pagedraw import one_page

from basehalf_core.documents.pages import _column_right

SIZE, PITCH = 8.5, 22.0
LEFT, RIGHT = 42.6, 308.3


def _double_spaced(page) -> None:
    """Two columns of double-spaced lines down to the foot of an A4 page (842 points), the
    last line of each under 90 % of the page's height; each line's words are its column's
    and line's ("l3w1" is the left column's fourth line's second word)."""
    for side, x in (("l", LEFT), ("r", RIGHT)):
        for n in range(13):
            line = " ".join(f"{side}{n}w{j}" for j in range(6))
            page.insert_text((x, 508 + n * PITCH), line, fontsize=SIZE)


def test_a_double_spaced_columns_last_line_is_no_footer(tmp_path):
    doc = one_page(tmp_path, _double_spaced)
    words = doc.words(0)
    assert next(w for w in words if w.text == "l12w0").rect[1] > 0.9 * 842
    assert [w.text for w in words if w.role != "body"] == []
    got = drag(doc, 0, "l11w5", "r0w0")
    assert got == "l11w5 l12w0 l12w1 l12w2 l12w3 l12w4 l12w5 r0w0", got


# A Korean paragraph broken into lines as Word breaks it: between words (the line keeps the
# space it ends with) and, on the second line, inside the word "추출했다".
KOREAN = [
    "게임 리뷰를 분석하여 긍정적 평가에 기여한 ",
    "핵심 단어들을 지도학습으로 모두 새로 추출했",
    "다. 이러한 접근 방식은 게임 개발 마케팅 ",
    "전략을 수립하는 데에 중요한 통찰을 준다.",
]


def _korean(page) -> None:
    """The lines above, double-spaced: each line a block of its own."""
    for n, line in enumerate(KOREAN):
        page.insert_text((LEFT, 100 + n * 26), line, fontsize=10, fontname="korea")


def test_a_korean_word_broken_at_a_one_line_blocks_end_is_joined(tmp_path):
    doc = one_page(tmp_path, _korean)
    assert drag(doc, 0, "새로", "이러한") == "새로 추출했다. 이러한"


def _numbered_heading_over_a_figure(page) -> None:
    """A subsection's numbered heading ("2-1", as Korean papers number them) set in the
    text's size a line over a drawing, its caption under it, the text after."""
    page.insert_text((60, 100), "2-1 Process design", fontsize=9.5, fontname="hebo")
    page.draw_rect((60, 106, 250, 260), color=(0, 0, 0), fill=(0.8, 0.8, 0.9), width=0.8)
    page.insert_text((60, 275), "Figure 1. The structure of the voting system", fontsize=8.5)
    for k in range(6):
        page.insert_text((60, 300 + 12 * k), "the user signs in and then votes once", fontsize=9.5)


def test_a_numbered_heading_over_a_figure_is_no_title_of_it(tmp_path):
    doc = one_page(tmp_path, _numbered_heading_over_a_figure)
    roles = {w.text: w.role for w in doc.words(0)}
    assert roles["Process"] == "body"
    assert roles["structure"] == "float"


def _contact_at_the_foot(page) -> None:
    """JSAI's first page: the left column's text stops 49 points over the corresponding
    author's address, set in the text's size at the column's foot; the right column runs
    down level with the address."""
    for n in range(47):
        y = 150 + n * 13.5
        if y < 720:
            page.insert_text((LEFT, y), f"left {n} runs on", fontsize=SIZE)
        page.insert_text((RIGHT, y), f"rightside {n} goes on", fontsize=SIZE)
    page.insert_text((LEFT, 720), "ending the column.", fontsize=SIZE)
    contact = "Contact: Kazuhiko Kawamoto, kawa@faculty.chiba-u.jp"
    page.insert_text((LEFT, 771), contact, fontsize=SIZE)


def test_a_contact_note_far_under_its_column_is_left_out(tmp_path):
    doc = one_page(tmp_path, _contact_at_the_foot)
    assert drag(doc, 0, "column.", "rightside") == "column. rightside"
    roles = {w.text: w.role for w in doc.words(0)}
    assert roles["Contact:"] != "body"


JAPANESE = [
    ("", "次の事項を番号順に必ず記載する．和文題名と"),
    ("(13", "ポイント）英文著者名を書く，英文要旨の"),
    ("(6)", "和文要旨と英文の要旨を記載したうえで"),
    ("(7)", "会員種別と所属を記載したうえでその下の"),
    ("", "本文との間に線を入れる．"),
]


def _japanese_with_lines_opening_in_times(page) -> None:
    """A Japanese paragraph (JSMS): three of its lines open with a number in Times,
    the rest of each line in the paragraph's own font; the other column holds most of the
    page's text, in that font."""
    for n, (latin, rest) in enumerate(JAPANESE):
        y = 120.0 + 14 * n
        x = LEFT
        if latin:
            page.insert_text((x, y), latin, fontsize=SIZE, fontname="tiro")
            x += pymupdf.get_text_length(latin + " ", fontname="tiro", fontsize=SIZE)
        page.insert_text((x, y), rest, fontsize=SIZE, fontname="japan")
    for n in range(20):  # the other column: most of the page's text, in that font
        page.insert_text(
            (RIGHT, 120.0 + 14 * n),
            "原稿は所定の書式に従って作成する．",
            fontsize=SIZE,
            fontname="japan",
        )


def test_japanese_lines_opening_in_latin_type_stay_in_their_paragraph(tmp_path):
    doc = one_page(tmp_path, _japanese_with_lines_opening_in_times)
    got = drag(doc, 0, "と", "線").replace(" ", "")
    want = (
        "と(13ポイント）英文著者名を書く，英文要旨の(6)和文要旨と英文の要旨を記載したうえで"
        "(7)会員種別と所属を記載したうえでその下の本文との間に線"
    )
    assert got == want, got


def _line_block(x0: float, x1: float, lines: int = 1) -> SimpleNamespace:
    """A block as the page's words are built from: its box and its block's measures."""
    block = SimpleNamespace(lines=lines, size=9.5, direction=(1.0, 0.0))
    return SimpleNamespace(box=(x0, 0.0, x1, 10.0), block=block)


def test_a_one_line_blocks_full_line_reaches_its_columns_edge():
    """A double-spaced column's lines (one block each) end at its edge, 287; two headings at
    one indent (KIIT's "2.1 …" and "2.2 분석 환경 및 도구") end anywhere, and have no full
    line to measure by: a heading ending without a space breaks no word."""
    column = [_line_block(42.6, 287.2) for _ in range(4)]
    heads = [_line_block(66.5, 160.0), _line_block(66.5, 153.6)]
    assert _column_right(column[0], column + heads) == 287.2
    assert _column_right(heads[1], column + heads) == float("inf")
    assert _column_right(_line_block(42.6, 200.0, lines=3), column) == 200.0
