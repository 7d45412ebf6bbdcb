"""Grading history per practice question, in one plain shape for export, review and courses.

The grading room owns the grading file (:mod:`basehalf_core.study.grading`); this module reads its
runs and overrides and answers two questions: which verdict is in force now (for the export
and course progress), and what every run said, overrides applied (the review events).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading


@dataclass(frozen=True)
class Verdict:
    """One run's verdict on one question, after the learner's override of that run if any."""

    card: str
    number: int
    verdict: str
    reason: str
    graded_verdict: str  # what the grader said (differs from ``verdict`` after an override)
    model: str
    run_id: str
    time: datetime | None
    note: str = ""  # the learner's note on an override

    @property
    def overridden(self) -> bool:
        return self.graded_verdict != self.verdict


def _time(text: str) -> datetime | None:
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def history(ws: Workspace, card: str) -> dict[int, list[Verdict]]:
    """``{question number: [Verdict per run, oldest first]}``; ``{}`` when never graded."""
    runs, overrides = grading.runs(ws, card)
    latest_override = {(o.run_id, o.number): o for o in overrides}  # file order: last wins
    out: dict[int, list[Verdict]] = {}
    for run in runs:
        for g in run.grades:
            o = latest_override.get((run.run_id, g.number))
            verdict = o.verdict if o and o.verdict in grading.VERDICTS else g.verdict
            if verdict not in grading.VERDICTS:
                continue
            out.setdefault(g.number, []).append(
                Verdict(
                    card=card,
                    number=g.number,
                    verdict=verdict,
                    reason=g.reason,
                    graded_verdict=g.verdict,
                    model=run.model,
                    run_id=run.run_id,
                    time=_time(run.time),
                    note=o.note if o else "",
                )
            )
    return out


def latest(ws: Workspace, card: str) -> dict[int, Verdict]:
    """The verdicts in force: the card's latest run, overrides applied.

    Same rule as :func:`grading.latest_verdicts` (what the workbench shows): a question the
    latest run did not grade (left unanswered then) has no verdict in force.
    """
    runs, _ = grading.runs(ws, card)
    if not runs:
        return {}
    last = runs[-1].run_id
    return {n: vs[-1] for n, vs in history(ws, card).items() if vs and vs[-1].run_id == last}
