"""Spaced repetition of practice questions, scheduled by FSRS (the ``fsrs`` package).

Every numbered question of every practice card is one review item (``card#number``). The
grading file is the only source of review events: each graded run is one review at the run's
time, rated Correct → Good, Partial → Hard, Wrong → Again (a learner's override replaces the
rating of the run it overrides); an Unsure from the offline grader is no event at all. The
schedule is replayed from those events, so it never
drifts from the grading history, and a question never graded is due from when it was first
seen.

State lives in ``.bh/reviews.json`` (when each item was first seen, its events and the
resulting FSRS card), written under its lock, compare-and-swap, through :func:`writing.update`. Only
``first_seen`` is memory; the rest is recomputed from the grading file on every sync.
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from fsrs import Card, Rating, Scheduler

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import writing
from basehalf_core.folder.fsio import inside, read_bytes
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.grading import history
from basehalf_core.study.practice import PracticeError, parse_card

STATE_FILE = ".bh/reviews.json"
_ATTEMPTS = 5  # compare-and-swap retries when another tab saved the state first
RATING_FOR = {"Correct": Rating.Good, "Partial": Rating.Hard, "Wrong": Rating.Again}


class ReviewStateError(BasehalfError):
    """``.bh/reviews.json`` is not a review state basehalf wrote; it is left untouched."""


class NaiveTime(BasehalfError, ValueError):
    """A time without a time zone was given; schedules compare instants, so it is refused."""

    def __init__(self, value: datetime):
        super().__init__(f"{value.isoformat()}: give a time zone (e.g. +00:00)")


@dataclass(frozen=True)
class DueItem:
    """One question to review: where it is, when it is due, and what to reread first."""

    card: str
    number: int
    question: str
    due: datetime
    last_verdict: str | None
    revisit: list[str] = field(default_factory=list)  # upstream notes, when last was Wrong

    def as_dict(self) -> dict:
        return {
            "card": self.card,
            "number": self.number,
            "question": self.question,
            "due": self.due.isoformat(),
            "last_verdict": self.last_verdict,
            "revisit": self.revisit,
        }


def _utc(t: datetime) -> datetime:
    if t.tzinfo is None:
        raise NaiveTime(t)
    return t.astimezone(UTC)


def scheduler() -> Scheduler:
    """The FSRS scheduler used everywhere (fuzzing off: the same history gives the same day)."""
    return Scheduler(enable_fuzzing=False)


def replay(first_seen: datetime, events: list[tuple[datetime, str]]) -> Card:
    """The FSRS card after the graded events, oldest first.

    Args:
        first_seen: when the question appeared (a new card is due then).
        events: ``(time, verdict)`` pairs; verdicts are Correct, Partial or Wrong.
    """
    sched = scheduler()
    card = Card(card_id=1, due=_utc(first_seen))
    for when, verdict in sorted(events, key=lambda e: _utc(e[0])):
        card, _ = sched.review_card(card, RATING_FOR[verdict], review_datetime=_utc(when))
    return card


def _questions(ws: Workspace) -> dict[str, tuple[str, int, str]]:
    out: dict[str, tuple[str, int, str]] = {}
    for path in sorted(ws.nodes):
        if ws.nodes[path].kind != "practice":
            continue
        try:
            card = parse_card(path, ws.read_text(path))
        except (PracticeError, OSError):
            continue  # an unusable card has nothing to review; the grader reports it
        for q in card.questions:
            out[f"{path}#{q.number}"] = (path, q.number, q.text)
    return out


def _load(ws: Workspace) -> tuple[bytes | None, dict]:
    data = read_bytes(inside(ws.root, STATE_FILE))
    return data, _parse(data)


def _parse(data: bytes | None) -> dict:
    if data is None:
        return {"version": 1, "items": {}}
    try:
        state = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReviewStateError(STATE_FILE, f"not valid JSON ({exc})") from None
    if not isinstance(state, dict) or not isinstance(state.get("items"), dict):
        raise ReviewStateError(STATE_FILE, "has no 'items' mapping")
    return state


def _first_seen(recorded: object, now: datetime, events: list[tuple[str, str]]) -> str:
    seen = now
    if recorded is not None:
        try:
            seen = _utc(datetime.fromisoformat(str(recorded)))
        except (ValueError, NaiveTime):
            raise ReviewStateError(STATE_FILE, f"bad first_seen time {recorded!r}") from None
    # A card graded before basehalf first scheduled it was seen no later than that grading.
    earliest = min((datetime.fromisoformat(t) for t, _ in events), default=seen)
    return min(seen, earliest).isoformat()


def sync(folder: str | os.PathLike | Workspace, now: datetime) -> dict[str, dict]:
    """Bring ``.bh/reviews.json`` up to date with the cards and their grading; return items.

    Args:
        folder: the study folder (or an open workspace).
        now: the current time (time-zone aware); new questions are first seen now.

    Returns:
        ``{item id: state}`` for every current question.
    """
    now = _utc(now)
    ws = _workspace(folder)
    questions = _questions(ws)
    graded = {card: history(ws, card) for card in {c for c, _, _ in questions.values()}}
    result: dict[str, dict] = {}

    def plan(before: bytes | None) -> bytes | None:
        items = _plan(_parse(before), questions, graded, now)
        result.clear()
        result.update(items)
        data = json.dumps(
            {"version": 1, "items": items}, indent=1, sort_keys=True, ensure_ascii=False
        )
        data_bytes = (data + "\n").encode("utf-8")
        return None if data_bytes == before else data_bytes

    # A read-only folder still gets its schedule; sightings are not kept.
    with contextlib.suppress(PermissionError):
        writing.update(ws.root, STATE_FILE, plan, attempts=_ATTEMPTS)
    return result


def _workspace(folder: str | os.PathLike | Workspace) -> Workspace:
    return folder if isinstance(folder, Workspace) else Workspace.open(folder)


def _plan(state: dict, questions: dict, graded: dict, now: datetime) -> dict[str, dict]:
    items: dict[str, dict] = {}
    for key, (card, number, _text) in questions.items():
        old = state["items"].get(key) or {}
        events = [
            ((v.time or now).astimezone(UTC).isoformat(), v.verdict)
            for v in graded[card].get(number, [])
            if v.counts  # an Unsure is no review event: never scheduled as if Wrong
        ]
        first_seen = _first_seen(old.get("first_seen"), now, events)
        fsrs_card = replay(
            datetime.fromisoformat(first_seen),
            [(datetime.fromisoformat(t), verdict) for t, verdict in events],
        )
        items[key] = {"first_seen": first_seen, "events": events, "card": fsrs_card.to_dict()}
    return items


def schedule(folder: str | os.PathLike | Workspace, now: datetime) -> list[DueItem]:
    """Every review item with its due time, soonest first (then card, number)."""
    now = _utc(now)
    ws = _workspace(folder)
    items = sync(ws, now)
    questions = _questions(ws)
    out = []
    for key, item in items.items():
        card, number, text = questions[key]
        events = item["events"]
        last = events[-1][1] if events else None
        revisit = [u for u in ws.upstream(card) if ws.nodes[u].kind != "grading"]
        out.append(
            DueItem(
                card=card,
                number=number,
                question=text,
                due=datetime.fromisoformat(item["card"]["due"]),
                last_verdict=last,
                revisit=revisit if last == "Wrong" else [],
            )
        )
    return sorted(out, key=lambda d: (d.due, d.card, d.number))


def due(
    folder: str | os.PathLike | Workspace, now: datetime, *, today: bool = True
) -> list[DueItem]:
    """What is due today: before the end of ``now``'s UTC day (``today=False``: by ``now``).

    A question last answered Wrong comes with ``revisit``: the upstream notes of its card, in
    the card's order, to reread before answering again.
    """
    now = _utc(now)
    limit = now
    if today:
        limit = datetime(now.year, now.month, now.day, tzinfo=UTC) + timedelta(days=1)
        limit -= timedelta(microseconds=1)
    return [d for d in schedule(folder, now) if d.due <= limit]
