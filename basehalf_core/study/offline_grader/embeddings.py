"""Word meaning for the offline grader: static word vectors from the optional ``wordllama``.

``wordllama`` (MIT) ships its 256-dimensional token embeddings (``l2_supercat``, distilled
from large language models' input embeddings) and their tokenizer *inside* the wheel, so
nothing is downloaded at run time. Its own ``WordLlama.load()`` looks for the tokenizer under
``wordllama/tokenizer/`` while the wheel ships ``wordllama/tokenizers/``, and would then fetch
it from the Hugging Face hub; :func:`vectors` passes the package directory as the cache and
forbids downloads, so both files resolve to the shipped copies and a missing one is an error,
never a network call.

Everything here is lazy and optional: :func:`vectors` returns ``None`` when ``wordllama`` (or
numpy, which it needs) is not installed, and the grader then works from word evidence alone.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from basehalf_core.study.offline_grader.lexicon import STOP
from basehalf_core.study.offline_grader.text import stem, tokens

EMBEDDING_FEATURES = ("emb_cosine", "emb_cosine_new", "emb_align_recall", "emb_align_precision")


class WordVectors:
    """Unit word vectors (the mean of a word's sub-word token vectors), cached per word."""

    def __init__(self, table: Any, tokenizer: Any) -> None:
        import numpy as np

        self._np = np
        self._table = table
        self._tokenizer = tokenizer
        self._cache: dict[str, Any] = {}

    def word(self, w: str) -> Any:
        """The unit vector of one lower-cased word (zero when it has no tokens)."""
        v = self._cache.get(w)
        if v is None:
            ids = self._tokenizer.encode(w, add_special_tokens=False).ids
            v = self._table[ids].mean(axis=0) if ids else self._np.zeros(self._table.shape[1])
            norm = float(self._np.linalg.norm(v))
            v = v / norm if norm else v
            self._cache[w] = v
        return v

    def matrix(self, words: Sequence[str]) -> Any:
        """One row per word."""
        if not words:
            return self._np.zeros((0, self._table.shape[1]), dtype=self._np.float32)
        return self._np.stack([self.word(w) for w in words])

    def cosine(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Cosine of the mean vectors of two word lists (0 when either is empty)."""
        if not a or not b:
            return 0.0
        va, vb = self.matrix(a).mean(axis=0), self.matrix(b).mean(axis=0)
        den = float(self._np.linalg.norm(va) * self._np.linalg.norm(vb))
        return float(va @ vb) / den if den else 0.0

    def alignment(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Mean over ``b``'s words of the best cosine with any of ``a``'s words (greedy
        soft recall of ``b`` by ``a``; 0 when either is empty)."""
        if not a or not b:
            return 0.0
        sims = self.matrix(b) @ self.matrix(a).T
        return float(sims.max(axis=1).mean())


@lru_cache(maxsize=1)
def vectors() -> WordVectors | None:
    """The shipped word vectors, loaded once; ``None`` when ``wordllama`` is not installed."""
    try:
        import numpy  # noqa: F401  (wordllama needs it; absent means no embeddings)

        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        try:
            import wordllama
        finally:
            # wordllama calls logging.basicConfig(level=INFO) on import; a library must not
            # change the application's logging, so it is put back as it was.
            root.handlers[:], root.level = handlers, level
    except ImportError:
        return None
    from pathlib import Path

    package = Path(wordllama.__file__).parent
    model = wordllama.WordLlama.load(cache_dir=package, disable_download=True)
    return WordVectors(model.embedding, model.tokenizer)


def _words(text: str, leave_out: set[str] = frozenset()) -> list[str]:
    """Distinct content words of ``text`` (lower-case, unstemmed) whose stems are not left out."""
    return [w for w in dict.fromkeys(tokens(text)) if w not in STOP and stem(w) not in leave_out]


def embedding_values(
    wv: WordVectors, question: str, answer: str, references: Sequence[str]
) -> list[float]:
    """The :data:`EMBEDDING_FEATURES` of an answer, each the best over its references.

    ``emb_cosine``: content words of answer vs key; ``emb_cosine_new``: the same with the
    question's words left out of both (what the question gives away says nothing);
    ``emb_align_recall``: how closely each of the key's new words is met by some answer word;
    ``emb_align_precision``: how closely each of the answer's new words meets some key word.
    """
    q = {stem(w) for w in tokens(question)}
    a_all, a_new = _words(answer), _words(answer, q)
    best = [0.0] * len(EMBEDDING_FEATURES)
    for ref in references:
        r_all, r_new = _words(ref), _words(ref, q)
        found = [
            wv.cosine(a_all, r_all),
            wv.cosine(a_new, r_new),
            wv.alignment(a_all, r_new or r_all),
            wv.alignment(r_all, a_new),
        ]
        best = [max(x, y) for x, y in zip(best, found, strict=True)]
    return best
