"""Hostile and unlucky folders: one bad node never stops an operation, nothing outside is read.

Symlinks out of the folder, FIFOs, NFC/NFD twins, names the file system cannot hold, alias
bombs, export targets that are links or devices. Commands run as real processes where the
user would meet them (the CLI), with a timeout where the old behaviour was to hang.
"""

import os
import resource
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from basehalf_core.folder import fsio, multifile
from basehalf_core.folder import operations as ops
from basehalf_core.folder.workspace import Workspace
from basehalf_core.teaching import course

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
SECRET = "SECRET-OUTSIDE-THE-FOLDER"


def basehalf(*args, stdin=None, timeout=60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "basehalf_cli.main", *map(str, args)],
        env=ENV,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def hostile(tmp_path):
    """A folder with a symlink out (file and folder), a FIFO note, and ordinary notes."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"---\nupstream: [a.md]\n---\n{SECRET}\n")
    (outside / "paper.pdf").write_bytes(b"%PDF-1.4 " + SECRET.encode())
    root = tmp_path / "study"
    root.mkdir()
    (root / "a.md").write_text("# A\n")
    (root / "b.md").write_text("---\nupstream: [a.md]\n---\n# B\n")
    os.symlink(outside / "secret.md", root / "0-link.md")  # sorts before the notes
    os.symlink(outside / "paper.pdf", root / "paper.pdf")
    os.symlink(outside, root / "data")
    os.mkfifo(root / "pipe.md")
    (root / "z.md").write_text("---\nupstream: [a.md]\n---\n# Z\n")
    return root


def test_graph_lists_links_out_and_fifos_as_issues_and_never_hangs(hostile):
    proc = basehalf("graph", hostile, "--json", timeout=30)
    assert proc.returncode == 0, proc.stderr
    issues = {i["path"]: i["reason"] for i in __import__("json").loads(proc.stdout)["issues"]}
    for link in ("0-link.md", "paper.pdf", "data"):
        assert "points outside the folder" in issues[link]
    assert "FIFO" in issues["pipe.md"]
    assert SECRET not in proc.stdout


def test_no_reader_opens_a_link_out_or_a_fifo(hostile):
    ws = Workspace.open(hostile)
    for node in ("0-link.md", "paper.pdf"):
        with pytest.raises(fsio.OutsideFolder, match="points outside the folder"):
            ws.read_bytes(node)
        with pytest.raises(fsio.OutsideFolder):
            ws.full_path(node)
        assert ws.frontmatter(node) == {} and ws.body(node) == ""
    with pytest.raises(fsio.NotRegularFile, match="FIFO"):
        ws.read_bytes("pipe.md")
    with pytest.raises(fsio.NotRegularFile):
        ws.full_path("pipe.md")
    assert ws.body("pipe.md") == ""


def test_export_skips_what_it_must_not_open(hostile, tmp_path):
    out = tmp_path / "session.html"
    proc = basehalf("export", hostile, "-o", out, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert SECRET not in out.read_text()


def test_mv_and_relink_run_past_bad_nodes_and_report_them(hostile):
    report = multifile.move(Workspace.open(hostile), "a.md", "moved/a.md").as_dict()
    assert report["updated"] == ["b.md", "z.md"]  # z.md sorts after every bad node
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "points outside the folder" in skipped["0-link.md"]
    assert "FIFO" in skipped["pipe.md"]
    (hostile / "moved/a.md").rename(hostile / "c.md")
    report = multifile.relink(Workspace.open(hostile), "moved/a.md", "c.md").as_dict()
    assert report["updated"] == ["b.md", "z.md"]
    ws = Workspace.open(hostile)
    assert ws.upstream("z.md") == ["c.md"]


@pytest.mark.parametrize("node", ["0-link.md", "pipe.md"])
def test_connect_into_a_bad_node_is_refused_by_name(hostile, node):
    proc = basehalf("connect", hostile, "a.md", node, timeout=30)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"basehalf connect: {node}: ")
    assert "Traceback" not in proc.stderr


def test_nfc_and_nfd_twins_each_name_their_own_file(tmp_path):
    nfc, nfd = (unicodedata.normalize(f, "café.md") for f in ("NFC", "NFD"))
    (tmp_path / "a.md").write_text("# a\n")
    (tmp_path / nfc).write_text("# composed\n")
    (tmp_path / nfd).write_text("# decomposed\n")
    ws = Workspace.open(tmp_path)
    assert ops.connect(ws, "a.md", nfd)
    assert (tmp_path / nfc).read_text() == "# composed\n"
    assert "a.md" in (tmp_path / nfd).read_text()
    report = multifile.move(ws, nfc, "cafe.md")
    assert (tmp_path / "cafe.md").read_text() == "# composed\n"
    assert (tmp_path / nfd).exists() and report.skipped == []


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["graph", "{root}", "--json"], 0),
        (["path", "{root}"], 0),
        (["export", "{root}", "-o", "{tmp}/out.html"], 0),
        (["connect", "{root}", "a.md", "b.md"], 1),
        (["mv", "{root}", "a.md", "c.md"], 1),
        (["links", "{root}", "wikilink"], 1),
    ],
    ids=["graph", "path", "export", "connect", "mv", "links"],
)
def test_a_bh_folder_that_links_out_is_neither_read_nor_written(tmp_path, args, code):
    """``.bh`` a symlink to a folder outside: reading the folder works (its state is not
    read), a write is refused by name, and nothing is created or changed outside."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "settings.yaml").write_text("links: wikilink\n")
    root = tmp_path / "study"
    root.mkdir()
    (root / "a.md").write_text("# A\n")
    (root / "b.md").write_text("---\nupstream: [a.md]\n---\n# B\n")
    os.symlink(outside, root / ".bh")
    proc = basehalf(*[a.format(root=root, tmp=tmp_path) for a in args], timeout=60)
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    if code:
        assert "points outside the folder" in proc.stderr
    assert sorted(os.listdir(outside)) == ["settings.yaml"]
    assert (outside / "settings.yaml").read_text() == "links: wikilink\n"
    assert (root / "b.md").read_text() == "---\nupstream: [a.md]\n---\n# B\n"


# --- export targets ---------------------------------------------------------------------


def test_export_never_writes_through_a_symlink_or_over_a_device(tmp_path):
    study = tmp_path / "study"
    study.mkdir()
    (study / "a.md").write_text("# A\n")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    os.symlink(victim, tmp_path / "session.html")
    for target, words in (
        (tmp_path / "session.html", "is a symlink"),
        ("/dev/null", "character device"),
        ("/dev/stdout", "is a symlink"),
        (tmp_path, "is a folder"),
    ):
        proc = basehalf("export", study, "-o", target, timeout=60)
        assert proc.returncode == 1, target
        assert words in proc.stderr and "Traceback" not in proc.stderr
    assert victim.read_text() == "keep me"
    assert os.path.islink(tmp_path / "session.html")


def test_export_to_stdout_and_into_a_closed_pipe(tmp_path):
    (tmp_path / "a.md").write_text("# A\n")
    proc = basehalf("export", tmp_path, "-o", "-", timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("<!DOCTYPE html>")
    cmd = [sys.executable, "-m", "basehalf_cli.main", "export", str(tmp_path), "-o", "-"]
    piped = subprocess.Popen(cmd, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    piped.stdout.read(10)
    piped.stdout.close()  # the reader goes away (``| head -c 10``)
    assert piped.wait(timeout=60) == 0
    assert piped.stderr.read() == b""


@pytest.mark.parametrize(
    "args",
    [
        ["export", "{root}", "-o", "/proc/basehalf-test.html"],
        ["anki", "{root}", "-o", "/proc/basehalf-test.apkg"],
        ["course", "new", "/proc/basehalf-course", "--title", "T", "--session", "{root}"],
    ],
    ids=["export", "anki", "course-new"],
)
def test_a_target_the_system_refuses_gives_one_line_not_a_traceback(tmp_path, args):
    """/proc takes no new files: the same refusal as a read-only mount or a full disk."""
    (tmp_path / "a.md").write_text("# A\n")
    card = "---\nkind: practice\n---\n# Q\n\n1. What?\n   Answer: A long enough answer.\n"
    (tmp_path / "card.md").write_text(card)
    proc = basehalf(*[a.format(root=tmp_path) for a in args], timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1, proc.stderr
    assert "/proc/basehalf-" in proc.stderr


# --- names the file system cannot hold --------------------------------------------------


@pytest.mark.parametrize(
    ("target", "words"),
    [
        ("x" * 300 + ".md", "over 255 bytes"),
        ("d/" * 2100 + "x.md", "over 4096 bytes"),
    ],
    ids=["name-over-255-bytes", "path-over-4-KiB"],
)
def test_overlong_names_give_one_line(tmp_path, target, words):
    (tmp_path / "a.md").write_text("# a\n")
    proc = basehalf("mv", tmp_path, "a.md", target, timeout=30)
    assert proc.returncode == 1
    assert words in proc.stderr and len(proc.stderr.splitlines()) == 1
    assert len(proc.stderr) < 600
    assert (tmp_path / "a.md").exists()


@pytest.mark.parametrize(
    "title",
    ["注意力机制" * 16, "😀" * 100, "A" * 400, "é" * 200],
    ids=["80-chinese", "100-emoji", "400-ascii", "200-accented"],
)
def test_long_titles_are_shortened_to_a_name_that_fits(tmp_path, title):
    ws = Workspace.open(tmp_path)
    first = ops.grow(ws, title, upstream=[])
    second = ops.grow(ws, title, upstream=[])
    for rel in (first, second):
        assert len(rel.encode()) <= 255
        assert (tmp_path / rel).read_text().startswith("---\n---\n# ")
    assert second != first


def test_a_248_byte_note_name_leaves_room_for_the_temp_file(tmp_path):
    name = "n" * 245 + ".md"
    (tmp_path / "a.md").write_text("# a\n")
    (tmp_path / name).write_text("# long\n")
    assert ops.connect(Workspace.open(tmp_path), "a.md", name)
    assert Workspace.open(tmp_path).upstream(name) == ["a.md"]


# --- teaching ----------------------------------------------------------------------------


@pytest.mark.parametrize("char", ["\x85", "\x9b", "\x07", "\x7f"])
def test_course_new_refuses_control_characters_and_leaves_nothing(tmp_path, char):
    session = tmp_path / "s1"
    session.mkdir()
    (session / "a.md").write_text("# a\n")
    with pytest.raises(course.CourseError, match=f"U\\+{ord(char):04X}"):
        course.new(tmp_path / "c", f"Week{char}1", [session])
    assert not (tmp_path / "c").exists()


def test_course_handout_never_reads_through_symlinks_or_fifos(tmp_path):
    session = tmp_path / "s1"
    session.mkdir()
    (session / "a.md").write_text("# a\n")
    c = course.new(tmp_path / "c", "T", [session])
    os.symlink("/dev/zero", c.root / "s1" / "zero.md")
    os.symlink("/etc/hostname", c.root / "s1" / "host.md")
    os.mkfifo(c.root / "s1" / "pipe.md")
    files = course.handout(c.root, tmp_path / "h")
    assert "s1/a.md" in files
    assert not {"s1/zero.md", "s1/host.md", "s1/pipe.md"} & set(files)


@pytest.mark.parametrize(
    "session",
    ["s2", "deep/s2"],
    ids=["session-is-a-link-out", "a-folder-on-the-way-is-a-link-out"],
)
def test_a_course_session_that_leads_outside_is_refused_and_nothing_copied(tmp_path, session):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "s2").mkdir()
    (outside / "secret.md").write_text(SECRET)
    (outside / "s2" / "secret.md").write_text(SECRET)
    s1 = tmp_path / "s1"
    s1.mkdir()
    (s1 / "a.md").write_text("# a\n")
    c = course.new(tmp_path / "c", "T", [s1])
    if session == "s2":
        os.symlink(outside, c.root / "s2")
    else:
        os.symlink(outside, c.root / "deep")
    (c.root / "course.yaml").write_text(f"title: T\nsessions:\n  - s1\n  - {session}\n")
    with pytest.raises(course.CourseError, match="outside the course"):
        course.handout(c.root, tmp_path / "h")
    with pytest.raises(course.CourseError, match="outside the course"):
        course.progress(c.root)
    copied = (
        [p.read_text() for p in (tmp_path / "h").rglob("*.md")] if (tmp_path / "h").exists() else []
    )
    assert SECRET not in "".join(copied)


@pytest.mark.parametrize(
    "session",
    ["learners", "learners/bob", "Learners/bob", "via/bob"],
    ids=[
        "the-learners-folder",
        "a-learners-folder",
        "other-case",
        "a-folder-on-the-way-links-there",
    ],
)
def test_a_session_in_the_learners_folder_is_refused_and_no_learners_work_is_handed_out(
    tmp_path, session
):
    s1 = tmp_path / "s1"
    s1.mkdir()
    (s1 / "a.md").write_text("# a\n")
    c = course.new(tmp_path / "c", "T", [s1])
    bob = c.root / "learners" / "bob"
    bob.mkdir(parents=True)
    (bob / "answers.md").write_text(SECRET)
    if session.startswith("Learners/") and not (c.root / "Learners").exists():
        (c.root / "Learners").symlink_to("learners")  # as a case-insensitive disk would see it
        session = "Learners/bob"
    if session == "via/bob":
        (c.root / "via").symlink_to("learners")  # a link inside the course, to the learners
    (c.root / "course.yaml").write_text(f"title: T\nsessions:\n  - s1\n  - {session}\n")
    with pytest.raises(course.CourseError, match="learners"):
        course.handout(c.root, tmp_path / "h")
    copied = (
        [p.read_text() for p in (tmp_path / "h").rglob("*.md")] if (tmp_path / "h").exists() else []
    )
    assert SECRET not in "".join(copied)


# --- hostile YAML under a memory cap (so a regression fails instead of eating the box) ---

LOL = "a: &a [" + ",".join(['"lol"'] * 9) + "]\n"
LAYERS = "".join(
    f"{n}: &{n} [{','.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=False)
)
BOMB = f"---\n{LOL}{LAYERS}grown_from:\n  file: paper.pdf\n  quote: *i\n---\n# Bomb\n"


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def test_an_alias_bomb_and_a_deep_nest_are_reported_not_expanded(tmp_path):
    (tmp_path / "bomb.md").write_text(BOMB)
    deep = "x: " + "[" * 900 + "]" * 900
    (tmp_path / "deep.md").write_text(
        f"---\nkind: practice\n{deep}\n---\n# Q\n\n1. What?\n   Answer: A long enough answer.\n"
    )
    out = tmp_path / "out.html"
    for args in (
        ["export", tmp_path, "-o", out],
        ["graph", tmp_path],
        ["grade", tmp_path, "deep.md"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "basehalf_cli.main", *map(str, args)],
            env={**ENV, "BASEHALF_MODEL": ""},
            capture_output=True,
            text=True,
            timeout=120,
            preexec_fn=_capped,
        )
        assert "Traceback" not in proc.stderr and "RecursionError" not in proc.stderr, args
        assert "MemoryError" not in proc.stderr
        assert proc.returncode == 0, (args, proc.stderr)
    graph = basehalf("graph", tmp_path).stdout
    assert "alias bomb" in graph and "nest" in graph
    assert "lol" * 3 not in out.read_text()


# --- the persistent index cache is a hint, never the truth ----------------------------------


def _graph(ws):
    return sorted(ws.graph.edges), [i.as_dict() for i in ws.issues()]


def test_the_index_cache_gives_the_same_index_and_notices_edits(tmp_path, monkeypatch):
    from basehalf_core.folder import index_cache

    monkeypatch.setattr(index_cache, "MIN_NODES", 1)
    hour_ago = __import__("time").time_ns() - 3600 * 10**9
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "b.md").write_text("---\ntitle: Bee\nupstream: [a.md, gone.md, /abs]\n---\n")
    (tmp_path / "c.md").write_text("---\nupstream: [b.md]\n---\n# C\n")
    for p in tmp_path.glob("*.md"):
        os.utime(p, ns=(hour_ago, hour_ago))
    fresh = Workspace.open(tmp_path)
    assert (tmp_path / ".bh/cache/index.json").is_file()
    cached = Workspace.open(tmp_path)
    assert _graph(cached) == _graph(fresh)
    assert cached.nodes["b.md"].title == "Bee"
    # Same size, same old mtime, different bytes: a new inode (an editor's atomic save) shows.
    new = tmp_path / "new.md"
    new.write_text("---\nupstream: [c.md]\n---\n# C\n")
    os.utime(new, ns=(hour_ago, hour_ago))
    new.replace(tmp_path / "c.md")
    again = Workspace.open(tmp_path)
    assert again.nodes["c.md"].store.entries[0].reason == "names the node itself"
    assert ("b.md", "c.md") not in again.graph.edges


def test_a_planted_or_broken_index_cache_is_ignored(tmp_path, monkeypatch):
    from basehalf_core.folder import index_cache

    monkeypatch.setattr(index_cache, "MIN_NODES", 1)
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "b.md").write_text("---\nupstream: [a.md]\n---\n")
    truth = _graph(Workspace.open(tmp_path))
    (tmp_path / ".bh/cache").mkdir(parents=True, exist_ok=True)
    for planted in ("{", '{"version": 1, "notes": {"b.md": [1]}}', "[]", '"x"', "\x00"):
        (tmp_path / ".bh/cache/index.json").write_text(planted)
        assert _graph(Workspace.open(tmp_path)) == truth


def test_the_app_never_takes_a_link_out_for_a_document(hostile):
    """The workbench opens the first PDF/EPUB of the learning path at start-up."""
    ws = Workspace.open(hostile)
    assert ws.nodes["paper.pdf"].kind == "other"
    assert [p for p in ws.learning_path() if ws.nodes[p].kind in ("pdf", "epub")] == []
