"""The exported page in headless Chromium with the network cut off."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT

from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import export

pytestmark = pytest.mark.browser

LONGEVAL = ROOT / "sessions" / "longeval-human-evaluation"
ATTENTION = ROOT / "sessions" / "attention-is-all-you-need"


def _open_offline(page, html_file: Path) -> dict[str, list[str]]:
    """Load ``html_file`` with every non-file request aborted; return what was seen."""
    seen: dict[str, list[str]] = {"blocked": [], "console": [], "requests": []}

    def route(r):
        if r.request.url.startswith("file://"):
            r.continue_()
        else:
            seen["blocked"].append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    page.context.set_offline(True)
    page.on("request", lambda req: seen["requests"].append(req.url))
    page.on(
        "console",
        lambda m: seen["console"].append(m.text) if m.type in ("error", "warning") else None,
    )
    page.on("pageerror", lambda e: seen["console"].append(str(e)))
    page.goto(html_file.as_uri())
    page.wait_for_load_state("load")
    return seen


def test_export_shows_every_note_and_the_graph_offline(browser_page, tmp_path):
    out = export.export(LONGEVAL, tmp_path / "longeval.html")
    seen = _open_offline(browser_page, out)
    ws = Workspace.open(LONGEVAL)
    shown = [p for p in ws.learning_path() if ws.nodes[p].kind != "grading"]
    for path in shown:
        section = browser_page.locator(f'section[data-path="{path}"]')
        assert section.is_visible(), path
        assert section.locator("h2").inner_text() == ws.nodes[path].title
    svg = browser_page.locator("svg.bh-graph")
    box = svg.bounding_box()
    assert box and box["width"] > 300 and box["height"] > 200
    assert browser_page.locator("svg.bh-graph g.bh-node").count() == len(ws.learning_path())
    assert browser_page.locator("svg.bh-graph line.bh-edge").count() == ws.graph.number_of_edges()
    verdicts = browser_page.locator(".bh-verdict")
    assert verdicts.count() == 6 and "learner's override" in verdicts.nth(3).inner_text()
    assert seen["requests"] == [out.as_uri()]
    assert seen["blocked"] == [] and browser_page.failed_requests == []
    assert seen["console"] == []


def test_missing_pdf_is_a_dashed_ghost(browser_page, tmp_path):
    out = export.export(ATTENTION, tmp_path / "attention.html")
    seen = _open_offline(browser_page, out)
    ghost = browser_page.locator(
        'svg.bh-graph g.bh-kind-dangling[data-path="attention-is-all-you-need.pdf"]'
    )
    assert ghost.is_visible()
    assert ghost.locator("rect").get_attribute("stroke-dasharray")
    assert "attention-is-all-you-need.pdf" in browser_page.locator(".bh-issues").inner_text()
    assert seen["blocked"] == [] and seen["console"] == []


def test_hostile_notes_run_nothing_and_fetch_nothing(browser_page, tmp_path):
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "01-evil.md").write_text(
        '# <img src=x onerror="window.pwned=1">\n\n'
        "<script>window.pwned=2; alert('x')</script>\n\n"
        '<img src="http://tracker.example/p.gif" onerror="window.pwned=3">\n\n'
        "[click](javascript:window.pwned=4) ![pixel](http://tracker.example/q.png)\n\n"
        "<style>body{background:url(http://tracker.example/bg.png)}</style>\n",
        encoding="utf-8",
    )
    out = export.export(folder, tmp_path / "hostile.html")
    seen = _open_offline(browser_page, out)
    browser_page.locator("a", has_text="click").click()  # a neutralised link goes nowhere
    assert browser_page.evaluate("() => window.pwned") is None
    assert browser_page.evaluate("() => document.scripts.length") == 0
    assert browser_page.dialogs == []
    assert seen["blocked"] == [] and seen["requests"] == [out.as_uri()]
    text = browser_page.locator('section[data-path="01-evil.md"]').inner_text()
    assert "<script>window.pwned=2; alert('x')</script>" in text
