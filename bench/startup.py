"""The workbench's start and Save, measured.

1. Page load → canvas drawn and the reader's first page painted, in Chromium at 1440×900,
   on a copy of the Attention session (``marimo run workbench.py -- --folder … --open PDF``;
   one server, a fresh page and kernel per repetition). Goal: ≤ 2 s. Where the time goes:
   each cell's run time, from the kernel's own cell messages on the page's websocket
   (running → idle), summed per cell name.
2. Save of a 100 KiB note, server-side: from :meth:`EditorController.on_typed` with ``save``
   (draft, compare-and-swap, atomic write, index update) until the "Saved" status is sent,
   against a bare :func:`~basehalf_core.folder.fsio.atomic_write` of the same bytes in the
   same run. Goal: ≤ 50 ms. The preview's re-render follows the status (printed too).

Run: ``.venv/bin/python bench/startup.py [--reps 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from harness import free_port, launch_chromium  # noqa: E402  (one launcher with the tests)

PDF = "attention-is-all-you-need.pdf"
CORPUS_PDF = ROOT.parent / "shared" / "corpus" / "attention-1706.03762.pdf"
SESSION = ROOT / "sessions" / "attention-is-all-you-need"
PAINTED = """() => {
  // The widgets live in shadow roots: look inside every one.
  const find = (sel) => {
    const roots = [document];
    while (roots.length) {
      const r = roots.pop();
      const hit = r.querySelector(sel);
      if (hit) return hit;
      for (const el of r.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
    }
    return null;
  };
  const c = find('[data-testid=canvas]');
  const img = find('[data-testid=page-image]');
  return !!(c && Number(c.dataset.nodeCount) > 0 && img && img.complete && img.naturalWidth > 0);
}"""


def _folder(tmp: Path) -> Path:
    folder = tmp / "attention"
    shutil.copytree(SESSION, folder, ignore=shutil.ignore_patterns(".bh"))
    if not (folder / PDF).exists():
        shutil.copy(CORPUS_PDF, folder / PDF)
    return folder


def _server(folder: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    cmd = [
        sys.executable, "-m", "marimo", "run", str(ROOT / "workbench.py"), "--headless",
        "--port", str(port), "--no-token", "--no-sandbox", "--", "--folder", str(folder),
        "--open", PDF,
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url + "/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"marimo did not start:\n{log.read_text()[-2000:]}")


def _cell_times(frames: list[str]) -> dict[str, float]:
    """Seconds each cell spent running, from the kernel's cell messages."""
    names: dict[str, str] = {}
    started: dict[str, float] = {}
    spent: dict[str, float] = defaultdict(float)
    for raw in frames:
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        op, data = msg.get("op"), msg.get("data") or {}
        if op == "kernel-ready":
            names.update(zip(data.get("cell_ids", []), data.get("names", []), strict=False))
        elif op == "cell-op" and data.get("timestamp"):
            cid, status = data.get("cell_id"), data.get("status")
            if status == "running":
                started[cid] = data["timestamp"]
            elif status == "idle" and cid in started:
                spent[names.get(cid, cid)] += data["timestamp"] - started.pop(cid)
    return dict(spent)


def _recorder(frames: list):
    """A websocket handler that keeps each received frame with its arrival time."""

    def on_socket(ws) -> None:
        ws.on("framereceived", lambda m: frames.append((time.perf_counter(), m)))

    return on_socket


def page_load(reps: int) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        folder = _folder(Path(tmp))
        proc, url = _server(folder, Path(tmp) / "marimo.log")
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                totals, cells, phases = [], defaultdict(list), defaultdict(list)
                for rep in range(reps + 1):  # the first load warms the server's imports
                    page = browser.new_page(viewport={"width": 1440, "height": 900})
                    frames: list[str] = []
                    page.on("websocket", _recorder(frames))
                    start = time.perf_counter()
                    page.goto(url)
                    page.wait_for_function(PAINTED, timeout=120_000, polling=50)
                    took = time.perf_counter() - start
                    page.close()
                    if rep == 0:
                        print(f"warm-up load: {took:.2f} s (server imports included)")
                        continue
                    totals.append(took)
                    for name, s in _cell_times([m for _, m in frames]).items():
                        cells[name].append(s)
                    first = frames[0][0] - start if frames else float("nan")
                    ready = next((t - start for t, m in frames if "kernel-ready" in m[:40]), 0)
                    last = frames[-1][0] - start if frames else float("nan")
                    phases["first kernel message"].append(first)
                    phases["kernel ready (cells known)"].append(ready)
                    phases["last kernel message before paint"].append(last)
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    median = statistics.median(totals)
    print(
        f"page load → canvas + first reader page painted: median {median:.2f} s of {reps} "
        f"({', '.join(f'{t:.2f}' for t in totals)}); goal ≤ 2 s: {median / 2.0:.2f}× the goal"
    )
    for name, values in phases.items():
        print(f"  {name:<34} at {statistics.median(values):6.2f} s")
    print("where the kernel's time goes (median per cell, s):")
    for name, values in sorted(cells.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"  {name:<16} {statistics.median(values):6.3f}")


def save_note(reps: int) -> None:
    from basehalf_core.folder.fsio import atomic_write
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.views.note_edit import EditorController

    class View:
        """The editor widget's attributes; notes when the "Saved" status is sent."""

        path = preview = text = ""
        dirty = False
        conflict: dict = {}  # noqa: RUF012 - a stand-in for the widget's trait
        saved_at = 0.0
        _status = ""

        @property
        def status(self):
            return self._status

        @status.setter
        def status(self, value):
            self._status = value
            if value.startswith("Saved"):
                self.saved_at = time.perf_counter()

        def show(self, draft, kind, heading, status=""):
            self.path, self.text, self.status = draft.path, draft.text, status

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        line = "Own words about attention, queries, keys and values; " * 2 + "\n\n"
        body = "# Big note\n\n" + line * (100 * 1024 // len(line))
        (root / "big.md").write_text("---\nupstream: []\n---\n" + body, encoding="utf-8")
        ws = Workspace.open(root)
        view = View()
        editor = EditorController(view, ws, lambda: None)
        editor.open("big.md")
        ours, bare, whole = [], [], []
        for i in range(reps * 10):
            text = view.text + f"\nedit {i}\n"
            start = time.perf_counter()
            editor.on_typed({"new": {"path": "big.md", "text": text, "title": "", "save": True}})
            whole.append(time.perf_counter() - start)
            ours.append(view.saved_at - start)
            assert view.status.startswith("Saved"), view.status
            data = (root / "big.md").read_bytes()
            start = time.perf_counter()
            atomic_write(root / "copy.md", data)
            bare.append(time.perf_counter() - start)
    size = len(data) / 1024
    o, b = statistics.median(ours) * 1000, statistics.median(bare) * 1000
    print(
        f"Save of a {size:.0f} KiB note, server-side: median {o:.1f} ms (goal ≤ 50 ms: "
        f"{o / 50:.2f}× the goal); bare atomic write {b:.1f} ms; ratio {o / b:.1f}×"
    )
    w = statistics.median(whole) * 1000
    print(f"  the whole Save request, with the preview re-rendered after it: {w:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--no-browser", action="store_true", help="only the Save figure")
    args = parser.parse_args()
    save_note(args.reps)
    if not args.no_browser:
        page_load(args.reps)


if __name__ == "__main__":
    main()
