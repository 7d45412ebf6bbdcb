"""The one rule for verdicts in force, and the per-question history that review replays.

In force for a question: the card's latest run's verdict, replaced by the learner's last
(in file order) override of that run's question when the override holds a valid verdict. A
question the latest run did not grade (left unanswered then) has no verdict in force. The
workbench, the export, course progress and review all read verdicts through this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.grading.record import GRADES, VERDICTS, runs


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
    overridden: bool = False
    confidence: float | None = None

    @property
    def source(self) -> str:
        """``"override"`` when the learner set it, else the model name (``offline`` ...)."""
        return "override" if self.overridden else self.model

    @property
    def counts(self) -> bool:
        """Whether this verdict is a grade (Unsure is not: it never counts as Wrong)."""
        return self.verdict in GRADES


def _time(text: str) -> datetime | None:
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except (ValueError, AttributeError):
        return None
    return t if t.tzinfo else t.replace(tzinfo=UTC)


def history(ws: Workspace, card: str) -> dict[int, list[Verdict]]:
    """``{question number: [Verdict per run, oldest first]}``; ``{}`` when never graded."""
    found, overrides = runs(ws, card)
    last_override = {
        (o.run_id, o.number): o for o in overrides if o.verdict in GRADES
    }  # file order: the last valid one wins
    out: dict[int, list[Verdict]] = {}
    for run in found:
        for g in run.grades:
            o = last_override.get((run.run_id, g.number))
            verdict = o.verdict if o else g.verdict
            if verdict not in VERDICTS:
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
                    overridden=o is not None,
                    confidence=g.confidence,
                )
            )
    return out


def in_force(ws: Workspace, card: str) -> dict[int, Verdict]:
    """The verdicts in force: the card's latest run, overrides applied (see the module rule)."""
    found, _ = runs(ws, card)
    if not found:
        return {}
    last = found[-1].run_id
    return {n: vs[-1] for n, vs in history(ws, card).items() if vs and vs[-1].run_id == last}
