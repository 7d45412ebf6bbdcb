"""The grading file: what one run and one override look like, written and read back.

``<card stem>.grading.md`` is created once by :func:`operations.grow` (upstream: the card,
``kind: grading``); each grading appends a run section and each learner override appends an
override section through :func:`operations.edit`. Nothing earlier is rewritten, so the file is
the history.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.fsio import AlreadyExists
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import offline_grader
from basehalf_core.study.practice import PracticeCard

GRADES = ("Correct", "Partial", "Wrong")  # what a learner may set, and a model may say
VERDICTS = (*GRADES, "Unsure")  # what a run may record: the offline grader can be unsure
OFFLINE = offline_grader.MODEL_NAME


class GradingError(BasehalfError):
    """A grading request or override cannot be carried out."""


class NotACard(GradingError):
    """The path names no practice card in the folder."""


class BadVerdict(GradingError):
    """A verdict other than Correct, Partial or Wrong."""

    def __init__(self, verdict: object):
        super().__init__(f"{verdict!r} is not a verdict (use Correct, Partial or Wrong)")


class UnknownRun(GradingError):
    """The grading file has no run with that id."""


class UnknownQuestion(GradingError):
    """The run graded no question with that number."""


@dataclass(frozen=True)
class QuestionGrade:
    """The grader's verdict on one answered question.

    Attributes:
        evidence_match: ``""`` (found verbatim), ``"approximate"`` (a model quoted with small
            changes; ``nearest`` holds the real passage) or ``"not found"``.
        confidence: the offline grader's confidence in the verdict (``None`` from a model).
        compare: passages the learner should compare the answer with (an Unsure's help).
    """

    number: int
    question: str
    answer: str
    verdict: str
    reason: str
    evidence: str
    confidence: float | None = None
    compare: tuple[str, ...] = ()
    evidence_match: str = ""
    nearest: str = ""


@dataclass(frozen=True)
class Override:
    """A learner's correction of one verdict; the original stays in its run."""

    run_id: str
    number: int
    verdict: str
    was: str
    note: str
    time: str


@dataclass
class GradingRun:
    """One grading of one card."""

    run_id: str
    card: str
    time: str
    model: str
    grades: list[QuestionGrade]
    missing: list[int] = field(default_factory=list)
    grading_path: str = ""
    trimmed: list[str] = field(default_factory=list)

    @property
    def offline(self) -> bool:
        """True when the offline grader made this run."""
        return self.model == OFFLINE


def grading_path_for(card_path: str) -> str:
    """``notes/06-qkv.md`` → ``notes/06-qkv.grading.md``."""
    folder, _, name = card_path.rpartition("/")
    stem = name[: name.rfind(".")] if "." in name else name
    return f"{folder}/{stem}.grading.md" if folder else f"{stem}.grading.md"


def one_line(text: str) -> str:
    """``text`` with every whitespace run as one space."""
    return " ".join(str(text).split())


def now() -> str:
    """The time stamp written into runs and overrides (UTC, seconds)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _quoted(text: str) -> str:
    return json.dumps(one_line(text), ensure_ascii=False)


def render_grade(g: QuestionGrade) -> list[str]:
    """The lines of one question's grade (a heading, then one field a line)."""
    lines = [
        f"### Question {g.number}: {g.verdict}",
        "",
        f"- Question: {one_line(g.question)}",
        f"- Answer: {one_line(g.answer)}",
        f"- Verdict: {g.verdict}",
    ]
    if g.confidence is not None:
        lines.append(f"- Confidence: {g.confidence:.2f}")
    lines += [f"- Reason: {one_line(g.reason)}", f"- Evidence: {_quoted(g.evidence)}"]
    if g.evidence_match:
        lines.append(f"- Evidence match: {g.evidence_match}")
    if g.nearest:
        lines.append(f"- Nearest passage: {_quoted(g.nearest)}")
    if g.compare:
        compare = [one_line(c) for c in g.compare]
        lines.append(f"- Compare: {json.dumps(compare, ensure_ascii=False)}")
    return [*lines, ""]


def render_run(run: GradingRun) -> str:
    """The Markdown section appended for one run."""
    label = "offline (offline grader, no language model)" if run.offline else run.model
    lines = [f"## Run {run.run_id} · {run.time} · model: {label}", ""]
    if run.trimmed:
        lines += [f"Context trimmed to budget; left out: {', '.join(run.trimmed)}", ""]
    for g in run.grades:
        lines += render_grade(g)
    for n in run.missing:
        lines += [f"### Question {n}: not answered", ""]
    return "\n".join(lines)


def render_override(o: Override) -> str:
    """The Markdown section appended for one override."""
    lines = [
        f"## Override · run {o.run_id} · question {o.number} · {o.time}",
        "",
        f"- Verdict: {o.verdict}",
        f"- Was: {o.was}",
    ]
    if o.note:
        lines.append(f"- Note: {one_line(o.note)}")
    return "\n".join(lines) + "\n"


_RUN_H = re.compile(r"^## Run (\S+) · (\S+) · model: (.+?)\s*$")
_OVR_H = re.compile(r"^## Override · run (\S+) · question (\d+) · (\S+)\s*$")
_Q_H = re.compile(r"^### Question (\d+): (.+?)\s*$")
_FIELD = re.compile(
    r"^- (Question|Answer|Verdict|Confidence|Reason|Evidence match|Evidence|Nearest passage"
    r"|Compare|Was|Note): ?(.*)$"
)
_JSON_FIELDS = ("Evidence", "Nearest passage", "Compare")


def _grade_from(q: dict) -> QuestionGrade:
    try:
        conf = float(q["Confidence"]) if "Confidence" in q else None
    except ValueError:
        conf = None
    compare = q.get("Compare")
    return QuestionGrade(
        q["number"],
        q.get("Question", ""),
        q.get("Answer", ""),
        q.get("Verdict", q.get("heading", "")),
        q.get("Reason", ""),
        q.get("Evidence", ""),
        conf,
        tuple(str(c) for c in compare) if isinstance(compare, list) else (),
        q.get("Evidence match", ""),
        q.get("Nearest passage", ""),
    )


def parse_grading(text: str, card: str = "") -> tuple[list[GradingRun], list[Override]]:
    """Read a grading file back into its runs and overrides, in file order."""
    runs: list[GradingRun] = []
    overrides: list[Override] = []
    section: dict | None = None
    question: dict | None = None

    def close_question() -> None:
        nonlocal question
        if question is not None and section is not None and section["type"] == "run":
            if question.get("missing"):
                section["run"].missing.append(question["number"])
            else:
                section["run"].grades.append(_grade_from(question))
        question = None

    def close_section() -> None:
        nonlocal section
        close_question()
        if section and section["type"] == "override":
            f = section["fields"]
            overrides.append(
                Override(
                    section["run_id"],
                    section["number"],
                    f.get("Verdict", ""),
                    f.get("Was", ""),
                    f.get("Note", ""),
                    section["time"],
                )
            )
        section = None

    for line in text.splitlines():
        if m := _RUN_H.match(line):
            close_section()
            model = m.group(3)
            model = OFFLINE if model.startswith(OFFLINE + " (") else model
            section = {"type": "run", "run": GradingRun(m.group(1), card, m.group(2), model, [])}
            runs.append(section["run"])
        elif m := _OVR_H.match(line):
            close_section()
            section = {
                "type": "override",
                "run_id": m.group(1),
                "number": int(m.group(2)),
                "time": m.group(3),
                "fields": {},
            }
        elif line.startswith("## "):
            close_section()
        elif section and section["type"] == "run" and (m := _Q_H.match(line)):
            close_question()
            question = {"number": int(m.group(1)), "heading": m.group(2)}
            question["missing"] = m.group(2) == "not answered"
        elif section and (m := _FIELD.match(line)):
            key, value = m.group(1), m.group(2)
            if key in _JSON_FIELDS:
                try:
                    value = json.loads(value)
                except ValueError:
                    value = value.strip('"')
            target = question if question is not None else section.get("fields")
            if target is not None:
                target[key] = value
        elif section and section["type"] == "run" and line.startswith("Context trimmed"):
            left = line.split("left out:", 1)[-1]
            section["run"].trimmed = [p.strip() for p in left.split(",") if p.strip()]
    close_section()
    return runs, overrides


def _next_run_id(text: str) -> str:
    numbers = [int(m.group(1)) for m in re.finditer(r"^## Run r(\d+) ", text, re.MULTILINE)]
    return f"r{max(numbers, default=0) + 1}"


def grading_file(ws: Workspace, card_path: str) -> str | None:
    """The card's grading file: ``<stem>.grading.md`` beside it, else the grading file that
    lists the card upstream (a card renamed with ``mv`` keeps its file, and the move rewrote
    that file's entry to the new name). ``None`` when the card was never graded."""
    real = ws.resolve(card_path) or card_path
    named = ws.resolve(grading_path_for(real))
    if named is not None:
        return named
    linked = (
        [
            p
            for p in ws.downstream(real)
            if ws.nodes[p].kind == "grading" and p.lower().endswith(".grading.md")
        ]
        if real in ws.nodes
        else []
    )
    return linked[0] if linked else None


def _ensure_grading_file(ws: Workspace, card: PracticeCard) -> str:
    found = grading_file(ws, card.path)
    if found is not None:
        return found
    path = grading_path_for(card.path)
    folder, _, name = path.rpartition("/")
    try:
        return operations.grow(
            ws,
            f"Grading: {card.title}",
            upstream=[card.path],
            fields={"kind": "grading"},
            folder=folder,
            name=name,
            unique=False,  # one grading file per card: never a "-2" that no view reads
        )
    except AlreadyExists:
        ws.added(path)  # made by another session since this index was read: append there
        return path


def append_run(ws: Workspace, card: PracticeCard, run: GradingRun) -> GradingRun:
    """Append ``run`` to the card's grading file (created on first use); sets its id and path."""
    run.grading_path = _ensure_grading_file(ws, card)

    def append(text: str) -> str:
        run.run_id = _next_run_id(text)
        return text.rstrip("\n") + "\n\n" + render_run(run)

    operations.edit(ws, run.grading_path, append)
    return run


def runs(ws: Workspace, card_path: str) -> tuple[list[GradingRun], list[Override]]:
    """All runs and overrides recorded for a card (empty when it was never graded)."""
    real = ws.resolve(card_path) or card_path
    gpath = grading_file(ws, real)
    if gpath is None:
        return [], []
    found, overrides = parse_grading(ws.read_text(gpath), real)
    for r in found:
        r.grading_path = gpath
    return found, overrides


def override(
    ws: Workspace,
    grading_path: str,
    run_id: str,
    question_number: int,
    verdict: str,
    note: str = "",
) -> Override:
    """Record a learner's override of one verdict, appended beside the original.

    Raises:
        BadVerdict, UnknownRun, UnknownQuestion, NotACard (no such grading file).
    """
    if verdict not in GRADES:
        raise BadVerdict(verdict)
    real = ws.resolve(grading_path)
    if real is None:
        raise NotACard(f"{grading_path}: no such grading file in the folder")
    found, _ = parse_grading(ws.read_text(real))
    run = next((r for r in found if r.run_id == run_id), None)
    if run is None:
        raise UnknownRun(f"{real}: no run {run_id!r} (runs: {', '.join(r.run_id for r in found)})")
    grade = next((g for g in run.grades if g.number == question_number), None)
    if grade is None:
        raise UnknownQuestion(f"{real}: run {run_id} graded no question {question_number}")
    o = Override(run_id, question_number, verdict, grade.verdict, one_line(note), now())
    operations.edit(ws, real, lambda t: t.rstrip("\n") + "\n\n" + render_override(o))
    return o
