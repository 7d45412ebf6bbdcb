"""The layered layout: layers follow the learning path, rows never overlap, new cards sit by
their upstream and nothing already placed moves."""

from __future__ import annotations

import itertools
import shutil

import pytest
from conftest import corpus

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import layout
from basehalf_core.views.layout import STEP_X, STEP_Y, Occupancy, extend, layers, positions


def note(root, name, upstream=(), title=None):
    head = ""
    if upstream:
        head = "---\nupstream:\n" + "".join(f"  - {u}\n" for u in upstream) + "---\n"
    (root / name).write_text(f"{head}# {title or name}\n", encoding="utf-8")


def overlapping(points):
    for (ax, ay), (bx, by) in itertools.combinations(points, 2):
        if abs(ax - bx) < layout.CARD_W and abs(ay - by) < layout.CARD_H:
            return (ax, ay), (bx, by)
    return None


@pytest.fixture
def course(tmp_path):
    """A PDF, three notes in a chain, a practice card drawing on two of them."""
    shutil.copy(corpus("attention-1706.03762.pdf"), tmp_path / "attention.pdf")
    note(tmp_path, "01-claim.md", ["attention.pdf"])
    note(tmp_path, "02-why.md", ["01-claim.md"])
    note(tmp_path, "03-how.md", ["02-why.md", "attention.pdf"])
    (tmp_path / "04-practice.md").write_text(
        "---\nupstream:\n  - 01-claim.md\n  - 03-how.md\nkind: practice\n---\n# Q\n",
        encoding="utf-8",
    )
    return Workspace.open(tmp_path)


def test_layers_are_longest_upstream_chains(course):
    assert layers(course) == {
        "attention.pdf": 0,
        "01-claim.md": 1,
        "02-why.md": 2,
        "03-how.md": 3,
        "04-practice.md": 4,
    }


def test_every_card_sits_below_everything_it_flows_from(course):
    xy = positions(course)
    for u, v in course.graph.edges:
        assert xy[u][1] < xy[v][1], (u, v)


def test_a_layer_reads_in_learning_path_order_left_to_right(tmp_path):
    for name in ("03-c.md", "01-a.md", "02-b.md", "10-j.md"):
        note(tmp_path, name)
    ws = Workspace.open(tmp_path)
    xy = positions(ws)
    row = sorted(xy, key=lambda p: xy[p][0])
    assert row == ["01-a.md", "02-b.md", "03-c.md", "10-j.md"]
    assert {y for _, y in xy.values()} == {0}


def test_a_cycle_is_laid_out_without_hanging_and_without_overlap(tmp_path):
    note(tmp_path, "a.md", ["c.md"])
    note(tmp_path, "b.md", ["a.md"])
    note(tmp_path, "c.md", ["b.md"])
    ws = Workspace.open(tmp_path)
    xy = positions(ws)
    assert set(xy) == {"a.md", "b.md", "c.md"}
    assert overlapping(list(xy.values())) is None
    # The cycle is entered once; the rest follows it downwards.
    assert sorted(layers(ws).values()) == [0, 1, 2]


def test_a_wide_layer_wraps_onto_more_rows_without_overlap(tmp_path):
    note(tmp_path, "root.md")
    for i in range(30):
        note(tmp_path, f"n{i:02}.md", ["root.md"])
    ws = Workspace.open(tmp_path)
    xy = positions(ws, wrap=10)
    rows = {y for p, (_, y) in xy.items() if p != "root.md"}
    assert len(rows) == 3
    assert overlapping(list(xy.values())) is None


@pytest.mark.parametrize("count", [1, 7, 60, 400])
def test_no_two_cards_overlap(tmp_path, count):
    note(tmp_path, "hub.md")
    for i in range(count):
        note(tmp_path, f"x{i:03}.md", ["hub.md"] if i % 3 else [])
    xy = positions(Workspace.open(tmp_path))
    assert len(xy) == count + 1
    assert overlapping(list(xy.values())) is None


def test_a_grown_note_appears_below_its_upstream_and_nothing_moves(course):
    before = positions(course)
    new = operations.grow(course, "Fresh idea", upstream=["02-why.md"])
    added = extend(course, before, [new])
    (x, y), (ux, uy) = added[new], before["02-why.md"]
    assert y == uy + STEP_Y
    assert abs(x - ux) <= 3 * STEP_X
    assert Occupancy(before.values()).free(added[new])
    assert overlapping([*before.values(), added[new]]) is None


def test_new_notes_without_upstream_go_right_of_everything(course):
    before = positions(course)
    new = operations.grow(course, "Loose thought", upstream=[])
    spot = extend(course, before, [new])[new]
    assert spot[0] > max(x for x, _ in before.values())
    assert spot[1] == min(y for _, y in before.values())


def test_a_chain_of_new_notes_stacks_downwards(course):
    before = positions(course)
    a = operations.grow(course, "Step A", upstream=["attention.pdf"])
    b = operations.grow(course, "Step B", upstream=[a])
    added = extend(course, before, [a, b])
    assert added[b][1] == added[a][1] + STEP_Y
    assert overlapping([*before.values(), *added.values()]) is None


@pytest.mark.parametrize(
    ("sizes", "aspect", "wrap"),
    [
        ([1, 28, 1], 1.0, 4),  # 28 cards under one root: rows of four fill a square pane
        ([1, 28, 1], 4.0, 10),  # a wide pane takes longer rows
        ([1, 28, 1], 0.4, 3),  # a tall pane: short rows
        ([1], 1.0, 1),
        ([3, 3, 3], 1.0, 2),  # 2 per row makes a squarer picture than 3
        ([3, 3, 3], 9.0, 3),  # never wider than the widest layer
    ],
)
def test_rows_are_as_long_as_the_pane_shape_wants(sizes, aspect, wrap):
    assert layout.wrap_for(sizes, aspect) == wrap
