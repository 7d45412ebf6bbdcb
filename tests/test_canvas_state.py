"""Dragged positions in .bh/canvas.json: round trip, merging writers, bad files kept."""

from __future__ import annotations

import json
import os

import pytest

from basehalf_core.folder.fsio import OutsideFolder
from basehalf_core.views.canvas_state import (
    STATE_PATH,
    CanvasStateInvalid,
    CanvasStore,
    encode,
    parse,
)


def test_positions_round_trip_through_the_file(tmp_path):
    store = CanvasStore(tmp_path)
    assert store.load() == {}
    store.update({"a.md": (10.0, -20.5), "docs/b.pdf": (300, 40)})
    again = CanvasStore(tmp_path).load()
    assert again == {"a.md": (10.0, -20.5), "docs/b.pdf": (300.0, 40.0)}
    doc = json.loads((tmp_path / STATE_PATH).read_text())
    assert doc == {"version": 1, "positions": {"a.md": [10, -20.5], "docs/b.pdf": [300, 40]}}


def test_a_save_merges_with_what_another_tab_saved(tmp_path):
    one, two = CanvasStore(tmp_path), CanvasStore(tmp_path)
    one.load()
    two.load()
    one.update({"a.md": (1, 1)})
    two.update({"b.md": (2, 2)})
    one.update({"a.md": (5, 5)})
    assert CanvasStore(tmp_path).load() == {"a.md": (5.0, 5.0), "b.md": (2.0, 2.0)}


def test_saving_the_same_positions_writes_nothing(tmp_path):
    store = CanvasStore(tmp_path)
    store.update({"a.md": (1, 2)})
    path = tmp_path / STATE_PATH
    stamp = path.stat().st_mtime_ns
    inode = path.stat().st_ino
    store.update({"a.md": (1, 2)})
    assert (path.stat().st_mtime_ns, path.stat().st_ino) == (stamp, inode)


def test_unicode_names_are_kept_as_written(tmp_path):
    CanvasStore(tmp_path).update({"注意力机制.md": (1, 2)})
    assert "注意力机制.md" in (tmp_path / STATE_PATH).read_text(encoding="utf-8")
    assert CanvasStore(tmp_path).load() == {"注意力机制.md": (1.0, 2.0)}


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"{not json", "not JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b"[1, 2]", "top level is list"),
        (b'{"version": 2, "positions": {}}', "version 2 is not 1"),
        (b'{"positions": [1, 2]}', "'positions' is list"),
    ],
)
def test_unusable_files_are_refused_with_a_reason(data, reason):
    with pytest.raises(CanvasStateInvalid, match=reason) as info:
        parse(data)
    assert STATE_PATH in str(info.value)


@pytest.mark.parametrize(
    "value",
    [[1], [1, 2, 3], ["1", 2], [True, 2], None, {"x": 1}, [float("nan"), 1]],
)
def test_one_bad_entry_is_skipped_and_named_the_rest_kept(tmp_path, value):
    raw = {"version": 1, "positions": {"good.md": [1, 2], "bad.md": value}}
    (tmp_path / ".bh").mkdir()
    (tmp_path / STATE_PATH).write_text(json.dumps(raw))
    store = CanvasStore(tmp_path)
    assert store.load() == {"good.md": (1.0, 2.0)}
    assert "'bad.md'" in store.problem


def test_an_unusable_file_is_reported_then_kept_as_bad_on_save(tmp_path):
    (tmp_path / ".bh").mkdir()
    (tmp_path / STATE_PATH).write_bytes(b"{half a file")
    store = CanvasStore(tmp_path)
    assert store.load() == {}
    assert "not JSON" in store.problem
    store.update({"a.md": (3, 4)})
    assert (tmp_path / (STATE_PATH + ".bad")).read_bytes() == b"{half a file"
    assert CanvasStore(tmp_path).load() == {"a.md": (3.0, 4.0)}
    assert store.problem == ""
    # A second bad file does not overwrite the first copy.
    (tmp_path / STATE_PATH).write_bytes(b"[]")
    store.update({"b.md": (1, 1)})
    assert (tmp_path / (STATE_PATH + ".bad")).read_bytes() == b"{half a file"
    assert (tmp_path / (STATE_PATH + ".bad-2")).read_bytes() == b"[]"


def test_a_bh_symlink_out_of_the_folder_is_refused(tmp_path):
    folder, elsewhere = tmp_path / "study", tmp_path / "elsewhere"
    folder.mkdir()
    elsewhere.mkdir()
    os.symlink(elsewhere, folder / ".bh")
    with pytest.raises(OutsideFolder):
        CanvasStore(folder).update({"a.md": (1, 1)})
    assert list(elsewhere.iterdir()) == []


def test_a_canvas_json_symlink_is_never_written_through(tmp_path):
    target = tmp_path / "outside.json"
    target.write_text('{"version": 1, "positions": {}}')
    folder = tmp_path / "study"
    (folder / ".bh").mkdir(parents=True)
    os.symlink(target, folder / STATE_PATH)
    with pytest.raises(OutsideFolder):
        CanvasStore(folder).update({"a.md": (1, 1)})
    assert target.read_text() == '{"version": 1, "positions": {}}'


def test_encoding_is_sorted_one_card_a_line_and_parses_back():
    data = encode({"b.md": (1.0, 2.0), "a.md": (0.5, -3.04), 'q"uote.md': (1e6, 0)})
    lines = data.decode().splitlines()
    assert lines[1:4] == [
        '  "a.md": [0.5, -3],',
        '  "b.md": [1, 2],',
        '  "q\\"uote.md": [1000000, 0]',
    ]
    assert parse(data).positions == {"a.md": (0.5, -3.0), "b.md": (1.0, 2.0), 'q"uote.md': (1e6, 0)}
    assert parse(encode({})).positions == {}
