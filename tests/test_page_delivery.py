"""What the core gives the reader to deliver a page fast: JPEG pages that keep small print, a
search that streams page by page, and highlights re-anchored for drawing.

The widget that uses them is tested in tests/test_reader_widget.py and, in a browser,
tests/test_browser_reader.py; their speed is measured by bench/reader.py and
bench/reader_browser.py (no timing here).
"""

from __future__ import annotations

import shutil

import pymupdf
import pytest
from conftest import corpus

from basehalf_core.documents import anchors, page_search
from basehalf_core.documents import document as D
from basehalf_core.documents.text import present

ACL = "papermage_2023.eacl-main.121.pdf"
# Runs from the foot of the left column of p.1 to the top of the right one, with a footnote
# between them in the file: MuPDF's own search does not see it as one phrase.
ACROSS_COLUMNS = "gold standard for evaluating model-generated summaries"


@pytest.fixture
def acl(tmp_path):
    path = tmp_path / "longeval.pdf"
    shutil.copy(corpus(ACL), path)
    return D.open_document(path)


def _ink(pix: pymupdf.Pixmap, box) -> int:
    """Dark pixels inside a displayed 0..1 box of the image."""
    x0, y0 = int(box[0] * pix.width), int(box[1] * pix.height)
    x1, y1 = max(int(box[2] * pix.width), x0 + 1), max(int(box[3] * pix.height), y0 + 1)
    return sum(
        1 for x in range(x0, x1) for y in range(y0, y1) if sum(pix.pixel(x, y)[:3]) < 3 * 110
    )


def test_a_jpeg_page_keeps_the_ink_of_small_print(acl):
    """Every word's ink, footnotes and superscripts included, is where the PNG has it."""
    png = acl.render(0, 1.5)
    jpeg = acl.render(0, 1.5, image="jpeg")
    assert jpeg.mime == "image/jpeg" and jpeg.data[:3] == b"\xff\xd8\xff"
    assert (jpeg.width, jpeg.height, jpeg.zoom) == (png.width, png.height, png.zoom)
    assert len(jpeg.data) < len(png.data) * 1.5
    a, b = pymupdf.Pixmap(png.png), pymupdf.Pixmap(jpeg.data)
    words = acl.words(0)
    small = [w for w in words if w.rect[3] - w.rect[1] < 11.5]  # footnotes: 7-8 pt type
    assert len(small) > 20
    for w in [*words[::25], *small[::5]]:
        want, got = _ink(a, w.box), _ink(b, w.box)
        assert abs(got - want) <= max(3, 0.2 * want), (w.text, want, got)


def test_the_png_of_a_jpeg_page_is_refused(acl):
    with pytest.raises(ValueError, match="image/jpeg"):
        _ = acl.render(0, 1.0, image="jpeg").png


@pytest.mark.parametrize("image", ["gif", "", None])
def test_an_unknown_image_format_is_refused(acl, image):
    with pytest.raises(ValueError, match="image must be"):
        acl.render(0, 1.0, image=image)


def test_a_grey_page_renders_as_jpeg(tmp_path):
    path = tmp_path / "scan.pdf"
    shutil.copy(corpus("ocr_c02-22.pdf"), path)
    jpeg = D.open_document(path).render(0, 1.0, image="jpeg")
    assert pymupdf.Pixmap(jpeg.data).width == jpeg.width


def test_search_streams_pages_from_the_one_on_screen(acl):
    everywhere = [h.page for h in page_search.search_pages(acl, "Kendall")]
    assert everywhere == sorted(everywhere) and 0 in everywhere
    # The pages PyMuPDF's own search_for finds, no more, no fewer.
    pdf = pymupdf.open(acl.path)
    assert everywhere == [i for i, page in enumerate(pdf) if page.search_for("Kendall")]
    later = [h.page for h in page_search.search_pages(acl, "Kendall", start=2)]
    assert later[0] == min(p for p in everywhere if p >= 2)
    assert sorted(later) == everywhere
    for hit in page_search.search_pages(acl, "Kendall"):
        assert hit.count >= 1 and hit.boxes
        assert all(0 <= b[0] < b[2] <= 1 and 0 <= b[1] < b[3] <= 1 for b in hit.boxes)


def test_search_counts_each_occurrence_as_the_anchors_find_them(acl):
    """Hyphenated across a line end or not, one occurrence counts once (reading-order count)."""
    hits = list(page_search.search_pages(acl, "annotator"))
    assert len(hits) > 3
    for hit in hits:
        assert hit.count == len(anchors.find_in_page(acl, hit.page, "annotator")), hit.page


def test_a_phrase_across_a_column_break_is_found_in_reading_order(acl):
    pdf = pymupdf.open(acl.path)
    assert not pdf[0].search_for(ACROSS_COLUMNS)  # MuPDF alone misses it
    hits = list(page_search.search_pages(acl, ACROSS_COLUMNS))
    assert [h.page for h in hits] == [0] and hits[0].count == 1
    assert len(hits[0].boxes) >= 2  # the two columns' lines


@pytest.mark.parametrize("text", ["", "   ", "zebra quartz xylophone"])
def test_search_without_a_match_yields_nothing(acl, text):
    assert list(page_search.search_pages(acl, text)) == []


def test_highlights_draw_found_anchors_and_name_orphans(acl):
    words = acl.words(0)
    passage = acl.passage(0, range(10, 16))
    stored = {"quote": passage.quote, "page": 1, "rects": passage.rects, "id": "a.md"}
    gone = {"quote": "zebra quartz xylophone", "page": 1, "id": "gone.md", "label": "Gone"}
    bad = {"quote": "", "page": "one", "id": "bad.md"}
    shown = anchors.highlights(acl, [stored, gone, bad])
    assert [(h.note, h.status) for h in shown] == [
        ("a.md", "exact"),
        ("gone.md", "orphan"),
        ("bad.md", "orphan"),
    ]
    h = shown[0]
    assert (h.page, h.label) == (1, "a.md")
    expected = D.line_rects([words[k] for k in passage.word_indices], space="box")
    assert h.boxes == expected
    assert all(not o.boxes and o.message.startswith(o.note) for o in shown[1:])


def test_search_finds_the_same_pages_once_the_text_is_scanned(acl):
    """The scan only rules pages out early; it never changes what is found."""
    queries = ["Kendall", "inter-annotator agreement", "annotator", ACROSS_COLUMNS, "zebra"]
    first = [(h.page, h.count) for h in page_search.search_pages(acl, "Kendall")]
    assert acl.may_hold(0, "Kendall") is None  # a search MuPDF answers does not start the scan
    cold = {q: [(h.page, h.count) for h in page_search.search_pages(acl, q)] for q in queries}
    assert cold["Kendall"] == first
    acl.scan()
    assert acl.may_hold(0, "zebra quartz") is False
    for q in queries:
        assert [(h.page, h.count) for h in page_search.search_pages(acl, q)] == cold[q], q


def test_a_scan_in_steps_reads_the_same_text_as_one_scan(acl, tmp_path):
    """A reader scans a page at a time in the background; the result is the whole scan's."""
    steps = 0
    while not acl.scan(pages=1):
        steps += 1
        assert acl.may_hold(steps, "the") is None  # not read yet
    assert steps == acl.page_count - 1
    whole = D.Document(acl.path)
    assert whole.scan() is True
    assert acl.vocabulary() == whole.vocabulary()
    assert [acl.may_hold(i, "Kendall") for i in range(acl.page_count)] == [
        whole.may_hold(i, "Kendall") for i in range(acl.page_count)
    ]


@pytest.mark.parametrize("name", ["pymupdf_mupdf_explored.pdf", "gutenberg_pg1342.epub"])
def test_the_outline_read_on_first_use_is_pymupdfs_own(tmp_path, name):
    """Opening skips PyMuPDF's eager outline read (most of a long book's open time); the
    table of contents read later is the one PyMuPDF gives."""
    path = tmp_path / name
    shutil.copy(corpus(name), path)
    doc = D.Document(path)
    with pymupdf.open(path) as plain:
        expected = [(a, b.strip(), c) for a, b, c in plain.get_toc(simple=True)]
    assert len(expected) > 10
    assert doc.toc() == expected
    page = expected[len(expected) // 2][2]
    assert doc.chapter_of(page - 1) is not None


def _two_columns(path, left: list[str], right: list[str]) -> None:
    """A page whose left column ends at its foot and whose right column starts at its top."""
    pdf = pymupdf.open()
    page = pdf.new_page(width=612, height=792)
    for k, line in enumerate(left):
        page.insert_text((50, 620 + 11 * k), line, fontsize=7.5)
    for k, line in enumerate(right):
        page.insert_text((320, 72 + 11 * k), line, fontsize=7.5)
    pdf.save(path)


LEFT = [
    "Sequence models have long been built from recurrent layers that read one",
    "token after another, which keeps them from working on many positions at",
    "once. Our model draws on a different idea: every position looks at every",
    "other position directly, and the model learns which of them matter most for",
    "the task at hand. To make this work at scale the model relies on the atten-",
]
RIGHT = [
    "tion mechanism alone, with no recurrence and no convolution in any of its",
    "layers. We show that such a model trains faster than earlier designs and",
    "reaches a better score on two translation tasks, and we study how its parts",
    "contribute to that result with a series of careful ablations below here.",
]


def test_a_word_hyphenated_across_a_column_break_is_found(tmp_path):
    path = tmp_path / "columns.pdf"
    _two_columns(path, LEFT, RIGHT)
    assert not pymupdf.open(path)[0].search_for("attention mechanism")  # MuPDF alone misses it
    hits = list(page_search.search_pages(D.open_document(path), "attention mechanism alone"))
    assert [(h.page, h.count) for h in hits] == [(0, 1)]


@pytest.mark.parametrize(
    "token, page, held",
    [
        ("attention", "the\x00attention\x00is", True),  # whole, on one line
        ("attention", "relies\x00ontheatten\x00tionmechanism", True),  # broken at a line end
        ("attention", "attenuated\x00signalwithout\x00tions", False),  # parts, but mid-line
        ("refrence", "areference\x00counting", False),  # a typo: "ref" + "rence" mid-line
        ("refrence", "areferencecounting", True),  # no line ends kept: the loose test
        ("注意力", "自\x00注意\x00力机制", True),  # CJK: its characters are enough
    ],
)
def test_ruling_a_page_out_knows_where_words_break(token, page, held):
    assert present(token, page) is held


def test_a_typo_that_matches_nothing_builds_no_page_layout(monkeypatch):
    """A typo is "ref" + "rence" on most pages of a book, but never broken at a line end.

    No page's reading order is built, so a search that finds nothing costs one pass over the
    book.
    """
    book = D.open_document(corpus("pymupdf_mupdf_explored.pdf"))
    built = []
    monkeypatch.setattr(D.Document, "runs", lambda self, i: built.append(i) or [])
    assert list(page_search.search_pages(book, "refrence counting")) == []
    assert built == []
