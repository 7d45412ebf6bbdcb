"""The grading benchmark's "unseen domains" folds: whole SciEntsBank modules held out together."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest
from conftest import GRADING_DATA

from basehalf_core.study.offline_grader import evaluate, notes_eval

ROOT = Path(__file__).resolve().parents[1]
DATA = GRADING_DATA


def rows_of(sizes: dict[str, int]) -> list[dict]:
    """Synthetic rows: ``sizes[module]`` answers per module, two questions per module."""
    return [
        {"id": f"{mod}.{i}", "question_id": f"{mod}_{i % 2}a"}
        for mod, n in sizes.items()
        for i in range(n)
    ]


def homes(rows: list[dict], folds: list[list[int]]) -> dict[str, set[int]]:
    """The folds each module's rows landed in."""
    out: dict[str, set[int]] = {}
    for n, fold in enumerate(folds):
        for i in fold:
            out.setdefault(evaluate.module_of(rows[i]), set()).add(n)
    return out


TABLES = {
    "equal": {m: 10 for m in "ABCDEFGHIJ"},
    "skewed": {"ME": 80, "MX": 70, "PS": 50, "SE": 50, "EM": 40, "VB": 9, "LF": 7, "LP": 1},
    "exactly-k": {"A": 3, "B": 30, "C": 12, "D": 7, "E": 1},
}


@pytest.mark.parametrize("sizes", TABLES.values(), ids=TABLES.keys())
def test_a_module_never_spans_two_folds_and_every_row_is_tested_once(sizes):
    rows = rows_of(sizes)
    folds = evaluate.group_folds(rows, 5, group=evaluate.UNSEEN_DOMAINS)
    assert len(folds) == 5 and all(folds)
    assert sorted(i for f in folds for i in f) == list(range(len(rows)))
    assert all(len(h) == 1 for h in homes(rows, folds).values())


@pytest.mark.parametrize("sizes", TABLES.values(), ids=TABLES.keys())
def test_domain_folds_are_fixed_whatever_the_seed_or_row_order(sizes):
    rows = rows_of(sizes)
    first = homes(rows, evaluate.group_folds(rows, 5, seed=1, group=evaluate.UNSEEN_DOMAINS))
    again = homes(rows, evaluate.group_folds(rows, 5, seed=2, group=evaluate.UNSEEN_DOMAINS))
    shuffled = rows[:]
    random.Random(5).shuffle(shuffled)
    moved = homes(shuffled, evaluate.domain_folds(shuffled, 5))
    assert first == again == moved


def test_the_largest_modules_are_spread_and_small_ones_fill_the_gaps():
    # 80, 70, 50, 50, 40 open the five folds; then 9 and 7 go to the 40 (the emptiest, at 40
    # and then 49), and 1 to the first of the two at 50.
    rows = rows_of(TABLES["skewed"])
    got = {m: h.pop() for m, h in homes(rows, evaluate.domain_folds(rows, 5)).items()}
    assert got == {"ME": 0, "MX": 1, "PS": 2, "SE": 3, "EM": 4, "VB": 4, "LF": 4, "LP": 2}


def test_fewer_modules_than_folds_is_refused():
    with pytest.raises(ValueError, match="4 modules cannot fill 5 folds"):
        evaluate.domain_folds(rows_of({m: 5 for m in "ABCD"}), 5)


@pytest.mark.parametrize(
    ("question_id", "module"), [("ME_65a", "ME"), ("LF_26a2", "LF"), ("PS_4ap", "PS"), ("X", "X")]
)
def test_the_module_is_the_question_ids_prefix(question_id, module):
    assert evaluate.module_of({"question_id": question_id}) == module


def test_scientsbank_modules_match_their_source_files_and_fill_five_even_folds():
    path = DATA / "sciEntsBank_3way_train.jsonl"
    if not path.exists():
        pytest.fail(f"grading data missing: {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    # The module is not a field of the data: the question id's prefix is the source file's.
    files = {Path(r["source_file"]).name.split("-")[0] for r in rows}
    assert {evaluate.module_of(r) for r in rows} == files and len(files) == 12
    folds = evaluate.group_folds(rows, 5, group=evaluate.UNSEEN_DOMAINS)
    assert sorted(i for f in folds for i in f) == list(range(len(rows)))
    assert all(len(h) == 1 for h in homes(rows, folds).values())
    assert max(map(len, folds)) < 1.25 * min(map(len, folds))  # about a fifth each


def test_inner_folds_of_the_domains_protocol_hold_out_modules_too(monkeypatch):
    # Settings are chosen on inner folds that hold out whole modules of the training part,
    # so the choice itself never sees a module it is then tested on.
    rows = [
        {
            "id": f"{m}.{i}",
            "question_id": f"{m}_{i % 3}",
            "question": "What happens to the current when the resistance increases?",
            "reference_answer": "The current decreases.",
            "student_answer": "It decreases." if i % 2 else "It increases.",
            "original_label": "correct" if i % 2 else "contradictory",
        }
        for m in "ABCDEFGHIJ"
        for i in range(12)
    ]
    calls: list[tuple[int, str]] = []
    real = evaluate.group_folds

    def spy(sub, k=5, seed=7, group=evaluate.UNSEEN_QUESTIONS):
        calls.append((len(sub), group))
        folds = real(sub, k, seed, group)
        assert all(len(h) == 1 for h in homes(list(sub), folds).values())
        return folds

    monkeypatch.setattr(evaluate, "group_folds", spy)
    evaluate.cross_validate(rows, k=5, inner_k=2, group=evaluate.UNSEEN_DOMAINS)
    assert {g for _, g in calls} == {evaluate.UNSEEN_DOMAINS}
    assert sorted(n for n, _ in calls) == [96] * 5 + [120]  # 5 training parts, then all rows


def bench_module():
    """bench/grading.py, imported from its file (bench is not a package)."""
    spec = importlib.util.spec_from_file_location("grading_bench", ROOT / "bench" / "grading.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["grading_bench"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("flag", "protocols"),
    [
        ("domains", ("domains",)),
        ("both", ("questions", "answers")),
        ("all", ("questions", "answers", "domains")),
    ],
)
def test_the_bench_runs_the_protocols_asked_for(monkeypatch, flag, protocols):
    bench = bench_module()
    got = []
    monkeypatch.setattr(bench, "cv_table", lambda protocols: got.append(protocols))
    bench.main(["--cv", "--protocol", flag])
    assert got == [protocols]
    assert bench.PROTOCOLS["domains"] == evaluate.UNSEEN_DOMAINS
    assert bench.PROTOCOL_SPLITS["domains"] == ("sciEntsBank_3way_train.jsonl",)


def test_the_summary_puts_grader_word_rules_and_baseline_side_by_side(capsys):
    bench = bench_module()
    report = {"n": 12, "prec_wrong": 0.9, "prec_correct": float("nan"), "coverage": 0.25}
    bench.print_summary(
        [
            (
                "sciEnt/doma",
                "and",
                report | {"f1_2way": 0.708},
                report | {"f1_2way": 0.687},
                report | {"f1_2way": 0.624},
            )
        ]
    )
    line = capsys.readouterr().out.splitlines()[-1].split()
    assert line == ["sciEnt/doma", "12", "0.708", "and", "0.687", "0.624", "0.900", "-", "0.250"]


def test_the_outer_fold_seed_reaches_the_folds_and_the_inner_folds_keep_theirs(monkeypatch):
    rows = [{"id": f"{q}.{i}", "question_id": f"Q_{q}"} for q in range(12) for i in range(3)]
    seeds: list[tuple[int, int]] = []
    real = evaluate.group_folds

    def spy(sub, k=5, seed=7, group=evaluate.UNSEEN_QUESTIONS):
        seeds.append((len(sub), seed))
        return real(sub, k, seed, group)

    monkeypatch.setattr(evaluate, "group_folds", spy)
    monkeypatch.setattr(evaluate, "row_match", lambda r: evaluate.match("q?", "a b", ["a b"]))
    monkeypatch.setattr(evaluate, "is_correct", lambda r: r["id"].endswith(".0"))
    monkeypatch.setattr(evaluate, "overlap_score", lambda r: 0.5)
    evaluate.cross_validate(rows, k=3, inner_k=2, seed=3)
    assert seeds[0] == (36, 3)  # the outer folds, shuffled by the seed asked for
    assert {s for n, s in seeds[1:]} == {11}  # inner folds: fixed, whatever the outer seed
    assert evaluate.group_folds is spy
    by_seed = {s: real(rows, 3, s) for s in (3, 7)}
    assert by_seed[3] != by_seed[7]


# --- grading against notes, with no key (bench/grading.py --notes) ----------------------------


def lesson_row(qid: str, source: str, ref: str, answer: str = "An answer.") -> dict:
    return {"id": f"{qid}.1", "question_id": qid, "source_file": source, "question": "Why?",
            "reference_answer": ref, "student_answer": answer, "label_3way": "correct"}  # fmt: skip


@pytest.mark.parametrize(
    ("source", "lesson"),
    [
        ("training/3way/sciEntsBank/EM-inv1-45b.xml", "EM"),  # a SciEntsBank module
        ("training/3way/beetle/FaultFinding-BULB_C_VOLTAGE_EXPLAIN_WHY1.xml", "FaultFinding"),
        ("nodash.xml", "Q9"),  # no lesson in the name: the question is its own
    ],
)
def test_the_lesson_is_the_source_files_name_up_to_its_first_dash(source, lesson):
    assert notes_eval.lesson_of(lesson_row("Q9", source, "r")) == lesson


def test_lesson_notes_hold_the_lessons_references_with_or_without_the_cards_own():
    rows = [
        lesson_row("EM_1", "x/EM-inv1-1.xml", "Salt stays when water evaporates."),
        lesson_row("EM_1", "x/EM-inv1-1.xml", "Salt stays when water evaporates."),
        lesson_row("EM_2", "x/EM-inv2-2.xml", "A magnet attracts iron."),
        lesson_row("ME_3", "x/ME-inv1-3.xml", "Current flows in a closed circuit."),
    ]
    own = notes_eval.lesson_notes(rows)
    other = notes_eval.lesson_notes(rows, own=False)
    assert own[0] == own[2] == "Salt stays when water evaporates.\n\nA magnet attracts iron."
    assert own[3] == "Current flows in a closed circuit."  # another lesson's notes stay out
    assert other[0] == "A magnet attracts iron." and other[2] == "Salt stays when water evaporates."
    assert other[3] == ""


def test_notes_cv_grades_through_grade_and_the_shipped_rule_never_says_correct_from_notes():
    path = DATA / "beetle_3way_train.jsonl"
    if not path.exists():
        pytest.fail(f"grading data missing: {path}")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()][:900]
    res = notes_eval.notes_validate(rows, k=3, inner_k=3)
    assert set(res) == {"overlap", *notes_eval.NOTES_RULES}
    for rule in notes_eval.NOTES_RULES:  # notes are never evidence of Wrong
        assert set(res[rule]["verdicts"]) <= {"Correct", "Unsure"} and res[rule]["n"] == 900
    assert res["shipped"]["n_correct"] == 0 and res["shipped"]["coverage"] == 0.0
    # The rule before (the key's threshold) did say Correct from notes: the measurement
    # compares against something real.
    assert res["key threshold"]["n_correct"] > 0
    assert len(res["notes threshold"]["t_correct_notes"]) == 3


def test_the_bench_measures_grading_against_notes_on_the_protocols_asked_for(monkeypatch):
    bench = bench_module()
    got = []
    monkeypatch.setattr(bench, "notes_table", lambda protocols: got.append(protocols))
    bench.main(["--notes", "--protocol", "both"])
    assert got == [("questions", "answers")]


def test_rows_of_another_corpus_train_every_part_and_are_never_tested(l2_trains):
    path_a, path_b = DATA / "sciEntsBank_3way_train.jsonl", DATA / "beetle_3way_train.jsonl"
    if not (path_a.exists() and path_b.exists()):
        pytest.fail(f"grading data missing: {path_a}, {path_b}")
    seb = [json.loads(x) for x in path_a.read_text(encoding="utf-8").splitlines()][:300]
    bee = [json.loads(x) for x in path_b.read_text(encoding="utf-8").splitlines()][:200]
    res = evaluate.cross_validate(seb, k=3, inner_k=2, also=bee)
    assert res["offline"]["n"] == 300 and len(res["offline"]["verdicts"]) == 300
    folds = evaluate.group_folds(seb, 3)
    for train, fold in zip(l2_trains, folds, strict=True):
        assert set(range(300, 500)) <= set(train)  # every Beetle row trains every part
        assert not set(fold) & set(train)  # no tested row trains its own fold
