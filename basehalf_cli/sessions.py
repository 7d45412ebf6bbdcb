"""``basehalf export``, ``course``, ``review`` and ``fetch-arxiv``: the teaching commands."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path

from basehalf_cli.common import CommandFailed, print_json
from basehalf_core.documents import fetch
from basehalf_core.study import review
from basehalf_core.teaching import course
from basehalf_core.views import export


def _failed(exc: Exception) -> CommandFailed:
    return CommandFailed(str(exc))


def _time(text: str) -> datetime:
    try:
        t = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an ISO time such as 2026-01-05T09:00:00+00:00"
        ) from None
    if t.tzinfo is None:
        raise argparse.ArgumentTypeError(f"{text!r} has no time zone; add +00:00 or Z")
    return t


def _export(args: argparse.Namespace) -> int:
    try:
        out = export.export(args.folder, args.output)
    except export.ExportError as exc:
        raise _failed(exc) from None
    print(out)
    return 0


def _course_new(args: argparse.Namespace) -> int:
    try:
        c = course.new(args.course, args.title, args.session, key=args.key)
    except course.CourseError as exc:
        raise _failed(exc) from None
    print_json({"course": str(c.root), "title": c.title, "sessions": c.sessions, "key": c.key})
    return 0


def _course_handout(args: argparse.Namespace) -> int:
    try:
        files = course.handout(args.course, args.output)
    except course.CourseError as exc:
        raise _failed(exc) from None
    print_json({"handout": str(Path(args.output)), "files": files})
    return 0


def _course_progress(args: argparse.Namespace) -> int:
    try:
        rows = course.progress(args.course, args.now or datetime.now(UTC))
    except (course.CourseError, review.ReviewStateError) as exc:
        raise _failed(exc) from None
    print_json(rows)
    return 0


def _review(args: argparse.Namespace) -> int:
    now = args.now or datetime.now(UTC)
    try:
        items = (
            review.due(args.folder, now, today=not args.due)
            if args.today or args.due
            else review.schedule(args.folder, now)
        )
    except review.ReviewStateError as exc:
        raise _failed(exc) from None
    if args.json:
        print_json([d.as_dict() for d in items])
        return 0
    for d in items:
        when = "due now" if d.due <= now else f"due {d.due.strftime('%Y-%m-%d %H:%M UTC')}"
        last = f" (last: {d.last_verdict})" if d.last_verdict else " (new)"
        print(f"{d.card}#{d.number}: {d.question} — {when}{last}")
        for note in d.revisit:
            print(f"    reread first: {note}")
    if not items:
        print("nothing due" if args.today or args.due else "no practice questions")
    return 0


def _fetch_arxiv(args: argparse.Namespace) -> int:
    try:
        result = fetch.fetch_arxiv(args.arxiv_id, args.folder, name=args.name, timeout=args.timeout)
    except fetch.FetchError as exc:
        raise _failed(exc) from None
    print(fetch.describe(result, args.folder))
    return 0


def add_commands(subparsers) -> None:
    """Register ``export``, ``course``, ``review`` and ``fetch-arxiv``."""
    p = subparsers.add_parser("export", help="one self-contained offline HTML page of a folder")
    p.set_defaults(func=_export)
    p.add_argument("folder", help="the study folder")
    p.add_argument("-o", "--output", required=True, help="the HTML file to write")

    p = subparsers.add_parser("course", help="courses: a folder of sessions plus course.yaml")
    sub = p.add_subparsers(dest="course_command", required=True)
    q = sub.add_parser("new", help="make a course folder from session folders")
    q.set_defaults(func=_course_new)
    q.add_argument("course", help="the new (or empty) course folder")
    q.add_argument("--title", required=True)
    q.add_argument(
        "--session", action="append", required=True, help="a session folder (repeat, in order)"
    )
    q.add_argument(
        "--key", action="append", default=[], help="a course-relative answer-key path (repeat)"
    )
    q = sub.add_parser("handout", help="a learner copy without answer keys or answers")
    q.set_defaults(func=_course_handout)
    q.add_argument("course", help="the course folder")
    q.add_argument("-o", "--output", required=True, help="the new (or empty) handout folder")
    q = sub.add_parser("progress", help="per session: notes, questions, graded, reviews due")
    q.set_defaults(func=_course_progress)
    q.add_argument("course", help="the course folder")
    q.add_argument("--now", type=_time, default=None, help="ISO time (default: now)")

    p = subparsers.add_parser("review", help="spaced repetition: practice questions and when due")
    p.set_defaults(func=_review)
    p.add_argument("folder", help="the study folder")
    p.add_argument("--today", action="store_true", help="only what is due by the end of today")
    p.add_argument("--due", action="store_true", help="only what is due right now")
    p.add_argument("--now", type=_time, default=None, help="ISO time (default: now)")
    p.add_argument("--json", action="store_true")

    p = subparsers.add_parser("fetch-arxiv", help="download an arXiv PDF into a study folder")
    p.set_defaults(func=_fetch_arxiv)
    p.add_argument("arxiv_id", help="e.g. 1706.03762 or 1706.03762v5")
    p.add_argument("folder", help="the study folder")
    p.add_argument(
        "--name",
        default=None,
        help="file name in the folder (default: the PDF the notes name, else <id>.pdf)",
    )
    p.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for the server")
