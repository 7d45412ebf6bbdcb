"""``basehalf grade``, ``grade-jsonl`` and ``grade-class``: grading from the command line.

Every output names the model, ``offline`` when the offline grader answered.
"""

from __future__ import annotations

import argparse
import json
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from basehalf_cli.common import CommandFailed, print_json
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import write_output
from basehalf_core.study import answer_key, grading, llm, offline_grader
from basehalf_core.study.context import Block, Context, neutralise
from basehalf_core.study.practice import EmptyCard, PracticeCard, Question
from basehalf_core.teaching import classroom


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register the grading subcommands on the ``basehalf`` parser."""
    p = sub.add_parser("grade", help="grade a practice card; appends a run to CARD.grading.md")
    p.add_argument("folder", help="the study folder")
    p.add_argument("card", help="the practice card, relative to the folder")
    _model_args(p)
    p.add_argument("--json", action="store_true", help="print the run as JSON")
    p.set_defaults(func=_grade)

    p = sub.add_parser("answer-key", help="draft a card's answer key with a model, or approve it")
    p.add_argument("action", choices=("draft", "approve"))
    p.add_argument("folder", help="the study folder")
    p.add_argument("card", help="the practice card, relative to the folder")
    _model_args(p)
    p.set_defaults(func=_answer_key)

    p = sub.add_parser("grade-jsonl", help="grade question/reference/answer lines from a file")
    p.add_argument("input", help="JSON lines with question, reference_answer, student_answer")
    p.add_argument("-o", "--output", help="write result lines here instead of stdout")
    p.add_argument("--concurrency", type=int, default=32)
    _model_args(p)
    p.set_defaults(func=_grade_jsonl)

    p = sub.add_parser("grade-class", help="grade one card in every learner folder of a course")
    p.add_argument("course", help="folder whose subfolders are learners' study folders")
    p.add_argument("--card", required=True, help="the card's path inside each learner folder")
    p.add_argument("--concurrency", type=int, default=32)
    _model_args(p)
    p.set_defaults(func=_grade_class)


def _model_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="litellm model string (default: $BASEHALF_MODEL, else offline)")
    p.add_argument("--api-base", help="OpenAI-compatible base URL (default: $BASEHALF_API_BASE)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per model request")


def _config(args: argparse.Namespace) -> llm.ModelConfig | None:
    return llm.resolve(args.model, args.api_base, timeout=args.timeout)


def _fail(exc: Exception) -> CommandFailed:
    return CommandFailed(str(exc))


def _grade(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    try:
        run = grading.grade_card(ws, args.card, config=_config(args), model=args.model)
    except (grading.GradingError, EmptyCard, llm.ModelError) as exc:
        raise _fail(exc) from None
    if args.json:
        print_json(_run_dict(run))
        return 0
    label = "offline grader" if run.offline else run.model
    print(f"{run.grading_path}: run {run.run_id} ({label})")
    for g in run.grades:
        print(f"{g.number}\t{g.verdict}\t{g.reason}")
    for n in run.missing:
        print(f"{n}\tnot answered")
    return 0


def _answer_key(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    try:
        if args.action == "approve":
            print(f"{answer_key.approve(ws, args.card)}: answer key approved")
            return 0
        cfg = _config(args)
        if cfg is None:
            raise CommandFailed("drafting an answer key needs a model: --model or BASEHALF_MODEL")
        key = answer_key.draft_answer_key(ws, args.card, cfg)
    except (answer_key.AnswerKeyError, EmptyCard, llm.ModelError) as exc:
        raise _fail(exc) from None
    print(f"{args.card}: drafted {len(key)} answers under '{answer_key.DRAFT_HEADING}'")
    return 0


def _run_dict(run: grading.GradingRun) -> dict:
    return {
        "grading_file": run.grading_path,
        "run": run.run_id,
        "model": run.model,
        "time": run.time,
        "grades": [
            {"question": g.number, "verdict": g.verdict, "reason": g.reason, "evidence": g.evidence}
            for g in run.grades
        ],
        "not_answered": run.missing,
        "context_trimmed": run.trimmed,
    }


def read_jsonl(path: str) -> list[dict]:
    """Read and check every line first, so a bad line stops the command before any grading."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandFailed(f"{path}: cannot read ({exc})") from None
    rows = []
    for i, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            row = json.loads(raw)
        except ValueError as exc:
            raise CommandFailed(f"{path}:{i}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise CommandFailed(f"{path}:{i}: expected an object, got {type(row).__name__}")
        for key in ("question", "student_answer"):
            if not isinstance(row.get(key), str):
                raise CommandFailed(f"{path}:{i}: missing text field {key!r}")
        refs = row.get("reference_answers_all") or row.get("reference_answer")
        if isinstance(refs, str):
            refs = [refs]
        if not refs or not all(isinstance(r, str) and r.strip() for r in refs):
            raise CommandFailed(f"{path}:{i}: missing text field 'reference_answer'")
        rows.append(row | {"_refs": refs, "_line": i})
    if not rows:
        raise CommandFailed(f"{path}: no lines to grade")
    return rows


def grade_row(row: dict, cfg: llm.ModelConfig | None) -> dict:
    """Grade one question/reference/answer row; the result line for it."""
    out = {k: row[k] for k in ("id",) if k in row}
    if cfg is None:
        g = offline_grader.grade(row["question"], row["student_answer"], reference=row["_refs"])
        return out | {
            "verdict": g.verdict,
            "confidence": g.confidence,
            "reason": g.reason,
            "evidence": g.evidence,
            "compare": list(g.compare),
            "model": offline_grader.MODEL_NAME,
        }
    card = PracticeCard(
        f"line {row['_line']}",
        "",
        [Question(1, row["question"], row["student_answer"])],
        answer_key={1: " / ".join(row["_refs"])},
    )
    ctx = Context()
    ctx.blocks.append(Block("QUESTION", {"number": 1}, neutralise(row["question"])))
    ctx.blocks.append(Block("ANSWER", {"number": 1}, neutralise(row["student_answer"])))
    for ref in row["_refs"]:
        ctx.blocks.append(Block("KEY", {"number": 1}, neutralise(ref)))
    g = grading.grade_with_model(cfg, card, ctx)[0]
    return out | {
        "verdict": g["verdict"],
        "reason": g["reason"],
        "evidence": g["evidence"],
        "model": cfg.model,
    }


def _grade_jsonl(args: argparse.Namespace) -> int:
    rows = read_jsonl(args.input)
    cfg = _config(args)

    def one(row: dict) -> dict:
        try:
            return grade_row(row, cfg)
        except llm.ModelError as exc:
            return {k: row[k] for k in ("id",) if k in row} | {
                "line": row["_line"],
                "error": str(exc),
            }

    with ThreadPoolExecutor(max_workers=max(1, args.concurrency)) as pool:
        results = list(pool.map(one, rows))  # map keeps input order
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in results)
    if args.output:
        write_output(Path(args.output), text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    failed = [r for r in results if "error" in r]
    if failed:
        raise CommandFailed(
            f"{args.input}: {len(failed)} of {len(rows)} lines not graded "
            f"(first, line {failed[0]['line']}: {failed[0]['error']})"
        )
    return 0


def _grade_class(args: argparse.Namespace) -> int:
    def progress(done: int, total: int, learner: str) -> None:
        width = 30
        filled = width * done // total
        bar = "#" * filled + "-" * (width - filled)
        sys.stderr.write(f"\r[{bar}] {done}/{total} {learner[:30]:<30}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    try:
        report = classroom.grade_class(
            args.course,
            args.card,
            concurrency=args.concurrency,
            progress=progress,
            config=_config(args),
        )
    except classroom.NoLearners as exc:
        raise _fail(exc) from None
    model = next((r.run.model for r in report.results if r.run), "offline")
    print(
        f"graded {len(report.results) - len(report.failures)} of {len(report.results)} learners"
        f" ({'offline grader' if model == 'offline' else model})"
    )
    print(f"gradebook: {report.gradebook}")
    print(f"summary: {report.summary}")
    for r in report.failures:
        print(f"basehalf grade-class: {r.learner}: {r.error}", file=sys.stderr)
    return 1 if report.failures else 0
