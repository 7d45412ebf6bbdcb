"""Canvas figures: Workspace → traits build time and payload, sync cost, grow → drawn in a browser.

Run: ``.venv/bin/python bench/canvas.py [--sizes 100,1000,5000] [--browser-size 1000]``.

For generated folders (a real corpus PDF, notes that flow from it and from earlier notes,
practice cards, 1% dangling entries) it prints, per size:

- ``open``: ``Workspace.open`` (context, not the canvas's own cost);
- ``build``: ``network.build`` → traits (pyvis assembly, layout, ghosts);
- ``naive``: the same build with stock pyvis node bookkeeping (a list scan per ``add_node`` and
  per edge end: quadratic) — the baseline, measured in the same run; ``ratio`` = naive / build;
- ``sync0`` / ``sync1``: ``Canvas.sync`` with nothing changed / after one grow;
- ``payload``: JSON bytes of the traits (nodes, edges, options), against the size of pyvis's own
  HTML page for the same network (``pyvis html``).

Then, in Debian's chromium against ``marimo run tests/apps/canvas_app.py`` on the
``--browser-size`` folder: the time from the Grow click to the new card drawn (goal ≤ 0.5 s),
median of several grows, against the time a fresh page takes to draw the whole canvas.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from pyvis.network import Network  # noqa: E402

from basehalf_core.folder import operations  # noqa: E402
from basehalf_core.folder.workspace import Workspace  # noqa: E402
from basehalf_core.views import network  # noqa: E402
from basehalf_widgets.canvas import Canvas  # noqa: E402

CORPUS = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared")) / "corpus"
PDF = "attention-1706.03762.pdf"


def make_folder(root: Path, notes: int, seed: int = 7) -> Path:
    """A study folder of ``notes`` notes over one real PDF."""
    rng = random.Random(seed)
    root.mkdir(parents=True)
    shutil.copy(CORPUS / PDF, root / "paper.pdf")
    names: list[str] = []
    for i in range(notes):
        name = f"{i:05}-note.md"
        pool = names[-50:]
        ups = (
            ["paper.pdf"] if not pool or rng.random() < 0.2 else rng.sample(pool, min(2, len(pool)))
        )
        if rng.random() < 0.01:
            ups.append(f"missing/{i}.md")
        kind = "kind: practice\n" if i % 25 == 24 else ""
        text = "---\nupstream:\n" + "".join(f"  - {u}\n" for u in ups) + kind + "---\n"
        (root / name).write_text(text + f"# Note {i} on attention\n\nBody {i}.\n", "utf-8")
        names.append(name)
    return root


def naive_build(ws: Workspace) -> float:
    """Seconds for the same ``network.build`` with pyvis's stock node list (a list scan per
    ``add_node`` and per edge end): the baseline the set-backed id list is measured against."""
    kept = network._Ids
    network._Ids = list
    try:
        t = time.perf_counter()
        network.traits(network.build(ws))
        return time.perf_counter() - t
    finally:
        network._Ids = kept


def pyvis_page_bytes(net: Network) -> int:
    """Size of pyvis's own HTML page (in_line resources) for the network."""
    net.cdn_resources = "in_line"
    return len(net.generate_html().encode("utf-8"))


def best(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def python_figures(sizes: list[int], work: Path) -> None:
    header = (
        f"{'notes':>6} {'cards':>6} {'edges':>6} {'open s':>8} {'build s':>8} {'naive s':>8} "
        f"{'ratio':>6} {'sync0 ms':>9} {'sync1 ms':>9} {'payload KiB':>12} {'pyvis html KiB':>15}"
    )
    print(header)
    print("-" * len(header))
    for size in sizes:
        folder = make_folder(work / f"f{size}", size)
        t = time.perf_counter()
        ws = Workspace.open(folder)
        t_open = time.perf_counter() - t
        net = network.build(ws)
        t_build = best(lambda ws=ws: network.traits(network.build(ws)))
        t_naive = naive_build(ws)
        payload = len(json.dumps(network.traits(net), ensure_ascii=False).encode("utf-8"))
        page = pyvis_page_bytes(network.build(ws))
        canvas = Canvas.for_workspace(ws)
        t_sync0 = best(lambda c=canvas, ws=ws: c.sync(ws))
        operations.grow(ws, "Bench grow", upstream=["paper.pdf"])
        t = time.perf_counter()
        canvas.sync(ws)
        t_sync1 = time.perf_counter() - t
        print(
            f"{size:>6} {len(net.nodes):>6} {len(net.edges):>6} {t_open:>8.3f} {t_build:>8.3f} "
            f"{t_naive:>8.3f} {t_naive / t_build:>6.1f} {t_sync0 * 1000:>9.1f} "
            f"{t_sync1 * 1000:>9.1f} {payload / 1024:>12.1f} {page / 1024:>15.1f}"
        )
    print(
        f"(the widget's ES module, vis-network included, is {len(Canvas._esm) / 1024:.0f} KiB, "
        "sent once per page)"
    )


class App:
    """``marimo run`` of a notebook (default ``tests/apps/canvas_app.py``) on a loopback port."""

    def __init__(self, folder: Path, log: Path, notebook: Path = ROOT / "tests/apps/canvas_app.py"):
        from harness import free_port

        self.url = f"http://127.0.0.1:{free_port()}"
        args = [
            sys.executable, "-m", "marimo", "run", str(notebook),
            "--headless", "--port", self.url.rsplit(":", 1)[1], "--no-token", "--no-sandbox",
            "--", "--folder", str(folder),
        ]  # fmt: skip
        self.log = open(log, "wb")  # noqa: SIM115 - lives as long as the server
        self.proc = subprocess.Popen(
            args, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        )  # fmt: skip
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"marimo did not start; see {log}")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.log.close()


# Records, inside the page, when the Grow button is clicked and when the canvas next changes
# its node count (then two animation frames, so the new card has been painted).
_WATCH = """(canvas) => {
  window.__bh = { clicks: [], drawn: [] };
  const button = [...document.querySelectorAll('*')]
    .flatMap((e) => (e.shadowRoot ? [...e.shadowRoot.querySelectorAll('button')] : []))
    .concat([...document.querySelectorAll('button')])
    .find((b) => b.textContent.trim() === 'Grow');
  button.addEventListener('click', () => window.__bh.clicks.push(performance.now()), true);
  new MutationObserver(() => {
    const mark = () => window.__bh.drawn.push(performance.now());
    requestAnimationFrame(() => requestAnimationFrame(mark));
  }).observe(canvas, { attributes: true, attributeFilter: ['data-node-count'] });
}"""


def floor_seconds(work: Path, runs: int = 3) -> float:
    """Fastest fresh page of the one-line notebook: marimo's own share of any page.

    One tab, three loads: the fastest is a warm one (marimo's bundle from the HTTP cache), as
    for the canvas page it is compared with.
    """
    from harness import FLOOR_APP, launch_chromium
    from playwright.sync_api import sync_playwright

    notebook = work / "floor_app.py"
    notebook.write_text(FLOOR_APP, encoding="utf-8")
    app = App(work, work / "floor.log", notebook)
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 2000})
            times = []
            for _ in range(runs):
                t = time.perf_counter()
                page.goto(app.url)
                page.locator("[data-testid='floor-ready']").wait_for(timeout=120_000)
                times.append(time.perf_counter() - t)
            browser.close()
    finally:
        app.stop()
    return min(times)


# The same cards drawn on a bare page (no marimo), by the widget's render() against the way it
# drew before: a live network with empty DataSets, then nodes.add, edges.add and fit, each
# DataSet change drawing the whole canvas synchronously. Both timed to the first frame after.
_BARE_PAGE = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="canvas.css"></head><body><div id="el" style="width:900px"></div>
<script type="module">
const state = await (await fetch("state.json")).json();
const mod = await import("./canvas.js");
const el = document.getElementById("el");
const model = { get: (k) => state[k], set: (k, v) => { state[k] = v; }, save_changes() {},
  on() {}, off() {} };
const t0 = performance.now();
if (location.hash === "#baseline") {
  const box = document.createElement("div");
  box.style.height = state.height;
  el.append(box);
  const vis = mod.vis;
  const nodes = new vis.DataSet();
  const edges = new vis.DataSet();
  const network = new vis.Network(box, { nodes, edges }, state.options);
  nodes.add(state.nodes);
  edges.add(state.edges.map((e) => ({ ...e, id: JSON.stringify([e.from, e.to]) })));
  network.fit({ animation: false });
} else {
  mod.default.render({ model, el });
}
const t1 = performance.now();
const done = () => {
  const box = document.querySelector("[data-testid='canvas']");
  const times = box && box.bhTimes;
  if (location.hash === "#baseline") {
    window.bhDone = { first: performance.now() - t0, all: performance.now() - t0 };
  } else if (times && times.all) {
    window.bhDone = { first: times.drawn - t0, all: times.all - t0 };
  } else {
    setTimeout(done, 5);
  }
};
requestAnimationFrame(done);
</script></body></html>"""


def bare_page_figures(size: int, work: Path, runs: int = 5) -> None:
    """Draw-only figures: the widget's render() against the previous mechanism, same run."""
    import functools
    import http.server
    import threading

    from harness import launch_chromium
    from playwright.sync_api import sync_playwright

    folder = make_folder(work / f"bare{size}", size)
    canvas = Canvas.for_workspace(Workspace.open(folder), height="900px")
    site = work / "bare"
    site.mkdir()
    state = {k: getattr(canvas, k) for k in ("nodes", "edges", "options", "positions", "height")}
    (site / "state.json").write_text(json.dumps(state), encoding="utf-8")
    (site / "canvas.js").write_text(Canvas._esm + "\nexport { vis };\n", encoding="utf-8")
    (site / "canvas.css").write_text(Canvas._css, encoding="utf-8")
    (site / "index.html").write_text(_BARE_PAGE, encoding="utf-8")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(site))
    )
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    got: dict[str, list[float]] = {"render": [], "baseline": []}
    firsts: list[float] = []
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for _ in range(runs):
                for what in got:
                    page.goto("about:blank")
                    page.goto(url + ("#baseline" if what == "baseline" else ""))
                    page.wait_for_function("window.bhDone", timeout=120_000)
                    done = page.evaluate("window.bhDone")
                    got[what].append(done["all"] / 1000)
                    if what == "render":
                        firsts.append(done["first"] / 1000)
            browser.close()
    finally:
        server.shutdown()
    new, old = statistics.median(got["render"]), statistics.median(got["baseline"])
    print()
    print(f"bare page (no marimo), {len(state['nodes'])} cards, {len(state['edges'])} links:")
    first = statistics.median(firsts)
    print(
        f"  render() -> every card drawn: median {new:.3f} s over {runs} (first picture "
        f"{first:.3f} s); previous mechanism (live network, nodes.add, edges.add, fit, first "
        f"frame) {old:.3f} s; ratio {old / new:.1f}x (first picture {old / first:.1f}x)"
    )


# Where a fresh page's time goes, in ms since navigation started (performance.now()).
# The widget's script is marimo's virtual file /@file/<size>-<random>.js: the biggest one.
_PHASES = """(el) => {
  const nav = performance.getEntriesByType('navigation')[0];
  const files = performance.getEntriesByType('resource').filter((e) => e.name.includes('/@file/'));
  const esm = files.sort((a, b) => b.decodedBodySize - a.decodedBodySize)[0];
  return { ...el.bhTimes, dom: nav ? nav.domContentLoadedEventEnd : 0,
    esmStart: esm ? esm.startTime : NaN, esmEnd: esm ? esm.responseEnd : NaN };
}"""


def browser_figures(size: int, work: Path, grows: int) -> None:
    from harness import launch_chromium
    from playwright.sync_api import expect, sync_playwright

    folder = make_folder(work / f"b{size}", size)
    cards = len(network.build(Workspace.open(folder)).nodes)
    app = App(folder, work / "marimo.log")
    try:
        with sync_playwright() as pw:
            browser = launch_chromium(pw)
            page = browser.new_page(viewport={"width": 1400, "height": 2000})
            # Every resource kept (marimo's bundle alone is ~250), so the widget script is seen.
            page.add_init_script("performance.setResourceTimingBufferSize(5000)")
            socket: dict[str, float] = {}

            def on_socket(ws) -> None:
                socket["open"] = time.perf_counter()
                ws.on("framereceived", lambda m: socket.setdefault("first", time.perf_counter()))

            page.on("websocket", on_socket)
            loads, phases = [], []
            for _ in range(3):
                socket.clear()
                t = time.perf_counter()
                page.goto(app.url)
                canvas = page.locator("[data-testid='canvas']")
                expect(canvas).to_have_attribute("data-node-count", str(cards), timeout=120_000)
                loads.append(time.perf_counter() - t)
                while not canvas.evaluate("(el) => Boolean(el.bhTimes && el.bhTimes.all)"):
                    page.wait_for_timeout(20)
                phase = canvas.evaluate(_PHASES)
                phase.update({k: (v - t) * 1000 for k, v in socket.items()})
                phases.append(phase)
            canvas.evaluate(_WATCH)
            button = page.get_by_role("button", name="Grow")
            latencies, arrivals, applies = [], [], []
            for i in range(grows):
                button.click()
                expect(canvas).to_have_attribute(
                    "data-node-count", str(cards + i + 1), timeout=30_000
                )
                page.wait_for_timeout(300)
                marks = page.evaluate("() => window.__bh")
                latencies.append((marks["drawn"][i] - marks["clicks"][i]) / 1000)
                last = canvas.evaluate("(el) => el.bhLastNodes")
                arrivals.append((last["at"] - marks["clicks"][i]) / 1000)
                applies.append(last["ms"] / 1000)
            browser.close()
    finally:
        app.stop()
    median = statistics.median(latencies)
    print()
    print(f"browser, {size} notes ({cards} cards), marimo run + chromium:")
    print(
        f"  grow -> new card drawn: median {median:.3f} s over {grows} grows "
        f"(min {min(latencies):.3f}, max {max(latencies):.3f}); goal <= 0.5 s: "
        f"{'met' if median <= 0.5 else 'NOT met'}"
    )
    print(
        f"  of which: click -> nodes update arrives {statistics.median(arrivals):.3f} s, "
        f"applying the diff {statistics.median(applies) * 1000:.1f} ms"
    )
    print(
        f"  baseline, a fresh page drawing the whole canvas: {min(loads):.3f} s "
        f"(ratio {min(loads) / median:.1f}x the grow)"
    )
    floor = floor_seconds(work)
    print(
        f"  floor, a fresh page of a one-line notebook (marimo alone): {floor:.3f} s; "
        f"the canvas's share of a fresh page: {min(loads) - floor:.3f} s"
    )
    best_phase = min(phases, key=lambda p: p["drawn"])
    print(
        "  fresh page, ms since navigation (fastest of 3): marimo page ready "
        f"{best_phase['dom']:.0f}, websocket open {best_phase.get('open', float('nan')):.0f}, "
        f"first kernel message {best_phase.get('first', float('nan')):.0f}, "
        f"widget script requested {best_phase['esmStart']:.0f} "
        f"(received {best_phase['esmEnd']:.0f}), canvas view starts {best_phase['start']:.0f}, "
        f"data sets {best_phase['data'] - best_phase['start']:.0f}, "
        f"vis network {best_phase['network'] - best_phase['data']:.0f}, "
        f"view chosen {best_phase['ready'] - best_phase['network']:.0f}, "
        f"first picture drawn at {best_phase['drawn']:.0f} "
        f"(canvas's own share {best_phase['drawn'] - best_phase['start']:.0f}), "
        f"every card in at {best_phase['all']:.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--browser-size", type=int, default=1000)
    parser.add_argument("--grows", type=int, default=7)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bh-canvas-bench-") as tmp:
        work = Path(tmp)
        python_figures([int(s) for s in args.sizes.split(",")], work)
        if not args.no_browser:
            bare_page_figures(args.browser_size, work)
            browser_figures(args.browser_size, work, args.grows)


if __name__ == "__main__":
    main()
