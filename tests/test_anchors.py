"""Re-anchoring stored passages in changed documents: exact, moved, fuzzy, orphan."""

from __future__ import annotations

import shutil
from dataclasses import asdict

import pymupdf
import pytest

from basehalf_core.documents.anchors import BadAnchor, find_quote, reanchor
from basehalf_core.documents.document import open_document

ABSTRACT_START = "The dominant sequence transduction models are based on complex recurrent"


def _anchor_from(doc, page_index, quote):
    match = find_quote(doc, quote, page_index + 1)[0]
    passage = doc.passage(page_index, match.word_indices)
    stored = asdict(passage)
    stored.pop("word_indices")
    return stored


@pytest.fixture
def attention(tmp_path, corpus_file):
    path = tmp_path / "attention.pdf"
    shutil.copy(corpus_file("attention-1706.03762.pdf"), path)
    return path


def test_an_unchanged_document_gives_exact(attention):
    doc = open_document(attention)
    stored = _anchor_from(doc, 0, ABSTRACT_START)
    anchor = reanchor(doc, stored)
    assert anchor.status == "exact"
    assert anchor.page == 1
    assert anchor.rects == stored["rects"]
    assert anchor.score == 100


def test_a_page_inserted_before_moves_the_anchor_to_the_next_page(attention, tmp_path):
    stored = _anchor_from(open_document(attention), 0, ABSTRACT_START)
    edition = tmp_path / "attention-v2.pdf"
    pdf = pymupdf.open(attention)
    cover = pdf.new_page(0)
    cover.insert_text((72, 72), "Reading copy for the study group")
    pdf.save(edition)
    doc = open_document(edition)

    anchor = reanchor(doc, stored)

    assert anchor.status == "moved"
    assert anchor.page == 2
    assert "page 2 (was 1)" in anchor.note
    words = doc.words(1)
    assert " ".join(words[k].text for k in anchor.word_indices).startswith("The dominant sequence")
    assert anchor.rects[0] == stored["rects"][0]  # same place on its new page


def test_a_quote_moved_on_its_page_is_reported_as_moved(attention, tmp_path):
    stored = _anchor_from(open_document(attention), 0, ABSTRACT_START)
    stored["rects"] = [[108.0, 700.0, 504.0, 712.0]]  # no longer where the quote is
    anchor = reanchor(open_document(attention), stored)
    assert anchor.status == "moved"
    assert anchor.page == 1
    assert anchor.rects != stored["rects"]
    assert "same page" in anchor.note


def _one_paragraph_pdf(path, text):
    pdf = pymupdf.open()
    for n in range(3):
        page = pdf.new_page()
        filler = f"Page {n + 1} holds notes about the history of printing presses in Europe."
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 300), filler, fontsize=11)
        if n == 1:
            page.insert_textbox(pymupdf.Rect(72, 320, 520, 700), text, fontsize=11)
    pdf.save(path)
    return path


FIRST = (
    "Attention lets every position look at every other position in one step, so the path "
    "between distant words stays short and the model trains in parallel."
)


def test_a_changed_quote_gives_fuzzy_with_the_new_text(tmp_path):
    old = open_document(_one_paragraph_pdf(tmp_path / "v1.pdf", FIRST))
    stored = _anchor_from(old, 1, "every position look at every other position in one step")
    changed = FIRST.replace("in one step", "in a single step")
    doc = open_document(_one_paragraph_pdf(tmp_path / "v2.pdf", changed))

    anchor = reanchor(doc, stored)

    assert anchor.status == "fuzzy"
    assert anchor.page == 2
    assert "single step" in anchor.found
    assert 75 <= anchor.score < 100
    assert anchor.rects


def test_a_removed_quote_is_an_orphan_and_says_so(tmp_path):
    old = open_document(_one_paragraph_pdf(tmp_path / "v1.pdf", FIRST))
    stored = _anchor_from(old, 1, "the path between distant words stays short")
    doc = open_document(_one_paragraph_pdf(tmp_path / "v2.pdf", "This page was rewritten."))
    anchor = reanchor(doc, stored)
    assert anchor.status == "orphan"
    assert anchor.rects == []
    assert anchor.page == 2
    assert "no longer" in anchor.note and "v2.pdf" in anchor.note


def test_orphan_when_the_page_with_the_quote_is_deleted(attention, tmp_path):
    stored = _anchor_from(open_document(attention), 0, ABSTRACT_START)
    pdf = pymupdf.open(attention)
    pdf.delete_page(0)
    shorter = tmp_path / "no-first-page.pdf"
    pdf.save(shorter)
    assert reanchor(open_document(shorter), stored).status == "orphan"


@pytest.mark.parametrize(
    ("name", "page", "typed"),
    [
        ("pdfjs_copy_paste_ligatures.pdf", 1, "deffffifl"),  # ligature glyphs in the PDF
        ("grobid_dehypenisation1.pdf", 1, "the dehypenisation of"),  # split by a line end
        ("grobid_dehypenisation1.pdf", 1, "We  test\nthe   DEHYPENISATION"),  # spacing, case
        ("attention-1706.03762.pdf", 1, "English-to-German translation task"),
        ("papermage_2023.eacl-main.121.pdf", 1, "model-generated summaries (Kryscinski"),
    ],
)
def test_find_quote_is_tolerant_of_how_the_pdf_stores_text(corpus_file, name, page, typed):
    doc = open_document(corpus_file(name))
    matches = find_quote(doc, typed, page)
    assert matches, typed
    assert matches[0].page == page
    assert matches[0].rects


def test_find_quote_gives_nothing_for_text_not_on_the_page(corpus_file):
    doc = open_document(corpus_file("attention-1706.03762.pdf"))
    assert find_quote(doc, ABSTRACT_START, 2) == []
    assert find_quote(doc, ABSTRACT_START, 99) == []
    assert [m.page for m in find_quote(doc, ABSTRACT_START)] == [1]


@pytest.mark.parametrize(
    ("stored", "field"),
    [
        ({"page": 1}, "quote"),
        ({"quote": "", "page": 1}, "quote"),
        ({"quote": "x", "page": "1"}, "page"),
        ({"quote": "x"}, "page"),
        ({"quote": 3, "page": 1}, "quote"),
    ],
)
def test_bad_anchors_are_refused_naming_the_field(corpus_file, stored, field):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    with pytest.raises(BadAnchor, match=field):
        reanchor(doc, stored)


def test_garbage_rects_fall_back_to_searching(corpus_file):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    anchor = reanchor(doc, {"quote": "short text", "page": 1, "rects": [["a"], None]})
    assert anchor.status == "moved" and anchor.page == 1


def test_half_a_broken_word_is_found_where_it_breaks_also_when_it_stands_elsewhere(corpus_file):
    # "eval-" / "uation" at a line end, and "longeval-summarization" in a footnote: a
    # selection of the first half alone is found at its own place, not only in the footnote
    # (hypothesis found it: start=102, length=0 in the test below).
    doc = open_document(corpus_file("papermage_2023.eacl-main.121.pdf"))
    words = doc.words(0)
    k = next(j for j, w in enumerate(words) if w.text == "eval-")
    assert words[k + 1].text == "uation"
    passage = doc.passage(0, doc.select_between(0, k, k))
    assert passage.quote == "eval-"
    found = [m.word_indices for m in find_quote(doc, passage.quote, 1)]
    assert [k] in found and len(found) >= 2, found


@pytest.mark.parametrize(
    ("name", "page_index"),
    [
        ("papermage_2023.eacl-main.121.pdf", 0),
        ("attention-1706.03762.pdf", 0),
        ("pymupdf_chinese-tables.pdf", 0),
        ("sf_GeoTopo-komprimiert.pdf", 10),
        ("pymupdf_mupdf_explored.pdf", 108),  # outline titles repeat ("Mono" in several parts)
    ],
)
def test_any_selection_re_anchors_exactly_and_is_found_verbatim(corpus_file, name, page_index):
    from hypothesis import given, settings
    from hypothesis import strategies as st

    doc = open_document(corpus_file(name))
    n = len(doc.words(page_index))
    assert n > 20

    @settings(max_examples=25, deadline=None)
    @given(st.integers(0, n - 1), st.integers(0, 25))
    def check(start, length):
        chosen = doc.select_between(page_index, start, min(n - 1, start + length))
        passage = doc.passage(page_index, chosen)
        stored = asdict(passage)
        anchor = reanchor(doc, stored)
        assert anchor.status == "exact", (passage.quote, anchor)
        stored["rects"] = []
        moved = reanchor(doc, stored)
        assert moved.status == "moved" and moved.page == page_index + 1, passage.quote
        # Ruling pages out before the word-level search never rules this one out.
        assert page_index + 1 in [m.page for m in find_quote(doc, passage.quote)]
        assert set(passage.word_indices) <= set(moved.word_indices) or any(
            set(passage.word_indices) <= set(m.word_indices)
            for m in find_quote(doc, passage.quote, page_index + 1)
        ), passage.quote

    check()


def test_an_epub_anchor_follows_its_chapter_when_the_page_numbers_change(corpus_file):
    doc = open_document(corpus_file("gutenberg_pg1342.epub"))
    toc = {title: page for _, title, page in doc.toc()}
    quote = "Mr. Darcy"  # said in many chapters
    pages_with = {m.page for m in find_quote(doc, quote)}
    assert len(pages_with) > 20
    first_in_10 = min(p for p in pages_with if toc["Chapter 10"] <= p < toc["Chapter 11"])
    # Recorded under another layout: the page number now falls in Chapter 3.
    stored = {"quote": quote, "page": toc["Chapter 3"] + 1, "chapter": "Chapter 10"}

    anchor = reanchor(doc, stored)

    assert anchor.status == "moved"
    assert anchor.page == first_in_10
    assert doc.chapter_of(anchor.page - 1) == "Chapter 10"
    # Without the chapter the nearest page to the recorded number wins instead.
    del stored["chapter"]
    assert toc["Chapter 3"] <= reanchor(doc, stored).page < toc["Chapter 5"]


def test_a_drag_keeping_a_word_set_otherwise_is_found_word_for_word(corpus_file):
    """A drag across the Attention paper's authors keeps "avaswani@google.com" (set in a
    typewriter face, opening a line of e-mails in the authors' face) and leaves out
    "lukaszkaiser@google.com" (a wide gap off its line's kept words): its quote is in no run
    of one style, and re-anchored by text alone it came back fuzzy. A style's run holds what
    a drag across it keeps (``runs.make_runs``), so it is found word for word."""
    doc = open_document(corpus_file("attention-1706.03762.pdf"))
    passage = doc.passage(0, doc.select_between(0, 17, 42))
    assert "avaswani@google.com" in passage.quote
    assert "lukaszkaiser" not in passage.quote
    stored = asdict(passage)
    stored["rects"] = []
    moved = reanchor(doc, stored)
    assert (moved.status, moved.page) == ("moved", 1), moved
