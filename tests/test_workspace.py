import os
import time

import pytest

from basehalf_core.folder.fsio import FolderError
from basehalf_core.folder.workspace import UnknownNode, Workspace


def write(root, rel, text, mode="w"):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def folder(tmp_path):
    write(tmp_path, "paper.pdf", b"%PDF-1.4 stand-in bytes")
    write(tmp_path, "01-claim.md", "---\nupstream:\n  - paper.pdf\n---\n# The claim\n")
    write(tmp_path, "02-pain.md", "---\nupstream: [01-claim.md, missing.md, ../out]\n---\n# Pain\n")
    write(tmp_path, "06-practice.md", "---\nupstream: [02-pain.md]\nkind: practice\n---\n# Q\n")
    write(tmp_path, "06-practice.grading.md", "---\nupstream: [06-practice.md]\n---\n")
    write(tmp_path, "sub/deep.md", "no frontmatter here\n")
    write(tmp_path, ".hidden.md", "---\nupstream: [paper.pdf]\n---\n")
    write(tmp_path, ".git/config", "x")
    return tmp_path


def test_nodes_kinds_and_hidden_names(folder):
    ws = Workspace.open(folder)
    assert {p: n.kind for p, n in ws.nodes.items()} == {
        "paper.pdf": "pdf",
        "01-claim.md": "note",
        "02-pain.md": "note",
        "06-practice.md": "practice",
        "06-practice.grading.md": "grading",
        "sub": "folder",
        "sub/deep.md": "note",
    }
    assert ws.nodes["01-claim.md"].title == "The claim"
    assert ws.nodes["sub/deep.md"].title == "deep"


def test_edges_downstream_and_issues(folder):
    ws = Workspace.open(folder)
    assert set(ws.graph.edges) == {
        ("paper.pdf", "01-claim.md"),
        ("01-claim.md", "02-pain.md"),
        ("02-pain.md", "06-practice.md"),
        ("06-practice.md", "06-practice.grading.md"),
    }
    assert ws.downstream("paper.pdf") == ["01-claim.md"]
    assert ws.upstream("02-pain.md") == ["01-claim.md"]
    assert [(i.path, i.entry, i.problem) for i in ws.issues()] == [
        ("02-pain.md", "missing.md", "dangling"),
        ("02-pain.md", "../out", "invalid"),
    ]


def test_learning_path_follows_links_then_names(folder):
    ws = Workspace.open(folder)
    # Roots tie by file name: deep.md sorts before paper.pdf.
    assert ws.learning_path() == [
        "sub/deep.md",
        "paper.pdf",
        "01-claim.md",
        "02-pain.md",
        "06-practice.md",
        "06-practice.grading.md",
    ]


def test_learning_path_breaks_cycles_deterministically(tmp_path):
    write(tmp_path, "b.md", "---\nupstream: [a.md]\n---\n")
    write(tmp_path, "a.md", "---\nupstream: [c.md]\n---\n")
    write(tmp_path, "c.md", "---\nupstream: [b.md]\n---\n")
    write(tmp_path, "z.md", "---\nupstream: [a.md]\n---\n")
    orders = {tuple(Workspace.open(tmp_path).learning_path()) for _ in range(3)}
    assert orders == {("a.md", "b.md", "c.md", "z.md")}


def test_mirror_store_for_non_markdown_nodes(folder):
    write(folder, ".bh/mirror/paper.pdf/upstream.yaml", "upstream:\n  - sub/deep.md\n")
    ws = Workspace.open(folder)
    assert ws.upstream("paper.pdf") == ["sub/deep.md"]
    assert "paper.pdf" not in ws.nodes["paper.pdf"].store.unreadable


def test_names_compare_after_nfc(tmp_path):
    write(tmp_path, "cafe\u0301.md", "# decomposed name\n")
    write(tmp_path, "b.md", "---\nupstream: [café.md]\n---\n")
    ws = Workspace.open(tmp_path)
    assert ws.issues() == []
    assert ws.downstream("café.md") == ["b.md"]


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("latin1.md", b"---\nupstream: [a.md]\n---\ncaf\xe9\n", "not UTF-8"),
        ("bad.md", b"---\nupstream: [a\n---\n", "malformed YAML"),
        ("toml.md", b"+++\nupstream = ['a.md']\n+++\n", "TOML"),
    ],
)
def test_unreadable_notes_are_issues_not_crashes(tmp_path, name, data, problem):
    write(tmp_path, "a.md", "# a\n")
    write(tmp_path, name, data)
    ws = Workspace.open(tmp_path)
    [issue] = ws.issues()
    assert (issue.path, issue.problem) == (name, "unreadable")
    assert problem in issue.reason
    assert ws.upstream(name) == []


def test_zero_byte_and_huge_notes(tmp_path):
    write(tmp_path, "empty.md", b"")
    big = "---\nupstream: [empty.md]\n---\n# Big\n" + ("lorem ipsum " * 100 + "\n") * 45_000
    write(tmp_path, "big.md", big)
    assert (tmp_path / "big.md").stat().st_size > 50_000_000
    ws = Workspace.open(tmp_path)
    assert ws.upstream("big.md") == ["empty.md"]
    assert ws.nodes["empty.md"].title == "empty"


def test_symlink_outside_is_never_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    write(outside, "secret.md", "---\nupstream: [x]\n---\nsecret\n")
    root = tmp_path / "root"
    root.mkdir()
    os.symlink(outside / "secret.md", root / "link.md")
    os.symlink(outside, root / "linkdir")
    ws = Workspace.open(root)
    assert ws.nodes["link.md"].store.unreadable.startswith("symlink that points outside the folder")
    assert "linkdir/secret.md" not in ws.nodes
    assert {i.path for i in ws.issues()} == {"link.md", "linkdir"}


@pytest.mark.parametrize("make", ["missing", "file"])
def test_bad_folders(tmp_path, make):
    target = tmp_path / "x"
    if make == "file":
        target.write_text("x")
    with pytest.raises(FolderError, match=str(target)):
        Workspace.open(target)


def test_unknown_node_names_the_path(folder):
    ws = Workspace.open(folder)
    with pytest.raises(UnknownNode, match="nope.md"):
        ws.upstream("nope.md")


def _touch(path, text):
    path.write_text(text, encoding="utf-8")
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


def test_refresh_rereads_only_what_changed(folder):
    ws = Workspace.open(folder)
    assert ws.refresh() == set()
    _touch(folder / "02-pain.md", "---\nupstream: [paper.pdf]\n---\n# Pain\n")
    write(folder, "03-new.md", "---\nupstream: [missing.md]\n---\n")
    (folder / "sub" / "deep.md").unlink()
    changed = ws.refresh()
    assert changed == {"02-pain.md", "03-new.md", "sub/deep.md"}
    assert ws.upstream("02-pain.md") == ["paper.pdf"]
    assert "sub/deep.md" not in ws.nodes
    write(folder, "missing.md", "# now it exists\n")
    assert ws.refresh() == {"missing.md"}
    assert ws.downstream("missing.md") == ["03-new.md"]
    assert [i.entry for i in ws.issues()] == []


def test_refresh_sees_mirror_edits(folder):
    ws = Workspace.open(folder)
    write(folder, ".bh/mirror/paper.pdf/upstream.yaml", "upstream: [sub/deep.md]\n")
    assert ws.refresh() == {"paper.pdf"}
    assert ws.upstream("paper.pdf") == ["sub/deep.md"]


def test_body_and_frontmatter(folder):
    ws = Workspace.open(folder)
    assert ws.frontmatter("06-practice.md") == {"upstream": ["02-pain.md"], "kind": "practice"}
    assert ws.body("06-practice.md") == "# Q\n"
    assert ws.body("sub/deep.md") == "no frontmatter here\n"


def test_scan_is_quick_enough_to_not_hang(tmp_path):
    # A guard against accidental quadratic work, not a benchmark (bench/scan.py measures).
    for i in range(300):
        write(tmp_path, f"n{i:03}.md", f"---\nupstream: [n{(i + 1) % 300:03}.md]\n---\n")
    t = time.perf_counter()
    ws = Workspace.open(tmp_path)
    assert len(ws.graph.edges) == 300
    assert time.perf_counter() - t < 30
