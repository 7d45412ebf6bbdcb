"""A served class under load, and class grading at scale.

Run from the project root (under the shared lock)::

    flock /tmp/bench.lock .venv/bin/python bench/course_server.py --class --learners 30 \
        --browsers 2 --stagger 0.5
    .venv/bin/python bench/course_server.py --grade-class --folders 1000 --sequential 50

``--class``: one ``basehalf serve`` process; LEARNERS learners at once, signing in STAGGER s
apart. The first BROWSERS are Playwright contexts of one chromium (the cross-check); the rest
speak marimo's session protocol without a browser (bench/marimo_session.py), so the figures
measure the server, not 30 chromium pages on the same cores. Each opens their folder; when
all are open, each grows a note from a passage of the PDF, adds a line to it in the note
editor and saves, and grades their practice card offline. Reports p50/p95 of sign-in → folder
open, grow → card drawn (the canvas model's update with the new node), save → the editor's
"Saved" status, grade → verdicts shown; the server's peak RSS and CPU; and checks that
nothing was lost (every learner's note on disk with their edit, their grading file, nothing
of anybody else's in their folder). ``--spread S``: before growing, each learner thinks for a
seeded uniform [0, S) s, so the class's grows fall over S seconds; 0 = all at the same moment.

``--grade-class``: ``grade_class`` over FOLDERS learner folders against the loopback model
server (tests/openai_server.py, its own process) answering after 200 ms: one at a time (over
the first SEQUENTIAL folders), 32 at a time over all, and through a litellm Router of two
deployments (two server processes) 64 at a time. Throughput is graded questions per second.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from class_server import LONGEVAL, PASSWORD, ClassServer, make_class  # noqa: E402
from harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from marimo_session import MarimoSession  # noqa: E402
from playwright.async_api import expect  # noqa: E402

from basehalf_core.teaching import roster  # noqa: E402

CARD = "longeval-human-evaluation/06-longeval-practice.md"
STEPS = [
    ("open", "sign in → folder open"),
    ("grow", "grow → card drawn"),
    ("save", "save edit → saved status"),
    ("grade", "grade offline → verdicts"),
]


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def edit_line(name: str) -> str:
    """The line each learner adds to their grown note and saves (checked on disk afterward)."""
    return f"Edited by {name} in class."


# --- one learner in a browser ---------------------------------------------------------------


async def browser_learner(
    browser, server: ClassServer, name: str, start: float, ready, timeout, think: float
):
    """One learner in a Playwright context of one chromium; returns their timings.

    ``ready`` is a barrier: every learner has their folder open before anyone grows, so the
    grow, save and grade steps of all learners overlap.
    """
    try:
        await asyncio.sleep(start)  # a class signs in over a few seconds, not in one millisecond
        t0 = time.perf_counter()
        context = await browser.new_context(viewport={"width": 1400, "height": 2400})
        context.set_default_timeout(timeout * 1000)
        context.set_default_navigation_timeout(timeout * 1000)
        page = await context.new_page()
        await page.goto(server.url + "/")
        await page.fill("input[name=name]", name)
        await page.fill("input[name=password]", PASSWORD.format(name=name))
        await page.click("button[type=submit]")
        await page.wait_for_selector("[data-testid=text-layer] span", state="attached")
        await page.wait_for_selector("[data-testid=canvas][data-node-count]")
        opened = time.perf_counter() - t0
    except Exception:
        await ready.abort()  # the others must not wait for a learner who never arrives
        raise
    print(f"{name} open after {opened:.1f} s", flush=True)
    await ready.wait()
    await asyncio.sleep(think)
    canvas = page.locator("[data-testid=canvas]")
    before = int(await canvas.get_attribute("data-node-count"))
    spans = page.locator("[data-testid=text-layer] span")
    a = await spans.nth(0).bounding_box()
    z = await spans.nth(5).bounding_box()
    await page.mouse.move(a["x"] + 1, a["y"] + a["height"] / 2)
    await page.mouse.down()
    await page.mouse.move(z["x"] + z["width"] - 1, z["y"] + z["height"] / 2, steps=12)
    await page.mouse.up()
    title = page.locator("[data-testid=branch-title]")
    await expect(title).not_to_have_value("", timeout=timeout * 1000)  # the passage was offered
    await title.fill(f"{name} grew this")
    t = time.perf_counter()
    await page.click("[data-testid=grow-branch]")
    await page.wait_for_selector(f"[data-testid=canvas][data-node-count='{before + 1}']")
    grow = time.perf_counter() - t
    # The grow form gives way to the new note in Card Detail (so no grow status to read):
    # the pane's data-path names the grown note.
    detail = page.locator(f"[data-testid=card-detail][data-path$='{name}-grew-this.md']")
    await detail.wait_for()
    grown = await detail.get_attribute("data-path")
    editor = page.locator("[data-testid=note-editor]")
    await expect(editor).to_have_value(re.compile(f"{name} grew this"), timeout=timeout * 1000)
    await editor.fill(await editor.input_value() + "\n" + edit_line(name) + "\n")
    t = time.perf_counter()
    await page.click("[data-testid=note-save]")
    await expect(page.locator("[data-testid=note-status]")).to_have_text(
        re.compile("^Saved"), timeout=timeout * 1000
    )
    save = time.perf_counter() - t
    await page.get_by_label("Practice card").select_option(CARD)
    t = time.perf_counter()
    await page.get_by_role("button", name="Grade").click()
    await page.wait_for_selector("[data-testid=verdicts]:not([data-count='0'])")
    grade = time.perf_counter() - t
    await context.close()
    return {"open": opened, "grow": grow, "save": save, "grade": grade, "grown": grown}


# --- one learner over marimo's session protocol ---------------------------------------------


async def protocol_learner(
    server: ClassServer, name: str, start: float, ready, timeout: float, think: float
):
    """The same learner without a browser (:mod:`marimo_session`); returns their timings.

    grow → card drawn is the time from the Grow click's ``set_model_value`` to the canvas
    model's update that carries the new node (what makes vis-network draw the card); save is
    the note editor's Save to its ``Saved …`` status; grade is Grade to the verdict table.
    """
    s = MarimoSession(server.url, name, PASSWORD.format(name=name), timeout)
    try:
        try:
            await asyncio.sleep(start)
            t0 = time.perf_counter()
            await s.open()
            await s.wait(lambda: s.model("reader.Reader")[1].get("words"), "text layer")
            await s.start_like_a_browser()
            opened = time.perf_counter() - t0
        except Exception:
            await ready.abort()
            raise
        print(f"{name} open after {opened:.1f} s", flush=True)
        await ready.wait()
        await asyncio.sleep(think)

        def nodes() -> int:
            return len(s.model("canvas.Canvas")[1].get("nodes") or [])

        before = nodes()
        reader_id, reader = s.model("reader.Reader")
        words = reader["words"][:6]
        selection = {
            "page": reader["words_page"],
            "start": 0,
            "end": len(words) - 1,
            "covered": list(range(len(words))),
            "text": " ".join(w[4] for w in words),
        }
        await s.set_model(reader_id, {"selection": selection})
        await s.wait(lambda: s.model("grow_form.GrowForm")[1].get("title"), "suggested title")
        form_id, form = s.model("grow_form.GrowForm")
        title = f"{name} grew this"
        await s.set_model(form_id, {"title": title})
        t = time.perf_counter()
        await s.set_model(form_id, {"title": title, "requests": form.get("requests", 0) + 1})
        await s.wait(lambda: nodes() == before + 1, "new card on the canvas")
        grow = time.perf_counter() - t

        def shown() -> dict:
            return s.model("note_editor.NoteEditor")[1].get("doc") or {}

        await s.wait(lambda: shown().get("path", "").endswith(f"{name}-grew-this.md"), "note")
        doc = shown()
        editor_id, _ = s.model("note_editor.NoteEditor")
        typed = {
            "path": doc["path"],
            "text": doc["text"] + "\n" + edit_line(name) + "\n",
            "title": doc.get("title", ""),
            "save": True,
            "n": int(time.time() * 1000),
        }
        t = time.perf_counter()
        await s.set_model(editor_id, {"typed": typed})
        await s.wait(
            lambda: s.model("note_editor.NoteEditor")[1].get("status", "").startswith("Saved"),
            "saved status",
        )
        save = time.perf_counter() - t
        t = time.perf_counter()
        await s.set_ui(s.element("button", "Grade"), 1)
        await s.wait(lambda: s.html_has(r'data-testid="verdicts" data-count="[1-9]'), "verdicts")
        grade = time.perf_counter() - t
        return {"open": opened, "grow": grow, "save": save, "grade": grade, "grown": doc["path"]}
    finally:
        await s.close()


# --- the class --------------------------------------------------------------------------------


def lost(root: Path, names: list[str], out: dict) -> list[str]:
    """What is not as the learners' actions say (empty: nothing lost)."""
    problems = []
    for name in names:
        folder = roster.folder_of(root, name)
        if name not in out:
            problems.append(f"{name}: did not finish")
            continue
        note = folder / out[name]["grown"]
        text = note.read_text(encoding="utf-8") if note.is_file() else ""
        if f"# {name} grew this" not in text or edit_line(name) not in text:
            problems.append(f"{name}: the grown note is missing, not theirs, or lacks the edit")
        if not (folder / CARD.replace(".md", ".grading.md")).is_file():
            problems.append(f"{name}: no grading file")
        mine = f"{name}-grew-this"
        strays = [p for p in folder.rglob("*-grew-this*") if not p.name.startswith(mine)]
        problems += [f"{name}: holds {p.name}" for p in strays]
    return problems


def class_bench(
    learners: int, stagger: float, browsers: int, timeout: float, spread: float
) -> None:
    """LEARNERS at once against one server (the first BROWSERS in chromium); prints the table.

    When all are open, each learner waits a think time drawn uniformly from [0, SPREAD) s
    (seeded: the same draws every run) before growing; 0 is everyone clicking at once.
    """
    with tempfile.TemporaryDirectory() as tmp:
        names = [f"l{i:02d}" for i in range(learners)]
        root = make_class(Path(tmp), *names, sessions=(LONGEVAL,), passwords=True)
        for name in names:  # each learner wrote answers in an editor before class
            shutil.copy(ROOT / "sessions" / CARD, roster.folder_of(root, name) / CARD)
        server = ClassServer(root, Path(tmp) / "serve.log", env={"BASEHALF_MODEL": ""})
        import psutil

        proc = psutil.Process(server.proc.pid)
        peak = [proc.memory_info().rss]
        done = threading.Event()

        def sample() -> None:
            while not done.wait(0.5):
                try:
                    peak[0] = max(peak[0], proc.memory_info().rss)
                except psutil.Error:
                    return

        threading.Thread(target=sample, daemon=True).start()
        out: dict = {}
        kinds = {n: "browser" if i < browsers else "protocol" for i, n in enumerate(names)}
        draw = random.Random(14)
        think = {n: draw.uniform(0, spread) for n in names}

        async def run() -> None:
            from playwright.async_api import async_playwright

            ready = asyncio.Barrier(len(names))
            async with async_playwright() as pw:
                browser = None
                if browsers:
                    browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                jobs = [
                    browser_learner(browser, server, n, i * stagger, ready, timeout, think[n])
                    if kinds[n] == "browser"
                    else protocol_learner(server, n, i * stagger, ready, timeout, think[n])
                    for i, n in enumerate(names)
                ]
                results = await asyncio.gather(*jobs, return_exceptions=True)
                for n, r in zip(names, results, strict=True):
                    if isinstance(r, BaseException):
                        print(f"{n}: {type(r).__name__}: {(str(r) or '-').splitlines()[0]}")
                    else:
                        out[n] = r
                if browser is not None:
                    await browser.close()

        t = time.perf_counter()
        cpu0 = sum(proc.cpu_times()[:2])
        try:
            asyncio.run(run())
        finally:
            wall = time.perf_counter() - t
            cpu = sum(proc.cpu_times()[:2]) - cpu0
            load = os.getloadavg()
            done.set()
            server.stop()
        problems = lost(root, names, out)
        if problems:
            print(server.log.read_text(errors="replace")[-3000:])
    print(
        f"{learners} learners at once against one basehalf serve ({browsers} in chromium, "
        f"{learners - browsers} over marimo's session protocol; sign-ins {stagger:g} s apart; "
        f"grows spread over {spread:g} s; {wall:.0f} s wall)"
    )
    print(f"{'step':<28}{'kind':>9}{'n':>4}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for key, label in STEPS:
        for kind in ("protocol", "browser"):
            vals = [o[key] for n, o in out.items() if kinds[n] == kind]
            if vals:
                print(f"{label:<28}{kind:>9}{len(vals):>4}{pct(vals, 50):>8.2f}"
                      f"{pct(vals, 95):>8.2f}{max(vals):>8.2f}")  # fmt: skip
    print(
        f"server peak RSS: {peak[0] / 2**20:.0f} MiB; server CPU {cpu:.0f} s in {wall:.0f} s wall"
    )
    loads = " ".join(f"{x:.1f}" for x in load)
    print(f"load average at the end (1, 5, 15 min; 2 cores, shared): {loads}")
    print("nothing lost" if not problems else "LOST:\n  " + "\n  ".join(problems))


# --- grade-class at scale ------------------------------------------------------------------


def _bench_grading():
    spec = importlib.util.spec_from_file_location("bench_grading", ROOT / "bench" / "grading.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _model_server(delay: float) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "openai_server.py"), "--delay", str(delay)],
        stdout=subprocess.PIPE,
        text=True,
    )
    return proc, int(proc.stdout.readline())


def grade_class_bench(folders: int, sequential: int) -> None:
    """One at a time vs 32 at once vs a Router of two deployments; prints the table."""
    from basehalf_core.study import llm
    from basehalf_core.teaching import classroom, traffic

    make_course = _bench_grading()._course
    servers = [_model_server(0.2), _model_server(0.2)]
    bases = [f"http://127.0.0.1:{port}/v1" for _, port in servers]
    direct = llm.ModelConfig("openai/bench", bases[0], timeout=60)
    llm.complete(direct, [{"role": "user", "content": "warm-up"}])
    plan = traffic.Traffic(
        deployments=[{"model": "openai/bench", "api_base": b, "rpm": 100_000} for b in bases],
        retries=2,
    )
    router = traffic.make_router(plan)
    rows = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            small = make_course(Path(tmp), sequential)
            big = make_course(Path(tmp), folders)
            runs = [
                ("one at a time", small, 1, None),
                ("32 at once", big, 32, None),
                ("Router, 2 deployments, 64 at once", big, 64, router),
            ]
            for label, course, conc, via in runs:
                llm.set_transport(traffic.transport(via, None) if via else None)
                t = time.perf_counter()
                report = classroom.grade_class(
                    course, "practice.md", concurrency=conc, config=direct
                )
                wall = time.perf_counter() - t
                graded = sum(len(r.run.grades) for r in report.results if r.run)
                rows.append((label, len(report.results), graded, wall, len(report.failures)))
    finally:
        llm.set_transport(None)
        for proc, _ in servers:
            proc.terminate()
            proc.wait()
    print("grade-class, loopback OpenAI-compatible server answering after 200 ms")
    print(f"{'run':<36}{'learners':>9}{'questions':>10}{'wall s':>8}{'q/s':>8}{'failed':>7}")
    for label, n, graded, wall, failed in rows:
        print(f"{label:<36}{n:>9}{graded:>10}{wall:>8.1f}{graded / wall:>8.1f}{failed:>7}")
    base = rows[0][2] / rows[0][3]
    for label, _, graded, wall, _ in rows[1:]:
        print(f"throughput, {label} vs one at a time: {graded / wall / base:.1f}x")


def main(argv: list[str] | None = None) -> None:
    """Entry point; see the module docstring."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--class", dest="klass", action="store_true", help="a served class")
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--browsers", type=int, default=2, help="of the learners, in chromium")
    ap.add_argument("--stagger", type=float, default=0.5, help="seconds between sign-ins")
    ap.add_argument("--timeout", type=float, default=300, help="seconds any one step may take")
    ap.add_argument(
        "--spread", type=float, default=0, help="think time before growing: uniform [0, S) s"
    )
    ap.add_argument("--grade-class", action="store_true")
    ap.add_argument("--folders", type=int, default=1000)
    ap.add_argument("--sequential", type=int, default=50)
    args = ap.parse_args(argv)
    if args.klass:
        browsers = min(args.browsers, args.learners)
        class_bench(args.learners, args.stagger, browsers, args.timeout, args.spread)
    if args.grade_class:
        grade_class_bench(args.folders, args.sequential)


if __name__ == "__main__":
    main()
