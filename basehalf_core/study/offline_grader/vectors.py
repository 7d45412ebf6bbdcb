"""Word meaning for the offline grader: static word vectors shipped inside the ``wordllama`` wheel.

``wordllama`` (MIT) ships its vector table (``weights/l2_supercat_256.safetensors``, 32 000
token vectors of 256 numbers) and its tokenizer inside the wheel, so nothing is downloaded at
run time; its dependencies (numpy, safetensors, tokenizers, toml, pydantic, requests) carry no
torch. Only the two data files are read here, found through the installed distribution's file
list: the package's own code is never imported (its import changes the application's logging,
and its loader would look for the tokenizer under another folder name and then try the hub).

A word's vector is the mean of its sub-word token vectors, at unit length; a text's vector is
the mean of its distinct content words' vectors, at unit length. On top of four similarities
(:data:`FEATURES`), :func:`pair` gives the vectors of answer and key side by side,
``[u * v, |u - v|]``, from which a classifier learns which directions of agreement matter.

When the package (or numpy, safetensors) is missing, :func:`word_vectors` returns ``None``.
"""

from __future__ import annotations

import functools
import importlib.metadata
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from basehalf_core.study.offline_grader.lexicon import STOP
from basehalf_core.study.offline_grader.text import stem, tokens

PACKAGE = "wordllama"
WEIGHTS_FILE = "wordllama/weights/l2_supercat_256.safetensors"
TOKENIZER_FILE = "wordllama/tokenizers/l2_supercat_tokenizer_config.json"
DIM = 256

FEATURES = ("emb_cosine", "emb_cosine_new", "emb_align_recall", "emb_align_precision")
PAIR_FEATURES = tuple(f"pair_prod_{i}" for i in range(DIM)) + tuple(
    f"pair_diff_{i}" for i in range(DIM)
)


def files() -> tuple[Path, Path] | None:
    """The installed wheel's vector table and tokenizer, or ``None`` when absent."""
    try:
        dist = importlib.metadata.distribution(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return None
    weights = Path(str(dist.locate_file(WEIGHTS_FILE)))
    tokenizer = Path(str(dist.locate_file(TOKENIZER_FILE)))
    return (weights, tokenizer) if weights.is_file() and tokenizer.is_file() else None


class WordVectors:
    """Unit word vectors (the mean of a word's sub-word token vectors), cached per word."""

    def __init__(self, table: Any, tokenizer: Any) -> None:
        """Wrap a token-vector table (rows by token id) and its tokenizer."""
        import numpy as np

        self.np = np
        self._table = table
        self._tokenizer = tokenizer
        self._cache: dict[str, Any] = {}

    def word(self, w: str) -> Any:
        """The unit vector of one lower-cased word (zero when it has no tokens)."""
        v = self._cache.get(w)
        if v is None:
            ids = self._tokenizer.encode(w, add_special_tokens=False).ids
            v = self._table[ids].mean(axis=0) if ids else self.np.zeros(DIM, self.np.float32)
            norm = float(self.np.linalg.norm(v))
            v = v / norm if norm else v
            self._cache[w] = v
        return v

    def matrix(self, words: Sequence[str]) -> Any:
        """One row per word."""
        if not words:
            return self.np.zeros((0, DIM), dtype=self.np.float32)
        return self.np.stack([self.word(w) for w in words])

    def text(self, words: Sequence[str]) -> Any:
        """The unit mean vector of a word list (zero when empty)."""
        if not words:
            return self.np.zeros(DIM, dtype=self.np.float32)
        v = self.matrix(words).mean(axis=0)
        norm = float(self.np.linalg.norm(v))
        return v / norm if norm else v

    def cosine(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Cosine of the mean vectors of two word lists (0 when either is empty)."""
        return float(self.text(a) @ self.text(b)) if a and b else 0.0

    def alignment(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Mean over ``b``'s words of the best cosine with any of ``a``'s words (greedy
        soft recall of ``b`` by ``a``; 0 when either is empty)."""
        if not a or not b:
            return 0.0
        sims = self.matrix(b) @ self.matrix(a).T
        return float(sims.max(axis=1).mean())


@functools.cache
def word_vectors() -> WordVectors | None:
    """The shipped word vectors, loaded once per process; ``None`` when not installed."""
    found = files()
    if found is None:
        return None
    try:
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer
    except ImportError:
        return None
    weights, tokenizer = found
    table = load_file(str(weights))["embedding.weight"].astype(np.float32)
    return WordVectors(table, Tokenizer.from_file(str(tokenizer)))


def words(text: str, leave_out: set[str] = frozenset()) -> list[str]:
    """Distinct content words of ``text`` (lower-case, unstemmed) whose stems are not left out."""
    return [w for w in dict.fromkeys(tokens(text)) if w not in STOP and stem(w) not in leave_out]


def _best_reference(wv: WordVectors, answer: str, references: Sequence[str]) -> str:
    a_all = words(answer)
    return max(references, key=lambda r: wv.cosine(a_all, words(r)))


def values(wv: WordVectors, question: str, answer: str, references: Sequence[str]) -> list[float]:
    """The :data:`FEATURES` of an answer, each the best over its references.

    ``emb_cosine``: content words of answer vs key; ``emb_cosine_new``: the same with the
    question's words left out of both (what the question gives away says nothing);
    ``emb_align_recall``: how closely each of the key's new words is met by some answer word;
    ``emb_align_precision``: how closely each of the answer's new words meets some key word.
    """
    q = {stem(w) for w in tokens(question)}
    a_all, a_new = words(answer), words(answer, q)
    best = [0.0] * len(FEATURES)
    for ref in references:
        r_all, r_new = words(ref), words(ref, q)
        found = [
            wv.cosine(a_all, r_all),
            wv.cosine(a_new, r_new),
            wv.alignment(a_all, r_new or r_all),
            wv.alignment(r_all, a_new),
        ]
        best = [max(x, y) for x, y in zip(best, found, strict=True)]
    return best


def pair(wv: WordVectors, answer: str, references: Sequence[str]) -> list[float]:
    """:data:`PAIR_FEATURES`: ``[u * v, |u - v|]`` of the answer's text vector ``u`` and that
    of the reference nearest to it, ``v`` (a learned similarity reads these)."""
    u = wv.text(words(answer))
    v = wv.text(words(_best_reference(wv, answer, references)))
    return [*(u * v).tolist(), *abs(u - v).tolist()]


THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9)
PROFILE_FEATURES = (
    *(f"key_met_{t}" for t in THRESHOLDS),
    "key_met_min",
    *(f"answer_met_{t}" for t in THRESHOLDS),
    "answer_met_min",
    "answer_question_cosine",
    "key_question_cosine",
)


def _met(wv: WordVectors, these: Sequence[str], by: Sequence[str]) -> list[float]:
    """Shares of ``these`` words whose best cosine with some of ``by``'s words reaches each
    of :data:`THRESHOLDS`, then the worst best cosine (all 0 when either side is empty)."""
    if not these or not by:
        return [0.0] * (len(THRESHOLDS) + 1)
    best = (wv.matrix(these) @ wv.matrix(by).T).max(axis=1)
    return [float((best >= t).mean()) for t in THRESHOLDS] + [float(best.min())]


def profile(wv: WordVectors, question: str, answer: str, references: Sequence[str]) -> list[float]:
    """:data:`PROFILE_FEATURES`: how well words are matched, whatever they mean.

    Against the reference nearest to the answer: how many of the key's new words (those the
    question does not hold) some answer word comes close to, at several closeness levels, and
    the least matched one; the same for the answer's new words against the key; and how near
    the answer and the key each are to the question. None of these says which topic an answer
    is about, so what a classifier learns from them can carry over to unseen questions.
    """
    q = {stem(w) for w in tokens(question)}
    ref = _best_reference(wv, answer, references)
    a_all, a_new = words(answer), words(answer, q)
    r_all, r_new = words(ref), words(ref, q)
    q_words = words(question)
    return [
        *_met(wv, r_new or r_all, a_all),
        *_met(wv, a_new, r_all),
        wv.cosine(a_all, q_words),
        wv.cosine(r_all, q_words),
    ]


KEY_SHAPE_FEATURES = ("key_answers", "key_length", "question_length")


def key_shape(question: str, references: Sequence[str]) -> list[float]:
    """:data:`KEY_SHAPE_FEATURES`: how many answers the key accepts, their mean length and the
    question's length (log words).

    How much overlap a correct answer shows depends on what the key looks like: several short
    accepted answers (a tutor's) are met word for word far more often than one long model
    answer (a teacher's). One model fit on both kinds of key mistook each for the other
    (SciEntsBank 0.660 and Beetle 0.728 2-way macro-F1, unseen questions, against 0.699 and
    0.747 with these; ``bench/grading.py --cv --learned hist``).
    """
    mean = sum(len(tokens(r)) for r in references) / max(1, len(references))
    return [float(len(references)), math.log1p(mean), math.log1p(len(tokens(question)))]


GRADER_FEATURES = FEATURES + PROFILE_FEATURES + KEY_SHAPE_FEATURES


def grader_values(
    wv: WordVectors, question: str, answer: str, references: Sequence[str]
) -> list[float]:
    """:data:`GRADER_FEATURES`, read by the grader's word-vector model beside the word
    features (:mod:`.params_vectors`): the similarities, the alignment profile, the key's
    shape."""
    return (
        values(wv, question, answer, references)
        + profile(wv, question, answer, references)
        + key_shape(question, references)
    )


ONE_KEY = "one_key"


def key_kind_names(names: Sequence[str]) -> tuple[str, ...]:
    """The names of :func:`by_key_kind`'s values for feature ``names``."""
    return (*names, *(f"{ONE_KEY}*{n}" for n in names))


def by_key_kind(values: Sequence[float], references: Sequence[str]) -> list[float]:
    """``values``, then each again times ``one_key`` (1 when the key accepts one answer).

    A teacher's one model answer (SciEntsBank's keys, and a learner's approved key) and a
    tutor's several short accepted answers (Beetle's) are met differently by correct answers:
    with these products a linear model fit on both kinds of key can weigh the evidence
    differently for each, instead of one compromise slope (the ridge, chosen on inner folds,
    says how far they may differ). Measured: SciEntsBank 0.699 -> 0.705 and Beetle 0.747 ->
    0.760 (2-way macro-F1, unseen questions; ``bench/grading.py --cv --learned hist+kx``).
    """
    one = float(len(references) == 1)
    return [*values, *(one * v for v in values)]
