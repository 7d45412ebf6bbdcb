"""The example sessions: their graph and learning path (golden files), and real anchors.

Regenerate the golden files after changing a session on purpose::

    BASEHALF_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/test_sessions_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, corpus

from basehalf_cli.main import main
from basehalf_core.documents.anchors import find_quote
from basehalf_core.documents.document import open_document
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.practice import parse_card

GOLDEN = Path(__file__).parent / "golden"
SESSIONS = {
    "attention-is-all-you-need": "attention-1706.03762.pdf",
    "longeval-human-evaluation": "papermage_2023.eacl-main.121.pdf",
}


def _cli(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def _check(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("BASEHALF_UPDATE_GOLDEN"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(actual, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with BASEHALF_UPDATE_GOLDEN=1 once"
    assert actual == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("session", sorted(SESSIONS))
def test_graph_golden(session, capsys):
    out = _cli(capsys, "graph", str(ROOT / "sessions" / session), "--json")
    json.loads(out)
    _check(f"{session}.graph.json", out)


@pytest.mark.parametrize("session", sorted(SESSIONS))
def test_learning_path_golden(session, capsys):
    _check(f"{session}.path.txt", _cli(capsys, "path", str(ROOT / "sessions" / session)))


def test_attention_path_reads_like_the_walkthrough(capsys):
    order = _cli(capsys, "path", str(ROOT / "sessions" / "attention-is-all-you-need")).split()
    notes = [p for p in order if p[:2].isdigit()]
    assert notes == [
        "01-transformer-claim.md",
        "02-why-not-only-recurrence.md",
        "03-scaled-dot-product.md",
        "04-three-attention-uses.md",
        "05-positional-encoding.md",
        "06-qkv-practice.md",
    ]


def test_attention_pdf_is_dangling_and_never_committed(capsys):
    folder = ROOT / "sessions" / "attention-is-all-you-need"
    graph = json.loads(_cli(capsys, "graph", str(folder), "--json"))
    assert {(i["entry"], i["problem"]) for i in graph["issues"]} == {
        ("attention-is-all-you-need.pdf", "dangling")
    }
    tracked = subprocess.run(
        ["git", "ls-files", "sessions/attention-is-all-you-need"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    assert tracked and not [p for p in tracked if p.lower().endswith(".pdf")]


def test_longeval_session_is_complete_offline():
    folder = ROOT / "sessions" / "longeval-human-evaluation"
    ws = Workspace.open(folder)
    assert ws.issues() == []
    pdf = folder / "longeval-2023.eacl-main.121.pdf"
    assert pdf.read_bytes() == corpus(SESSIONS["longeval-human-evaluation"]).read_bytes()
    attribution = (folder / "ATTRIBUTION.md").read_text()
    for needed in ("CC BY 4.0", "Kalpesh Krishna", "Kyle Lo", "EACL 2023", "2023.eacl-main.121"):
        assert needed in attribution


@pytest.mark.parametrize("session", sorted(SESSIONS))
def test_every_note_is_grown_from_a_real_passage(session):
    folder = ROOT / "sessions" / session
    source = corpus(SESSIONS[session])
    digest = "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    doc = open_document(source)
    ws = Workspace.open(folder)
    grown = [p for p in sorted(ws.nodes) if ws.frontmatter(p).get("grown_from")]
    assert len(grown) == 5
    for path in grown:
        anchor = ws.frontmatter(path)["grown_from"]
        assert anchor["fingerprint"] == digest, path
        assert find_quote(doc, anchor["quote"], anchor["page"]), (path, anchor["quote"])
        assert len(anchor["rects"]) >= 1
        assert anchor["prefix"] or anchor["suffix"]  # a quote at the top of a page has no prefix
        body = ws.body(path)
        assert f"(p. {anchor['page']})" in body
        own = body.split("Own words:", 1)[1].strip()
        assert len(own.split()) >= 30 and "…" not in own, path  # written, not a placeholder


@pytest.mark.parametrize(
    ("session", "card", "upstream", "questions"),
    [
        (
            "attention-is-all-you-need",
            "06-qkv-practice.md",
            [
                "03-scaled-dot-product.md",
                "04-three-attention-uses.md",
                "02-why-not-only-recurrence.md",
            ],
            4,
        ),
        ("longeval-human-evaluation", "06-longeval-practice.md", None, 6),
    ],
)  # fmt: skip
def test_practice_cards(session, card, upstream, questions):
    ws = Workspace.open(ROOT / "sessions" / session)
    assert ws.nodes[card].kind == "practice"
    parsed = parse_card(card, ws.read_text(card))
    assert len(parsed.questions) == questions and parsed.missing == []
    assert all(len(q.answer.rstrip(".").split(". ")) == 1 for q in parsed.questions)  # 1 sentence
    if upstream:
        assert ws.upstream(card) == upstream
