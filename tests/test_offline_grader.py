"""The offline grader: Unsure where word evidence cannot settle it, determinism, echo, CV."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from conftest import GRADING_DATA

from basehalf_core.study import offline_grader as og
from basehalf_core.study.offline_grader import boosted, evaluate

DATA = GRADING_DATA

Q = "What happens to the current in the circuit when the resistance increases?"
KEY = "When the resistance increases, the current decreases."


def load(name: str, limit: int | None = None) -> list[dict]:
    path = DATA / name
    if not path.exists():
        pytest.fail(f"grading data missing: {path}")
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return rows[:limit] if limit else rows


def test_a_close_restatement_of_the_key_is_correct_with_its_confidence():
    g = og.grade(Q, "When the resistance increases the current decreases.", reference=KEY)
    assert g.verdict == "Correct", g
    assert g.model == "offline" and g.reason.startswith("Offline grader: Correct")
    assert g.evidence in KEY and 0.5 < g.confidence <= 1 and g.compare == ()


@pytest.mark.parametrize(
    "answer",
    ["The current increases.", "The current does not decrease.", "It goes down, I think."],
)
def test_contradicting_or_vague_answers_are_never_correct(answer):
    g = og.grade(Q, answer, reference=KEY)
    assert g.verdict != "Correct", g
    if g.verdict == "Unsure":
        assert g.compare == (KEY,)  # the learner is shown what to compare with


def test_a_negation_is_named_in_the_reason():
    q = "Why does bulb A light?"
    g = og.grade(q, "Bulb A is not in a closed path.", reference="Bulb A is in a closed path")
    assert g.verdict != "Correct" and "negation" in g.reason


def test_off_topic_answer_is_not_correct_and_unlikely():
    g = og.grade(Q, "I like the colour of the wires.", reference=KEY)
    assert g.verdict in ("Wrong", "Unsure") and g.p_correct < 0.3, g


def test_empty_answer_is_wrong():
    assert og.grade(Q, "   ", reference=KEY).verdict == "Wrong"


def test_notes_are_not_a_key_even_a_restatement_is_unsure_with_the_passage_to_compare():
    # Held out, Correct against notes was right ~70 % of the time (bench/grading.py --notes),
    # so without a key the grader says Unsure and shows the note it compared with.
    notes = (
        "Ohm's law links voltage, current and resistance.\n"
        "When the resistance increases, the current decreases. A fuse protects the wires."
    )
    g = og.grade(Q, "When the resistance increases, the current decreases.", context=notes)
    assert g.verdict == "Unsure", g
    assert g.evidence == "When the resistance increases, the current decreases."
    assert "no answer key" in g.reason and "shares" in g.reason
    assert g.compare[0] == "When the resistance increases, the current decreases."
    assert g.p_correct > 0.5  # the word evidence is reported, not turned into a verdict


def test_a_notes_threshold_in_the_policy_is_what_makes_a_notes_answer_correct():
    # The bench measures candidate thresholds for notes through grade() itself.
    notes = "When the resistance increases, the current decreases. A fuse protects the wires."
    answer = "When the resistance increases, the current decreases."
    model, policy = og.shipped()
    assert policy.t_correct_notes is None
    low = dataclasses.replace(policy, t_correct_notes=0.01)
    assert og.grade(Q, answer, context=notes, model=model, policy=low).verdict == "Correct"
    high = dataclasses.replace(policy, t_correct_notes=0.999999)
    assert og.grade(Q, answer, context=notes, model=model, policy=high).verdict == "Unsure"


def test_a_copy_of_the_note_about_the_question_is_not_called_an_echo():
    # "When it is in a closed path" answers "When does a bulb light?" without its words.
    notes = "A bulb lights when it is in a closed path with the battery. Fuses protect wires."
    g = og.grade("When does a bulb light?", "When it is in a closed path with the battery.",
                 context=notes)  # fmt: skip
    assert g.verdict == "Unsure" and "repeats note text" not in g.reason, g


def test_without_a_key_a_low_overlap_is_unsure_not_wrong():
    notes = "Ohm's law links voltage, current and resistance. A fuse protects the wires."
    g = og.grade(Q, "Less current flows, because the wire resists more.", context=notes)
    assert g.verdict == "Unsure", g
    assert g.compare and all(c in notes for c in g.compare)


def test_an_echo_of_a_note_sentence_off_the_question_is_unsure():
    notes = (
        "When the resistance increases, the current decreases. The fuse was invented by "
        "Edison in eighteen ninety. A fuse protects the wires."
    )
    echo = "The fuse was invented by Edison in eighteen ninety."
    g = og.grade(Q, echo, context=notes)
    assert g.verdict == "Unsure" and "not about what the question asks" in g.reason, g


def test_no_reference_and_no_context_is_unsure_and_said_plainly():
    g = og.grade(Q, "It decreases.")
    assert g.verdict == "Unsure" and "no answer key and no note text" in g.reason


def test_grading_is_deterministic():
    a = [og.grade(Q, t, reference=KEY) for t in ("It decreases.", "It increases.")]
    b = [og.grade(Q, t, reference=KEY) for t in ("It decreases.", "It increases.")]
    assert a == b


def test_stemmer_folds_common_inflections():
    assert og.stem("decreases") == og.stem("decreased") == og.stem("decreasing")
    assert og.stem("batteries") == og.stem("battery")
    assert og.stem("series") == "series"


def test_subject_is_the_word_after_the_wh_word():
    from basehalf_core.study.offline_grader.features import subject

    assert subject("In scaled dot-product attention, what does a query stand for?") == "query"
    assert subject("Is it on?") is None


# The goals (issue 12) are precisions of definite verdicts under grouped cross-validation,
# which is what cross_validate reports: asserted here at the goals themselves, not below them.
# The run is deterministic, so this is a regression guard on a fixed sample; the figures per
# split with n are bench/grading.py's. Sample sizes: Beetle's first 1500 rows give ~100
# Correct and ~600 Wrong verdicts (0.866 / 0.908 when written). SciEntsBank's first 1500 rows
# give only 17 Correct verdicts (P = 0.53): too few to say anything about a 0.85 goal, so
# SciEntsBank runs whole (4969 rows, ~20 s; 0.871 / 0.938 when written).
@pytest.mark.parametrize(
    ("name", "limit"),
    [("beetle_3way_train.jsonl", 1500), ("sciEntsBank_3way_train.jsonl", None)],
    ids=["beetle-1500", "scientsbank-all"],
)
def test_nested_cv_on_real_data_meets_the_precision_goals_beside_the_baseline(name, limit):
    # Questions held out by fold, thresholds chosen on inner folds only.
    rows = load(name, limit)
    res = evaluate.cross_validate(rows, k=3, inner_k=3)
    off, base = res["offline"], res["overlap"]
    assert off["n"] == base["n"] == len(rows)
    assert off["f1_2way"] > base["f1_2way"], res
    assert off["n_correct"] >= 90 and off["n_wrong"] >= 90  # enough verdicts to judge
    assert off["prec_correct"] >= evaluate.TARGET_CORRECT == 0.85, off
    assert off["prec_wrong"] >= evaluate.TARGET_WRONG == 0.90, off
    assert 0 < off["coverage"] < 1


def test_the_grader_as_shipped_keeps_the_precision_goals_and_beats_the_word_rules():
    # What grade() does with a key: the word rules' verdicts, each kept only where the
    # word-vector model's 2-way lean agrees; that lean is the 2-way decision. Same folds for
    # both models (questions held out), thresholds and lean from inner folds only; the ridge
    # is fixed at the one --write-vector-params chose (the bench chooses it per fold).
    # SciEntsBank whole, the split the 0.72 goal is about, 3 folds (when written, before the
    # key-kind products: F1 0.707 vs 0.677 word rules vs 0.628 overlap; P(Correct) 0.871 of
    # 473, P(Wrong) 0.938 of 194); the lean's vector is the shipped one (word features,
    # word-vector features, each again times one_key, which is 1 for every SciEntsBank key);
    # the figures (5 folds, both splits) are bench/grading.py's.
    from basehalf_core.study.offline_grader import model, vectors

    wv = vectors.word_vectors()
    rows = load("sciEntsBank_3way_train.jsonl")
    learner = evaluate.Learner((100.0,), numpy=True)
    refs = [r.get("reference_answers_all") or [r["reference_answer"]] for r in rows]
    extra = {}
    for r, k in zip(rows, refs, strict=True):  # the lean's vector after the word features
        words = evaluate.row_match(r).values
        values = words + vectors.grader_values(wv, r["question"], r["student_answer"], k)
        extra[r["id"]] = vectors.by_key_kind(values, k)[len(words) :]
    words = evaluate.cross_validate(rows, k=3, inner_k=3)
    both = evaluate.cross_validate(
        rows, k=3, inner_k=3, extra=lambda r: extra[r["id"]], learner=learner
    )
    lean = both["offline"]["two_way"]
    kept = [model.agree(v, t) for v, t in zip(words["offline"]["verdicts"], lean, strict=True)]
    got = evaluate.Outcome(kept, lean).report([evaluate.is_correct(r) for r in rows])
    assert got["f1_2way"] > words["offline"]["f1_2way"] > words["overlap"]["f1_2way"], got
    assert got["n_correct"] >= 90 and got["n_wrong"] >= 90
    assert got["prec_correct"] >= 0.85 and got["prec_wrong"] >= 0.90, got


def test_threshold_selection_never_sees_the_test_fold(monkeypatch):
    rows = load("sciEntsBank_3way_train.jsonl", 600)
    seen: list[int] = []
    real = evaluate.select_policy

    def spy(scores, gold, no_correct=None, sources=None):
        seen.append(len(scores))
        return real(scores, gold, no_correct, sources)

    monkeypatch.setattr(evaluate, "select_policy", spy)
    evaluate.cross_validate(rows, k=3, inner_k=2)
    folds = evaluate.group_folds(rows, 3)
    train_sizes = sorted(len(rows) - len(f) for f in folds)
    assert sorted(seen) == sorted(train_sizes * 2)  # offline and baseline, training part only


@pytest.mark.parametrize(("flagged_correct", "gate"), [(False, True), (True, False)])
def test_the_flip_gate_of_the_two_way_decision_is_chosen_on_training_scores(flagged_correct, gate):
    # 40 high-scoring answers, 10 of them flagged as a polarity flip: the gate (no Correct for
    # a flip) is kept only when the flagged answers are in fact mostly not correct.
    scores = [0.9] * 40 + [0.1] * 40
    flagged = [i < 10 for i in range(80)]
    gold = [(i < 10 and flagged_correct) or 10 <= i < 40 for i in range(80)]
    policy = evaluate.select_policy(scores, gold, flagged)
    assert policy.gate_2way is gate
    pred = [
        s >= policy.t_2way and not (policy.gate_2way and f)
        for s, f in zip(scores, flagged, strict=True)
    ]
    assert evaluate.macro_f1_2way(gold, pred) == 1.0


def test_unseen_answer_folds_split_a_question_unseen_question_folds_do_not():
    rows = load("beetle_3way_train.jsonl", 300)
    by_q = evaluate.group_folds(rows, 3)
    by_a = evaluate.group_folds(rows, 3, group=evaluate.UNSEEN_ANSWERS)
    assert sorted(i for f in by_a for i in f) == list(range(300))

    def shared_questions(folds):  # questions with answers in more than one fold
        homes: dict[str, set[int]] = {}
        for n, fold in enumerate(folds):
            for i in fold:
                homes.setdefault(rows[i]["question_id"], set()).add(n)
        return {q for q, h in homes.items() if len(h) > 1}

    assert shared_questions(by_q) == set()
    assert shared_questions(by_a)  # some question has answers in two folds


def test_shipped_weights_match_the_feature_list():
    from basehalf_core.study.offline_grader import params as p

    assert p.FEATURES == og.FEATURES
    model, policy = og.shipped()
    assert len(model.weights) == len(og.FEATURES) + 1
    assert policy.t_correct is not None and not math.isnan(policy.t_correct)


@pytest.mark.parametrize(
    ("question", "answer", "kwargs"),
    [
        (Q, "When the current increases, the resistance decreases.", {"reference": KEY}),
        (
            "What are the keys?",
            "The keys are what a position passes on, weighted by how well its value matches.",
            {
                "context": "The keys are what each position offers to be matched against a "
                "query.\nThe values are what a position passes on, weighted by how well its "
                "key matches."
            },
        ),
    ],
)
def test_an_answer_that_swaps_two_roles_is_never_correct(question, answer, kwargs):
    g = og.grade(question, answer, **kwargs)
    assert g.verdict != "Correct" and "exchanges" in g.reason, g


@pytest.mark.parametrize(
    ("answer", "reference"),
    [
        ("The light bulb will light.", "The bulb will light."),
        ("It decreases when the resistance increases.", KEY),  # a clause moved
    ],
)
def test_reordered_paraphrases_are_no_swap(answer, reference):
    from basehalf_core.study.offline_grader.features import match

    assert match("Q?", answer, [reference]).swap is None


def test_a_role_named_where_the_key_names_another_is_never_correct():
    key = "A value is the content each position passes on to the output."
    g = og.grade("What is a value?", "A key is the content each position passes on.", reference=key)
    assert g.verdict != "Correct" and "says 'key' where the answer key says 'valu'" in g.reason, g


@pytest.mark.parametrize("l2", [0.1, 1.0, 30.0])
def test_the_numpy_fit_is_the_pure_python_fit(l2):
    pytest.importorskip("numpy")
    rows = load("beetle_3way_train.jsonl", 400)
    feats = [evaluate.row_match(r).values for r in rows]
    gold = [evaluate.is_correct(r) for r in rows]
    slow = og.model.fit(feats, gold, l2=l2)
    learner = evaluate.Learner(numpy=True)
    fast = learner.fit(learner.prepare(feats), gold, l2)
    assert max(abs(a - b) for a, b in zip(slow.weights, fast.weights, strict=True)) < 1e-6
    probs = learner.score(fast, learner.prepare(feats))
    assert max(abs(p - slow.probability(f)) for p, f in zip(probs, feats, strict=True)) < 1e-9


def test_the_ridge_penalty_is_chosen_on_each_training_part_alone(l2_trains):
    pytest.importorskip("numpy")
    rows = load("sciEntsBank_3way_train.jsonl", 600)
    folds = evaluate.group_folds(rows, 3)
    learner = evaluate.Learner((0.01, 100.0), numpy=True)
    res = evaluate.cross_validate(rows, k=3, inner_k=2, learner=learner)
    assert len(l2_trains) == 3
    for train, fold in zip(l2_trains, folds, strict=True):
        assert sorted(train) == sorted(set(range(len(rows))) - set(fold))
    assert len(res["offline"]["l2"]) == 3
    assert set(res["offline"]["l2"]) <= {0.01, 100.0}


def test_log_loss_prefers_the_confident_right_answer():
    assert evaluate.log_loss([0.9, 0.1], [True, False]) < evaluate.log_loss(
        [0.6, 0.4], [True, False]
    )
    assert evaluate.log_loss([0.0], [True]) < 30  # clipped, never infinite


@pytest.mark.parametrize(
    ("verdict", "lean", "kept"),
    [
        ("Correct", True, "Correct"),
        ("Correct", False, "Unsure"),
        ("Wrong", False, "Wrong"),
        ("Wrong", True, "Unsure"),
        ("Partial", False, "Partial"),
        ("Partial", True, "Unsure"),
        ("Unsure", True, "Unsure"),
        ("Unsure", False, "Unsure"),
    ],
)
def test_a_word_rule_verdict_stands_only_where_the_lean_agrees(verdict, lean, kept):
    from basehalf_core.study.offline_grader.model import agree

    assert agree(verdict, lean) == kept


def test_boosted_trees_learn_an_interaction_a_logistic_model_cannot():
    import numpy as np

    rng = np.random.default_rng(0)
    x, xt = rng.normal(size=(600, 3)), rng.normal(size=(400, 3))
    y, yt = (x[:, 0] > 0) ^ (x[:, 1] > 0), (xt[:, 0] > 0) ^ (xt[:, 1] > 0)
    trees = boosted.fit_boosted(x, y.tolist(), depth=2, rounds=100)
    logistic = evaluate.fit_numpy(x, y.tolist(), 1.0)
    assert ((trees.probabilities(xt) >= 0.5) == yt).mean() > 0.9
    assert ((evaluate.probabilities(logistic, xt) >= 0.5) == yt).mean() < 0.65
    fewer = boosted.fit_boosted(x, y.tolist(), depth=2, rounds=40)  # a prefix of the longer fit
    assert fewer.trees == trees.trees[:40]
    learner = evaluate.Learner((1.0, ("trees", 2, 40)), numpy=True)
    assert learner.score(learner.fit(x, y.tolist(), ("trees", 2, 40)), xt) == (
        fewer.probabilities(xt).tolist()
    )


def test_a_threshold_must_reach_its_precision_in_every_source_not_only_pooled():
    # Source A: scores >= 0.5 are all correct (40). Source B: scores >= 0.5 are 60 % correct
    # (30 of 50). Pooled, 0.5 gives 70/90 = 78 %: below 0.87 anyway; at 0.8, A keeps 20 right
    # and B 20 of which 17 right (85 %): pooled 37/40 = 92.5 %, but B alone misses 0.85 + margin.
    scores, gold, src = [], [], []
    for i in range(40):  # A: correct, spread over [0.5, 1)
        scores.append(0.5 + i / 80), gold.append(True), src.append("A")
    for i in range(40):  # A: not correct, low
        scores.append(0.1 + i / 200), gold.append(False), src.append("A")
    for i in range(20):  # B, high: 17 right, 3 wrong
        scores.append(0.8 + i / 100), gold.append(i >= 3), src.append("B")
    for i in range(30):  # B, middling: mixed
        scores.append(0.5 + i / 100), gold.append(i % 2 == 0), src.append("B")
    pooled = evaluate.select_policy(scores, gold)
    each = evaluate.select_policy(scores, gold, sources=src)
    assert pooled.t_correct is not None and pooled.t_correct <= 0.8
    hits_b = [
        g for s, g, c in zip(scores, gold, src, strict=True) if c == "B" and s >= pooled.t_correct
    ]
    assert sum(hits_b) / len(hits_b) < evaluate.TARGET_CORRECT + evaluate.MARGIN
    assert each.t_correct is None or each.t_correct > pooled.t_correct
    for name in ("A", "B"):
        got = [g for s, g, c in zip(scores, gold, src, strict=True)
               if c == name and each.t_correct is not None and s >= each.t_correct]  # fmt: skip
        if len(got) >= evaluate.MIN_COUNT:
            assert sum(got) / len(got) >= evaluate.TARGET_CORRECT + evaluate.MARGIN


def test_one_source_gives_the_same_policy_as_none():
    rng = __import__("random").Random(5)
    scores = [rng.random() for _ in range(300)]
    gold = [rng.random() < s for s in scores]
    assert evaluate.select_policy(scores, gold, sources=["x"] * 300) == evaluate.select_policy(
        scores, gold
    )


@pytest.mark.parametrize(
    ("refs", "question", "shape"),
    [
        (["The current decreases."], "What happens?", [1.0, math.log1p(3), math.log1p(2)]),
        (["a b", "c d e f"], "Why?", [2.0, math.log1p(3), math.log1p(1)]),
        ([], "", [0.0, 0.0, 0.0]),
    ],
)
def test_the_keys_shape_counts_its_answers_their_length_and_the_questions(refs, question, shape):
    from basehalf_core.study.offline_grader import vectors

    assert vectors.key_shape(question, refs) == pytest.approx(shape)
