"""Agent Area grading in a real browser: verdicts stream in one by one; Cancel writes nothing.

A real marimo server runs the workbench over a copy of the walkthrough's notes and card; a
real loopback server streams the model's reply slowly, chunk by chunk.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import open_practice
from openai_server import grading_reply, start
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TIMEOUT = 90_000


@pytest.fixture
def slow_model():
    base = grading_reply({1: "Correct", 2: "Partial", 3: "Correct", 4: "Wrong"})
    server = start(lambda body: base(body) | {"chunk": 16, "chunk_delay": 0.25})
    yield server
    server.stop()


def open_workbench(marimo_app, page, tmp_path: Path, server) -> Path:
    return open_practice(marimo_app, page, tmp_path, "openai/streaming-grader", server.base_url)


def arrivals(
    page, until: str, limit: float = 180, spinning: set[str] | None = None
) -> list[tuple[str, int]]:
    """(state, verdicts shown) each time it changes, until ``until`` or an end state.

    ``spinning``, if given, collects the states seen with the spinner on screen.
    """
    seen: list[tuple[str, int]] = []
    deadline = time.monotonic() + limit
    box = page.locator("[data-testid=grade-stream]")
    while time.monotonic() < deadline:
        # One read of the element: the output is replaced as verdicts arrive, so a read
        # that finds it gone is simply tried again.
        try:
            got = box.first.evaluate(
                "b => [b.dataset.state, Number(b.dataset.arrived),"
                " b.querySelector('.bh-spinner') !== null]",
                timeout=1000,
            )
        except PlaywrightError:
            got = None
        if got:
            now = (got[0], got[1])
            if got[2] and spinning is not None:
                spinning.add(got[0])
            if not seen or seen[-1] != now:
                seen.append(now)
            if now[0] in (until, "done", "cancelled", "error"):
                return seen
        elif seen and seen[-1][0] == "streaming" and not box.count():
            # Done: the written run refreshed the Agent Area, whose verdict table now shows
            # the run (the stream's own last frame may be gone before this poll sees it).
            seen.append(("gone", seen[-1][1]))
            return seen
        time.sleep(0.03)
    raise AssertionError(f"no {until!r} state; seen {seen}")


def test_verdicts_arrive_one_by_one_with_a_spinner_first(
    marimo_app, browser_page, tmp_path, slow_model
):
    page = browser_page
    folder = open_workbench(marimo_app, page, tmp_path, slow_model)
    page.get_by_role("button", name="Grade").click()
    expect(page.locator("[data-testid=grade-stream] .bh-spinner")).to_be_visible(timeout=TIMEOUT)
    spinning: set[str] = set()
    seen = arrivals(page, "done", spinning=spinning)
    # The stream's last frames can be replaced by the written run's table between two polls
    # on a loaded machine ("gone" after 3 shown): the table below checks all four arrived.
    assert seen[-1] == ("done", 4) or seen[-1][0] == "gone", seen
    # The spinner says work is under way: never on a finished run.
    assert "done" not in spinning, (spinning, seen)
    counts = [n for state, n in seen if state == "streaming"]
    # Shown one at a time: at least three distinct partial tables before the end.
    assert len(set(counts) & {1, 2, 3}) >= 3 and counts == sorted(counts), seen
    table = page.locator("[data-testid=verdicts][data-count='4']")
    expect(table).to_be_visible(timeout=TIMEOUT)
    got = [r.get_attribute("data-verdict") for r in table.locator("tr[data-number]").all()]
    assert got == ["Correct", "Partial", "Correct", "Wrong"]
    assert "model: openai/streaming-grader" in (folder / "06-qkv-practice.grading.md").read_text()
    assert slow_model.requests[0].body.get("stream") is True


def test_cancel_stops_the_stream_and_writes_nothing(marimo_app, browser_page, tmp_path, slow_model):
    page = browser_page
    folder = open_workbench(marimo_app, page, tmp_path, slow_model)
    page.get_by_role("button", name="Grade").click()
    arrivals(page, "streaming")
    page.get_by_role("button", name="Cancel").click()
    spinning: set[str] = set()
    seen = arrivals(page, "cancelled", spinning=spinning)
    assert seen[-1][0] == "cancelled" and seen[-1][1] < 4, seen
    assert "cancelled" not in spinning, (spinning, seen)
    expect(page.locator("[data-testid=grade-stream]")).to_contain_text("nothing was written")
    assert not (folder / "06-qkv-practice.grading.md").exists()


def test_a_model_typed_then_grade_clicked_at_once_grades_with_that_model(
    marimo_app, browser_page, tmp_path
):
    # The learner types a model and goes straight for Grade: the box hands its value over as
    # it loses focus, in the same moment as the click. The click must count, with that model.
    server = start(grading_reply("Correct"))
    try:
        page = browser_page
        folder = open_practice(marimo_app, page, tmp_path, "openai/from-the-env", server.base_url)
        page.get_by_label("Model").fill("openai/typed-just-now")
        page.get_by_role("button", name="Grade").click()
        table = page.locator("[data-testid=agent-area] [data-testid=verdicts][data-count='4']")
        expect(table).to_be_visible(timeout=TIMEOUT)
        assert [r.body["model"] for r in server.requests] == ["typed-just-now"]
        grading = (folder / "06-qkv-practice.grading.md").read_text(encoding="utf-8")
        assert "model: openai/typed-just-now" in grading
    finally:
        server.stop()
