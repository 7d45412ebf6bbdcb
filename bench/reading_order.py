"""Reading order, measured: exact-match accuracy of a drag's text over the evaluation set.

For every case of tests/reading_order (a drag across a column break or around a footnote,
figure, side note, ... on a real or generated page) this prints whether basehalf's passage,
the slice of PyMuPDF's own ``get_text(..., sort=True)`` order and the slice of pdf.js's text
order (pdfjs-dist from the npm registry, run with node) read exactly what a person reads, then
the accuracy of each on the dev cases and on the held-out ones, in the same run.

Run: ``PYTHONPATH=. python bench/reading_order.py [--no-pdfjs] [--show-dev-failures]``
(the held-out cases' texts are never printed: they were kept out of sight while designing).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reading_order")]

import evalset  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-pdfjs", action="store_true", help="skip the pdf.js baseline")
    parser.add_argument("--show-dev-failures", action="store_true", help="print dev misses")
    args = parser.parse_args()
    cases = evalset.cases()
    jobs: dict[str, list[int]] = {}
    for case in cases:
        jobs.setdefault(str(evalset.path_of(case)), []).append(case["page"])
    items = None if args.no_pdfjs else evalset.pdfjs_items(jobs)
    readers = {
        "basehalf": evalset.ours,
        "pymupdf sort=True": evalset.pymupdf_sorted,
    }
    if items is not None:
        readers["pdf.js"] = lambda case: evalset.pdfjs(case, items)
    score: dict[tuple[str, str], list[bool]] = {}
    for case in cases:
        marks = []
        for name, read in readers.items():
            got = read(case)
            ok = evalset.same(got, case["expected"])
            score.setdefault((name, case["split"]), []).append(ok)
            marks.append("ok " if ok else "-- ")
            if not ok and args.show_dev_failures and case["split"] == "dev":
                print(f"  {case['id']} [{name}]\n    want {case['expected']!r}\n    got  {got!r}")
        if case["split"] == "dev":  # held-out cases show only in the totals
            print(f"{case['id']:<22} " + " ".join(marks))
    sources = {c["source"] for c in cases}
    print(
        f"\n{len(cases)} cases on {len({(c['file'], c['page']) for c in cases})} pages "
        f"from {len(sources)} sources"
    )
    print(f"{'reader':<20} {'dev':>14} {'held-out':>14} {'all':>14}")
    for name in readers:
        row = []
        for split in ("dev", "heldout", None):
            marks = [
                ok
                for (n, s), oks in score.items()
                if n == name and (split is None or s == split)
                for ok in oks
            ]
            row.append(f"{sum(marks)}/{len(marks)} {100 * sum(marks) / max(len(marks), 1):5.1f}%")
        print(f"{name:<20} {row[0]:>14} {row[1]:>14} {row[2]:>14}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
