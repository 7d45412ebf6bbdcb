"""grade_class: one card across every learner folder, bounded concurrency, CSV gradebook."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openai_server import grading_reply, no_model_env, openai_server  # noqa: F401

from basehalf_core.folder.fsio import FolderError
from basehalf_core.study import llm
from basehalf_core.teaching import classroom, classview

pytestmark = pytest.mark.usefixtures("no_model_env")

NOTE = (
    "# Circuits\n\nA bulb lights when it is in a closed path with the battery. When the "
    "resistance increases, the current decreases.\n"
)


def card(a1: str | None, a2: str | None) -> str:
    out = "---\nupstream:\n  - notes.md\nkind: practice\n---\n# Circuits practice\n\n"
    out += "1. When does a bulb light?\n" + (f"   Answer: {a1}\n" if a1 else "")
    out += "2. What happens to the current when resistance increases?\n"
    out += f"   Answer: {a2}\n" if a2 else ""
    # An approved key: offline, without one, no answer is Correct (notes are not a key).
    out += "\n## Answer key\n\n1. When it is in a closed path with the battery.\n"
    out += "2. When the resistance increases, the current decreases.\n"
    return out


def make_course(tmp_path: Path, learners: dict[str, str | None]) -> Path:
    course = tmp_path / "course"
    course.mkdir()
    for name, text in learners.items():
        folder = course / name
        folder.mkdir()
        (folder / "notes.md").write_text(NOTE, encoding="utf-8")
        if text is not None:
            (folder / "practice.md").write_text(text, encoding="utf-8")
    return course


def read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def test_offline_class_grading_writes_gradebook_and_summary(tmp_path):
    course = make_course(
        tmp_path,
        {
            "ann": card(
                "When it is in a closed path with the battery.",
                "When the resistance increases, the current decreases.",
            ),
            "bob": card("When it is not in a closed path with the battery.", None),
            "cy": "# Broken card\n\nNo questions here.\n",
            "dee": None,  # no card: skipped, not a failure
        },
    )
    seen = []
    report = classroom.grade_class(
        course, "practice.md", progress=lambda d, t, n: seen.append((d, t))
    )
    assert [r.learner for r in report.results] == ["ann", "bob", "cy"]
    assert report.skipped == ["dee"]
    assert [r.learner for r in report.failures] == ["cy"]
    assert "EmptyCard" in report.failures[0].error and "practice.md" in report.failures[0].error
    assert sorted(seen) == [(1, 3), (2, 3), (3, 3)]
    book = read_csv(course / report.gradebook)
    rows = {(r["learner"], r["question"]): r for r in book}
    assert rows[("ann", "1")]["verdict"] == "Correct"
    assert rows[("ann", "2")]["verdict"] == "Correct"
    # A negated copy of the key: not Correct, and the reason says why.
    assert rows[("bob", "1")]["verdict"] == "Unsure"
    assert "negation" in rows[("bob", "1")]["reason"]
    assert rows[("bob", "2")]["verdict"] == "not answered"
    assert rows[("cy", "")]["verdict"] == "not graded"
    assert all(r["model"] == "offline" for r in book if r["verdict"] != "not graded")
    summary = {r["question"]: r for r in read_csv(course / report.summary)}
    q1 = summary["1"]
    assert (q1["Correct"], q1["Wrong"], q1["Unsure"]) == ("1", "0", "1")
    # The share is of graded answers: an Unsure is left out, not counted as a miss.
    assert summary["2"]["not answered"] == "1" and summary["1"]["share_correct"] == "1.00"
    # Each learner's own folder got its grading file.
    assert (course / "ann" / "practice.grading.md").exists()
    assert not (course / "cy" / "practice.grading.md").exists()


def test_model_class_grading_is_concurrent_but_bounded(tmp_path, openai_server):
    names = [f"l{i:02d}" for i in range(9)]
    course = make_course(tmp_path, {n: card("closed path", "decreases") for n in names})
    openai_server.default = lambda body: grading_reply()(body) | {"delay": 0.3}
    cfg = llm.ModelConfig("openai/local-model", openai_server.base_url, timeout=10)
    report = classroom.grade_class(course, "practice.md", concurrency=3, config=cfg)
    assert not report.failures
    assert len(openai_server.requests) == 9
    assert 2 <= openai_server.max_in_flight <= 3
    book = read_csv(course / report.gradebook)
    assert len(book) == 18 and {r["model"] for r in book} == {"openai/local-model"}


def test_one_learners_model_failure_does_not_stop_the_rest(tmp_path, openai_server):
    course = make_course(tmp_path, {n: card("closed path", "decreases") for n in "abcd"})
    replies = iter([{"status": 401, "error": "bad key"}])

    def reply(body):
        return next(replies, None) or grading_reply()(body)

    openai_server.default = reply
    cfg = llm.ModelConfig("openai/local-model", openai_server.base_url, timeout=10)
    report = classroom.grade_class(course, "practice.md", concurrency=1, config=cfg)
    assert len(report.failures) == 1 and "OPENAI_API_KEY" in report.failures[0].error
    assert len([r for r in report.results if r.run]) == 3


@pytest.mark.parametrize("card_name", ["../x.md", "/abs.md", ""])
def test_bad_card_path_is_refused(tmp_path, card_name):
    course = make_course(tmp_path, {"ann": card("a", "b")})
    with pytest.raises(FolderError, match="not a card path"):
        classroom.grade_class(course, card_name)


def test_no_learner_with_the_card_is_refused(tmp_path):
    course = make_course(tmp_path, {"ann": None})
    with pytest.raises(classroom.NoLearners, match="practice.md"):
        classroom.grade_class(course, "practice.md")


@pytest.mark.parametrize("name", ["=1+2", "+1+2", "-1+2", "@SUM(1)"])
def test_a_gradebook_cell_never_opens_as_a_formula(tmp_path, name):
    # A learner's name (or a model-written reason) starting like a formula would run in the
    # teacher's spreadsheet; it is written as text, and the Teacher view shows it unchanged.
    course = make_course(tmp_path, {name: card("When it is in a closed path.", None)})
    report = classroom.grade_class(course, "practice.md")
    raw = read_csv(course / report.gradebook)
    assert {r["learner"] for r in raw} == {"'" + name}
    assert {r["learner"] for r in classview.read_gradebook(course / report.gradebook)} == {name}
