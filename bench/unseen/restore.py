"""Put back the PDFs the unseen batches' drags were written on, from fetched repositories.

The PDFs stay out of the repository (their licences); each case names where its file came
from (``origin``: repository, commit, path). Fetch each repository with the session's
``fetch`` tool first (it lands under ``/work/.mirror/owner+name/repo``), then run:
``python bench/unseen/restore.py [MIRROR]`` and measure a batch with
``PYTHONPATH=. python bench/reading_order.py --cases bench/unseen/ro214-cases.json``.
A file already in place is left alone; one whose repository is not fetched is named.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    mirror = Path(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror")
    missing = 0
    for cases in sorted(HERE.glob("ro*-cases.json")):
        done: set[str] = set()
        for case in json.loads(cases.read_text(encoding="utf-8")):
            target, origin = Path(case["file"]), case["origin"]
            if case["file"] in done or target.exists():
                continue
            done.add(case["file"])
            git = mirror / origin["repo"].replace("/", "+") / "repo"
            if not git.exists():
                print(f"{cases.name}: fetch github:{origin['repo']} for {target.name}")
                missing += 1
                continue
            blob = f"{origin['commit']}:{origin['path']}"
            data = subprocess.run(
                ["git", f"--git-dir={git}", "show", blob], capture_output=True, check=True
            ).stdout
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            print(f"{cases.name}: {target}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
