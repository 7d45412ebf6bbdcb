"""Word vectors read from the wordllama wheel's data files (the package's code never runs)."""

from __future__ import annotations

import sys

import pytest

from basehalf_core.study.offline_grader import vectors

needs_vectors = pytest.mark.skipif(
    vectors.files() is None, reason=f"{vectors.PACKAGE} is not installed (pip install wordllama)"
)

Q = "What happens to the current in the circuit when the resistance increases?"
KEY = "When the resistance increases, the current decreases."


@needs_vectors
def test_vectors_load_from_the_wheel_without_importing_wordllama():
    wv = vectors.word_vectors()
    assert wv is not None
    assert "wordllama" not in sys.modules  # only its data files were read
    v = wv.word("battery")
    assert v.shape == (vectors.DIM,)
    assert abs(float(v @ v) - 1.0) < 1e-5


@needs_vectors
def test_a_paraphrase_is_nearer_the_key_than_an_unrelated_answer():
    wv = vectors.word_vectors()
    near = vectors.values(wv, Q, "The current goes down, it gets smaller.", [KEY])
    far = vectors.values(wv, Q, "The bulb is painted blue on the outside.", [KEY])
    names = vectors.FEATURES
    for name in ("emb_cosine", "emb_cosine_new", "emb_align_recall"):
        assert near[names.index(name)] > far[names.index(name)], name


@needs_vectors
def test_the_pair_vector_is_the_product_and_gap_of_answer_and_nearest_key():
    wv = vectors.word_vectors()
    same = vectors.pair(wv, KEY, ["Something else entirely about frogs.", KEY])
    assert len(same) == len(vectors.PAIR_FEATURES) == 2 * vectors.DIM
    assert abs(sum(same[: vectors.DIM]) - 1.0) < 1e-5  # u * v summed: cosine 1 with itself
    assert max(same[vectors.DIM :]) < 1e-6  # no gap


def test_no_package_means_no_vectors(monkeypatch):
    vectors.word_vectors.cache_clear()
    monkeypatch.setattr(vectors, "PACKAGE", "no-such-distribution-basehalf")
    try:
        assert vectors.files() is None
        assert vectors.word_vectors() is None
    finally:
        vectors.word_vectors.cache_clear()
