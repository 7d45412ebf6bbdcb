"""An Obsidian vault (wikilink entries, shortest names) against the same folder in plain paths.

Prints, for a generated folder of N notes in 50 folders (two upstream entries each), the
cold ``Workspace.open`` and ``refresh()`` after one file appeared, first with BaseHalf's
plain paths (baseline), then with the same links written as Obsidian writes them
(``"[[n12]]"``: no folder, no ``.md``), and the ratio (goal: about 1×, resolving a short
name is two dictionary lookups). Run: ``.venv/bin/python bench/vault.py [--notes N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from basehalf_core.folder.workspace import Workspace

FOLDERS = 50


def make(root: Path, notes: int, wiki: bool) -> None:
    for i in range(notes):
        folder = root / f"w{i % FOLDERS}"
        folder.mkdir(exist_ok=True)
        ups = [i - 1, i - 7] if i >= 7 else []
        form = "[[n{u}]]" if wiki else "w{f}/n{u}.md"
        entries = [form.format(u=u, f=u % FOLDERS) for u in ups]
        head = "".join(f'  - "{e}"\n' for e in entries)
        text = f"---\nupstream:\n{head}---\n# n{i}\n" if entries else f"# n{i}\n"
        (folder / f"n{i}.md").write_text(text, encoding="utf-8")


def measure(notes: int, wiki: bool, rounds: int) -> tuple[float, float, int]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make(root, notes, wiki)
        opens, refreshes = [], []
        for r in range(rounds):
            start = time.perf_counter()
            ws = Workspace.open(root)
            opens.append(time.perf_counter() - start)
            (root / "w0" / f"extra{r}.md").write_text("# extra\n", encoding="utf-8")
            start = time.perf_counter()
            ws.refresh()
            refreshes.append(time.perf_counter() - start)
        assert not ws.issues(), ws.issues()[:3]
        return statistics.median(opens), statistics.median(refreshes), ws.graph.number_of_edges()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    plain = measure(args.notes, False, args.rounds)
    wiki = measure(args.notes, True, args.rounds)
    assert plain[2] == wiki[2], "the two folders must give the same graph"
    print(f"notes: {args.notes}, edges: {plain[2]}, median of {args.rounds}")
    for label, (o, r, _) in (("plain paths (baseline)", plain), ("wikilinks", wiki)):
        print(f"{label:<23} open {o * 1e3:8.1f} ms, refresh (+1 file) {r * 1e3:7.1f} ms")
    ratio = f"open {wiki[0] / plain[0]:.2f}x, refresh {wiki[1] / plain[1]:.2f}x"
    print(f"{'ratio wikilinks/plain':<23} {ratio}")


if __name__ == "__main__":
    main()
