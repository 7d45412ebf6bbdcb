"""Review scheduling (FSRS) from grading runs, with fixed clocks."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fsrs import Card, Rating, Scheduler

from basehalf_cli.main import main
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading, review
from basehalf_core.study.grading import record

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def _folder(tmp_path: Path) -> Path:
    root = tmp_path / "study"
    root.mkdir(parents=True)
    ws = Workspace.open(root)
    for name, title in (("01-keys.md", "Keys"), ("02-values.md", "Values")):
        operations.grow(ws, title, upstream=[], body="Own words: about " + title, name=name)
    operations.grow(
        ws,
        "QKV practice",
        upstream=["02-values.md", "01-keys.md"],
        fields={"kind": "practice"},
        body=(
            "1. What is a key for?\n   Answer: Matching queries.\n\n"
            "2. What is a value?\n   Answer: The content that is mixed.\n"
        ),
        name="03-practice.md",
    )
    return root


def _grade(root: Path, when: datetime, verdicts: dict[int, str]) -> str:
    """Append a grading run with a fixed time through the grading room's own file format."""
    ws = Workspace.open(root)
    path = grading.grading_path_for("03-practice.md")
    if ws.resolve(path) is None:
        operations.grow(
            ws, "Grading", upstream=["03-practice.md"], fields={"kind": "grading"}, name=path
        )
    text = ws.read_text(path)
    run = grading.GradingRun(
        run_id=record._next_run_id(text),
        card="03-practice.md",
        time=when.strftime("%Y-%m-%dT%H:%M:%SZ"),
        model="offline",
        grades=[
            grading.QuestionGrade(n, f"q{n}", f"a{n}", v, f"because {v}", "Matching")
            for n, v in verdicts.items()
        ],
    )
    operations.edit(ws, path, lambda t: t.rstrip("\n") + "\n\n" + grading.render_run(run))
    return run.run_id


def _override(root: Path, run_id: str, number: int, verdict: str) -> None:
    ws = Workspace.open(root)
    grading.override(ws, grading.grading_path_for("03-practice.md"), run_id, number, verdict)


def _item(root: Path, now: datetime, number: int) -> review.DueItem:
    return next(d for d in review.schedule(root, now) if d.number == number)


def test_every_practice_question_is_a_review_item_due_when_first_seen(tmp_path):
    root = _folder(tmp_path)
    items = review.due(root, T0)
    assert [(d.card, d.number) for d in items] == [("03-practice.md", 1), ("03-practice.md", 2)]
    assert all(d.due == T0 and d.last_verdict is None and d.revisit == [] for d in items)
    state = json.loads((root / ".bh/reviews.json").read_text())
    assert state["items"]["03-practice.md#1"]["first_seen"] == T0.isoformat()
    # A later look keeps the first sighting: the card has been due since T0.
    later = review.due(root, T0 + timedelta(days=3))
    assert [d.due for d in later] == [T0, T0]


@pytest.mark.parametrize(
    ("verdict", "rating"),
    [("Correct", Rating.Good), ("Partial", Rating.Hard), ("Wrong", Rating.Again)],
)
def test_verdict_maps_to_fsrs_rating(tmp_path, verdict, rating):
    root = _folder(tmp_path)
    review.due(root, T0)
    graded_at = T0 + timedelta(hours=1)
    _grade(root, graded_at, {1: verdict})
    expected, _ = Scheduler(enable_fuzzing=False).review_card(
        Card(due=T0), rating, review_datetime=graded_at
    )
    item = _item(root, graded_at, 1)
    assert item.due == expected.due
    assert item.last_verdict == verdict


def test_wrong_comes_sooner_than_partial_sooner_than_correct(tmp_path):
    root = _folder(tmp_path)
    at = T0 + timedelta(minutes=5)
    _grade(root, at, {1: "Wrong", 2: "Correct"})
    wrong, correct = _item(root, at, 1).due, _item(root, at, 2).due
    assert at < wrong < correct
    root2 = _folder(tmp_path / "b")
    _grade(root2, at, {1: "Partial"})
    assert wrong < _item(root2, at, 1).due < correct


def test_a_wrong_answer_brings_the_cards_upstream_notes_in_card_order(tmp_path):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Wrong", 2: "Correct"})
    due_now = review.due(root, T0 + timedelta(hours=1))
    by_number = {d.number: d for d in due_now}
    assert by_number[1].revisit == ["02-values.md", "01-keys.md"]
    assert by_number[2].revisit == []


def test_repeated_correct_answers_push_the_next_review_out_of_today(tmp_path):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Correct", 2: "Wrong"})
    _grade(root, T0 + timedelta(minutes=15), {1: "Correct", 2: "Wrong"})
    _grade(root, T0 + timedelta(days=2, hours=1), {1: "Correct", 2: "Wrong"})
    now = T0 + timedelta(days=2, hours=2)
    item = _item(root, now, 1)
    assert item.due > now + timedelta(days=3)  # three good reviews: days away, not minutes
    today = review.due(root, now, today=True)
    assert [d.number for d in today] == [2]


def test_due_today_includes_later_today_and_due_now_does_not(tmp_path):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Correct", 2: "Wrong"})  # 1: due in 10 min, 2: due in 1 min
    now = T0 + timedelta(minutes=2)
    assert [d.number for d in review.due(root, now, today=False)] == [2]
    assert [d.number for d in review.due(root, now)] == [2, 1]


def test_an_override_replaces_the_rating_of_the_run_it_overrides(tmp_path):
    root = _folder(tmp_path)
    run = _grade(root, T0, {1: "Wrong"})
    _override(root, run, 1, "Correct")
    overridden = _item(root, T0, 1)
    plain = _folder(tmp_path / "plain")
    _grade(plain, T0, {1: "Correct"})
    assert overridden.last_verdict == "Correct"
    assert overridden.due == _item(plain, T0, 1).due
    assert overridden.revisit == []


def test_grading_before_first_sync_counts_from_the_grading(tmp_path):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Correct"})
    # Scheduled for the first time a week later: the run at T0 still counts.
    item = _item(root, T0 + timedelta(days=7), 1)
    assert item.due == _item(_graded_copy(tmp_path), T0, 1).due


def _graded_copy(tmp_path: Path) -> Path:
    other = _folder(tmp_path / "copy")
    _grade(other, T0, {1: "Correct"})
    return other


def test_state_written_atomically_and_only_when_changed(tmp_path):
    root = _folder(tmp_path)
    review.due(root, T0)
    state = root / ".bh/reviews.json"
    before = state.stat().st_mtime_ns, state.read_bytes()
    review.due(root, T0 + timedelta(hours=1))
    assert (state.stat().st_mtime_ns, state.read_bytes()) == before
    assert not [p for p in (root / ".bh").iterdir() if p.name.endswith(".bh-tmp")]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"{not json", "not valid JSON"),
        (b"[]", "no 'items' mapping"),
        (b'{"items": {"03-practice.md#1": {"first_seen": "yesterday"}}}', "bad first_seen"),
    ],
)
def test_a_broken_state_file_is_reported_and_left_untouched(tmp_path, content, problem):
    root = _folder(tmp_path)
    (root / ".bh").mkdir(exist_ok=True)
    (root / ".bh/reviews.json").write_bytes(content)
    with pytest.raises(review.ReviewStateError, match=problem) as exc:
        review.due(root, T0)
    assert ".bh/reviews.json" in str(exc.value)
    assert (root / ".bh/reviews.json").read_bytes() == content


def test_a_time_without_zone_is_refused(tmp_path):
    with pytest.raises(review.NaiveTime, match="2026-01-05T09:00:00"):
        review.due(_folder(tmp_path), datetime(2026, 1, 5, 9, 0))


def test_cli_review_today_json(tmp_path, capsys):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Wrong", 2: "Correct"})
    now = (T0 + timedelta(minutes=2)).isoformat()
    assert main(["review", str(root), "--due", "--now", now, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [(d["number"], d["last_verdict"], d["revisit"]) for d in out] == [
        (1, "Wrong", ["02-values.md", "01-keys.md"])
    ]
    assert main(["review", str(root), "--now", now]) == 0
    text = capsys.readouterr().out
    assert "03-practice.md#1: What is a key for? — due now (last: Wrong)" in text
    assert "    reread first: 02-values.md" in text
    assert "03-practice.md#2: What is a value? — due 2026-01-05" in text


def test_cli_review_refuses_a_naive_time(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["review", str(_folder(tmp_path)), "--now", "2026-01-05T09:00"])
    assert exc.value.code == 2
    assert "has no time zone" in capsys.readouterr().err


def test_tabs_syncing_at_once_keep_one_valid_state(tmp_path):
    """marimo serves each tab as a thread: concurrent syncs must not lose or corrupt state."""
    import threading

    root = _folder(tmp_path)
    _grade(root, T0, {1: "Wrong"})
    errors: list[Exception] = []

    def tab(i: int) -> None:
        try:
            for k in range(5):
                review.due(root, T0 + timedelta(minutes=i * 5 + k))
        except Exception as exc:  # collected, asserted below
            errors.append(exc)

    threads = [threading.Thread(target=tab, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    state = json.loads((root / ".bh/reviews.json").read_text())
    assert set(state["items"]) == {"03-practice.md#1", "03-practice.md#2"}
    assert state["items"]["03-practice.md#1"]["first_seen"] == T0.isoformat()


def test_verdicts_in_force_come_from_the_latest_run(tmp_path):
    root = _folder(tmp_path)
    first = _grade(root, T0, {1: "Wrong", 2: "Correct"})
    _override(root, first, 1, "Partial")
    ws = Workspace.open(root)
    now = grading.in_force(ws, "03-practice.md")
    assert {n: (v.verdict, v.graded_verdict, v.source) for n, v in now.items()} == {
        1: ("Partial", "Wrong", "override"),
        2: ("Correct", "Correct", "offline"),
    }
    _grade(root, T0 + timedelta(days=1), {2: "Wrong"})  # question 1 left unanswered this time
    ws = Workspace.open(root)
    assert list(grading.in_force(ws, "03-practice.md")) == [2]


def test_unsure_is_no_review_event(tmp_path):
    root = _folder(tmp_path)
    _grade(root, T0, {1: "Unsure", 2: "Wrong"})
    items = review.sync(Workspace.open(root), T0 + timedelta(hours=1))
    assert items["03-practice.md#1"]["events"] == []  # not scheduled as if it were Wrong
    assert [v for _, v in items["03-practice.md#2"]["events"]] == ["Wrong"]
