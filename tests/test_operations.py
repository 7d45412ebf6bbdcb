import os

import pytest

from basehalf_core.folder import multifile
from basehalf_core.folder import operations as ops
from basehalf_core.folder.fsio import AlreadyExists, ChangedOnDisk, OutsideFolder
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import atomic_write


def write(root, rel, text):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


@pytest.fixture
def ws(tmp_path):
    write(tmp_path, "paper.pdf", b"%PDF-1.4 stand-in")
    write(
        tmp_path,
        "01-claim.md",
        "---\n# my comment\nupstream:\n  - paper.pdf\ntitle: 'Claim'\n---\n# Claim\n",
    )
    write(tmp_path, "02-pain.md", "\ufeff---\r\nupstream: [01-claim.md]\r\n---\r\nbody\r\n")
    write(tmp_path, "notes/03-mech.md", "---\nupstream:\n  - 02-pain.md\n  - notes/sib.md\n---\n")
    write(tmp_path, "notes/sib.md", "# sibling\n")
    return Workspace.open(tmp_path)


def test_connect_edits_only_upstream_and_updates_the_index(ws):
    before = (ws.root / "02-pain.md").read_bytes()
    assert ops.connect(ws, "paper.pdf", "02-pain.md") is True
    after = (ws.root / "02-pain.md").read_bytes()
    assert after == before.replace(b"[01-claim.md]", b"[01-claim.md, paper.pdf]")
    assert ("paper.pdf", "02-pain.md") in ws.graph.edges
    assert ops.connect(ws, "paper.pdf", "02-pain.md") is False  # idempotent
    assert (ws.root / "02-pain.md").read_bytes() == after


def test_connect_into_a_pdf_uses_its_mirror_store(ws):
    assert ops.connect(ws, "notes/sib.md", "paper.pdf")
    store = ws.root / ".bh/mirror/paper.pdf/upstream.yaml"
    assert store.read_text() == "upstream:\n  - notes/sib.md\n"
    assert ws.upstream("paper.pdf") == ["notes/sib.md"]
    assert ops.disconnect(ws, "notes/sib.md", "paper.pdf")
    assert not store.exists()
    assert ops.disconnect(ws, "notes/sib.md", "paper.pdf") is False


@pytest.mark.parametrize(
    ("up", "down", "message"),
    [
        ("nope.md", "02-pain.md", "nope.md: no such file"),
        ("02-pain.md", "02-pain.md", "names the node itself"),
        ("../etc/passwd", "02-pain.md", "'..'"),
        ("/etc/passwd", "02-pain.md", "absolute"),
        (".bh/x", "02-pain.md", ".bh"),
        ("paper.pdf", "ghost.md", "ghost.md: no such file"),
    ],
)
def test_connect_refusals_name_the_reason(ws, up, down, message):
    with pytest.raises(ops.OperationRefused, match=message):
        ops.connect(ws, up, down)


def test_disconnect_removing_last_entry_removes_key_and_empty_block(ws):
    assert ops.disconnect(ws, "01-claim.md", "02-pain.md")
    assert (ws.root / "02-pain.md").read_bytes() == "\ufeffbody\r\n".encode()
    assert ops.disconnect(ws, "paper.pdf", "01-claim.md")
    assert (
        ws.root / "01-claim.md"
    ).read_text() == "---\n# my comment\ntitle: 'Claim'\n---\n# Claim\n"


def test_unreadable_store_refuses_writes(ws):
    write(ws.root, "bad.md", "---\nupstream: {a: b}\n---\n")
    ws.refresh()
    before = (ws.root / "bad.md").read_bytes()
    with pytest.raises(ops.OperationRefused, match="bad.md: upstream is a mapping"):
        ops.connect(ws, "paper.pdf", "bad.md")
    assert (ws.root / "bad.md").read_bytes() == before


def test_a_file_edited_between_read_and_write_is_replanned_keeping_both_edits(ws):
    target = ws.root / "notes/sib.md"

    def someone_else_edits_meanwhile(text):
        target.write_text("their edit\n")
        return text + "mine\n"

    assert ops.edit(ws, "notes/sib.md", someone_else_edits_meanwhile)
    assert target.read_text() == "their edit\nmine\n"


def test_a_file_that_keeps_changing_is_not_clobbered(ws):
    target = ws.root / "notes/sib.md"
    saves = iter(range(100))

    def an_editor_saves_every_time(text):
        target.write_text(f"their edit {next(saves)}\n")
        return text + "mine\n"

    with pytest.raises(ChangedOnDisk, match="changed on disk"):
        ops.edit(ws, "notes/sib.md", an_editor_saves_every_time)
    assert target.read_text().startswith("their edit ")
    assert "mine" not in target.read_text()


def test_atomic_write_refuses_symlinks_and_existing_files(tmp_path):
    (tmp_path / "real").write_text("x")
    os.symlink(tmp_path / "real", tmp_path / "link")
    with pytest.raises(OutsideFolder):
        atomic_write(tmp_path / "link", b"y", expected=b"x")
    with pytest.raises(AlreadyExists):
        atomic_write(tmp_path / "real", b"y", expected=None)
    assert (tmp_path / "real").read_text() == "x"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".bh-tmp")] == []


def test_grow_writes_one_new_note_and_never_overwrites(ws):
    fields = {
        "grown_from": {
            "file": "paper.pdf",
            "page": 1,
            "quote": 'A "quoted" bit: yes',
            "rects": [[1.0, 2.5, 3.0, 4.0]],
        }
    }
    first = ops.grow(ws, "The Transformer claim", upstream=["paper.pdf"], fields=fields, body="> q")
    second = ops.grow(ws, "The Transformer claim", upstream=["paper.pdf"])
    assert (first, second) == ("the-transformer-claim.md", "the-transformer-claim-2.md")
    text = (ws.root / first).read_text()
    assert text.startswith("---\nupstream:\n  - paper.pdf\n")
    assert ws.frontmatter(first)["grown_from"] == fields["grown_from"]
    assert text.endswith("# The Transformer claim\n\n> q\n")
    assert ws.downstream("paper.pdf") == sorted(["01-claim.md", first, second])


def test_grow_chinese_title_gives_chinese_file_name(ws):
    path = ops.grow(ws, "缩放点积注意力", upstream=["paper.pdf"])
    assert path == "缩放点积注意力.md"
    assert (ws.root / path).exists()


def test_grow_refuses_names_that_escape(ws):
    with pytest.raises(ops.OperationRefused):
        ops.grow(ws, "x", upstream=[], name="../escape.md")
    with pytest.raises(ops.OperationRefused, match=r"\.\./outside.pdf: cannot be listed"):
        ops.grow(ws, "x", upstream=["../outside.pdf"])


def test_move_rewrites_every_entry_and_reports(ws):
    report = multifile.move(ws, "01-claim.md", "notes/01-transformer-claim.md")
    assert report.as_dict() == {"updated": ["02-pain.md"], "skipped": []}
    assert not (ws.root / "01-claim.md").exists()
    assert (ws.root / "02-pain.md").read_bytes() == (
        "\ufeff---\r\nupstream: [notes/01-transformer-claim.md]\r\n---\r\nbody\r\n".encode()
    )
    assert ("notes/01-transformer-claim.md", "02-pain.md") in ws.graph.edges
    assert ws.issues() == []


def test_move_folder_rewrites_paths_inside_it(ws):
    report = multifile.move(ws, "notes", "mechanism")
    assert report.updated == ["mechanism/03-mech.md"]
    assert ws.upstream("mechanism/03-mech.md") == ["02-pain.md", "mechanism/sib.md"]


def test_move_keeps_the_mirror_store_with_its_node(ws):
    ops.connect(ws, "02-pain.md", "paper.pdf")
    multifile.move(ws, "paper.pdf", "papers/attention.pdf")
    assert ws.upstream("papers/attention.pdf") == ["02-pain.md"]
    assert ws.upstream("01-claim.md") == ["papers/attention.pdf"]


def test_move_skips_stores_it_cannot_edit(ws):
    write(ws.root, "bad.md", "---\nupstream: {x: 01-claim.md}\n---\n")
    ws.refresh()
    report = multifile.move(ws, "01-claim.md", "claim.md")
    assert report.updated == ["02-pain.md"]
    assert report.skipped == [
        {"path": "bad.md", "reason": "upstream is a mapping; it must be a list of paths"}
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("01-claim.md", "02-pain.md", "already exists"),
        ("nope.md", "x.md", "no such file"),
        ("01-claim.md", "../x.md", "not a valid destination"),
        ("notes", "notes/inner", "inside itself"),
    ],
)
def test_move_refusals(ws, old, new, message):
    with pytest.raises(ops.OperationRefused, match=message):
        multifile.move(ws, old, new)


def test_relink_after_an_outside_move(ws):
    os.rename(ws.root / "01-claim.md", ws.root / "claim.md")
    ws.refresh()
    assert [i.problem for i in ws.issues()] == ["dangling"]
    report = multifile.relink(ws, "01-claim.md", "claim.md")
    assert report.updated == ["02-pain.md"]
    assert ws.issues() == []
    with pytest.raises(ops.OperationRefused, match="not dangling"):
        multifile.relink(ws, "claim.md", "02-pain.md")


def test_delete_leaves_downstream_entries_dangling(ws):
    assert multifile.delete(ws, "02-pain.md") == ["notes/03-mech.md"]
    assert [(i.path, i.entry, i.problem) for i in ws.issues()] == [
        ("notes/03-mech.md", "02-pain.md", "dangling")
    ]
    with pytest.raises(ops.OperationRefused, match="folder"):
        multifile.delete(ws, "notes")
