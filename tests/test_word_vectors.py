"""Word vectors read from the wordllama wheel's data files (the package's code never runs).

wordllama is a dependency (pyproject): these tests fail, not skip, when it is missing.
"""

from __future__ import annotations

import logging
import re
import sys

import pytest

import basehalf_core.study.offline_grader as og
from basehalf_core.study.offline_grader import features, model, params_vectors, vectors

Q = "What happens to the current in the circuit when the resistance increases?"
KEY = "When the resistance increases, the current decreases."


def test_vectors_load_from_the_wheel_without_importing_wordllama():
    wv = vectors.word_vectors()
    assert wv is not None
    assert "wordllama" not in sys.modules  # only its data files were read
    v = wv.word("battery")
    assert v.shape == (vectors.DIM,)
    assert abs(float(v @ v) - 1.0) < 1e-5


def test_a_paraphrase_is_nearer_the_key_than_an_unrelated_answer():
    wv = vectors.word_vectors()
    near = vectors.values(wv, Q, "The current goes down, it gets smaller.", [KEY])
    far = vectors.values(wv, Q, "The bulb is painted blue on the outside.", [KEY])
    names = vectors.FEATURES
    for name in ("emb_cosine", "emb_cosine_new", "emb_align_recall"):
        assert near[names.index(name)] > far[names.index(name)], name


def test_the_pair_vector_is_the_product_and_gap_of_answer_and_nearest_key():
    wv = vectors.word_vectors()
    same = vectors.pair(wv, KEY, ["Something else entirely about frogs.", KEY])
    assert len(same) == len(vectors.PAIR_FEATURES) == 2 * vectors.DIM
    assert abs(sum(same[: vectors.DIM]) - 1.0) < 1e-5  # u * v summed: cosine 1 with itself
    assert max(same[vectors.DIM :]) < 1e-6  # no gap


@pytest.fixture
def without_wordllama(monkeypatch):
    """The process as it would be with wordllama missing (caches emptied before and after)."""
    vectors.word_vectors.cache_clear()
    model.word_meaning.cache_clear()
    monkeypatch.setattr(vectors, "PACKAGE", "no-such-distribution-basehalf")
    yield
    vectors.word_vectors.cache_clear()
    model.word_meaning.cache_clear()


def test_no_package_means_no_vectors(without_wordllama):
    assert vectors.files() is None
    assert vectors.word_vectors() is None


def test_without_wordllama_the_grader_keeps_to_the_word_rules_and_says_so(
    without_wordllama, caplog
):
    with caplog.at_level(logging.WARNING):
        g = og.grade(Q, "I like the colour of the wires.", reference=KEY)
    assert g.verdict in ("Wrong", "Unsure") and "word meanings" not in g.reason, g
    said = [r.getMessage() for r in caplog.records]
    missing = vectors.PACKAGE  # the fixture's stand-in for wordllama
    assert any(f"{missing} is not installed" in m and f"pip install {missing}" in m for m in said)
    model.word_meaning.cache_clear()
    with caplog.at_level(logging.WARNING):
        again = og.grade(Q, "I like the colour of the wires.", reference=KEY)
    assert again == g  # the same verdict each time, whatever the log says


def test_the_shipped_vector_model_reads_the_features_the_grader_computes():
    base = features.FEATURES + vectors.GRADER_FEATURES
    names = vectors.key_kind_names(base)
    assert vectors.GRADER_FEATURES == (
        vectors.FEATURES + vectors.PROFILE_FEATURES + vectors.KEY_SHAPE_FEATURES
    )
    assert names[: len(base)] == base and names[len(base) :] == tuple(f"one_key*{n}" for n in base)
    assert names == params_vectors.FEATURES
    assert len(params_vectors.WEIGHTS) == len(names) + 1  # bias first
    assert len(params_vectors.MEANS) == len(params_vectors.SCALES) == len(names)
    assert 0 < params_vectors.T_2WAY < 1


@pytest.mark.parametrize(
    ("refs", "values", "expected"),
    [
        (["The current decreases."], [0.5, 2.0], [0.5, 2.0, 0.5, 2.0]),  # one answer: repeated
        (["It decreases.", "It goes down."], [0.5, 2.0], [0.5, 2.0, 0.0, 0.0]),  # several
        (["Only one."], [], []),
    ],
)
def test_the_key_kind_products_repeat_the_values_only_for_a_one_answer_key(refs, values, expected):
    got = vectors.by_key_kind(values, refs)
    assert got == expected
    assert len(got) == len(vectors.key_kind_names([f"f{i}" for i in range(len(values))]))


def test_the_lean_reads_the_key_kind_of_the_key_it_is_given(monkeypatch):
    # The same answer against the same accepted text, once as a one-answer key and once with
    # a second accepted answer that the answer does not match: the products enter only in
    # the first case, so the model sees a different vector.
    seen = []
    real = vectors.by_key_kind
    monkeypatch.setattr(vectors, "by_key_kind", lambda v, r: seen.append(real(v, r)) or seen[-1])
    m = features.match(Q, "The current goes down.", [KEY])
    model.lean(Q, "The current goes down.", [KEY], m)
    model.lean(Q, "The current goes down.", [KEY, "Frogs are green."], m)
    half = len(seen[0]) // 2
    assert seen[0][half:] == seen[0][:half]
    assert not any(seen[1][half:])


@pytest.mark.parametrize(
    ("answer", "side"),
    [
        ("I like the colour of the wires.", "not correct"),
        ("The bulb is painted blue on the outside.", "not correct"),
    ],
)
def test_an_unsure_answer_says_which_way_word_meanings_lean(answer, side):
    g = og.grade(Q, answer, reference=KEY)
    if g.verdict == "Unsure":
        said = re.search(r"it leans ([a-z ]+) \(P\(correct\) ([0-9.]+)\)\.$", g.reason)
        assert said and said[1] == side, g
        assert abs(float(said[2]) - g.p_correct) <= 0.006, g  # the P(correct) reported
        assert g.confidence == round(max(g.p_correct, 1 - g.p_correct), 3)
    else:
        assert g.verdict == "Wrong", g


def test_a_lean_towards_correct_is_not_shown_beside_a_negation():
    # "does not ... never ..." keeps the negation parity of the key, so the flip test passes
    # it; a lean towards correct would tell the learner a negated claim is probably right.
    g = og.grade(Q, "The current does not decrease and never gets smaller.", reference=KEY)
    assert g.verdict != "Correct" and "leans correct" not in g.reason, g
