"""Reading order, measured: exact-match accuracy of a drag's text over the evaluation set.

For every case of tests/reading_order (a drag across a column break or around a footnote,
figure, side note, ... on a real or generated page) this prints whether basehalf's passage,
the slice of PyMuPDF's own ``get_text(..., sort=True)`` order and the slice of pdf.js's text
order (pdfjs-dist from the npm registry, run with node) read exactly what a person reads, then
the accuracy of each over all cases, the generated and the real pages, the dev cases, the
held-out ones, the cases written after the rule was frozen at commit b157b0e ("after-freeze":
``unseen`` + ``late``) and the "unseen" ones among them (real pages from sources never used to
tune: the honest figure for pages nobody tuned it for; ``late`` cases come from a paper that
is in ../shared/corpus, so it is not counted as unseen) and the "fresh" batch (five more sources,
written with the rule frozen at commit eacca29; "fresh2", written after the rules it led to,
frozen at 38591f4; "fresh3", frozen at cfa99a1; "fresh4", CJK pages in two columns and in
vertical tiers, frozen at dba9389; "fresh5", more CJK pages written after the rules that batch
led to, frozen at 82a8578; "fresh6", real pages from six more publishers, all CC BY, frozen
at f658fa1; "fresh7", a textbook layout with side notes (CC0), frozen at 085950c; "fresh8",
six more pages of two of fresh6's papers, frozen at 51c23f9; "fresh9", two Elsevier articles
(CC BY), frozen at ce43297), in the same run.

Run: ``PYTHONPATH=. python bench/reading_order.py [--no-pdfjs] [--show-dev-failures]
[--cases FILE]`` (the held-out and unseen cases' texts are never printed: they stay out of sight
while designing). ``--cases FILE`` measures the cases of another file of the same format instead
of the set (e.g. drags on pages whose licence keeps them out of the repository: a ``file`` may
then be an absolute path); every case's marks are printed then, never its text.
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
    parser.add_argument("--cases", type=Path, help="measure this case file instead of the set")
    args = parser.parse_args()
    cases = evalset.cases() if args.cases is None else evalset.load(args.cases)
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
    score: dict[str, list[tuple[dict, bool]]] = {name: [] for name in readers}
    spacing: dict[str, int] = {name: 0 for name in readers}  # CJK spacing aside
    for case in cases:
        marks = []
        for name, read in readers.items():
            got = read(case)
            ok = evalset.same(got, case["expected"])
            score[name].append((case, ok))
            spacing[name] += evalset.same_but_cjk_spacing(got, case["expected"])
            marks.append("ok " if ok else "-- ")
            if not ok and args.show_dev_failures and case["split"] == "dev":
                print(f"  {case['id']} [{name}]\n    want {case['expected']!r}\n    got  {got!r}")
        # held-out and after-freeze cases show only in the totals; an outside case file's
        # cases are all shown (marks only), as its figures are the point of running it
        if case["split"] == "dev" or args.cases is not None:
            print(f"{case['id']:<22} " + " ".join(marks))
    sources = {c["source"] for c in cases}
    print(
        f"\n{len(cases)} cases on {len({(c['file'], c['page']) for c in cases})} pages "
        f"from {len(sources)} sources"
    )
    columns = {
        "all": lambda c: True,
        "generated": lambda c: c["file"].startswith("generated/"),
        "real": lambda c: not c["file"].startswith("generated/"),
        "dev": lambda c: c["split"] == "dev",
        "held-out": lambda c: c["split"] == "heldout",
        "after-freeze": lambda c: c["split"] in ("unseen", "late"),
        "unseen": lambda c: c["split"] == "unseen",
        "fresh": lambda c: c["split"] == "fresh",
        "fresh2": lambda c: c["split"] == "fresh2",
        "fresh3": lambda c: c["split"] == "fresh3",
        "fresh4": lambda c: c["split"] == "fresh4",
        "fresh5": lambda c: c["split"] == "fresh5",
        "fresh6": lambda c: c["split"] == "fresh6",
        "fresh7": lambda c: c["split"] == "fresh7",
        "fresh8": lambda c: c["split"] == "fresh8",
        "fresh9": lambda c: c["split"] == "fresh9",
        "batch10": lambda c: c.get("batch") == "10",
        "batch11": lambda c: c.get("batch") == "11",
        "batch13": lambda c: c.get("batch") == "13",
        "batch17": lambda c: c.get("batch") == "17",
    }
    print(f"{'reader':<18}" + "".join(f"{k:>15}" for k in columns))
    for name in readers:
        row = []
        for keep in columns.values():
            oks = [ok for case, ok in score[name] if keep(case)]
            row.append(f"{sum(oks)}/{len(oks)} {100 * sum(oks) / max(len(oks), 1):5.1f}%")
        print(f"{name:<18}" + "".join(f"{r:>15}" for r in row))
    if any(evalset.is_cjk(ch) for c in cases for ch in c["expected"]):
        # Writers disagree whether a space the page holds beside CJK text is text: shown
        # beside the exact figure, never instead of it.
        print(
            "with spaces beside CJK characters ignored: "
            + ", ".join(f"{name} {n}/{len(cases)}" for name, n in spacing.items())
        )
    # basehalf on the after-freeze cases as first measured, with the rule frozen at the case's
    # "frozen_at" commit and before anyone looked at them (recorded in unseen.json; the
    # baselines do not change, so their figures above are already first measurements).
    batches = (
        ("after-freeze", ("unseen", "late")),
        ("unseen", ("unseen",)),
        ("fresh (frozen at eacca29)", ("fresh",)),
        ("fresh2 (frozen at 38591f4)", ("fresh2",)),
        ("fresh3 (frozen at cfa99a1)", ("fresh3",)),
        ("fresh4 (CJK, frozen at dba9389)", ("fresh4",)),
        ("fresh5 (CJK, frozen at 82a8578)", ("fresh5",)),
        ("fresh6 (frozen at f658fa1)", ("fresh6",)),
        ("fresh7 (textbook side notes, frozen at 085950c)", ("fresh7",)),
        ("fresh8 (frozen at 51c23f9)", ("fresh8",)),
        ("fresh9 (Elsevier, frozen at ce43297)", ("fresh9",)),
    )
    for label, keep in batches:
        mine = [c for c in cases if c["split"] in keep]
        if not mine or not all("first_measured" in c for c in mine):
            continue  # a batch being measured for the first time has no first figure yet
        first = [c["first_measured"] == "ok" for c in mine]
        print(
            f"basehalf on {label} cases when first measured (rule frozen, unseen by its "
            f"author): {sum(first)}/{len(first)} {100 * sum(first) / max(len(first), 1):.1f}%"
        )
    # Later batches sit in the unseen split and carry their number and freeze in the case.
    for batch in sorted({c["batch"] for c in cases if "batch" in c}, key=_batch_order):
        mine = [c for c in cases if c.get("batch") == batch]
        if not all("first_measured" in c for c in mine):
            continue  # a batch being measured for the first time has no first figure yet
        label = f"batch {batch} (frozen at {mine[0]['frozen_at']})"
        first = [c["first_measured"] == "ok" for c in mine]
        print(
            f"basehalf on {label} cases when first measured (rule frozen, unseen by its "
            f"author): {sum(first)}/{len(first)} {100 * sum(first) / max(len(first), 1):.1f}%"
        )
    return 0


def _batch_order(batch: str) -> tuple:
    """Numbered batches in their order, then any named otherwise ("ro132") by name."""
    return (0, int(batch), "") if batch.isdigit() else (1, 0, batch)


if __name__ == "__main__":
    raise SystemExit(main())
