"""Grading benchmarks: offline grader vs word overlap (5-fold CV), and batch grading throughput.

Run from the project root::

    .venv/bin/python bench/grading.py            # both parts
    .venv/bin/python bench/grading.py --cv       # only the cross-validation table
    .venv/bin/python bench/grading.py --batch    # only the concurrency measurement
    .venv/bin/python bench/grading.py --write-params   # refit the shipped offline weights

The data (SemEval-2013 SciEntsBank + Beetle training splits, CC BY-SA 3.0) is read from
``../shared/grading``; it is never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core import offline_grader as og  # noqa: E402

DATA = ROOT.parent / "shared" / "grading"
SPLITS = ("sciEntsBank_3way_train.jsonl", "beetle_3way_train.jsonl")
PARAMS = ROOT / "basehalf_core" / "offline_grader_params.py"


def load(name: str) -> list[dict]:
    """Rows of one split."""
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def cv_table() -> None:
    """Print 5-fold CV (folds by question) for both splits, offline grader vs overlap baseline."""
    print(
        "5-fold cross-validation, folds grouped by question (unseen questions), fit on train folds"
    )
    cols = ("acc 2-way", "F1 2-way", "acc 3-way", "F1 3-way")
    head = f"{'split':<13}{'grader':<9}" + "".join(f"{c:>10}" for c in cols)
    print(head)
    print("-" * len(head))
    for split in SPLITS:
        rows = load(split)
        t = time.perf_counter()
        res = og.cross_validate(rows, k=5)
        took = time.perf_counter() - t
        for name in ("overlap", "offline"):
            r = res[name]
            print(
                f"{split.split('_')[0]:<13}{name:<9}{r['acc_2way']:>10.3f}{r['f1_2way']:>10.3f}"
                f"{r['acc_3way']:>10.3f}{r['f1_3way']:>10.3f}"
            )
        print(f"{'':<13}(n={len(rows)}, {took:.1f} s)")


def write_params() -> None:
    """Fit on all training rows of both splits and write the shipped constants module."""
    rows = [r for split in SPLITS for r in load(split)]
    model = og.fit([og.row_features(r) for r in rows], [og.row_label(r) for r in rows])

    def fmt(values: list[float]) -> str:
        return "(" + ", ".join(f"{v:.6f}" for v in values) + ",)"

    text = (
        '"""Weights of the offline grader, fitted by ``bench/grading.py --write-params``.\n\n'
        "Derived numbers (feature means, scales, logistic-regression weights), not data.\n"
        "They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and\n"
        "Beetle), licensed CC BY-SA 3.0:\n"
        "see LICENSE.offline_grader_params.CC-BY-SA-3.0.txt beside this file.\n"
        '"""\n\n'
        f"FEATURES = {og.FEATURES!r}\n"
        f"LABELS = {og.LABELS!r}\n"
        f"TRAINED_ON = {len(rows)}\n"
        f"MEANS = {fmt(model.means)}\n"
        f"SCALES = {fmt(model.scales)}\n"
        f"FLIP_RECALL = {model.flip_recall!r}\n"
        "WEIGHTS = (\n" + "".join(f"    {fmt(row)},\n" for row in model.weights) + ")\n"
    )
    PARAMS.write_text(text, encoding="utf-8")
    print(f"wrote {PARAMS.relative_to(ROOT)} (fitted on {len(rows)} rows)")


def main(argv: list[str] | None = None) -> None:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--batch", action="store_true")
    ap.add_argument("--write-params", action="store_true")
    args = ap.parse_args(argv)
    if args.write_params:
        write_params()
        return
    both = not (args.cv or args.batch)
    if args.cv or both:
        cv_table()
    if args.batch or both:
        from bench_batch import batch_table  # type: ignore[import-not-found]

        batch_table()


if __name__ == "__main__":
    main()
