"""Rules found on batch 24 (unseen pages, first measured 16/22), and one from batch 22.

- A table ruled only across (booktabs' top, middle and bottom rules, as ACM's and many
  other LaTeX classes set their tables) has no frame and no vertical rule; each rule is too
  thin to make a figure, so its cells were read as running text, and a drag from the foot
  of one column to text under a table at the top of the next read the whole table. Three or
  more rules of one width, one under the other, the first two close (a head row between
  them), bound a table; its caption above is read as a caption. A double rule counts once,
  and a rule far above the table (under a running head) starts none. On the side-effect
  scan (391 pages, --styles) 27 pages change, all of them tables and their captions.
- A Chinese or Japanese heading's number set an em before its title ("4  结论", "1.1.2
  表について") came out as a piece of its own, and pieces joined without a space wherever
  one side is CJK (a line broken inside CJK text). A digit or Latin piece and a CJK piece
  standing level with a gap between now join with a space; two CJK pieces never do (a
  letter-spaced running head). Joining every page of the pool both ways: 18 of 391 pages
  change, all of them heading numbers, a reference's "[3] 王军", "TK423 文献标志码".
- A sub-figure's tag in parentheses under its panel ("(b)"), set in the text's own font, was
  read into a drag past the figure; a panel's letter was taken for a figure's only when set
  in another style. A lone "(a)", "(b)", "(iv)" beside a figure is the figure's, in any
  style (scan: 3 of 391 pages change, all such tags).
- Batch 22's miss: Tufte's handout sets "n = 1" ... "n = 5" in the text's own font over five
  drawings side by side. Two or more such short labels on one baseline, each centred right
  over (or under) a drawing of its own, are the drawings' (scan: 3 of 391 pages change, all
  labels of drawings; a label alone, "0 ∼ 1," or a paragraph's last "体 *" by a figure, is
  still read).

The pages are made with PyMuPDF in tmp_path.
"""

from __future__ import annotations

from conftest import drag
from pagedraw import one_page, write_lines

VOCABULARY = (
    "authors may use the keywords to describe their work and the reviewers read them as the "
    "first hint of what the paper holds before they read the abstract"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 9.0, 11.0
LEFT, RIGHT, WIDTH = 54, 318, 240


def _text(page, x: float, y: float, lines: int, start: int = 0) -> float:
    return write_lines(page, x, y, [8] * lines, WORDS, size=SIZE, lead=LEAD, start=start)


def _line(page, x: float, y: float, text: str, size: float = SIZE) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="tiro")


def _rule(page, y: float, width: float = 0.5) -> None:
    page.draw_line((RIGHT, y), (RIGHT + WIDTH, y), width=width)


def _table(page, y: float, head_gap: float = 17.0) -> float:
    """A caption, then a table of three columns and four rows under three rules (the first
    two ``head_gap`` apart), at the top of the right column; the baseline under it."""
    _line(page, RIGHT + 40, y, "Table 1. Frequency of Special Characters", 8)
    top = y + 12
    _rule(page, top, 0.8)
    _line(page, RIGHT + 4, top + 11, "Symbol        Frequency        Comments", 8)
    mid = top + head_gap
    _rule(page, mid)
    for k, row in enumerate(
        (
            "Ø    1 in 1,000    For Swedish names",
            "π    1 in 5    Common in math",
            "$    4 in 5    Used in business",
            "Ψ    1 in 40,000    Unexplained usage",
        )
    ):
        # Cells in the text's own size: only the rules tell them from running text.
        _line(page, RIGHT + 4, mid + 11 + 11 * k, row)
    bottom = mid + 50
    _rule(page, bottom, 0.8)
    return bottom + 24


def _page(head_gap: float = 17.0):
    def draw(page) -> None:
        _line(page, LEFT, 40, "The Name of the Title Is Hope", 7)
        _line(page, RIGHT + 90, 40, "Conference acronym, June 2018", 7)
        y = _text(page, LEFT, 70, 50)
        _line(page, LEFT, y, "comma-separated list of keywords for the source.")
        y = _table(page, 70, head_gap)
        _line(page, RIGHT, y, "User-defined keywords are a comma-separated list of words")
        _text(page, RIGHT, y + LEAD, 30, start=3)

    return draw


def test_a_drag_past_a_table_ruled_only_across_leaves_it_and_its_caption_out(tmp_path):
    doc = one_page(tmp_path, _page())
    got = drag(doc, 0, "source.", "User-defined")
    assert got == "source. User-defined", got


def test_the_cells_and_caption_of_a_ruled_table_are_a_float(tmp_path):
    roles = {w.text: w.role for w in one_page(tmp_path, _page()).words(0)}
    assert roles["Swedish"] == roles["Comments"] == roles["business"] == "float"
    assert roles["User-defined"] == "body"


def test_three_rules_far_apart_at_the_top_are_no_table(tmp_path):
    # Six ems between the first two rules: no head row between them, so no table.
    roles = {w.text: w.role for w in one_page(tmp_path, _page(head_gap=60.0)).words(0)}
    assert roles["Swedish"] != "float"


def _chinese(page) -> None:
    """A Chinese paragraph ending "测量结果。", a heading "4" and, an em on, "结论" on one
    baseline, the text going on under it; above all, a running head letter-spaced."""
    for k, ch in enumerate("西安交通大学学报"):
        page.insert_text((200 + 16 * k, 40), ch, fontsize=10.5, fontname="china-s")
    page.insert_text((60, 100), "喷雾锥角的测量结果。", fontsize=10.5, fontname="china-s")
    page.insert_text((60, 130), "4", fontsize=10.5, fontname="hebo")  # a Latin bold number
    page.insert_text((81, 130), "结论", fontsize=10.5, fontname="china-s")
    page.insert_text(
        (60, 155), "本文采用可视化试验方法研究了喷嘴。", fontsize=10.5, fontname="china-s"
    )


def test_a_heading_number_an_em_before_its_chinese_title_reads_with_a_space(tmp_path):
    doc = one_page(tmp_path, _chinese)
    assert drag(doc, 0, "果", "文") == "果。4 结论本文"


def test_letter_spaced_chinese_reads_without_spaces(tmp_path):
    doc = one_page(tmp_path, _chinese)
    assert drag(doc, 0, "西", "报") == "西安交通大学学报"


def _sub_figure(page) -> None:
    """A left column ending "... for the source."; atop the right column a drawing (a
    sub-figure), its tag "(b)" under it in the text's own font, then the text goes on."""
    y = _text(page, LEFT, 70, 50)
    _line(page, LEFT, y, "comma-separated list of keywords for the source.")
    page.draw_rect((RIGHT + 20, 70, RIGHT + 200, 170), width=0.8)
    page.draw_line((RIGHT + 20, 170), (RIGHT + 200, 70), width=0.8)
    _line(page, RIGHT + 104, 185, "(b)")
    _line(page, RIGHT, 214, "User-defined keywords are a comma-separated list of words")
    _text(page, RIGHT, 214 + LEAD, 40, start=3)


def test_a_sub_figure_tag_in_the_text_font_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _sub_figure)
    assert drag(doc, 0, "source.", "User-defined") == "source. User-defined"


def _labelled_drawings(labels: int):
    """A paragraph ending "figure environment."; under it ``labels`` small drawings side by
    side, each with a label "n = k" in the text's own font centred right over it; then the
    text goes on with "Table 1 shows"."""

    def draw(page) -> None:
        _line(page, LEFT, 100, "as an example of the normal figure environment.")
        for k in range(5):
            x = LEFT + 10 + 95 * k
            if k < labels:
                _line(page, x + 12, 139, f"n = {k + 1}")
            page.draw_rect((x, 145, x + 50, 195), width=0.8)
            page.draw_line((x, 195), (x + 50, 145), width=0.8)
        _line(page, LEFT, 230, "Table 1 shows table created with the booktabs package.")
        _text(page, LEFT, 230 + LEAD, 30, start=2)

    return draw


def test_a_row_of_labels_over_drawings_is_left_out_of_a_drag(tmp_path):
    doc = one_page(tmp_path, _labelled_drawings(5))
    got = drag(doc, 0, "environment.", "shows")
    assert got == "environment. Table 1 shows", got


def test_one_short_line_over_a_drawing_is_still_read(tmp_path):
    # Alone, "n = 1" may be a short line of the text standing by a figure.
    doc = one_page(tmp_path, _labelled_drawings(1))
    got = drag(doc, 0, "environment.", "shows")
    assert got == "environment. n = 1 Table 1 shows", got
