"""A served class under load, and class grading at scale.

Run from the project root::

    .venv/bin/python bench/course_server.py --browser --learners 30
    .venv/bin/python bench/course_server.py --grade-class --folders 1000 --sequential 50

``--browser``: one ``basehalf serve`` process; N learners, each a Playwright context of one
chromium, all at once: sign in and open their folder, grow a note from a passage of the PDF,
rename it (a saved edit), grade their practice card offline. Reports p50/p95 of grow → card
drawn on the canvas, of the rename → file on disk, of grade → verdicts shown, the server's peak
RSS, and checks that nothing was lost (every learner's files exactly as their actions say, no
file in anybody else's folder).

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

from class_server import LONGEVAL, PASSWORD, ClassServer, make_class  # noqa: E402
from harness import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from playwright.async_api import expect  # noqa: E402

from basehalf_core.teaching import roster  # noqa: E402

CARD = "longeval-human-evaluation/06-longeval-practice.md"
TIMEOUT = 1_200_000


def pct(values: list[float], p: float) -> float:
    """The p-th percentile (nearest rank) of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


async def learner(
    browser, server: ClassServer, name: str, folder: Path, out: dict, start: float, ready
) -> None:
    """One learner's session, starting ``start`` seconds in; timings go to ``out[name]``.

    ``ready`` is a barrier: every learner has their folder open before anyone grows, so the
    grow, save and grade steps of all learners overlap.
    """
    try:
        page, context, opened = await _open(browser, server, name, start)
    except Exception:
        await ready.abort()  # the others must not wait for a learner who never arrives
        raise
    print(f"{name} open after {opened:.1f} s", flush=True)
    await ready.wait()
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
    await expect(title).not_to_have_value("", timeout=TIMEOUT)  # the passage was offered
    await title.fill(f"{name} grew this")
    t = time.perf_counter()
    await page.click("[data-testid=grow-branch]")
    await page.wait_for_selector(
        f"[data-testid=canvas][data-node-count='{before + 1}']", timeout=TIMEOUT
    )
    grow = time.perf_counter() - t
    status = await page.locator("[data-testid=grow-status]").inner_text()
    grown = status.split("Grown: ", 1)[1].strip()
    await page.wait_for_selector(f"[data-testid=card-detail][data-path='{grown}']", timeout=TIMEOUT)
    await page.get_by_label("Rename / move to").fill(f"{name}-edited.md")
    t = time.perf_counter()
    await page.get_by_role("button", name="Rename").click()
    while not (folder / f"{name}-edited.md").exists():
        await asyncio.sleep(0.02)
    save = time.perf_counter() - t
    await page.get_by_label("Practice card").select_option(CARD)
    t = time.perf_counter()
    await page.get_by_role("button", name="Grade").click()
    await page.wait_for_selector("[data-testid=verdicts]:not([data-count='0'])", timeout=TIMEOUT)
    grade = time.perf_counter() - t
    out[name] = {"open": opened, "grow": grow, "save": save, "grade": grade, "grown": grown}
    await context.close()


async def _open(browser, server: ClassServer, name: str, start: float):
    await asyncio.sleep(start)  # a class signs in over a few seconds, not in one millisecond
    t0 = time.perf_counter()
    context = await browser.new_context(viewport={"width": 1400, "height": 2400})
    context.set_default_timeout(TIMEOUT)
    context.set_default_navigation_timeout(TIMEOUT)
    page = await context.new_page()
    await page.goto(server.url + "/")
    await page.fill("input[name=name]", name)
    await page.fill("input[name=password]", PASSWORD.format(name=name))
    await page.click("button[type=submit]")
    await page.wait_for_selector("[data-testid=text-layer] span", state="attached", timeout=TIMEOUT)
    await page.wait_for_selector("[data-testid=canvas][data-node-count]", timeout=TIMEOUT)
    return page, context, time.perf_counter() - t0


def lost(root: Path, names: list[str], out: dict) -> list[str]:
    """What is not as the learners' actions say (empty: nothing lost)."""
    problems = []
    for name in names:
        folder = roster.folder_of(root, name)
        if name not in out:
            problems.append(f"{name}: did not finish")
            continue
        note = folder / f"{name}-edited.md"
        if not note.is_file() or f"# {name} grew this" not in note.read_text():
            problems.append(f"{name}: the renamed note is missing or not theirs")
        if (folder / out[name]["grown"]).exists():
            problems.append(f"{name}: the old name is still there")
        if not (folder / CARD.replace(".md", ".grading.md")).is_file():
            problems.append(f"{name}: no grading file")
        strays = [p for p in folder.rglob("*-edited.md") if p.name != f"{name}-edited.md"]
        problems += [f"{name}: holds {p.name}" for p in strays]
    return problems


def browser_bench(learners: int, stagger: float) -> None:
    """N learners at once against one server; prints the table."""
    from playwright.async_api import async_playwright

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

        async def run() -> None:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                folders = {n: roster.folder_of(root, n) for n in names}
                ready = asyncio.Barrier(len(names))
                results = await asyncio.gather(
                    *(
                        learner(browser, server, n, folders[n], out, i * stagger, ready)
                        for i, n in enumerate(names)
                    ),
                    return_exceptions=True,
                )
                for n, r in zip(names, results, strict=True):
                    if isinstance(r, Exception):
                        print(f"{n}: {type(r).__name__}: {str(r).splitlines()[0]}")
                await browser.close()

        t = time.perf_counter()
        cpu0 = sum(proc.cpu_times()[:2])
        try:
            asyncio.run(run())
        finally:
            wall = time.perf_counter() - t
            cpu = sum(proc.cpu_times()[:2]) - cpu0
            load = os.getloadavg()[0]
            done.set()
            server.stop()
        problems = lost(root, names, out)
        if problems:
            print(server.log.read_text(errors="replace")[-3000:])
    print(
        f"{learners} learners at once against one basehalf serve "
        f"(sign-ins {stagger:g} s apart; {wall:.0f} s wall)"
    )
    print(f"{'step':<28}{'n':>4}{'p50 s':>8}{'p95 s':>8}{'max s':>8}")
    for key, label in [
        ("open", "sign in → folder open"),
        ("grow", "grow → card drawn"),
        ("save", "rename → file on disk"),
        ("grade", "grade offline → verdicts"),
    ]:
        vals = [o[key] for o in out.values()]
        if vals:
            print(f"{label:<28}{len(vals):>4}{pct(vals, 50):>8.2f}{pct(vals, 95):>8.2f}"
                  f"{max(vals):>8.2f}")  # fmt: skip
    print(
        f"server peak RSS: {peak[0] / 2**20:.0f} MiB; server CPU {cpu:.0f} s in {wall:.0f} s wall"
    )
    print(f"load average at the end (2 cores, shared): {load:.1f}")
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
    ap.add_argument("--browser", action="store_true")
    ap.add_argument("--learners", type=int, default=30)
    ap.add_argument("--stagger", type=float, default=0.5, help="seconds between sign-ins")
    ap.add_argument("--grade-class", action="store_true")
    ap.add_argument("--folders", type=int, default=1000)
    ap.add_argument("--sequential", type=int, default=50)
    args = ap.parse_args(argv)
    if args.browser:
        browser_bench(args.learners, args.stagger)
    if args.grade_class:
        grade_class_bench(args.folders, args.sequential)


if __name__ == "__main__":
    main()
