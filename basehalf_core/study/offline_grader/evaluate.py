"""Measuring the offline grader on labelled data (SemEval-2013 rows), never tuning on a test fold.

:func:`cross_validate` runs grouped k-fold cross-validation (folds by question, so every test
question is unseen) for the grader and for a plain word-overlap threshold baseline, fit the same
way in the same run. Inside each training part an inner grouped cross-validation gives
out-of-fold scores, and the thresholds (:func:`select_policy`) are chosen on those alone: the
test fold is touched only to be predicted.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from basehalf_core.study.offline_grader.boosted import Boosted, fit_boosted
from basehalf_core.study.offline_grader.features import Match, match
from basehalf_core.study.offline_grader.model import Model, Policy, decide, fit
from basehalf_core.study.offline_grader.text import tokens

TARGET_CORRECT = 0.85  # precision of Correct asked for (issue 12)
TARGET_WRONG = 0.90  # precision of Wrong/Partial (the answer is indeed not correct)
# Asked of the inner folds on top of each target, so that the held-out fold keeps it (the
# shipped thresholds use this one; ``bench/grading.py --margin`` measures with another).
MARGIN = 0.02
MIN_COUNT = 20  # a threshold must keep at least this many inner answers to be believed


def is_correct(row: dict) -> bool:
    """Whether a SemEval row's gold label is ``correct``."""
    return row["original_label"] == "correct"


def row_match(row: dict) -> Match:
    """Features of a SemEval row against all of its reference answers."""
    refs = row.get("reference_answers_all") or [row["reference_answer"]]
    return match(row["question"], row["student_answer"], refs)


def overlap_score(row: dict) -> float:
    """The baseline: share of the best reference's distinct words found in the answer."""
    answer = set(tokens(row["student_answer"]))
    best = 0.0
    for ref in row.get("reference_answers_all") or [row["reference_answer"]]:
        words = set(tokens(ref))
        if words:
            best = max(best, len(words & answer) / len(words))
    return best


UNSEEN_QUESTIONS = "question_id"  # folds by question: a test fold's questions are unseen
UNSEEN_ANSWERS = "id"  # folds by answer: other answers to a test question were in training
# Folds by module (SciEntsBank's domains: FOSS science modules such as ME "magnetism and
# electricity"): a test fold's whole subject area is unseen, as in SemEval-2013's third test
# split, "unseen domains". The rows have no module field; see :func:`module_of`.
UNSEEN_DOMAINS = "module"


def module_of(row: dict) -> str:
    """The module (domain) of a SemEval row: its question id up to the first ``_``.

    SciEntsBank's question ids start with their module's code (``ME_65a``: module ME), the
    same code the row's source file starts with (``ME-inv3-65a.xml``); a question id without
    ``_`` is its own module.
    """
    return row["question_id"].split("_", 1)[0]


def domain_folds(rows: Sequence[dict], k: int = 5) -> list[list[int]]:
    """Split row indices into ``k`` folds of whole modules (:func:`module_of`).

    Fixed, not random: the largest module first, each into the fold holding the fewest rows
    so far (ties to the lowest fold), so that the folds are about the same size and the same
    rows always give the same folds.

    Raises:
        ValueError: fewer modules than folds (a fold would be empty).
    """
    sizes = Counter(module_of(r) for r in rows)
    if len(sizes) < k:
        raise ValueError(f"{len(sizes)} modules cannot fill {k} folds")
    filled = [0] * k
    fold_of: dict[str, int] = {}
    for mod in sorted(sizes, key=lambda m: (-sizes[m], m)):
        fold_of[mod] = min(range(k), key=lambda i: (filled[i], i))
        filled[fold_of[mod]] += sizes[mod]
    folds: list[list[int]] = [[] for _ in range(k)]
    for i, r in enumerate(rows):
        folds[fold_of[module_of(r)]].append(i)
    return folds


def group_folds(
    rows: Sequence[dict], k: int = 5, seed: int = 7, group: str = UNSEEN_QUESTIONS
) -> list[list[int]]:
    """Split row indices into ``k`` folds by ``group`` (by default by question, so that a
    fold's questions are unseen in training); :data:`UNSEEN_DOMAINS` gives
    :func:`domain_folds` (``seed`` unused: those folds are fixed)."""
    if group == UNSEEN_DOMAINS:
        return domain_folds(rows, k)
    keys = sorted({r[group] for r in rows})
    random.Random(seed).shuffle(keys)
    fold_of = {q: i % k for i, q in enumerate(keys)}
    folds: list[list[int]] = [[] for _ in range(k)]
    for i, r in enumerate(rows):
        folds[fold_of[r[group]]].append(i)
    return folds


def macro_f1_2way(gold: Sequence[bool], pred: Sequence[bool]) -> float:
    """Macro-F1 over correct / not correct."""
    f1s = []
    for lab in (True, False):
        tp = sum(g == lab and p == lab for g, p in zip(gold, pred, strict=True))
        fp = sum(g != lab and p == lab for g, p in zip(gold, pred, strict=True))
        fn = sum(g == lab and p != lab for g, p in zip(gold, pred, strict=True))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(f1s) / 2


def _grid(scores: Sequence[float]) -> list[float]:
    ordered = sorted(scores)
    return sorted({ordered[min(len(ordered) - 1, i * len(ordered) // 200)] for i in range(201)})


def select_policy(
    scores: Sequence[float],
    gold: Sequence[bool],
    no_correct: Sequence[bool] | None = None,
    sources: Sequence[str] | None = None,
) -> Policy:
    """Thresholds chosen on (out-of-fold) training scores only.

    ``t_2way`` maximises 2-way macro-F1 (the mean of each source's, when the rows come from
    several), with or without refusing Correct to the flagged answers (``gate_2way``,
    whichever scores higher); ``t_correct`` is the lowest threshold whose Correct verdicts
    (never those flagged ``no_correct``) reach :data:`TARGET_CORRECT` + :data:`MARGIN`
    precision, ``t_wrong`` the highest whose not-correct verdicts reach :data:`TARGET_WRONG` +
    :data:`MARGIN`; ``None`` when no threshold gets there. With ``sources`` (each row's corpus),
    a threshold must reach its precision within every source that it gives at least
    :data:`MIN_COUNT` verdicts: a pooled figure can hide one corpus far below the target, and
    a learner's data is like neither.
    """
    blocked = list(no_correct or [False] * len(scores))
    src = list(sources or [""] * len(scores))
    names = sorted(set(src))
    picks = [[i for i, s in enumerate(src) if s == name] for name in names]
    grid = _grid(scores)

    def f1(pred: list[bool]) -> float:
        if len(picks) == 1:
            return macro_f1_2way(gold, pred)
        per = [macro_f1_2way([gold[i] for i in p], [pred[i] for i in p]) for p in picks]
        return sum(per) / len(per)

    def holds(hits: list[tuple[bool, str]], right: bool, target: float) -> bool:
        if len(hits) < MIN_COUNT:
            return False
        for name in names:
            got = [g for g, s in hits if s == name]
            if len(got) >= MIN_COUNT and sum(g == right for g in got) / len(got) < target:
                return False
        return sum(g == right for g, _ in hits) / len(hits) >= target

    best_2way = (-1.0, 0.5, True)
    for gate in (True, False) if any(blocked) else (True,):
        for t in grid:
            score = f1([s >= t and not (gate and b) for s, b in zip(scores, blocked, strict=True)])
            if score > best_2way[0]:
                best_2way = (score, t, gate)
    _, t_2way, gate_2way = best_2way
    t_correct = None
    for t in grid:
        hits = [(g, c) for s, g, b, c in zip(scores, gold, blocked, src, strict=True)
                if s >= t and not b]  # fmt: skip
        if holds(hits, True, TARGET_CORRECT + MARGIN):
            t_correct = t
            break
    t_wrong = None
    for t in reversed(grid):
        hits = [(g, c) for s, g, c in zip(scores, gold, src, strict=True) if s <= t]
        if holds(hits, False, TARGET_WRONG + MARGIN):
            t_wrong = t
            break
    return Policy(t_correct, t_wrong, t_2way, gate_2way)


def calibration_error(probs: Sequence[float], gold: Sequence[bool], bins: int = 10) -> float:
    """Expected calibration error: the mean gap between P(correct) and the share correct,
    over equal-width probability bins, weighted by how many answers fall in each."""
    total, err = len(probs), 0.0
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        inside = [
            (p, g)
            for p, g in zip(probs, gold, strict=True)
            if lo <= p < hi or (b == bins - 1 and p == 1)
        ]
        if inside:
            mean_p = sum(p for p, _ in inside) / len(inside)
            share = sum(g for _, g in inside) / len(inside)
            err += len(inside) / total * abs(mean_p - share)
    return err


@dataclass
class Outcome:
    """Verdicts of one grader on one split, with what the table reports."""

    verdicts: list[str]
    two_way: list[bool]
    probs: list[float] | None = None  # held-out P(correct), for the calibration error

    def report(self, gold: Sequence[bool]) -> dict[str, float]:
        """n, 2-way macro-F1, precision and count of Correct / Wrong (+Partial), coverage."""
        out: dict[str, float] = {"n": len(gold), "f1_2way": macro_f1_2way(gold, self.two_way)}
        out["acc_2way"] = sum(a == b for a, b in zip(gold, self.two_way, strict=True)) / len(gold)
        for name, kinds, right in (
            ("correct", ("Correct",), True),
            ("wrong", ("Wrong", "Partial"), False),
        ):
            picked = [g for v, g in zip(self.verdicts, gold, strict=True) if v in kinds]
            out[f"n_{name}"] = len(picked)
            out[f"prec_{name}"] = (
                sum(g == right for g in picked) / len(picked) if picked else float("nan")
            )
        out["coverage"] = sum(v != "Unsure" for v in self.verdicts) / len(gold)
        out["ece"] = calibration_error(self.probs, gold) if self.probs else float("nan")
        return out


def baseline_verdict(score: float, policy: Policy) -> str:
    if policy.t_correct is not None and score >= policy.t_correct:
        return "Correct"
    if policy.t_wrong is not None and score <= policy.t_wrong:
        return "Wrong"
    return "Unsure"


def _oof(
    idx: Sequence[int],
    rows: Sequence[dict],
    score_fn: Callable[[list[int]], Callable[[list[int]], list[float]]],
    k: int,
    group: str = UNSEEN_QUESTIONS,
) -> dict[int, float]:
    """Out-of-fold scores for ``idx``: each part scored by a model fit on the others.

    ``score_fn(train)`` fits on the rows ``train`` and returns a scorer of a list of rows.
    """
    sub = [rows[i] for i in idx]
    out: dict[int, float] = {}
    for fold in group_folds(sub, k, seed=11, group=group):
        held = set(fold)
        scorer = score_fn([idx[j] for j in range(len(idx)) if j not in held])
        test = [idx[j] for j in fold]
        out.update(zip(test, scorer(test), strict=True))
    return out


@dataclass(frozen=True)
class Learner:
    """How P(correct) is fitted, and which ridge penalties the inner folds choose among.

    The default is the shipped lexical grader's: the pure-Python Newton fit at ``l2 = 1``.
    ``numpy=True`` fits the same model with numpy (for hundreds of features, such as the
    pair vectors of :mod:`.vectors`); with more than one penalty in ``grid``, each training
    part picks the one whose inner out-of-fold log-loss is lowest, so the test fold never
    takes part in the choice.
    """

    grid: tuple[Any, ...] = (1.0,)  # ridge penalties, or ("trees", depth, rounds)
    numpy: bool = False

    def prepare(self, feats: list[list[float]]) -> Any:
        """The feature rows in the form :meth:`fit` and :meth:`score` take."""
        if not self.numpy:
            return feats
        import numpy as np

        return np.asarray(feats, dtype=np.float64)

    def take(self, data: Any, idx: Sequence[int]) -> Any:
        """The rows ``idx`` of prepared data."""
        return data[list(idx)] if self.numpy else [data[i] for i in idx]

    def fit(self, data: Any, gold: Sequence[bool], l2: Any) -> Any:
        """Fit on prepared rows; ``l2`` a ridge penalty or ``("trees", depth, rounds)``."""
        if isinstance(l2, tuple):
            return fit_boosted(data, gold, l2[1], l2[2])
        return fit_numpy(data, gold, l2) if self.numpy else fit(data, gold, l2=l2)

    def score(self, model: Any, data: Any) -> list[float]:
        """P(correct) of prepared rows."""
        if isinstance(model, Boosted):
            return model.probabilities(data).tolist()
        if self.numpy:
            return probabilities(model, data).tolist()
        return [model.probability(v) for v in data]


LEXICAL = Learner()


def fit_numpy(x: Any, correct: Sequence[bool], l2: float = 1.0) -> Model:
    """:func:`.model.fit` in numpy: Newton's method on standardised features, ridge on the
    weights (not the bias), deterministic; for feature counts the pure-Python fit cannot take."""
    import numpy as np

    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales == 0] = 1.0
    z = np.hstack([np.ones((len(x), 1)), (x - means) / scales])
    y = np.asarray(correct, dtype=np.float64)
    ridge = np.full(z.shape[1], l2)
    ridge[0] = 0.0
    w = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-np.clip(z @ w, -30.0, 30.0)))
        grad = z.T @ (p - y) + ridge * w
        hess = (z * (p * (1.0 - p))[:, None]).T @ z + np.diag(ridge)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-7:
            break
    return Model(means.tolist(), scales.tolist(), w.tolist())


def probabilities(model: Model, x: Any) -> Any:
    """:meth:`.model.Model.probability` of many rows at once (numpy)."""
    import numpy as np

    w = np.asarray(model.weights)
    z = w[0] + ((x - np.asarray(model.means)) / np.asarray(model.scales)) @ w[1:]
    return 1.0 / (1.0 + np.exp(-np.clip(z, -30.0, 30.0)))


def log_loss(probs: Sequence[float], gold: Sequence[bool]) -> float:
    """Mean negative log-likelihood of the gold labels."""
    eps = 1e-12
    total = sum(-math.log(max(eps, p if g else 1.0 - p)) for p, g in zip(probs, gold, strict=True))
    return total / len(gold)


def choose_l2(
    train: list[int],
    rows: Sequence[dict],
    gold: Sequence[bool],
    fitter: Callable[[float], Callable[[list[int]], Callable[[list[int]], list[float]]]],
    learner: Learner,
    k: int,
    group: str,
) -> tuple[float, dict[int, float]]:
    """The penalty with the lowest inner out-of-fold log-loss, and those scores."""
    best: tuple[float, float, dict[int, float]] | None = None
    for l2 in learner.grid:
        oof = _oof(train, rows, fitter(l2), k, group)
        loss = log_loss([oof[i] for i in train], [gold[i] for i in train])
        if best is None or loss < best[0]:
            best = (loss, l2, oof)
    return best[1], best[2]


def cross_validate(
    rows: Sequence[dict],
    k: int = 5,
    inner_k: int = 3,
    group: str = UNSEEN_QUESTIONS,
    extra: Callable[[dict], list[float]] | None = None,
    learner: Learner = LEXICAL,
    seed: int = 7,
    also: Sequence[dict] = (),
) -> dict[str, dict[str, Any]]:
    """Nested grouped CV of the offline grader and the word-overlap baseline on one split.

    ``group`` says what a test fold holds out, in the outer and the inner folds alike:
    :data:`UNSEEN_QUESTIONS` (the product's case: a new card with its key),
    :data:`UNSEEN_ANSWERS` (SemEval's "unseen answers": new answers to known questions) or
    :data:`UNSEEN_DOMAINS` (SemEval's "unseen domains": whole modules held out).
    ``extra`` adds candidate features to each row's vector (``bench/grading.py --ablation``
    measures them this way before any is shipped); ``learner`` says how P(correct) is fitted
    and which ridge penalties each training part chooses among (on its inner folds);
    ``seed`` shuffles the outer folds' groups (not the fixed :data:`UNSEEN_DOMAINS` folds).
    ``also``: rows of another corpus added to every training part (never tested), as the
    shipped model is fit on both corpora.

    Returns:
        ``{"offline": report, "overlap": report}``, see :meth:`Outcome.report`.
    """
    n, tested = len(rows), rows
    rows = [*rows, *also]
    matches = [row_match(r) for r in rows]
    data = learner.prepare(
        [m.values + (extra(r) if extra else []) for m, r in zip(matches, rows, strict=True)]
    )
    base = [overlap_score(r) for r in rows]
    gold = [is_correct(r) for r in rows]
    flips = [m.flipped for m in matches]
    corpus = [r.get("corpus", "") for r in rows]
    fitter = make_fitter(learner, data, gold)

    verdicts: dict[str, list[str]] = {"offline": [""] * n, "overlap": [""] * n}
    two_way: dict[str, list[bool]] = {"offline": [False] * n, "overlap": [False] * n}
    probs = [0.0] * n
    chosen = []
    for fold in group_folds(tested, k, seed=seed, group=group):
        held = set(fold)
        train = [i for i in range(len(rows)) if i not in held]
        l2, inner = choose_l2(train, rows, gold, fitter, learner, inner_k, group)
        chosen.append(l2)
        src = [corpus[i] for i in train]
        pol = select_policy(
            [inner[i] for i in train], [gold[i] for i in train], [flips[i] for i in train], src
        )
        bpol = select_policy([base[i] for i in train], [gold[i] for i in train], sources=src)
        for i, p in zip(fold, fitter(l2)(train)(fold), strict=True):
            probs[i] = p
            verdicts["offline"][i] = decide(p, matches[i], pol)
            two_way["offline"][i] = p >= pol.t_2way and not (pol.gate_2way and flips[i])
            verdicts["overlap"][i] = baseline_verdict(base[i], bpol)
            two_way["overlap"][i] = base[i] >= bpol.t_2way
    gold = gold[:n]
    report = Outcome(verdicts["offline"], two_way["offline"], probs).report(gold)
    report["l2"], report["two_way"] = chosen, two_way["offline"]
    report["verdicts"] = verdicts["offline"]
    return {
        "offline": report,
        "overlap": Outcome(verdicts["overlap"], two_way["overlap"]).report(gold)
        | {"two_way": two_way["overlap"]},
    }


def make_fitter(
    learner: Learner, data: Any, gold: Sequence[bool]
) -> Callable[[float], Callable[[list[int]], Callable[[list[int]], list[float]]]]:
    """``fitter(l2)(train)(rows)``: fit on ``train`` at ``l2``, then score ``rows``."""

    def at(l2: float) -> Callable[[list[int]], Callable[[list[int]], list[float]]]:
        def on(train: list[int]) -> Callable[[list[int]], list[float]]:
            model = learner.fit(learner.take(data, train), [gold[i] for i in train], l2)
            return lambda idx: learner.score(model, learner.take(data, idx))

        return on

    return at


def fit_all(
    rows: Sequence[dict],
    inner_k: int = 5,
    extra: Callable[[dict], list[float]] | None = None,
    learner: Learner = LEXICAL,
) -> tuple[list, Policy, int]:
    """The shipped model: fit on every row; penalty and thresholds from out-of-fold scores
    of all rows (folds grouped by question).

    ``extra`` and ``learner`` as in :func:`cross_validate`.
    """
    matches = [row_match(r) for r in rows]
    data = learner.prepare(
        [m.values + (extra(r) if extra else []) for m, r in zip(matches, rows, strict=True)]
    )
    gold = [is_correct(r) for r in rows]
    idx = list(range(len(rows)))
    l2, oof = choose_l2(idx, rows, gold, make_fitter(learner, data, gold), learner, inner_k,
                         UNSEEN_QUESTIONS)  # fmt: skip
    flips = [m.flipped for m in matches]
    policy = select_policy([oof[i] for i in idx], gold, flips, [r.get("corpus", "") for r in rows])
    return [learner.fit(data, gold, l2)], policy, len(rows)
