"""A killed move's journal in a folder that is read-only when it is next opened.

The open must not fail: it reports ``journal_problem``, changes nothing (every file keeps its
bytes and names, the journal stays), and the next open of the folder, writable again, finishes
the move. Tests run as root here, and root writes through ``chmod``: as root the folder is made
read-only with a read-only bind mount in a private mount namespace (``unshare -m``), the real
thing a learner meets on a read-only share; as another user, ``chmod`` is enough.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from basehalf_core.folder.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]

# Run in the read-only folder: open it, and say what the open saw and whether the folder
# really refuses writes (so the test cannot pass on a folder that was writable after all).
_OPEN = """
import json, os, sys
from basehalf_core.folder.workspace import Workspace
root = sys.argv[1]
try:
    open(os.path.join(root, "probe.tmp"), "x").close()
    read_only = False
except OSError:
    read_only = True
ws = Workspace.open(root)
print(json.dumps({
    "read_only": read_only,
    "problem": ws.journal_problem,
    "notes": sorted(p for p in ws.nodes if p.endswith(".md")),
    "dangling": sorted((i.path, i.entry) for i in ws.issues() if i.problem == "dangling"),
}))
"""


def _open_read_only(folder: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if os.geteuid() == 0:
        if not shutil.which("unshare") or not shutil.which("mount"):
            pytest.skip("root, and no unshare/mount to make a read-only bind mount")
        script = 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" -c "$3" "$1"'
        cmd = ["unshare", "-m", "sh", "-c", script, "sh", str(folder), sys.executable, _OPEN]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        if proc.returncode != 0 and "mount" in proc.stderr and "Traceback" not in proc.stderr:
            pytest.skip(f"root without the right to mount here: {proc.stderr.strip()}")
    else:
        dirs = [folder, *(p for p in folder.rglob("*") if p.is_dir())]
        for d in dirs:
            d.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            cmd = [sys.executable, "-c", _OPEN, str(folder)]
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
        finally:
            for d in dirs:
                d.chmod(stat.S_IRWXU)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    return {
        p.relative_to(folder).as_posix(): (p.stat().st_ino, p.read_bytes())
        for p in folder.rglob("*")
        if p.is_file() and "locks" not in p.parts
    }


def _killed_move(folder: Path, moment: str) -> None:
    """A folder where ``mv a.md b.md`` was killed at ``moment``, with its journal in .bh/."""
    (folder / "paper.pdf").write_bytes(b"%PDF-1.4 stand-in")
    (folder / "a.md").write_text("---\nupstream: [paper.pdf]\n---\n# A\n")
    for i in range(3):
        (folder / f"n{i}.md").write_text(f"---\nupstream:\n  - paper.pdf\n  - a.md\n---\n# N{i}\n")
    if moment == "between link and unlink":
        os.link(folder / "a.md", folder / "b.md")
    else:  # "moved, entries not rewritten yet"
        (folder / "a.md").rename(folder / "b.md")
    (folder / ".bh").mkdir()
    plan = {"op": "move", "src": "a.md", "dest": "b.md", "links": {}}
    (folder / ".bh/journal.json").write_text(json.dumps(plan))


@pytest.mark.parametrize("moment", ["between link and unlink", "moved, entries not rewritten yet"])
def test_a_journal_in_a_read_only_folder_opens_loses_nothing_and_is_finished_later(
    tmp_path, moment
):
    folder = tmp_path / "study"
    folder.mkdir()
    _killed_move(folder, moment)
    before = _snapshot(folder)

    seen = _open_read_only(folder)

    assert seen["read_only"], "the folder should refuse writes during the read-only open"
    assert seen["problem"].startswith(".bh/journal.json: an interrupted move was not finished")
    assert "b.md" in seen["notes"]
    if moment == "moved, entries not rewritten yet":
        # The entries still name the old path: shown as dangling, not silently dropped.
        assert seen["dangling"] == [["n0.md", "a.md"], ["n1.md", "a.md"], ["n2.md", "a.md"]]
    assert _snapshot(folder) == before, "a read-only open must change nothing"

    ws = Workspace.open(folder)  # writable again: the journal is finished now

    assert ws.journal_problem == ""
    assert not (folder / ".bh/journal.json").exists()
    assert not (folder / "a.md").exists()
    assert (folder / "b.md").read_text() == "---\nupstream: [paper.pdf]\n---\n# A\n"
    for i in range(3):
        assert ws.upstream(f"n{i}.md") == ["paper.pdf", "b.md"]
    assert [i for i in ws.issues() if i.problem == "dangling"] == []
