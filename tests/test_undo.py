"""Undo of the app's last Grow branch / New note / rename: taken back, never over new words."""

from __future__ import annotations

import pytest

from basehalf_core.folder import multifile
from basehalf_core.folder import operations as ops
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.undo import UndoLog


@pytest.fixture
def ws(tmp_path):
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4\n")
    (tmp_path / "later.md").write_text("---\nupstream:\n  - a.md\n---\n# Later\n", encoding="utf-8")
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    return Workspace.open(tmp_path)


def _grown(ws, log):
    path = ops.grow(ws, "Mistake", upstream=["paper.pdf"], body="> a quote\n")
    log.made(ws, path, back="paper.pdf")
    return path


def test_a_mistaken_grow_is_removed_and_the_document_opened_again(ws):
    log = UndoLog()
    path = _grown(ws, log)
    assert log.label(ws) == f"Undo: remove {path}"
    outcome = log.undo(ws)
    assert outcome.done and outcome.open == "paper.pdf"
    assert not (ws.root / path).exists() and path not in ws.nodes
    assert log.label(ws) == "" and not log.undo(ws).done  # once


@pytest.mark.parametrize("how", ["saved-words", "unsaved-words", "gone"])
def test_an_undo_never_removes_words_written_since(ws, how):
    log = UndoLog()
    path = _grown(ws, log)
    full = ws.root / path
    if how == "saved-words":
        ops.save_body(ws, path, "> a quote\n\nMy own words.\n", full.read_bytes())
    elif how == "unsaved-words":
        log.unsaved = lambda: [path]
    else:
        full.unlink()
    before = full.read_bytes() if full.exists() else None
    outcome = log.undo(ws)
    assert not outcome.done and outcome.message.startswith("Not undone")
    assert (full.read_bytes() if full.exists() else None) == before
    assert log.label(ws)  # still offered: the learner may fix the reason and try again


def test_a_rename_is_undone_with_every_entry_rewritten_back(ws):
    log = UndoLog()
    multifile.move(ws, "a.md", "b.md")
    log.renamed(ws, "a.md", "b.md")
    assert log.label(ws) == "Undo: back to a.md"
    outcome = log.undo(ws)
    assert outcome.done and outcome.open == "a.md" and "later.md" in outcome.message
    assert (ws.root / "a.md").exists() and not (ws.root / "b.md").exists()
    assert "  - a.md" in (ws.root / "later.md").read_text(encoding="utf-8")


def test_a_rename_back_onto_a_name_taken_since_is_refused(ws):
    log = UndoLog()
    multifile.move(ws, "a.md", "b.md")
    log.renamed(ws, "a.md", "b.md")
    (ws.root / "a.md").write_text("# A new one\n", encoding="utf-8")
    ws.refresh()
    outcome = log.undo(ws)
    assert not outcome.done and "already exists" in outcome.message
    assert (ws.root / "b.md").read_text(encoding="utf-8") == "# A\n"


def test_nothing_to_undo_in_another_folder(ws, tmp_path_factory):
    log = UndoLog()
    _grown(ws, log)
    other = Workspace.open(tmp_path_factory.mktemp("other"))
    assert log.label(other) == "" and not log.undo(other).done
