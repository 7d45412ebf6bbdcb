"""``basehalf canvas import``: a JSON Canvas file's card positions into ``.bh/canvas.json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from basehalf_cli.main import main
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.canvas_state import STATE_PATH, CanvasStore
from basehalf_core.views.jsoncanvas import BadCanvasFile, export, import_positions, node_id
from basehalf_core.views.layout import CARD_H, CARD_W


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4 a stand-in; nothing here opens it\n")
    (tmp_path / "notes").mkdir()
    ws = Workspace.open(tmp_path)
    claim = operations.grow(ws, "The claim", upstream=["paper.pdf"], folder="notes")
    operations.grow(ws, "Practice", upstream=[claim], fields={"kind": "practice"})
    (tmp_path / "lost.md").write_text("---\nupstream:\n  - old.pdf\n---\n# Lost\n")
    return tmp_path


def test_positions_survive_export_edit_import_export(folder, capsys):
    assert main(["canvas", str(folder), "-o", "map.canvas"]) == 0
    capsys.readouterr()
    doc = json.loads((folder / "map.canvas").read_text("utf-8"))
    files = [n for n in doc["nodes"] if n["type"] == "file"]
    assert {n["file"] for n in files} == {
        "paper.pdf",
        "notes/the-claim.md",
        "practice.md",
        "lost.md",
    }
    # Arrange the cards the way a learner might in Obsidian: new spots, one card resized.
    moved = {}
    for k, n in enumerate(files):
        n["x"], n["y"] = 1000 + 300 * k, -400 + 50 * k
        moved[n["file"]] = (n["x"], n["y"])
    files[0]["width"], files[0]["height"] = 400, 120
    (folder / "map.canvas").write_text(json.dumps(doc, indent="\t"), encoding="utf-8")

    assert main(["canvas", "import", str(folder), str(folder / "map.canvas")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == {"imported": sorted(moved), "skipped": []}

    saved = CanvasStore(folder).load()
    x0, y0 = moved[files[0]["file"]]
    assert saved[files[0]["file"]] == (x0 + 200, y0 + 60)  # the centre of the resized card
    again = export(Workspace.open(folder), exclude={"map.canvas"})
    by_file = {n["file"]: (n["x"], n["y"]) for n in again["nodes"] if n["type"] == "file"}
    for path, (x, y) in moved.items():
        if path == files[0]["file"]:
            continue  # basehalf draws every card at its own size, centred where it was
        assert by_file[path] == (x, y)
    assert by_file[files[0]["file"]] == (x0 + 200 - CARD_W // 2, y0 + 60 - CARD_H // 2)
    # Text nodes (the ghost for the missing old.pdf) are not imported: still one ghost,
    # drawn next to its holder wherever that went, and nothing pinned for it.
    ghost = [(n["id"], n["text"]) for n in doc["nodes"] if n["type"] == "text"]
    assert [(n["id"], n["text"]) for n in again["nodes"] if n["type"] == "text"] == ghost
    assert set(saved) == set(moved)


def test_unknown_files_and_bad_numbers_are_skipped_and_named(folder):
    (folder / ".bh").mkdir(exist_ok=True)
    CanvasStore(folder).update({"lost.md": (5.0, 6.0)})
    doc = {
        "nodes": [
            {"id": "a", "type": "file", "file": "paper.pdf", "x": 0, "y": 0, "width": 40,
             "height": 20},
            {"id": "b", "type": "file", "file": "elsewhere.pdf", "x": 1, "y": 1},
            {"id": "c", "type": "file", "file": "practice.md", "x": "10", "y": 0},
            {"id": "d", "type": "file", "file": "paper.pdf", "x": 500, "y": 500},
            {"id": "e", "type": "file", "file": ".bh/canvas.json", "x": 1, "y": 1},
            {"id": "f", "type": "file", "file": "../outside.md", "x": 1, "y": 1},
            {"id": "g", "type": "text", "text": "a note on the canvas", "x": 9, "y": 9},
            "not a node",
        ],
        "edges": [],
    }  # fmt: skip
    file = folder / "arranged.canvas"
    file.write_text(json.dumps(doc), encoding="utf-8")
    done = import_positions(Workspace.open(folder), file)
    assert done.positions == {"paper.pdf": (20.0, 10.0)}
    reasons = {s["node"]: s["reason"] for s in done.skipped}
    assert set(reasons) == {"b", "c", "d", "e", "f"}
    assert "'elsewhere.pdf' is not a node of the folder" in reasons["b"]
    assert "finite numbers" in reasons["c"]
    assert "a second node for paper.pdf" in reasons["d"]
    saved = CanvasStore(folder).load()
    assert saved == {"lost.md": (5.0, 6.0), "paper.pdf": (20.0, 10.0)}  # merged, not replaced


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("a.canvas", b"{not json", "not JSON"),
        ("a.canvas", b"\xff\xfe", "not UTF-8"),
        ("a.canvas", b"[]", "not a JSON Canvas document"),
        ("a.canvas", b'{"nodes": {"a": 1}}', "not a JSON Canvas document"),
        ("a.json", b'{"nodes": []}', "must end in .canvas"),
        ("missing.canvas", None, "no such file"),
    ],
)
def test_bad_canvas_files_are_refused_and_nothing_changes(folder, name, data, reason):
    path = _write(folder, name, data) if data is not None else folder / name
    with pytest.raises(BadCanvasFile, match=reason) as exc:
        import_positions(Workspace.open(folder), path)
    assert str(path) in str(exc.value)
    assert not (folder / STATE_PATH).exists()


def test_cli_reports_a_bad_file_in_one_line(folder, capsys):
    path = _write(folder, "a.canvas", b"{")
    assert main(["canvas", "import", str(folder), str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"basehalf canvas: {path}: not JSON")


def test_ids_of_imported_nodes_do_not_matter(folder):
    """Obsidian gives new nodes random ids; matching is by path only."""
    nid = node_id("paper.pdf")
    doc = {"nodes": [{"id": "x" + nid, "type": "file", "file": "paper.pdf", "x": 7, "y": 9}]}
    file = _write(folder, "b.canvas", json.dumps(doc).encode())
    done = import_positions(Workspace.open(folder), file)
    assert list(done.positions) == ["paper.pdf"]
