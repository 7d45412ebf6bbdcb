"""What the teacher sees of a served class: one row per learner, and the questions most missed.

Built from the engines that already count things (``course.study_counts``, ``review.due``,
``classroom.gradebook_rows``); nothing here writes.
"""

from __future__ import annotations

import csv
import os
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import review
from basehalf_core.teaching import course, roster
from basehalf_core.teaching.budget import Budget
from basehalf_core.teaching.classroom import from_text_cell


def last_activity(folder: Path) -> str:
    """The newest modification time of any file in ``folder`` (ISO, UTC), or ``""``."""
    newest = 0.0
    for dirpath, dirnames, files in os.walk(folder):
        dirnames[:] = [d for d in dirnames if d != ".git" and not os.path.islink(Path(dirpath, d))]
        for name in files:
            try:
                newest = max(newest, os.lstat(Path(dirpath, name)).st_mtime)
            except OSError:
                continue
    return datetime.fromtimestamp(newest, UTC).isoformat(timespec="seconds") if newest else ""


def learner_rows(
    course_folder: str | os.PathLike, budget: Budget | None = None, now: datetime | None = None
) -> list[dict]:
    """One row per roster learner: notes, questions, answered, graded, verdicts, due, activity.

    A learner whose folder cannot be read gets a row saying why, never a stopped view.
    """
    now = now or datetime.now(UTC)
    rows = []
    for name in sorted(roster.load(course_folder)):
        row: dict = {"learner": name}
        try:
            folder = roster.folder_of(course_folder, name)
            counts = course.study_counts(Workspace.open(folder))
            marks = counts.pop("verdicts")
            row |= counts
            row |= {v: marks.get(v, 0) for v in ("Correct", "Partial", "Wrong")}
            row["reviews_due"] = len(review.due(folder, now))
            row["last_activity"] = last_activity(folder)
            row["problem"] = ""
        except Exception as exc:  # one unreadable folder is reported in its row
            row["problem"] = f"{type(exc).__name__}: {exc}"
        if budget is not None:
            row["model_calls_today"] = budget.used(name)
        rows.append(row)
    return rows


def read_gradebook(path: Path) -> list[dict]:
    """Rows of a gradebook CSV written by ``grade_class`` (learner, question, verdict, ...)."""
    with open(path, newline="", encoding="utf-8") as fh:
        return [
            {k: from_text_cell(v) if isinstance(v, str) else v for k, v in row.items()}
            for row in csv.DictReader(fh)
        ]


def most_wrong(gradebook: list[dict], reasons: int = 3) -> list[dict]:
    """Per question, most Wrong first: how many learners got it Wrong, and their top reasons."""
    wrong: dict[str, Counter] = {}
    total: Counter = Counter()
    for r in gradebook:
        q = r.get("question", "")
        if not q:
            continue
        total[q] += 1
        if r.get("verdict") == "Wrong":
            wrong.setdefault(q, Counter())[r.get("reason", "").strip()] += 1
    out = [
        {
            "question": q,
            "wrong": sum(wrong.get(q, Counter()).values()),
            "graded": total[q],
            "reasons": "; ".join(
                f"{text} (×{n})" for text, n in wrong.get(q, Counter()).most_common(reasons)
            ),
        }
        for q in total
    ]
    return sorted(
        out, key=lambda r: (-r["wrong"], int(r["question"]) if r["question"].isdigit() else 0)
    )
