"""Gradient-boosted trees in numpy, a learner the bench's inner folds may choose (``--trees``).

Measured and not shipped (the README gives the figures): kept so that ``bench/grading.py
--trees`` can be run again.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

TREE_LR = 0.1  # shrinkage of each boosted tree (fixed, not chosen)
TREE_BINS = 32  # quantile bins per feature
TREE_LEAF_L2 = 1.0  # ridge on leaf values (as in second-order boosting)
TREE_MIN_HESS = 1.0  # a split needs this much curvature (about 4+ answers) on each side


@dataclass(frozen=True)
class Boosted:
    """Gradient-boosted trees over quantile-binned features: P(correct) = sigmoid(base + lr *
    sum of the trees' leaves). A tree is a leaf value or ``(feature, bin, left, right)``,
    the rows whose bin is at most ``bin`` going left."""

    edges: tuple[Any, ...]
    base: float
    trees: tuple[Any, ...]

    def bins(self, x: Any) -> Any:
        """Each value's bin, by the training edges."""
        import numpy as np

        return np.stack(
            [np.searchsorted(e, x[:, j], side="right") for j, e in enumerate(self.edges)], axis=1
        )

    def probabilities(self, x: Any) -> Any:
        """P(correct) of many rows."""
        import numpy as np

        xb = self.bins(x)
        f = np.full(len(x), self.base)
        for tree in self.trees:
            f += TREE_LR * _tree_values(tree, xb)
        return 1.0 / (1.0 + np.exp(-np.clip(f, -30.0, 30.0)))


def _tree_values(tree: Any, xb: Any) -> Any:
    import numpy as np

    if not isinstance(tree, tuple):
        return np.full(len(xb), tree)
    j, t, left, right = tree
    go_left = xb[:, j] <= t
    out = np.empty(len(xb))
    out[go_left] = _tree_values(left, xb[go_left])
    out[~go_left] = _tree_values(right, xb[~go_left])
    return out


def _grow(xb: Any, g: Any, h: Any, rows: Any, depth: int, width: int) -> Any:
    """One regression tree on gradients ``g`` and curvatures ``h`` (second-order gain)."""
    import numpy as np

    big_g, big_h = float(g[rows].sum()), float(h[rows].sum())
    leaf = -big_g / (big_h + TREE_LEAF_L2)
    if depth == 0 or len(rows) < 2:
        return leaf
    d = xb.shape[1]
    cells = (xb[rows] + np.arange(d) * width).ravel()  # row-major: a row's d cells together
    hist_g = np.bincount(cells, np.repeat(g[rows], d), d * width).reshape(d, width).cumsum(1)
    hist_h = np.bincount(cells, np.repeat(h[rows], d), d * width).reshape(d, width).cumsum(1)
    right_g, right_h = big_g - hist_g, big_h - hist_h
    gain = (
        hist_g**2 / (hist_h + TREE_LEAF_L2)
        + right_g**2 / (right_h + TREE_LEAF_L2)
        - big_g**2 / (big_h + TREE_LEAF_L2)
    )
    gain[(hist_h < TREE_MIN_HESS) | (right_h < TREE_MIN_HESS)] = -np.inf
    j, t = np.unravel_index(int(np.argmax(gain)), gain.shape)
    if not gain[j, t] > 1e-12:
        return leaf
    go_left = xb[rows, j] <= t
    return (
        int(j),
        int(t),
        _grow(xb, g, h, rows[go_left], depth - 1, width),
        _grow(xb, g, h, rows[~go_left], depth - 1, width),
    )


_BOOSTED: dict[tuple, Boosted] = {}  # the longest fit per (data, depth): fewer rounds = a prefix


def fit_boosted(x: Any, correct: Sequence[bool], depth: int, rounds: int) -> Boosted:
    """Boost ``rounds`` trees of ``depth`` on the log-loss (numpy, deterministic)."""
    import numpy as np

    key = (x.shape, hash(x.tobytes()), hash(tuple(correct)), depth)
    done = _BOOSTED.get(key)
    if done is not None and len(done.trees) >= rounds:
        return Boosted(done.edges, done.base, done.trees[:rounds])
    qs = np.linspace(0.0, 1.0, TREE_BINS + 1)[1:-1]
    edges = tuple(np.unique(np.quantile(x[:, j], qs)) for j in range(x.shape[1]))
    model = Boosted(edges, 0.0, ())
    xb = model.bins(x)
    y = np.asarray(correct, dtype=np.float64)
    share = min(max(float(y.mean()), 1e-6), 1 - 1e-6)
    base = math.log(share / (1 - share))
    f = np.full(len(x), base)
    trees = []
    rows = np.arange(len(x))
    for _ in range(rounds):
        p = 1.0 / (1.0 + np.exp(-np.clip(f, -30.0, 30.0)))
        tree = _grow(xb, p - y, p * (1 - p), rows, depth, TREE_BINS + 1)
        f += TREE_LR * _tree_values(tree, xb)
        trees.append(tree)
    if len(_BOOSTED) > 16:
        _BOOSTED.clear()
    _BOOSTED[key] = Boosted(edges, base, tuple(trees))
    return _BOOSTED[key]
