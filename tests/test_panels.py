"""The panels the app and the export share: one HTML for each, text from the folder escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.grading import in_force as latest
from basehalf_core.study.practice import parse_card
from basehalf_core.views import export, panels

LONGEVAL = Path(__file__).resolve().parents[1] / "sessions" / "longeval-human-evaluation"
CARD = "06-longeval-practice.md"


def test_the_export_and_the_app_show_the_same_practice_card():
    ws = Workspace.open(LONGEVAL)
    listing = panels.practice_list(parse_card(CARD, ws.read_text(CARD)), latest(ws, CARD))
    assert listing in export.render_html(LONGEVAL)
    assert listing in panels.practice_view(ws, CARD)


def test_the_export_page_carries_the_shared_stylesheet():
    assert panels.css() in export.render_html(LONGEVAL)


HOSTILE = '<img src=x onerror="alert(1)">'


@pytest.mark.parametrize(
    "html",
    [
        lambda ws: panels.learning_path(ws),
        lambda ws: panels.issues_panel(ws.issues()),
    ],
)
def test_names_from_the_folder_are_escaped(tmp_path, html):
    name = f"{HOSTILE}.md".replace("/", "")
    (tmp_path / name).write_text(f"---\nupstream: ['{HOSTILE}x']\n---\n# {HOSTILE}\n", "utf-8")
    out = html(Workspace.open(tmp_path))
    assert "<img" not in out and "&lt;img" in out


def test_a_practice_shaped_note_is_offered_for_grading(tmp_path):
    (tmp_path / "shaped.md").write_text("# T\n\n1. Q?\n   Answer: A.\n", encoding="utf-8")
    (tmp_path / "plain.md").write_text("# T\n\n1. A list item\n", encoding="utf-8")
    assert panels.practice_choices(Workspace.open(tmp_path)) == ["shaped.md"]
