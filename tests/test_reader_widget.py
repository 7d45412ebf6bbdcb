"""The Reader widget's Python side on real documents: page delivery, selection → passage,
highlights from grown notes, search, the password flow and broken files.

The browser half is exercised in tests/test_browser_reader.py.
"""

from __future__ import annotations

import shutil
import time

import pymupdf
import pytest
from conftest import corpus

from basehalf_core.documents import document as documents
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import branch
from basehalf_core.study.branch import highlight_items as highlights_for
from basehalf_widgets.reader import LOW, PAGE_CACHE, PREVIEW_SCALE, Reader, ReaderError
from basehalf_widgets.reader_pages import Warmer

ACL = "papermage_2023.eacl-main.121.pdf"
# The sentence that runs from the foot of the left column of p.1 to the top of the right one,
# with a footnote between the two in the file.
ACL_SENTENCE = (
    "Human judgments are considered the gold standard for evaluating model-generated summaries "
    "(Kryscinski et al., 2019; Fabbri et al., 2021) and generated text more broadly"
)


def png_size(data: bytes) -> tuple[int, int]:
    """Pixel size of a page image as the reader sends it (JPEG)."""
    assert data[:3] == b"\xff\xd8\xff", "not a JPEG"
    pix = pymupdf.Pixmap(data)
    return pix.width, pix.height


def find_run(words: list, texts: list[str]) -> int:
    """Index of the first word of ``texts`` as consecutive words of the ``words`` trait."""
    flat = [w[4] for w in words]
    for k in range(len(flat) - len(texts) + 1):
        if flat[k : k + len(texts)] == texts:
            return k
    raise AssertionError(f"{texts!r} not found among the page's words")


@pytest.fixture
def acl(tmp_path):
    path = tmp_path / "longeval.pdf"
    shutil.copy(corpus(ACL), path)
    return path


def sharpen(reader: Reader) -> Reader:
    """What the browser does once it has painted the quick first page: ask for the sharp one."""
    reader.painted = reader.image_key
    return reader


def test_first_page_delivered_with_words_in_reading_order(acl):
    reader = Reader(acl)
    doc = documents.open_document(acl)
    assert (reader.page, reader.page_count, reader.image_page) == (0, 20, 0)
    # Made with the widget: a quick image at a fraction of the zoom, then the sharp one once
    # the browser says it has painted the quick one.
    assert reader.image_key == reader._key(0) + LOW
    pw, ph = reader.page_size
    w, _h = png_size(reader.image)
    assert abs(w - pw * reader.zoom * PREVIEW_SCALE) <= 1
    sharpen(reader)
    assert reader.image_key == reader._key(0)
    w, h = png_size(reader.image)
    assert abs(w / h - pw / ph) < 0.01  # the whole page box, not a crop
    assert abs(w - pw * reader.zoom) <= 1
    assert [x[4] for x in reader.words] == [x.text for x in doc.words(0)]
    for x0, y0, x1, y1, _text, _glue in reader.words:
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1
    assert reader.message == ""


def test_turning_pages_renders_only_that_page(acl):
    reader = Reader(acl)
    first = reader.image
    reader.page = 4
    assert reader.image_page == 4 and reader.image != first
    sharpen(reader)  # the words come with the sharp image
    assert [x[4] for x in reader.words] == [x.text for x in documents.open_document(acl).words(4)]
    # The reader keeps a few pages, never the whole document.
    reader.page = 5
    reader.page = 6
    reader.page = 7
    assert len(reader._pages) <= PAGE_CACHE


def test_the_page_asked_for_ahead_is_sent_ahead_and_then_served_from_it(acl):
    reader = Reader(acl, page=2)
    reader.ahead = 3  # the browser, after painting page 3 (1-based)
    assert (reader.ahead_page, reader.ahead_key) == (3, reader._key(3))
    assert png_size(reader.ahead_image)[0] > 0
    assert [x[4] for x in reader.ahead_words] == [
        x.text for x in documents.open_document(acl).words(3)
    ]
    reader.page = 3
    # Same bytes and key: the browser, which painted the page ahead, repaints nothing.
    assert reader.image == reader.ahead_image and reader.image_key == reader.ahead_key
    assert reader.words == reader.ahead_words and reader.page_size == reader.ahead_size


def test_a_zoom_change_redoes_the_page_sent_ahead(acl):
    reader = Reader(acl)
    reader.ahead = 1
    small = png_size(reader.ahead_image)[0]
    reader.zoom = 3.0
    assert (
        reader.ahead_key == reader._key(1, 3.0) == "1@3.0#0"
        and png_size(reader.ahead_image)[0] > 1.9 * small
    )


@pytest.mark.parametrize("bad", [-1, 20, 999])
def test_a_bad_page_asked_for_ahead_is_ignored(acl, bad):
    reader = Reader(acl)
    reader.ahead = bad
    assert reader.ahead_page == -1 and reader.ahead_image == b""


@pytest.mark.parametrize("bad", [-1, 20, 1000])
def test_a_bad_page_from_the_browser_is_put_back(acl, bad):
    reader = Reader(acl, page=3)
    reader.page = bad
    assert 0 <= reader.page <= 19
    assert reader.image_page == reader.page


@pytest.mark.parametrize("bad", [-1, 20, "2", 1.5])
def test_show_refuses_pages_outside_the_document(acl, bad):
    reader = Reader(acl)
    with pytest.raises(ReaderError, match=f"page {bad!r}"):
        reader.show(bad)
    assert reader.page == 0


def test_selection_across_columns_gives_the_sentence_without_the_footnote(acl):
    reader = sharpen(Reader(acl))
    start = find_run(reader.words, ["Human", "judgments", "are", "considered"])
    end = find_run(reader.words, ["generated", "text", "more", "broadly"]) + 3
    seen = []
    # The app's own observer, registered after the reader's: the passage must be ready.
    reader.observe(lambda _c: seen.append(reader.passage()), names=["selection"])
    reader.selection = {
        "page": 0,
        "start": start,
        "end": end,
        "covered": list(range(start, end + 1)),
        "text": "",
    }
    passage = reader.passage()
    assert passage is not None and seen == [passage]
    assert passage.quote == ACL_SENTENCE
    assert (passage.file, passage.page) == ("longeval.pdf", 1)
    assert len(reader.marked) == len(passage.rects) == 4
    assert all(0 <= b[0] < b[2] <= 1 and 0 <= b[1] < b[3] <= 1 for b in reader.marked)


def test_clearing_the_selection_forgets_the_passage(acl):
    reader = Reader(acl)
    reader.select(0, 10, 12)
    assert reader.passage() is not None
    reader.selection = {}
    assert reader.passage() is None and reader.marked == []


@pytest.mark.parametrize(
    "selection",
    [
        {"page": 0, "start": 0, "end": 99999},
        {"page": 0, "start": "x", "end": 3},
        {"page": 0, "start": 3},
        {"page": 57, "start": 0, "end": 3},
    ],
)
def test_a_bad_selection_gives_no_passage_and_says_so(acl, selection):
    reader = Reader(acl)
    reader.selection = selection
    assert reader.passage() is None
    assert reader.message.startswith("That selection could not be read")


def test_turning_the_page_drops_a_selection_of_another_page(acl):
    reader = Reader(acl)
    reader.select(0, 5, 9)
    reader.page = 1
    assert reader.selection == {} and reader.passage() is None


def test_highlights_of_grown_notes_land_on_their_passage(acl):
    ws = Workspace.open(acl.parent)
    reader = sharpen(Reader(acl, file="longeval.pdf"))
    start = find_run(reader.words, ["Human", "judgments", "are", "considered"])
    passage = reader.select(0, start, start + 9)
    note = branch.grow_from_passage(ws, passage, "Gold standard")
    items = highlights_for(ws, "longeval.pdf")
    assert [i["id"] for i in items] == [note]

    other = Reader(acl, file="longeval.pdf", page=3, highlights=items)
    assert len(other.highlights) == 1
    h = other.highlights[0]
    assert (h["id"], h["page"], h["label"], h["status"]) == (note, 0, "Gold standard", "exact")
    assert h["boxes"] == reader.marked
    # The app, the CLI and the widget draw from one core path: the same answer for the note.
    (core,) = branch.highlights(ws, "longeval.pdf")
    assert (core.note, core.page - 1, core.boxes, core.status) == (
        h["id"],
        h["page"],
        h["boxes"],
        h["status"],
    )


def test_a_highlight_whose_quote_is_gone_is_not_drawn_and_is_reported(acl):
    reader = Reader(acl)
    reader.set_highlights(
        [
            {"id": "gone.md", "label": "Gone", "page": 1, "quote": "zebra quartz xylophone"},
            {"id": "bad.md", "label": "Bad", "page": "one", "quote": ""},
        ]
    )
    assert reader.highlights == []
    assert "2 note(s) no longer match" in reader.message and "gone.md" in reader.message


def test_search_jumps_to_the_next_page_with_a_hit(acl):
    reader = Reader(acl, page=2)
    reader.query = "inter-annotator agreement"
    assert reader.hits, "the phrase is in the paper"
    pages = [h["page"] for h in reader.hits]
    assert pages == sorted(pages)
    assert reader.page == min(p for p in pages if p >= 2)
    assert 0 in pages  # the abstract says it
    for hit in reader.hits:
        assert hit["boxes"] and all(0 <= b[0] < b[2] <= 1 for b in hit["boxes"])


def test_search_without_a_match_says_so(acl):
    reader = Reader(acl, page=2)
    reader.query = "zebra quartz xylophone"
    assert reader.hits == [] and reader.page == 2
    assert reader.message == "No match for “zebra quartz xylophone” in longeval.pdf."


def test_search_finds_words_printed_with_ligatures(tmp_path):
    path = tmp_path / "lig.pdf"
    shutil.copy(corpus("pdfjs_copy_paste_ligatures.pdf"), path)
    reader = Reader(path)
    reader.query = "ffi"
    assert [h["page"] for h in reader.hits] == [0]


def test_password_flow(tmp_path):
    path = tmp_path / "locked.pdf"
    shutil.copy(corpus("sf_libreoffice-writer-password.pdf"), path)
    reader = Reader(path)
    assert reader.needs_password and reader.page_count == 0 and reader.image == b""
    assert reader.message == "locked.pdf is encrypted: enter its password to read it."

    reader.password = "wrong"
    assert reader.needs_password and reader.password == ""
    assert reader.message == "Wrong password for locked.pdf: try again."

    reader.password = "openpassword"
    assert not reader.needs_password and reader.password == ""
    assert reader.page_count == 1 and png_size(reader.image)[0] > 0
    assert sharpen(reader).words
    assert reader.message == ""


def _text_named_pdf(tmp_path):
    path = tmp_path / "notes.pdf"
    path.write_text("just some notes, not a PDF\n")
    return path


def _copy(name):
    def make(tmp_path):
        path = tmp_path / name
        shutil.copy(corpus(name), path)
        return path

    return make


@pytest.mark.parametrize(
    ("make", "says"),
    [
        (_copy("ocr_invalid.pdf"), "cannot be opened"),
        (_copy("plumber_empty.pdf"), "empty"),
        (_text_named_pdf, "not a PDF"),
        (lambda tmp: tmp / "missing.pdf", "not found"),
    ],
)
def test_broken_documents_say_what_is_wrong_and_never_raise(tmp_path, make, says):
    path = make(tmp_path)
    reader = Reader(path)
    assert reader.page_count == 0 and reader.image == b"" and reader.words == []
    assert reader.message.startswith(f"{path.name} cannot be shown:") and says in reader.message
    assert reader.error is not None and reader.passage() is None
    with pytest.raises(ReaderError, match=path.name):
        reader.show(0)


def test_a_repaired_file_opens(tmp_path):
    path = _copy("pdfjs_helloworld-bad.pdf")(tmp_path)
    reader = Reader(path)
    assert reader.page_count == 1 and reader.image and reader.message == ""


def test_a_scan_renders_and_says_selection_needs_a_text_layer(tmp_path):
    path = _copy("ocr_c02-22.pdf")(tmp_path)
    reader = Reader(path)
    assert png_size(reader.image)[0] > 100 and reader.words == []
    assert "has no text layer" in reader.message
    assert reader.message.endswith("Selection needs a text layer.")


def ink_inside(png: bytes, box) -> bool:
    """Is there dark ink inside this box (fractions) of the rendered page?"""
    pix = pymupdf.Pixmap(png)
    x0, y0 = int(box[0] * pix.width), int(box[1] * pix.height)
    x1, y1 = max(int(box[2] * pix.width), x0 + 1), max(int(box[3] * pix.height), y0 + 1)
    step = max(1, (x1 - x0) // 20)
    return any(min(pix.pixel(x, y)) < 110 for x in range(x0, x1, step) for y in range(y0, y1))


def test_rotated_page_word_boxes_land_on_the_rendered_words(tmp_path):
    path = _copy("plumber_nics-background-checks-2015-11-rotated.pdf")(tmp_path)
    reader = sharpen(Reader(path))
    w, h = png_size(reader.image)
    pw, ph = reader.page_size
    assert abs(w / h - pw / ph) < 0.01
    assert len(reader.words) > 1000
    sample = reader.words[::10]
    on_ink = sum(ink_inside(reader.image, x[:4]) for x in sample)
    assert on_ink >= 0.95 * len(sample)
    # The same boxes mirrored miss the words: the check can fail.
    mirrored = [[1 - x[2], 1 - x[3], 1 - x[0], 1 - x[1]] for x in sample]
    assert sum(ink_inside(reader.image, b) for b in mirrored) < 0.8 * len(sample)


@pytest.mark.parametrize(("asked", "used"), [(3.0, 3.0), (0.01, 0.25)])
def test_zoom_renders_at_the_asked_scale_within_limits(acl, asked, used):
    reader = Reader(acl)
    reader.zoom = asked
    assert reader.zoom == used
    w, _h = png_size(sharpen(reader).image)
    assert abs(w - reader.page_size[0] * used) <= 1


def test_zoom_beyond_the_limit_is_clamped_and_the_render_capped(acl):
    reader = Reader(acl)
    reader.zoom = 100.0
    assert reader.zoom == 6.0
    w, h = png_size(sharpen(reader).image)
    assert w * h <= documents.MAX_RENDER_PIXELS and w > reader.page_size[0] * 4


def test_huge_pages_render_capped(tmp_path):
    path = tmp_path / "wide.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=20000, height=600)
    page.insert_text((100, 300), "a very wide page", fontsize=40)
    doc.save(path)
    reader = sharpen(Reader(path, zoom=6))
    w, h = png_size(reader.image)
    assert w * h <= documents.MAX_RENDER_PIXELS
    assert reader.words[0][4] == "a"


def test_for_document_takes_an_open_document(acl):
    doc = documents.open_document(acl)
    reader = Reader.for_document(doc, file="papers/longeval.pdf")
    assert reader.page_count == 20 and reader.file == "papers/longeval.pdf"
    reader.select(0, 0, 3)
    assert reader.passage().file == "papers/longeval.pdf"


# -- delivery, streaming search, notices --------------------------------------------------------


def test_search_reports_its_state_and_hits_in_page_order(acl):
    reader = Reader(acl, page=10)
    reader.query = "Kendall"
    assert reader.search == {"query": "Kendall", "done": True}
    pages = [h["page"] for h in reader.hits]
    assert pages == sorted(pages) and len(pages) > 3
    assert reader.page == min(p for p in pages if p >= 10)
    assert all(h["count"] >= 1 for h in reader.hits)
    reader.query = ""
    assert reader.hits == [] and reader.search == {}


def test_hits_grow_while_the_search_runs(acl):
    reader = Reader(acl)
    seen = []
    reader.observe(lambda c: seen.append(len(c["new"])), names=["hits"])
    reader.query = "Kendall"
    found = len(reader.hits)
    # The first page found goes out alone (and is shown), the rest as they come.
    assert found > 3 and seen[0] == 1 and seen[-1] == found
    assert seen == sorted(seen)


def test_a_notice_about_an_action_clears_on_the_next_one(acl):
    reader = Reader(acl, page=2)
    reader.query = "zebra quartz xylophone"
    assert reader.message.startswith("No match")
    reader.page = 3
    assert reader.message == ""
    reader.selection = {"page": 3, "start": "x", "end": 1}
    assert reader.message.startswith("That selection could not be read")
    reader.select(3, 0, 2)
    assert reader.message == ""


def test_a_scan_keeps_saying_it_has_no_text_layer_beside_a_notice(tmp_path):
    path = _copy("ocr_c02-22.pdf")(tmp_path)
    reader = Reader(path)
    reader.query = "anything"
    assert "has no text layer" in reader.message and "No match" in reader.message
    reader.query = ""
    assert "has no text layer" in reader.message and "No match" not in reader.message


def test_the_neighbours_are_rendered_in_the_background_once_the_page_is_shown(acl):
    reader = Reader(acl, page=5)
    # Nothing in the background while the widget is being made and sent.
    time.sleep(3 * Warmer.IDLE)
    assert not reader.cached(4) and not reader.cached(6)
    sharpen(reader)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (reader.cached(4) and reader.cached(6)):
        time.sleep(0.05)
    assert reader.cached(4) and reader.cached(6)
    reader.close()


@pytest.mark.parametrize(
    "stale",
    [
        "",  # nothing painted
        "3@1.5~low",  # another page's quick image
        "0@3.0~low",  # the same page at another zoom
        "0@1.5",  # a sharp key: nothing to sharpen
    ],
)
def test_a_painted_key_that_is_not_the_last_quick_image_changes_nothing(acl, stale):
    reader = Reader(acl)
    before = (reader.image_key, reader.image)
    reader.painted = stale
    assert (reader.image_key, reader.image) == before
    reader.close()


def test_a_far_page_comes_quick_alone_then_sharp_with_its_words_once_painted(acl):
    """Nothing competes with the browser's decode of the quick image: the sharp render, the
    words' message and the neighbours wait until the browser says the quick one is painted."""
    reader = sharpen(Reader(acl))
    keys = []
    reader.observe(lambda change: keys.append(change["new"]), names=["image_key"])
    reader.page = 9
    assert keys == [reader._key(9) + LOW] and reader.image_page == 9
    assert reader.words_page == 0  # the last page's words, which the browser does not show
    time.sleep(3 * Warmer.IDLE)
    assert not any(reader.cached(p) for p in (8, 9, 10))
    sharpen(reader)
    assert keys == [reader._key(9) + LOW, reader._key(9)]
    assert abs(png_size(reader.image)[0] - reader.page_size[0] * reader.zoom) <= 1
    assert reader.words_page == 9
    assert [w[4] for w in reader.words] == [w.text for w in documents.open_document(acl).words(9)]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (reader.cached(8) and reader.cached(10)):
        time.sleep(0.05)
    assert reader.cached(8) and reader.cached(10)  # then the background renders its neighbours
    reader.close()


def test_a_new_zoom_comes_quick_then_sharp_and_keeps_the_words(acl):
    reader = sharpen(Reader(acl))
    sent = []
    reader.observe(lambda change: sent.append(change["name"]), names=["image_key", "words"])
    reader.zoom = 3.0
    assert reader.image_key == reader._key(0) + LOW
    sharpen(reader)
    assert reader.image_key == reader._key(0) and sent == ["image_key", "image_key"]
    reader.close()


def test_a_page_rendered_already_comes_sharp_at_once(acl):
    reader = sharpen(Reader(acl))
    reader.ahead = 1
    keys = []
    reader.observe(lambda change: keys.append(change["new"]), names=["image_key"])
    reader.page = 1  # sent ahead: rendered
    reader.page = 0  # seen sharp before
    assert keys == [reader._key(1), reader._key(0)]
    reader.close()


def test_a_page_shown_quick_a_second_time_is_sharpened_again(acl):
    """The browser reports each quick image it paints only once; Python forgets the report
    with every quick image it sends, so the same quick key painted again is heard again."""
    reader = sharpen(Reader(acl))
    reader.page = 9
    sharpen(reader)
    reader._pages.clear()  # the page cache has dropped page 10 since
    reader.page = 3
    reader.page = 9
    assert reader.image_key == reader._key(9) + LOW and reader.painted == ""
    assert sharpen(reader).image_key == reader._key(9)
    reader.close()


def test_paging_through_a_book_keeps_the_page_cache_bounded(acl):
    reader = Reader(acl)
    for i in range(reader.page_count):
        reader.page = i
        assert sharpen(reader).image_page == i and reader.words_page == i
    assert len(reader._pages) <= PAGE_CACHE
    reader.close()


# -- one reader kept on screen, documents opened in it ------------------------------------------


@pytest.fixture
def attention(tmp_path):
    path = tmp_path / "attention.pdf"
    shutil.copy(corpus("attention-1706.03762.pdf"), path)
    return path


def test_an_empty_reader_shows_nothing_until_a_document_is_opened(acl):
    reader = Reader()
    assert (reader.doc, reader.file, reader.page_count, reader.image) == (None, "", 0, b"")
    with pytest.raises(ReaderError, match="no page to show"):
        reader.show(0)
    reader.page = 3  # the browser cannot make it render anything
    assert reader.image == b"" and reader.words == []
    reader.open_document(acl, file="papers/longeval.pdf", page=2)
    assert (reader.file, reader.page, reader.page_count) == ("papers/longeval.pdf", 2, 20)
    # Quick first, as with a new widget; sharp, with the words, once the browser says it
    # painted it.
    assert reader.image_key == reader._key(2) + LOW and reader.image_page == 2
    assert sharpen(reader).image_key == reader._key(2) and reader.words_page == 2
    assert [w[4] for w in reader.words] == [w.text for w in documents.open_document(acl).words(2)]
    reader.close()


def test_a_second_document_replaces_everything_about_the_first(acl, attention):
    reader = sharpen(Reader(acl))
    reader.ahead = 1
    reader.query = "Kendall"
    start = find_run(reader.words, ["Human", "judgments"])
    reader.selection = {"page": reader.page, "start": start, "end": start + 1}
    assert reader.passage() is not None and reader.hits and reader.ahead_key
    first_key = reader.image_key
    reader.open_document(attention)
    doc = documents.open_document(attention)
    assert (reader.file, reader.page, reader.page_count) == ("attention.pdf", 0, doc.page_count)
    assert reader.image_key == reader._key(0) + LOW != first_key + LOW
    assert [w[4] for w in sharpen(reader).words] == [w.text for w in doc.words(0)]
    assert reader.passage() is None and reader.selection == {} and reader.marked == []
    assert (reader.query, reader.hits, reader.search) == ("", [], {})
    assert (reader.ahead, reader.ahead_page, reader.ahead_key, reader.ahead_image) == (
        -1,
        -1,
        "",
        b"",
    )
    reader.close()


def test_a_late_ask_for_the_page_ahead_gets_the_page_of_the_document_open_now(acl, attention):
    reader = Reader()
    reader.open_document(acl)
    reader.open_document(attention)
    reader.ahead = 1  # asked by the view while it still showed the first document
    assert reader.ahead_key == reader._key(1) != "1@1.5#1"
    assert (
        reader.ahead_image == documents.open_document(attention).render(1, reader.zoom, "jpeg").data
    )
    reader.close()


def test_a_page_of_the_last_document_never_stands_for_the_same_page_of_the_next(acl, attention):
    reader = Reader()
    reader.open_document(acl)
    old = reader.doc
    reader.open_document(attention)
    # As if the background thread finished the last document's page after the switch.
    reader._pages.get(old, 1, reader.zoom)
    assert not reader.cached(1)
    assert (
        reader.page_image(1)
        == documents.open_document(attention).render(1, reader.zoom, "jpeg").data
    )
    assert len(reader._pages) <= PAGE_CACHE
    reader.close()


def test_highlights_follow_the_document_opened(acl, attention):
    reader = Reader()
    stale = {"id": "n.md", "label": "n", "quote": "Human judgments", "page": 1}
    reader.open_document(acl, highlights=[stale])
    assert [h["id"] for h in reader.highlights] == ["n.md"]
    reader.open_document(attention)
    assert reader.highlights == []
    reader.close()
