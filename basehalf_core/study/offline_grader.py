"""The offline grader: deterministic, no network, a small logistic model over similarity cues.

It compares a learner's short answer with reference text. The reference is an answer key when
one exists, otherwise the sentences of the context (the card's upstream notes and quotes): the
closest sentence stands in for the key, and the reason says so.

Features (per answer, against the best-matching reference): stemmed content-word recall and
precision with words copied from the question weighted down, recall of the reference's *new*
words (those not in the question), extra words, two rapidfuzz similarities, negation parity
and antonym conflicts (increase/decrease, open/closed, series/parallel ...), answer length.
A 3-class multinomial logistic regression (correct / contradictory / incorrect) is fitted in
pure Python; the shipped weights live in :mod:`basehalf_core.study.offline_grader_params`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

LABELS = ("correct", "contradictory", "incorrect")
MODEL_NAME = "offline"

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "their",
        "they",
        "them",
        "he",
        "she",
        "his",
        "her",
        "we",
        "our",
        "you",
        "your",
        "i",
        "me",
        "my",
        "and",
        "or",
        "but",
        "so",
        "if",
        "then",
        "than",
        "because",
        "since",
        "which",
        "who",
        "whom",
        "what",
        "when",
        "where",
        "why",
        "how",
        "do",
        "does",
        "did",
        "done",
        "has",
        "have",
        "had",
        "having",
        "will",
        "would",
        "can",
        "could",
        "should",
        "shall",
        "may",
        "might",
        "must",
        "also",
        "just",
        "very",
        "really",
        "some",
        "any",
        "each",
        "every",
        "about",
        "into",
        "onto",
        "over",
        "under",
        "up",
        "out",
        "one",
        "both",
        "either",
        "such",
        "same",
        "other",
        "only",
        "own",
        "too",
        "s",
        "t",
        "will",
    ]
)
# Negation cues flip the meaning of a sentence; "no" and "not" also count in contractions.
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nothing",
        "nobody",
        "neither",
        "nor",
        "cannot",
        "cant",
        "dont",
        "doesnt",
        "didnt",
        "isnt",
        "arent",
        "wasnt",
        "werent",
        "wont",
        "wouldnt",
        "shouldnt",
        "couldnt",
        "without",
        "non",
    ]
)
_ANTONYM_PAIRS = [
    ("increase", "decrease"),
    ("increase", "reduce"),
    ("more", "less"),
    ("more", "fewer"),
    ("higher", "lower"),
    ("high", "low"),
    ("larger", "smaller"),
    ("bigger", "smaller"),
    ("greater", "smaller"),
    ("greater", "less"),
    ("big", "small"),
    ("large", "small"),
    ("open", "closed"),
    ("open", "close"),
    ("series", "parallel"),
    ("positive", "negative"),
    ("same", "different"),
    ("connected", "separated"),
    ("connected", "disconnected"),
    ("on", "off"),
    ("long", "short"),
    ("fast", "slow"),
    ("hot", "cold"),
    ("warm", "cold"),
    ("heavy", "light"),
    ("true", "false"),
    ("yes", "no"),
    ("conductor", "insulator"),
    ("complete", "incomplete"),
    ("attract", "repel"),
    ("absorb", "reflect"),
    ("gain", "lose"),
    ("rise", "fall"),
    ("up", "down"),
    ("expand", "contract"),
    ("before", "after"),
    ("inside", "outside"),
    ("top", "bottom"),
    ("add", "remove"),
    ("wet", "dry"),
    ("all", "none"),
    ("always", "never"),
    ("with", "without"),
    ("light", "dark"),
    ("damaged", "undamaged"),
    ("dissolve", "undissolved"),
    ("solid", "liquid"),
    ("liquid", "gas"),
    ("north", "south"),
    ("east", "west"),
    ("left", "right"),
    ("first", "last"),
    ("push", "pull"),
    ("float", "sink"),
    ("strong", "weak"),
    ("louder", "softer"),
    ("loud", "soft"),
    ("higher", "less"),
    ("contain", "lack"),
]
_IRREGULAR = {
    "was": "be",
    "were": "be",
    "is": "be",
    "are": "be",
    "has": "have",
    "had": "have",
    "did": "do",
    "does": "do",
    "went": "go",
    "gone": "go",
    "made": "make",
    "got": "get",
    "men": "man",
    "children": "child",
    "mice": "mouse",
    "feet": "foot",
    "teeth": "tooth",
    "less": "less",
    "gas": "gas",
    "gases": "gas",
    "series": "series",
    "always": "always",
    "this": "this",
    "its": "it",
    "closed": "close",
    "closing": "close",
    "closes": "close",
}


def stem(word: str) -> str:
    """A light suffix stripper (plural, -ing, -ed, -ly, -ation) good enough for short answers."""
    w = word.lower().replace("'", "")
    if w in _IRREGULAR:
        return _drop_e(_IRREGULAR[w])
    if len(w) <= 3 or _CJK.search(w):
        return w
    for suffix, repl in (
        ("ational", "ate"),
        ("ation", "ate"),
        ("ness", ""),
        ("ments", ""),
        ("ment", ""),
        ("ingly", ""),
        ("edly", ""),
        ("ing", ""),
        ("ies", "y"),
        ("ied", "y"),
        ("sses", "ss"),
        ("ed", ""),
        ("es", ""),
        ("ly", ""),
        ("s", ""),
    ):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            base = w[: len(w) - len(suffix)] + repl
            # "stopped" -> "stopp" -> "stop": collapse a doubled final consonant.
            if (
                suffix in ("ing", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] not in "lsz"
            ):
                base = base[:-1]
            if suffix in ("es",) and not w.endswith(("ches", "shes", "xes", "sses", "zes")):
                base = w[:-1]
            return _drop_e(base)
    return _drop_e(w)


def _drop_e(w: str) -> str:
    # decrease / decreased / decreasing all meet at "decreas".
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character counts as one token (no spaces to split on)."""
    out: list[str] = []
    for m in _WORD.finditer(text.lower()):
        w = m.group(0)
        if _CJK.search(w):
            out.extend(ch for ch in w if not ch.isspace())
        else:
            out.append(w)
    return out


_ANTONYMS: dict[str, set[str]] = {}
for _a, _b in _ANTONYM_PAIRS:
    _ANTONYMS.setdefault(stem(_a), set()).add(stem(_b))
    _ANTONYMS.setdefault(stem(_b), set()).add(stem(_a))


def _content(toks: Iterable[str]) -> list[str]:
    return [stem(t) for t in toks if t not in STOP and t.replace("'", "") not in NEGATIONS]


def _neg_count(toks: Iterable[str]) -> int:
    return sum(1 for t in toks if t.replace("'", "") in NEGATIONS or t.endswith("n't"))


FEATURES = (
    "recall",
    "precision",
    "recall_new",
    "extra",
    "token_set",
    "ratio",
    "negation_mismatch",
    "antonym_conflict",
    "log_length",
    "short",
    "best_recall_any",
    "polarity_flip",
)


@dataclass(frozen=True)
class Match:
    """The features of an answer against its best reference, plus what a reason needs."""

    reference: str
    values: list[float]
    shared: list[str]
    missing: list[str]
    conflict: tuple[str, str] | None


def _weights(ref_stems: Sequence[str], q_stems: set[str]) -> dict[str, float]:
    # Words the question already holds say little about what the learner knows.
    return {s: (0.35 if s in q_stems else 1.0) for s in ref_stems}


def _overlap(answer: set[str], ref: list[str], q_stems: set[str]) -> float:
    w = _weights(ref, q_stems)
    total = sum(w.values())
    if not total:
        return 0.0
    rec = sum(v for s, v in w.items() if s in answer) / total
    aw = {s: (0.35 if s in q_stems else 1.0) for s in answer}
    atot = sum(aw.values())
    prec = sum(v for s, v in aw.items() if s in w) / atot if atot else 0.0
    return 2 * rec * prec / (rec + prec) if rec + prec else 0.0


def match(question: str, answer: str, references: Sequence[str]) -> Match:
    """Compute the features of ``answer`` against the reference it overlaps most.

    Args:
        question: the question text (its words are weighted down).
        answer: the learner's answer.
        references: one or more reference texts; at least one.
    """
    q_stems = set(_content(tokens(question)))
    a_toks = tokens(answer)
    a_list = _content(a_toks)
    a_set = set(a_list)
    refs = [r for r in references if r and r.strip()] or [""]
    scored = []
    for r in refs:
        r_list = list(dict.fromkeys(_content(tokens(r))))
        scored.append((_overlap(a_set, r_list, q_stems), r, r_list))
    best_recall_any = 0.0
    for _, _, r_list in scored:
        w = _weights(r_list, q_stems)
        tot = sum(w.values())
        if tot:
            best_recall_any = max(best_recall_any, sum(v for s, v in w.items() if s in a_set) / tot)
    _, ref, r_list = max(scored, key=lambda x: x[0])
    r_set = set(r_list)
    w = _weights(r_list, q_stems)
    total = sum(w.values()) or 1.0
    recall = sum(v for s, v in w.items() if s in a_set) / total
    aw = {s: (0.35 if s in q_stems else 1.0) for s in a_set}
    precision = sum(v for s, v in aw.items() if s in r_set) / (sum(aw.values()) or 1.0)
    new = [s for s in r_list if s not in q_stems]
    recall_new = (sum(1 for s in new if s in a_set) / len(new)) if new else recall
    extra = len([s for s in a_set if s not in r_set and s not in q_stems]) / (len(a_set) or 1)
    a_norm, r_norm = " ".join(a_list), " ".join(r_list)
    token_set = fuzz.token_set_ratio(a_norm, r_norm) / 100.0
    ratio = fuzz.ratio(answer.lower(), ref.lower()) / 100.0
    r_toks = tokens(ref)
    neg_mismatch = float((_neg_count(a_toks) % 2) != (_neg_count(r_toks) % 2))
    conflict = None
    for s in sorted(a_set):
        for opp in sorted(_ANTONYMS.get(s, ())):
            # "increase" copied from the question is no conflict unless the reference's own
            # new words hold the opposite ("... the current decreases").
            if opp in r_set and opp not in a_set and (s not in r_set or opp not in q_stems):
                conflict = (s, opp)
                break
        if conflict:
            break
    values = [
        recall,
        precision,
        recall_new,
        extra,
        token_set,
        ratio,
        neg_mismatch,
        float(conflict is not None),
        math.log1p(len(a_list)),
        float(len(a_list) <= 1),
        best_recall_any,
        # "not connected to the positive terminal" == "connected to the negative terminal":
        # a negation and an antonym cancel out.
        float((int(neg_mismatch) + int(conflict is not None)) % 2),
    ]
    shared = [s for s in r_list if s in a_set]
    missing = [s for s in new if s not in a_set]
    return Match(ref, values, shared, missing, conflict)


@dataclass
class Model:
    """Standardisation and weights of a multinomial logistic regression over :data:`FEATURES`."""

    means: list[float]
    scales: list[float]
    weights: list[list[float]]  # one row per label: bias first, then one weight per feature
    # An answer that flips the reference's polarity (a negation or an antonym) while covering
    # at least this share of it is contradictory; None turns the rule off. Fitted, like the rest.
    flip_recall: float | None = None

    def predict(self, values: Sequence[float]) -> str:
        """The most probable 3-way label, after the polarity rule."""
        probs = self.probabilities(values)
        label = LABELS[max(range(len(LABELS)), key=probs.__getitem__)]
        if (
            self.flip_recall is not None
            and values[FEATURES.index("polarity_flip")]
            and values[0] >= self.flip_recall
        ):
            return "contradictory"
        return label

    def probabilities(self, values: Sequence[float]) -> list[float]:
        """Softmax probabilities over :data:`LABELS`."""
        x = [(v - m) / s for v, m, s in zip(values, self.means, self.scales, strict=True)]
        logits = [
            row[0] + sum(wi * xi for wi, xi in zip(row[1:], x, strict=True)) for row in self.weights
        ]
        top = max(logits)
        exps = [math.exp(v - top) for v in logits]
        total = sum(exps)
        return [e / total for e in exps]


def fit(
    samples: Sequence[Sequence[float]],
    labels: Sequence[str],
    *,
    epochs: int = 30,
    rate: float = 0.05,
    l2: float = 1e-4,
    balanced: bool = True,
    seed: int = 13,
) -> Model:
    """Fit the 3-class model by seeded stochastic gradient descent (deterministic).

    Args:
        samples: feature vectors (from :func:`match`).
        labels: one of :data:`LABELS` per sample.
        balanced: weight classes by inverse frequency, which favours macro-F1.
    """
    n, d = len(samples), len(FEATURES)
    means = [sum(s[j] for s in samples) / n for j in range(d)]
    scales = [math.sqrt(sum((s[j] - means[j]) ** 2 for s in samples) / n) or 1.0 for j in range(d)]
    xs = [[(s[j] - means[j]) / scales[j] for j in range(d)] for s in samples]
    ys = [LABELS.index(lab) for lab in labels]
    counts = [max(1, ys.count(k)) for k in range(len(LABELS))]
    cw = [n / (len(LABELS) * c) if balanced else 1.0 for c in counts]
    w = [[0.0] * (d + 1) for _ in LABELS]
    order = list(range(n))
    rng = random.Random(seed)
    step = 0
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            x, y = xs[i], ys[i]
            logits = [row[0] + sum(a * b for a, b in zip(row[1:], x, strict=True)) for row in w]
            top = max(logits)
            exps = [math.exp(v - top) for v in logits]
            tot = sum(exps)
            lr = rate / (1.0 + step / n)
            step += 1
            for k, row in enumerate(w):
                g = (exps[k] / tot - (1.0 if k == y else 0.0)) * cw[y]
                row[0] -= lr * g
                for j in range(d):
                    row[j + 1] -= lr * (g * x[j] + l2 * row[j + 1])
    model = Model(means, scales, w)
    best = -1.0
    for t in (None, 0.5, 0.6, 0.7, 0.8, 0.9):
        model.flip_recall = t
        f1 = scores(labels, [model.predict(s) for s in samples])["macro_f1"]
        if f1 > best + 1e-9:
            best, chosen = f1, t
    model.flip_recall = chosen
    return model


@dataclass(frozen=True)
class OfflineGrade:
    """One offline verdict. ``label3`` is the SemEval-style class behind ``verdict``."""

    verdict: str
    label3: str
    reason: str
    evidence: str
    probabilities: dict[str, float]
    model: str = MODEL_NAME


def verdict_for(label3: str, m: Match) -> str:
    """Correct / Partial / Wrong from the 3-class label; overlapping 'incorrect' is Partial."""
    if label3 == "correct":
        return "Correct"
    if label3 == "contradictory":
        return "Wrong"
    # An answer that flips the reference's polarity is not half right, whatever its overlap.
    if m.values[FEATURES.index("polarity_flip")]:
        return "Wrong"
    return "Partial" if m.values[0] >= 0.3 else "Wrong"


def shipped_model() -> Model:
    """The model fitted on all training data (see :mod:`.offline_grader_params`)."""
    from basehalf_core.study import offline_grader_params as p

    return Model(list(p.MEANS), list(p.SCALES), [list(r) for r in p.WEIGHTS], p.FLIP_RECALL)


_MODEL: Model | None = None


def _default_model() -> Model:
    global _MODEL
    if _MODEL is None:
        _MODEL = shipped_model()
    return _MODEL


# A sentence may wrap across lines, but a blank line, a heading, a list item or a quote line
# starts a new one.
_SENTENCE = re.compile(r"(?:[^.!?。！？\n]|\n(?!\s*\n|\s*[-*>#]|\s*\d+[.)]))+[.!?。！？]?")


def sentences(text: str, *, min_words: int = 3, limit: int = 400) -> list[str]:
    """Verbatim sentence slices of ``text`` with at least ``min_words`` tokens."""
    out = []
    for m in _SENTENCE.finditer(text):
        s = m.group(0).strip()
        if len(tokens(s)) >= min_words:
            out.append(s)
            if len(out) >= limit:
                break
    return out


def grade(
    question: str,
    answer: str,
    *,
    reference: str | Sequence[str] | None = None,
    context: str | None = None,
    model: Model | None = None,
) -> OfflineGrade:
    """Grade one answer offline.

    Args:
        question: the question text.
        answer: the learner's answer.
        reference: an answer key (one text or several); preferred when given.
        context: text to compare with when there is no key; its closest sentence is used.
        model: fitted weights; the shipped ones by default.

    Returns:
        An :class:`OfflineGrade` whose evidence is a verbatim slice of the reference or context.
    """
    if isinstance(reference, str):
        refs = [reference] if reference.strip() else []
    else:
        refs = [r for r in (reference or []) if r and r.strip()]
    from_context = not refs
    if from_context:
        refs = sentences(context or "")
    if not refs:
        return OfflineGrade(
            "Wrong" if not answer.strip() else "Partial",
            "incorrect",
            "Offline grader: there is no answer key and no note text to compare the answer with.",
            "",
            {},
        )
    if not answer.strip():
        return OfflineGrade("Wrong", "incorrect", "Offline grader: the answer is empty.", "", {})
    m = match(question, answer, refs)
    chosen = model or _default_model()
    probs = chosen.probabilities(m.values)
    label3 = chosen.predict(m.values)
    verdict = verdict_for(label3, m)
    return OfflineGrade(
        verdict,
        label3,
        _reason(verdict, label3, m, from_context),
        m.reference[:300],
        dict(zip(LABELS, probs, strict=True)),
    )


def _reason(verdict: str, label3: str, m: Match, from_context: bool) -> str:
    source = "the closest note passage (no answer key)" if from_context else "the answer key"
    n_shared, n_total = len(m.shared), len(m.shared) + len(m.missing)
    if m.conflict and verdict != "Correct":
        why = f"it says '{m.conflict[0]}' where {source} says '{m.conflict[1]}'"
    elif m.values[6] and verdict != "Correct":
        why = f"its negation does not match {source}"
    elif verdict == "Correct":
        why = f"it matches {source}, sharing {n_shared} of its {max(n_total, n_shared)} key terms"
    elif verdict == "Partial":
        gap = ", ".join(m.missing[:3])
        why = f"it overlaps {source} but misses key terms ({gap or 'detail'})"
    else:
        why = f"it shares little with {source} ({n_shared} of {max(n_total, n_shared)} key terms)"
    return f"Offline grader: {verdict} because {why}."


# --- evaluation on labelled data (used by bench/grading.py and the tests) -------------------


def row_label(row: dict) -> str:
    """The 3-way gold label of a SemEval row: correct | contradictory | incorrect."""
    return row["original_label"]


def row_features(row: dict) -> list[float]:
    """Features of a SemEval row against all of its reference answers."""
    refs = row.get("reference_answers_all") or [row["reference_answer"]]
    return match(row["question"], row["student_answer"], refs).values


def group_folds(rows: Sequence[dict], k: int = 5, seed: int = 7) -> list[list[int]]:
    """Split row indices into ``k`` folds by question: a fold's questions are unseen in training."""
    qids = sorted({r["question_id"] for r in rows})
    random.Random(seed).shuffle(qids)
    fold_of = {q: i % k for i, q in enumerate(qids)}
    folds: list[list[int]] = [[] for _ in range(k)]
    for i, r in enumerate(rows):
        folds[fold_of[r["question_id"]]].append(i)
    return folds


def predict3(model: Model, values: Sequence[float]) -> str:
    """The most probable 3-way label."""
    return model.predict(values)


def scores(gold: Sequence[str], pred: Sequence[str]) -> dict[str, float]:
    """Accuracy and macro-F1 over the labels present in ``gold``."""
    labels = sorted(set(gold))
    acc = sum(g == p for g, p in zip(gold, pred, strict=True)) / len(gold)
    f1s = []
    for lab in labels:
        tp = sum(g == lab and p == lab for g, p in zip(gold, pred, strict=True))
        fp = sum(g != lab and p == lab for g, p in zip(gold, pred, strict=True))
        fn = sum(g == lab and p != lab for g, p in zip(gold, pred, strict=True))
        f1s.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return {"accuracy": acc, "macro_f1": sum(f1s) / len(f1s)}


def two_way(labels: Sequence[str]) -> list[str]:
    """Collapse 3-way labels to correct / not."""
    return ["correct" if lab == "correct" else "not" for lab in labels]


def overlap_baseline_score(row: dict) -> float:
    """Plain word overlap: share of the best reference's distinct words found in the answer."""
    answer = set(tokens(row["student_answer"]))
    best = 0.0
    for ref in row.get("reference_answers_all") or [row["reference_answer"]]:
        words = set(tokens(ref))
        if words:
            best = max(best, len(words & answer) / len(words))
    return best


def fit_baseline(values: Sequence[float], labels: Sequence[str]) -> tuple[float, float]:
    """Thresholds (lo, hi): >= hi correct, < lo contradictory, else incorrect; best macro-F1."""
    grid = [i / 20 for i in range(21)]
    best, best_t = -1.0, (0.0, 0.5)
    for hi in grid:
        for lo in [g for g in grid if g <= hi]:
            pred = [baseline_label(v, (lo, hi)) for v in values]
            s = scores(labels, pred)["macro_f1"]
            if s > best:
                best, best_t = s, (lo, hi)
    return best_t


def baseline_label(value: float, thresholds: tuple[float, float]) -> str:
    """The baseline's 3-way label for one overlap value."""
    lo, hi = thresholds
    if value >= hi:
        return "correct"
    return "contradictory" if value < lo else "incorrect"


def cross_validate(rows: Sequence[dict], k: int = 5, **fit_args) -> dict[str, dict[str, float]]:
    """k-fold CV (folds by question) of this grader and of the word-overlap baseline.

    Every fitted number (standardisation, weights, baseline thresholds) comes from the
    training folds only.

    Returns:
        ``{"offline": {...}, "overlap": {...}}`` each with accuracy/macro-F1 for 2-way and 3-way.
    """
    feats = [row_features(r) for r in rows]
    base = [overlap_baseline_score(r) for r in rows]
    gold = [row_label(r) for r in rows]
    pred_o = [""] * len(rows)
    pred_b = [""] * len(rows)
    for fold in group_folds(rows, k):
        held = set(fold)
        train = [i for i in range(len(rows)) if i not in held]
        model = fit([feats[i] for i in train], [gold[i] for i in train], **fit_args)
        thr = fit_baseline([base[i] for i in train], [gold[i] for i in train])
        for i in fold:
            pred_o[i] = predict3(model, feats[i])
            pred_b[i] = baseline_label(base[i], thr)
    out = {}
    for name, pred in (("offline", pred_o), ("overlap", pred_b)):
        s3 = scores(gold, pred)
        s2 = scores(two_way(gold), two_way(pred))
        out[name] = {
            "acc_2way": s2["accuracy"],
            "f1_2way": s2["macro_f1"],
            "acc_3way": s3["accuracy"],
            "f1_3way": s3["macro_f1"],
        }
    return out
