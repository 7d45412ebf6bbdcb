"""Export and canvas for a note with thousands of dangling entries (ghost cards).

Prints the time of ``export.render_html`` and ``network.build`` for N and 3N dangling entries
and their growth (linear work grows ~3x; the old quadratic ghost placement grew ~9x).
Run: ``PYTHONPATH=. .venv/bin/python bench/dangling.py [--entries 1500]``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import export, network


def measure(n: int) -> tuple[float, float]:
    root = Path(tempfile.mkdtemp(prefix="bh-dangling-"))
    entries = "".join(f"  - g{i}\n" for i in range(n))  # short names: the list fits in 64 KiB
    (root / "hub.md").write_text(f"---\nupstream:\n{entries}---\n# hub\n")
    t = time.perf_counter()
    export.render_html(root)
    page = time.perf_counter() - t
    ws = Workspace.open(root)
    t = time.perf_counter()
    network.build(ws)
    return page, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--entries", type=int, default=1500)
    n = ap.parse_args().entries
    small, big = measure(n), measure(3 * n)
    for label, i in (("export", 0), ("canvas", 1)):
        print(
            f"{label}: {n} dangling {small[i]:.2f} s, {3 * n} dangling {big[i]:.2f} s, "
            f"growth {big[i] / max(small[i], 1e-9):.1f}x for 3x the entries"
        )


if __name__ == "__main__":
    main()
