"""Reader benchmarks (core part): page delivery, open time, memory while paging.

Prints figures as ratios against a baseline measured in the same run, so the numbers mean
the same on a slow or a fast machine:

- delivery: what the reader widget sends for one page (JPEG render + base64 as the bytes trait
  travels + the words JSON) ÷ PyMuPDF's raw render + PNG encode of the same page (goal ≤ 1.5×);
  the same with a PNG page (as the reader sent before) for comparison;
- open: opening the 285-page book ÷ opening a 3-page paper (pages are laid out lazily);
- search: the reader's search (``page_search.search_pages``, cold) ÷ PyMuPDF's ``search_for``
  over every page (goal ≤ 1.2×), and the reading-order ``page_search.find_all`` (what the
  reader used before) ÷ the same;
- RSS while paging through all 285 pages (should stay flat: caches are bounded).

Times are CPU time of this process (``time.process_time``), so a busy machine does not skew
the ratios.

Run: ``.venv/bin/python bench/reader.py`` (``--quick`` for fewer repetitions). The browser
parts (widget round trips) are added beside these as further ``measure_*`` functions.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import sys
import time
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.documents import page_search  # noqa: E402
from basehalf_core.documents.document import Document  # noqa: E402

CORPUS = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared")) / "corpus"
BOOK = CORPUS / "pymupdf_mupdf_explored.pdf"  # 285 pages
PAPER = CORPUS / "attention-1706.03762.pdf"
SMALL = CORPUS / "sf_multicolumn.pdf"  # 3 pages
EPUB = CORPUS / "gutenberg_pg1342.epub"  # laid out by PyMuPDF into ~325 pages
ZOOM = 1.5


def deliver_page(doc: Document, i: int, zoom: float = ZOOM, image: str = "jpeg") -> int:
    """Everything the widget sends for page ``i``; returns the payload size in bytes."""
    data = base64.b64encode(doc.render(i, zoom, image=image).data)  # bytes travel base64
    words = [[*(round(v, 5) for v in w.box), w.text, 1 if w.glue else 0] for w in doc.words(i)]
    return len(data) + len(json.dumps(words, ensure_ascii=False).encode("utf-8"))


def raw_render(pdf: pymupdf.Document, i: int, zoom: float = ZOOM) -> int:
    """The baseline: PyMuPDF's own render + PNG encode, nothing else."""
    pix = pdf[i].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), alpha=False)
    return len(pix.tobytes("png"))


def _clock() -> float:
    # CPU time of this process: on a machine shared with other jobs, wall time measures the
    # neighbours as much as the code (every figure here is single-threaded CPU work).
    return time.process_time()


def _timed(fn, *args) -> float:
    t = _clock()
    fn(*args)
    return _clock() - t


def measure_delivery(path: Path, pages: list[int], repeats: int, image: str = "jpeg") -> dict:
    """Median delivery time per page ÷ median raw render, each page cold (words not cached)."""
    ours, base, sizes = [], [], []
    for _ in range(repeats):
        pdf = pymupdf.open(path)
        doc = Document(path)  # a fresh document: no page text cached yet
        for i in pages:
            base.append(_timed(raw_render, pdf, i))
            t = _clock()
            sizes.append(deliver_page(doc, i, image=image))
            ours.append(_clock() - t)
        doc.close()
        pdf.close()
    o, b = statistics.median(ours), statistics.median(base)
    return {"file": path.name, "pages": len(pages), "ours_ms": o * 1e3, "raw_ms": b * 1e3,
            "ratio": o / b, "kib": statistics.median(sizes) / 1024}  # fmt: skip


def _open_ms(path: Path) -> float:
    t = _clock()
    doc = Document(path)
    elapsed = _clock() - t
    doc.close()
    return elapsed * 1e3


def measure_open(big: Path, small: Path, repeats: int) -> dict:
    """Open (read, fingerprint, parse, count pages) of a big file ÷ a small one."""
    tb = statistics.median(_open_ms(big) for _ in range(repeats))
    ts = statistics.median(_open_ms(small) for _ in range(repeats))
    return {"big": big.name, "small": small.name, "big_ms": tb, "small_ms": ts, "ratio": tb / ts}


def measure_search(path: Path, needle: str, repeats: int) -> dict:
    """Cold whole-document searches, each on a fresh document, taken in turn: the reader's
    ``page_search.search_pages``, the reading-order ``page_search.find_all``, PyMuPDF's
    search_for."""
    times: dict[str, list[float]] = {"ours": [], "reading_order": [], "raw": []}
    found: dict[str, set[int]] = {}
    for _ in range(repeats):
        for name, run in (
            ("ours", lambda d, _p: {h.page for h in page_search.search_pages(d, needle)}),
            ("reading_order", lambda d, _p: {i for i, _r in page_search.find_all(d, needle)}),
            ("raw", lambda _d, p: {i for i, page in enumerate(p) if page.search_for(needle)}),
        ):
            doc, pdf = Document(path), pymupdf.open(path)
            t = _clock()
            found[name] = run(doc, pdf)
            times[name].append(_clock() - t)
            doc.close()
            pdf.close()
    med = {k: statistics.median(v) * 1e3 for k, v in times.items()}
    return {"file": path.name, "needle": needle, **{f"{k}_ms": v for k, v in med.items()},
            "ratio": med["ours"] / med["raw"], "old_ratio": med["reading_order"] / med["raw"],
            **{f"{k}_pages": len(v) for k, v in found.items()}}  # fmt: skip


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def measure_rss(path: Path) -> dict:
    """RSS after each page delivery while paging through every page once."""
    doc = Document(path)
    samples = []
    for i in range(doc.page_count):
        deliver_page(doc, i)
        samples.append(_rss_kib())
    doc.close()
    n = len(samples)
    tenth = max(1, n // 10)
    return {
        "file": path.name,
        "pages": n,
        "rss_after_first_tenth_mib": samples[tenth - 1] / 1024,
        "rss_at_half_mib": samples[n // 2] / 1024,
        "rss_at_end_mib": samples[-1] / 1024,
        "rss_max_mib": max(samples) / 1024,
        "growth_second_half_mib": (samples[-1] - samples[n // 2]) / 1024,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args(argv)
    repeats = 2 if args.quick else 5
    for f in (BOOK, PAPER, SMALL, EPUB):
        if not f.exists():
            print(f"missing corpus file: {f}", file=sys.stderr)
            return 1
    print(f"reader bench (zoom {ZOOM}); ratios against a baseline measured in this run")
    for path, pages in ((BOOK, [0, 7, 40, 100, 150, 200, 250, 284]), (PAPER, list(range(8)))):
        for image in ("jpeg", "png"):
            d = measure_delivery(path, pages, repeats, image)
            print(f"delivery {d['file']} ({image}, {d['kib']:.0f} KiB sent): ours "
                  f"{d['ours_ms']:.1f} ms / raw render+PNG {d['raw_ms']:.1f} ms per page = "
                  f"{d['ratio']:.2f}x (goal <= 1.5x)")  # fmt: skip
    o = measure_open(BOOK, SMALL, repeats)
    print(f"open {o['big']} (285 pp) {o['big_ms']:.1f} ms / {o['small']} (3 pp) "
          f"{o['small_ms']:.1f} ms = {o['ratio']:.2f}x")  # fmt: skip
    for path in (PAPER, EPUB):
        ms = statistics.median(_open_ms(path) for _ in range(repeats))
        size = path.stat().st_size / 2**20
        print(f"open {path.name} ({size:.1f} MiB): {ms:.1f} ms = {ms / o['small_ms']:.1f}x the "
              "3-page file")  # fmt: skip
    for needle in ("reference counting", "Pixmap"):
        sr = measure_search(BOOK, needle, repeats)
        print(f"search {sr['file']} for {sr['needle']!r}: ours {sr['ours_ms']:.0f} ms "
              f"({sr['ours_pages']} pages) / PyMuPDF search_for on every page "
              f"{sr['raw_ms']:.0f} ms ({sr['raw_pages']} pages) = {sr['ratio']:.2f}x "
              f"(goal <= 1.2x); reading-order page_search.find_all {sr['reading_order_ms']:.0f} ms "
              f"({sr['reading_order_pages']} pages) = {sr['old_ratio']:.2f}x")  # fmt: skip
    r = measure_rss(BOOK)
    print(f"RSS paging through {r['pages']} pages of {r['file']}: "
          f"{r['rss_after_first_tenth_mib']:.0f} MiB after 10%, {r['rss_at_half_mib']:.0f} MiB "
          f"at half, {r['rss_at_end_mib']:.0f} MiB at end (max {r['rss_max_mib']:.0f}; "
          f"second half grew {r['growth_second_half_mib']:+.1f} MiB)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
