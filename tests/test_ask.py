"""Ask: context from the open card, its upstream chain and a selection; logged in .bh/asks.jsonl."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
from pathlib import Path

import pytest
from openai_server import blocks, no_model_env, openai_server  # noqa: F401

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import ask, llm

SECRET = "sk-test-ASK-SECRET-77aa21"
pytestmark = pytest.mark.usefixtures("no_model_env")

SELECTION = {
    "file": "paper.pdf",
    "page": 4,
    "quote": "We call our particular attention Scaled Dot-Product Attention",
    "prefix": "3.2.1 ",
    "suffix": ". The input consists",
    "rects": [[108.0, 331.2, 504.1, 342.0]],
}


def local_model(server) -> dict:
    """The keyword arguments that point an ask at the loopback OpenAI-compatible server."""
    return {"model": "openai/local-model", "api_base": server.base_url}


def make_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "study"
    folder.mkdir()
    (folder / "paper.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (folder / "01-attention.md").write_text(
        "---\nupstream:\n  - paper.pdf\n---\n# Attention\n\n"
        "The softmax turns the scaled scores into weights that sum to one.\n"
        "Dividing by the square root of the key dimension keeps the dot products small.\n",
        encoding="utf-8",
    )
    (folder / "02-card.md").write_text(
        "---\nupstream:\n  - 01-attention.md\nkind: practice\n---\n# Card\n\n"
        "1. Why scale the dot products?\n   Answer: To keep them small.\n",
        encoding="utf-8",
    )
    return folder


def test_offline_ask_answers_from_the_context_with_citations_and_says_offline(tmp_path):
    ws = Workspace.open(make_folder(tmp_path))
    a = ask.ask(ws, "Why divide by the square root of the key dimension?", card_path="02-card.md")
    assert a.model == "offline" and a.offline
    assert a.text.startswith("Offline (no language model")
    assert "Dividing by the square root of the key dimension" in a.text
    assert a.citations[0].path == "01-attention.md"


def test_selection_is_labelled_used_once_and_never_becomes_a_note(tmp_path, openai_server):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    before = sorted(p.name for p in folder.iterdir())
    openai_server.default = {"content": "It is the attention used here [paper.pdf p. 4]."}
    a = ask.ask(
        ws,
        "What is this attention called?",
        card_path="02-card.md",
        selection=SELECTION,
        **local_model(openai_server),
    )
    assert a.label == "using your selection from p. 4"
    assert a.text.startswith("(using your selection from p. 4)")
    assert a.citations[0].path == "paper.pdf" and a.citations[0].page == 4
    user = openai_server.requests[0].body["messages"][1]["content"]
    found = blocks(user)
    sel = [(h, b) for k, h, b in found if k == "SELECTION"]
    assert sel and sel[0][1] == SELECTION["quote"] and 'page="4"' in sel[0][0]
    assert [k for k, _, _ in found][:2] == ["SELECTION", "CARD"]
    assert any(k == "NOTE" and "01-attention.md" in h for k, h, _ in found)
    assert found[-1][0] == "QUESTION"
    # Only the log is new; the selection is not a note.
    after = sorted(p.name for p in folder.iterdir())
    assert after == sorted([*before, ".bh"])
    assert Workspace.open(folder).nodes.keys() == ws.nodes.keys()
    # A second ask without a selection does not carry the old one.
    ask.ask(
        ws,
        "And now?",
        card_path="02-card.md",
        **local_model(openai_server),
    )
    assert "SELECTION" not in openai_server.requests[1].body["messages"][1]["content"]


def test_each_ask_is_logged_without_the_key(tmp_path, openai_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    openai_server.default = {"content": "Because large dot products saturate the softmax."}
    ask.ask(
        ws,
        "Why scale?",
        card_path="02-card.md",
        selection=SELECTION,
        **local_model(openai_server),
    )
    ask.ask(ws, "Offline now?", card_path="02-card.md", model="offline")
    log = (folder / ".bh" / "asks.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(log) == 2
    first, second = (json.loads(line) for line in log)
    assert first["question"] == "Why scale?"
    assert first["selection"]["quote"] == SELECTION["quote"]
    assert first["selection"]["page"] == 4
    assert first["answer"].endswith("saturate the softmax.")
    assert first["model"] == "openai/local-model" and first["time"].endswith("Z")
    assert second["model"] == "offline" and second["selection"] is None
    assert ask.read_asks(ws) == [first, second]
    for path in folder.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def test_stream_yields_deltas_and_logs_the_whole_answer(tmp_path, openai_server):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    text = "Scaling keeps the softmax out of its flat regions."
    openai_server.default = {"content": text, "chunk": 6}
    deltas = list(
        ask.ask_stream(
            ws,
            "Why scale?",
            card_path="02-card.md",
            selection=SELECTION,
            **local_model(openai_server),
        )
    )
    assert deltas[0] == "(using your selection from p. 4) "
    assert len(deltas) > 3
    assert "".join(deltas) == "(using your selection from p. 4) " + text
    assert ask.read_asks(ws)[-1]["answer"] == "".join(deltas)


def test_offline_stream_yields_the_offline_answer(tmp_path):
    ws = Workspace.open(make_folder(tmp_path))
    out = "".join(ask.ask_stream(ws, "What does the softmax do?", card_path="02-card.md"))
    assert out.startswith("Offline") and "softmax turns the scaled scores" in out


@pytest.mark.parametrize(
    ("selection", "match"),
    [
        ({"file": "paper.pdf", "page": 1, "quote": "  "}, "empty quote"),
        ({"file": "nope.pdf", "page": 1, "quote": "x"}, "'nope.pdf'"),
        ({"file": "../outside.pdf", "page": 1, "quote": "x"}, "'../outside.pdf'"),
        ({"file": "paper.pdf", "page": 0, "quote": "x"}, "page 0"),
        ({"file": "paper.pdf", "page": "2", "quote": "x"}, "page '2'"),
        ("just a string", "mapping"),
    ],
)
def test_bad_selection_is_refused_and_nothing_logged(tmp_path, selection, match):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    with pytest.raises(ask.BadSelection, match=match):
        ask.ask(ws, "Why?", card_path="02-card.md", selection=selection)
    assert not (folder / ".bh" / "asks.jsonl").exists()


def test_empty_question_is_refused(tmp_path):
    ws = Workspace.open(make_folder(tmp_path))
    with pytest.raises(ask.EmptyQuestion):
        ask.ask(ws, "   ")


def test_model_failure_is_not_logged(tmp_path, openai_server):
    folder = make_folder(tmp_path)
    ws = Workspace.open(folder)
    openai_server.default = {"status": 401, "error": "bad key"}
    with pytest.raises(llm.ModelAuthError, match="OPENAI_API_KEY"):
        ask.ask(ws, "Why?", **local_model(openai_server))
    assert not (folder / ".bh" / "asks.jsonl").exists()


def test_chat_model_streams_the_last_user_message_with_current_state(tmp_path, openai_server):
    import marimo as mo  # the test (not basehalf_core) uses marimo's own message type

    chat_message = mo.ai.ChatMessage

    ws = Workspace.open(make_folder(tmp_path))
    state = {"selection": None}
    openai_server.default = {"content": "Scaling keeps softmax gradients usable.", "chunk": 4}
    fn = ask.chat_model(
        ws,
        card_path="02-card.md",
        selection=lambda: state["selection"],
        **local_model(openai_server),
    )
    msgs = [
        chat_message(role="user", content="Earlier?"),
        chat_message(role="user", content="Why?"),
    ]
    state["selection"] = SELECTION
    out = "".join(fn(msgs, None))
    assert out == "(using your selection from p. 4) Scaling keeps softmax gradients usable."
    sent = openai_server.requests[0].body["messages"][1]["content"]
    assert blocks(sent)[-1] == ("QUESTION", "", "Why?")
    assert ask.read_asks(ws)[-1]["question"] == "Why?"
