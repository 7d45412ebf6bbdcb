"""Draft answer key: drafted from notes and the PDF around anchors; approved; used offline."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SHARED
from openai_server import blocks, no_model_env, openai_server  # noqa: F401

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import answer_key, grading, llm
from basehalf_core.study.practice import parse_card

CORPUS = SHARED / "corpus"
QUOTE = (
    "An attention function can be described as mapping a query and a set of key-value pairs "
    "to an output"
)
KEY = {
    1: "When the resistance increases, the current decreases.",
    2: "The values are what a position passes on.",
}

pytestmark = pytest.mark.usefixtures("no_model_env")


def make_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "study"
    folder.mkdir()
    pdf = CORPUS / "attention-1706.03762.pdf"
    if not pdf.exists():
        pytest.fail(f"corpus file missing: {pdf}")
    shutil.copy(pdf, folder / "attention.pdf")
    (folder / "01-attention.md").write_text(
        "---\nupstream:\n  - attention.pdf\ngrown_from:\n  file: attention.pdf\n  page: 3\n"
        f'  quote: "{QUOTE}"\n---\n# Attention\n\nQueries are matched against keys.\n'
    )
    (folder / "02-card.md").write_text(
        "---\nupstream:\n  - 01-attention.md\nkind: practice\n---\n# Card\n\n"
        "1. What happens to the current when the resistance increases?\n"
        "   Answer: When the resistance increases, the current decreases.\n"
        "2. What are the values?\n   Answer: They are never passed on.\n"
    )
    return folder


def key_reply(body: dict) -> dict:
    return {"content": json.dumps({"key": [{"number": n, "answer": a} for n, a in KEY.items()]})}


def test_draft_reads_the_document_around_the_anchor_and_is_stored_as_a_draft(
    tmp_path, openai_server
):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    openai_server.default = key_reply
    cfg = llm.ModelConfig("openai/m", openai_server.base_url, timeout=10)
    assert answer_key.draft_answer_key(ws, "02-card.md", cfg) == KEY
    sent = openai_server.requests[0].body["messages"][1]["content"]
    around = [b for k, h, b in blocks(sent) if k == "PASSAGE" and "around=" in h]
    # Re-read from the PDF: longer than the stored quote, and holding text beyond it.
    assert around and len(around[0]) > len(QUOTE) + 200
    assert "query" in around[0] and "output" in around[0]
    text = (folder / "02-card.md").read_text()
    assert "## Answer key (draft)" in text and "Drafted by openai/m" in text
    assert parse_card("02-card.md", text).answer_key == {}  # a draft is not a key


def test_approved_key_is_what_offline_grading_uses(tmp_path, openai_server):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    openai_server.default = key_reply
    cfg = llm.ModelConfig("openai/m", openai_server.base_url, timeout=10)
    answer_key.draft_answer_key(ws, "02-card.md", cfg)
    answer_key.approve(ws, "02-card.md")
    text = (folder / "02-card.md").read_text()
    assert "## Answer key\n" in text and "(draft)" not in text and "Drafted by" not in text
    assert parse_card("02-card.md", text).answer_key == KEY
    run = grading.grade_card(Workspace.open(folder), "02-card.md", model="offline")
    assert run.grades[0].verdict == "Correct"
    assert run.grades[0].evidence == KEY[1]  # graded against the key, not the notes


def test_approving_without_a_draft_is_refused_and_nothing_changes(tmp_path):
    folder = make_folder(tmp_path)
    before = (folder / "02-card.md").read_bytes()
    with pytest.raises(answer_key.AnswerKeyError, match="no '## Answer key \\(draft\\)'"):
        answer_key.approve(Workspace.open(folder), "02-card.md")
    assert (folder / "02-card.md").read_bytes() == before


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ('[{"number": 1, "answer": "a"}, {"number": 2, "answer": "b"}]', {1: "a", 2: "b"}),
        ('{"answers": {"1": "a", "2": "b"}}', {1: "a", 2: "b"}),
        (
            '```json\n{"key": [{"question": "1", "answer": "a"}, '
            '{"number": 2, "answer": "b"}]}\n```',
            {1: "a", 2: "b"},
        ),
    ],
)
def test_key_replies_in_near_shapes_are_read(reply, expected):
    assert answer_key.parse_key(reply, [1, 2]) == expected


@pytest.mark.parametrize(
    ("reply", "match"),
    [("no json", "not JSON"), ('{"key": [{"number": 1, "answer": "a"}]}', "question 2")],
)
def test_bad_key_replies_are_named(reply, match):
    with pytest.raises(answer_key.AnswerKeyError, match=match):
        answer_key.parse_key(reply, [1, 2])


@pytest.mark.parametrize(
    ("note", "words"),
    [
        # The quote says "dk" where the document's text says "d_k" (a subscript).
        ("03-scaled-dot-product.md", "We call our particular attention"),
        ("02-why-not-only-recurrence.md", "This inherently sequential nature"),
    ],
)
def test_the_passage_around_an_anchor_is_found_once_whatever_the_quote_spells(
    tmp_path, note, words
):
    session = Path(__file__).resolve().parents[1] / "sessions" / "attention-is-all-you-need"
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(CORPUS / "attention-1706.03762.pdf", folder / "attention-is-all-you-need.pdf")
    shutil.copy(session / note, folder / note)
    (folder / "card.md").write_text(
        f"---\nupstream:\n  - {note}\nkind: practice\n---\n# Card\n\n1. Why?\n   Answer: So.\n"
    )
    ws = Workspace.open(folder)
    ctx = answer_key.build_context(ws, parse_card("card.md", ws.read_text("card.md")))
    [around] = [b for k, h, b in blocks(ctx.render()) if k == "PASSAGE" and "around=" in h]
    # The anchored words once (a page's overlapping runs are not joined), with text around.
    assert around.count(words) == 1 and len(around) > 2 * len(words) + 400, around
