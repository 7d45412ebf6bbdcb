"""How long ``basehalf export`` takes on a large folder, against indexing the same folder.

Run: ``.venv/bin/python bench/export.py [NOTES]`` (default 1000). Prints seconds for
``Workspace.open`` (the baseline, measured in the same run), for ``export.render_html``, their
ratio, and the page size. Notes form chains of ten with a practice card per chain, so the
graph has layers and the export renders Markdown, quotes and cards.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import export


def make_folder(root: Path, notes: int) -> None:
    for i in range(notes):
        up = f"n{i - 1:05d}.md" if i % 10 else "paper.pdf"
        (root / f"n{i:05d}.md").write_text(
            f"---\nupstream:\n  - {up}\ngrown_from:\n  file: paper.pdf\n  page: {i % 15 + 1}\n"
            f'  quote: "Quote number {i} from the paper"\n---\n# Note {i}\n\n'
            f"> Quote number {i} from the paper (p. {i % 15 + 1})\n\n"
            f"Own words: note {i} explains *one* idea with `code` and a [link](n00000.md).\n",
            encoding="utf-8",
        )
        if i % 10 == 9:
            (root / f"p{i:05d}.md").write_text(
                f"---\nupstream:\n  - n{i:05d}.md\nkind: practice\n---\n# Card {i}\n\n"
                "1. What is it?\n   Answer: It is the thing.\n",
                encoding="utf-8",
            )


def timed(fn, repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    notes = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_folder(root, notes)
        base = timed(lambda: Workspace.open(root))
        html = export.render_html(root)
        spent = timed(lambda: export.render_html(root))
    print(f"notes: {notes} (+{notes // 10} practice cards)")
    print(f"Workspace.open (baseline): {base:.3f} s")
    print(f"export.render_html:        {spent:.3f} s  ({spent / base:.1f}x the baseline)")
    print(f"page size: {len(html.encode()) / 1024:.0f} KiB, one file, no external resource")


if __name__ == "__main__":
    main()
