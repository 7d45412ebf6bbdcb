"""Grading benchmarks: offline grader vs word overlap (5-fold CV), and batch grading throughput.

Run from the project root::

    .venv/bin/python bench/grading.py            # both parts (nested CV takes minutes)
    .venv/bin/python bench/grading.py --cv       # only the cross-validation table
    .venv/bin/python bench/grading.py --cv --protocol questions   # only unseen questions
    .venv/bin/python bench/grading.py --batch    # only the concurrency measurement
    .venv/bin/python bench/grading.py --ablation # candidate features, nested CV, unseen questions
    .venv/bin/python bench/grading.py --write-params   # refit the shipped offline weights

The data (SemEval-2013 SciEntsBank + Beetle training splits, CC BY-SA 3.0) is read from
``../shared/grading``; it is never copied into the repository.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.study.offline_grader import evaluate as ev  # noqa: E402
from basehalf_core.study.offline_grader import features  # noqa: E402
from basehalf_core.study.offline_grader.text import content, tokens  # noqa: E402

DATA = ROOT.parent / "shared" / "grading"
SPLITS = ("sciEntsBank_3way_train.jsonl", "beetle_3way_train.jsonl")
PARAMS = ROOT / "basehalf_core" / "study" / "offline_grader" / "params.py"


def load(name: str) -> list[dict]:
    """Rows of one split."""
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _pct(value: float) -> str:
    return "   -  " if value != value else f"{value:6.3f}"  # NaN: no such verdict given


PROTOCOLS = {"questions": ev.UNSEEN_QUESTIONS, "answers": ev.UNSEEN_ANSWERS}


def cv_table(k: int = 5, inner_k: int = 3, protocols: tuple[str, ...] = ("questions",)) -> None:
    """Nested grouped CV per split: the offline grader beside the word-overlap baseline."""
    print(
        f"{k}-fold cross-validation, with an answer key; folds grouped by question (unseen"
        " questions: the product's case) or by answer (unseen answers to known questions);"
        f"\nthresholds chosen by an inner {inner_k}-fold CV inside each training part only."
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
    for split, protocol in ((s, p) for p in protocols for s in SPLITS):
        rows = load(split)
        t = time.perf_counter()
        res = ev.cross_validate(rows, k=k, inner_k=inner_k, group=PROTOCOLS[protocol])
        took = time.perf_counter() - t
        label = f"{split.split('_')[0][:6]}/{protocol[:4]}"
        for name in ("overlap", "offline"):
            r = res[name]
            print(
                f"{label:<12}{name:<9}{r['n']:>6}{r['f1_2way']:>9.3f}"
                f"{_pct(r['prec_correct']):>8}{r['n_correct']:>6}{_pct(r['prec_wrong']):>9}"
                f"{r['n_wrong']:>7}{r['coverage']:>9.3f}{_pct(r['ece']):>7}"
            )
        print(f"{'':<12}({took:.0f} s)")


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
    return best


def _pick(by_row: dict[int, dict[str, list[float]]], group: str):
    """The ``extra`` feature function that adds one candidate group (or all, or none)."""
    if group == "shipped only":
        return None
    if group == "all candidates":
        return lambda r: [v for vs in by_row[id(r)].values() for v in vs]
    return lambda r: by_row[id(r)][group]


def ablation_table(k: int = 5, inner_k: int = 3) -> None:
    """Nested CV (unseen questions) with each candidate group added to the shipped features."""
    print(f"\nCandidate features, {k}-fold CV by question, nested as above: 2-way macro-F1")
    groups = ["shipped only", *candidates(load(SPLITS[0])[0]), "all candidates"]
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
    """Fit on all training rows of both splits and write the shipped constants module."""
    rows = [r for split in SPLITS for r in load(split)]
    (model,), policy, n = ev.fit_all(rows)

    def fmt(values) -> str:  # one item a line, as ruff format writes it
        items = [f"{v:.6f}" if isinstance(v, float) else f'"{v}"' for v in values]
        return "(\n" + "".join(f"    {i},\n" for i in items) + ")"

    text = (
        '"""Weights of the offline grader, fitted by ``bench/grading.py --write-params``.\n\n'
        "Derived numbers (feature means, scales, logistic-regression weights, thresholds), not\n"
        "data. They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and\n"
        "Beetle), licensed CC BY-SA 3.0: see LICENSE.params.CC-BY-SA-3.0.txt beside this file.\n"
        "The thresholds come from out-of-fold probabilities (folds grouped by question).\n"
        '"""\n\n'
        f"FEATURES = {fmt(features.FEATURES)}\n"
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
    PARAMS.write_text(text, encoding="utf-8")
    print(f"wrote {PARAMS.relative_to(ROOT)} (fitted on {n} rows): {policy}")


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
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--batch", action="store_true")
    ap.add_argument("--write-params", action="store_true")
    ap.add_argument("--ablation", action="store_true", help="measure candidate features")
    ap.add_argument(
        "--protocol",
        choices=(*PROTOCOLS, "both"),
        default="both",
        help="cv: hold out unseen questions, unseen answers, or both (default)",
    )
    ap.add_argument("--concurrency", type=int, default=32, help="batch: learners at once")
    ap.add_argument("--learners", type=int, default=200, help="batch: learners, concurrent run")
    ap.add_argument("--sequential", type=int, default=20, help="batch: learners, one at a time")
    args = ap.parse_args(argv)
    if args.write_params:
        write_params()
        return
    if args.ablation:
        ablation_table()
        return
    both = not (args.cv or args.batch)
    if args.cv or both:
        cv_table(protocols=tuple(PROTOCOLS) if args.protocol == "both" else (args.protocol,))
    if args.batch or both:
        batch_table(args.concurrency, args.learners, args.sequential)


if __name__ == "__main__":
    main()
