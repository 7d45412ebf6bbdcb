"""Side effects of a reading-order rule: which pages' reading order a change moves.

Dumps, for every page of a pool of real PDFs, the page's words in reading order with their
roles, to a JSON file; given two dumps, prints how many pages differ and, for each, the
words that moved or changed role (to judge by eye whether the change is an improvement).

Run: ``PYTHONPATH=. python bench/reading_order_scan.py dump OUT.json [--max-pages N] [--styles]
PDF...``
then ``PYTHONPATH=. python bench/reading_order_scan.py diff BEFORE.json AFTER.json``.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from basehalf_core.documents.document import open_document


def dump(out: Path, pdfs: list[Path], max_pages: int, styles: bool = False) -> None:
    """Write every page's ``role:word`` sequence (reading order) to ``out``; with ``styles``
    ``role:style:word`` (a drag keeps only words set like its ends, so a restyled heading
    changes what a drag reads without moving a word)."""
    pages: dict[str, list[str]] = {}
    start = time.perf_counter()
    for path in pdfs:
        try:
            doc = open_document(path)
            count = doc.page_count
        except Exception as exc:  # a broken file in the pool is skipped, not fatal
            print(f"skip {path}: {exc}", file=sys.stderr)
            continue
        for i in range(min(count, max_pages)):
            try:
                words = doc.words(i)
            except Exception as exc:
                print(f"skip {path} p{i + 1}: {exc}", file=sys.stderr)
                continue
            pages[f"{path}#{i + 1}"] = [
                f"{w.role[0]}:{w.style}:{w.text}" if styles else f"{w.role[0]}:{w.text}"
                for w in words
            ]
    out.write_text(json.dumps(pages, ensure_ascii=False))
    print(f"{len(pages)} pages in {time.perf_counter() - start:.1f} s -> {out}")


def diff(before: Path, after: Path, context: int) -> None:
    """Print the pages whose reading order or roles differ, with the words that moved."""
    a, b = json.loads(before.read_text()), json.loads(after.read_text())
    changed = [k for k in a if k in b and a[k] != b[k]]
    print(f"{len(changed)} of {len(a)} pages changed")
    for key in changed:
        print(f"\n== {key}")
        sm = difflib.SequenceMatcher(a=a[key], b=b[key], autojunk=False)
        for op, i1, i2, j1, j2 in sm.get_opcodes():
            if op == "equal":
                continue
            lo = " ".join(a[key][max(i1 - context, 0) : i1])
            print(f"  {op} after [..{lo}]")
            if i2 > i1:
                print(f"    - {' '.join(a[key][i1:i2])[:300]}")
            if j2 > j1:
                print(f"    + {' '.join(b[key][j1:j2])[:300]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("pdfs", nargs="+", type=Path)
    d.add_argument("--max-pages", type=int, default=15)
    d.add_argument("--styles", action="store_true", help="record each word's style too")
    f = sub.add_parser("diff")
    f.add_argument("before", type=Path)
    f.add_argument("after", type=Path)
    f.add_argument("--context", type=int, default=4)
    args = parser.parse_args()
    if args.cmd == "dump":
        dump(args.out, args.pdfs, args.max_pages, args.styles)
    else:
        diff(args.before, args.after, args.context)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
