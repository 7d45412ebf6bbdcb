"""The Agent Area's grading views as HTML strings (no marimo): the verdict table and the stream.

Every value from a file or a model is escaped. An Unsure verdict is shown as such, with its
confidence and the passages the learner should compare the answer with; an approximate
quote shows the nearest real passage; evidence not found says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from html import escape

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading, llm
from basehalf_core.study.practice import PracticeError

SPINNER = (
    '<span class="bh-spinner" role="status" aria-label="waiting for the first verdict" '
    'style="display:inline-block;width:1em;height:1em;border:2px solid #999;'
    'border-top-color:transparent;border-radius:50%;animation:bh-spin 1s linear infinite">'
    "</span><style>@keyframes bh-spin{to{transform:rotate(360deg)}}</style>"
)


def _evidence(g: grading.QuestionGrade) -> str:
    out = f"<small>“{escape(g.evidence)}”</small>" if g.evidence else ""
    if g.evidence_match == "approximate":
        out += (
            '<br><small class="bh-approximate">quoted approximately; the passage reads: '
            f"“{escape(g.nearest)}”</small>"
        )
    elif g.evidence_match == "not found":
        out += '<br><small class="bh-not-found">evidence not found in the notes</small>'
    if g.compare:
        items = "".join(f"<li>{escape(c)}</li>" for c in g.compare)
        out += (
            '<div class="bh-compare"><small>Compare your answer with:</small>'
            f"<ul>{items}</ul></div>"
        )
    return out


def grade_row(g: grading.QuestionGrade, shown: str | None = None, note: str = "") -> str:
    """One table row for a grade; ``shown`` is the verdict in force when it differs."""
    verdict = shown or g.verdict
    conf = "" if g.confidence is None else f" <small>({g.confidence:.0%} sure)</small>"
    return (
        f'<tr data-number="{g.number}" data-verdict="{escape(verdict)}">'
        f"<td>{g.number}</td><td>{escape(g.question)}</td><td>{escape(g.answer)}</td>"
        f'<td><b class="bh-verdict bh-{escape(verdict.lower())}">{escape(verdict)}</b>'
        f"{conf}{note}</td><td>{escape(g.reason)}<br>{_evidence(g)}</td></tr>"
    )


_HEAD = (
    "<table><tr><th>#</th><th>Question</th><th>Answer</th><th>Verdict</th>"
    "<th>Reason and evidence</th></tr>"
)


def verdict_table(ws: Workspace, card: str | None) -> str:
    """The latest run of ``card`` with the verdicts in force (overrides shown as such)."""
    found = grading.runs(ws, card)[0] if card else []
    if not found:
        return '<div data-testid="verdicts" data-count="0">Not graded yet.</div>'
    last, in_force = found[-1], grading.in_force(ws, card)
    label = "offline grader" if last.offline else f"model {last.model}"
    rows = []
    for g in last.grades:
        v = in_force.get(g.number)
        note = ""
        if v is not None and v.overridden:
            note = f" <small>(your override; the grader said {escape(g.verdict)})</small>"
        rows.append(grade_row(g, v.verdict if v else None, note))
    unsure = sum(g.verdict == "Unsure" for g in last.grades)
    hint = (
        f"<p><small>{unsure} Unsure: the offline grader cannot settle these from your notes; "
        "compare with the passages shown, add an answer key, or grade with a model. An Unsure "
        "never counts as Wrong.</small></p>"
        if unsure
        else ""
    )
    return (
        f'<div data-testid="verdicts" data-count="{len(last.grades)}" '
        f'data-model="{escape(last.model)}"><p>Run {escape(last.run_id)} · {escape(label)} · '
        f"{escape(last.time)}</p>{hint}{_HEAD}{''.join(rows)}</table></div>"
    )


def stream_html(
    ws: Workspace,
    card: str,
    model: str | None,
    cancel: threading.Event,
    should_stop: Callable[[], bool] = lambda: False,
    *,
    api_base: str | None = None,
) -> Iterator[tuple[str, str]]:
    """Grade ``card`` and yield ``(html, state)`` after each verdict arrives.

    ``state`` is ``waiting`` (spinner, nothing yet), ``streaming``, ``done``, ``cancelled``
    or ``error``. ``should_stop`` (the UI thread's exit flag) cancels like ``cancel``.
    """

    def page(state: str, rows: list[str], message: str = "") -> str:
        spin = SPINNER if state in ("waiting", "streaming") else ""
        table = f"{_HEAD}{''.join(rows)}</table>" if rows else ""
        return (
            f'<div data-testid="grade-stream" data-state="{state}" data-arrived="{len(rows)}">'
            f"{spin} {escape(message)}{table}</div>"
        )

    rows: list[str] = []
    yield page("waiting", rows, "Grading…"), "waiting"
    try:
        for item in grading.grade_stream(ws, card, model, api_base=api_base, cancel=cancel):
            if should_stop():
                cancel.set()
            if isinstance(item, grading.GradingRun):
                msg = f"Graded {len(item.grades)} answers into {item.grading_path}."
                yield page("done", rows, msg), "done"
                return
            rows.append(grade_row(item))
            yield page("streaming", rows, "Grading…"), "streaming"
    except grading.Cancelled:
        yield page("cancelled", rows, "Cancelled: nothing was written."), "cancelled"
    except (grading.GradingError, PracticeError, llm.ModelError, ValueError) as exc:
        yield page("error", rows, f"Not graded: {exc}"), "error"
