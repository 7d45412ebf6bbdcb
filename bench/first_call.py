"""First model call latency: cold (litellm imported on the click) vs after ``llm.warm_up()``.

Each figure comes from a fresh interpreter against a loopback OpenAI-compatible server that
answers at once, so what is measured is what the learner's first click costs on top of the
model's own time. Run from the project root::

    .venv/bin/python bench/first_call.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
from basehalf_core.study import llm
warm = {warm}
if warm:
    llm.warm_up().join()  # app start: the import runs while the learner reads
cfg = llm.ModelConfig("openai/bench", "http://127.0.0.1:{port}/v1", timeout=30, json_schema=False)
t = time.perf_counter()
llm.complete(cfg, [{{"role": "user", "content": "hi"}}])
print(time.perf_counter() - t)
"""


def measure(warm: bool, port: int) -> float:
    """Seconds of the first call in a fresh interpreter."""
    code = CHILD.format(root=str(ROOT), warm=warm, port=port)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Print cold and warmed first-call latency and the time added by the cold import."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "openai_server.py"), "--delay", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    port = int(proc.stdout.readline())
    try:
        cold = [measure(False, port) for _ in range(3)]
        warm = [measure(True, port) for _ in range(3)]
    finally:
        proc.terminate()
        proc.wait()
    c, w = sorted(cold)[1], sorted(warm)[1]
    print("first model call (median of 3 fresh interpreters, loopback server answering at once)")
    print(f"cold (litellm imported on the click): {c:.2f} s")
    print(f"after llm.warm_up() at app start:     {w:.2f} s")
    print(f"added by the import on the click: {c - w:.2f} s; goal: warm call <= 1 s added")


if __name__ == "__main__":
    main()
