"""The Canvas widget, Python side: traits from the workspace, sync diffs, dragged positions."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from conftest import corpus

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.canvas_state import STATE_PATH
from basehalf_core.views.layout import STEP_Y
from basehalf_core.views.network import ghost_id
from basehalf_widgets.canvas import Canvas


@pytest.fixture
def ws(tmp_path):
    shutil.copy(corpus("attention-1706.03762.pdf"), tmp_path / "attention.pdf")
    ws = Workspace.open(tmp_path)
    claim = operations.grow(ws, "The Transformer claim", upstream=["attention.pdf"])
    operations.grow(ws, "Why not recurrence", upstream=[claim])
    return ws


def by_id(items):
    return {i["id"]: i for i in items}


def drag(canvas, node, x, y):
    """What the browser sends after a drag (marimo hands it to ``set_state``)."""
    canvas.set_state({"positions": {**canvas.positions, node: [x, y]}})


def test_a_canvas_shows_the_workspace(ws):
    canvas = Canvas.for_workspace(ws)
    assert set(by_id(canvas.nodes)) == set(ws.nodes)
    assert len(canvas.edges) == ws.graph.number_of_edges() == 2
    assert canvas.options["physics"]["enabled"] is False
    assert (canvas.selected, canvas.status, canvas.positions) == ("", "", {})


def test_vis_network_ships_inside_the_module_not_from_a_cdn():
    esm = Canvas._esm
    assert "@version 9.1.2" in esm and "export default { render }" in esm
    for cdn in ("cdn.jsdelivr", "unpkg.com", "cdnjs", "import(", 'from "http', "from 'http"):
        assert cdn not in esm
    assert ".vis-network" in Canvas._css and ".bh-canvas" in Canvas._css


def test_a_grow_adds_one_card_by_its_upstream_and_nothing_else_changes(ws):
    canvas = Canvas.for_workspace(ws)
    before = by_id(canvas.nodes)
    new = operations.grow(ws, "Fresh idea", upstream=["why-not-recurrence.md"])
    canvas.sync(ws)
    after = by_id(canvas.nodes)
    assert set(after) - set(before) == {new}
    assert {k: after[k] for k in before} == before
    assert after[new]["y"] == before["why-not-recurrence.md"]["y"] + STEP_Y
    assert len(canvas.edges) == 3


def test_sync_of_an_unchanged_folder_sends_nothing(ws):
    canvas = Canvas.for_workspace(ws)
    changes = []
    canvas.observe(changes.append, names=["nodes", "edges", "options", "positions"])
    canvas.sync(ws)
    canvas.sync(ws)
    assert changes == []


def test_a_drag_is_saved_and_the_next_canvas_opens_with_it(ws):
    canvas = Canvas.for_workspace(ws)
    drag(canvas, "attention.pdf", 900, -300)
    saved = json.loads((ws.root / STATE_PATH).read_text())
    assert saved["positions"] == {"attention.pdf": [900, -300]}
    again = Canvas.for_workspace(Workspace.open(ws.root))
    node = by_id(again.nodes)["attention.pdf"]
    assert (node["x"], node["y"]) == (900, -300)
    assert again.positions == {"attention.pdf": [900.0, -300.0]}


def test_a_dragged_card_stays_put_through_later_syncs(ws):
    canvas = Canvas.for_workspace(ws)
    drag(canvas, "the-transformer-claim.md", 40, 40)
    operations.grow(ws, "More", upstream=["attention.pdf"])
    canvas.sync(ws)
    node = by_id(canvas.nodes)["the-transformer-claim.md"]
    assert (node["x"], node["y"]) == (40, 40)


def test_a_file_deleted_outside_disappears_and_leaves_a_ghost(ws):
    canvas = Canvas.for_workspace(ws)
    os.unlink(ws.root / "the-transformer-claim.md")
    ws.refresh()
    canvas.sync(ws)
    nodes = by_id(canvas.nodes)
    assert "the-transformer-claim.md" not in nodes
    ghost = nodes[ghost_id("the-transformer-claim.md")]
    assert ghost["group"] == "dangling" and ghost["path"] == "why-not-recurrence.md"
    assert {(e["from"], e["to"]) for e in canvas.edges} == {(ghost["id"], "why-not-recurrence.md")}


def test_an_unusable_canvas_json_is_reported_and_kept(ws):
    (ws.root / ".bh").mkdir(exist_ok=True)
    (ws.root / STATE_PATH).write_text("{oops")
    canvas = Canvas.for_workspace(ws)
    assert STATE_PATH in canvas.status and "not JSON" in canvas.status
    assert len(canvas.nodes) == 3
    drag(canvas, "attention.pdf", 1, 2)
    assert canvas.status == ""
    assert (ws.root / (STATE_PATH + ".bad")).read_text() == "{oops"


def test_a_refused_save_is_reported_not_raised(ws, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "canvas.json"
    outside.write_text('{"version": 1, "positions": {}}')
    (ws.root / ".bh").mkdir(exist_ok=True)
    os.symlink(outside, ws.root / STATE_PATH)
    canvas = Canvas.for_workspace(ws)
    drag(canvas, "attention.pdf", 5, 5)
    assert "not saved" in canvas.status and "symlink" in canvas.status
    assert outside.read_text() == '{"version": 1, "positions": {}}'


def test_a_click_in_the_browser_reaches_observers(ws):
    canvas = Canvas.for_workspace(ws)
    seen = []
    canvas.observe(lambda c: seen.append(c["new"]), names=["selected"])
    canvas.set_state({"selected": "the-transformer-claim.md"})
    assert seen == ["the-transformer-claim.md"]


def test_opening_never_rewrites_canvas_json(ws):
    (ws.root / ".bh").mkdir(exist_ok=True)
    text = '{"positions": {"attention.pdf": [7, 8], "bad.md": "nowhere"}}'
    (ws.root / STATE_PATH).write_text(text)
    canvas = Canvas.for_workspace(ws)
    canvas.sync(ws)
    assert (ws.root / STATE_PATH).read_text() == text
    assert "'bad.md'" in canvas.status
    assert by_id(canvas.nodes)["attention.pdf"]["x"] == 7


def test_a_card_that_comes_back_returns_to_its_saved_spot(ws):
    canvas = Canvas.for_workspace(ws)
    drag(canvas, "why-not-recurrence.md", -700, 500)
    text = (ws.root / "why-not-recurrence.md").read_bytes()
    os.unlink(ws.root / "why-not-recurrence.md")
    ws.refresh()
    canvas.sync(ws)
    assert "why-not-recurrence.md" not in by_id(canvas.nodes)
    (ws.root / "why-not-recurrence.md").write_bytes(text)
    ws.refresh()
    canvas.sync(ws)
    node = by_id(canvas.nodes)["why-not-recurrence.md"]
    assert (node["x"], node["y"]) == (-700, 500)


def test_syncing_a_workspace_of_another_folder_starts_afresh(ws, tmp_path_factory):
    other = tmp_path_factory.mktemp("other")
    (other / "only.md").write_text("# Only\n")
    canvas = Canvas.for_workspace(ws)
    canvas.sync(Workspace.open(other))
    assert [n["id"] for n in canvas.nodes] == ["only.md"]
    assert canvas.edges == []


def test_a_missing_file_that_appears_replaces_its_ghost(ws):
    (ws.root / "later.md").write_text("---\nupstream:\n  - notes/soon.md\n---\n# Later\n")
    ws.refresh()
    canvas = Canvas.for_workspace(ws)
    assert ghost_id("notes/soon.md") in by_id(canvas.nodes)
    (ws.root / "notes").mkdir()
    (ws.root / "notes/soon.md").write_text("# Soon\n")
    ws.refresh()
    canvas.sync(ws)
    nodes = by_id(canvas.nodes)
    assert ghost_id("notes/soon.md") not in nodes and "notes/soon.md" in nodes
    assert ("notes/soon.md", "later.md") in {(e["from"], e["to"]) for e in canvas.edges}
    assert not nodes["later.md"]["label"].startswith("⚠")


def test_focus_selects_the_card_and_show_focuses_it_again(ws):
    canvas = Canvas.for_workspace(ws)
    seen = []
    canvas.observe(lambda c: seen.append(c["new"]), names=["focus"])
    canvas.show("why-not-recurrence.md")
    assert (canvas.selected, canvas.selection) == (
        "why-not-recurrence.md",
        ["why-not-recurrence.md"],
    )
    # The same card again (the learner panned away meanwhile): the browser is told again.
    canvas.show("why-not-recurrence.md")
    assert seen == ["why-not-recurrence.md", "", "why-not-recurrence.md"]
    assert canvas.selected == "why-not-recurrence.md"


def test_reports_from_the_browser_reach_observers_and_change_nothing_on_disk(ws):
    canvas = Canvas.for_workspace(ws)
    before = {p: (ws.root / p).read_bytes() for p in ws.nodes}
    seen = []
    canvas.observe(seen.append, names=["opened", "link", "unlink", "selection"])
    canvas.set_state({"opened": {"path": "attention.pdf", "n": 1}})
    canvas.set_state({"opened": {"path": "attention.pdf", "n": 2}})  # opened twice: two reports
    canvas.set_state({"selection": ["attention.pdf", "why-not-recurrence.md"]})
    canvas.set_state({"link": {"from": "attention.pdf", "to": "why-not-recurrence.md", "n": 1}})
    canvas.set_state({"unlink": {"from": "attention.pdf", "to": "why-not-recurrence.md", "n": 1}})
    assert [c["name"] for c in seen] == ["opened", "opened", "selection", "link", "unlink"]
    # The widget only reports: linking is the app's call (operations.connect).
    assert {p: (ws.root / p).read_bytes() for p in ws.nodes} == before
    assert ws.upstream("why-not-recurrence.md") == ["the-transformer-claim.md"]


def test_a_small_folder_is_laid_out_for_the_pane_it_is_shown_in(ws):
    for i in range(12):
        operations.grow(ws, f"Idea {i}", upstream=["attention.pdf"])
    wide = by_id(Canvas.for_workspace(ws, aspect=3.0).nodes)
    tall = by_id(Canvas.for_workspace(ws, aspect=0.5).nodes)

    def shape(nodes):
        xs, ys = [n["x"] for n in nodes.values()], [n["y"] for n in nodes.values()]
        return (max(xs) - min(xs)) / max(max(ys) - min(ys), 1)

    assert shape(wide) > 2 * shape(tall)


def test_outside_a_marimo_server_the_widget_keeps_its_script_inline(monkeypatch):
    # No kernel here (a plain Python session), or the switch set to "off": marimo's own way,
    # the source itself, never a URL that nothing serves.
    from basehalf_widgets.esm import SWITCH, url_of

    assert Canvas()._esm == Canvas._esm
    monkeypatch.setenv(SWITCH, "off")
    assert Canvas()._esm == Canvas._esm
    assert url_of(Canvas).startswith(f"./@file/{len(Canvas._esm.encode())}-bh-canvas-")


def test_outside_a_marimo_server_nothing_is_preloaded():
    # The script goes with the widget there: a preload tag would name a URL nothing serves.
    from basehalf_widgets.esm import preload

    assert preload(Canvas) == ""
