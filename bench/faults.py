"""Faults in one run: concurrent writers, SIGKILLs, and what the lock costs.

Prints:
- writers: 12 ``basehalf connect`` processes and 16 threads writing into one note each round;
  updates reported (exit 0 / True) against updates present on disk afterwards (goal: equal);
- kills: ``basehalf mv`` and ``basehalf connect`` SIGKILLed at random moments, then the next
  open checked: torn notes, files under two names, dangling entries, temp files left (goal: 0);
- the cost of one locked write (thread lock + flock + read + temp + fsync + exchange + check of
  the swapped-out bytes + folder fsync) against the same atomic write without lock and exchange
  (read + temp + fsync + compare + rename + folder fsync), same bytes (goal: ≤ 1.5×).

Run: ``PYTHONPATH=. .venv/bin/python bench/faults.py [--rounds 3] [--kills 30]``.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.folder import operations as ops  # noqa: E402
from basehalf_core.folder import writing  # noqa: E402
from basehalf_core.folder.workspace import Workspace  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
RUNNER = (
    "import sys\nfrom basehalf_cli.main import main\n"
    "print('ready', flush=True)\nsys.exit(main(sys.argv[1:]))\n"
)
BODY = "# Target\n\nThe learner's own words.\n"


def fresh(sources: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="bh-faults-"))
    for i in range(sources):
        (root / f"s{i:02}.md").write_text(f"# source {i}\n")
    (root / "target.md").write_text(f"---\ntitle: Target\n# a comment\n---\n{BODY}")
    return root


def present(root: Path) -> int:
    return len(Workspace.open(root).nodes["target.md"].store.paths)


def processes(rounds: int) -> tuple[int, int, int]:
    writers = reported = found = 0
    for _ in range(rounds):
        root = fresh(12)
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", RUNNER, "connect", str(root), f"s{i:02}.md", "target.md"],
                env=ENV,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i in range(12)
        ]
        writers += 12
        reported += sum(p.wait() == 0 for p in procs)
        found += present(root)
    return writers, reported, found


def threads(rounds: int) -> tuple[int, int, int]:
    writers = reported = found = 0
    for _ in range(rounds):
        root = fresh(16)
        ok: list[bool] = []
        barrier = threading.Barrier(16)

        def work(i: int, root: Path = root, ok: list = ok, barrier=barrier) -> None:
            ws = Workspace.open(root)
            barrier.wait()
            ok.append(ops.connect(ws, f"s{i:02}.md", "target.md"))

        pool = [threading.Thread(target=work, args=(i,)) for i in range(16)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        writers += 16
        reported += sum(ok)
        found += present(root)
    return writers, reported, found


def kill_round(root: Path, args: list[str], window: float, rng: random.Random) -> bool:
    proc = subprocess.Popen([sys.executable, "-c", RUNNER, *args], env=ENV, stdout=subprocess.PIPE)
    proc.stdout.readline()  # imports done: the kill lands in the work itself
    time.sleep(rng.uniform(0, window))
    alive = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return alive


def kills(n: int) -> dict[str, int]:
    rng = random.Random(10)
    root = Path(tempfile.mkdtemp(prefix="bh-kills-"))
    (root / "a.md").write_text("# A\n")
    for i in range(80):
        (root / f"n{i:03}.md").write_text(f"---\ntitle: N{i}\nupstream:\n  - a.md\n---\n{BODY}")
    for i in range(12):
        (root / f"s{i:02}.md").write_text(f"# source {i}\n")
    counts = {"kills": 0, "torn": 0, "two_names": 0, "dangling": 0, "temps": 0}
    for k in range(n):
        ws = Workspace.open(root)
        if k % 2:
            note = f"n{rng.randrange(80):03}.md"
            args = ["connect", str(root), f"s{rng.randrange(12):02}.md", note]
        else:
            old, new = ("b.md", "a.md") if "b.md" in ws.nodes else ("a.md", "b.md")
            args = ["mv", str(root), old, new]
        counts["kills"] += kill_round(root, args, 0.4, rng)
        ws = Workspace.open(root)  # the next open finishes or undoes what was cut short
        counts["two_names"] += {"a.md", "b.md"} <= set(ws.nodes)
        counts["dangling"] += sum(i.problem == "dangling" for i in ws.issues())
        counts["temps"] += len(list(root.rglob("*.bh-tmp")))
        for path, node in ws.nodes.items():
            if path.startswith("n") and (node.store.unreadable or ws.body(path) != BODY):
                counts["torn"] += 1
    return counts


def lock_cost(writes: int) -> tuple[float, float]:
    root = Path(tempfile.mkdtemp(prefix="bh-cost-"))
    path = root / "n.md"
    data = (BODY * 20).encode()
    path.write_bytes(data)

    def unlocked() -> None:
        # The write path before the lock: read, compare, temp, fsync, rename, fsync the folder.
        before = path.read_bytes()
        tmp = root / ".n.md.tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if path.read_bytes() != before:
            raise RuntimeError("changed")
        os.replace(tmp, path)
        fd = os.open(root, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)

    def locked() -> None:
        writing.update(root, "n.md", lambda before: data)

    # Interleaved, so both see the same disk and the same neighbours on a shared machine.
    times: dict = {unlocked: [], locked: []}
    unlocked()
    locked()
    for _ in range(writes):
        for fn in (unlocked, locked):
            t = time.perf_counter()
            fn()
            times[fn].append(time.perf_counter() - t)
    return statistics.median(times[unlocked]), statistics.median(times[locked])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kills", type=int, default=30)
    ap.add_argument("--writes", type=int, default=300)
    a = ap.parse_args()
    for name, fn in (("processes", processes), ("threads", threads)):
        w, r, f = fn(a.rounds)
        print(f"{name:>10}: writers {w}, updates reported {r}, updates present {f}")
    c = kills(a.kills)
    print(
        f"     kills: {c['kills']} (of {a.kills} runs), torn notes {c['torn']}, files under two "
        f"names {c['two_names']}, dangling entries left {c['dangling']}, temp files left "
        f"{c['temps']}"
    )
    plain, locked = lock_cost(a.writes)
    print(
        f"      lock: {locked * 1e3:.3f} ms per locked write vs {plain * 1e3:.3f} ms unlocked "
        f"(median of {a.writes}) = {locked / plain:.2f}x"
    )


if __name__ == "__main__":
    main()
