"""Rules found in the session of batches 173 onwards (the helpers' ro180 and later), and in
the misses of the batches before them that were still open.

An IST extended abstract (batch 155) centres "Listing 1: DAG definition example" over a code
listing in 8-point Courier, the caption in the text's own font and size: the listing was
left out of a drag from the paragraph over it to the one under it, its caption read. A
caption set like the text, right before or after what the drag leaves out, goes with it.
The listing's Courier (URW's NimbusMonL) did not say it was fixed-pitch in its descriptor:
a face is fixed-pitch by its family's name too. Liner notes (batch 172) set their essay in
Courier and a heading "Associated acts" in 9.5-point Courier-Bold over 9-point text: set
larger than the text, a typewriter face makes a heading, not a listing.

An ACM paper (batch 173) prints its reference format in 8 points at the foot of the left
column, over the permission block: a drag from its last line ("14 pages. https://doi…")
into the right column left the line out, as all notes between two ends of running text
are. A drag that starts or ends in a note reads the note from there; a run of the page
holds the text with each note, so its passage is found again.

A tri-fold brochure (batch 174) ends its left panel with "Learn more at rladies.org" one
bullet's spacing under its last bullet, lower than anything in the other panels: alone in
the page's foot band it was taken for a footer. A line that follows its column's last
paragraphs at their own spacing is the column's, as one that follows its lines is.

IEEE Network (batch 172) opens a page's right column with two centred heads right over its
text, level with a pull quote boxed over the left column: read as a row of title matter,
they came before both columns. A centred block right over the paragraph it heads (within a
size of it) is a column's head; rows of authors stand further off.

ICML (batch 175) sets its four authors in one centred line over the columns; the space
between the second author's marks and the third's name fell on the gutter, and the line's
right half was read as the right column's head. A row of three blocks or more, level, one
line each, whose gap across the gutter is no wider than its other gaps, standing apart
from what follows, is one line read before the columns.

A recital's leaflet (batch 176) numbers a sonata's movements "I.", "II.", "III.", the first
in an upright face of its own hung left of its italic name: it grouped on its own and was
read after the list. A number of an ordered list ("3.", "iv.", "II.") hung left of a line,
in whatever face, opens that line, as a bullet does.

Acta Acustica (batch 175) sets a display equation between two lines of a paragraph at their
spacing, "(4)" at the column's right edge: the number joined the paragraph as a line of it,
the line under the display joined the number, and the display was read after the whole
paragraph. An equation's number level with a piece of its display goes with the display.

An annual report (batch 178) sets a tinted box of text over a ruled table whose caption is
set in the text's face and size: a drag from the box into the text under the table read the
caption (only a drag with both ends in running text left floats out). A caption between the
two ends of a drag is left out whatever the ends are in; a drag that starts or ends in it
reads it.

An IEEE transactions' first page (batch 179) centres its copyright line across the page's
foot right under the left column's footnotes, in their print: it joined them as their next
line, the block closed the gutter, and the page was read in rows, the right column before
the left one's introduction. A line reaching four sizes or more past the right edge a block's
lines are justified to is no line of it.

RTAS and IPSN (batch 179) set a table's caption over three lines, the first with its label
in another face: the first line went with the table, the next ones were read as running
text. A block right under a caption's, in its typeface and size, at a line's spacing, that
goes on the caption's unfinished sentence in lower case, is the caption's.

A workshop's flyer (batch 184) sets two rows of heads level across its columns, "More info"
and "Organizers:", the second hanging a size left of its bulleted list: a row repeating the
style of a row above was taken for authors' e-mails, and a head reaching into the gutter for
a headline, so the row was read before both columns. Only a row right under its like (within
four sizes) repeats title matter, and a head may hang into the gutter by a size and a half.
"""

from __future__ import annotations

import pymupdf
import pytest
from conftest import drag
from pagedraw import LEAD, LEFT, SIZE, WORDS, block, one_page, write_lines

from basehalf_core.documents.captions import caption_tails
from basehalf_core.documents.grouping import Group
from basehalf_core.documents.raw_text import _Segment, _Unit
from basehalf_core.documents.text_blocks import Block, gaps
from basehalf_core.documents.title_band import heads_over_columns, title_band


def _listing_under_its_caption(caption: str):
    """A page drawer: a paragraph ending "in Figure 1.", ``caption`` centred under it in
    the text's font and size, five numbered lines of 8-point Courier code, the text going on."""

    def draw(page) -> None:
        y = write_lines(page, LEFT, 80, [9] * 4, WORDS, size=SIZE, lead=LEAD)
        page.insert_text((LEFT, y), "illustrated in Figure 1.", fontsize=SIZE, fontname="tiro")
        page.insert_text((LEFT + 30, y + 24), caption, fontsize=SIZE, fontname="tiro")
        code = [
            "@task",
            "def task_a(a: int) -> int:",
            "    # user code",
            "    return a + 1",
            "task_a(10)",
        ]
        for k, line in enumerate(code):
            page.insert_text((LEFT, y + 38 + 10 * k), str(k + 1), fontsize=8, fontname="tiro")
            page.insert_text((LEFT + 14, y + 38 + 10 * k), line, fontsize=8, fontname="cour")
        page.insert_text((LEFT, y + 96), "When task_a(10) runs", fontsize=SIZE, fontname="tiro")
        write_lines(page, LEFT, y + 96 + LEAD, [9] * 3, WORDS, size=SIZE, lead=LEAD)

    return draw


def _two_columns_over_notes(page) -> None:
    """An ACM first page: the left column's text ends over its reference format in 8
    points ("… USA, 14 pages.") and the permission block in 7 points at its foot; the right
    column opens "Structured encryption"."""
    y = write_lines(page, LEFT, 80, [8] * 52, WORDS, size=9, lead=11)
    page.insert_text((LEFT, y), "it closes.", fontsize=9, fontname="tiro")
    note = [
        "ACM Reference Format: Erik Blass and Travis Mayberry. 2022.",
        "Iterative",
        "Functions and Applications. In Proceedings, Nagasaki,",
        "Japan. ACM, New York,",
        "USA, 14 pages.",
    ]
    for k, line in enumerate(note):
        page.insert_text((LEFT, y + 24 + 9 * k), line, fontsize=8, fontname="tiro")
    permission = [
        "Permission to make digital or hard copies of all or part of this work",
        "for personal or classroom use is granted without fee provided that",
        "copies are not made or distributed for profit or commercial advantage",
    ]
    for k, line in enumerate(permission):
        page.insert_text((LEFT, y + 84 + 8 * k), line, fontsize=7, fontname="tiro")
    page.insert_text(
        (316, 80), "Structured encryption lets a data owner", fontsize=9, fontname="tiro"
    )
    write_lines(page, 316, 91, [8] * 62, WORDS, size=9, lead=11, start=3)


def _typewriter_heading(page) -> None:
    """Liner notes: an essay in 9-point Courier down the left column (the page's text), the
    players' notes in 9-point Times on the right: a paragraph ending "with whom to play
    music.", then "Associated acts" in 9.5-point Courier-Bold over its list in Times."""
    write_lines(page, LEFT, 80, [6] * 50, WORDS, size=9, lead=11, font="cour")
    y = write_lines(page, 316, 80, [7] * 12, WORDS, size=9, lead=11)
    page.insert_text((316, y), "with whom to play music.", fontsize=9, fontname="tiro")
    page.insert_text((316, y + 16), "Associated acts", fontsize=9.5, fontname="cobo")
    page.insert_text((316, y + 28), "The Obleeks, Ricky Mirage", fontsize=9, fontname="tiro")


def _panels_of_a_brochure(page) -> None:
    """The inside of a tri-fold on A4 landscape-like columns: the left panel's bullets, two
    lines each, 20 points apart, run to the foot and end with "Learn more at example.org"
    20 points under the last, below everything in the other two panels."""
    y = 600
    for k in range(4):
        end = write_lines(page, LEFT, y, [5, 5], WORDS, size=10, lead=12, start=3 * k)
        y = end + 20
    page.insert_text((LEFT, y), "Learn more at example.org", fontsize=10, fontname="tiro")
    page.insert_text((240, 80), "Why use it?", fontsize=10, fontname="tiro")
    write_lines(page, 240, 92, [5] * 40, WORDS, size=10, lead=12)
    write_lines(page, 420, 80, [5] * 40, WORDS, size=10, lead=12, start=4)


def _authors_in_one_line(page) -> None:
    """ICML's first page: a centred title, then four authors' names in one line, each with
    its raised affiliation marks, the space between the second's marks and the third's name
    falling on the columns' gutter; the abstract and the right column under it."""
    page.insert_text((119, 100), "Learning to Reweight Examples", fontsize=14.5, fontname="tiro")
    for x, name, marks in (
        (155, "Mengye Ren", 210),
        (225, "Wenyuan Zeng", 291),
        (306, "Bin Yang", 347),
        (362, "Raquel Urtasun", 432),
    ):
        page.insert_text((x, 151), name, fontsize=10, fontname="tiro")
        page.insert_text((marks, 147), "1 2", fontsize=7, fontname="tiro")
    page.insert_text((150, 186), "Abstract", fontsize=10, fontname="tiro")
    y = write_lines(page, 75, 202, [6] * 40, WORDS, size=10, lead=12)
    page.insert_text((75, y), "could have many", fontsize=10, fontname="tiro")
    page.insert_text((307, 186), "different forms. Class imbalance", fontsize=10, fontname="tiro")
    write_lines(page, 307, 198, [6] * 45, WORDS, size=10, lead=12, start=3)


def _movements_numbered_in_another_face(page) -> None:
    """A recital's programme: "Sonata in C" over its movements, each numbered "I.", "II.",
    "III." in 12-point Helvetica hung left of its name in 14-point Times Italic, and the
    notes under them."""
    page.insert_text((LEFT, 60), "Sonata in C, No. 60", fontsize=14, fontname="tibo")
    for k, name in enumerate(("Allegro", "Adagio", "Allegro molto")):
        page.insert_text(
            (LEFT + 18, 78 + 18 * k), f"{'I' * (k + 1)}.", fontsize=12, fontname="helv"
        )
        page.insert_text((LEFT + 46, 78 + 18 * k), name, fontsize=14, fontname="tiit")
    page.insert_text((LEFT, 146), "The Sonata in C was written", fontsize=12, fontname="helv")
    write_lines(page, LEFT, 161, [9] * 8, WORDS, size=12, lead=15, font="helv")


def _display_between_lines(page) -> None:
    """Acta Acustica's column: a paragraph, a display equation set between two of its lines
    at their spacing with "(4)" at the column's right edge, "where c is the viscosity." under
    it, then "2.3 Tone holes" over the next paragraph."""
    y = write_lines(page, LEFT, 80, [9] * 4, WORDS, size=SIZE, lead=LEAD)
    page.insert_text((LEFT + 40, y + 1), "r = a b/c,", fontsize=SIZE, fontname="helv")
    page.insert_text((LEFT + 170, y + 1), "(4)", fontsize=SIZE, fontname="tiro")
    page.insert_text(
        (LEFT, y + LEAD + 3), "where c is the viscosity.", fontsize=SIZE, fontname="tiro"
    )
    page.insert_text((LEFT, y + 3 * LEAD + 3), "2.3 Tone holes", fontsize=SIZE, fontname="tibo")
    page.insert_text(
        (LEFT, y + 4 * LEAD + 3), "Each hole is a junction", fontsize=SIZE, fontname="tiro"
    )
    write_lines(page, LEFT, y + 5 * LEAD + 3, [9] * 4, WORDS, size=SIZE, lead=LEAD)


def _box_over_a_captioned_table(page) -> None:
    """An annual report: a tinted box of text at the top, under it "Table 6.1: The
    highlights" in the text's face and size over a ruled table, then the text."""
    page.draw_rect(pymupdf.Rect(50, 50, 545, 150), color=None, fill=(0.95, 0.85, 0.85))
    y = write_lines(page, 60, 70, [9] * 5, WORDS, size=10.5, lead=13, font="helv")
    page.insert_text((60, y), "to deal with prevention.", fontsize=10.5, fontname="helv")
    page.insert_text(
        (54, 175), "Table 6.1: The highlights of the tour", fontsize=10.5, fontname="helv"
    )
    for k in range(5):
        page.draw_line((54, 182 + 20 * k), (545, 182 + 20 * k), width=0.5)
    for k, row in enumerate(
        (
            ("State", "Days", "Reached"),
            ("Delhi", "17", "1.29"),
            ("Gujarat", "13", "6.03"),
            ("Kerala", "9", "1.42"),
        )
    ):
        for j, cell in enumerate(row):
            page.insert_text((60 + 160 * j, 196 + 20 * k), cell, fontsize=10, fontname="helv")
    page.insert_text((54, 280), "about drug use and sex,", fontsize=10.5, fontname="helv")
    write_lines(page, 54, 293, [9] * 6, WORDS, size=10.5, lead=13, font="helv")


def _copyright_line_under_the_notes(page) -> None:
    """An IEEE transactions' first page: the left column's abstract in bold, "I.
    INTRODUCTION" and its text under it, its footnotes in 8 points
    justified at the column's foot, and right under them the copyright line centred across
    the page in the same print; the right column's text runs down to just above that line."""
    y = write_lines(page, LEFT, 80, [8] * 20, WORDS, size=9, lead=11, font="tibo")
    page.insert_text((LEFT, y), "real-time systems.", fontsize=9, fontname="tibo")
    page.insert_text((130, y + 30), "I. INTRODUCTION", fontsize=10, fontname="tiro")
    page.insert_text((LEFT, y + 46), "COMMON to many embedded", fontsize=10, fontname="tiro")
    y = write_lines(page, LEFT, y + 58, [7] * 20, WORDS, size=10, lead=12)
    note = "Manuscript received April 3, 2018; revised June 8, 2018."
    for k in range(3):  # lines of one length: justified to one right edge
        page.insert_text((LEFT, y + 16 + 9 * k), note, fontsize=8, fontname="tiro")
    page.insert_text((LEFT, y + 43), "such as earth.", fontsize=8, fontname="tiro")
    line = "0278-0070 (c) 2018 IEEE. Personal use is permitted, but republication requires"
    page.insert_text((124, y + 58), line, fontsize=8, fontname="tiro")
    page.insert_text(
        (144, y + 67), "See the IEEE's site for more information.", fontsize=8, fontname="tiro"
    )
    page.insert_text((316, 80), "drone. Our first step is to", fontsize=10, fontname="tiro")
    write_lines(page, 316, 92, [7] * 47, WORDS, size=10, lead=12, start=4)


def _table_caption_in_two_faces(page) -> None:
    """RTAS's right column: a ruled table at its top, its caption under it, "TABLE I:
    Round-trip socket and timer" in 10-point bold, the caption's next lines ("overheads
    with ...") in the text's 9-point roman, then the column's text; the left column's text
    ends "low-criticality)"."""
    y = write_lines(page, LEFT, 80, [7] * 50, WORDS, size=9, lead=11)
    page.insert_text((LEFT, y), "(often low-criticality)", fontsize=9, fontname="tiro")
    for k in range(4):
        page.draw_line((316, 60 + 14 * k), (545, 60 + 14 * k), width=0.5)
    for k, row in enumerate((("Comm.", "Host", "VM"), ("Same", "26670", "105228"))):
        for j, cell in enumerate(row):
            page.insert_text((322 + 70 * j, 71 + 14 * k), cell, fontsize=8, fontname="tiro")
    page.insert_text(
        (316, 122), "TABLE I: Round-trip socket and timer", fontsize=10, fontname="tibo"
    )
    for k, line in enumerate(
        (
            "overheads with virtualization in Linux. The numbers",
            "give the slowdown from Host-only operation.",
        )
    ):
        page.insert_text((316, 132 + 10 * k), line, fontsize=9, fontname="tiro")
    page.insert_text((316, 166), "tasks to consume the remaining", fontsize=9, fontname="tiro")
    write_lines(page, 316, 177, [7] * 50, WORDS, size=9, lead=11)


def _authors_of_four_lines(page) -> None:
    """IWCMC's first page: a title, then two authors side by side, each name centred over
    four centred lines (department, university, city, e-mail) in the text's own face and
    size, over the two columns."""
    page.insert_text(
        (120, 70), "Energy Efficient Routing for Sensors", fontsize=20, fontname="tiro"
    )
    for middle, lines in (
        (
            180,
            (
                "Usama Ahmed",
                "Information Security Department",
                "National University of Sciences",
                "Islamabad, Pakistan",
                "usama@mcs.edu.pk",
            ),
        ),
        (
            430,
            (
                "Faisal Hussain",
                "Computer Sciences Department",
                "National University of Sciences",
                "Islamabad, Pakistan",
                "faisal@mcs.edu.pk",
            ),
        ),
    ):
        for k, line in enumerate(lines):
            width = pymupdf.get_text_length(line, fontsize=9.5, fontname="tiro")
            page.insert_text(
                (middle - width / 2, 110 + (18 if k else 0) + 11 * k),
                line,
                fontsize=9.5,
                fontname="tiro",
            )
    y = write_lines(page, LEFT, 200, [7] * 50, WORDS, size=9.5, lead=11.5)
    page.insert_text((LEFT, y), "advance concepts to", fontsize=9.5, fontname="tiro")
    page.insert_text((316, 200), "perception entirely shifting", fontsize=9.5, fontname="tiro")
    write_lines(page, 316, 211.5, [7] * 50, WORDS, size=9.5, lead=11.5, start=3)


# (page drawer, a drag's first and last words, the passage a person reads)
DRAGS = [
    pytest.param(
        _listing_under_its_caption("Listing 1: DAG definition example"),
        "1.",
        "When",
        "1. When",
        id="a-listings-caption-set-like-the-text-goes-with-the-listing",
    ),
    pytest.param(
        _listing_under_its_caption("The listing below defines two tasks"),
        "1.",
        "When",
        "1. The listing below defines two tasks @task def task_a(a: int) -> int: "
        "# user code return a + 1 task_a(10) When",
        id="a-listing-with-no-caption-is-read-between-its-paragraphs",
    ),
    pytest.param(
        _two_columns_over_notes,
        "pages.",
        "Structured",
        "pages. Structured",
        id="a-drag-that-starts-in-a-note-reads-it-from-there",
    ),
    pytest.param(
        _two_columns_over_notes,
        "closes.",
        "Structured",
        "closes. Structured",
        id="notes-between-a-drags-ends-are-left-out",
    ),
    pytest.param(
        _panels_of_a_brochure,
        "Learn",
        "Why",
        "Learn more at example.org Why",
        id="a-panels-last-line-at-its-bullets-spacing-is-no-footer",
    ),
    pytest.param(
        _authors_in_one_line,
        "many",
        "different",
        "many different",
        id="a-line-of-authors-across-the-gutter-is-read-before-the-columns",
    ),
    pytest.param(
        _movements_numbered_in_another_face,
        "60",
        "Adagio",
        "60 I. Allegro II. Adagio",
        id="a-lists-numbers-hung-in-another-face-open-their-items",
    ),
    pytest.param(
        _display_between_lines,
        "viscosity.",
        "Each",
        "viscosity. 2.3 Tone holes Each",
        id="a-display-between-two-lines-is-read-between-them",
    ),
    pytest.param(
        _box_over_a_captioned_table,
        "prevention.",
        "about",
        "prevention. about",
        id="a-caption-between-a-box-and-the-text-goes-with-its-table",
    ),
    pytest.param(
        _table_caption_in_two_faces,
        "low-criticality)",
        "tasks",
        "low-criticality) tasks",
        id="a-captions-lines-under-its-labelled-first-go-with-it",
    ),
    pytest.param(
        _authors_of_four_lines,
        "concepts",
        "perception",
        "concepts to perception",
        id="authors-centred-over-four-lines-are-title-matter",
    ),
    pytest.param(
        _typewriter_heading,
        "music.",
        "Obleeks,",
        "music. Associated acts The Obleeks,",
        id="a-heading-set-larger-in-a-typewriter-face-is-read",
    ),
]


@pytest.mark.parametrize(("draw", "first", "last", "expected"), DRAGS)
def test_a_drag_reads_the_passage_a_person_reads(tmp_path, draw, first, last, expected):
    got = drag(one_page(tmp_path, draw), 0, first, last)
    assert got == expected, got


def test_a_drag_that_starts_in_a_listings_caption_reads_it(tmp_path):
    doc = one_page(tmp_path, _listing_under_its_caption("Listing 1: DAG definition example"))
    assert drag(doc, 0, "Listing", "When") == "Listing 1: DAG definition example When"


def test_a_centred_head_right_over_its_columns_text_is_no_title_band():
    """IEEE Network (batch 172) opens its right column with "Securing the Open Interfaces"
    centred over "New Vulnerabilities", 3 points over the text (headings read as text, so
    in its style), level with a pull quote's box over the left column: the three were read
    as title matter before both columns. Rows of authors stand further off the text."""
    quote = block(1, (57, 38, 330, 50), style="AcuminProExtraCond@10.0", region="box")
    head = block(0, (390, 28, 508, 47))
    sub = block(2, (416, 51, 482, 67))
    text = block(3, (354, 70, 547, 413), lines=34)
    left = block(4, (145, 350, 336, 733), lines=38)
    blocks = [quote, head, sub, text, left]
    rows = gaps([(b.bbox[1] + 0.5, b.bbox[3] - 0.5) for b in blocks], 0.0)
    assert title_band(blocks, rows, "ClassicoURW@9.0", blocks) == []
    # The same row set off from the text by two lines is a row of title matter.
    far = block(3, (354, 88, 547, 413), lines=34)
    blocks = [quote, head, sub, far, left]
    rows = gaps([(b.bbox[1] + 0.5, b.bbox[3] - 0.5) for b in blocks], 0.0)
    assert title_band(blocks, rows, "ClassicoURW@9.0", blocks) == [quote, head, sub]


def test_a_line_far_past_the_edge_of_justified_notes_is_not_theirs(tmp_path):
    words = one_page(tmp_path, _copyright_line_under_the_notes).words(0)
    block = {w.text: w.block for w in words}
    assert block["0278-0070"] != block["Manuscript"]
    # The notes' own short last line is theirs.
    assert block["earth."] == block["Manuscript"]


def _group(n, text, box, *, style="NimbusRomNo9L@10.0", region="", lines=1):
    words = text.split()
    units = [_Unit(box, w, 0, 0, False) for w in words]
    family, size = style.split("@")
    block = Block(
        id=n,
        bbox=box,
        direction=(1.0, 0.0),
        size=float(size),
        chars=len(text),
        lines=lines,
        style=style,
        region=region,
        first_word=words[0],
        last_word=words[-1],
    )
    return Group(block, [_Segment(units, family, float(size), (1.0, 0.0), len(text))], box)


def test_the_rest_of_a_captions_line_set_apart_goes_with_it():
    """LAGraph's "Listing 1: LAGraph" and, after the fixed-pitch name's gap, "Graph data
    structure and methods." on the same line, grouped apart (its style the name's)."""
    caption = _group(18, "Listing 1: LAGraph", (323, 439, 402, 450), region="float")
    rest = _group(19, "Graph data structure and methods.", (410, 439, 552, 450), style="txtt@10.0")
    text = _group(20, "The LAGraph project is more", (312, 477, 563, 571), lines=8)
    caption_tails([caption, rest, text])
    assert (rest.block.region, text.block.region) == ("float", "")


def test_a_second_row_of_heads_hanging_over_a_list_heads_its_columns():
    """SCAI'17's flyer (batch 184): "Important dates" and "Invited Speakers" level over two
    columns, lower "More info" and "Organizers:" level over two more, the latter hanging a
    size left of its bulleted list (the blocks' boxes as the reader groups them)."""

    def sans(n, bbox, size, lines=1):
        return block(n, bbox, style=f"LiberationSans@{size}", lines=lines)

    first = [sans(3, (62, 482, 199, 502), 18.0), sans(4, (292, 482, 436, 502), 18.0)]
    over = [sans(6, (80, 522, 286, 582), 12.0, 5), sans(5, (310, 509, 526, 609), 12.0, 8)]
    heads = [
        sans(8, (62.3, 624.3, 144.1, 644.6), 18.0),
        sans(7, (291.7, 623.0, 392.8, 643.3), 18.0),
    ]
    under = [
        sans(10, (62.3, 671.9, 206.4, 708.9), 12.0, 2),
        sans(9, (309.7, 652.7, 508.1, 728.2), 11.0, 4),
    ]
    for b in first + over + heads + under:
        b.size = float(b.style.split("@")[1])
    page = first + over + heads + under
    assert heads_over_columns(heads, under, 10.0, "LiberationSans@11.0", page)
