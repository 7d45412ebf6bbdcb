"""Courses: course.yaml, learner handouts without answers, progress per session."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from basehalf_cli.main import main
from basehalf_core.study.practice import parse_card
from basehalf_core.teaching import course

SESSIONS = ROOT / "sessions"
ATTENTION = SESSIONS / "attention-is-all-you-need"
LONGEVAL = SESSIONS / "longeval-human-evaluation"

# A teacher's key with answers that appear nowhere else, so a leak cannot be a coincidence.
KEY = """\
# Answer key: Q, K, V

## Answer key

1. The query vector is the zebra-striped probe of the current token.
2. The key vector is the lighthouse each token shines for queries.
3. The value vector is the parcel of content that gets mixed.
4. Queries from the decoder, keys and values from the encoder, said the walrus.
"""


@pytest.fixture
def made(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    course.new(root, "Reading papers", [ATTENTION, LONGEVAL], key=["answers/"])
    (root / "answers").mkdir()
    (root / "answers" / "qkv-key.md").write_text(KEY, encoding="utf-8")
    return root


def _all_text(folder: Path) -> str:
    return "\n".join(
        p.read_bytes().decode("utf-8", errors="replace") for p in folder.rglob("*") if p.is_file()
    )


def test_new_copies_sessions_and_writes_course_yaml(made):
    data = yaml.safe_load((made / "course.yaml").read_text())
    assert data == {
        "title": "Reading papers",
        "sessions": ["attention-is-all-you-need", "longeval-human-evaluation"],
        "key": ["answers/"],
    }
    for session in (ATTENTION, LONGEVAL):
        for src in session.glob("*.md"):
            assert (made / session.name / src.name).read_bytes() == src.read_bytes()
    loaded = course.load(made)
    assert loaded.sessions == ["attention-is-all-you-need", "longeval-human-evaluation"]
    assert loaded.is_key("answers/qkv-key.md") and not loaded.is_key("answersheet.md")


def test_handout_holds_no_answer_text(made, tmp_path):
    out = tmp_path / "handout"
    files = course.handout(made, out)
    text = _all_text(out)
    key_answers = [line.split(". ", 1)[1] for line in KEY.splitlines() if line[:2] in ("1.", "2.")]
    key_answers += [line.split(". ", 1)[1] for line in KEY.splitlines() if line[:2] in ("3.", "4.")]
    assert len(key_answers) == 4
    for answer in key_answers:
        assert answer not in text
    for phrase in ("zebra-striped", "lighthouse", "parcel of content", "walrus"):
        assert phrase not in text
    # The learners' example answers on the cards are gone too, the questions stay.
    for session in (ATTENTION, LONGEVAL):
        for card_path in session.glob("06-*practice.md"):
            card = parse_card(card_path.name, card_path.read_text())
            copy = parse_card(card_path.name, (out / session.name / card_path.name).read_text())
            assert [q.text for q in copy.questions] == [q.text for q in card.questions]
            assert copy.answered == []
            for q in card.questions:
                assert q.answer not in text
    assert "answers/qkv-key.md" not in files and not (out / "answers").exists()
    assert not list(out.rglob("*.grading.md"))  # graded answers are the learner's own
    assert (out / "longeval-human-evaluation" / "longeval-2023.eacl-main.121.pdf").exists()
    assert "key" not in yaml.safe_load((out / "course.yaml").read_text())


def test_handout_keeps_notes_byte_for_byte(made, tmp_path):
    out = tmp_path / "handout"
    course.handout(made, out)
    for note in LONGEVAL.glob("0[1-5]-*.md"):
        assert (out / LONGEVAL.name / note.name).read_bytes() == note.read_bytes()


@pytest.mark.parametrize(
    ("card", "kept", "gone"),
    [
        (
            "1. What is Q?\n   Answer: The secret query answer.\n     continued here.\n"
            "2. What is K?\n   Answer: Another hidden one.\n",
            ["1. What is Q?", "   Answer:\n", "2. What is K?"],
            ["secret query answer", "continued here", "Another hidden one"],
        ),
        (
            "## Questions\n\n1. What is Q?\n2. What is K?\n\n## Answers\n\n"
            "1. Paired answer one.\n2. Paired answer two.\n",
            ["1. What is Q?", "## Answers"],
            ["Paired answer one", "Paired answer two"],
        ),
        (
            "## Notes\n\nKeep me.\n\n1. What is Q?\n   **Answer:** bold secret.\n\n"
            "## Answer key\n\n1. Key secret.\n",
            ["1. What is Q?", "**Answer:**", "## Notes", "Keep me."],
            ["bold secret", "Key secret", "## Answer key"],
        ),
        (
            "1. 什么是查询？\n   答案：当前位置要找的东西。\n",
            ["1. 什么是查询？", "答案："],
            ["当前位置要找的东西"],
        ),
    ],
)
def test_blank_answers_layouts(card, kept, gone):
    text = "---\nkind: practice\n---\n# Card\n\n" + card
    blanked = course.blank_answers(text)
    for piece in kept:
        assert piece in blanked
    for piece in gone:
        assert piece not in blanked
    assert parse_card("c.md", blanked).answered == []


def test_handout_refuses_when_an_answer_survives_elsewhere(made, tmp_path):
    leak = made / "longeval-human-evaluation" / "07-cheat-sheet.md"
    leak.write_text(
        "# Cheat sheet\n\nThe key vector is the lighthouse each token shines for queries.\n"
    )
    with pytest.raises(course.CourseError, match=r"07-cheat-sheet\.md: still holds the answer"):
        course.handout(made, tmp_path / "handout")


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda c: (c / "course.yaml").unlink(), "no course.yaml"),
        (lambda c: (c / "course.yaml").write_text("title: [unclosed\n"), "not valid YAML"),
        (lambda c: (c / "course.yaml").write_text("- a list\n"), "must be a mapping"),
        (
            lambda c: (c / "course.yaml").write_text("title: T\nsessions: [missing]\n"),
            "session 'missing' is not a folder",
        ),
        (
            lambda c: (c / "course.yaml").write_text("title: T\nsessions: [../escape]\n"),
            "sessions entry '../escape' is not usable",
        ),
        (lambda c: (c / "course.yaml").write_text("title: T\nkey: answers/\n"), "must be a list"),
    ],
)
def test_bad_course_yaml_is_named(made, tmp_path, setup, message):
    setup(made)
    with pytest.raises(course.CourseError, match=message):
        course.handout(made, tmp_path / "handout")
    assert not (tmp_path / "handout").exists()


def test_new_refuses_a_used_folder_and_duplicate_names(tmp_path):
    used = tmp_path / "used"
    used.mkdir()
    (used / "x.md").write_text("mine")
    with pytest.raises(course.CourseError, match="used: already exists and is not an empty"):
        course.new(used, "T", [ATTENTION])
    assert (used / "x.md").read_text() == "mine"
    with pytest.raises(course.CourseError, match="both named 'attention-is-all-you-need'"):
        course.new(tmp_path / "c", "T", [ATTENTION, ATTENTION])
    with pytest.raises(course.CourseError, match="--title is empty"):
        course.new(tmp_path / "c", "  ", [ATTENTION])


def test_handout_must_not_go_inside_the_course(made):
    with pytest.raises(course.CourseError, match="must be outside the course folder"):
        course.handout(made, made / "handout")


def test_progress_counts_notes_questions_graded_and_due(made):
    graded_at = datetime(2026, 12, 2, tzinfo=UTC)  # before any sync: the run's time counts
    rows = course.progress(made, graded_at - timedelta(days=400))
    by = {r["session"]: r for r in rows}
    assert by["attention-is-all-you-need"] == {
        "session": "attention-is-all-you-need",
        "notes": 6,  # five grown notes and the README
        "practice_questions": 4,
        "graded": 0,
        "due": 4,  # never graded: due from the first look
        "due_today": 4,
    }
    longeval = by["longeval-human-evaluation"]
    assert (longeval["notes"], longeval["practice_questions"], longeval["graded"]) == (7, 6, 6)


def test_progress_due_follows_the_grading(made):
    grading_file = made / "longeval-human-evaluation" / "06-longeval-practice.grading.md"
    run_time = datetime.fromisoformat(
        next(line for line in grading_file.read_text().splitlines() if line.startswith("## Run"))
        .split(" · ")[1]
        .replace("Z", "+00:00")
    )
    soon = course.progress(made, run_time + timedelta(minutes=1))
    later = course.progress(made, run_time + timedelta(days=1))
    assert soon[1]["due"] == 0  # all six just graded (Correct after overrides)
    assert soon[1]["due_today"] == 6  # the first learning step is minutes away
    assert later[1]["due"] == 6


def test_cli_course_new_handout_progress(tmp_path, capsys):
    root = tmp_path / "c"
    argv = ["course", "new", str(root), "--title", "T", "--session", str(LONGEVAL)]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["sessions"] == ["longeval-human-evaluation"]
    assert main(["course", "handout", str(root), "-o", str(tmp_path / "h")]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert "longeval-human-evaluation/06-longeval-practice.md" in files
    assert main(["course", "progress", str(root), "--now", "2030-01-01T00:00:00Z"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["due"] == 6
    assert main(["course", "handout", str(root), "-o", str(tmp_path / "h")]) == 1
    assert "already exists and is not an empty folder" in capsys.readouterr().err
