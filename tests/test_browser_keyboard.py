"""The workbench without a mouse: open a note, write and save it, and move through the Ask box.

Chromium at 1440×900, keys only (Tab, Shift+Tab, arrows, typing, Ctrl+S) once the page is up.
"""

from __future__ import annotations

import pytest
from conftest import wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
# The element that has the keyboard, through open shadow roots: "tag|testid|class|text".
FOCUSED = """() => { let e = document.activeElement;
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return e ? [e.tagName, e.getAttribute('data-testid') || '', String(e.className || ''),
              (e.innerText || '').slice(0, 60)].join('|') : ''; }"""


def _tab_to(page, matches, *, limit: int = 60, key: str = "Tab") -> str:
    """Press ``key`` until the focused element's description satisfies ``matches``."""
    for _ in range(limit):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        if matches(focused):
            return focused
    raise AssertionError(f"{key} never reached the element (last: {focused!r})")


def test_a_note_is_opened_written_and_saved_and_tab_leaves_the_ask_box(
    marimo_app, browser_page, tmp_path
):
    folder = tmp_path / "study"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nFirst.\n", encoding="utf-8")
    (folder / "b.md").write_text("# B\n\nSecond.\n", encoding="utf-8")
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(marimo_app(folder, env={"BASEHALF_CONFIG_DIR": str(tmp_path)}))
    wait_for_app(page)
    expect(page.locator("[data-testid=ask] .cm-content")).to_be_attached(timeout=TIMEOUT)

    # Open card, by keyboard; the note opens in the editor.
    _tab_to(page, lambda f: f.startswith("SELECT") and "a.md" in f)
    page.keyboard.press("ArrowDown")
    expect(page.locator("[data-testid=note-editor][data-path='a.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    wait_for_app(page)
    _tab_to(page, lambda f: "|note-editor|" in f)
    page.keyboard.press("Control+End")
    page.keyboard.type("Typed without a mouse.")
    page.keyboard.press("Control+s")
    expect(page.locator("[data-testid=note-status]")).to_contain_text("Saved a.md", timeout=TIMEOUT)
    assert (folder / "a.md").read_text(encoding="utf-8").endswith("Typed without a mouse.")

    # Into the Ask box and out again, both ways: Tab is not taken for indenting there.
    _tab_to(page, lambda f: "cm-content" in f)
    page.keyboard.press("Tab")
    assert "cm-content" not in page.evaluate(FOCUSED)
    _tab_to(page, lambda f: "cm-content" in f, key="Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert "cm-content" not in page.evaluate(FOCUSED)
    assert page.locator("[data-testid=ask] .cm-content").inner_text().strip() in (
        "",
        "Type your message here...",
    )  # no tab characters typed into the question
