"""The pyvis network the canvas draws: a card per node, edges per link, ghosts and markers."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import corpus

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import network
from basehalf_core.views.network import GHOST_PREFIX, build, ghost_id, options, traits

XSS_NAME = "<img src=x onerror=alert(1)>.md"


@pytest.fixture
def study(tmp_path):
    """Real PDF and EPUB, notes grown through operations, a practice card, its grading."""
    shutil.copy(corpus("attention-1706.03762.pdf"), tmp_path / "attention.pdf")
    shutil.copy(corpus("gutenberg_pg1342.epub"), tmp_path / "pride.epub")
    ws = Workspace.open(tmp_path)
    claim = operations.grow(ws, "The Transformer claim", upstream=["attention.pdf"])
    why = operations.grow(ws, "Why not recurrence", upstream=[claim])
    operations.grow(ws, "Opening line", upstream=["pride.epub"])
    card = operations.grow(ws, "QKV", upstream=[claim, why], fields={"kind": "practice"})
    operations.grow(ws, "QKV graded", upstream=[card], name="qkv.grading.md")
    return ws


def by_id(nodes):
    return {n["id"]: n for n in nodes}


def test_every_node_is_a_card_and_every_link_an_edge(study):
    net = build(study)
    nodes = by_id(net.nodes)
    assert set(nodes) == set(study.nodes)
    assert {(e["from"], e["to"]) for e in net.edges} == set(study.graph.edges)
    assert len({(e["from"], e["to"]) for e in net.edges}) == len(net.edges)


def test_kinds_are_styled_apart(study):
    nodes = by_id(build(study).nodes)
    kinds = {n["group"] for n in nodes.values()}
    assert kinds == {"pdf", "epub", "note", "practice", "grading"}
    groups = options()["groups"]
    colours = {groups[k]["color"]["border"] for k in kinds}
    assert len(colours) == len(kinds)
    assert nodes["attention.pdf"]["label"] == "attention.pdf"
    assert nodes["the-transformer-claim.md"]["label"] == "The Transformer claim"


def test_physics_is_off_and_positions_come_from_python(study):
    net = build(study)
    assert net.options["physics"]["enabled"] is False
    assert all(isinstance(n["x"], int) and isinstance(n["y"], int) for n in net.nodes)
    assert len({(n["x"], n["y"]) for n in net.nodes}) == len(net.nodes)


def test_given_positions_are_kept(study):
    nodes = by_id(build(study, {"attention.pdf": (1234.4, -50.0)}).nodes)
    assert (nodes["attention.pdf"]["x"], nodes["attention.pdf"]["y"]) == (1234, -50)


def test_dangling_entries_become_one_ghost_each_with_dashed_edges(tmp_path):
    for name in ("a.md", "b.md"):
        (tmp_path / name).write_text("---\nupstream:\n  - old/moved.pdf\n---\n# x\n")
    ws = Workspace.open(tmp_path)
    net = build(ws)
    ghosts = [n for n in net.nodes if n["id"].startswith(GHOST_PREFIX)]
    assert len(ghosts) == 1
    ghost = ghosts[0]
    assert ghost["id"] == ghost_id("old/moved.pdf")
    assert ghost["group"] == "dangling"
    assert "old/moved.pdf" in ghost["label"]
    assert ghost["path"] == "a.md"  # clicking it opens the first note that lists it
    edges = [e for e in net.edges if e["from"] == ghost["id"]]
    assert {e["to"] for e in edges} == {"a.md", "b.md"}
    assert all(e["dashes"] for e in edges)
    assert options()["groups"]["dangling"]["shapeProperties"]["borderDashes"]


@pytest.mark.parametrize(
    ("text", "marker"),
    [
        ("---\nupstream:\n  - /etc/passwd\n---\n# x\n", "invalid entry '/etc/passwd'"),
        ("---\nupstream:\n  - ../up.md\n---\n# x\n", "invalid entry '../up.md'"),
        ("---\nupstream: {a: b}\n---\n# x\n", "unreadable"),
        ("---\nupstream: &a [x]\n---\n# x\n", "unreadable"),
        ("---\nupstream:\n  - gone.md\n---\n# x\n", "dangling entry 'gone.md'"),
    ],
)
def test_bad_stores_are_marked_on_their_card(tmp_path, text, marker):
    (tmp_path / "bad.md").write_text(text, encoding="utf-8")
    (tmp_path / "good.md").write_text("# fine\n", encoding="utf-8")
    nodes = by_id(build(Workspace.open(tmp_path)).nodes)
    bad, good = nodes["bad.md"], nodes["good.md"]
    assert marker in bad["title"]
    assert bad["label"].startswith("⚠ ")
    assert bad["borderWidth"] == 3 and bad["color"]["border"] == network.ISSUE_BORDER
    assert "borderWidth" not in good and not good["label"].startswith("⚠")


def test_labels_and_titles_are_the_text_itself(tmp_path):
    (tmp_path / XSS_NAME).write_text("# <script>alert(2)</script>\n", encoding="utf-8")
    (tmp_path / "t.md").write_text(
        '---\ntitle: "<b onmouseover=alert(3)>bold</b>"\n---\nbody\n', encoding="utf-8"
    )
    nodes = by_id(build(Workspace.open(tmp_path)).nodes)
    assert nodes[XSS_NAME]["label"] == "<script>alert(2)</script>"
    assert XSS_NAME in nodes[XSS_NAME]["title"]
    assert nodes["t.md"]["label"].replace("\n", " ") == "<b onmouseover=alert(3)>bold</b>"
    # Titles are strings (vis-network shows strings with innerText), never DOM or HTML flags.
    assert all(isinstance(n["title"], str) for n in nodes.values())
    # No "html"/"markdown" label mode: vis-network would parse tags in labels then.
    assert options()["nodes"]["font"]["multi"] is False


def test_titles_in_any_script_are_kept(tmp_path):
    (tmp_path / "注意力机制.md").write_text("# 注意力机制：为什么不用循环\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("---\nupstream:\n  - 注意力机制.md\n---\n# B\n")
    net = build(Workspace.open(tmp_path))
    label = by_id(net.nodes)["注意力机制.md"]["label"]
    assert label.replace("\n", "") == "注意力机制：为什么不用循环"
    assert [(e["from"], e["to"]) for e in net.edges] == [("注意力机制.md", "b.md")]


def test_long_titles_are_shortened_on_the_card_but_whole_in_the_tooltip(tmp_path):
    title = "A very long title " * 8
    (tmp_path / "long.md").write_text(f"# {title}\n", encoding="utf-8")
    node = build(Workspace.open(tmp_path)).nodes[0]
    assert node["label"].count("\n") == network.LABEL_LINES - 1 and node["label"].endswith("…")
    assert title.strip() in node["title"]


@pytest.mark.parametrize(
    "title",
    [
        "The Transformer claim",
        'We call our particular attention "Scaled Dot-Product Attention"',
        "Positional encoding with sinusoids of geometrically increasing wavelengths",
        "05-positional-encoding-and-why-it-is-needed-at-all",
        "Encoder–decoder attention: queries from the decoder, keys and values from the encoder",
    ],
)
def test_card_labels_wrap_between_words_and_never_cut_one(title):
    label = network.card_label(title)
    lines = label.split("\n")
    assert 1 <= len(lines) <= network.LABEL_LINES
    assert all(len(ln) <= network.LINE_CHARS or " " not in ln for ln in lines)
    # The card reads as the start of the title, ending between two words.
    text = ""
    for line in lines:
        text += line if not text or text.endswith("-") else " " + line
    shown = text.removesuffix("…").rstrip(",;:")
    assert title.startswith(shown)
    rest = title[len(shown) :]
    assert rest == "" or rest[0] in " ,;:" or shown.endswith("-")
    assert label.endswith("…") == bool(rest.strip(" ,;:"))


def test_unlinked_folders_get_no_card_but_linked_ones_do(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "chapter").mkdir()
    (tmp_path / "n.md").write_text("---\nupstream:\n  - chapter/\n---\n# n\n", encoding="utf-8")
    ids = set(by_id(build(Workspace.open(tmp_path)).nodes))
    assert ids == {"chapter", "n.md"}


def test_traits_are_json_and_carry_no_html_page(study):
    t = traits(build(study))
    text = json.dumps(t)
    assert set(t) == {"nodes", "edges", "options"}
    assert "<script" not in text and "cdn" not in text.lower()


def test_a_big_folder_gets_every_card_and_edge(tmp_path):
    (tmp_path / "root.md").write_text("# root\n")
    for i in range(3000):
        (tmp_path / f"n{i:04}.md").write_text(f"---\nupstream:\n  - root.md\n---\n# {i}\n")
    net = build(Workspace.open(tmp_path))
    assert len(net.nodes) == 3001 and len(net.edges) == 3000
    assert len({n["id"] for n in net.nodes}) == 3001
    assert "n2999.md" in net.node_ids and "nope.md" not in net.node_ids
