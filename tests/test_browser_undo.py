"""Undo in the real app: a mistaken Grow branch, New note or rename is taken back in place.

The workbench at 1440×900 in Chromium: the status line and its Undo button sit under the canvas,
in sight without scrolling; an undo never removes words the learner saved.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import corpus, wait_for_app
from playwright.sync_api import expect
from test_browser_reader import drag

pytestmark = pytest.mark.browser

TIMEOUT = 60_000


def _in_sight(page, locator) -> None:
    """``locator`` is inside the viewport and inside its pane's visible box (not scrolled off)."""
    page.wait_for_function(
        "el => { const r = el.getBoundingClientRect(); let up = el;"  # out of shadow roots too
        " while (up && !(up.classList && up.classList.contains('bh-pane')))"
        " up = up.parentNode || up.host;"
        " const p = up.getBoundingClientRect();"
        " return r.height > 0 && r.top >= Math.max(0, p.top)"
        " && r.bottom <= Math.min(innerHeight, p.bottom); }",
        arg=locator.element_handle(),
        timeout=TIMEOUT,
    )


def test_undo_takes_back_a_grow_and_a_rename_but_never_saved_words(
    marimo_app, browser_page, tmp_path
):
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(corpus("sf_multicolumn.pdf"), folder / "doc.pdf")
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(marimo_app(folder, open="doc.pdf", env={"BASEHALF_CONFIG_DIR": str(tmp_path)}))
    wait_for_app(page)
    page.wait_for_selector("[data-testid=text-layer] span[data-i='3']", timeout=TIMEOUT)
    report = page.locator("[data-testid=card-report]")
    undo = page.locator("[data-testid=undo] button")

    # A grow the learner did not mean: Undo removes the note and goes back to the document.
    drag(page, 0, 3)
    expect(page.locator("[data-testid=passage]")).not_to_be_empty(timeout=TIMEOUT)
    page.click("[data-testid=grow-branch]")
    expect(report).to_contain_text("Grown: ", timeout=TIMEOUT)
    grown = report.inner_text().split("Grown: ", 1)[1].strip()
    assert (folder / grown).exists()
    expect(undo).to_have_text(f"Undo: remove {grown}", timeout=TIMEOUT)
    page.evaluate("() => document.querySelector('[data-testid=canvas-pane]').scrollTop = 0")
    _in_sight(page, report)
    _in_sight(page, undo)
    undo.click()
    expect(report).to_contain_text(f"Undone: removed {grown}", timeout=TIMEOUT)
    assert not (folder / grown).exists()
    expect(page.locator("[data-testid=card-detail][data-path='doc.pdf']")).to_be_visible(
        timeout=TIMEOUT
    )
    expect(undo).to_have_count(0, timeout=TIMEOUT)

    # A rename with a typo: Undo renames it back.
    page.locator("[data-testid=new-note] button").click()
    expect(report).to_contain_text("Created: new-note.md", timeout=TIMEOUT)
    expect(page.locator("[data-testid=card-detail][data-path='new-note.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    box = page.get_by_label("Rename / move to")
    box.fill("new-ntoe")
    box.press("Enter")
    page.get_by_role("button", name="Rename").click()
    expect(undo).to_have_text("Undo: back to new-note.md", timeout=TIMEOUT)
    undo.click()
    expect(report).to_contain_text("Undone: renamed new-ntoe.md back", timeout=TIMEOUT)
    assert (folder / "new-note.md").exists() and not (folder / "new-ntoe.md").exists()
    expect(page.locator("[data-testid=card-detail][data-path='new-note.md']")).to_be_visible(
        timeout=TIMEOUT
    )

    # Own words saved into a new note: Undo refuses, and the words stay.
    page.locator("[data-testid=new-note] button").click()
    expect(report).to_contain_text("Created: new-note-2.md", timeout=TIMEOUT)
    editor = page.locator("[data-testid=note-editor][data-path='new-note-2.md']")
    expect(editor).to_be_visible(timeout=TIMEOUT)
    editor.fill(editor.input_value() + "My own words.\n")
    editor.press("Control+s")
    expect(page.locator("[data-testid=note-status]")).to_contain_text("Saved", timeout=TIMEOUT)
    undo.click()
    expect(report).to_contain_text("Not undone: new-note-2.md changed", timeout=TIMEOUT)
    assert "My own words." in (folder / "new-note-2.md").read_text(encoding="utf-8")
    assert not page.dialogs
