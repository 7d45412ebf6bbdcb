"""Courses: a folder of study sessions plus ``course.yaml``, and learner handouts of it.

``course.yaml``::

    title: Reading Transformers
    sessions:            # in teaching order; folders next to course.yaml
      - attention-is-all-you-need
      - longeval
    key:                 # answer keys: never copied into a handout
      - answers/

A handout is a copy for learners: the key files are left out, every practice card's answers
are blanked (``Answer:`` lines emptied, ``## Answers`` items emptied, ``## Answer key``
sections dropped), grading files and basehalf's review/ask logs are not copied, and the
handout is checked afterwards so that no answer text survives anywhere in it.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import yaml

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import notes
from basehalf_core.folder.fsio import (
    NotRegularFile,
    WriteRefused,
    is_within,
    open_folder,
    read_node,
    read_regular,
)
from basehalf_core.folder.paths import check_entry, is_markdown, kind_for
from basehalf_core.folder.upstream_edit import render_fields
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import atomic_write
from basehalf_core.study import review
from basehalf_core.study.grading import in_force
from basehalf_core.study.practice import (
    _ANSWER,
    _ANSWERS_H,
    _HEADING,
    _ITEM,
    _KEY_H,
    PracticeError,
    parse_card,
)
from basehalf_core.study.practice import split_frontmatter as _split

COURSE_FILE = "course.yaml"
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# basehalf state that belongs to one learner, never to a copy for others.
PRIVATE_STATE = (".bh/reviews.json", ".bh/asks.jsonl", ".bh/canvas.json")


class CourseError(BasehalfError):
    """A course cannot be made or read; the message names the file and why."""


@dataclass(frozen=True)
class Course:
    """A parsed ``course.yaml``: title, session folders in order, answer-key paths."""

    root: Path
    title: str
    sessions: list[str]
    key: list[str]

    def is_key(self, rel: str) -> bool:
        """True when the course-relative path is, or is inside, an answer-key entry."""
        return any(rel == k or rel.startswith(k.rstrip("/") + "/") for k in self.key)


# Every learner's folder lies under this one (see :mod:`.roster`); it is never a session.
LEARNERS_DIR = "learners"


def _entries(data: dict, field: str, where: Path) -> list[str]:
    raw = data.get(field) or []
    if not isinstance(raw, list):
        raise CourseError(f"{where}: '{field}' must be a list of folder-relative paths")
    out = []
    for item in raw:
        path, reason = check_entry(str(item), "")
        if path is None:
            raise CourseError(f"{where}: {field} entry {item!r} is not usable: {reason}")
        out.append(path)
    return out


def load(course_folder: str | os.PathLike) -> Course:
    """Read a course folder's ``course.yaml``.

    Raises:
        CourseError: no course.yaml, bad YAML, or a listed session that is not a folder.
    """
    root = open_folder(course_folder)
    where = root / COURSE_FILE
    try:
        data = notes.load_yaml(read_node(root, COURSE_FILE).decode("utf-8-sig"))
    except FileNotFoundError:
        raise CourseError(f"{where}: no course.yaml; make one with 'basehalf course new'") from None
    except (yaml.YAMLError, UnicodeDecodeError, notes.YamlRefused) as exc:
        raise CourseError(f"{where}: not valid YAML ({exc})") from None
    except WriteRefused as exc:
        raise CourseError(exc.path, exc.reason) from None
    if not isinstance(data, dict):
        raise CourseError(f"{where}: must be a mapping with title, sessions, key")
    sessions = _entries(data, "sessions", where)
    for s in sessions:
        full = root.joinpath(*s.split("/"))
        # A session (or a folder on its way) that is a symlink out would have handouts,
        # progress and grading read a folder that is not the course's.
        if not is_within(root, full):
            raise CourseError(f"{where}: session {s!r} leads outside the course (a symlink)")
        if full.is_symlink() or not full.is_dir():
            raise CourseError(f"{where}: session {s!r} is not a folder of the course")
        # Sessions are handed out: one that is the learners' folder, or lies in it (also
        # through a folder on the way that links there), would give every learner the
        # others' work.
        resolved = full.resolve().relative_to(root.resolve()).parts
        if resolved and resolved[0].casefold() == LEARNERS_DIR:
            raise CourseError(
                f"{where}: session {s!r} is in '{LEARNERS_DIR}/', the learners' own folders; "
                "a handout of it would give each learner the others' work"
            )
    return Course(root, str(data.get("title") or root.name), sessions, _entries(data, "key", where))


def _copy_tree(src: Path, dest: Path, skip) -> list[str]:
    """Copy files create-only; ``skip(rel)`` leaves some out. Symlinks are never followed."""
    copied = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = sorted(d for d in dirnames if not os.path.islink(os.path.join(dirpath, d)))
        for name in sorted(filenames):
            full = Path(dirpath, name)
            rel = full.relative_to(src).as_posix()
            if skip(rel):
                continue
            data = _read_plain(full)
            if data is None:
                continue
            atomic_write(dest / rel, data, expected=None)
            copied.append(rel)
    return copied


def _read_plain(full: Path) -> bytes | None:
    """A regular file's bytes; ``None`` for a symlink or special file (never followed/opened)."""
    if full.is_symlink():
        return None
    try:
        return read_regular(full)
    except (NotRegularFile, FileNotFoundError):
        return None


def _fresh_folder(path: Path) -> Path:
    if path.exists() and (not path.is_dir() or any(path.iterdir())):
        raise CourseError(f"{path}: already exists and is not an empty folder; nothing written")
    path.mkdir(parents=True, exist_ok=True)
    return path.resolve()


def new(
    course_folder: str | os.PathLike,
    title: str,
    sessions: list[str | os.PathLike],
    key: list[str] | None = None,
) -> Course:
    """Make a course folder: copy each session folder in and write ``course.yaml``.

    Args:
        course_folder: a new (or empty) folder.
        title: the course title.
        sessions: study folders, in teaching order; each is copied under its own name.
        key: course-relative answer-key paths to list (files you add afterwards).

    Raises:
        CourseError: the course folder is not empty, a session is missing, or two share a name.
    """
    if not title.strip():
        raise CourseError("--title is empty: a course needs a title")
    bad = _CONTROL.search(title)
    if bad:
        raise CourseError(
            f"--title holds the control character U+{ord(bad.group()):04X}; "
            "type the title again without it (nothing written)"
        )
    sources = [open_folder(s) for s in sessions]
    if not sources:
        raise CourseError("no --session given: a course needs at least one session folder")
    names = [s.name for s in sources]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise CourseError(f"two sessions are both named {dupes[0]!r}; rename one first")
    target = Path(course_folder).expanduser()
    existed = target.exists()
    root = _fresh_folder(target)
    try:
        for src in sources:
            _copy_tree(src, root / src.name, lambda rel: rel in PRIVATE_STATE)
        doc = render_fields({"title": title.strip()})
        doc += "sessions:\n" + "".join(f"  - {_scalar(n)}\n" for n in names)
        keys = "".join(f"  - {_scalar(k)}\n" for k in key or [])
        doc += "key:\n" + keys if key else "key: []\n"
        atomic_write(root / COURSE_FILE, doc.encode("utf-8"), expected=None)
        return load(root)
    except BaseException:
        # Leave nothing half made: the folder was new or empty before this call.
        for child in list(root.iterdir()):
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        if not existed:
            root.rmdir()
        raise


def _scalar(text: str) -> str:
    return render_fields({"x": text}).split(": ", 1)[1].rstrip("\n")


# --- handouts -----------------------------------------------------------------------------


def blank_answers(text: str) -> str:
    """A practice card's text with every answer removed, everything else kept.

    ``Answer: …`` lines keep ``Answer:`` (a place to write) and lose their text and any
    continuation lines; items under ``## Answers`` keep their number only; an
    ``## Answer key`` section is dropped whole.
    """
    out: list[str] = []
    section = "body"
    in_answer = False
    for line in text.splitlines(keepends=True):
        m = _HEADING.match(line.rstrip("\r\n"))
        if m and len(m.group(1)) >= 2:
            name = m.group(2).strip().rstrip(":：")
            section = (
                "answers" if _ANSWERS_H.match(name) else "key" if _KEY_H.match(name) else "body"
            )
            in_answer = False
            if section == "key":
                continue
            out.append(line)
            continue
        if section == "key":
            continue
        if section == "answers":
            item = _ITEM.match(line.rstrip("\r\n"))
            if item:
                out.append(f"{item.group(1)}. \n")
            elif not line.strip():
                out.append(line)
            continue
        a = _ANSWER.match(line.rstrip("\r\n"))
        if a and not _ITEM.match(line.rstrip("\r\n")):
            indent = line[: len(line) - len(line.lstrip())]
            label = line.strip()[: line.strip().index(a.group(1))] if a.group(1) else line.strip()
            out.append(f"{indent}{label.rstrip()}\n")
            in_answer = True
            continue
        if in_answer and line.strip() and not _ITEM.match(line.rstrip("\r\n")):
            continue  # continuation of the answer
        in_answer = False
        out.append(line)
    return "".join(out)


def _is_card(rel: str, text: str) -> bool:
    meta, _ = _split(text)
    return kind_for(rel, declared=meta.get("kind")) == "practice"


def handout(course_folder: str | os.PathLike, out: str | os.PathLike) -> list[str]:
    """Write a learner copy of the course to ``out`` (a new or empty folder).

    Returns:
        The course-relative files written.

    Raises:
        CourseError: bad course, non-empty ``out``, or an answer left in the handout.
    """
    course = load(course_folder)
    src_root = course.root
    dest = Path(out).expanduser()
    if dest.resolve() == src_root or dest.resolve().is_relative_to(src_root):
        raise CourseError(f"{dest}: the handout must be outside the course folder")
    answers = _course_answers(course)
    dest = _fresh_folder(dest)
    written: list[str] = []
    for session in course.sessions:

        def skip(rel: str, session: str = session) -> bool:
            full_rel = f"{session}/{rel}"
            if course.is_key(full_rel) or rel in PRIVATE_STATE:
                return True
            return kind_for(rel) == "grading"  # a learner's graded answers are theirs

        for rel in _copy_tree(src_root / session, dest / session, skip):
            written.append(f"{session}/{rel}")
    for rel in written:
        if is_markdown(rel):
            full = dest / rel
            text = full.read_bytes().decode("utf-8-sig", errors="replace")
            if _is_card(rel, text):
                blanked = blank_answers(text)
                atomic_write(full, blanked.encode("utf-8"), expected=full.read_bytes())
    doc = render_fields({"title": course.title})
    doc += "sessions:\n" + "".join(f"  - {_scalar(s)}\n" for s in course.sessions)
    atomic_write(dest / COURSE_FILE, doc.encode("utf-8"), expected=None)
    written.append(COURSE_FILE)
    _check_no_answers(dest, written, answers)
    return sorted(written)


_LIST_MARK = re.compile(
    r"^\s*(?:[-*+]\s+|\d{1,3}[.)]\s+)?(?:\**(?:answer|a|答案|答)\**\s*[:：]\**)?\s*", re.I
)


def _key_lines(text: str) -> list[str]:
    """Every line of a key file that could hold an answer (headings and fences aside)."""
    out = []
    for line in text.splitlines():
        if _HEADING.match(line) or line.strip() in ("---", "```"):
            continue
        out.append(_LIST_MARK.sub("", line, count=1).strip())
    return out


def _course_answers(course: Course) -> list[str]:
    """Every answer text in the course's cards and key files (what a handout must not hold)."""
    found: list[str] = []
    tops = set(course.sessions) | {k.split("/")[0] for k in course.key}
    for dirpath, dirs, files in os.walk(course.root):
        if dirpath == str(course.root):
            # Only sessions are handed out and keys hold answers: learners' folders (their own
            # answers, a class of them) are neither read nor held against a new hand-out.
            dirs[:] = [d for d in dirs if d in tops]
        for name in files:
            full = Path(dirpath, name)
            rel = full.relative_to(course.root).as_posix()
            if dirpath == str(course.root) and not course.is_key(rel):
                continue
            data = None if any(p.startswith(".") for p in rel.split("/")) else _read_plain(full)
            if data is None:
                continue
            text = data.decode("utf-8-sig", errors="replace")
            if course.is_key(rel):
                found += _key_lines(text)
                continue
            if not (is_markdown(rel) and _is_card(rel, text)):
                continue
            try:
                card = parse_card(rel, text)
            except PracticeError:
                continue
            found += [q.answer for q in card.questions if q.answer]
            found += list(card.answer_key.values())
    return [a for a in found if len(a.strip()) >= 12]  # short ones ("Yes.") are not secrets


def _check_no_answers(dest: Path, written: list[str], answers: list[str]) -> None:
    norm = [" ".join(a.split()) for a in answers]
    for rel in written:
        if not is_markdown(rel) and not rel.endswith((".yaml", ".txt", ".json")):
            continue
        text = " ".join((dest / rel).read_bytes().decode("utf-8", errors="replace").split())
        for a in norm:
            if a in text:
                raise CourseError(
                    f"{dest / rel}: still holds the answer {a[:40]!r}; the handout is "
                    "incomplete and must not be given out (remove the answer from that file)"
                )


# --- progress -----------------------------------------------------------------------------


def progress(course_folder: str | os.PathLike, now: datetime | None = None) -> list[dict]:
    """Per session: notes, practice questions, questions graded, reviews due now and today.

    Args:
        course_folder: the course.
        now: the time for "due" (time-zone aware; default: now, UTC).
    """
    now = now or datetime.now(UTC)
    course = load(course_folder)
    rows = []
    for session in course.sessions:
        ws = Workspace.open(course.root / session)  # once: the reviews read it too
        counts = study_counts(ws)
        today = review.due(ws, now)
        rows.append(
            {
                "session": session,
                "notes": counts["notes"],
                "practice_questions": counts["practice_questions"],
                "graded": counts["graded"],
                "due": sum(1 for d in today if d.due <= now),
                "due_today": len(today),
            }
        )
    return rows


def enclosing(folder: str | os.PathLike) -> Path | None:
    """The course a study folder belongs to: itself or its parent holding ``course.yaml``."""
    root = Path(folder)
    return next((p for p in (root, root.parent) if (p / "course.yaml").is_file()), None)


def study_counts(ws: Workspace) -> dict:
    """One study folder's notes, practice questions, answered, graded and verdicts in force."""
    notes = [p for p, n in ws.nodes.items() if n.kind == "note"]
    questions = graded = answered = 0
    verdicts: dict[str, int] = {}
    for path in sorted(p for p, n in ws.nodes.items() if n.kind == "practice"):
        try:
            card = parse_card(path, ws.read_text(path))
        except PracticeError:
            continue
        questions += len(card.questions)
        answered += sum(1 for q in card.questions if (q.answer or "").strip())
        marks = in_force(ws, path)
        graded += len(marks)
        for mark in marks.values():
            verdicts[mark.verdict] = verdicts.get(mark.verdict, 0) + 1
    return {
        "notes": len(notes),
        "practice_questions": questions,
        "answered": answered,
        "graded": graded,
        "verdicts": verdicts,
    }
