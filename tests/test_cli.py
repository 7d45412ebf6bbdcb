import json
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args, ok=True):
    proc = subprocess.run(
        [sys.executable, "-m", "basehalf_cli.main", *map(str, args)],
        capture_output=True,
        text=True,
    )
    if ok:
        assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "paper.pdf").write_bytes(b"%PDF-1.4 stand-in")
    (tmp_path / "01-claim.md").write_text("---\nupstream:\n  - paper.pdf\n---\n# Claim\n")
    (tmp_path / "02-pain.md").write_text(
        "---\nupstream: [01-claim.md, gone.md, /etc/passwd]\n---\n"
    )
    (tmp_path / "06-q.md").write_text("---\nupstream: [02-pain.md]\nkind: practice\n---\n")
    return tmp_path


def test_graph_json_contract(folder):
    out = json.loads(run("graph", folder, "--json").stdout)
    assert out == {
        "nodes": [
            {"path": "01-claim.md", "kind": "note"},
            {"path": "02-pain.md", "kind": "note"},
            {"path": "06-q.md", "kind": "practice"},
            {"path": "paper.pdf", "kind": "pdf"},
        ],
        "edges": [
            {"from": "01-claim.md", "to": "02-pain.md"},
            {"from": "02-pain.md", "to": "06-q.md"},
            {"from": "paper.pdf", "to": "01-claim.md"},
        ],
        "issues": [
            {"path": "02-pain.md", "entry": "gone.md", "problem": "dangling",
             "reason": "names no file in the folder"},
            {"path": "02-pain.md", "entry": "/etc/passwd", "problem": "invalid",
             "reason": "absolute path; entries are relative to the folder root"},
        ],
    }  # fmt: skip


def test_connect_disconnect_and_path(folder):
    run("connect", folder, "paper.pdf", "06-q.md")
    assert "paper.pdf" in (folder / "06-q.md").read_text()
    assert run("path", folder).stdout.splitlines() == [
        "paper.pdf", "01-claim.md", "02-pain.md", "06-q.md",
    ]  # fmt: skip
    run("disconnect", folder, "paper.pdf", "06-q.md")
    assert (folder / "06-q.md").read_text() == "---\nupstream: [02-pain.md]\nkind: practice\n---\n"


def test_mv_and_relink_print_reports(folder):
    out = json.loads(run("mv", folder, "01-claim.md", "notes/claim.md").stdout)
    assert out == {"updated": ["02-pain.md"], "skipped": []}
    (folder / "elsewhere.md").write_text("# moved by hand\n")
    out = json.loads(run("relink", folder, "gone.md", "elsewhere.md").stdout)
    assert out == {"updated": ["02-pain.md"], "skipped": []}
    assert "elsewhere.md" in (folder / "02-pain.md").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("connect", "{f}", "nope.md", "02-pain.md"), "nope.md: no such file in the folder"),
        (("connect", "{f}", "../x", "02-pain.md"), "../x: cannot be listed upstream"),
        (("mv", "{f}", "01-claim.md", "02-pain.md"), "02-pain.md: already exists"),
        (("relink", "{f}", "01-claim.md", "02-pain.md"), "01-claim.md: still exists"),
        (("graph", "{f}/nowhere"), "nowhere: folder does not exist"),
    ],
)
def test_refusals_exit_nonzero_with_one_line(folder, args, message):
    proc = run(*[a.format(f=folder) for a in args], ok=False)
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert message in proc.stderr


def test_refused_write_changes_nothing(folder):
    (folder / "bad.md").write_text("---\nupstream: {a: b}\n---\n")
    before = (folder / "bad.md").read_bytes()
    proc = run("connect", folder, "paper.pdf", "bad.md", ok=False)
    assert "bad.md: upstream is a mapping" in proc.stderr
    assert (folder / "bad.md").read_bytes() == before


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "basehalf"
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "graph" in proc.stdout


def test_every_command_in_the_table_is_registered_by_its_module():
    import argparse

    from basehalf_cli.main import COMMANDS, build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert sorted(sub.choices) == sorted(COMMANDS)
    for name, p in sub.choices.items():
        # A command runs a function, or is a group (``course``) of commands that do.
        groups = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        funcs = (
            [p.get_default("func")]
            if not groups
            else [q.get_default("func") for q in groups[0].choices.values()]
        )
        assert all(callable(f) for f in funcs), name


def test_help_loads_no_command_module():
    """``basehalf --help`` names every command without importing the folder model or models."""
    probe = (
        "import sys; from basehalf_cli.main import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('networkx', 'pymupdf', 'litellm', 'yaml', 'basehalf_cli.folder')"
        " if m in sys.modules]\n"
        "print('HEAVY', heavy)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True).stdout
    assert "fetch-arxiv" in out and "grade-class" in out
    assert "HEAVY []" in out
