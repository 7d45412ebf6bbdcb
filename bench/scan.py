"""Cold scan and refresh() on a generated folder of 10,000 notes.

Prints: the time to merely read every file's bytes (baseline), the cold scan
(``Workspace.open``: first without the persistent index cache, then with it, as every later
open finds it), their ratios (goal ≤ 3×), and ``refresh()`` after one file changed
(goal ≤ 50 ms) beside its own floor, one ``lstat`` of every note.
Run: ``.venv/bin/python bench/scan.py [--notes N]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from basehalf_core.folder.workspace import Workspace

NOTE = (
    """---
title: "Note {i}: scaled dot-product attention, part {i}"
upstream:
  - {a}
  - {b}
  - papers/attention-is-all-you-need.pdf
tags: [attention, transformer, week-{w}]
grown_from:
  file: papers/attention-is-all-you-need.pdf
  page: {p}
  quote: "We call our particular attention Scaled Dot-Product Attention (Figure 2)."
  prefix: "3.2.1 Scaled Dot-Product Attention "
  suffix: " The input consists of queries and keys of dimension dk"
  rects: [[108.0, 331.2, 504.1, 342.0], [108.0, 342.1, 300.5, 352.9]]
  fingerprint: "sha256:9f2c4a1e"
---
# Note {i}

> We call our particular attention Scaled Dot-Product Attention (Figure 2). (p. {p})

Own words: the dot products grow with the dimension, so they are scaled down before the softmax.
"""
    + ("More of the learner's own words on this passage. " * 12 + "\n") * 3
)


def generate(root: Path, n: int) -> list[Path]:
    (root / "papers").mkdir()
    (root / "papers" / "attention-is-all-you-need.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * 4096)
    paths = []
    for i in range(n):
        sub = root / f"week-{i % 20:02}"
        sub.mkdir(exist_ok=True)
        a = f"week-{(i - 1) % 20:02}/n{(i - 1) % n:05}.md"
        b = f"week-{(i + 7) % 20:02}/n{(i + 7) % n:05}.md"
        path = sub / f"n{i:05}.md"
        path.write_text(NOTE.format(i=i, a=a, b=b, w=i % 20, p=1 + i % 15), encoding="utf-8")
        # Notes written an hour ago, like a folder the learner opens again; fresh mtimes would
        # (rightly) keep them out of the persistent index cache.
        os.utime(path, ns=(time.time_ns() - 3600 * 10**9,) * 2)
        paths.append(path)
    return paths


def read_all(root: Path) -> int:
    total = 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            with open(os.path.join(dirpath, name), "rb") as fh:
                total += len(fh.read())
    return total


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        paths = generate(root, args.notes)
        read_all(root)  # warm the page cache for both sides alike
        cache = root / ".bh" / "cache" / "index.json"
        first = timed(lambda: (cache.unlink(missing_ok=True), Workspace.open(root)), args.repeat)
        # Interleaved with the baseline, so both see the same machine load (2 shared cores here).
        reads, scans = [], []
        for _ in range(args.repeat):
            reads += timed(lambda: read_all(root), 1)
            scans += timed(lambda: Workspace.open(root), 1)
        base, scan = statistics.median(reads), statistics.median(scans)
        ws = Workspace.open(root)
        edges = ws.graph.number_of_edges()
        refreshes, nothing, stats = [], [], []
        names = [str(p) for p in paths]
        for k in range(args.repeat * 4):
            # refresh()'s floor: without a watcher, every note must be stat'ed to see an edit.
            stats += timed(lambda: [os.lstat(p) for p in names], 1)
            nothing += timed(ws.refresh, 1)
            target = paths[(k * 37) % len(paths)]
            text = target.read_text(encoding="utf-8")
            target.write_text(text.replace("  - papers/", "  - week-00/n00000.md\n  - papers/", 1))
            t = time.perf_counter()
            changed = ws.refresh()
            refreshes.append(time.perf_counter() - t)
            assert len(changed) == 1, changed
        print(f"notes: {args.notes}, edges: {edges}, files read: {len(paths) + 1}")
        print(f"read bytes only (baseline): {base * 1000:8.1f} ms")
        cold = statistics.median(first)
        print(
            f"cold scan, no index cache:  {cold * 1000:8.1f} ms ratio {cold / base:.2f}x "
            "(parses every note, then saves .bh/cache/index.json)"
        )
        ratio = scan / base
        print(
            f"cold scan (Workspace.open): {scan * 1000:8.1f} ms ratio {ratio:.2f}x (goal <= 3x; "
            "every later open: index cache on disk)"
        )
        floor = statistics.median(stats)
        print(f"stat every note (refresh baseline): {floor * 1000:6.1f} ms")
        print(
            f"refresh(), nothing changed: {statistics.median(nothing) * 1000:8.1f} ms "
            f"ratio {statistics.median(nothing) / floor:.2f}x"
        )
        print(
            f"refresh(), one file changed: {statistics.median(refreshes) * 1000:7.1f} ms median, "
            f"{max(refreshes) * 1000:.1f} ms max, "
            f"ratio {statistics.median(refreshes) / floor:.2f}x (goal <= 50 ms)"
        )


if __name__ == "__main__":
    main()
