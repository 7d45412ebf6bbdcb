"""The offline grader: hand-made cases, determinism, and CV on real SemEval data vs overlap."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from basehalf_core.study import offline_grader as og

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "grading"

Q = "What happens to the current in the circuit when the resistance increases?"
KEY = "When the resistance increases, the current decreases."


def load(name: str, limit: int | None = None) -> list[dict]:
    path = DATA / name
    if not path.exists():
        pytest.fail(f"grading data missing: {path}")
    with open(path, encoding="utf-8") as fh:
        rows = [json.loads(line) for line in fh]
    return rows[:limit] if limit else rows


def test_paraphrase_is_correct():
    g = og.grade(Q, "The current goes down as resistance goes up, it decreases.", reference=KEY)
    assert g.verdict == "Correct", g
    assert g.model == "offline"
    assert g.reason.startswith("Offline grader:")
    assert g.evidence in KEY


@pytest.mark.parametrize(
    "answer",
    ["The current increases.", "The current does not decrease."],
)
def test_contradicting_answer_is_wrong(answer):
    g = og.grade(Q, answer, reference=KEY)
    assert g.verdict == "Wrong", g


def test_negated_answer_is_wrong_and_the_reason_says_why():
    q = "Why does bulb A light?"
    g = og.grade(q, "Bulb A is not in a closed path.", reference="Bulb A is in a closed path")
    assert g.verdict == "Wrong"
    assert "negation" in g.reason


def test_off_topic_answer_is_not_correct():
    g = og.grade(Q, "I like the colour of the wires.", reference=KEY)
    assert g.verdict == "Wrong"


def test_empty_answer_is_wrong():
    assert og.grade(Q, "   ", reference=KEY).verdict == "Wrong"


def test_context_as_reference_picks_the_closest_sentence_verbatim_and_says_so():
    notes = (
        "Ohm's law links voltage, current and resistance.\n"
        "When the resistance increases, the current decreases. A fuse protects the wires."
    )
    g = og.grade(Q, "It decreases when resistance increases.", context=notes)
    assert g.verdict == "Correct"
    assert g.evidence == "When the resistance increases, the current decreases."
    assert g.evidence in notes
    assert "no answer key" in g.reason


def test_no_reference_and_no_context_is_said_plainly():
    g = og.grade(Q, "It decreases.")
    assert "no answer key and no note text" in g.reason


def test_grading_is_deterministic():
    a = [og.grade(Q, t, reference=KEY) for t in ("It decreases.", "It increases.")]
    b = [og.grade(Q, t, reference=KEY) for t in ("It decreases.", "It increases.")]
    assert a == b


def test_stemmer_folds_common_inflections():
    assert og.stem("decreases") == og.stem("decreased") == og.stem("decreasing")
    assert og.stem("batteries") == og.stem("battery")
    assert og.stem("series") == "series"


def test_small_cv_on_real_data_beats_word_overlap():
    # One split per corpus, questions held out by fold: a real, if small, measurement.
    rows = load("beetle_3way_train.jsonl", 1200) + load("sciEntsBank_3way_train.jsonl", 1200)
    res = og.cross_validate(rows, k=3)
    assert res["offline"]["f1_2way"] > res["overlap"]["f1_2way"], res
    assert res["offline"]["f1_3way"] > res["overlap"]["f1_3way"], res


def test_shipped_weights_match_the_feature_list():
    from basehalf_core.study import offline_grader_params as p

    assert p.FEATURES == og.FEATURES
    assert p.LABELS == og.LABELS
    m = og.shipped_model()
    assert len(m.weights) == 3 and all(len(r) == len(og.FEATURES) + 1 for r in m.weights)
