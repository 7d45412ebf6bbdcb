"""Browser figures for the reader, against pdf.js in the same Chromium in the same run.

1. First page visible for the 285-page ``pymupdf_mupdf_explored.pdf``: ours is the time from
   pressing "Open document" in ``tests/apps/reader_app.py`` (a fresh ``marimo run`` process per
   repetition, so nothing is cached) until the page image is painted; pdf.js's is the time from
   ``getDocument()`` (library loaded, worker started beforehand: pdf.js's best case) until the
   page is painted on its canvas, at the same pixel size as our first image. Goal: ours ≤ half.
   Ours is timed three ways: the reader made when the button is pressed (``--defer 1``: its
   cell runs and its view is mounted then; the page has preloaded the reader's script, as
   pdf.js's page has loaded its library), the same without that preload (``--preload 0``:
   the script is fetched once the cell's output arrives), and one reader on screen from the
   start that the button's handler opens the document in (``--defer live``,
   :meth:`Reader.open_document`).
2. A jump to a far page (go-to-page in ours; ``getPage`` + render in pdf.js), same pages, and
   pdf.js at the pixel size our reader renders at after "fit width" (read from our image).
   Goal: ≤ 1.5× pdf.js.
3. Next page: ours is the → key to the page painted while reading (a pause per page, as in
   item 5); pdf.js's is ``getPage`` + render of the next page, same pages, same pixel size.
   Goal: ≤ 1.0× pdf.js.
4. Search the book from the search box: Enter → first hit marked on the page, and Enter →
   the search over (the hit label stops saying "searching…"), against PyMuPDF's
   ``search_for`` over every page in this process. Cold: a fresh app per repetition, searched
   as soon as page 1 is shown (nothing of the book's text read), against a freshly opened
   ``pymupdf.Document``; repeat: more searches in that app (they reuse the text read before),
   against one document kept open. Both ratios are printed; goal ≤ 1.2×. Cold, no match:
   another fresh app whose first search finds nothing (:data:`NO_MATCH`, a typo), against
   ``search_for`` of it over a freshly opened document.
5. RSS of the marimo app process (with any children) while paging 1 → 285 with the → key:
   sampled along the way, plus the kernel's peak (VmHWM). Goal: flat in pages, < 400 MB.
6. The product's path (``--only workbench``): ``marimo run workbench.py`` on a study folder
   holding the book, a second PDF (:data:`SECOND`) and a note, started on the note (so the
   reader is empty and hidden). The learner double-clicks the book's card on the canvas:
   ms from the second click to the book's page 1 painted *and* on screen (the reader's grid
   cell visible). Then the second PDF's card (the switch: another document in the same
   reader), then the book's card again (back: the reader opens it at the page left). pdf.js
   opens the same files (library ready, as in item 1) in the same run. A fresh server per
   repetition. Goal for the first: ≤ half of pdf.js.

What counts as painted: the first frame after the page's image is drawn on the reader's canvas
(the reader's ``bh-page-shown`` mark), a quick low-resolution image included; the sharp image's
frame is ``bh-page-sharp``. Both are printed.

Where the time goes: every message the page receives over marimo's websocket and every request
it makes to the kernel are stamped in the page (an init script, browser clock), next to the
reader's marks (``bh-mount``: the widget's view made; ``bh-image-set``: an image handed to the
decoder, ``createImageBitmap``); the first page and the jumps print a breakdown of medians
step by step.

pdf.js (npm ``pdfjs-dist``) is installed with npm into ``$BASEHALF_PDFJS_DIR`` (default
``/tmp/basehalf-bench-pdfjs``), never into the repository.

Run: ``.venv/bin/python bench/reader_browser.py [--reps 5] [--no-rss] [--only jump ...]``
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
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from harness import MarimoServer, launch_chromium  # noqa: E402  (one launcher with the tests)

# BASEHALF_SHARED: the shared folder when the checkout is not beside it (a git worktree).
CORPUS = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared")) / "corpus"
BOOK = "pymupdf_mupdf_explored.pdf"
PDFJS_VERSION = "6.5.438"
PDFJS_DIR = Path(os.environ.get("BASEHALF_PDFJS_DIR", "/tmp/basehalf-bench-pdfjs"))
VIEWPORT = {"width": 1400, "height": 2400}
ZOOM = 1.5  # the reader's default render scale: pdf.js renders at the same pixel size
JUMP_PAGES = [40, 90, 140, 190, 240, 280]  # 0-based
WALK_FIRST, WALK_PAGES = 1, 60  # next page against pdf.js: pages 2..61
QUERY = "reference counting"
NO_MATCH = "refrence counting"  # a typo: in no page, so every page is searched and no hit shown
TIMEOUT = 120_000
QUIET_MS = 1000  # after a search, before PyMuPDF's: the app's follow-up work is done
READING_PAUSE_MS = 300  # between page turns in the walk: a learner glances at each page
PARTS = ("first", "jump", "search", "rss", "workbench")  # what --only can pick
SECOND = "attention-1706.03762.pdf"  # the workbench row's second document (the switch)
START_NOTE = "start.md"  # the card the workbench row starts on

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

LAST_MARK = """([name, n]) => { const m = performance.getEntriesByName(name);
  return m.length > 0 && m[m.length - 1].detail === n; }"""
MARK_TIME = """(name) => { const m = performance.getEntriesByName(name);
  return m[m.length - 1].startTime; }"""


# Stamps (browser clock) for the breakdown: each websocket message received (labelled with its
# op, widget method, image key and cell status), each request to the kernel's API and each
# performance mark (the reader clears its older marks of a name). The
# listener is added when the socket is made, so it runs before marimo's own handler.
TAP = """(() => {
  const log = (window.__bhNet = []);
  const pick = (re, s) => { const m = re.exec(s); return m ? m[1] : ""; };
  const label = (s) => {
    if (typeof s !== "string") return "binary";
    const head = s.slice(0, 300);
    const parts = [pick(/"op": ?"([^"]+)"/, head), pick(/"method": ?"([^"]+)"/, head)];
    if (head.includes('"status":"')) parts.push(pick(/"status":"([^"]+)"/, head));
    if (head.includes('"output":{')) parts.push("output");
    if (s.includes("basehalf_widgets.reader")) parts.push("reader");
    if (/"shown": ?"(reader|detail)"/.test(head)) parts.push("stage");
    const at = s.indexOf('"image_key"'); // after the image's base64: one fast scan
    const key = at < 0 ? "" : pick(/"image_key": ?"([^"]+)"/, s.slice(at, at + 80));
    if (key) parts.push("image=" + key);
    return parts.filter(Boolean).join(" ");
  };
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => log.push([performance.now(), "in " + label(e.data)]));
    }
  };
  const nativeFetch = window.fetch;
  window.fetch = function (input, init) {
    const url = String((input && input.url) || input);
    const api = url.split("/api/kernel/")[1];
    if (api) log.push([performance.now(), "out " + api]);
    return nativeFetch.apply(this, arguments);
  };
  // The reader keeps only its last mark of a name: keep them all here.
  const nativeMark = performance.mark.bind(performance);
  performance.mark = (name, opts) => {
    const m = nativeMark(name, opts);
    log.push([m.startTime, `mark ${name} ${m.detail}|`]);
    return m;
  };
})();"""
EVENTS = "(t0) => window.__bhNet.filter((e) => e[0] >= t0).sort((a, b) => a[0] - b[0])"


def steps(page, t0: float, wanted: list[tuple[str, str]]) -> dict[str, float]:
    """ms from ``t0`` to the first event whose label holds every ``&``-separated part of each
    ``(step, text)``'s text (a part starting with ``!`` must be absent); unseen steps are left
    out."""
    found = {}
    events = page.evaluate(EVENTS, t0)
    for name, text in wanted:
        parts = text.split("&")
        for t, what in events:
            if all((p[1:] not in what) if p.startswith("!") else (p in what) for p in parts):
                found[name] = t - t0
                break
    return found


# The first page: click to paint, step by step (labels from TAP and the reader's marks).
OPEN_STEPS = [
    ("click -> request to the kernel", "out set_ui_element_value"),
    ("-> kernel runs the reader's cell", "in cell-op&running"),
    ("-> reader widget made (comm open)", "in model-lifecycle&open&reader"),
    ("-> first image received", "in model-lifecycle&image="),
    ("-> cell output received", "in cell-op&output"),
    ("-> widget view mounted (ESM loaded)", "mark bh-mount"),
    ("-> image handed to the decoder", "mark bh-image-set 1|"),
    ("-> painted", "mark bh-page-shown 1|"),
]
# The same with one reader on screen from the start (Reader.open_document): no cell runs.
LIVE_STEPS = [
    ("click -> request to the kernel", "out set_ui_element_value"),
    ("-> first image received", "in model-lifecycle&image="),
    ("-> image handed to the decoder", "mark bh-image-set 1|"),
    ("-> painted", "mark bh-page-shown 1|"),
]
JUMP_STEPS = [
    ("go to page -> request to the kernel", "out set_model_value"),
    ("-> first image received", "in model-lifecycle&image={page}"),
    ("-> image handed to the decoder", "mark bh-image-set {n}|"),
    ("-> painted", "mark bh-page-shown {n}|"),
    ("-> sharp image received", "in model-lifecycle&image={page}@&!~low"),
    ("-> sharp painted", "mark bh-page-sharp {n}|"),
]


# The workbench row: a double-click on a card to its document painted and on screen.
CARD_STEPS = [
    ("second click -> request to the kernel", "out set_model_value"),
    ("-> first image received", "in model-lifecycle&image="),
    ("-> reader put up (stage)", "in model-lifecycle&stage"),
    ("-> image handed to the decoder", "mark bh-image-set 1|"),
    ("-> painted", "mark bh-page-shown 1|"),
]
# Every pointerup (capture phase, browser clock): the second one of a double-click is t0.
UPS = "(() => { window.__bhUps = []; window.addEventListener('pointerup',"
UPS += " () => window.__bhUps.push(performance.now()), true); })();"
# Resolves with the first time page 1 of a document other than ``before`` (an image key) is
# painted and its reader visible: the paint mark, or the first frame the reader showed.
# The reader's page canvas, wherever marimo put it (shadow roots included).
DEEP = """const deep = (sel, root = document) => {
  const hit = root.querySelector(sel);
  if (hit) return hit;
  for (const e of root.querySelectorAll("*")) {
    const inner = e.shadowRoot && deep(sel, e.shadowRoot);
    if (inner) return inner;
  }
  return null;
};"""
KEY = (
    "() => { "
    + DEEP
    + " const c = deep('[data-testid=page-image]'); return c ? c.dataset.key || '' : ''; }"
)
# Resolves with the first time page 1 of a document other than ``before`` (an image key) is
# painted and its reader visible: the paint mark, or the first frame the reader showed.
SHOWN = (
    "([before, t0, limit]) => new Promise((resolve, reject) => {"
    + DEEP
    + """
  const stop = setTimeout(() => reject(new Error("page 1 not painted on screen")), limit);
  let seen = null;
  const frame = (now) => {
    const img = deep("[data-testid=page-image]");
    const visible = img && getComputedStyle(img).visibility === "visible";
    if (visible && seen === null) seen = now;
    const marks = performance.getEntriesByName("bh-page-shown");
    const mark = marks[marks.length - 1];
    const painted = mark && mark.startTime > t0 && mark.detail === 1;
    if (visible && painted && img.dataset.key && img.dataset.key !== before) {
      clearTimeout(stop);
      resolve(Math.max(mark.startTime, seen) - t0);
    } else requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})"""
)


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


class ReaderApp(MarimoServer):
    """``marimo run tests/apps/reader_app.py -- --file PATH [--defer 1|live]`` on loopback."""

    def __init__(self, file: Path, log: Path, defer: str = "", preload: bool = True):
        args = ["--file", str(file), *(["--defer", defer] if defer else [])]
        args += [] if preload else ["--preload", "0"]
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        super().__init__(ROOT / "tests/apps/reader_app.py", args, env, log)

    def rss_mb(self) -> tuple[float, float]:
        """(current RSS, peak RSS) in MB of the server process and its children."""
        now = peak = 0.0
        for pid in [self.proc.pid, *_children(self.proc.pid)]:
            status = _status(pid)
            now += status.get("VmRSS", 0) / 1024
            peak += status.get("VmHWM", 0) / 1024
        return now, peak


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


def wait_painted(page, n: int, mark: str = "bh-page-shown") -> float:
    """Wait for the reader to paint 1-based page ``n``; the paint's time (performance.now).

    ``bh-page-shown`` is any paint (a quick low-resolution one included), ``bh-page-sharp``
    the paint at full resolution.
    """
    page.wait_for_function(LAST_MARK, arg=[mark, n], timeout=TIMEOUT, polling="raf")
    return page.evaluate(MARK_TIME, mark)


class PdfJs:
    """pdf.js in its own browser context, library and worker loaded, over a loopback site."""

    def __init__(self, book: Path, work: Path, others: tuple[Path, ...] = ()):
        site_dir = work / "site"
        site_dir.mkdir(exist_ok=True)
        (site_dir / "index.html").write_text(PDFJS_PAGE)
        if not (site_dir / "pdfjs").exists():
            (site_dir / "pdfjs").symlink_to(ensure_pdfjs())
        shutil.copy(book, site_dir / "book.pdf")
        for other in others:  # served under their own names
            shutil.copy(other, site_dir / other.name)
        self.site = StaticSite(site_dir)

    def cold(self, browser) -> float:
        """ms from navigation start to page 1 painted (page, library, worker, file, render)."""
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(f"{self.site.url}/index.html?zoom={ZOOM}#cold")
        page.wait_for_function("() => window.coldDone !== undefined", timeout=TIMEOUT)
        ms = page.evaluate("() => window.coldDone")
        context.close()
        return ms

    def viewer(self, browser, rep: int, name: str = "book.pdf"):
        """A fresh page with the library and worker ready: (page, ms to open + paint page 1
        of ``name``, the book unless another file given to the constructor)."""
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        page.goto(f"{self.site.url}/index.html")
        page.wait_for_function("() => window.ready === true", timeout=TIMEOUT)
        return page, page.evaluate(f"() => openFirst('{name}?rep={rep}', {ZOOM})")

    def stop(self) -> None:
        self.site.stop()


def first_pages(browser, book: Path, work: Path, pdfjs: PdfJs, reps: int) -> dict[str, list]:
    """First page, ours and pdf.js's taken in turn so both see the same machine load.

    Ours: ms from pressing "Open document" to page 1 painted, a fresh app process each time,
    two ways: the reader made when the button is pressed (its cell runs, its view is mounted:
    ``ours``), and one reader on screen from the start that the button's handler opens the
    document in (``live``).
    """
    out: dict[str, list] = {"ours": [], "pdfjs": [], "cold": [], "steps": []}
    out.update(live=[], live_steps=[], fetched=[], fetched_steps=[])
    modes = (
        ("1", True, "ours", "steps", OPEN_STEPS),
        ("1", False, "fetched", "fetched_steps", OPEN_STEPS),
        ("live", True, "live", "live_steps", LIVE_STEPS),
    )
    for rep in range(reps):
        for defer, preload, name, stepped, wanted in modes:
            log = work / f"open-{defer}-{int(preload)}-{rep}.log"
            app = ReaderApp(book, log, defer, preload)
            try:
                context = browser.new_context(viewport=VIEWPORT)
                context.add_init_script(TAP)
                page = context.new_page()
                page.goto(app.url)
                button = page.locator("button", has_text="Open document")
                button.wait_for(timeout=TIMEOUT)
                page.wait_for_timeout(500)  # let the kernel settle after its first run
                t0 = button.evaluate("b => { const t = performance.now(); b.click(); return t; }")
                out[name].append(wait_painted(page, 1) - t0)
                out[stepped].append(steps(page, t0, wanted))
                context.close()
            finally:
                app.stop()
        viewer, ms = pdfjs.viewer(browser, rep)
        out["pdfjs"].append(ms)
        viewer.context.close()
        out["cold"].append(pdfjs.cold(browser))
    return out


def _open_reader(browser, app: ReaderApp):
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(TAP)
    page = context.new_page()
    page.goto(app.url)
    wait_painted(page, 1, "bh-page-sharp")
    page.locator("[data-testid=reader]:not([data-busy])").wait_for(timeout=TIMEOUT)
    return page


def _zoom(page, book: Path) -> float:
    from basehalf_core.documents.document import open_document

    width = page.locator("[data-testid=page-image]").evaluate("c => Number(c.dataset.width)")
    return width / open_document(book).page_size(0)[0]


def jumps(browser, book: Path, work: Path, pdfjs: PdfJs) -> dict[str, list]:
    """Far jumps, ours (go-to-page → painted, and → sharp) and pdf.js's (at our render zoom)
    taken in turn for each page of :data:`JUMP_PAGES` and the pages 5 before them."""
    app = ReaderApp(book, work / "jumps.log")
    out: dict[str, list] = {"ours": [], "sharp": [], "pdfjs": [], "zoom": [], "steps": []}
    try:
        page = _open_reader(browser, app)
        zoom = _zoom(page, book)
        out["zoom"].append(zoom)
        viewer, _ms = pdfjs.viewer(browser, 0)
        box = page.locator("[data-testid=page-input]")
        for n in [*JUMP_PAGES, *(p - 5 for p in JUMP_PAGES)]:
            # Each tab in front while measured: a tab behind gets no animation frames.
            page.bring_to_front()
            box.fill(str(n + 1))
            t0 = box.evaluate(
                "e => { const t = performance.now();"
                " e.dispatchEvent(new Event('change', { bubbles: true })); return t; }"
            )
            out["ours"].append(wait_painted(page, n + 1) - t0)
            out["sharp"].append(wait_painted(page, n + 1, "bh-page-sharp") - t0)
            wanted = [(k, v.format(page=n, n=n + 1)) for k, v in JUMP_STEPS]
            out["steps"].append(steps(page, t0, wanted))
            viewer.bring_to_front()
            out["pdfjs"].append(viewer.evaluate(f"() => jump({n + 1}, {zoom})"))
        viewer.context.close()
        page.context.close()
    finally:
        app.stop()
    return out


class WorkbenchApp(MarimoServer):
    """``marimo run workbench.py -- --folder FOLDER --open START_NOTE`` on loopback."""

    def __init__(self, folder: Path, log: Path):
        env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
        env["BASEHALF_CONFIG_DIR"] = str(folder.parent / "config")  # no recent-folders write
        args = ["--folder", str(folder), "--open", START_NOTE]
        super().__init__(ROOT / "workbench.py", args, env, log)


def study_folder(book: Path, work: Path) -> Path:
    """The workbench row's folder: the book, :data:`SECOND` and a note grown from neither."""
    folder = work / "study"
    folder.mkdir(exist_ok=True)
    for pdf in (book, CORPUS / SECOND):
        shutil.copy(pdf, folder / pdf.name)
    (folder / START_NOTE).write_text("# Start\n\nWhere the learner starts.\n", encoding="utf-8")
    return folder


def _open_card(page, canvas, name: str) -> tuple[float, float]:
    """Double-click ``name``'s card: (t0, ms from the second click to its page 1 on screen)."""
    before = page.evaluate(KEY)
    at = canvas.evaluate("(el, id) => el.bhCardCenter(id)", name)
    box = canvas.bounding_box()
    page.evaluate("() => { window.__bhUps = []; }")
    page.mouse.dblclick(box["x"] + at["x"], box["y"] + at["y"])
    t0 = page.evaluate("() => window.__bhUps[window.__bhUps.length - 1]")
    return t0, page.evaluate(SHOWN, [before, t0, TIMEOUT])


def workbench(browser, book: Path, work: Path, pdfjs: PdfJs, reps: int) -> dict[str, list]:
    """The workbench row (item 6 of the module docstring), pdf.js taken in turn each time."""
    import conftest  # the tests' wait for a workbench with every cell run

    folder = study_folder(book, work)
    out: dict[str, list] = {"first": [], "switch": [], "back": [], "pdfjs": [], "pdfjs_second": []}
    out.update(first_steps=[], switch_steps=[], back_steps=[])
    for rep in range(reps):
        app = WorkbenchApp(folder, work / f"workbench-{rep}.log")
        try:
            context = browser.new_context(viewport=VIEWPORT)
            context.add_init_script(TAP)
            context.add_init_script(UPS)
            page = context.new_page()
            page.goto(app.url)
            conftest.wait_for_app(page, TIMEOUT)
            canvas = page.locator("[data-testid=canvas]")
            page.wait_for_timeout(500)  # let the kernel settle after its first run
            opens = [(book.name, "first"), (SECOND, "switch"), (book.name, "back")]
            for name, key in opens:
                t0, ms = _open_card(page, canvas, name)
                out[key].append(ms)
                out[f"{key}_steps"].append(steps(page, t0, CARD_STEPS))
                page.locator("[data-testid=reader]:not([data-busy])").wait_for(timeout=TIMEOUT)
                conftest.wait_for_app(page, TIMEOUT)
                page.wait_for_timeout(500)
            context.close()
        finally:
            app.stop()
        for name, key in (("book.pdf", "pdfjs"), (SECOND, "pdfjs_second")):
            viewer, ms = pdfjs.viewer(browser, rep, name)
            out[key].append(ms)
            viewer.context.close()
    return out


def searches(browser, book: Path, work: Path, reps: int) -> dict[str, list]:
    """Search from the search box: ms from Enter to the first hit marked and to the search
    over, each taken in turn with PyMuPDF's ``search_for`` over every page.

    Cold (what a learner meets first): a fresh app per repetition, the book just opened, the
    search typed as soon as page 1 is on screen, so nothing of the book's text is read yet;
    against ``search_for`` over a freshly opened ``pymupdf.Document``. Repeat: further
    searches in the last app, alternating the case of the query; these reuse the page text
    the first search and the reader's background scan read, so they are set against
    ``search_for`` over one document kept open (searched before: PyMuPDF's warm state).
    """
    import pymupdf

    out: dict[str, list] = {k: [] for k in ("cold_first", "cold_done", "cold_search_for")}
    out.update(first=[], done=[], search_for=[], none_done=[], none_search_for=[])
    warm = pymupdf.open(book)
    try:
        for rep in range(reps):
            app = ReaderApp(book, work / f"search-{rep}.log")
            try:
                page = _open_reader(browser, app)
                first, done = _search_once(page, QUERY)
                out["cold_first"].append(first)
                out["cold_done"].append(done)
                if rep == reps - 1:
                    _search_for(warm, QUERY)  # PyMuPDF's warm state: this document searched once
                    for again in range(reps):
                        query = QUERY.upper() if again % 2 == 0 else QUERY
                        first, done = _search_once(page, query)
                        out["first"].append(first)
                        out["done"].append(done)
                        # The app quiet again (the hit page made sharp, its neighbours
                        # rendered) before the baseline, which should not share the cores.
                        page.wait_for_timeout(QUIET_MS)
                        out["search_for"].append(_search_for(warm, query))
                page.context.close()
            finally:
                app.stop()
            # After the app is gone: its background scan (started once the reader is idle)
            # would otherwise slow PyMuPDF's run and flatter the ratio.
            with pymupdf.open(book) as fresh:
                out["cold_search_for"].append(_search_for(fresh, QUERY))
            # Cold, no match: another fresh app, its first search one that finds nothing (the
            # reader then tries its reading-order rules too before it says so).
            app = ReaderApp(book, work / f"search-none-{rep}.log")
            try:
                page = _open_reader(browser, app)
                out["none_done"].append(_search_once(page, NO_MATCH, hit=False)[1])
                page.context.close()
            finally:
                app.stop()
            with pymupdf.open(book) as fresh:
                out["none_search_for"].append(_search_for(fresh, NO_MATCH))
    finally:
        warm.close()
    return out


# Enter in the search box; the search is over when the reader's ``data-searching`` turns back
# to false after turning true: stamped when the attribute changes (a mutation observer), not
# when the test's next poll happens to see it.
SEARCH_ENTER = """e => {
  const root = e.closest("[data-testid=reader]");
  let running = false;
  window.__bhSearchOver = null;
  const seen = new MutationObserver(() => {
    if (root.dataset.searching === "true") running = true;
    else if (running && window.__bhSearchOver === null) {
      window.__bhSearchOver = performance.now();
      seen.disconnect();
    }
  });
  seen.observe(root, { attributes: true, attributeFilter: ["data-searching"] });
  const t = performance.now();
  e.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", bubbles: true }));
  return t;
}"""


def _search_once(page, query: str, hit: bool = True) -> tuple[float, float]:
    """Type ``query`` in the reader's search box and press Enter: ms to the first hit marked
    (NaN for a query without ``hit``) and to the search over (the reader no longer says it is
    searching)."""
    box = page.locator("[data-testid=reader-search]")
    box.fill(query)
    t0 = box.evaluate(SEARCH_ENTER)
    first = float("nan")
    if hit:
        page.locator("[data-testid=search-hit]").first.wait_for(timeout=TIMEOUT)
        first = page.evaluate("() => performance.now()") - t0
    page.wait_for_function("() => window.__bhSearchOver !== null", timeout=TIMEOUT)
    return first, page.evaluate("() => window.__bhSearchOver") - t0


def _search_for(pdf, query: str) -> float:
    """ms for PyMuPDF's ``search_for`` over every page of ``pdf``."""
    t = time.perf_counter()
    for pg in pdf:
        pg.search_for(query)
    return (time.perf_counter() - t) * 1e3


def paging(browser, book: Path, work: Path, pdfjs: PdfJs, pages: int) -> dict[str, list]:
    """Page 1 → ``pages`` with the → key, a reading pause per page: RSS of the app sampled
    along the way as (page, RSS MB, peak MB), ms from each key press to the page painted, and
    pdf.js's next page (getPage + render at our zoom) taken right after each of ours."""
    app = ReaderApp(book, work / "rss.log")
    out: dict[str, list] = {"samples": [], "turns": [], "pdfjs": []}
    marks = {1, 10, 25, 50, 100, 150, 200, 250, pages}
    try:
        page = _open_reader(browser, app)
        zoom = _zoom(page, book)
        viewer, _ms = pdfjs.viewer(browser, 0)
        out["samples"].append((1, *app.rss_mb()))
        page.locator("[data-testid=reader]").focus()
        for n in range(2, pages + 1):
            page.bring_to_front()
            page.wait_for_timeout(READING_PAUSE_MS)
            t0 = page.evaluate("() => performance.now()")
            page.keyboard.press("ArrowRight")
            out["turns"].append(wait_painted(page, n) - t0)
            if n <= WALK_FIRST + WALK_PAGES:
                viewer.bring_to_front()
                out["pdfjs"].append(viewer.evaluate(f"() => jump({n}, {zoom})"))
            if n in marks:
                out["samples"].append((n, *app.rss_mb()))
        viewer.context.close()
        page.context.close()
    finally:
        app.stop()
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions of open and search")
    parser.add_argument("--no-rss", action="store_true", help="skip the 285-page walk")
    parser.add_argument(
        "--only", choices=PARTS, action="append", help="run only these parts (repeatable)"
    )
    args = parser.parse_args(argv)
    parts = set(args.only or PARTS) - ({"rss"} if args.no_rss else set())

    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT))
    from basehalf_core.documents.document import open_document

    book = CORPUS / BOOK
    pages = open_document(book).page_count
    with tempfile.TemporaryDirectory(prefix="bh-reader-bench-") as tmp, sync_playwright() as pw:
        work = Path(tmp)
        browser = launch_chromium(pw)
        pdfjs = PdfJs(book, work, (CORPUS / SECOND,))
        try:
            bench = (
                workbench(browser, book, work, pdfjs, args.reps) if "workbench" in parts else None
            )
            first = first_pages(browser, book, work, pdfjs, args.reps) if "first" in parts else None
            jump = jumps(browser, book, work, pdfjs) if "jump" in parts else None
            found = searches(browser, book, work, args.reps) if "search" in parts else None
            walk = paging(browser, book, work, pdfjs, pages) if "rss" in parts else None
        finally:
            pdfjs.stop()
            browser.close()
    report(first, jump, found, walk, pages, args.reps)
    if bench is not None:
        _report_workbench(bench, pages, args.reps)


def _breakdown(runs: list[dict[str, float]], names: list[str]) -> None:
    """Median ms from the start to each step, and from the step before (runs that saw both)."""
    print("  breakdown (median ms from the start | from the step before; n = runs seen):")
    before = None
    for name in names:
        at = [r[name] for r in runs if name in r]
        if not at:
            print(f"    {name:40s}   not seen")
            continue
        gaps = [r[name] - r[before] for r in runs if name in r and before in r] if before else at
        gap = f"{statistics.median(gaps):+7.1f}" if gaps else "      ?"
        print(f"    {name:40s} {statistics.median(at):7.1f} | {gap}  (n={len(at)})")
        before = name


def _all(times: list[float]) -> str:
    return ", ".join(f"{t:.0f}" for t in times)


def report(first, jump, found, walk, pages: int, reps: int) -> None:
    """Print every figure measured (``None``: a part not run) and its ratio to the baseline
    measured in the same run."""
    if first is not None:
        _report_first(first, pages, reps)
    if jump is not None:
        _report_jump(jump)
    if found is not None:
        _report_search(found, reps)
    if walk is not None:
        _report_walk(walk, pages)


def _report_first(first, pages: int, reps: int) -> None:
    med = statistics.median
    print(f"first page visible, {BOOK} ({pages} pp), zoom {ZOOM}, median of {reps}:")
    print(f"  basehalf reader (press Open -> page painted):        {med(first['ours']):7.1f} ms")
    print(f"  the same, the reader's script not preloaded:         {med(first['fetched']):7.1f} ms")
    print(f"  basehalf reader on screen, open_document -> painted: {med(first['live']):7.1f} ms")
    print(
        f"  pdf.js {PDFJS_VERSION} (getDocument -> page painted):"
        f"      {med(first['pdfjs']):7.1f} ms"
    )
    print(f"  pdf.js from navigation (library+worker+file+render): {med(first['cold']):7.1f} ms")
    ratio = med(first["ours"]) / med(first["pdfjs"])
    print(f"  ratio ours / pdf.js (library ready): {ratio:.2f}  (goal <= 0.50)")
    ratio = med(first["fetched"]) / med(first["pdfjs"])
    print(f"  ratio ours, script not preloaded / pdf.js (library ready): {ratio:.2f}")
    ratio = med(first["live"]) / med(first["pdfjs"])
    print(f"  ratio ours on screen / pdf.js (library ready): {ratio:.2f}  (goal <= 0.50)")
    print(f"  ratio ours / pdf.js (from navigation): {med(first['ours']) / med(first['cold']):.2f}")
    print(f"  ours all: {_all(first['ours'])}; pdf.js all: {_all(first['pdfjs'])}")
    print(f"  ours, script not preloaded, all: {_all(first['fetched'])}")
    print(f"  ours on screen all: {_all(first['live'])}")
    print("  painted = first frame after a page image is drawn (a quick low-resolution one counts)")
    _breakdown(first["steps"], [name for name, _ in OPEN_STEPS])
    print("  the same, the reader's script not preloaded:")
    _breakdown(first["fetched_steps"], [name for name, _ in OPEN_STEPS])
    print("  the reader on screen from the start (Reader.open_document):")
    _breakdown(first["live_steps"], [name for name, _ in LIVE_STEPS])


def _report_jump(jump) -> None:
    med = statistics.median
    n = len(jump["ours"])
    print(f"jump to a far page ({n} pages), median, render zoom {jump['zoom'][0]:.2f}:")
    print(f"  basehalf reader (go to page -> painted):       {med(jump['ours']):7.1f} ms")
    print(f"  basehalf reader (go to page -> sharp painted): {med(jump['sharp']):7.1f} ms")
    print(f"  pdf.js (getPage + render -> painted):          {med(jump['pdfjs']):7.1f} ms")
    print(f"  ratio ours / pdf.js: {med(jump['ours']) / med(jump['pdfjs']):.2f}  (goal <= 1.50)")
    print(f"  ratio ours sharp / pdf.js: {med(jump['sharp']) / med(jump['pdfjs']):.2f}")
    print(f"  ours all: {_all(jump['ours'])}")
    print(f"  ours sharp all: {_all(jump['sharp'])}")
    print(f"  pdf.js all: {_all(jump['pdfjs'])}")
    _breakdown(jump["steps"], [name for name, _ in JUMP_STEPS])


def _report_search(found, reps: int) -> None:
    med = statistics.median
    print(
        f"search {QUERY!r} from the search box, {reps} cold (a fresh app each) and {reps} repeat:"
    )
    print("  cold: the book just opened, nothing of its text read yet (a learner's first search)")
    print(f"    basehalf reader, Enter -> first hit marked: {med(found['cold_first']):7.1f} ms")
    print(f"    basehalf reader, Enter -> search over:      {med(found['cold_done']):7.1f} ms")
    print(
        "    PyMuPDF search_for over every page (freshly opened document):"
        f" {med(found['cold_search_for']):7.1f} ms"
    )
    ratio = med(found["cold_done"]) / med(found["cold_search_for"])
    print(f"    ratio ours cold (over) / search_for cold: {ratio:.2f}  (goal <= 1.20)")
    print(
        "    ratio ours cold (first hit) / search_for cold:"
        f" {med(found['cold_first']) / med(found['cold_search_for']):.2f}"
    )
    cold, base = _all(found["cold_done"]), _all(found["cold_search_for"])
    print(f"    ours all: {cold}; search_for all: {base}")
    print(f"  cold, no match: {NO_MATCH!r} as a fresh app's first search (nothing found)")
    print(f"    basehalf reader, Enter -> search over:      {med(found['none_done']):7.1f} ms")
    print(
        "    PyMuPDF search_for over every page (freshly opened document):"
        f" {med(found['none_search_for']):7.1f} ms"
    )
    ratio = med(found["none_done"]) / med(found["none_search_for"])
    print(f"    ratio ours cold no match (over) / search_for cold: {ratio:.2f}")
    none, base = _all(found["none_done"]), _all(found["none_search_for"])
    print(f"    ours all: {none}; search_for all: {base}")
    print("  repeat: the same app, query case alternating (the page text read before is reused)")
    print(f"    basehalf reader, Enter -> first hit marked: {med(found['first']):7.1f} ms")
    print(f"    basehalf reader, Enter -> search over:      {med(found['done']):7.1f} ms")
    print(
        "    PyMuPDF search_for over every page (one document kept open):"
        f" {med(found['search_for']):7.1f} ms"
    )
    ratio = med(found["done"]) / med(found["search_for"])
    print(f"    ratio ours repeat (over) / search_for warm: {ratio:.2f}  (goal <= 1.20)")
    print(f"    ours all: {_all(found['done'])}; search_for all: {_all(found['search_for'])}")


def _report_walk(walk, pages: int) -> None:
    med = statistics.median
    turns, samples = walk["turns"], walk["samples"]
    print(f"RSS of the marimo app while paging 1 -> {pages} with the right-arrow key:")
    for page, now, _peak in samples:
        print(f"  after page {page:3d}: {now:6.1f} MB")
    base = next(now for page, now, _ in samples if page >= 10)
    print(f"  growth page 10 -> {pages}: {samples[-1][1] - base:+.1f} MB (goal: flat)")
    print(f"  peak (VmHWM): {samples[-1][2]:.1f} MB (goal < 400 MB)")
    q90 = statistics.quantiles(turns, n=10)[-1]
    print(
        f"next page (key -> painted, {READING_PAUSE_MS} ms pause per page): median"
        f" {med(turns):.1f} ms, 90th percentile {q90:.1f} ms"
    )
    mine = turns[: len(walk["pdfjs"])]
    print(
        f"  pdf.js next page (getPage + render, pages 2..{len(mine) + 1}, each right after ours):"
        f" median {med(walk['pdfjs']):.1f} ms; ours on those pages {med(mine):.1f} ms"
    )
    print(f"  ratio ours / pdf.js next page: {med(mine) / med(walk['pdfjs']):.2f}  (goal <= 1.00)")


def _report_workbench(bench, pages: int, reps: int) -> None:
    med = statistics.median
    first, pdfjs = med(bench["first"]), med(bench["pdfjs"])
    switch, pdfjs_second = med(bench["switch"]), med(bench["pdfjs_second"])
    print(f"the workbench (marimo run workbench.py), double-click a PDF card, median of {reps}:")
    print(f"  {BOOK} ({pages} pp), from a note (reader empty, hidden):")
    print(f"    basehalf workbench (second click -> page 1 painted, on screen): {first:7.1f} ms")
    print(f"    pdf.js {PDFJS_VERSION} (getDocument -> page 1 painted):      {pdfjs:7.1f} ms")
    print(f"    ratio workbench / pdf.js: {first / pdfjs:.2f}  (goal <= 0.50)")
    print(f"    all: {_all(bench['first'])}; pdf.js all: {_all(bench['pdfjs'])}")
    _breakdown(bench["first_steps"], [name for name, _ in CARD_STEPS])
    print(f"  then {SECOND} (the switch: another document in the same reader):")
    print(f"    basehalf workbench: {switch:7.1f} ms")
    print(f"    pdf.js:             {pdfjs_second:7.1f} ms")
    print(f"    ratio workbench / pdf.js: {switch / pdfjs_second:.2f}")
    print(f"    all: {_all(bench['switch'])}; pdf.js all: {_all(bench['pdfjs_second'])}")
    _breakdown(bench["switch_steps"], [name for name, _ in CARD_STEPS])
    back = med(bench["back"])
    print(f"  then {BOOK} again (back: opened at the page left, page 1 here):")
    print(
        f"    basehalf workbench: {back:7.1f} ms; ratio to pdf.js's first page: {back / pdfjs:.2f}"
    )
    print(f"    all: {_all(bench['back'])}")
    _breakdown(bench["back_steps"], [name for name, _ in CARD_STEPS])


if __name__ == "__main__":
    main()
