"""Grade one practice card across a class: every learner's folder under a course folder.

Each subfolder of the course folder is one learner's study folder; those holding the card
are graded with bounded concurrency (threads: a model call is waiting on the network). One
learner's failure is reported and the others go on. The results land in two CSV files in
the course folder: a gradebook (a row per learner and question) and a per-question summary.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import writing
from basehalf_core.folder.fsio import FolderError, open_folder
from basehalf_core.folder.paths import is_hidden
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading, llm
from basehalf_core.study.grading import GRADES

Progress = Callable[[int, int, str], None]


class NoLearners(BasehalfError):
    """No learner folder under the course folder holds the card."""


@dataclass
class LearnerResult:
    """What happened for one learner: a run, or the error that stopped it."""

    learner: str
    run: grading.GradingRun | None = None
    error: str = ""


@dataclass
class ClassReport:
    """All learners' results, plus where the CSV files were written."""

    card: str
    results: list[LearnerResult]
    gradebook: str
    summary: str
    skipped: list[str] = field(default_factory=list)  # learner folders without the card

    @property
    def failures(self) -> list[LearnerResult]:
        """Learners whose grading failed."""
        return [r for r in self.results if r.error]


def learner_folders(course: Path, card_name: str) -> tuple[list[str], list[str]]:
    """(learners holding the card, learners without it), sorted by name."""
    have, without = [], []
    for entry in sorted(os.scandir(course), key=lambda e: e.name):
        if not entry.is_dir(follow_symlinks=False) or is_hidden(entry.name):
            continue
        card = Path(entry.path, *card_name.split("/"))
        (have if card.is_file() and not card.is_symlink() else without).append(entry.name)
    return have, without


def _grade_one(course: Path, learner: str, card_name: str, cfg: llm.ModelConfig | None):
    ws = Workspace.open(course / learner)
    return grading.grade_card(ws, card_name, config=cfg, model=None if cfg else "offline")


def grade_class(
    course_folder: str | os.PathLike,
    card_name: str,
    model: str | None = None,
    concurrency: int = 32,
    progress: Progress | None = None,
    *,
    api_base: str | None = None,
    config: llm.ModelConfig | None = None,
) -> ClassReport:
    """Grade ``card_name`` in every learner folder of ``course_folder``.

    Args:
        course_folder: folder whose subfolders are the learners' study folders.
        card_name: the card's path inside each learner folder.
        model: litellm model string (else ``BASEHALF_MODEL``; none → offline grader).
        concurrency: at most this many learners graded at once (at least 1).
        progress: called as ``progress(done, total, learner)`` after each learner.
        api_base: OpenAI-compatible base URL (else ``BASEHALF_API_BASE``).
        config: a full model configuration (overrides ``model``/``api_base``).

    Raises:
        FolderError: the course folder is not usable.
        NoLearners: no learner folder holds the card.
    """
    course = open_folder(course_folder)
    if not card_name or card_name.startswith("/") or ".." in card_name.split("/"):
        raise FolderError(f"{card_name!r}: not a card path inside a learner folder")
    learners, skipped = learner_folders(course, card_name)
    if not learners:
        raise NoLearners(f"{course}: no learner folder holds {card_name}")
    cfg = config or llm.resolve(model, api_base)
    results: dict[str, LearnerResult] = {}
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = {pool.submit(_grade_one, course, n, card_name, cfg): n for n in learners}
        for done, fut in enumerate(as_completed(futures), 1):
            name = futures[fut]
            try:
                results[name] = LearnerResult(name, run=fut.result())
            except Exception as exc:  # one learner's failure must not stop the class
                results[name] = LearnerResult(name, error=f"{type(exc).__name__}: {exc}")
            if progress:
                progress(done, len(learners), name)
    ordered = [results[n] for n in learners]
    stem = card_name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    book = f"{stem}.gradebook.csv"
    summary = f"{stem}.summary.csv"
    _write(course, book, gradebook_rows(ordered))
    _write(course, summary, summary_rows(ordered))
    return ClassReport(card_name, ordered, book, summary, skipped)


def gradebook_rows(results: list[LearnerResult]) -> list[list[str]]:
    """Header plus one row per learner and question (failures as one 'not graded' row)."""
    rows = [["learner", "question", "verdict", "reason", "model"]]
    for r in results:
        if r.run is None:
            rows.append([r.learner, "", "not graded", r.error, ""])
            continue
        for g in r.run.grades:
            rows.append([r.learner, str(g.number), g.verdict, g.reason, r.run.model])
        for n in r.run.missing:
            rows.append([r.learner, str(n), "not answered", "", r.run.model])
    return rows


def summary_rows(results: list[LearnerResult]) -> list[list[str]]:
    """Per question: how many Correct, Partial, Wrong, Unsure, not answered; the share Correct.

    The share is of the answers graded Correct, Partial or Wrong: an Unsure (the offline
    grader could not tell) is neither right nor wrong, so it is left out of the share.
    """
    counts: dict[int, dict[str, int]] = {}
    for r in results:
        if r.run is None:
            continue
        for g in r.run.grades:
            counts.setdefault(g.number, {}).setdefault(g.verdict, 0)
            counts[g.number][g.verdict] += 1
        for n in r.run.missing:
            counts.setdefault(n, {}).setdefault("not answered", 0)
            counts[n]["not answered"] += 1
    kinds = ("Correct", "Partial", "Wrong", "Unsure", "not answered")
    rows = [["question", *kinds, "share_correct"]]
    for n in sorted(counts):
        c = counts[n]
        total = sum(c.get(k, 0) for k in GRADES)
        share = c.get("Correct", 0) / total if total else 0.0
        rows.append([str(n)] + [str(c.get(k, 0)) for k in kinds] + [f"{share:.2f}"])
    failed = sum(1 for r in results if r.run is None)
    if failed:
        rows.append(["not graded (learners)", *[""] * len(kinds), str(failed)])
    return rows


# A cell starting with one of these is a formula to a spreadsheet: a model-written reason or a
# learner's name must never run as one when the teacher opens the gradebook (OWASP's advice:
# a leading apostrophe; read_gradebook takes it off again for the Teacher view).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def as_text_cell(value: str) -> str:
    """``value`` as a CSV cell a spreadsheet shows as text, never evaluates."""
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def from_text_cell(value: str) -> str:
    """The value :func:`as_text_cell` was given."""
    return value[1:] if value.startswith("'") and value[1:].startswith(FORMULA_STARTS) else value


def _write(course: Path, name: str, rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([as_text_cell(v) for v in r] for r in rows)
    data = buf.getvalue().encode("utf-8")
    writing.update(course, name, lambda before: None if before == data else data)
