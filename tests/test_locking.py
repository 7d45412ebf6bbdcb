"""No lost updates: real threads, real processes, real SIGKILLs, counted on disk.

Each test counts what writers *reported* against what is *present* afterwards; nothing is
mocked except, in one test, the moment at which an editor's save lands (so that the race
between the last compare and the replace is hit every time instead of by luck).
"""

import json
import os
import random
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from basehalf_core.folder import fsio, multifile, writing
from basehalf_core.folder import operations as ops
from basehalf_core.folder.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def make_folder(root: Path, sources: int) -> None:
    for i in range(sources):
        (root / f"s{i:02}.md").write_text(f"# source {i}\n")
    (root / "target.md").write_text("---\ntitle: Target\n# keep me\n---\n# Target\n\nBody.\n")


def entries_of(root: Path, note: str) -> list[str]:
    ws = Workspace.open(root)
    return ws.nodes[note].store.paths


def test_threads_in_one_process_lose_no_connect(tmp_path):
    make_folder(tmp_path, 16)
    reported: list[str] = []
    barrier = threading.Barrier(16)

    def worker(i: int) -> None:
        ws = Workspace.open(tmp_path)  # each marimo session has its own index
        barrier.wait()
        if ops.connect(ws, f"s{i:02}.md", "target.md"):
            reported.append(f"s{i:02}.md")

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    present = entries_of(tmp_path, "target.md")
    assert sorted(present) == sorted(reported)
    assert len(reported) == 16
    text = (tmp_path / "target.md").read_text()
    assert text.count("---\n") == 2 and "# keep me" in text and text.endswith("Body.\n")


def test_threads_sharing_pairs_of_writes_keep_both(tmp_path):
    """Two threads, one note, 60 rounds: the second update must never vanish."""
    make_folder(tmp_path, 2)
    lost = 0
    for _ in range(60):
        (tmp_path / "target.md").write_text("# Target\n")
        ws_a, ws_b = Workspace.open(tmp_path), Workspace.open(tmp_path)
        barrier = threading.Barrier(2)

        def go(ws, name, barrier=barrier):
            barrier.wait()
            ops.connect(ws, name, "target.md")

        pair = [
            threading.Thread(target=go, args=(ws_a, "s00.md")),
            threading.Thread(target=go, args=(ws_b, "s01.md")),
        ]
        for t in pair:
            t.start()
        for t in pair:
            t.join()
        lost += 2 - len(entries_of(tmp_path, "target.md"))
    assert lost == 0


def cli(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "basehalf_cli.main", *args],
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def test_twelve_processes_connecting_into_one_note_lose_nothing(tmp_path):
    make_folder(tmp_path, 12)
    procs = [cli("connect", str(tmp_path), f"s{i:02}.md", "target.md") for i in range(12)]
    codes = [p.wait(timeout=120) for p in procs]
    errors = [p.stderr.read().decode() for p in procs]
    reported = [f"s{i:02}.md" for i, c in enumerate(codes) if c == 0]
    assert codes == [0] * 12, errors
    assert sorted(entries_of(tmp_path, "target.md")) == sorted(reported)


def test_an_editor_save_landing_between_compare_and_replace_is_kept_and_reported(
    tmp_path, monkeypatch
):
    note = tmp_path / "n.md"
    note.write_text("# mine\n")
    real_exchange = writing._exchange
    assert real_exchange is not None, "renameat2(RENAME_EXCHANGE) is available on Linux"

    def editor_saves_first(a, b):
        editor = tmp_path / "editor-save"
        editor.write_text("# the editor's words\n")
        os.replace(editor, note)  # an editor's own atomic save, no lock taken
        monkeypatch.setattr(writing, "_exchange", real_exchange)  # once only
        return real_exchange(a, b)

    monkeypatch.setattr(writing, "_exchange", editor_saves_first)
    with pytest.raises(fsio.ChangedOnDisk, match="saved by another program"):
        writing.atomic_write(note, b"# ours\n", expected=b"# mine\n")
    assert note.read_text() == "# the editor's words\n"
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".bh-tmp")]

    # Through update() the plan is made again on the editor's bytes: both survive.
    monkeypatch.setattr(writing, "_exchange", editor_saves_first)
    note.write_text("# mine\n")
    writing.update(tmp_path, "n.md", lambda before: before + b"connect\n")
    assert note.read_text() == "# the editor's words\nconnect\n"


def test_stale_temp_files_go_on_open_but_a_live_writers_stay(tmp_path):
    (tmp_path / "n.md").write_text("# n\n")
    (tmp_path / ".bh").mkdir()
    key = fsio.lock_key(tmp_path / "n.md")
    stale = tmp_path / f".{key}.0badc0de.bh-tmp"
    stale.write_text("half a note")
    state_tmp = tmp_path / ".bh" / f".{fsio.lock_key(tmp_path / '.bh/canvas.json')}.01.bh-tmp"
    state_tmp.write_text("{")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from basehalf_core.folder import fsio\n"
            "with fsio.locked(Path(sys.argv[1]), 'n.md'):\n"
            "    print('held', flush=True); time.sleep(30)",
            str(tmp_path),
        ],
        env=ENV,
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout.readline().strip() == b"held"
        Workspace.open(tmp_path)
        assert stale.exists()  # its writer (the holder of the lock) may still rename it
        assert not state_tmp.exists()
    finally:
        holder.kill()
        holder.wait()
    Workspace.open(tmp_path)
    assert not stale.exists()


# --- kills ---------------------------------------------------------------------------------

RUNNER = """
import sys
from basehalf_cli.main import main
print("ready", flush=True)
sys.exit(main(sys.argv[1:]))
"""


def start(args: list[str]) -> subprocess.Popen:
    """``basehalf ARGS`` in a process that says ``ready`` once its imports are done."""
    proc = subprocess.Popen([sys.executable, "-c", RUNNER, *args], env=ENV, stdout=subprocess.PIPE)
    assert proc.stdout.readline().strip() == b"ready"
    return proc


def work_time(args: list[str]) -> float:
    """How long the work itself takes (imports excluded): the window to kill in."""
    proc = start(args)
    started = time.perf_counter()
    assert proc.wait() == 0
    return time.perf_counter() - started


def killed_at_random(args: list[str], window: float, rng: random.Random) -> bool:
    """Run ``basehalf ARGS``; SIGKILL it at a random moment of its work. True if it was killed."""
    proc = start(args)
    time.sleep(rng.uniform(0, window))
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return killed


def mv_folder(root: Path, notes: int) -> None:
    (root / "paper.pdf").write_bytes(b"%PDF-1.4 stand-in")
    (root / "a.md").write_text("---\nupstream: [paper.pdf]\n---\n# A\n")
    for i in range(notes):
        (root / f"n{i:03}.md").write_text(
            f"---\ntitle: N{i}\nupstream:\n  - paper.pdf\n  - a.md\n---\n# N{i}\n"
        )
    os.symlink("/etc", root / "outside-link")  # one node that must be skipped, not stop mv


def check_whole(root: Path) -> Workspace:
    ws = Workspace.open(root)
    names = {"a.md", "b.md"} & set(ws.nodes)
    assert len(names) == 1, f"the moved file is under {sorted(names)}"
    dangling = [i for i in ws.issues() if i.problem == "dangling"]
    assert dangling == [], dangling[:3]
    assert not list(root.rglob("*.bh-tmp"))
    assert not (root / ".bh/journal.json").exists()
    return ws


def test_sigkilled_mv_is_finished_or_undone_by_the_next_open(tmp_path):
    rng = random.Random(10)
    mv_folder(tmp_path, 60)
    window = work_time(["mv", str(tmp_path), "a.md", "b.md"])
    check_whole(tmp_path)
    kills = 0
    for _ in range(6):
        ws = Workspace.open(tmp_path)
        old, new = ("b.md", "a.md") if "b.md" in ws.nodes else ("a.md", "b.md")
        kills += killed_at_random(["mv", str(tmp_path), old, new], window, rng)
        check_whole(tmp_path)
    assert kills >= 2, "the kills should land while mv runs"


def test_sigkilled_connects_leave_no_torn_note(tmp_path):
    rng = random.Random(11)
    make_folder(tmp_path, 12)
    body = (tmp_path / "target.md").read_text().split("---\n", 2)[2]
    for i in range(5):
        killed_at_random(["connect", str(tmp_path), f"s{i:02}.md", "target.md"], 0.15, rng)
        ws = Workspace.open(tmp_path)
        store = ws.nodes["target.md"].store
        assert store.unreadable == ""
        assert ws.body("target.md") == body
        assert not list(tmp_path.rglob("*.bh-tmp"))


def test_a_journal_left_between_link_and_unlink_leaves_one_name(tmp_path):
    mv_folder(tmp_path, 3)
    os.link(tmp_path / "a.md", tmp_path / "b.md")
    (tmp_path / ".bh").mkdir()
    (tmp_path / ".bh/journal.json").write_text(
        json.dumps({"op": "move", "src": "a.md", "dest": "b.md"})
    )
    ws = check_whole(tmp_path)
    assert ws.upstream("n000.md") == ["paper.pdf", "b.md"]


def test_a_journal_left_before_the_file_moved_is_undone(tmp_path):
    mv_folder(tmp_path, 3)
    (tmp_path / ".bh").mkdir()
    (tmp_path / ".bh/journal.json").write_text(
        json.dumps({"op": "move", "src": "a.md", "dest": "b.md"})
    )
    before = {p.name: p.read_bytes() for p in tmp_path.glob("*.md")}
    ws = check_whole(tmp_path)
    assert "a.md" in ws.nodes
    assert {p.name: p.read_bytes() for p in tmp_path.glob("*.md")} == before


def test_mv_past_a_symlink_out_of_the_folder_finishes_and_reports_it(tmp_path):
    mv_folder(tmp_path, 3)
    (tmp_path / "zz.md").write_text("---\nupstream: [a.md]\n---\n")
    report = multifile.move(Workspace.open(tmp_path), "a.md", "b.md").as_dict()
    assert report["updated"] == ["n000.md", "n001.md", "n002.md", "zz.md"]
    assert {
        "path": "outside-link",
        "reason": "symlink that points outside the folder; not followed",
    } in report["skipped"]
    check_whole(tmp_path)


def test_a_killed_move_rewrites_short_wikilinks_from_its_journal(tmp_path):
    """Obsidian ``[[a]]`` no longer resolves once a.md is gone: the journal keeps the links."""
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "c.md").write_text('---\nupstream: ["[[a]]"]\n---\n# C\n')
    ws = Workspace.open(tmp_path)
    assert ws.upstream("c.md") == ["a.md"]
    links = multifile._wikilinks_to(ws, multifile._renamer("a.md", "notes/b.md"))
    (tmp_path / "notes").mkdir()
    os.link(tmp_path / "a.md", tmp_path / "notes/b.md")  # killed between link and unlink
    (tmp_path / ".bh").mkdir()
    plan = {"op": "move", "src": "a.md", "dest": "notes/b.md", "links": links}
    (tmp_path / ".bh/journal.json").write_text(json.dumps(plan))
    ws = Workspace.open(tmp_path)
    assert not (tmp_path / "a.md").exists()
    assert ws.upstream("c.md") == ["notes/b.md"]
    assert "[[" in (tmp_path / "c.md").read_text()
    assert [i for i in ws.issues() if i.problem == "dangling"] == []


# --- the note is replaced by something else than a file at the last moment --------------------

REPLACEMENTS = {
    "folder": lambda p, out: (p.unlink(), p.mkdir(), (p / "inside.md").write_text("# mine\n")),
    "link-out": lambda p, out: (p.unlink(), p.symlink_to(out)),
    "fifo": lambda p, out: (p.unlink(), os.mkfifo(p)),
}


def _one_note(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A folder with one note ``n.md``, and a file outside it that a link could point to."""
    folder, out = tmp_path / "study", tmp_path / "outside.txt"
    folder.mkdir()
    out.write_text("outside\n")
    note = folder / "n.md"
    note.write_text("# mine\n")
    return folder, out, note


def _still_theirs(note: Path, kind: str, out: Path) -> None:
    if kind == "folder":
        assert (note / "inside.md").read_text() == "# mine\n"
    elif kind == "link-out":
        assert note.is_symlink() and out.read_text() == "outside\n"
    else:
        assert stat.S_ISFIFO(os.lstat(note).st_mode)
    assert not [p for p in note.parent.rglob("*") if p.name.endswith(".bh-tmp")]


@pytest.mark.parametrize("kind", list(REPLACEMENTS))
def test_a_note_replaced_by_a_folder_link_or_fifo_just_before_the_swap_is_kept(
    tmp_path, monkeypatch, kind
):
    """The exchange swaps whatever is at the name: a folder (with the learner's files in it),
    a symlink or a FIFO swapped out must be put back, never hidden under a temp name."""
    folder, out, note = _one_note(tmp_path)
    real_exchange = writing._exchange

    def replaced_first(a, b):
        REPLACEMENTS[kind](note, out)
        monkeypatch.setattr(writing, "_exchange", real_exchange)
        return real_exchange(a, b)

    monkeypatch.setattr(writing, "_exchange", replaced_first)
    with pytest.raises(fsio.WriteRefused):
        writing.update(folder, "n.md", lambda before: before + b"connect\n", attempts=1)
    _still_theirs(note, kind, out)


@pytest.mark.parametrize("kind", list(REPLACEMENTS))
def test_a_note_replaced_by_a_folder_link_or_fifo_before_removal_is_kept(
    tmp_path, monkeypatch, kind
):
    folder, out, note = _one_note(tmp_path)
    real_read = fsio.read_bytes

    def replaced_after_the_read(path):
        data = real_read(path)
        if path == note and data == b"# mine\n":
            REPLACEMENTS[kind](note, out)
        return data

    monkeypatch.setattr(writing, "read_bytes", replaced_after_the_read)
    with pytest.raises(fsio.WriteRefused):
        writing.update(folder, "n.md", lambda before: writing.REMOVE, attempts=1)
    _still_theirs(note, kind, out)
