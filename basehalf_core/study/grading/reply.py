"""Reading a grading model's reply forgivingly: its near-shapes, and evidence matched fuzzily.

A reply is read in its common near-shapes before any repair is asked for: a top-level list,
``verdicts`` (or ``results``) for ``grades``, ``question`` (or ``id``) for ``number``, verdicts
in any case, a JSON fence. Evidence is looked up in the data sent: verbatim, else with the
rapidfuzz matcher over case-, quote- and dash-folded text (as anchors do); a close match keeps
the verdict with the evidence marked ``approximate`` and the nearest real passage beside it.
Each reply is read as far as it goes (:func:`read_reply`) and every usable verdict is kept.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from basehalf_core.documents.document import fold, normalise
from basehalf_core.errors import BasehalfError
from basehalf_core.study import context as ctxmod
from basehalf_core.study.grading.record import VERDICTS

APPROXIMATE = "approximate"
NOT_FOUND = "not found"
FUZZY_MIN = 85.0  # rapidfuzz partial-ratio over folded text: a quote with small changes


class InvalidGrades(BasehalfError, ValueError):
    """The model's reply broke the contract; the message is sent back for one repair."""


_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*)\n\s*```\s*$", re.DOTALL)
_SENTENCE_END = re.compile(r"[.!?。！？](?=\s+\S)")
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…)\s*")
_LIST_KEYS = ("grades", "verdicts", "results", "answers", "items")
_NUMBER_KEYS = ("number", "question", "question_number", "id", "n")


def _folded(text: str) -> str:
    return fold(normalise(text))


def locate_evidence(ctx: ctxmod.Context, evidence: str) -> tuple[str, str]:
    """Where ``evidence`` stands in the data sent: ``("", "")`` verbatim, ``("approximate",
    nearest real passage)``, or ``("not found", nearest passage if any)``.

    Only the data a grader may quote is searched (KEY, NOTE, PASSAGE, SELECTION), never the
    learner's answer.
    """
    if ctx.contains(evidence):
        return "", ""
    sources = [b.text for b in ctx.blocks if b.kind in ("KEY", "NOTE", "PASSAGE", "SELECTION")]
    pieces = [p for p in _ELLIPSIS.split(evidence) if len(p.split()) >= 2] or [evidence]
    best_score, nearest = 0.0, ""
    for piece in pieces:
        want = _folded(piece)
        if not want:
            continue
        for text in sources:
            hay = normalise(text)
            al = fuzz.partial_ratio_alignment(want, fold(hay))
            if al is not None and al.score > best_score:
                best_score = al.score
                nearest = _whole_words(hay, al.dest_start, al.dest_end)
    if best_score >= FUZZY_MIN:
        return APPROXIMATE, nearest
    return NOT_FOUND, nearest if best_score >= 60 else ""


def _whole_words(text: str, start: int, end: int) -> str:
    """``text[start:end]`` widened to whole words (the alignment may cut one in half)."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end].strip()


def _items(data: object) -> list:
    """The list of grades in a reply of any of the common shapes."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        lowered = {str(k).lower(): v for k, v in data.items()}
        for key in _LIST_KEYS:
            if isinstance(lowered.get(key), list):
                return lowered[key]
        if any(k in lowered for k in _NUMBER_KEYS) and "verdict" in lowered:
            return [data]  # one grade on its own
    raise InvalidGrades('the reply must be an object with a "grades" list')


def _number(item: dict) -> object:
    lowered = {str(k).lower(): v for k, v in item.items()}
    n = next((lowered[k] for k in _NUMBER_KEYS if k in lowered), None)
    if isinstance(n, str):
        digits = re.sub(r"^\s*(?:q(?:uestion)?\s*)?", "", n, flags=re.IGNORECASE).strip()
        if digits.isdigit():
            return int(digits)
    return n


def normalise_item(item: object, numbers: list[int]) -> dict:
    """One grade in the contract's shape; near-shapes accepted, anything else refused.

    Raises:
        InvalidGrades: naming what is wrong with the item.
    """
    if not isinstance(item, dict):
        raise InvalidGrades("each grade must be an object")
    n = _number(item)
    if not isinstance(n, int) or n not in numbers:
        raise InvalidGrades(f"grade for question {n!r}, which is not an answered question")
    lowered = {str(k).lower(): v for k, v in item.items()}
    raw = lowered.get("verdict")
    verdict = next(
        (v for v in VERDICTS if isinstance(raw, str) and raw.strip().lower() == v.lower()), None
    )
    if verdict is None:
        raise InvalidGrades(f"question {n}: verdict {raw!r} is not Correct|Partial|Wrong|Unsure")
    reason = " ".join(str(lowered.get("reason") or "").split())
    if not reason:
        raise InvalidGrades(f"question {n}: the reason is empty")
    if len(reason) > 400 or _SENTENCE_END.search(reason):
        raise InvalidGrades(f"question {n}: the reason must be one sentence")
    evidence = " ".join(str(lowered.get("evidence") or lowered.get("quote") or "").split())
    return {"number": n, "verdict": verdict, "reason": reason, "evidence": evidence}


def _evidence_problem(item: dict) -> str:
    if not item["evidence"]:
        return f"question {item['number']}: the evidence is empty"
    return (
        f"question {item['number']}: the evidence {item['evidence'][:80]!r} is not quoted "
        "verbatim from the data"
    )


def check_evidence(item: dict, ctx: ctxmod.Context, *, final: bool) -> dict:
    """Add ``evidence_match``/``nearest``; before the last try, refuse evidence with nothing close.

    An Unsure may come without evidence (the data may hold nothing close): that is no
    broken contract, and nothing is marked.

    Raises:
        InvalidGrades: evidence empty or not found, unless ``final`` (or the verdict is Unsure).
    """
    if not item["evidence"] and item["verdict"] == "Unsure":
        status, nearest = "", ""
    elif not item["evidence"]:
        status, nearest = NOT_FOUND, ""
    else:
        status, nearest = locate_evidence(ctx, item["evidence"])
    if status == NOT_FOUND and not final:
        raise InvalidGrades(_evidence_problem(item))
    return item | {"evidence_match": status, "nearest": nearest}


def parse_reply(text: str) -> object:
    """The JSON in a reply (a fence around it is fine)."""
    m = _FENCE.match(text)
    raw = m.group(1) if m else text.strip()
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise InvalidGrades(f"the reply is not JSON ({exc.msg} at char {exc.pos})") from None


@dataclass
class Reading:
    """What one reply holds: every usable grade, and what broke the contract, in reply order.

    Attributes:
        grades: usable grades by question number, evidence marked (``not found`` included).
        problems: ``(message, about_evidence)`` for each refusal: not JSON, a bad item, a
            missing question, evidence with nothing close.
    """

    grades: dict[int, dict] = field(default_factory=dict)
    problems: list[tuple[str, bool]] = field(default_factory=list)

    def found(self, n: int) -> dict | None:
        """Question ``n``'s grade when its evidence stands in the data (verbatim or close)."""
        g = self.grades.get(n)
        return g if g is not None and g["evidence_match"] != NOT_FOUND else None

    def summary(self) -> str:
        """The problems for a repair request (the first three; the rest follow from them)."""
        return "; ".join(m for m, _ in self.problems[:3])


def read_reply(text: str, ctx: ctxmod.Context, numbers: list[int]) -> Reading:
    """Read a model reply as far as it goes: never raises, so no usable verdict is lost."""
    out = Reading()
    try:
        raw_items = _items(parse_reply(text))
    except InvalidGrades as exc:
        out.problems.append((str(exc), False))
        return out
    for raw in raw_items:
        try:
            item = check_evidence(normalise_item(raw, numbers), ctx, final=True)
        except InvalidGrades as exc:
            out.problems.append((str(exc), False))
            continue
        if item["number"] in out.grades:
            continue  # a question graded twice: the first grade stands
        out.grades[item["number"]] = item
        if item["evidence_match"] == NOT_FOUND:
            out.problems.append((_evidence_problem(item), True))
    absent = [n for n in numbers if n not in out.grades]
    if absent:
        out.problems.append((f"no grade for question {', '.join(map(str, absent))}", False))
    return out


def validate_grades(
    text: str, ctx: ctxmod.Context, numbers: list[int], *, final: bool = False
) -> list[dict]:
    """Parse and check a whole model reply; the grades in question order.

    Raises:
        InvalidGrades: naming the first problem (not JSON, a missing question, an unknown
            verdict, a reason longer than one sentence, evidence with nothing close in the data
            unless ``final``).
    """
    reading = read_reply(text, ctx, numbers)
    problems = [m for m, evidence in reading.problems if not (final and evidence)]
    if problems:
        raise InvalidGrades(problems[0])
    return [reading.grades[n] for n in numbers]
