"""The class roster: who the learners are and which folder under the course is each one's.

``course.yaml`` gains a ``learners`` list::

    learners:
      - name: alice
        folder: learners/alice

Every learner folder is one segment under ``learners/`` (so a class can be graded with
:func:`basehalf_core.teaching.classroom.grade_class` over ``learners/``), never a session, an
answer key, the course root or a symlink. The name ``teacher`` is reserved for the teacher's
account (see :mod:`basehalf_core.teaching.auth`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from basehalf_core.folder.fsio import open_folder, read_bytes
from basehalf_core.folder.writing import atomic_write
from basehalf_core.teaching import course

LEARNERS_DIR = course.LEARNERS_DIR
TEACHER = "teacher"
# ASCII, short, no path characters: a name becomes a folder name and a cookie value.
_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")


class RosterError(course.CourseError):
    """The roster cannot be read or changed; the message names the file and why."""


@dataclass(frozen=True)
class Learner:
    """One learner: a sign-in name and their folder, relative to the course."""

    name: str
    folder: str


def check_name(name: str) -> str:
    """``name`` if it is a usable learner name, else :class:`RosterError` saying why."""
    if not _NAME.match(name or ""):
        raise RosterError(
            f"{name!r}: a learner name is 1-32 characters of a-z, 0-9, '-' or '_', "
            "starting with a letter or digit"
        )
    if name == TEACHER:
        raise RosterError(f"{name!r}: reserved for the teacher's account")
    return name


def _check_folder(where: Path, name: str, folder: str) -> str:
    parts = str(folder).split("/")
    if len(parts) != 2 or parts[0] != LEARNERS_DIR or not _NAME.match(parts[1]):
        raise RosterError(
            f"{where}: learner {name!r} has folder {folder!r}; it must be "
            f"{LEARNERS_DIR}/<one name of a-z, 0-9, '-', '_'>"
        )
    return str(folder)


def load(course_folder: str | os.PathLike) -> dict[str, Learner]:
    """The roster of a course, by name (empty when ``course.yaml`` lists no learners).

    Raises:
        RosterError: a malformed ``learners`` list, a bad name or folder, or a repeated name
            or folder.
    """
    c = course.load(course_folder)
    where = c.root / course.COURSE_FILE
    data = yaml.safe_load(where.read_text("utf-8-sig")) or {}
    raw = data.get("learners") or []
    if not isinstance(raw, list):
        raise RosterError(f"{where}: 'learners' must be a list of {{name, folder}}")
    out: dict[str, Learner] = {}
    folders: set[str] = set()
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise RosterError(f"{where}: learner entry {item!r} needs a name and a folder")
        name = item["name"]
        try:
            check_name(name)
        except RosterError as exc:
            raise RosterError(f"{where}: {exc}") from None
        folder = _check_folder(where, name, str(item.get("folder") or ""))
        if name in out or folder in folders:
            raise RosterError(f"{where}: learner {name!r} or folder {folder!r} is listed twice")
        out[name] = Learner(name, folder)
        folders.add(folder)
    return out


def folder_of(course_folder: str | os.PathLike, name: str) -> Path:
    """The real, existing folder of learner ``name``.

    Raises:
        RosterError: no such learner, or the folder is missing, a symlink, or not a folder.
    """
    root = open_folder(course_folder)
    learner = load(root).get(name)
    if learner is None:
        raise RosterError(f"{root / course.COURSE_FILE}: no learner named {name!r}")
    path = root.joinpath(*learner.folder.split("/"))
    if path.is_symlink() or not path.is_dir() or path.resolve().parent != root / LEARNERS_DIR:
        raise RosterError(f"{path}: learner {name!r}'s folder is missing or not a plain folder")
    return path.resolve()


def add(course_folder: str | os.PathLike, name: str) -> Learner:
    """List a new learner in ``course.yaml`` (a text edit: every other byte stays).

    Raises:
        RosterError: the name is unusable or already listed.
    """
    root = open_folder(course_folder)
    check_name(name)
    if name in load(root):
        raise RosterError(f"{root / course.COURSE_FILE}: learner {name!r} is already listed")
    learner = Learner(name, f"{LEARNERS_DIR}/{name}")
    path = root / course.COURSE_FILE
    before = read_bytes(path) or b""
    text = before.decode("utf-8-sig")
    entry = f"  - name: {name}\n    folder: {learner.folder}\n"
    lines = text.splitlines(keepends=True)
    at = next((i for i, ln in enumerate(lines) if re.match(r"learners\s*:", ln)), None)
    if at is None:
        sep = "" if not text or text.endswith("\n") else "\n"
        text = f"{text}{sep}learners:\n{entry}"
    else:
        if re.match(r"learners\s*:\s*(\[\s*\])?\s*(#.*)?$", lines[at].rstrip("\r\n")):
            lines[at] = "learners:\n"
        end = at + 1
        while end < len(lines) and (lines[end][:1] in (" ", "-", "\t") or not lines[end].strip()):
            end += 1
        lines.insert(end, entry)
        text = "".join(lines)
    prefix = "\ufeff" if before.startswith(b"\xef\xbb\xbf") else ""
    atomic_write(path, (prefix + text).encode("utf-8"), expected=before)
    if name not in load(root):
        # The edit must round-trip; a course.yaml shaped in a way we did not foresee is restored.
        atomic_write(path, before, expected=read_bytes(path))
        raise RosterError(f"{path}: could not add {name!r} to its 'learners' list; edit it by hand")
    return learner
