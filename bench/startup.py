"""The workbench's start and Save, measured.

1. Page load → canvas drawn and the reader's first page painted, in Chromium at 1440×900,
   on a copy of the Attention session (``marimo run workbench.py -- --folder … --open PDF``;
   one server, a fresh page and kernel per load). Each repetition is a *cold* load (a fresh
   browser profile: empty HTTP cache, a first-ever visit) then a *warm* one (a new tab in the
   same profile: marimo's 250 bundle files from the HTTP cache, a returning learner). Goal:
   ≤ 2 s, on the warm load. In the same run, the floor: the same two loads of a one-line
   notebook (marimo alone). Where the time goes: the page's timeline (HTML, marimo's bundle,
   websocket, kernel-ready, the widget scripts, paint) and each cell's run time, from the
   kernel's own cell messages on the page's websocket (running → idle), summed per cell.
2. Save of a 100 KiB note, server-side: from :meth:`EditorController.on_typed` with ``save``
   (draft, compare-and-swap, atomic write, index update) until the "Saved" status is sent,
   against a bare :func:`~basehalf_core.folder.writing.atomic_write` of the same bytes in the
   same run. Goal: ≤ 50 ms. The preview's re-render follows the status (printed too).

Run: ``.venv/bin/python bench/startup.py [--reps 3]``
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from harness import FLOOR_APP, FLOOR_READY, launch_chromium  # noqa: E402  (shared with the tests)

PDF = "attention-is-all-you-need.pdf"
CORPUS_PDF = (
    Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared"))
    / "corpus"
    / "attention-1706.03762.pdf"
)
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
  return !!(c && Number(c.dataset.nodeCount) > 0 && img && Number(img.dataset.width) > 0);
}"""


def _folder(tmp: Path) -> Path:
    folder = tmp / "attention"
    shutil.copytree(SESSION, folder, ignore=shutil.ignore_patterns(".bh"))
    if not (folder / PDF).exists():
        shutil.copy(CORPUS_PDF, folder / PDF)
    return folder


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


# In ms since navigation, from the page's own timeline: the HTML received, the marimo bundle
# parsed and run (DOMContentLoaded), and each widget script (marimo serves an anywidget's ESM
# as a virtual file, /@file/<size>-<random>.js) fetched.
TIMELINE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const all = performance.getEntriesByType('resource');
  const files = all.filter((e) => e.name.includes('/@file/'));
  const assets = all.filter((e) => e.name.includes('/assets/'));
  return {
    html: nav.responseEnd, dom: nav.domContentLoadedEventEnd,
    assets: assets.length, fromCache: assets.filter((e) => e.transferSize === 0).length,
    esmStart: files.length ? Math.min(...files.map((e) => e.startTime)) : NaN,
    esmEnd: files.length ? Math.max(...files.map((e) => e.responseEnd)) : NaN,
    esmBytes: files.reduce((n, e) => n + e.decodedBodySize, 0),
    esmCached: files.filter((e) => e.transferSize === 0 && e.decodedBodySize > 0).length,
    esmFiles: files.length,
  };
}"""
PHASES = (
    ("HTML received", "html"),
    ("marimo bundle run (DOMContentLoaded)", "dom"),
    ("websocket open", "ws"),
    ("first kernel message (kernel-ready)", "first"),
    ("widget scripts requested (/@file/)", "esmStart"),
    ("widget scripts received", "esmEnd"),
    ("last kernel message before paint", "last"),
    ("painted", "total"),
)


def _load(context, url: str, ready: str) -> tuple[dict, list[str]]:
    """One page load in ``context``; the phases in ms since navigation and the kernel frames."""
    page = context.new_page()
    page.add_init_script("performance.setResourceTimingBufferSize(5000)")
    frames: list = []
    opened: list[float] = []

    def on_socket(ws) -> None:
        opened.append(time.perf_counter())
        ws.on("framereceived", lambda m: frames.append((time.perf_counter(), m)))

    page.on("websocket", on_socket)
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(ready, timeout=120_000, polling=20)
    took = time.perf_counter() - start
    got = page.evaluate(TIMELINE)
    page.close()
    ms = lambda t: (t - start) * 1000  # noqa: E731
    got.update(
        total=took * 1000,
        ws=ms(opened[0]) if opened else float("nan"),
        first=ms(frames[0][0]) if frames else float("nan"),
        last=ms(frames[-1][0]) if frames else float("nan"),
    )
    return got, [m for _, m in frames]


def _loads(browser, servers: dict[str, tuple[str, str]], reps: int) -> dict[str, dict]:
    """Per server, ``reps`` cold loads (a fresh browser profile each: empty HTTP cache, as on a
    first visit) each followed by a warm one (a new tab in the same profile: marimo's bundle
    from the HTTP cache, as for a returning learner). The servers take turns within each
    repetition, in a rotating order, so a change in the machine's load falls on all of them
    alike."""
    out = {name: {"cold": [], "warm": [], "cells": []} for name in servers}
    order = list(servers)
    for rep in range(reps):
        for name in order[rep % len(order) :] + order[: rep % len(order)]:  # each goes first
            url, ready = servers[name]
            context = browser.new_context(viewport={"width": 1440, "height": 900})
            for kind in ("cold", "warm"):
                got, frames = _load(context, url, ready)
                out[name][kind].append(got)
                out[name]["cells"].append(_cell_times(frames))
            context.close()
    return out


def _median(rows: list[dict], key: str) -> float:
    values = [r[key] for r in rows if r[key] == r[key]]  # NaN-free
    return statistics.median(values) if values else float("nan")


def page_load(reps: int, variant: dict | None = None) -> None:
    """The page-load figures; ``variant`` (``label``, ``env`` and/or ``notebook``) adds a second
    workbench server measured in the same run, taking turns with the others."""
    from harness import MarimoServer
    from playwright.sync_api import sync_playwright

    env = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        folder = _folder(tmp)
        args = ["--folder", str(folder), "--open", PDF]
        (tmp / "floor.py").write_text(FLOOR_APP, encoding="utf-8")
        started = {"workbench": MarimoServer(ROOT / "workbench.py", args, env, tmp / "wb.log")}
        if variant:
            notebook = Path(variant.get("notebook") or ROOT / "workbench.py")
            started["variant"] = MarimoServer(notebook, args, {**env, **variant.get("env", {})},
                                              tmp / "variant.log")  # fmt: skip
        started["floor"] = MarimoServer(tmp / "floor.py", [], env, tmp / "floor.log")
        servers = {
            name: (srv.url, FLOOR_READY if name == "floor" else PAINTED)
            for name, srv in started.items()
        }
        try:
            with sync_playwright() as pw:
                browser = launch_chromium(pw)
                for url, ready in servers.values():
                    warm_up = browser.new_context()  # the server's first session imports
                    _load(warm_up, url, ready)
                    warm_up.close()
                got = _loads(browser, servers, reps)
                got["import"] = _script_import(browser, servers["workbench"][0], max(reps, 5))
                browser.close()
            got["html"] = _html_times({name: url for name, (url, _) in servers.items()})
        finally:
            for srv in started.values():
                srv.stop()
    _report(got, reps, variant)


def _html_times(urls: dict[str, str], reps: int = 20) -> dict[str, list[float]]:
    """ms to get the page's HTML alone (no browser), the servers taking turns: marimo reads and
    parses the notebook for each page request."""
    import urllib.request

    out: dict[str, list[float]] = {name: [] for name in urls}
    for _ in range(reps):
        for name, url in urls.items():
            start = time.perf_counter()
            with urllib.request.urlopen(url + "/") as page:
                page.read()
            out[name].append((time.perf_counter() - start) * 1000)
    return out


IMPORT = """async (url) => {
  const t = performance.now();
  await import(url);
  return performance.now() - t;
}"""


def _script_import(browser, server: str, reps: int) -> dict[str, list[float]]:
    """The canvas's script imported on a fresh page (fetched, compiled, run), ms: from its
    stable URL (the HTTP cache, and V8's code cache once Chromium has seen it twice) against a
    new URL each time (as marimo's random names: fetched and compiled again)."""
    from basehalf_widgets.canvas import Canvas
    from basehalf_widgets.esm import url_of

    stable = server + url_of(Canvas)[1:]
    context = browser.new_context()
    out: dict[str, list[float]] = {"stable": [], "new": []}
    for i in range(reps + 2):  # the first two make Chromium keep the compiled code
        for kind in ("stable", "new"):
            page = context.new_page()
            page.goto(server + "/health")
            took = page.evaluate(IMPORT, stable if kind == "stable" else f"{stable}?n={i}")
            page.close()
            if i >= 2:
                out[kind].append(took)
    context.close()
    return out


def _report(got: dict[str, dict], reps: int, variant: dict | None) -> None:
    ours, base = got["workbench"], got["floor"]
    print(f"page load → canvas + first reader page painted, median of {reps} (Chromium 1440×900):")
    for kind, what in (("warm", "returning learner, warm HTTP cache"), ("cold", "first visit")):
        t, f = _median(ours[kind], "total") / 1000, _median(base[kind], "total") / 1000
        print(
            f"  {kind} ({what}): {t:.2f} s; goal ≤ 2 s: {t / 2.0:.2f}× the goal; marimo's floor "
            f"(a one-line notebook, same run) {f:.2f} s; ours over the floor {t - f:.2f} s "
            f"({t / f:.2f}× the floor)"
        )
        each = ", ".join(f"{r['total'] / 1000:.2f}" for r in ours[kind])
        print(f"    all: {each}")
        if variant:
            v = _median(got["variant"][kind], "total") / 1000
            pairs = [
                (a["total"] - b["total"]) / 1000
                for a, b in zip(ours[kind], got["variant"][kind], strict=True)
            ]
            print(
                f"    variant ({variant['label']}): {v:.2f} s, over the floor {v - f:.2f} s "
                f"({v / f:.2f}× the floor); workbench − variant, load by load: "
                + ", ".join(f"{d:+.2f}" for d in pairs)
                + f" (median {statistics.median(pairs):+.2f} s)"
            )
    print("  the goal is measured on the warm page (what 'start' is for a returning learner)")
    names = [n for n in ("workbench", "variant", "floor") if n in got]
    print(
        "timeline, ms since navigation (median):   " + "   ".join(f"{n} warm / cold" for n in names)
    )
    for label, key in PHASES:
        cells = [_median(got[n][kind], key) for n in names for kind in ("warm", "cold")]
        print(f"  {label:<40} " + "  ".join(f"{c:7.0f}" for c in cells))
    for name in names[:-1]:
        warm = got[name]["warm"]
        esm = _median(warm, "esmBytes") / 1024
        print(
            f"  {name}, warm page: {_median(warm, 'fromCache'):.0f} of "
            f"{_median(warm, 'assets'):.0f} marimo assets from the HTTP cache; widget scripts "
            f"({esm:.0f} KiB): {_median(warm, 'esmCached'):.0f} of "
            f"{_median(warm, 'esmFiles'):.0f} from the HTTP cache"
        )
    html = ", ".join(f"{n} {statistics.median(v):.0f}" for n, v in got["html"].items())
    print(f"  the HTML page alone (the server's part, no browser), median of 20, ms: {html}")
    imp = got["import"]
    st, nw = statistics.median(imp["stable"]), statistics.median(imp["new"])
    print(
        f"  the canvas's script (vis-network inside) imported on a fresh page, median of "
        f"{len(imp['stable'])}: stable URL {st:.0f} ms, a new URL each time (marimo's own "
        f"naming) {nw:.0f} ms; saved per page {nw - st:.0f} ms ({nw / st:.1f}×)"
    )
    print("where the kernel's time goes (median per cell over all loads, s):")
    per_cell = defaultdict(list)
    for run in ours["cells"]:
        for name, spent in run.items():
            per_cell[name].append(spent)
    total = sum(statistics.median(v) for v in per_cell.values())
    print(f"  all cells together {total:.3f}")
    for name, values in sorted(per_cell.items(), key=lambda kv: -statistics.median(kv[1])):
        if statistics.median(values) >= 0.005:
            print(f"  {name:<16} {statistics.median(values):6.3f}")


def parse_cost(notebook: Path, reps: int = 15) -> float:
    """ms marimo spends per page turning ``notebook`` into code, in this process (fastest of
    ``reps``): the page request and the session each load the file (``AppFileManager``), and
    the kernel compiles every cell twice while it starts (marimo 0.25)."""
    from marimo._ast.compiler import compile_cell
    from marimo._session.notebook.file_manager import AppFileManager

    best = float("inf")
    for _ in range(reps):
        start = time.perf_counter()
        for _load in range(2):
            manager = AppFileManager(str(notebook))
        codes = [cell.code for cell in manager.app.cell_manager.cell_data()]
        for _compile in range(2):
            for code in codes:
                compile_cell(code, cell_id="bench")
        best = min(best, time.perf_counter() - start)
    return best * 1000


def save_note(reps: int) -> None:
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.folder.writing import atomic_write
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

        def show(self, draft, kind, heading, status="", *, fresh=True):
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
    parser.add_argument(
        "--variant-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="also measure a workbench server with this environment (e.g. "
        "BASEHALF_WIDGET_SCRIPT_CACHE=off: marimo's random widget-script names), in the same run",
    )
    parser.add_argument(
        "--variant-notebook", help="also measure this notebook (e.g. an older workbench.py)"
    )
    args = parser.parse_args()
    variant = None
    if args.variant_env or args.variant_notebook:
        env = dict(item.split("=", 1) for item in args.variant_env)
        label = " ".join(
            args.variant_env + ([args.variant_notebook] if args.variant_notebook else [])
        )
        variant = {"label": label, "env": env, "notebook": args.variant_notebook}
    save_note(args.reps)
    with tempfile.TemporaryDirectory() as tmp:
        floor = Path(tmp) / "floor.py"
        floor.write_text(FLOOR_APP, encoding="utf-8")
        ours, base = parse_cost(ROOT / "workbench.py"), parse_cost(floor)
        line = f"marimo's parse and compile of the notebook per page: workbench {ours:.0f} ms"
        if args.variant_notebook:
            line += f", variant {parse_cost(Path(args.variant_notebook)):.0f} ms"
        print(f"{line}, the one-line floor {base:.0f} ms (fastest of 15, in-process)")
    if not args.no_browser:
        page_load(args.reps, variant)


if __name__ == "__main__":
    main()
