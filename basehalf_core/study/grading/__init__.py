"""Grade a practice card and keep every run in a grading file next to it.

Four parts, lower to higher: :mod:`.record` (the grading file: runs, overrides, parse and
append), :mod:`.reply` (a language model's reply read forgivingly, evidence matched fuzzily),
:mod:`.model` (the prompt, one repair, streaming) and :mod:`.verdicts` (the one rule for the
verdicts in force, and the history).
This module joins them: :func:`grade_card` grades with the configured model or, without one,
the offline grader (which may say Unsure), and appends the run; :func:`grade_stream` does
the same one question at a time, for the Agent Area.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import context as ctxmod
from basehalf_core.study import llm, offline_grader
from basehalf_core.study.grading.model import (
    GRADE_SCHEMA,
    SYSTEM_PROMPT,
    Cancelled,
    grade_with_model,
    stream_grades,
)
from basehalf_core.study.grading.record import (
    GRADES,
    OFFLINE,
    VERDICTS,
    BadVerdict,
    GradingError,
    GradingRun,
    NotACard,
    Override,
    QuestionGrade,
    UnknownQuestion,
    UnknownRun,
    append_run,
    grading_path_for,
    now,
    one_line,
    override,
    parse_grading,
    render_run,
    runs,
)
from basehalf_core.study.grading.reply import InvalidGrades, locate_evidence, validate_grades
from basehalf_core.study.grading.verdicts import Verdict, history, in_force
from basehalf_core.study.practice import PracticeCard, parse_card

__all__ = [
    "GRADES",
    "GRADE_SCHEMA",
    "OFFLINE",
    "SYSTEM_PROMPT",
    "VERDICTS",
    "BadVerdict",
    "Cancelled",
    "GradingError",
    "GradingRun",
    "InvalidGrades",
    "NotACard",
    "Override",
    "QuestionGrade",
    "UnknownQuestion",
    "UnknownRun",
    "Verdict",
    "grade_card",
    "grade_offline",
    "grade_stream",
    "grade_with_model",
    "grading_path_for",
    "history",
    "in_force",
    "load_card",
    "locate_evidence",
    "override",
    "parse_grading",
    "render_run",
    "runs",
    "validate_grades",
]


def grade_offline(card: PracticeCard, ctx: ctxmod.Context) -> list[dict]:
    """Grade every answered question with the offline grader (the card's key when it has one)."""
    reference_text = ctx.reference_text()
    out = []
    for q in card.answered:
        g = offline_grader.grade(
            q.text,
            q.answer or "",
            reference=card.answer_key.get(q.number),
            context=reference_text,
        )
        out.append(
            {
                "number": q.number,
                "verdict": g.verdict,
                "reason": g.reason,
                "evidence": g.evidence,
                "confidence": g.confidence,
                "compare": g.compare,
            }
        )
    return out


def load_card(ws: Workspace, card_path: str) -> PracticeCard:
    """Parse the card at ``card_path``. Raises :class:`NotACard` for a missing or non-note path."""
    real = ws.resolve(card_path)
    if real is None:
        raise NotACard(f"{card_path}: no such file in the folder")
    if ws.nodes[real].kind not in ("note", "practice"):
        raise NotACard(f"{real}: a {ws.nodes[real].kind}, not a practice card")
    return parse_card(real, ws.read_text(real))


def _compare_for(card: PracticeCard, ctx: ctxmod.Context, number: int) -> tuple[str, ...]:
    """The passages a learner should compare an answer with (a model's Unsure gets these too)."""
    q = next(q for q in card.questions if q.number == number)
    key = card.answer_key.get(number)
    texts = ([key] if key else []) + offline_grader.sentences(ctx.reference_text())
    return tuple(offline_grader.compare_passages(q.text, q.answer or "", texts))


def _question_grade(card: PracticeCard, ctx: ctxmod.Context, g: dict) -> QuestionGrade:
    q = next(q for q in card.questions if q.number == g["number"])
    if g["verdict"] == "Unsure" and not g.get("compare"):
        g = g | {"compare": _compare_for(card, ctx, g["number"])}
    return QuestionGrade(
        g["number"],
        one_line(q.text),
        one_line(q.answer or ""),
        g["verdict"],
        one_line(g["reason"]),
        one_line(g["evidence"]),
        None if g.get("confidence") is None else round(g["confidence"], 2),  # as written
        tuple(one_line(c) for c in g.get("compare") or ()),
        g.get("evidence_match", ""),
        one_line(g.get("nearest", "")),
    )


def _run(card: PracticeCard, ctx: ctxmod.Context, model: str, grades: list[QuestionGrade]):
    return GradingRun("", card.path, now(), model, grades, card.missing, trimmed=ctx.trimmed)


def grade_card(
    ws: Workspace,
    card_path: str,
    model: str | None = None,
    *,
    api_base: str | None = None,
    budget: int = ctxmod.DEFAULT_BUDGET,
    config: llm.ModelConfig | None = None,
) -> GradingRun:
    """Grade a practice card and append the run to its grading file.

    Args:
        ws: the workspace.
        card_path: folder-relative path of the card.
        model: litellm model string; ``None`` reads ``BASEHALF_MODEL``; ``"offline"`` or no
            model at all uses the offline grader.
        api_base: an OpenAI-compatible base URL (else ``BASEHALF_API_BASE``).
        budget: characters of upstream notes and passages to send.
        config: a full :class:`llm.ModelConfig` (overrides ``model``/``api_base``).

    Returns:
        The run as written, with ``grading_path`` set.

    Raises:
        NotACard, practice.EmptyCard, llm.ModelError subclasses (nothing is written then).
    """
    card = load_card(ws, card_path)
    ctx = ctxmod.build(ws, card, budget=budget)
    cfg = config or llm.resolve(model, api_base)
    if not card.answered:
        graded: list[dict] = []
    elif cfg is None:
        graded = grade_offline(card, ctx)
    else:
        graded = grade_with_model(cfg, card, ctx)
    grades = [_question_grade(card, ctx, g) for g in graded]
    return append_run(ws, card, _run(card, ctx, cfg.model if cfg else OFFLINE, grades))


def grade_stream(
    ws: Workspace,
    card_path: str,
    model: str | None = None,
    *,
    api_base: str | None = None,
    budget: int = ctxmod.DEFAULT_BUDGET,
    config: llm.ModelConfig | None = None,
    cancel: threading.Event | None = None,
) -> Iterator[QuestionGrade | GradingRun]:
    """Grade a card one question at a time: yields each :class:`QuestionGrade` as it is read,
    then the written :class:`GradingRun` last.

    The run is written only when every answered question has its grade: a cancel (``cancel``
    set, or the generator closed) or a model error leaves the grading file as it was.

    Raises:
        the same as :func:`grade_card`, and :class:`Cancelled`.
    """
    card = load_card(ws, card_path)
    ctx = ctxmod.build(ws, card, budget=budget)
    cfg = config or llm.resolve(model, api_base)
    if cfg is None:
        source: Iterator[dict] = iter(grade_offline(card, ctx))
    elif card.answered:
        source = stream_grades(cfg, card, ctx, cancel)
    else:
        source = iter(())
    grades = []
    for g in source:
        if cancel is not None and cancel.is_set():
            raise Cancelled("grading cancelled; nothing was written")
        grades.append(_question_grade(card, ctx, g))
        yield grades[-1]
    grades.sort(key=lambda g: g.number)
    yield append_run(ws, card, _run(card, ctx, cfg.model if cfg else OFFLINE, grades))
