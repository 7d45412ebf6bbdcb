"""Documents on real corpus files: open, render, words in reading order, passages, bad input."""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading

import pymupdf
import pytest

from basehalf_core.documents import anchors, page_search, pages
from basehalf_core.documents import document as D
from basehalf_core.documents.document import open_document
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.text import hyphen_joins, is_english, line_vocabulary
from basehalf_core.documents.text_blocks import Block


def _index(words, text, start=0):
    for w in words[start:]:
        if w.text == text:
            return w.index
    raise AssertionError(f"no word {text!r} after {start}")


# -- reading order across columns --------------------------------------------------------------


def test_two_column_sentence_reads_across_the_column_break_without_the_footnote(corpus_file):
    doc = open_document(corpus_file("papermage_2023.eacl-main.121.pdf"))
    words = doc.words(0)
    start = _index(words, "judgments") - 1  # "Human judgments are considered ..." (Introduction)
    end = _index(words, "2020).", _index(words, "(Celikyilmaz"))
    swept = range(start, end + 1)
    # The footnote at the foot of the left column lies between the two halves in reading order.
    assert {words[k].role for k in swept} >= {"body", "footnote"}

    passage = doc.passage(0, doc.select_between(0, start, end))

    assert passage.quote == (
        "Human judgments are considered the gold standard for evaluating model-generated "
        "summaries (Kryscinski et al., 2019; Fabbri et al., 2021) and generated text more "
        "broadly (Celikyilmaz et al., 2020)."
    )
    assert passage.page == 1
    assert passage.rects[0][2] < 297 < passage.rects[-1][0]  # starts left, ends right
    assert "longeval" not in passage.quote
    # The widget sends the whole DOM range, footnote included: same passage.
    assert doc.passage(0, list(swept)).quote == passage.quote


def test_words_come_in_column_order_and_indices_match_positions(corpus_file):
    doc = open_document(corpus_file("papermage_2023.eacl-main.121.pdf"))
    words = doc.words(0)
    assert [w.index for w in words] == list(range(len(words)))
    left_last = _index(words, "sum-", _index(words, "judgments"))  # foot of the left column
    right_first = _index(words, "maries")  # top of the right column
    assert right_first > left_last
    body_between = [w for w in words[left_last + 1 : right_first] if w.role == "body"]
    assert body_between == []
    assert {w.role for w in words if w.text == "1650"} == {"footer"}


def test_a_selection_wholly_inside_a_footnote_keeps_it(corpus_file):
    doc = open_document(corpus_file("papermage_2023.eacl-main.121.pdf"))
    words = doc.words(0)
    notes = [w.index for w in words if w.role == "footnote"]
    passage = doc.passage(0, doc.select_between(0, notes[0], notes[2]))
    assert passage.quote.startswith("1https://github.com/martiansideofthemoon/")


def test_attention_margin_stamp_is_flagged_and_left_out_of_a_rectangle_across_it(corpus_file):
    doc = open_document(corpus_file("attention-1706.03762.pdf"))
    words = doc.words(0)
    stamp = [w for w in words if w.role == "margin"]
    assert " ".join(w.text for w in stamp) == "arXiv:1706.03762v5 [cs.CL] 6 Dec 2017"
    assert min(w.index for w in stamp) > max(w.index for w in words if w.role == "body")
    # From the left page edge (through the stamp) across the whole abstract.
    passage = doc.passage_in_rect(0, (0, 355, 612, 530))
    assert passage.quote.startswith("The dominant sequence transduction models are based on")
    assert passage.quote.endswith("both with large and limited training data.")
    assert "arXiv" not in passage.quote
    assert all(r[0] > 100 for r in passage.rects)


def test_footnotes_of_a_single_column_page_follow_the_body(corpus_file):
    doc = open_document(corpus_file("attention-1706.03762.pdf"))
    words = doc.words(0)
    roles = [w.role for w in words]
    first_note = roles.index("footnote")
    assert words[first_note].text == "∗Equal"
    assert "body" not in roles[first_note:]
    assert [w.text for w in words if w.role == "footer"][:2] == ["31st", "Conference"]


# -- normalisation -----------------------------------------------------------------------------


def test_ligature_glyphs_are_expanded_in_passages_and_found_by_search(corpus_file):
    doc = open_document(corpus_file("pdfjs_copy_paste_ligatures.pdf"))
    raw = pymupdf.open(corpus_file("pdfjs_copy_paste_ligatures.pdf"))[0].get_text("words")
    assert any(ch in raw[0][4] for ch in "ﬀﬁﬂﬃﬄﬅﬆ")  # the PDF really holds ligature glyphs
    words = doc.words(0)
    passage = doc.passage(0, range(len(words)))
    assert passage.quote == "abcdeffffiflffifflststghijklmno"
    hits = page_search.search(doc, "ffl")
    assert [page for page, _ in hits] == [0]


def test_a_word_split_by_a_line_end_hyphen_is_joined(corpus_file):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    words = doc.words(0)
    assert "dehypenisa-" in [w.text for w in words]
    assert doc.passage(0, range(len(words))).quote == "We test the dehypenisation of a short text."
    assert page_search.search(doc, "dehypenisation")[0][0] == 0


@pytest.mark.parametrize(
    ("name", "page", "head", "expected"),
    [
        ("attention-1706.03762.pdf", 0, "English-", "English-to-German"),
        ("attention-1706.03762.pdf", 1, "transduc-", "transduction"),
        ("attention-1706.03762.pdf", 3, "(multi-", "(multiplicative"),
        ("papermage_2023.eacl-main.121.pdf", 0, "prac-", "practice"),
        ("papermage_2023.eacl-main.121.pdf", 0, "an-", "annotation"),
        ("papermage_2023.eacl-main.121.pdf", 1, "Kryscin-", "Kryscinski"),
        ("papermage_2023.eacl-main.121.pdf", 1, "Multi-", "Multi-News"),
        ("papermage_2023.eacl-main.121.pdf", 1, "short-", "short-form"),
    ],
)
def test_line_end_hyphens_join_split_words_and_keep_real_hyphens(
    corpus_file, name, page, head, expected
):
    doc = open_document(corpus_file(name))
    words = doc.words(page)
    k = _index(words, head)
    assert (words[k].block, words[k].line) != (words[k + 1].block, words[k + 1].line)
    assert doc.passage(page, [k, k + 1]).quote.rstrip(".,;:)") == expected
    assert page in [p for p, _ in page_search.search(doc, expected)]


# The words of a few lines of English and of French, as a document's vocabulary.
ENGLISH = line_vocabulary(["The results of this study show that the model is good at it."])
FRENCH = line_vocabulary(["Les résultats de cette étude montrent que le modèle est bon."])


@pytest.mark.parametrize(
    ("head", "tail", "vocabulary", "joins"),
    [
        ("al-", "ternative", set(), True),  # the parts are no words of the document
        ("model-", "generated", {"model", "generated"}, False),
        ("Anglo-", "Saxon", set(), False),  # a capital starts a word of its own
        ("Multi-", "News", set(), False),  # ... also when the head is not in capitals
        ("Pocket-", "Sniffer", {"pocketsniffer"}, True),  # a name the document spells whole
        ("Pocket-", "Sniffer", {"pocketsniffer", "pocket-sniffer"}, False),  # or as a compound
        ("GRO-", "BID", {"grobid"}, True),  # a name in capitals the document spells whole
        ("GRO-", "BID", set(), False),  # in capitals the break alone cannot tell
        ("Style-", "GAN2", {"stylegan"}, True),  # a name's capitals broken off, spelt whole
        ("Style-", "GAN2", set(), False),
        ("Style-", "GAN2", {"stylegan", "style-gan"}, False),  # the document's own compound
        ("SciB-", "ERT:", {"scibert"}, True),
        ("NSF-", "CCF-0917274.", {"nsfccf"}, False),  # the tail's own hyphen: a compound
        # the document writes "higher-privileged" inside a line: the tail ends compounds
        ("word-", "tokenized", line_vocabulary(["text is sentence-tokenized"]), False),
        ("word-", "tokenized", line_vocabulary(["text is sentence tokenized"]), True),
        # ... but not after a prefix's few letters: "re-"/"search" beside "beam-search"
        ("re-", "search", line_vocabulary(["a beam-search decoder"]), True),
        # ... unless the document writes this very compound inside a line, also when it
        # writes the joined word too
        ("pre-", "copy", line_vocabulary(["the pre-copy phase ends, precopy"]), False),
        ("pre-", "copy", line_vocabulary(["the copy phase ends, precopy"]), True),
        ("infor-", "mation", line_vocabulary(["a higher-privileged mode"]), True),
        # a name the document writes on its own before a word in lower case: a compound
        ("Springer-", "enhanced", {"springer", "layout"}, False),
        ("Uni-", "versity", {"uni", "layout"}, True),  # a short head: a word broken in two
        ("Springer-", "enhanced", {"layout"}, True),  # a head the document never writes
        # an acronym before a word in small letters: a compound, whatever the words
        ("ANN-", "enhanced", {"ann"}, False),
        ("AGN-", "dominated", set(), False),
        ("Ann-", "ual", set(), True),  # a word in capitals and small letters is not one
        # English's self- compounds keep their hyphen, whatever the document writes ...
        ("self-", "selectively", {"self", "selectively"}, False),
        ("self-", "attention", {"attention"}, False),
        ("self-", "ish", {"selfish"}, True),  # ... but a word it spells whole
        # an article, "be" or a pronoun opens closed words, both halves words or not
        ("an-", "other", {"an", "other"}, True),
        ("be-", "cause", {"be", "cause"}, True),
        ("with-", "out", {"with", "out"}, True),
        ("an-", "other", line_vocabulary(["an an-other case"]), False),  # the document's own
        ("in-", "house", {"in", "house"}, False),  # a preposition does head compounds
        # a compound broken at its own hyphen after another keeps it ...
        ("works-in-", "progress.", {"works", "in"}, False),
        ("Squeeze-and-", "excitation", {"squeeze", "and"}, False),
        ("self-evi-", "dent", {"self"}, True),  # ... a word broken inside one does not
        # a review copy's line number printed between a line's "use-" and the next line's
        # "ful" makes no word of "ful"
        ("use-", "ful", line_vocabulary(["we use them", "models are use-", "037", "ful"]), True),
        # where an English document says nothing, English does: two words that make no word
        # together are a compound, a word it spells whole was broken in two ...
        ("high-", "quality", ENGLISH, False),
        ("egg-", "producing", ENGLISH, False),
        ("in-", "complete", ENGLISH | {"in", "complete"}, True),
        ("pre-in-", "dustrial", ENGLISH | {"in"}, True),  # after a compound's hyphen too
        ("Prevent-", "able", ENGLISH | {"prevent"}, True),  # a word, not a name and a word
        ("Cur-", "ran", ENGLISH, True),  # ... but a name is made of any syllables
        ("pro-", "jet", FRENCH, True),  # and a French document's words are not English
    ],
)
def test_a_line_end_hyphen_joins_by_the_documents_own_words(head, tail, vocabulary, joins):
    assert hyphen_joins(head, tail, vocabulary) is joins


@pytest.mark.parametrize(
    ("vocabulary", "english"),
    [(ENGLISH, True), (FRENCH, False), (set(), False), ({"ceci", "est", "un", "test"}, False)],
)
def test_a_document_is_english_by_its_words(vocabulary, english):
    assert is_english(vocabulary) is english


def test_a_non_breaking_hyphen_at_a_line_end_is_a_break(tmp_path):
    # Typst and some Word templates hyphenate with U+2011; one inside a line stays.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("cjk")  # a built-in font whose text layer keeps U+2011
    first = "launch a fire\u2011breathing web applica\u2011"
    writer.append((72, 100), first, font=font, fontsize=11)
    writer.append((72, 114), "tion. Tech stack: Python and more.", font=font, fontsize=11)
    writer.write_text(page)
    doc.save(tmp_path / "nbh.pdf")
    ours = open_document(tmp_path / "nbh.pdf")
    words = ours.words(0)
    quote = ours.passage(0, range(len(words))).quote
    assert quote == "launch a fire\u2011breathing web application. Tech stack: Python and more."


def test_characters_that_print_nothing_make_no_word(tmp_path):
    # Google Docs indents with zero-width spaces; an exporter leaves U+FFFC for a picture.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    writer = pymupdf.TextWriter(page.rect)
    font = pymupdf.Font("cjk")  # a built-in font whose text layer keeps them
    writer.append((72, 100), "Dear Friends,", font=font, fontsize=11)
    writer.append(
        (72, 114), "\u200b\u200bsome of\u200b you know \ufffc the store", font=font, fontsize=11
    )
    writer.write_text(page)
    doc.save(tmp_path / "unseen.pdf")
    ours = open_document(tmp_path / "unseen.pdf")
    words = ours.words(0)
    read = "Dear Friends, some of you know the store"
    assert " ".join(w.text for w in words) == read
    assert ours.passage(0, range(len(words))).quote == read


def test_a_hyphen_before_a_piece_of_the_same_line_set_otherwise_is_no_line_end():
    # An LREC paper's label "Eight Recent News Documents" in bold, "- From the Daily" right
    # after it in roman: two segments (two "lines" to the words), one printed line.
    from types import SimpleNamespace

    from basehalf_core.documents.text import join_words

    def word(text, line, x0, x1, y=100.0):
        return SimpleNamespace(
            text=text, block=0, line=line, rect=(x0, y - 9, x1, y + 2), glue=False,
            broken=False, style="Times@10.0",
        )  # fmt: skip

    words = [
        word("News", 0, 124.2, 146.9),
        word("Documents-", 0, 155.6, 206.7),
        word("From", 1, 215.6, 237.4),
        word("the", 1, 246.0, 258.2),
        word("Daily", 1, 267.0, 289.2),
        word("Telegraph", 2, 54.0, 95.0, y=112.0),
    ]
    assert join_words(words, set()) == "News Documents- From the Daily Telegraph"
    # A line that does end in a hyphen still joins its broken word.
    words[4:] = [word("tele-", 1, 267.0, 289.2), word("graph", 2, 54.0, 80.0, y=112.0)]
    assert join_words(words, set()).endswith("From the telegraph")


def test_a_word_drawn_twice_at_the_same_place_is_read_once(tmp_path):
    # "Fake bold": a voucher draws its notice twice, a hair apart, as two text objects.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=492)
    for dx in (0.0, 0.3):
        page.insert_text((36 + dx, 355), "Before redeeming this voucher, please write", fontsize=8)
    page.insert_text((36, 345), "Details of the offer follow below.", fontsize=8)
    doc.save(tmp_path / "twice.pdf")
    ours = open_document(tmp_path / "twice.pdf")
    words = ours.words(0)
    quote = ours.passage(0, range(len(words))).quote
    assert quote == "Details of the offer follow below. Before redeeming this voucher, please write"


def test_a_compound_inside_a_line_is_evidence_and_a_line_end_break_is_not():
    vocab = line_vocabulary(["a higher-privileged mode, state-of-the-art", "and lower-", "level"])
    assert {"higher-privileged", "-privileged", "-art"} <= vocab
    assert "-level" not in vocab and "lower" not in vocab


def test_normalise_collapses_whitespace_and_expands_ligatures():
    assert D.normalise("  the  ﬁrst\n\tworkﬂow ") == "the first workflow"


# -- Chinese: per-character selection ------------------------------------------------------------


def test_half_a_chinese_sentence_can_be_selected_across_a_line(corpus_file):
    doc = open_document(corpus_file("pymupdf_chinese-tables.pdf"))
    words = doc.words(0)
    start = _index(words, "受")
    assert [w.text for w in words[start : start + 5]] == ["受", "不", "利", "经", "济"]
    end = _index(words, "大", start)  # "...环境的影响不大" on the next line
    passage = doc.passage(0, doc.select_between(0, start, end))
    assert passage.quote == "受不利经济环境的影响不大"
    assert len(passage.rects) == 2
    line_width = max(
        w.rect[2] for w in words if (w.block, w.line) == (words[start].block, words[start].line)
    ) - min(
        w.rect[0] for w in words if (w.block, w.line) == (words[start].block, words[start].line)
    )
    assert passage.rects[0][2] - passage.rects[0][0] < line_width  # only part of the first line
    year = _index(words, "2023")
    assert words[year].glue and words[year + 1].text == "年"


# -- rotation, scans, rendering ------------------------------------------------------------------


def _ink(pix: pymupdf.Pixmap, box) -> int:
    """Dark pixels inside a 0..1 box of the pixmap."""
    x0, y0 = int(box[0] * pix.width), int(box[1] * pix.height)
    x1, y1 = int(box[2] * pix.width) + 1, int(box[3] * pix.height) + 1
    n = 0
    for y in range(max(y0, 0), min(y1, pix.height)):
        for x in range(max(x0, 0), min(x1, pix.width)):
            if sum(pix.pixel(x, y)[:3]) < 3 * 128:
                n += 1
    return n


def test_rotated_page_words_and_boxes_land_on_the_rendered_image(corpus_file):
    doc = open_document(corpus_file("plumber_nics-background-checks-2015-11-rotated.pdf"))
    words = doc.words(0)
    texts = [w.text for w in words]
    assert len(words) == 1504
    assert "Alabama" in texts and "Wyoming" in texts
    w_disp, h_disp = doc.page_size(0)
    rendered = doc.render(0, 1.0)
    assert (rendered.width, rendered.height) == (round(w_disp), round(h_disp))
    pix = pymupdf.Pixmap(rendered.png)
    # Words with letters (state names, headings): some zero cells of this table are not inked.
    lettered = [w for w in words if w.text.isalpha()][::10]
    assert all(_ink(pix, w.box) > 0 for w in lettered)
    sample = words[::50]
    # The unrotated rects, used as if they were display boxes, mostly miss the text.
    w0, h0 = 1008.0, 612.0
    naive = sum(
        1
        for w in sample
        if _ink(pix, (w.rect[0] / w0, w.rect[1] / h0, w.rect[2] / w0, w.rect[3] / h0)) > 0
    )
    assert naive < len(sample) // 2
    assert all(0 <= v <= 1 for w in words for v in w.box)


def test_scanned_page_renders_but_has_no_text(corpus_file):
    doc = open_document(corpus_file("ocr_c02-22.pdf"))
    png = doc.render_png(0, 1.0)
    assert png.startswith(b"\x89PNG")
    assert doc.has_text(0) is False
    assert doc.words(0) == []
    assert "no text layer" in doc.no_text_reason(0)


def test_render_of_a_20000_point_wide_page_is_capped(tmp_path):
    path = tmp_path / "wide.pdf"
    pdf = pymupdf.open()
    page = pdf.new_page(width=14400, height=1000)  # PDF's largest page size
    page.set_mediabox(pymupdf.Rect(0, 0, 20000, 1000))
    page.insert_text((100, 500), "very wide page", fontsize=200)
    pdf.save(path)
    doc = open_document(path)
    assert doc.page_size(0)[0] == pytest.approx(20000)
    rendered = doc.render(0, 4.0)
    assert rendered.zoom < 4.0
    assert rendered.width * rendered.height <= D.MAX_RENDER_PIXELS
    assert rendered.width == pytest.approx(20000 * rendered.zoom, abs=2)


def test_word_dict_is_json_ready(corpus_file):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    d = doc.words(0)[3].as_dict()
    assert d["t"] == "dehypenisa-" and d["i"] == 3 and d["r"] == "body" and len(d["b"]) == 4


# -- EPUB ----------------------------------------------------------------------------------------


def test_epub_opens_with_chapters(corpus_file):
    doc = open_document(corpus_file("gutenberg_pg1342.epub"))
    assert doc.kind == "epub"
    assert doc.page_count > 300
    titles = [t for _, t, _ in doc.toc()]
    assert "Chapter 1" in titles
    page = next(p for _, t, p in doc.toc() if t == "Chapter 6")
    assert doc.chapter_of(page - 1) == "Chapter 6"
    words = doc.words(page - 1)
    passage = doc.passage(page - 1, range(min(10, len(words))))
    assert passage.chapter == "Chapter 6"


# -- bad input -----------------------------------------------------------------------------------


def _text_named_pdf(tmp_path):
    p = tmp_path / "notes.pdf"
    p.write_text("just some notes, not a PDF\n")
    return p


def _broken_epub(tmp_path, corpus_file):
    p = tmp_path / "broken.epub"
    p.write_bytes(corpus_file("gutenberg_pg1342.epub").read_bytes()[:4000])
    return p


def _no_pages(tmp_path):
    p = tmp_path / "nopages.pdf"
    p.write_bytes(
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n"
    )
    return p


def _truncated(tmp_path, corpus_file):
    p = tmp_path / "truncated.pdf"
    p.write_bytes(corpus_file("attention-1706.03762.pdf").read_bytes()[:1_000_000])
    return p


BAD = [
    (
        "encrypted",
        lambda t, c: c("sf_libreoffice-writer-password.pdf"),
        None,
        D.NeedsPassword,
        "password",
    ),
    (
        "wrong password",
        lambda t, c: c("sf_libreoffice-writer-password.pdf"),
        "nope",
        D.WrongPassword,
        "password",
    ),
    ("header only", lambda t, c: c("ocr_invalid.pdf"), None, D.BrokenDocument, "ocr_invalid.pdf"),
    ("empty", lambda t, c: c("plumber_empty.pdf"), None, D.EmptyFile, "empty"),
    ("text named .pdf", lambda t, c: _text_named_pdf(t), None, D.NotADocument, "not a PDF"),
    ("broken zip", _broken_epub, None, D.BrokenDocument, "damaged or truncated"),
    ("no pages", lambda t, c: _no_pages(t), None, D.NoPages, "no pages"),
    ("truncated", _truncated, None, D.NoPages, "no pages"),
    ("folder", lambda t, c: t, None, D.NotADocument, "folder"),
    ("missing", lambda t, c: t / "gone.pdf", None, D.DocumentError, "not found"),
]


@pytest.mark.parametrize(
    ("maker", "password", "error", "words"), [b[1:] for b in BAD], ids=[b[0] for b in BAD]
)
def test_bad_documents_raise_a_named_error_naming_the_file(
    tmp_path, corpus_file, maker, password, error, words
):
    path = maker(tmp_path, corpus_file)
    with pytest.raises(error) as info:
        open_document(path, password=password)
    assert path.name in str(info.value)
    assert words in str(info.value)
    assert isinstance(info.value, D.DocumentError)


def test_the_right_password_opens_the_encrypted_pdf(corpus_file):
    doc = open_document(corpus_file("sf_libreoffice-writer-password.pdf"), password="openpassword")
    assert doc.page_count == 1 and doc.has_text(0)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("pdfjs_helloworld-bad.pdf", ["Hello,", "world!"]),
        ("pdfminer_zen_of_python_corrupted.pdf", ["Beautiful", "is", "better", "than", "ugly."]),
        ("epubcheck_epubsample001.epub", ["main", "hello,", "world."]),  # junk before the prolog
        ("epubcheck_epubsample017.epub", ["main", "hello,", "world."]),  # its CSS is missing
    ],
)
def test_damaged_but_usable_documents_open_render_and_give_words(corpus_file, name, expected):
    doc = open_document(corpus_file(name))
    page = next(i for i in range(doc.page_count) if expected[0] in [w.text for w in doc.words(i)])
    texts = [w.text for w in doc.words(page)]
    k = texts.index(expected[0])
    assert texts[k : k + len(expected)] == expected
    assert doc.render_png(page, 1.0).startswith(b"\x89PNG")


@pytest.mark.parametrize("bad", [-1, 1, 99, "0", None, True])
def test_a_page_outside_the_document_is_refused_naming_it(corpus_file, bad):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    with pytest.raises(D.PageOutOfRange, match=repr(bad).replace("(", r"\(")):
        doc.words(bad)


@pytest.mark.parametrize("bad", [[], [9], [-1], [0, 100], ["a"]])
def test_bad_word_indices_are_refused(corpus_file, bad):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    with pytest.raises(D.BadSelection):
        doc.passage(0, bad)


@pytest.mark.parametrize("zoom", [0, -1, float("nan"), float("inf"), "2"])
def test_bad_zoom_is_refused(corpus_file, zoom):
    doc = open_document(corpus_file("grobid_dehypenisation1.pdf"))
    with pytest.raises(ValueError, match="zoom"):
        doc.render(0, zoom)


# -- caching and threads -------------------------------------------------------------------------


def test_open_document_reuses_an_unchanged_file_and_reopens_a_changed_one(tmp_path, corpus_file):
    path = tmp_path / "a.pdf"
    shutil.copy(corpus_file("grobid_dehypenisation1.pdf"), path)
    first = open_document(path)
    assert open_document(path) is first
    shutil.copy(corpus_file("pdfjs_copy_paste_ligatures.pdf"), path)
    second = open_document(path)
    assert second is not first
    assert second.fingerprint != first.fingerprint
    assert second.fingerprint.startswith("sha256:") and len(second.fingerprint) == 71


def test_closed_document_says_so(tmp_path, corpus_file):
    path = tmp_path / "a.pdf"
    shutil.copy(corpus_file("grobid_dehypenisation1.pdf"), path)
    doc = open_document(path)
    doc.close()
    with pytest.raises(D.DocumentClosed, match="closed"):
        doc.render_png(0)
    assert open_document(path) is not doc


def test_sessions_on_threads_get_the_same_pages_as_one_thread(corpus_file):
    doc = D.Document(corpus_file("attention-1706.03762.pdf"))
    expected = {i: (doc.render_png(i, 0.5), [w.text for w in doc.words(i)]) for i in range(4)}
    doc._pages.clear()
    errors, results = [], {}

    def reader(n: int) -> None:
        try:
            for i in [(n + k) % 4 for k in range(4)]:
                results[(n, i)] = (doc.render_png(i, 0.5), [w.text for w in doc.words(i)])
        except Exception as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=reader, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(results[(n, i)] == expected[i] for n in range(4) for i in range(4))


def test_a_page_being_laid_out_does_not_hold_up_a_render_elsewhere(corpus_file, monkeypatch):
    # One PyMuPDF lock serves every reader of the process (every learner of a class): it
    # must be held for PyMuPDF's calls only, not for the reading order worked out in Python.
    doc = D.Document(corpus_file("attention-1706.03762.pdf"))
    other = D.Document(corpus_file("grobid_dehypenisation1.pdf"))
    real = pages.order_blocks
    seen: list[bool] = []

    def ordering_while_another_renders(*args, **kwargs):
        t = threading.Thread(target=other.render_png, args=(0, 0.3))
        t.start()
        t.join(timeout=5)
        seen.append(not t.is_alive())  # the render finished while this page was laid out
        return real(*args, **kwargs)

    monkeypatch.setattr(pages, "order_blocks", ordering_while_another_renders)
    words = doc.words(0)
    assert seen == [True]
    assert "Attention" in " ".join(w.text for w in words)


# -- reading order on synthetic boxes --------------------------------------------------------------


def _b(id_, x0, y0, x1, y1, size=10.0, first="A", lines=5, direction=(1.0, 0.0)):
    return Block(id_, (x0, y0, x1, y1), direction, size, 100, lines, first)


def test_columns_are_read_left_first_even_when_their_paragraphs_end_level():
    blocks = [
        _b("title", 100, 50, 500, 80, size=16, lines=1),
        _b("R1", 310, 100, 500, 300),
        _b("L1", 60, 100, 290, 300),
        _b("L2", 60, 320, 290, 600),
        _b("R2", 310, 320, 500, 600),
        _b("note", 60, 620, 290, 680, size=8, first="1", lines=3),
        _b("page", 280, 760, 300, 770, lines=1),
        _b("stamp", 10, 200, 30, 500, direction=(0.0, -1.0)),
    ]
    order = order_blocks(blocks, 792)
    assert [i for i, _ in order] == ["title", "L1", "L2", "note", "R1", "R2", "page", "stamp"]
    assert dict(order) == {
        "title": "body",
        "L1": "body",
        "L2": "body",
        "note": "footnote",
        "R1": "body",
        "R2": "body",
        "page": "footer",
        "stamp": "margin",
    }


def test_a_full_width_figure_splits_the_columns_into_bands():
    blocks = [
        _b("L1", 60, 100, 290, 300),
        _b("R1", 310, 100, 500, 300),
        _b("fig", 60, 320, 500, 400, size=9),
        _b("L2", 60, 420, 290, 600),
        _b("R2", 310, 420, 500, 600),
    ]
    assert [i for i, _ in order_blocks(blocks, 792)] == ["L1", "R1", "fig", "L2", "R2"]


def test_a_bare_page_number_under_the_text_is_a_footer(corpus_file):
    doc = open_document(corpus_file("sf_multicolumn.pdf"))
    words = doc.words(0)
    assert (words[-1].text, words[-1].role) == ("1", "footer")
    assert all(w.role == "body" for w in words[:-1])


def test_page_payload_and_boxes_agree_with_the_words(corpus_file):
    doc = open_document(corpus_file("plumber_nics-background-checks-2015-11-rotated.pdf"))
    payload = doc.page_payload(0, 1.0)
    assert payload["page"] == 1 and payload["has_text"] and payload["note"] is None
    assert payload["png"].startswith(b"\x89PNG")
    assert [d["t"] for d in payload["words"]] == [w.text for w in doc.words(0)]
    word = doc.words(0)[10]
    (box,) = doc.to_boxes(0, [word.rect])
    assert box == pytest.approx(word.box)
    scan = open_document(corpus_file("ocr_c02-22.pdf")).page_payload(0, 0.5)
    assert scan["has_text"] is False and "no text layer" in scan["note"]


def test_closing_while_other_sessions_read_gives_only_named_errors(corpus_file):
    doc = D.Document(corpus_file("attention-1706.03762.pdf"))
    errors: list[Exception] = []

    def reader() -> None:
        for i in range(40):
            try:
                doc.render_png(i % 15, 0.3)
                doc.words(i % 15)
            except D.DocumentClosed:
                return
            except Exception as exc:  # collected, asserted below
                errors.append(exc)
                return

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    doc.render_png(0, 0.3)
    doc.close()
    for t in threads:
        t.join()
    assert errors == []
    with pytest.raises(D.DocumentClosed):
        doc.words(0)


@pytest.mark.parametrize(
    ("name", "first", "last", "expected"),
    [
        # ACL 2006: "arti-" ends the left column, "cles" opens the right one.
        ("pdfminer_naacl06-shinyama.pdf", "repeat", "patterns,",
         "repeat the whole process: specify articles and adjust its patterns,"),
        # LaTeX two columns: a sentence that wraps from the left column into the right.
        ("sf_multicolumn.pdf", "Donec", "Phasellus",
         "Donec nonummy pellentesque ante. Phasellus"),
    ],
)  # fmt: skip
def test_more_two_column_papers_read_across_the_break(corpus_file, name, first, last, expected):
    doc = open_document(corpus_file(name))
    words = doc.words(0)
    # The first word in reading order that jumps right and far up: the top of the right column.
    col_break = next(
        k
        for k in range(1, len(words))
        if words[k].rect[0] > words[k - 1].rect[0] and words[k].rect[1] < words[k - 1].rect[1] - 200
    )
    start = max(w.index for w in words[:col_break] if w.text == first)
    end = min(w.index for w in words[col_break:] if w.text == last)
    assert doc.passage(0, doc.select_between(0, start, end)).quote == expected


def test_german_textbook_ligatures_are_searchable_and_quoted_expanded(corpus_file):
    path = corpus_file("sf_GeoTopo-komprimiert.pdf")
    raw = [w[4] for w in pymupdf.open(path)[0].get_text("words")]
    assert "Auﬂage," in raw  # the file holds the ﬂ ligature
    doc = open_document(path)
    assert [page for page, _ in page_search.search(doc, "Auflage")][:1] == [0]
    k = next(w.index for w in doc.words(0) if w.text.startswith("Au") and "age" in w.text)
    assert doc.passage(0, [k]).quote == "Auflage,"


def test_the_text_rules_load_without_pymupdf():
    # documents.text is the pure floor of the documents room: usable with no PDF library.
    code = "import sys, basehalf_core.documents.text; print('pymupdf' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_sub_and_superscripts_are_written_out_in_quotes_and_old_quotes_still_anchor(corpus_file):
    doc = open_document(corpus_file("attention-1706.03762.pdf"))
    words = doc.words(5)  # §3.5 Positional Encoding
    k = next(w.index for w in words if w.text.startswith("sin("))
    quote = doc.passage(5, range(k - 3, k + 1)).quote
    assert quote == "frequencies: PE_(pos,2i) = sin(pos/10000^(2i/d_model))"
    assert page_search.search(doc, "10000^(2i/d_model)")[0][0] == 5
    words = doc.words(3)
    k = next(w.index for w in words if w.text.startswith("d_k"))
    passage = doc.passage(3, range(k - 5, k + 1))
    assert passage.quote == "queries and keys of dimension d_k,"
    # A note grown before scripts were written out stored "dk": same place, still exact.
    old = {"quote": "queries and keys of dimension dk,", "page": 4, "rects": passage.rects}
    assert anchors.reanchor(doc, old).status == "exact"
    # A raised footnote number at the start of a footnote is its marker, not a superscript.
    from basehalf_core.documents.text import script_text

    assert script_text([("1", 7.0, 96.0), ("a", 10.0, 100.0)]) == "1a"
    assert script_text([("d", 10.0, 100.0), ("k", 7.0, 102.0)]) == "d_k"


def test_a_soft_hyphen_after_a_compounds_hyphen_keeps_it_and_goes_on():
    """InDesign breaks "science-to-policy" at its own hyphen and sets a soft hyphen after
    it ("science-" and U+00AD at the line's end): the compound reads whole."""
    from types import SimpleNamespace

    from basehalf_core.documents.text import join_words

    words = [
        SimpleNamespace(
            text=text,
            block=0,
            line=n,
            rect=(54.0, 90 + 12 * n, 96.0, 101 + 12 * n),
            glue=False,
            broken=False,
            style="Times@10.0",
        )
        for n, text in enumerate(["science-\u00ad", "to-policy"])
    ]
    assert join_words(words, set()) == "science-to-policy"


def test_a_vocabulary_that_grew_is_counted_again():
    """The answer is kept per set and size: a document's vocabulary grows as its pages are
    read, and an English page read after a French one turns it English."""
    vocabulary = set(FRENCH)
    assert not is_english(vocabulary)
    vocabulary |= line_vocabulary(["the model and the data show that it works well " * 3])
    vocabulary |= {"results", "study", "paper", "method", "reading", "order", "page", "text"}
    assert is_english(vocabulary)
