"""JSON Canvas 1.0 export and the ``basehalf canvas`` command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT, corpus

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.canvas_state import CanvasStore
from basehalf_core.views.jsoncanvas import export, node_id
from basehalf_core.views.layout import CARD_H, CARD_W
from basehalf_core.views.network import ghost_id

PRESET = {"1", "2", "3", "4", "5", "6"}


@pytest.fixture
def folder(tmp_path):
    shutil.copy(corpus("attention-1706.03762.pdf"), tmp_path / "attention.pdf")
    ws = Workspace.open(tmp_path)
    claim = operations.grow(ws, "The Transformer claim", upstream=["attention.pdf"])
    operations.grow(ws, "Q", upstream=[claim], fields={"kind": "practice"})
    (tmp_path / "lost.md").write_text("---\nupstream:\n  - old.pdf\n---\n# Lost\n")
    return tmp_path


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "basehalf_cli.main", *args],
        cwd=cwd or ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def check_spec(doc):
    """What JSON Canvas 1.0 requires of nodes and edges."""
    assert set(doc) == {"nodes", "edges"}
    ids = [n["id"] for n in doc["nodes"]]
    assert len(ids) == len(set(ids))
    for n in doc["nodes"]:
        assert n["type"] in {"file", "text"}
        for key in ("x", "y", "width", "height"):
            assert isinstance(n[key], int)
        assert n.get("color", "1") in PRESET
        assert isinstance(n["file" if n["type"] == "file" else "text"], str)
    for e in doc["edges"]:
        assert e["fromNode"] in ids and e["toNode"] in ids
        assert e["toEnd"] == "arrow"
        assert e["fromSide"] in {"top", "right", "bottom", "left"}
    assert len({e["id"] for e in doc["edges"]}) == len(doc["edges"])


def test_every_card_is_a_file_node_and_every_link_an_edge(folder):
    ws = Workspace.open(folder)
    doc = export(ws)
    check_spec(doc)
    files = {n["file"]: n for n in doc["nodes"] if n["type"] == "file"}
    assert set(files) == set(ws.nodes)
    pairs = {(e["fromNode"], e["toNode"]) for e in doc["edges"]}
    for u, v in ws.graph.edges:
        assert (node_id(u), node_id(v)) in pairs
    assert files["attention.pdf"]["color"] == "1"
    assert files["q.md"]["color"] == "4"


def test_a_dangling_entry_is_a_text_node_with_an_edge(folder):
    doc = export(Workspace.open(folder))
    texts = [n for n in doc["nodes"] if n["type"] == "text"]
    assert [t["text"] for t in texts] == ["Missing: old.pdf"]
    assert texts[0]["id"] == node_id(ghost_id("old.pdf"))
    assert {"fromNode": texts[0]["id"], "toNode": node_id("lost.md")}.items() <= next(
        e for e in doc["edges"] if e["fromNode"] == texts[0]["id"]
    ).items()


def test_a_linked_folder_is_a_text_node(folder):
    (folder / "chapter").mkdir()
    operations.connect(Workspace.open(folder), "chapter", "lost.md")
    doc = export(Workspace.open(folder))
    check_spec(doc)
    node = next(n for n in doc["nodes"] if n["id"] == node_id("chapter"))
    assert (node["type"], node["text"]) == ("text", "Folder: chapter/")


def test_dragged_positions_are_exported(folder):
    CanvasStore(folder).update({"attention.pdf": (1000, 2000)})
    node = next(
        n for n in export(Workspace.open(folder))["nodes"] if n.get("file") == "attention.pdf"
    )
    assert (node["x"], node["y"]) == (1000 - CARD_W // 2, 2000 - CARD_H // 2)


def test_export_is_stable(folder):
    assert export(Workspace.open(folder)) == export(Workspace.open(folder))


def test_the_command_writes_a_canvas_inside_the_folder(folder):
    result = run("canvas", str(folder), "-o", "map.canvas")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "map.canvas"
    doc = json.loads((folder / "map.canvas").read_text(encoding="utf-8"))
    check_spec(doc)
    assert {n.get("file") for n in doc["nodes"]} >= {"attention.pdf", "q.md"}


def test_the_command_never_overwrites_without_replace(folder):
    (folder / "map.canvas").write_text("mine")
    result = run("canvas", str(folder), "-o", "map.canvas")
    assert result.returncode == 1
    assert "map.canvas" in result.stderr and "already exists" in result.stderr
    assert (folder / "map.canvas").read_text() == "mine"
    assert run("canvas", str(folder), "-o", "map.canvas", "--replace").returncode == 0
    doc = json.loads((folder / "map.canvas").read_text())
    assert "map.canvas" not in {n.get("file") for n in doc["nodes"]}  # never lists itself


def test_the_command_prints_to_stdout_with_dash(folder):
    result = run("canvas", str(folder), "-o", "-")
    assert result.returncode == 0, result.stderr
    check_spec(json.loads(result.stdout))
    assert not list(folder.glob("*.canvas"))


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("map.json", "must end in .canvas"),
        ("../map.canvas", "not a path inside the folder"),
        ("sub/../../map.canvas", "not a path inside the folder"),
        (".bh/map.canvas", "not a path inside the folder"),
        ("{outside}/map.canvas", "outside the folder"),
    ],
)
def test_bad_targets_are_refused_naming_the_path(folder, tmp_path_factory, name, says):
    outside = tmp_path_factory.mktemp("elsewhere")
    name = name.format(outside=outside)
    result = run("canvas", str(folder), "-o", name)
    assert result.returncode == 1
    assert name in result.stderr and says in result.stderr
    assert not list(outside.iterdir())
    assert not list(folder.parent.glob("*.canvas"))


def test_a_missing_folder_is_a_clear_error(tmp_path):
    result = run("canvas", str(tmp_path / "nope"), "-o", "m.canvas")
    assert result.returncode == 1
    assert "nope" in result.stderr and "does not exist" in result.stderr
