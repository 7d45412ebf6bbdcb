"""Growing a note from a passage: the DESIGN §3 format, names, and the round trip to an anchor."""

from __future__ import annotations

import shutil

import pytest

from basehalf_core.documents.anchors import reanchor
from basehalf_core.documents.document import DocumentError, Passage, open_document
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.branch import (
    NotADocumentNode,
    QuoteNotFound,
    default_title,
    grow_from_passage,
    grow_from_quote,
    highlights,
    passage_from_quote,
    passage_note,
)

QUOTE = (
    "The dominant sequence transduction models are based on complex recurrent or "
    "convolutional neural networks"
)


@pytest.fixture
def folder(tmp_path, corpus_file):
    shutil.copy(corpus_file("attention-1706.03762.pdf"), tmp_path / "attention-is-all-you-need.pdf")
    shutil.copy(corpus_file("pymupdf_chinese-tables.pdf"), tmp_path / "募集说明书.pdf")
    shutil.copy(corpus_file("gutenberg_pg1342.epub"), tmp_path / "pride.epub")
    shutil.copy(corpus_file("sf_libreoffice-writer-password.pdf"), tmp_path / "locked.pdf")
    (tmp_path / "notes.md").write_text("# Notes\n")
    return tmp_path


def test_grown_note_has_the_design_format(folder):
    ws = Workspace.open(folder)
    path = grow_from_quote(
        ws, "attention-is-all-you-need.pdf", 1, QUOTE, title="The Transformer claim"
    )
    assert path == "the-transformer-claim.md"
    text = (folder / path).read_text(encoding="utf-8")
    doc = open_document(folder / "attention-is-all-you-need.pdf")
    head, body = text.split("---\n# The Transformer claim\n\n")
    assert head.startswith("---\nupstream:\n  - attention-is-all-you-need.pdf\ngrown_from:\n")
    assert body == (
        f"> {QUOTE} (p. 1)\n\n"
        "Source: [attention-is-all-you-need.pdf, p. 1](attention-is-all-you-need.pdf#page=1)\n\n"
        "Own words: …\n"
    )
    meta = Workspace.open(folder).frontmatter(path)
    grown = meta["grown_from"]
    assert list(grown) == ["file", "page", "quote", "prefix", "suffix", "rects", "fingerprint"]
    assert grown["file"] == "attention-is-all-you-need.pdf"
    assert grown["page"] == 1
    assert grown["quote"] == QUOTE
    assert grown["prefix"].endswith("Abstract ")
    assert grown["suffix"].startswith(" that include an encoder")
    assert grown["fingerprint"] == doc.fingerprint
    assert len(grown["rects"]) == 2 and all(len(r) == 4 for r in grown["rects"])
    assert all(round(v, 1) == v for r in grown["rects"] for v in r)
    assert Workspace.open(folder).upstream(path) == ["attention-is-all-you-need.pdf"]
    # The note's anchor, read back from the YAML, finds the same place.
    assert reanchor(doc, grown).status == "exact"


def test_growing_twice_never_overwrites(folder):
    ws = Workspace.open(folder)
    first = grow_from_quote(ws, "attention-is-all-you-need.pdf", 1, QUOTE, title="Claim")
    before = (folder / first).read_bytes()
    second = grow_from_quote(ws, "attention-is-all-you-need.pdf", 1, QUOTE, title="Claim")
    assert (first, second) == ("claim.md", "claim-2.md")
    assert (folder / first).read_bytes() == before


def test_a_chinese_passage_gives_a_chinese_title_and_file_name(folder):
    ws = Workspace.open(folder)
    doc = open_document(folder / "募集说明书.pdf")
    words = doc.words(0)
    start = next(w.index for w in words if w.text == "受")
    passage = doc.passage(0, range(start, start + 12))
    passage.file = "募集说明书.pdf"
    assert default_title(passage) == "受不利经济环境的影响不大"
    path = grow_from_passage(ws, passage)
    assert path == "受不利经济环境的影响不大.md"
    text = (folder / path).read_text(encoding="utf-8")
    assert "# 受不利经济环境的影响不大\n" in text
    assert "> 受不利经济环境的影响不大 (p. 1)" in text


def test_an_epub_passage_records_its_chapter(folder):
    ws = Workspace.open(folder)
    doc = open_document(folder / "pride.epub")
    page = next(p for _, t, p in doc.toc() if t == "Chapter 3")
    passage = doc.passage(page - 1, range(5, 15))
    passage.file = "pride.epub"
    path = grow_from_passage(ws, passage, "Bingley arrives")
    grown = Workspace.open(folder).frontmatter(path)["grown_from"]
    assert grown["chapter"] == "Chapter 3"
    assert grown["page"] == page


def test_quote_not_on_the_page_names_file_page_and_quote(folder):
    ws = Workspace.open(folder)
    with pytest.raises(QuoteNotFound) as info:
        grow_from_quote(ws, "attention-is-all-you-need.pdf", 2, QUOTE)
    message = str(info.value)
    assert "attention-is-all-you-need.pdf" in message and "page 2" in message
    assert "The dominant sequence" in message
    assert sorted(p.name for p in folder.glob("*.md")) == ["notes.md"]


@pytest.mark.parametrize(
    ("file", "page", "error", "words"),
    [
        ("missing.pdf", 1, NotADocumentNode, "missing.pdf: no such file"),
        ("notes.md", 1, NotADocumentNode, "not a PDF or EPUB"),
        ("locked.pdf", 1, DocumentError, "encrypted"),
        ("attention-is-all-you-need.pdf", 16, DocumentError, "has no page 16"),
    ],
)
def test_bad_sources_are_refused_and_nothing_is_written(folder, file, page, error, words):
    ws = Workspace.open(folder)
    with pytest.raises(error, match=words):
        passage_from_quote(ws, file, page, QUOTE)
    assert sorted(p.name for p in folder.glob("*.md")) == ["notes.md"]


def test_passage_note_requires_the_file():
    passage = Passage("", 1, "q", "", "", [[0, 0, 1, 1]], "sha256:0")
    with pytest.raises(ValueError, match=r"passage\.file"):
        passage_note(passage, "t")


def test_quote_text_cannot_become_html_or_a_heading_in_the_body():
    passage = Passage("a b.pdf", 3, "# <script>alert(1)</script>", "", "", [], "sha256:0")
    fields, body = passage_note(passage, "t")
    assert fields["grown_from"]["quote"] == "# <script>alert(1)</script>"
    assert "<script>" not in body
    assert body.startswith("> \\# &lt;script>")
    assert "(a%20b.pdf#page=3)" in body


@pytest.mark.parametrize(
    ("quote", "title"),
    [
        (
            "evaluating model-generated summaries (Kryscinski et al., 2019;",
            "Evaluating model-generated summaries",
        ),
        ("attention. It works", "Attention"),
        ("第七章企业资信状况", "第七章企业资信状况"),
        ("偿还债务的能力很强，受不利经济", "偿还债务的能力很强"),
        ("   ", "Untitled"),
        ("...", "Untitled"),
        ("We propose it.", "Untitled"),
    ],
)
def test_default_title_is_a_short_phrase_in_the_passage_language(quote, title):
    assert default_title(quote) == title


@pytest.mark.parametrize(
    ("page", "quote", "title"),
    [
        # The passage defines a name: that name, not "We call our particular attention".
        (4, 'We call our particular attention "Scaled Dot-Product Attention"', None),
        (1, QUOTE, "Dominant sequence transduction models"),
        (
            5,
            "Multi-head attention allows the model to jointly attend to information from "
            "different representation subspaces at different positions.",
            "Multi-head attention",
        ),
        (
            6,
            "each dimension of the positional encoding corresponds to a sinusoid",
            "Positional encoding",
        ),
        (
            3,
            "We employ a residual connection [11] around each of the two sub-layers, followed by "
            "layer normalization [1].",
            "Residual connection",
        ),
    ],
)
def test_suggested_titles_name_the_idea_of_real_passages(folder, page, quote, title):
    ws = Workspace.open(folder)
    passage = passage_from_quote(ws, "attention-is-all-you-need.pdf", page, quote)
    suggested = default_title(passage)
    if title is None:  # the PDF's own quote marks, whichever they are
        assert suggested.strip('"“”') == "Scaled Dot-Product Attention"
    else:
        assert suggested == title
    # A name, not the passage's opening words ("We call our …", "The dominant …").
    assert not suggested.lower().startswith(("we ", "the ", "each ", "that "))
    assert 1 <= len(suggested.split()) <= 5


def test_highlights_follow_each_grown_note_and_say_when_one_is_lost(folder):
    ws = Workspace.open(folder)
    kept = grow_from_quote(ws, "attention-is-all-you-need.pdf", 1, QUOTE, title="Kept")
    lost = grow_from_quote(
        ws, "attention-is-all-you-need.pdf", 2, "Recurrent models typically factor", title="Lost"
    )
    text = (folder / lost).read_text(encoding="utf-8")
    text = text.replace("Recurrent models typically factor", "Quantum ferrets rarely hibernate")
    (folder / lost).write_text(text, encoding="utf-8")
    (folder / "plain.md").write_text("---\nupstream:\n  - attention-is-all-you-need.pdf\n---\n")

    found = {h.note: h for h in highlights(Workspace.open(folder), "attention-is-all-you-need.pdf")}

    assert set(found) == {kept, lost}
    assert found[kept].status == "exact" and found[kept].page == 1
    assert len(found[kept].boxes) == 2
    assert all(0 < v < 1 for box in found[kept].boxes for v in box)
    assert found[lost].status == "orphan" and found[lost].boxes == []
    assert found[lost].message.startswith("lost.md: the quote is no longer in")


def test_a_note_grows_next_to_its_document_with_a_link_relative_to_it(folder):
    (folder / "papers").mkdir()
    shutil.copy(folder / "attention-is-all-you-need.pdf", folder / "papers" / "attention (v5).pdf")
    ws = Workspace.open(folder)
    path = grow_from_quote(ws, "papers/attention (v5).pdf", 1, QUOTE, title="Claim")
    assert path == "papers/claim.md"
    text = (folder / path).read_text(encoding="utf-8")
    assert '  - "papers/attention (v5).pdf"\n' in text or "  - papers/attention (v5).pdf\n" in text
    assert "Source: [papers/attention (v5).pdf, p. 1](attention%20%28v5%29.pdf#page=1)" in text
    assert Workspace.open(folder).upstream(path) == ["papers/attention (v5).pdf"]
