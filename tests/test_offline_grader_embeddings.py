"""The offline grader's optional word vectors (wordllama): used when installed, never needed.

Without ``wordllama`` the grader grades from word evidence with the word-only weights; with
it, the shipped vectors load from inside the package (no network) and a paraphrase that shares
no word with the key is still recognised as close.
"""

from __future__ import annotations

import logging
import socket
import sys

import pytest

from basehalf_core.study import offline_grader as og
from basehalf_core.study.offline_grader import embeddings, model
from basehalf_core.study.offline_grader import params as p

Q = "What happens to the water left in an open dish in the sun?"
KEY = "The water evaporates."


@pytest.fixture
def fresh(monkeypatch):
    """Forget the loaded vectors and the chosen shipped model, before and after the test."""
    embeddings.vectors.cache_clear()
    monkeypatch.setattr(model, "_SHIPPED", None)
    yield
    embeddings.vectors.cache_clear()


@pytest.fixture
def without_wordllama(fresh, monkeypatch):
    monkeypatch.setitem(sys.modules, "wordllama", None)  # `import wordllama` raises ImportError


def test_without_wordllama_the_grader_grades_with_word_features_alone(without_wordllama):
    assert embeddings.vectors() is None
    g = og.grade(Q, "The water evaporates into the air.", reference=KEY)
    assert g.verdict == "Correct"
    words, policy = og.shipped(embeddings=False)
    m = og.match(Q, "The water evaporates into the air.", [KEY])
    assert g.p_correct == round(words.probability(m.values), 3)
    assert model._default() == (words, policy)


def test_a_word_vector_model_without_wordllama_says_what_to_install(without_wordllama):
    vec_model, policy = og.shipped(embeddings=True)
    with pytest.raises(RuntimeError, match=r"wordllama is not installed.*basehalf\[embeddings\]"):
        og.grade(Q, "It dries up.", reference=KEY, model=vec_model, policy=policy)


def test_both_shipped_models_match_their_feature_lists():
    assert p.EMB_FEATURES == og.FEATURES + embeddings.EMBEDDING_FEATURES
    for use, names in ((False, og.FEATURES), (True, p.EMB_FEATURES)):
        m, policy = og.shipped(embeddings=use)
        assert len(m.weights) == len(names) + 1 == len(m.means) + 1
        assert policy.t_correct is not None and policy.t_wrong is not None


def test_word_vectors_load_from_the_package_with_no_network_and_leave_logging_alone(
    fresh, monkeypatch
):
    pytest.importorskip("wordllama")

    def refuse(*args, **kwargs):
        raise AssertionError(f"network used: {args!r}")

    for name in ("create_connection", "getaddrinfo"):
        monkeypatch.setattr(socket, name, refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("HOME", "/nonexistent")  # no ~/.cache/wordllama to fall back on
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    wv = embeddings.vectors()
    assert wv is not None
    assert (list(root.handlers), root.level) == before  # wordllama's basicConfig undone
    assert wv.word("evaporates").shape == (256,)


@pytest.mark.parametrize(
    ("close", "far"),
    [
        ("It dries up and turns into vapour.", "It gets hotter."),
        ("The liquid goes into the air as a gas.", "The dish breaks."),
    ],
)
def test_a_paraphrase_with_other_words_is_closer_to_the_key_than_an_unrelated_answer(
    fresh, close, far
):
    pytest.importorskip("wordllama")
    wv = embeddings.vectors()
    near = embeddings.embedding_values(wv, Q, close, [KEY])
    away = embeddings.embedding_values(wv, Q, far, [KEY])
    assert all(a > b for a, b in zip(near, away, strict=True)), (near, away)


def test_question_words_do_not_count_as_meaning_shared_with_the_key(fresh):
    pytest.importorskip("wordllama")
    wv = embeddings.vectors()
    # Copying the question says nothing new: its words are left out of the "new" features.
    echo = embeddings.embedding_values(wv, Q, "The water is left in an open dish.", [KEY])
    names = embeddings.EMBEDDING_FEATURES
    assert echo[names.index("emb_cosine_new")] == 0.0
    assert echo[names.index("emb_align_precision")] == 0.0


@pytest.mark.parametrize(
    ("answer", "closer"),
    [
        ("It dries up and turns into vapour.", True),
        ("The liquid goes into the air as a gas.", True),
        ("The dish breaks.", False),
        ("It freezes.", False),
    ],
)
def test_with_wordllama_the_shipped_grader_weighs_meaning_not_only_words(fresh, answer, closer):
    pytest.importorskip("wordllama")
    vec_model, _ = model._default()
    assert len(vec_model.means) == len(p.EMB_FEATURES)  # the vectors are used when installed
    words, word_policy = og.shipped(embeddings=False)
    with_vectors = og.grade(Q, answer, reference=KEY).p_correct
    plain = og.grade(Q, answer, reference=KEY, model=words, policy=word_policy).p_correct
    # None of these shares a content word with the key but "water": word evidence cannot tell
    # a paraphrase from a wrong answer, the vectors move them apart.
    assert (with_vectors > plain) == closer, (with_vectors, plain)
