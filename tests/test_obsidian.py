"""Obsidian vaults: ``"[[x]]"`` upstream entries are links, resolved as Obsidian resolves them."""

from __future__ import annotations

from pathlib import Path

import pytest

from basehalf_cli.main import main
from basehalf_core.folder import multifile, operations
from basehalf_core.folder.paths import split_wikilink, wikilink
from basehalf_core.folder.workspace import Workspace

FILES = ["docs/paper.pdf", "notes/intro.md", "notes/deeper.md", "archive/intro.md", "quiz.md"]

PLAIN = {
    "notes/intro.md": ["docs/paper.pdf"],
    "notes/deeper.md": ["notes/intro.md", "docs/paper.pdf"],
    "quiz.md": ["notes/deeper.md", "notes/intro.md"],
}
# The same links as Obsidian writes them: shortest names, no ``.md``, aliases, headings.
VAULT = {
    "notes/intro.md": ["[[paper.pdf]]"],
    # ``intro`` is ambiguous (archive/intro.md too): the one beside the note wins.
    "notes/deeper.md": ["[[intro]]", "[[docs/paper.pdf|the paper]]"],
    "quiz.md": ["[[deeper#Why it matters]]", "[[notes/intro.md|Intro]]"],
}


def make_folder(root: Path, links: dict[str, list[str]]) -> Path:
    for rel in FILES:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".pdf"):
            path.write_bytes(b"%PDF-1.4 not read by these tests\n")
            continue
        entries = links.get(rel, [])
        head = "".join(f'  - "{e}"\n' for e in entries)
        front = f"---\nupstream:\n{head}tags: [x]\n---\n" if entries else ""
        path.write_text(f"{front}# {Path(rel).stem}\n\nBody.\n", encoding="utf-8")
    return root


def picture(ws: Workspace) -> tuple:
    return sorted(ws.graph.edges), ws.learning_path(), [i.as_dict() for i in ws.issues()]


def test_a_vault_with_wikilinks_gives_the_same_graph_as_plain_paths(tmp_path):
    plain = Workspace.open(make_folder(tmp_path / "plain", PLAIN))
    vault = Workspace.open(make_folder(tmp_path / "vault", VAULT))
    assert picture(vault) == picture(plain)
    assert picture(plain)[2] == []
    assert ("notes/intro.md", "notes/deeper.md") in vault.graph.edges
    assert ("archive/intro.md", "notes/deeper.md") not in vault.graph.edges
    assert vault.upstream("quiz.md") == ["notes/deeper.md", "notes/intro.md"]
    assert vault.downstream("docs/paper.pdf") == ["notes/deeper.md", "notes/intro.md"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("[[x]]", ("x", "")),
        ("[[x|alias]]", ("x", "alias")),
        ("[[a/b.pdf|The paper]]", ("a/b.pdf", "The paper")),
        ("[[x#Heading]]", ("x", "")),
        ("[[x#^block|see]]", ("x", "see")),
        ("x", None),
        ("[x]", None),
        ("[[x]] and more", None),
    ],
)
def test_wikilink_entries_parse(raw, expected):
    assert split_wikilink(raw) == expected


@pytest.mark.parametrize(
    ("raw", "reason"),
    [("[[]]", "empty entry"), ("[[../up]]", "'..' segment"), ("[[/abs]]", "absolute path")],
)
def test_bad_wikilinks_are_invalid_not_dropped(tmp_path, raw, reason):
    make_folder(tmp_path, {"quiz.md": [raw, "[[intro]]"]})
    ws = Workspace.open(tmp_path)
    (issue,) = ws.issues()
    assert (issue.entry, issue.problem) == (raw, "invalid") and reason in issue.reason
    # One bad entry never hides the good one; ``intro`` is ambiguous from the root:
    # fewest folders, then the name, decide (archive/ before notes/).
    assert ws.upstream("quiz.md") == ["archive/intro.md"]


def test_a_dangling_wikilink_resolves_when_its_file_appears(tmp_path):
    make_folder(tmp_path, {"quiz.md": ["[[later]]", "[[intro]]"]})
    ws = Workspace.open(tmp_path)
    assert [(i.entry, i.problem) for i in ws.issues()] == [("[[later]]", "dangling")]
    (tmp_path / "notes" / "later.md").write_text("# Later\n", encoding="utf-8")
    ws.refresh()
    assert ws.issues() == []
    assert "notes/later.md" in ws.upstream("quiz.md")
    (tmp_path / "notes" / "later.md").unlink()
    ws.refresh()
    assert [(i.entry, i.problem) for i in ws.issues()] == [("[[later]]", "dangling")]


def test_a_wikilink_and_a_path_to_the_same_note_repeat(tmp_path):
    make_folder(tmp_path, {"quiz.md": ["notes/intro.md", "[[notes/intro]]"]})
    ws = Workspace.open(tmp_path)
    assert [(i.entry, i.reason) for i in ws.issues()] == [
        ("[[notes/intro]]", "repeats an earlier entry")
    ]
    # Disconnecting removes both spellings: the link is gone, not revived by the second.
    assert operations.disconnect(ws, "notes/intro.md", "quiz.md")
    assert "intro" not in (tmp_path / "quiz.md").read_text()
    assert Workspace.open(tmp_path).upstream("quiz.md") == []


def test_moving_a_note_rewrites_its_wikilinks_as_wikilinks(tmp_path):
    make_folder(tmp_path, VAULT)
    ws = Workspace.open(tmp_path)
    report = multifile.move(ws, "notes/intro.md", "notes/basics/start.md")
    assert report.as_dict()["skipped"] == []
    assert sorted(report.updated) == ["notes/deeper.md", "quiz.md"]
    deeper = (tmp_path / "notes/deeper.md").read_text()
    assert '  - "[[notes/basics/start]]"\n  - "[[docs/paper.pdf|the paper]]"\n' in deeper
    assert '"[[notes/basics/start|Intro]]"' in (tmp_path / "quiz.md").read_text()  # alias kept
    again = Workspace.open(tmp_path)
    assert again.issues() == []
    assert again.upstream("quiz.md") == ["notes/deeper.md", "notes/basics/start.md"]
    assert picture(again)[0] == sorted(ws.graph.edges)


def test_relink_accepts_the_wikilink_as_shown(tmp_path):
    make_folder(tmp_path, {"quiz.md": ["[[gone|Old name]]"]})
    ws = Workspace.open(tmp_path)
    assert main(["relink", str(tmp_path), "[[gone]]", "notes/intro.md"]) == 0
    assert '"[[notes/intro|Old name]]"' in (tmp_path / "quiz.md").read_text()
    assert Workspace.open(tmp_path).upstream("quiz.md") == ["notes/intro.md"]
    assert ws.issues()  # the old index knew nothing of the write


@pytest.mark.parametrize(
    ("settings", "form"),
    [(None, "path"), ("links: path\n", "path"), ("links: wikilink\n", "wikilink")],
)
def test_connect_and_grow_write_the_folders_link_form(tmp_path, settings, form):
    make_folder(tmp_path, {})
    if settings is not None:
        (tmp_path / ".bh").mkdir()
        (tmp_path / ".bh/settings.yaml").write_text(settings, encoding="utf-8")
    ws = Workspace.open(tmp_path)
    assert ws.link_form == form and ws.settings_problem == ""
    operations.connect(ws, "notes/intro.md", "quiz.md")
    operations.connect(ws, "docs/paper.pdf", "quiz.md")
    new = operations.grow(ws, "Grown", upstream=["notes/deeper.md"])
    quiz, grown = (tmp_path / "quiz.md").read_text(), (tmp_path / new).read_text()
    if form == "wikilink":
        assert quiz.startswith('---\nupstream:\n  - "[[notes/intro]]"\n  - "[[docs/paper.pdf]]"\n')
        assert grown.startswith('---\nupstream:\n  - "[[notes/deeper]]"\n---\n')
    else:
        assert quiz.startswith("---\nupstream:\n  - notes/intro.md\n  - docs/paper.pdf\n")
        assert grown.startswith("---\nupstream:\n  - notes/deeper.md\n---\n")
    # Either way it is the same graph, and connecting again writes nothing.
    again = Workspace.open(tmp_path)
    assert again.upstream("quiz.md") == ["notes/intro.md", "docs/paper.pdf"]
    assert again.upstream(new) == ["notes/deeper.md"]
    assert operations.connect(again, "notes/intro.md", "quiz.md") is False


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("links: obsidian\n", "'links' must be one of path, wikilink, got 'obsidian'"),
        ("links: [wikilink]\n", "'links' must be one of"),
        ("- links\n", "'links' must be one of"),
        ("links: [unclosed\n", "not YAML"),
        (b"links: \xff\n", "not YAML"),
    ],
)
def test_a_bad_settings_file_is_reported_and_plain_paths_are_kept(tmp_path, text, problem):
    make_folder(tmp_path, {})
    (tmp_path / ".bh").mkdir()
    data = text if isinstance(text, bytes) else text.encode()
    (tmp_path / ".bh/settings.yaml").write_bytes(data)
    ws = Workspace.open(tmp_path)
    assert ws.link_form == "path"
    assert ws.settings_problem.startswith(".bh/settings.yaml: ") and problem in ws.settings_problem


def test_link_form_command_sets_and_shows_the_setting(tmp_path, capsys):
    make_folder(tmp_path, {})
    assert main(["links", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "path"
    open_before = Workspace.open(tmp_path)
    assert main(["links", str(tmp_path), "wikilink"]) == 0
    assert (tmp_path / ".bh/settings.yaml").read_text() == "links: wikilink\n"
    assert Workspace.open(tmp_path).link_form == "wikilink"
    open_before.refresh()  # an app that had the folder open picks the setting up
    assert open_before.link_form == "wikilink"
    assert main(["links", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip().endswith("wikilink")


def test_wikilink_form_of_paths():
    assert wikilink("notes/a.md") == "[[notes/a]]"
    assert wikilink("docs/p.pdf", "Paper") == "[[docs/p.pdf|Paper]]"
    assert wikilink("b.markdown") == "[[b.markdown]]"
