"""``Workspace.refresh()`` reuses the listing of a folder whose stamp did not change.

Only the notes of such a folder are stat'ed again; these tests check that no kind of change
made outside basehalf is missed that way: edits in place, atomic saves, new, removed and
renamed files and folders, a note swapped for a FIFO or a link, and a tool that sets a
folder's mtime back.
"""

from __future__ import annotations

import os
import time

import pytest

from basehalf_core.folder import index_cache
from basehalf_core.folder.workspace import Workspace

RACY = 0.05  # seconds: how old a folder's stamp must be for its listing to be reused


@pytest.fixture
def ws(tmp_path, monkeypatch):
    """An opened folder whose folders' listings are all reusable (older than the racy window)."""
    monkeypatch.setattr(index_cache, "RACY_NS", int(RACY * 1e9))
    (tmp_path / "week-1").mkdir()
    (tmp_path / "week-2").mkdir()
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4 stand-in")
    (tmp_path / "week-1/a.md").write_text("---\nupstream: [paper.pdf]\n---\n# A\n")
    (tmp_path / "week-1/b.md").write_text("---\nupstream: [week-1/a.md]\n---\n# B\n")
    (tmp_path / "week-2/c.md").write_text("# C\n")
    (tmp_path / "week-2/figure.png").write_bytes(b"png")
    time.sleep(2 * RACY)
    ws = Workspace.open(tmp_path)
    assert set(ws._dirs) == {"", "week-1", "week-2"}, "every folder's listing should be reusable"
    assert ws.refresh() == set()
    return ws


def _folder(ws):
    return ws.root


def test_an_edit_in_place_is_seen(ws):
    note = _folder(ws) / "week-2/c.md"
    with open(note, "w") as fh:  # in place: the folder's stamp does not change
        fh.write("---\nupstream: [week-1/b.md]\n---\n")
    assert ws.refresh() == {"week-2/c.md"}
    assert ws.upstream("week-2/c.md") == ["week-1/b.md"]
    assert ws.downstream("week-1/b.md") == ["week-2/c.md"]


def test_an_atomic_save_with_the_same_size_and_mtime_is_seen(ws):
    note = _folder(ws) / "week-1/b.md"
    st = note.stat()
    new = note.with_name(".b.md.swp")
    new.write_text("---\nupstream: [week-2/c.md]\n---\n# B\n"[: st.st_size].ljust(st.st_size))
    os.utime(new, ns=(st.st_atime_ns, st.st_mtime_ns))
    new.replace(note)  # a new inode under the old name; same size, same mtime
    assert ws.refresh() == {"week-1/b.md"}
    assert "week-2/c.md" in ws.upstream("week-1/b.md")


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (
            lambda r: (r / "week-1/new.md").write_text("---\nupstream: [week-2/c.md]\n---\n"),
            {"week-1/new.md"},
        ),
        (lambda r: (r / "week-2/c.md").unlink(), {"week-2/c.md"}),
        (lambda r: (r / "week-2/c.md").rename(r / "week-2/d.md"), {"week-2/c.md", "week-2/d.md"}),
        (lambda r: (r / "week-2/figure.png").unlink(), {"week-2/figure.png"}),
        (lambda r: (r / "week-2/sub").mkdir(), {"week-2/sub"}),
        (lambda r: os.mkfifo(r / "week-2/pipe.md"), {"week-2/pipe.md"}),
        (lambda r: os.symlink("/etc", r / "week-1/out"), {"week-1/out"}),
        (lambda r: os.rename(r / "week-2", r / "week-3"), None),
    ],
    ids=["new note", "removed", "renamed", "removed file", "new folder", "fifo", "link", "dir"],
)
def test_every_change_to_a_folders_names_is_seen(ws, change, expected):
    root = _folder(ws)
    change(root)
    changed = ws.refresh()
    on_disk = {
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if not any(part.startswith(".") for part in p.relative_to(root).parts)
    }
    assert set(ws.nodes) == on_disk
    if expected is not None:
        assert changed == expected
    assert ws.refresh() == set(), "a second refresh finds nothing new"


def test_a_note_swapped_for_a_fifo_or_a_link_out_is_never_opened(ws):
    root = _folder(ws)
    (root / "week-1/a.md").unlink()
    os.mkfifo(root / "week-1/a.md")
    (root / "week-1/b.md").unlink()
    os.symlink("/etc/hostname", root / "week-1/b.md")
    assert ws.refresh() == {"week-1/a.md", "week-1/b.md"}  # would hang if the FIFO were read
    assert ws.nodes["week-1/a.md"].special
    assert ws.nodes["week-1/b.md"].outside_link
    assert ws.refresh() == set()


def test_a_tool_that_sets_a_folders_mtime_back_is_still_seen(ws):
    """rsync -a and tar restore folder mtimes after adding files; the ctime still moves."""
    root = _folder(ws)
    st = (root / "week-2").stat()
    (root / "week-2/late.md").write_text("# Late\n")
    os.utime(root / "week-2", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert ws.refresh() == {"week-2/late.md"}


def test_a_folder_changed_within_the_racy_window_is_listed_again(ws, monkeypatch):
    root = _folder(ws)
    (root / "week-1/fresh.md").write_text("# Fresh\n")
    assert ws.refresh() == {"week-1/fresh.md"}
    assert "week-1" not in ws._dirs, "a folder changed just now must not be reused yet"
    (root / "week-1/fresher.md").write_text("# Fresher\n")  # in the same clock tick, perhaps
    assert ws.refresh() == {"week-1/fresher.md"}
