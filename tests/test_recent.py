"""Recently opened folders: the folder picker's list, kept per user outside any study folder."""

from __future__ import annotations

import json
import multiprocessing
import os
import threading

import pytest

from basehalf_core.views import recent


@pytest.fixture
def config(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    monkeypatch.setenv("BASEHALF_CONFIG_DIR", str(folder))
    return folder


def _folders(tmp_path, n):
    made = []
    for i in range(n):
        folder = tmp_path / f"study-{i:02d}"
        folder.mkdir()
        made.append(str(folder.resolve()))
    return made


def test_newest_first_without_repeats(tmp_path, config):
    a, b = _folders(tmp_path, 2)
    recent.remember(a)
    recent.remember(b)
    recent.remember(a)
    assert [r.path for r in recent.load()] == [a, b]
    assert json.loads((config / "recent-folders.json").read_text("utf-8")) == {"folders": [a, b]}


def test_keeps_only_the_newest(tmp_path, config):
    made = _folders(tmp_path, recent.KEEP + 3)
    for folder in made:
        recent.remember(folder)
    assert [r.path for r in recent.load()] == made[::-1][: recent.KEEP]


def test_a_folder_that_has_gone_is_shown_as_gone(tmp_path, config):
    (gone,) = _folders(tmp_path, 1)
    recent.remember(gone)
    os.rmdir(gone)
    assert recent.load() == [recent.RecentFolder(gone, exists=False)]


@pytest.mark.parametrize(
    "content",
    [b"", b"{", b"[]", b'"folders"', b'{"folders": 3}', b'{"folders": [1, null]}', b"\xff\xfe"],
)
def test_a_damaged_list_reads_as_empty_and_is_mended(tmp_path, config, content):
    config.mkdir()
    (config / "recent-folders.json").write_bytes(content)
    assert recent.load() == []
    (folder,) = _folders(tmp_path, 1)
    recent.remember(folder)
    assert [r.path for r in recent.load()] == [folder]


def test_a_config_path_that_is_a_file_does_not_stop_opening(tmp_path, config):
    config.write_text("not a folder", encoding="utf-8")
    (folder,) = _folders(tmp_path, 1)
    recent.remember(folder)
    assert config.read_text(encoding="utf-8") == "not a folder"


def test_threads_opening_folders_at_once_lose_none(tmp_path, config):
    # marimo serves each browser tab as a thread of one process: two tabs opening folders at
    # the same moment must both be remembered (read, add, write under one lock).
    made = _folders(tmp_path, recent.KEEP)
    start = threading.Barrier(len(made))

    def open_one(folder):
        start.wait()
        recent.remember(folder)

    threads = [threading.Thread(target=open_one, args=(f,)) for f in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(r.path for r in recent.load()) == sorted(made)


def _remember_in_process(config_dir, folders, start):
    os.environ["BASEHALF_CONFIG_DIR"] = config_dir
    start.wait()
    for folder in folders:
        recent.remember(folder)


def test_processes_opening_folders_at_once_lose_none(tmp_path, config):
    # Two `marimo run` servers of one user are two processes sharing one list.
    made = _folders(tmp_path, recent.KEEP)
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Barrier(2)
    halves = [made[::2], made[1::2]]
    procs = [
        ctx.Process(target=_remember_in_process, args=(str(config), half, start)) for half in halves
    ]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    assert sorted(r.path for r in recent.load()) == sorted(made)
