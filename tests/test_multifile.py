"""Multi-file operations (move, relink, delete) against a folder that others write too.

An operation is planned on the folder as it is *under its lock*, never on an index a session
built a while ago; everything that can refuse is checked before the first write; and nothing
after the first write stops it half way. Real files in ``tmp_path``, real threads.
"""

import dataclasses
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import fsio, multifile, writing
from basehalf_core.folder import operations as ops
from basehalf_core.folder.paths import JOURNAL
from basehalf_core.folder.workspace import Workspace


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def dangling(root):
    return [(i.path, i.entry) for i in Workspace.open(root).issues() if i.problem == "dangling"]


# --- a stale index: another session (or the CLI) wrote a moment before ----------------------


@pytest.mark.parametrize(
    ("operation", "renamed"),
    [
        (lambda ws: multifile.move(ws, "a.md", "b.md"), "b.md"),
        (lambda ws: multifile.move(ws, "a.md", "sub/a.md"), "sub/a.md"),
    ],
    ids=["rename", "move-into-a-folder"],
)
def test_move_rewrites_a_link_written_after_its_index_was_built(tmp_path, operation, renamed):
    write(tmp_path, "a.md", "# A\n")
    write(tmp_path, "x.md", "# X\n")
    write(tmp_path, "y.pdf", b"%PDF-1.4")
    app = Workspace.open(tmp_path)  # a marimo session's index, built at page load
    other = Workspace.open(tmp_path)  # another tab, an agent, the CLI
    assert ops.connect(other, "a.md", "x.md")  # told: done
    assert ops.connect(other, "a.md", "y.pdf")
    report = operation(app)
    assert sorted(report.updated) == ["x.md", "y.pdf"]
    assert dangling(tmp_path) == []
    assert Workspace.open(tmp_path).upstream("x.md") == [renamed]


def test_relink_rewrites_a_dangling_entry_written_after_its_index_was_built(tmp_path):
    write(tmp_path, "c.md", "# C\n")
    write(tmp_path, "x.md", "# X\n")
    app = Workspace.open(tmp_path)
    write(tmp_path, "x.md", "---\nupstream: [gone.md]\n---\n# X\n")  # an editor's save
    report = multifile.relink(app, "gone.md", "c.md")
    assert report.updated == ["x.md"]
    assert Workspace.open(tmp_path).upstream("x.md") == ["c.md"]


def test_delete_names_every_downstream_note_even_one_linked_after_its_index(tmp_path):
    write(tmp_path, "a.md", "# A\n")
    write(tmp_path, "x.md", "# X\n")
    app = Workspace.open(tmp_path)
    ops.connect(Workspace.open(tmp_path), "a.md", "x.md")
    assert multifile.delete(app, "a.md") == ["x.md"]


def test_connects_racing_a_move_never_leave_a_link_to_the_old_name(tmp_path):
    """Forty sessions link ``t.md`` into their own note while one session renames it.

    Every connect is either refused by name (``t.md`` is gone) or lands before the move,
    which then rewrites it: no success the caller was told about ends up dangling.
    """
    n = 40
    for i in range(n):
        write(tmp_path, f"d{i:02}.md", f"# d{i}\n")
    write(tmp_path, "t.md", "# T\n")
    sessions = [Workspace.open(tmp_path) for _ in range(n + 1)]
    barrier = threading.Barrier(n + 1)
    told, refused = [], []

    def link(i):
        barrier.wait()
        try:
            if ops.connect(sessions[i], "t.md", f"d{i:02}.md"):
                told.append(i)
        except ops.OperationRefused as exc:
            refused.append(exc.reason)

    def rename():
        barrier.wait()
        multifile.move(sessions[n], "t.md", "u.md")

    threads = [threading.Thread(target=link, args=(i,)) for i in range(n)]
    threads.append(threading.Thread(target=rename))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(told) + len(refused) == n
    assert all("no such file" in r for r in refused), refused[:3]
    assert dangling(tmp_path) == []
    ws = Workspace.open(tmp_path)
    assert sorted(p for p in ws.downstream("u.md")) == sorted(f"d{i:02}.md" for i in told)


def test_connect_from_a_stale_index_refuses_an_upstream_that_is_gone(tmp_path):
    write(tmp_path, "a.md", "# A\n")
    write(tmp_path, "x.md", "# X\n")
    app = Workspace.open(tmp_path)
    multifile.move(Workspace.open(tmp_path), "a.md", "b.md")
    with pytest.raises(ops.OperationRefused, match="a.md: no such file"):
        ops.connect(app, "a.md", "x.md")
    with pytest.raises(ops.OperationRefused, match="a.md: no such file"):
        ops.grow(app, "New", upstream=["a.md"])
    assert dangling(tmp_path) == []
    assert (tmp_path / "x.md").read_text() == "# X\n"


# --- everything that can refuse is checked before the first write --------------------------


def leftover_store(root, node):
    """A store left behind by a node deleted outside basehalf (a file manager, ``git rm``)."""
    write(root, f".bh/mirror/{node}/upstream.yaml", "upstream:\n  - x.md\n")


@pytest.mark.parametrize(
    ("setup", "old", "new", "words"),
    [
        (lambda r: leftover_store(r, "b.pdf"), "a.pdf", "b.pdf", "store already exists"),
        (lambda r: write(r, "f.md", "# f\n"), "a.md", "f.md/a.md", "not a folder"),
        (lambda r: write(r, "f.md", "# f\n"), "a.pdf", "f.md/g/a.pdf", "not a folder"),
        (
            lambda r: (r / "sub").mkdir() or os.symlink("sub", r / "ln"),
            "a.md",
            "ln/a.md",
            "symlink",
        ),
        (lambda r: None, "a.md", ".git/a.md", "hidden"),
        (lambda r: None, "a.md", "notes/.a.md", "hidden"),
        (lambda r: None, "a.pdf", ".trash/a.pdf", "hidden"),
    ],
    ids=[
        "leftover-store-at-dest",
        "dest-folder-is-a-note",
        "dest-grandparent-is-a-note",
        "dest-folder-is-a-link-inside",
        "into-.git",
        "hidden-name",
        "hidden-folder",
    ],
)
def test_a_move_that_cannot_finish_is_refused_before_anything_is_written(
    tmp_path, setup, old, new, words
):
    write(tmp_path, "x.md", "# X\n")
    write(tmp_path, "a.md", "# A\n")
    write(tmp_path, "a.pdf", b"%PDF-1.4")
    write(tmp_path, "n.md", "---\nupstream: [a.md, a.pdf]\n---\n# N\n")
    ws = Workspace.open(tmp_path)
    ops.connect(ws, "x.md", "a.pdf")  # a.pdf has a store of its own to move
    setup(tmp_path)
    before = {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in sorted(tmp_path.rglob("*"))
        if p.is_file() and "/locks/" not in p.as_posix()
    }
    with pytest.raises(ops.OperationRefused, match=words):
        multifile.move(Workspace.open(tmp_path), old, new)
    after = {
        p.relative_to(tmp_path).as_posix(): p.read_bytes()
        for p in sorted(tmp_path.rglob("*"))
        if p.is_file() and "/locks/" not in p.as_posix()
    }
    assert after == before
    ws = Workspace.open(tmp_path)
    assert ws.journal_problem == "" and dangling(tmp_path) == []


def test_a_journalled_move_whose_store_cannot_follow_still_rewrites_every_link(tmp_path):
    """Killed after the file moved, with a leftover store at the new name: the next open
    finishes the move (every entry rewritten, the store named as skipped), never stops."""
    write(tmp_path, "x.md", "# X\n")
    write(tmp_path, "a.pdf", b"%PDF-1.4")
    write(tmp_path, "n.md", "---\nupstream: [a.pdf]\n---\n# N\n")
    ops.connect(Workspace.open(tmp_path), "x.md", "a.pdf")
    os.rename(tmp_path / "a.pdf", tmp_path / "b.pdf")
    leftover_store(tmp_path, "b.pdf")
    write(tmp_path, JOURNAL, '{"op": "move", "src": "a.pdf", "dest": "b.pdf", "links": {}}')
    ws = Workspace.open(tmp_path)
    assert ws.journal_problem == ""
    assert not (tmp_path / JOURNAL).exists()
    assert ws.upstream("n.md") == ["b.pdf"]
    assert (tmp_path / ".bh/mirror/a.pdf/upstream.yaml").is_file()  # kept, not lost


# --- a write that fails below basehalf says so in one line ----------------------------------


def test_a_store_that_cannot_be_made_is_a_refusal_not_an_oserror(tmp_path):
    """A folder ``d`` with a store, and a file ``d/upstream.yaml`` in it: the file's store
    would have to be made inside ``d``'s store file."""
    write(tmp_path, "a.md", "# A\n")
    write(tmp_path, "d/upstream.yaml", "x: 1\n")
    ws = Workspace.open(tmp_path)
    ops.connect(ws, "a.md", "d")
    with pytest.raises(fsio.WriteRefused, match="d/upstream.yaml.*cannot be written"):
        ops.connect(ws, "a.md", "d/upstream.yaml")


def test_delete_keeps_an_editor_save_that_lands_after_its_compare(tmp_path, monkeypatch):
    note = write(tmp_path, "a.md", "# A\n")
    ws = Workspace.open(tmp_path)
    real = fsio.read_bytes

    def editor_saves_after_the_read(path):
        data = real(path)
        if path == note and data == b"# A\n":
            write(tmp_path, "editor-tmp", "# the editor's words\n").replace(note)
        return data

    monkeypatch.setattr(writing, "read_bytes", editor_saves_after_the_read)
    monkeypatch.setattr(multifile, "read_bytes", editor_saves_after_the_read)
    with pytest.raises(BasehalfError, match="changed on disk"):
        multifile.delete(ws, "a.md", expected=b"# A\n")
    assert note.read_text() == "# the editor's words\n"


def test_a_delete_killed_between_the_file_and_its_store_is_finished_by_the_next_open(tmp_path):
    """Else the store is left behind, and a later file of that name inherits its links."""
    write(tmp_path, "x.md", "# X\n")
    write(tmp_path, "a.pdf", b"%PDF-1.4")
    ops.connect(Workspace.open(tmp_path), "x.md", "a.pdf")
    (tmp_path / "a.pdf").unlink()  # killed right after the file went
    write(tmp_path, JOURNAL, '{"op": "delete", "path": "a.pdf"}')
    Workspace.open(tmp_path)
    assert not (tmp_path / ".bh/mirror/a.pdf").exists()
    assert not (tmp_path / JOURNAL).exists()
    write(tmp_path, "a.pdf", b"%PDF-1.4 a new file")
    assert Workspace.open(tmp_path).upstream("a.pdf") == []


def test_a_delete_killed_before_the_file_went_keeps_file_and_store(tmp_path):
    write(tmp_path, "x.md", "# X\n")
    write(tmp_path, "a.pdf", b"%PDF-1.4")
    ops.connect(Workspace.open(tmp_path), "x.md", "a.pdf")
    write(tmp_path, JOURNAL, '{"op": "delete", "path": "a.pdf"}')
    assert Workspace.open(tmp_path).upstream("a.pdf") == ["x.md"]
    assert not (tmp_path / JOURNAL).exists()


# --- processes: connects and moves of the same notes, each note known by its title -----------

WORKER = """
import json, random, sys, threading
from pathlib import Path
from basehalf_core.folder import multifile
from basehalf_core.folder import operations as ops
from basehalf_core.folder.workspace import Workspace

root, role, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
told, errors = [], []

def by_title(ws):
    return {n.title: p for p, n in ws.nodes.items() if p.endswith(".md")}

def work(t):
    rng = random.Random(seed * 10 + t)
    ws = Workspace.open(root)  # each thread: a session whose index goes stale
    for k in range(15):
        names = by_title(ws)
        try:
            if role == "connect":
                a, b = rng.sample(sorted(names), 2)
                if ops.connect(ws, names[a], names[b]):
                    told.append([a, b])
            else:
                a = rng.choice(sorted(names))
                multifile.move(ws, names[a], f"{rng.choice('xyz')}/{a}-{seed}-{t}-{k}.md")
        except ops.OperationRefused as exc:
            errors.append(exc.reason)

threads = [threading.Thread(target=work, args=(t,)) for t in range(3)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"told": told, "errors": errors}))
"""


def test_processes_connecting_while_others_move_lose_no_reported_link(tmp_path):
    """Three processes link notes (by title) while one renames them: every link a caller was
    told about is an edge afterwards, between the same two notes; refusals name the cause."""
    for i in range(16):
        write(tmp_path, f"n{i:02}.md", f"# N{i:02}\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    roles = ["connect", "connect", "connect", "move"]
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(tmp_path), role, str(seed)],
            env=env,
            stdout=subprocess.PIPE,
        )
        for seed, role in enumerate(roles)
    ]
    outs = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    ws = Workspace.open(tmp_path)
    path_of = {n.title: p for p, n in ws.nodes.items() if p.endswith(".md")}
    told = [tuple(pair) for out in outs for pair in out["told"]]
    assert told, "some links should have been made"
    lost = [(a, b) for a, b in told if not ws.graph.has_edge(path_of[a], path_of[b])]
    assert lost == []
    reasons = {r for out in outs for r in out["errors"]}
    assert all("no such file" in r or "gone from disk" in r for r in reasons), reasons
    assert ws.issues() == [] and not (tmp_path / JOURNAL).exists()


def test_an_index_records_the_stamp_of_its_own_write_not_a_later_one(tmp_path, monkeypatch):
    """Session A writes a note and records it in its index; session B writes the same note
    right after. A's index must not take B's file stamp for A's bytes, or A's later refresh
    never re-reads the note and a move planned on it misses B's link."""
    for name in ("s1.md", "s2.md", "n.md"):
        write(tmp_path, name, f"# {name}\n")
    a, b = Workspace.open(tmp_path), Workspace.open(tmp_path)
    real_saved = Workspace.saved
    b_done = threading.Event()

    def saved_while_b_writes(self, path, data):
        if self is a and not b_done.is_set():
            # B's write runs now; while A still holds the note's lock it has to wait.
            threading.Thread(
                target=lambda: (ops.connect(b, "s2.md", "n.md"), b_done.set()), daemon=True
            ).start()
            b_done.wait(0.3)
        return real_saved(self, path, data)

    monkeypatch.setattr(Workspace, "saved", saved_while_b_writes)
    assert ops.connect(a, "s1.md", "n.md")
    assert b_done.wait(5)
    a.refresh()
    assert sorted(a.nodes["n.md"].store.paths) == ["s1.md", "s2.md"]


def test_two_sessions_grading_a_card_for_the_first_time_write_one_grading_file(
    tmp_path, monkeypatch
):
    """Both sessions' indexes know no grading file yet: the second run must be appended to the
    file the first one made, not to ``card.grading-2.md`` (which no view reads)."""
    from basehalf_core.study import grading

    monkeypatch.delenv("BASEHALF_MODEL", raising=False)
    write(tmp_path, "n.md", "# N\n\nQueries look for keys.\n")
    card = "---\nkind: practice\nupstream: [n.md]\n---\n# Q\n\n1. What?\n   Answer: queries.\n"
    write(tmp_path, "card.md", card)
    first, second = Workspace.open(tmp_path), Workspace.open(tmp_path)
    grading.grade_card(first, "card.md", model="offline")
    grading.grade_card(second, "card.md", model="offline")
    names = sorted(p.name for p in tmp_path.glob("card.grading*"))
    assert names == ["card.grading.md"]
    text = (tmp_path / "card.grading.md").read_text()
    assert "## Run r1 " in text and "## Run r2 " in text


@pytest.mark.parametrize(
    "make",
    [
        lambda ws: ops.grow(ws, "New", upstream=[], folder="notes"),
        lambda ws: ops.create_note(ws, "notes/new.md", "# New\n"),
    ],
    ids=["grow", "create_note"],
)
def test_a_note_made_in_a_folder_another_session_moved_does_not_bring_the_folder_back(
    tmp_path, make
):
    write(tmp_path, "notes/a.md", "# A\n")
    app = Workspace.open(tmp_path)
    multifile.move(Workspace.open(tmp_path), "notes", "ch1")
    with pytest.raises(ops.OperationRefused, match="notes: no such file"):
        make(app)
    assert not (tmp_path / "notes").exists()


def test_a_move_that_would_put_a_path_inside_over_the_limit_is_refused_first(tmp_path):
    """The folder's own new name fits, but a note inside it would not: refused before the
    folder moves (it used to move, then stop half way on the first note inside)."""
    child = "x" * 200 + ".md"
    write(tmp_path, f"d/{child}", "# x\n")
    write(tmp_path, "n.md", f"---\nupstream: [d/{child}]\n---\n# N\n")
    room = fsio.PATH_MAX - len(str(tmp_path).encode()) - 1
    dest = "/".join(["y" * 250] * (room // 251))  # fits alone, not with the child
    assert len(dest.encode()) + 1 + len(child) > room >= len(dest.encode())
    with pytest.raises(ops.OperationRefused, match="over 4096 bytes"):
        multifile.move(Workspace.open(tmp_path), "d", dest)
    assert (tmp_path / "d" / child).exists() and not (tmp_path / JOURNAL).exists()
    assert dangling(tmp_path) == []


def test_a_renamed_practice_card_keeps_its_grading_history(tmp_path, monkeypatch):
    """The grading file stays where it was, linked to the card's new name by the move: the
    verdicts are still the card's, and the next run goes to the same file."""
    from basehalf_core.study import grading

    monkeypatch.delenv("BASEHALF_MODEL", raising=False)
    write(tmp_path, "n.md", "# N\n\nQueries look for keys.\n")
    card = "---\nkind: practice\nupstream: [n.md]\n---\n# Q\n\n1. What?\n   Answer: queries.\n"
    write(tmp_path, "card.md", card)
    ws = Workspace.open(tmp_path)
    grading.grade_card(ws, "card.md", model="offline")
    before = grading.in_force(ws, "card.md")
    multifile.move(ws, "card.md", "quiz/card.md")
    ws = Workspace.open(tmp_path)
    assert grading.in_force(ws, "quiz/card.md") == {
        n: dataclasses.replace(v, card="quiz/card.md") for n, v in before.items()
    }
    grading.grade_card(ws, "quiz/card.md", model="offline")
    assert sorted(p.name for p in tmp_path.rglob("*.grading*.md")) == ["card.grading.md"]
    assert "## Run r2 " in (tmp_path / "card.grading.md").read_text()
