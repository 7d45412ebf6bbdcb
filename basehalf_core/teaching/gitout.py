"""Hand a learner folder out as a git repository, so work goes out and comes back with git.

Plain ``git`` (the command) does the work; basehalf only makes the first commit with a fixed
author, so a hand-out needs no git identity configured on the teacher's machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from basehalf_core.folder.fsio import open_folder, read_bytes
from basehalf_core.folder.writing import atomic_write
from basehalf_core.teaching.course import CourseError

# basehalf's scratch files are not work: never commit them.
IGNORE = ".bh/locks/\n*.bh-tmp\n__marimo__/\n"
AUTHOR = ("basehalf", "basehalf@localhost")


def _git(folder: Path, *args: str) -> str:
    if shutil.which("git") is None:
        raise CourseError("git is not installed: install it to hand out folders as repositories")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": AUTHOR[0],
        "GIT_AUTHOR_EMAIL": AUTHOR[1],
        "GIT_COMMITTER_NAME": AUTHOR[0],
        "GIT_COMMITTER_EMAIL": AUTHOR[1],
    }
    done = subprocess.run(
        ["git", "-C", str(folder), *args], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise CourseError(f"{folder}: git {args[0]} failed: {done.stderr.strip()[:300]}")
    return done.stdout


def init_repository(folder: str | os.PathLike, message: str) -> str:
    """Make ``folder`` a git repository (branch ``main``) with everything in one commit.

    Returns:
        The commit id.

    Raises:
        CourseError: the folder is already a repository, or git failed.
    """
    root = open_folder(folder)
    if (root / ".git").exists():
        raise CourseError(f"{root}: already a git repository; nothing changed")
    _git(root, "init", "-q", "-b", "main")
    ignore = root / ".gitignore"
    if read_bytes(ignore) is None:
        atomic_write(ignore, IGNORE.encode("utf-8"), expected=None)
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", message)
    return _git(root, "rev-parse", "HEAD").strip()
