"""The persistent index cache (format 3) gives the index a fresh scan gives, and is only a hint."""

from __future__ import annotations

import json
import os
import time

import networkx as nx
import pytest

from basehalf_core.folder import index_cache
from basehalf_core.folder.workspace import Workspace

HOUR_AGO = time.time_ns() - 3600 * 10**9
NOTES = {
    "a.md": "# A\n",
    "b.md": "---\ntitle: Bee\nkind: practice\nupstream: [a.md, gone.md, /abs, a.md, sub/]\n---\n",
    "c.md": '---\nupstream:\n  - "[[a|the A]]"\n  - "[[nowhere]]"\n  - b.md\n---\n# Sea\n',
    "d.md": "---\nupstream: {a: 1}\n---\n",  # unreadable: a mapping
    "e.md": "---\nupstream: [c.md, café.md]\n---\n",  # NFD in the file name below
    "cafe\u0301.md": "---\nupstream: [e.md]\n---\n",
    "sub/f.md": "---\nupstream: [c.md]\n---\n",
    "paper.pdf": "%PDF-1.4",
}


def _index(ws):
    nodes = {p: (n.kind, n.title, n.store.unreadable) for p, n in ws.nodes.items()}
    entries = {
        p: [(e.raw, e.path, e.reason, e.link, e.alias, e.dup) for e in n.store.entries]
        for p, n in ws.nodes.items()
    }
    return nodes, entries, sorted(ws.graph.edges), [i.as_dict() for i in ws.issues()]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(index_cache, "MIN_NODES", 1)
    for rel, text in NOTES.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        os.utime(path, ns=(HOUR_AGO, HOUR_AGO))
    return tmp_path


def test_a_cached_open_gives_the_index_a_fresh_scan_gives(folder):
    fresh = Workspace.open(folder)
    cache = json.loads((folder / index_cache.CACHE_FILE).read_text(encoding="utf-8"))
    assert cache["version"] == 3 and len(cache["notes"]) == 7
    cached = Workspace.open(folder)
    assert _index(cached) == _index(fresh)
    assert cached.nodes["b.md"].kind == "practice" and cached.nodes["b.md"].title == "Bee"
    assert cached.upstream("c.md") == ["a.md", "b.md"]  # the wikilink resolved again


def test_the_bulk_built_graph_is_the_graph_networkx_builds(folder):
    Workspace.open(folder)
    ws = Workspace.open(folder)
    ref = nx.DiGraph()
    ref.add_nodes_from(ws.nodes)
    ref.add_edges_from((u, p) for p in ws.nodes for u in ws.upstream(p))
    assert nx.utils.graphs_equal(ws.graph, ref)
    assert list(ws.graph.predecessors("c.md")) == list(ref.predecessors("c.md"))
    assert ws.graph.edges["a.md", "b.md"] == {}
    (folder / "a.md").unlink()  # the graph stays a working networkx graph
    ws.refresh()
    assert "a.md" not in ws.graph and ws.upstream("b.md") == ["sub"]


def _rec(folder, rel):
    st = (folder / rel).stat()
    return [rel, st.st_mtime_ns, st.st_size, st.st_ino]


@pytest.mark.parametrize(
    "tail",
    [
        ["T", "", True, None, None, ["../../etc/passwd", None, "", "", ""]],  # 5-long entry
        ["T", "", True, None, None, 42],
        ["T", "", True, None, None, {"a": 1}],
        [["T"], "", True, None, None, "a.md"],
        ["T", None, True, None, None, "a.md"],
        ["T", "", True, 7, None, "a.md"],
        ["T", "", True, None, None, [1, "a.md", "", "", "", ""]],
    ],
    ids=["short entry", "int entry", "dict entry", "list title", "null", "int kind", "int raw"],
)
def test_a_planted_record_with_the_right_stamp_but_a_wrong_shape_is_ignored(folder, tail):
    truth = _index(Workspace.open(folder))
    doc = json.loads((folder / index_cache.CACHE_FILE).read_text(encoding="utf-8"))
    doc["notes"] = [r for r in doc["notes"] if r[0] != "b.md"] + [_rec(folder, "b.md") + tail]
    (folder / index_cache.CACHE_FILE).write_text(json.dumps(doc), encoding="utf-8")
    assert _index(Workspace.open(folder)) == truth


def test_a_record_for_an_edited_note_is_not_used(folder):
    Workspace.open(folder)
    (folder / "a.md").write_text("---\nupstream: [b.md]\n---\n")  # fresh: not cached again
    ws = Workspace.open(folder)
    assert ws.upstream("a.md") == ["b.md"]
    doc = json.loads((folder / index_cache.CACHE_FILE).read_text(encoding="utf-8"))
    assert "a.md" not in [r[0] for r in doc["notes"]], "a note changed < 2 s ago is not kept"


@pytest.mark.parametrize(
    "planted",
    [
        '{"version": 2, "notes": {}}',
        '{"version": 3, "fields": ["title"], "notes": []}',
        '{"version": 3, "fields": ["kind", "title"], "notes": {"b.md": []}}',
        '{"version": 3, "fields": ["kind", "title"], "notes": [[["b.md"]]]}',
        "[1, 2]",
        "",
    ],
)
def test_a_foreign_cache_is_ignored(folder, planted):
    truth = _index(Workspace.open(folder))
    (folder / index_cache.CACHE_FILE).write_text(planted, encoding="utf-8")
    assert _index(Workspace.open(folder)) == truth
