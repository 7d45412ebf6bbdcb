"""Golden cards of the walkthrough, graded offline on the session's real notes.

The four answers of ``06-qkv-practice.md`` are correct: offline they may be Unsure, never
Wrong. The variants (Key and Value swapped, "multi-head is only for speed", a negated Q1) and
an echo card (every answer a copy of a note sentence that does not answer the question) must
never be Correct. The variant cards live in ``tests/golden/grading/``, beside an approved answer key
(``qkv-answer-key.md``, written from the paper) that the same five cards are also graded with.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "sessions" / "attention-is-all-you-need"
GOLDEN = ROOT / "tests" / "golden" / "grading"
CARD = "06-qkv-practice.md"

pytestmark = pytest.mark.usefixtures("no_model_env")


@pytest.fixture
def no_model_env(monkeypatch):
    for name in ("BASEHALF_MODEL", "BASEHALF_API_BASE"):
        monkeypatch.delenv(name, raising=False)


def grade(tmp_path: Path, card_text: str, plant: str = "") -> dict[int, grading.QuestionGrade]:
    """Grade ``card_text`` as the session's card, offline, over the session's own notes."""
    folder = tmp_path / "session"
    folder.mkdir()
    for note in SESSION.glob("0*.md"):
        shutil.copyfile(note, folder / note.name)
    if plant:
        note = folder / "03-scaled-dot-product.md"
        note.write_text(note.read_text(encoding="utf-8") + f"\n{plant}\n", encoding="utf-8")
    (folder / CARD).write_text(card_text, encoding="utf-8")
    run = grading.grade_card(Workspace.open(folder), CARD, model="offline")
    assert run.offline
    return {g.number: g for g in run.grades}


def test_the_four_correct_answers_are_never_wrong(tmp_path):
    got = grade(tmp_path, (SESSION / CARD).read_text(encoding="utf-8"))
    assert sorted(got) == [1, 2, 3, 4]
    for g in got.values():
        assert g.verdict in ("Correct", "Unsure", "Partial"), g
        assert g.confidence is not None
        if g.verdict == "Unsure":
            assert g.compare, g  # the passages to compare with come along


@pytest.mark.parametrize(
    ("variant", "changed"),
    [("kv-swapped.md", [2, 3]), ("negated-q1.md", [1]), ("multi-head-speed.md", [5])],
)
def test_wrong_variants_are_never_correct(tmp_path, variant, changed):
    got = grade(tmp_path, (GOLDEN / variant).read_text(encoding="utf-8"))
    for n in changed:
        assert got[n].verdict != "Correct", got[n]


def test_an_echo_of_a_note_is_never_correct(tmp_path):
    got = grade(tmp_path, (GOLDEN / "echo.md").read_text(encoding="utf-8"))
    assert [g.verdict for g in got.values()].count("Correct") == 0, got


PLANTED = "Attention was first trained on eight P100 GPUs for twelve hours by the authors."


def test_answers_repeating_a_planted_note_sentence_are_never_correct(tmp_path):
    card = (SESSION / CARD).read_text(encoding="utf-8")
    head, _, _ = card.partition("\n1. ")
    questions = [
        "In scaled dot-product attention, what does a query stand for?",
        "What is a key for?",
        "What is a value, and what does attention output?",
        "In encoder-decoder attention, where do Q, K and V come from?",
    ]
    body = "".join(f"{i}. {q}\n   Answer: {PLANTED}\n\n" for i, q in enumerate(questions, 1))
    got = grade(tmp_path, f"{head}\n{body}", plant=PLANTED)
    assert all(g.verdict != "Correct" for g in got.values()), got


ANSWER_KEY = (GOLDEN / "qkv-answer-key.md").read_text(encoding="utf-8")


def with_key(text: str) -> str:
    return text.rstrip("\n") + "\n\n" + ANSWER_KEY


def test_with_an_answer_key_the_correct_answers_are_not_wrong_and_most_are_correct(tmp_path):
    got = grade(tmp_path, with_key((SESSION / CARD).read_text(encoding="utf-8")))
    assert all(g.verdict != "Wrong" for g in got.values()), got
    assert all("leans not correct" not in g.reason for g in got.values()), got
    assert sum(g.verdict == "Correct" for g in got.values()) >= 3, got
    assert all(g.evidence in ANSWER_KEY for g in got.values())  # graded against the key


@pytest.mark.parametrize(
    ("variant", "changed"),
    [
        ("kv-swapped.md", [2, 3]),
        ("negated-q1.md", [1]),
        ("multi-head-speed.md", [5]),
        ("echo.md", [1, 2, 3, 4]),
    ],
)
def test_with_an_answer_key_the_variants_are_never_correct(tmp_path, variant, changed):
    got = grade(tmp_path, with_key((GOLDEN / variant).read_text(encoding="utf-8")))
    for n in changed:
        assert got[n].verdict != "Correct", got[n]
        assert "leans correct" not in got[n].reason, got[n]  # nor hinted at


def test_the_shipped_longeval_grading_is_what_the_offline_grader_says_now(tmp_path):
    # The session ships a run of the offline grader: it must be the current grader's run, so
    # that a learner opening the session sees what the product says (not an older grader's).
    shipped = ROOT / "sessions" / "longeval-human-evaluation"
    folder = tmp_path / "longeval"
    folder.mkdir()
    for note in shipped.glob("0*.md"):
        if not note.name.endswith(".grading.md"):
            shutil.copyfile(note, folder / note.name)
    fresh = grading.grade_card(Workspace.open(folder), "06-longeval-practice.md", model="offline")
    (run,), overrides = grading.runs(Workspace.open(shipped), "06-longeval-practice.md")
    assert run.model == "offline"

    def said(r):
        return [(g.number, g.verdict, g.reason, g.evidence, g.confidence, g.compare) for g in r]

    assert said(run.grades) == said(fresh.grades)
    # The author's overrides sit beside the grader's verdicts, which stay as they were said.
    assert [(o.number, o.was) for o in overrides] == [
        (g.number, g.verdict) for g in run.grades if g.verdict != "Correct"
    ]
