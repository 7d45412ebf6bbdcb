"""Practice cards: parse questions and the learner's one-sentence answers from a Markdown note.

Two layouts are accepted (DESIGN §4):

* numbered questions, each followed by an ``Answer:`` line::

      1. What does the Query stand for?
         Answer: What the current position is looking for.

* a ``## Questions`` list and a ``## Answers`` list, paired by number.

A card with some answers missing still parses: the missing ones are listed in
:attr:`PracticeCard.missing` so the grader grades only the answered ones and reports the rest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from basehalf_core.errors import BasehalfError


class PracticeError(BasehalfError):
    """A practice card cannot be used as written."""


class EmptyCard(PracticeError):
    """The card holds no numbered question at all."""

    def __init__(self, path: str):
        super().__init__(path, "no numbered questions found (expected '1. …' lines)")


class MissingAnswer(PracticeError):
    """A question has no answer; raised only when a caller asks for a complete card."""

    def __init__(self, path: str, numbers: list[int]):
        self.numbers = numbers
        listed = ", ".join(str(n) for n in numbers)
        super().__init__(path, f"no answer for question {listed}")


@dataclass(frozen=True)
class Question:
    """One numbered question; ``answer`` is ``None`` when the learner left it blank."""

    number: int
    text: str
    answer: str | None


@dataclass(frozen=True)
class PracticeCard:
    """A parsed practice card. ``path`` is folder-relative."""

    path: str
    title: str
    questions: list[Question]
    upstream: list[str] = field(default_factory=list)
    answer_key: dict[int, str] = field(default_factory=dict)

    @property
    def answered(self) -> list[Question]:
        """The questions that have an answer, in card order."""
        return [q for q in self.questions if q.answer]

    @property
    def missing(self) -> list[int]:
        """Numbers of the questions without an answer."""
        return [q.number for q in self.questions if not q.answer]

    def require_complete(self) -> None:
        """Raise :class:`MissingAnswer` naming every unanswered question number."""
        if self.missing:
            raise MissingAnswer(self.path, self.missing)


_ITEM = re.compile(r"^\s{0,3}(\d{1,3})[.)]\s+(.*\S)?\s*$")
_ANSWER = re.compile(
    r"^\s*(?:[-*]\s+)?(?:\*\*)?(?:answer|a|答案|答)(?:\*\*)?\s*[:：](?:\*\*)?\s*(.*?)\s*$",
    re.IGNORECASE,
)
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_QUESTIONS_H = re.compile(r"^(questions?|问题|题目)$", re.IGNORECASE)
_ANSWERS_H = re.compile(r"^(answers?|答案)$", re.IGNORECASE)
_KEY_H = re.compile(r"^(answer key|reference answers?|参考答案)$", re.IGNORECASE)


def split_frontmatter(text: str) -> tuple[dict, str]:
    """Split ``text`` into (frontmatter mapping, body). No or bad frontmatter gives ``{}``."""
    text = text.lstrip("\ufeff")
    if not text.startswith("---"):
        return {}, text
    lines = text.splitlines(keepends=True)
    if lines[0].strip() != "---":
        return {}, text
    for i in range(1, len(lines)):
        if lines[i].strip() in ("---", "..."):
            try:
                data = yaml.safe_load("".join(lines[1:i])) or {}
            except yaml.YAMLError:
                data = {}
            return (data if isinstance(data, dict) else {}), "".join(lines[i + 1 :])
    return {}, text


def parse_card(path: str, text: str) -> PracticeCard:
    """Parse a practice card.

    Args:
        path: folder-relative path, used in errors and kept on the card.
        text: the whole file text, frontmatter included.

    Returns:
        The card; questions without an answer have ``answer=None``.

    Raises:
        EmptyCard: no numbered question was found.
    """
    meta, body = split_frontmatter(text)
    upstream = (
        [str(u) for u in meta.get("upstream") or []]
        if isinstance(meta.get("upstream"), list)
        else []
    )
    sections = _sections(body)
    title = _title(body, path)
    key = _numbered_lists(sections.get("key", []))
    if "questions" in sections:
        asked = _numbered_lists(sections["questions"])
        given = _numbered_lists(sections.get("answers", []))
        questions = [Question(n, t, given.get(n) or None) for n, t in asked.items()]
    else:
        questions = _inline_layout(sections.get("body", []))
    if not questions:
        raise EmptyCard(path)
    return PracticeCard(path, title, questions, upstream, {n: a for n, a in key.items() if a})


def _title(body: str, path: str) -> str:
    for line in body.splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) == 1:
            return m.group(2)
    return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]


def _sections(body: str) -> dict[str, list[str]]:
    """Group body lines under 'questions', 'answers', 'key', or 'body' (everything else)."""
    out: dict[str, list[str]] = {}
    current = "body"
    for line in body.splitlines():
        m = _HEADING.match(line)
        if m and len(m.group(1)) >= 2:
            name = m.group(2).strip().rstrip(":：")
            if _QUESTIONS_H.match(name):
                current = "questions"
            elif _ANSWERS_H.match(name):
                current = "answers"
            elif _KEY_H.match(name):
                current = "key"
            else:
                current = "body" if current == "body" else "other"
            out.setdefault(current, [])
            continue
        out.setdefault(current, []).append(line)
    return out


def _numbered_lists(lines: list[str]) -> dict[int, str]:
    """Numbered items with their continuation lines joined by spaces."""
    items: dict[int, list[str]] = {}
    current: int | None = None
    for line in lines:
        m = _ITEM.match(line)
        if m:
            current = int(m.group(1))
            items.setdefault(current, [])
            if m.group(2):
                items[current].append(m.group(2).strip())
        elif current is not None and line.strip():
            items[current].append(line.strip())
        elif not line.strip():
            continue
    return {n: " ".join(parts).strip() for n, parts in items.items()}


def _inline_layout(lines: list[str]) -> list[Question]:
    questions: list[Question] = []
    number: int | None = None
    text: list[str] = []
    answer: list[str] | None = None

    def flush() -> None:
        if number is not None:
            ans = " ".join(answer).strip() if answer is not None else ""
            questions.append(Question(number, " ".join(text).strip(), ans or None))

    for line in lines:
        m = _ITEM.match(line)
        a = _ANSWER.match(line)
        if m and not a:
            flush()
            number, text, answer = int(m.group(1)), [m.group(2) or ""], None
        elif number is None:
            continue
        elif a:
            answer = [a.group(1)]
        elif line.strip():
            (answer if answer is not None else text).append(line.strip())
    flush()
    return [q for q in questions if q.text]
