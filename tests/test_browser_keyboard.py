"""The workbench without a mouse: grow a branch from a passage, write in it, save, and move
through the Ask box.

Chromium at 1440×900, keys only (Tab, Shift+Tab, Escape, Shift+arrows, typing, Enter, Ctrl+S)
once the page is up.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import corpus, wait_for_app
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


def test_grow_write_save_and_ask_with_the_keyboard_alone(marimo_app, browser_page, tmp_path):
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(corpus("sf_multicolumn.pdf"), folder / "doc.pdf")
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(marimo_app(folder, env={"BASEHALF_CONFIG_DIR": str(tmp_path)}))
    wait_for_app(page)
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)
    expect(page.locator("[data-testid=ask] .cm-content")).to_be_attached(timeout=TIMEOUT)

    # Search for the passage, hand the keys back to the page (Escape), select it with
    # Shift+arrows from the hit, then grow it: the branch title and Enter.
    _tab_to(page, lambda f: "|reader-search|" in f)
    page.keyboard.type("sample document")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=search-hit]").first).to_be_visible(timeout=TIMEOUT)
    page.keyboard.press("Escape")
    assert "|reader|" in page.evaluate(FOCUSED)
    for _ in range(4):
        page.keyboard.press("Shift+ArrowRight")
    passage = page.locator("[data-testid=passage]")
    expect(passage).to_contain_text("sample document with two", timeout=TIMEOUT)
    page.keyboard.press("Shift+ArrowLeft")
    expect(passage).to_contain_text("sample document with (p. 1)", timeout=TIMEOUT)
    _tab_to(page, lambda f: "|branch-title|" in f)
    page.keyboard.type("Keyboard branch")
    page.keyboard.press("Enter")
    expect(page.locator("[data-testid=card-report]")).to_contain_text(
        "Grown: keyboard-branch.md", timeout=TIMEOUT
    )
    assert "quote: sample document with" in (folder / "keyboard-branch.md").read_text("utf-8")

    # The new note is open: write in it and save, keys only.
    expect(page.locator("[data-testid=note-editor][data-path='keyboard-branch.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    wait_for_app(page)
    _tab_to(page, lambda f: "|note-editor|" in f)
    page.keyboard.press("Control+End")
    page.keyboard.type("Typed without a mouse.")
    page.keyboard.press("Control+s")
    expect(page.locator("[data-testid=note-status]")).to_contain_text("Saved", timeout=TIMEOUT)
    assert "Typed without a mouse." in (folder / "keyboard-branch.md").read_text("utf-8")

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
