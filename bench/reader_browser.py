"""Browser figures for the reader, against pdf.js in the same Chromium in the same run.

1. First page visible for the 285-page ``pymupdf_mupdf_explored.pdf``: ours is the time from
   pressing "Open document" in ``tests/apps/reader_app.py`` (a fresh ``marimo run`` process per
   repetition, so nothing is cached) until the page image is painted; pdf.js's is the time from
   ``getDocument()`` (library loaded, worker started beforehand: pdf.js's best case) until the
   page is painted on its canvas, at the same pixel size as our first image. Goal: ours ≤ half.
2. A jump to a far page (go-to-page in ours; ``getPage`` + render in pdf.js), same pages.
3. RSS of the marimo app process (with any children) while paging 1 → 285 with the → key:
   sampled along the way, plus the kernel's peak (VmHWM). Goal: flat in pages, < 400 MB.

pdf.js (npm ``pdfjs-dist``) is installed with npm into ``$BASEHALF_PDFJS_DIR`` (default
``/tmp/basehalf-bench-pdfjs``), never into the repository.

Run: ``.venv/bin/python bench/reader_browser.py [--reps 5] [--no-rss]``
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
BOOK = "pymupdf_mupdf_explored.pdf"
PDFJS_VERSION = "6.5.438"
PDFJS_DIR = Path(os.environ.get("BASEHALF_PDFJS_DIR", "/tmp/basehalf-bench-pdfjs"))
CHROMIUM = os.environ.get("BASEHALF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORT = {"width": 1400, "height": 2400}
ZOOM = 1.5  # the reader's default render scale: pdf.js renders at the same pixel size
JUMP_PAGES = [40, 90, 140, 190, 240, 280]  # 0-based
TIMEOUT = 120_000
READING_PAUSE_MS = 300  # between page turns in the walk: a learner glances at each page

PDFJS_PAGE = """<!doctype html>
<meta charset="utf-8">
<canvas id="c"></canvas>
<script type="module">
import * as pdfjs from "./pdfjs/build/pdf.mjs";
pdfjs.GlobalWorkerOptions.workerSrc = "./pdfjs/build/pdf.worker.mjs";
const worker = new pdfjs.PDFWorker();
await worker.promise;
const paint = () => new Promise((r) => requestAnimationFrame(() => r()));
async function draw(doc, n, zoom) {
  const page = await doc.getPage(n);
  const viewport = page.getViewport({ scale: zoom });
  const canvas = document.getElementById("c");
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  await page.render({ canvas, canvasContext: canvas.getContext("2d"), viewport }).promise;
  await paint();
}
window.openFirst = async (url, zoom) => {
  const t0 = performance.now();
  window.doc = await pdfjs.getDocument({ url, worker }).promise;
  await draw(window.doc, 1, zoom);
  return performance.now() - t0;
};
window.jump = async (n, zoom) => {
  const t0 = performance.now();
  await draw(window.doc, n, zoom);
  return performance.now() - t0;
};
window.ready = true;
if (location.hash === "#cold") {
  // Everything a viewer opened for this document pays: page, library, worker, file, render.
  const zoom = Number(new URLSearchParams(location.search).get("zoom"));
  await window.openFirst("book.pdf?cold=" + Math.random(), zoom);
  window.coldDone = performance.now();
}
</script>
"""

LAST_MARK = """(n) => { const m = performance.getEntriesByName('bh-page-shown');
  return m.length > 0 && m[m.length - 1].detail === n; }"""
MARK_TIME = """() => { const m = performance.getEntriesByName('bh-page-shown');
  return m[m.length - 1].startTime; }"""


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def ensure_pdfjs() -> Path:
    """The pdfjs-dist package directory, installed with npm outside the repository if missing."""
    pkg = PDFJS_DIR / "node_modules" / "pdfjs-dist"
    if not (pkg / "build" / "pdf.mjs").exists():
        PDFJS_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund",
             f"pdfjs-dist@{PDFJS_VERSION}"],
            cwd=PDFJS_DIR, check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    return pkg


class StaticSite:
    """A loopback HTTP server for the pdf.js page, its library and the PDF."""

    def __init__(self, folder: Path):
        handler = functools.partial(_QuietHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".pdf": "application/pdf",
    }

    def log_message(self, *args) -> None:
        pass


class ReaderApp:
    """``marimo run tests/apps/reader_app.py -- --file PATH [--defer 1]`` on a loopback port."""

    def __init__(self, file: Path, log: Path, defer: bool):
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        args = [
            sys.executable, "-m", "marimo", "run", str(ROOT / "tests/apps/reader_app.py"),
            "--headless", "--port", str(port), "--no-token", "--no-sandbox",
            "--", "--file", str(file),
        ]  # fmt: skip
        if defer:
            args += ["--defer", "1"]
        self._log = open(log, "wb")  # noqa: SIM115 - lives as long as the server
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        self.proc = subprocess.Popen(
            args, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"reader app exited early; see {log}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"reader app did not start; see {log}")

    def rss_mb(self) -> tuple[float, float]:
        """(current RSS, peak RSS) in MB of the server process and its children."""
        now = peak = 0.0
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            status = _status(pid)
            now += status.get("VmRSS", 0) / 1024
            peak += status.get("VmHWM", 0) / 1024
        return now, peak

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._log.close()


def _status(pid: int) -> dict[str, int]:
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if value.strip().endswith("kB"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for k in kids:
            found += [k, *_children(k)]
    return found


def wait_painted(page, n: int) -> float:
    """Wait for the reader to paint 1-based page ``n``; the paint's time (performance.now)."""
    page.wait_for_function(LAST_MARK, arg=n, timeout=TIMEOUT, polling="raf")
    return page.evaluate(MARK_TIME)


def ours_first_page(browser, book: Path, work: Path, reps: int) -> list[float]:
    """ms from pressing "Open document" to page 1 painted, a fresh app process each time."""
    times = []
    for rep in range(reps):
        app = ReaderApp(book, work / f"open-{rep}.log", defer=True)
        try:
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            page.goto(app.url)
            button = page.locator("button", has_text="Open document")
            button.wait_for(timeout=TIMEOUT)
            page.wait_for_timeout(500)  # let the kernel settle after its first run
            t0 = button.evaluate("b => { const t = performance.now(); b.click(); return t; }")
            times.append(wait_painted(page, 1) - t0)
            context.close()
        finally:
            app.stop()
    return times


def ours_jumps(browser, book: Path, work: Path) -> list[float]:
    """ms from go-to-page to the page painted, for :data:`JUMP_PAGES`."""
    app = ReaderApp(book, work / "jumps.log", defer=False)
    times = []
    try:
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(app.url)
        wait_painted(page, 1)
        box = page.locator("[data-testid=page-input]")
        for n in JUMP_PAGES:
            box.fill(str(n + 1))
            t0 = box.evaluate(
                "e => { const t = performance.now();"
                " e.dispatchEvent(new Event('change', { bubbles: true })); return t; }"
            )
            times.append(wait_painted(page, n + 1) - t0)
        context.close()
    finally:
        app.stop()
    return times


def pdfjs_times(browser, book: Path, work: Path, reps: int) -> tuple[list, list, list]:
    """pdf.js, fresh page each rep: ms to open and paint page 1 with the library and worker
    ready; the same from navigation start (library and worker loaded too); ms per far jump."""
    site_dir = work / "site"
    site_dir.mkdir()
    (site_dir / "index.html").write_text(PDFJS_PAGE)
    (site_dir / "pdfjs").symlink_to(ensure_pdfjs())
    shutil.copy(book, site_dir / "book.pdf")
    site = StaticSite(site_dir)
    firsts, colds, jumps = [], [], []
    try:
        for rep in range(reps):
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            page.goto(f"{site.url}/index.html?zoom={ZOOM}#cold")
            page.wait_for_function("() => window.coldDone !== undefined", timeout=TIMEOUT)
            colds.append(page.evaluate("() => window.coldDone"))
            context.close()
            context = browser.new_context(viewport=VIEWPORT)
            page = context.new_page()
            page.goto(f"{site.url}/index.html")
            page.wait_for_function("() => window.ready === true", timeout=TIMEOUT)
            firsts.append(page.evaluate(f"() => openFirst('book.pdf?rep={rep}', {ZOOM})"))
            if rep == 0:
                jumps = [page.evaluate(f"() => jump({n + 1}, {ZOOM})") for n in JUMP_PAGES]
            context.close()
    finally:
        site.stop()
    return firsts, colds, jumps


def rss_while_paging(browser, book: Path, work: Path, pages: int) -> tuple[list, list]:
    """(page, RSS MB, peak MB) sampled while paging 1 → ``pages`` with the → key, and the ms
    from each key press to the next page painted."""
    app = ReaderApp(book, work / "rss.log", defer=False)
    samples, turns = [], []
    marks = {1, 10, 25, 50, 100, 150, 200, 250, pages}
    try:
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(app.url)
        wait_painted(page, 1)
        samples.append((1, *app.rss_mb()))
        page.locator("[data-testid=reader]").focus()
        for n in range(2, pages + 1):
            page.wait_for_timeout(READING_PAUSE_MS)
            t0 = page.evaluate("() => performance.now()")
            page.keyboard.press("ArrowRight")
            turns.append(wait_painted(page, n) - t0)
            if n in marks:
                samples.append((n, *app.rss_mb()))
        context.close()
    finally:
        app.stop()
    return samples, turns


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions of the open timing")
    parser.add_argument("--no-rss", action="store_true", help="skip the 285-page RSS walk")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from basehalf_core.documents.document import open_document

    book = CORPUS / BOOK
    pages = open_document(book).page_count
    with tempfile.TemporaryDirectory(prefix="bh-reader-bench-") as tmp, sync_playwright() as pw:
        work = Path(tmp)
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        pj_first, pj_cold, pj_jumps = pdfjs_times(browser, book, work, args.reps)
        our_first = ours_first_page(browser, book, work, args.reps)
        our_jumps = ours_jumps(browser, book, work)
        samples, turns = ([], []) if args.no_rss else rss_while_paging(browser, book, work, pages)
        browser.close()

    med = statistics.median
    print(f"first page visible, {BOOK} ({pages} pp), zoom {ZOOM}, median of {args.reps}:")
    print(f"  basehalf reader (press Open -> page painted): {med(our_first):7.1f} ms")
    print(f"  pdf.js {PDFJS_VERSION} (getDocument -> page painted): {med(pj_first):7.1f} ms")
    print(
        f"  pdf.js from navigation start (library + worker + file + render): {med(pj_cold):7.1f} ms"
    )
    print(
        f"  ratio ours / pdf.js (library ready): {med(our_first) / med(pj_first):.2f}"
        "  (goal <= 0.50)"
    )
    print(f"  ratio ours / pdf.js (from navigation): {med(our_first) / med(pj_cold):.2f}")
    print("  ours  all: " + ", ".join(f"{t:.0f}" for t in our_first))
    print("  pdf.js all: " + ", ".join(f"{t:.0f}" for t in pj_first))
    print("  pdf.js from navigation all: " + ", ".join(f"{t:.0f}" for t in pj_cold))
    pages_1 = ", ".join(str(n + 1) for n in JUMP_PAGES)
    print(f"jump to a far page (pages {pages_1}), median:")
    print(f"  basehalf reader (go to page -> painted): {med(our_jumps):7.1f} ms")
    print(f"  pdf.js (getPage + render -> painted):    {med(pj_jumps):7.1f} ms")
    print(f"  ratio ours / pdf.js: {med(our_jumps) / med(pj_jumps):.2f}")
    if samples:
        print(f"RSS of the marimo app while paging 1 -> {pages} with the right-arrow key:")
        for n, now, _peak in samples:
            print(f"  after page {n:3d}: {now:6.1f} MB")
        base = next(now for n, now, _ in samples if n >= 10)
        last_now, last_peak = samples[-1][1], samples[-1][2]
        print(f"  growth page 10 -> {pages}: {last_now - base:+.1f} MB (goal: flat)")
        print(f"  peak (VmHWM): {last_peak:.1f} MB (goal < 400 MB)")
        print(
            f"  next page (key -> painted, {READING_PAUSE_MS} ms pause per page):"
            f" median {med(turns):.1f} ms,"
            f" 90th percentile {statistics.quantiles(turns, n=10)[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
