"""The workbench screen in a real browser: folder picker, note editor edge cases, Agent Area.

Each test drives ``marimo run workbench.py`` in Chromium at 1440×900. The walkthrough
(test_browser_walkthrough.py) tells the learner's story; these pin the bugs and bad inputs.
"""

from __future__ import annotations

import json
import shutil

import pymupdf
import pytest
from conftest import ROOT, corpus, wait_for_app
from playwright.sync_api import expect
from test_browser_walkthrough import boxes_apart

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
EXAMPLE_PDF = "longeval-2023.eacl-main.121.pdf"  # the bundled example's document


def _viewport(page) -> None:
    page.set_viewport_size({"width": 1440, "height": 900})


def test_the_folder_picker_opens_a_folder_without_a_restart(
    marimo_notebook, browser_page, tmp_path
):
    config = tmp_path / "config"
    config.mkdir()
    gone = tmp_path / "a-folder-that-was-deleted"
    other = tmp_path / "other"  # a recent folder with another PDF: the reader follows a switch
    other.mkdir()
    shutil.copy(corpus("sf_multicolumn.pdf"), other / "other.pdf")
    (config / "recent-folders.json").write_text(
        json.dumps({"folders": [str(gone), str(other)]}), encoding="utf-8"
    )
    page = browser_page
    _viewport(page)
    page.goto(marimo_notebook("workbench.py", env={"BASEHALF_CONFIG_DIR": str(config)}))
    picker = page.locator("[data-testid=folder-picker]")
    expect(picker).to_be_visible(timeout=TIMEOUT)
    # The vanished folder is listed as gone, not a crash.
    expect(picker.locator(f"[data-recent='{gone}'][data-gone='1']")).to_contain_text(
        "no longer exists"
    )
    reader = page.locator("[data-testid=reader-pane]")
    expect(reader).to_be_hidden()  # no folder, no document
    page.get_by_role("button", name="Open the bundled example").click()
    wait_for_app(page)
    canvas = page.locator("[data-testid=canvas]")
    expect(canvas).to_have_attribute("data-node-count", "10", timeout=TIMEOUT)
    # The folder's first document is open in the reader.
    expect(reader).to_be_visible(timeout=TIMEOUT)
    pages = pymupdf.open(ROOT / "sessions/longeval-human-evaluation" / EXAMPLE_PDF).page_count
    expect(page.locator("[data-testid=page-number]")).to_have_text(f"1 / {pages}", timeout=TIMEOUT)
    boxes_apart(page)  # 1440×900
    page.set_viewport_size({"width": 1920, "height": 1080})
    boxes_apart(page)
    remembered = json.loads((config / "recent-folders.json").read_text(encoding="utf-8"))
    assert remembered["folders"][0].endswith("sessions/longeval-human-evaluation")
    assert str(gone) in remembered["folders"]
    # "Switch folder" brings the picker back, with the example first among recent folders.
    page.get_by_role("button", name="Switch folder").click()
    expect(picker).to_be_visible(timeout=TIMEOUT)
    expect(picker.locator("[data-testid=recent-folders] li").first).to_have_attribute(
        "data-recent", remembered["folders"][0], timeout=TIMEOUT
    )
    expect(reader).to_be_hidden(timeout=TIMEOUT)
    # Another folder: its own document in the reader, nothing of the last one.
    picker.locator(f"[data-recent='{other}'] button").click()
    wait_for_app(page)
    expect(page.locator("[data-testid=card-detail][data-path='other.pdf']")).to_be_visible(
        timeout=TIMEOUT
    )
    expect(reader).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("[data-testid=page-number]")).to_have_text("1 / 3", timeout=TIMEOUT)
    expect(page.locator("[data-testid=text-layer] span").first).to_have_text(
        "Two-Column", timeout=TIMEOUT
    )


NOTE = "---\nupstream:\n  - b.md\ntags: [x]  # kept as written\n---\n# A\n\nFirst words.\n"
SHAPED = "# Self test\n\n1. What is attention?\n   Answer: A weighted average.\n"


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "study"
    root.mkdir()
    (root / "a.md").write_text(NOTE, encoding="utf-8")
    (root / "b.md").write_text("# B\n\nOther note.\n", encoding="utf-8")
    (root / "bad.md").write_bytes(b"# Caf\xe9\n\nLatin-1 bytes.\n")
    (root / "shaped.md").write_text(SHAPED, encoding="utf-8")
    lines = "".join(f"Line {i}: my own words about attention.\n\n" for i in range(3000))
    (root / "long.md").write_text(f"# Long\n\n{lines}", encoding="utf-8")
    return root


def _editor(page, path):
    editor = page.locator(f"[data-testid=note-editor][data-path='{path}']")
    expect(editor).to_be_visible(timeout=TIMEOUT)
    return editor


def _open(page, path):
    page.get_by_label("Open card").select_option(path)
    expect(page.locator(f"[data-testid=card-detail][data-path='{path}']")).to_be_visible(
        timeout=TIMEOUT
    )


def test_editing_never_loses_words(marimo_app, browser_page, folder, tmp_path):
    page = browser_page
    _viewport(page)
    page.goto(marimo_app(folder, open="a.md", env={"BASEHALF_CONFIG_DIR": str(tmp_path)}))
    wait_for_app(page)
    editor = _editor(page, "a.md")
    assert editor.input_value() == "# A\n\nFirst words.\n"
    editor.fill("# A\n\nFirst words.\n\nMy unsaved thought.\n")
    expect(page.locator("[data-testid=note-dirty]")).to_have_text("unsaved")

    # A click elsewhere and back: the unsaved words are still there.
    _open(page, "b.md")
    _editor(page, "b.md")
    _open(page, "a.md")
    expect(_editor(page, "a.md")).to_have_value(
        "# A\n\nFirst words.\n\nMy unsaved thought.\n", timeout=TIMEOUT
    )

    # Someone else edits the file; Save shows both versions and writes nothing.
    theirs = NOTE.replace("First words.", "Their edit.")
    (folder / "a.md").write_text(theirs, encoding="utf-8")
    page.locator("[data-testid=note-save]").click()
    conflict = page.locator("[data-testid=save-conflict]")
    expect(conflict).to_be_visible(timeout=TIMEOUT)
    expect(conflict.locator("[data-testid=conflict-mine]")).to_contain_text("My unsaved thought")
    expect(conflict.locator("[data-testid=conflict-theirs]")).to_contain_text("Their edit.")
    assert (folder / "a.md").read_text(encoding="utf-8") == theirs
    conflict.locator("[data-testid=conflict-copy]").click()
    expect(page.locator("[data-testid=note-status]")).to_contain_text("a-mine.md", timeout=TIMEOUT)
    assert (folder / "a.md").read_text(encoding="utf-8") == theirs
    copy = (folder / "a-mine.md").read_text(encoding="utf-8")
    assert copy == NOTE.replace("First words.\n", "First words.\n\nMy unsaved thought.\n")
    expect(_editor(page, "a.md")).to_have_value("# A\n\nTheir edit.\n", timeout=TIMEOUT)

    # Save keeps every frontmatter byte; Ctrl+S saves too.
    editor = _editor(page, "a.md")
    editor.fill("# A\n\nTheir edit.\n\nAnd mine, saved.\n")
    editor.press("Control+s")
    expect(page.locator("[data-testid=note-status]")).to_contain_text("Saved a.md")
    assert (folder / "a.md").read_text(encoding="utf-8") == theirs + "\nAnd mine, saved.\n"

    # A note that is not UTF-8 opens read-only and says why.
    _open(page, "bad.md")
    expect(page.locator("[data-testid=note-readonly]")).to_contain_text("not UTF-8")
    assert (
        page.locator("[data-testid=note-editor][data-path='bad.md']").get_attribute("readonly")
        is not None
    )


def test_rename_model_box_and_practice_shaped_cards(marimo_app, browser_page, folder, tmp_path):
    page = browser_page
    _viewport(page)
    page.goto(marimo_app(folder, open="b.md", env={"BASEHALF_CONFIG_DIR": str(tmp_path)}))
    wait_for_app(page)
    page.get_by_label("Model").fill("openai/typed-by-me")
    page.get_by_label("Model").press("Enter")

    # A card shaped like a practice card is offered for grading even without kind: practice.
    options = page.get_by_label("Practice card").locator("option").all_inner_texts()
    assert "shaped.md" in options

    # No extension typed: b.md stays a note. Another kind typed: a warning first.
    _open(page, "b.md")
    box = page.get_by_label("Rename / move to")
    box.fill("b-renamed")
    box.press("Enter")
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("[data-testid=card-detail][data-path='b-renamed.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    assert (folder / "b-renamed.md").exists() and not (folder / "b.md").exists()
    assert "b-renamed.md" in (folder / "a.md").read_text(encoding="utf-8")
    box = page.get_by_label("Rename / move to")
    box.fill("b-renamed.txt")
    box.press("Enter")
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("[data-testid=card-report]")).to_contain_text(
        "changes it from note to other", timeout=TIMEOUT
    )
    assert (folder / "b-renamed.md").exists() and not (folder / "b-renamed.txt").exists()

    # Every folder change above re-ran cells; the Model box still says what was typed.
    assert page.get_by_label("Model").input_value() == "openai/typed-by-me"

    # A long note's preview scrolls in itself: its links and Rename stay a scroll away.
    _open(page, "long.md")
    expect(page.locator("[data-testid=note-preview]")).to_contain_text("Line 2999", timeout=TIMEOUT)
    detail = page.locator("[data-testid=card-detail]")
    scroll = detail.evaluate("e => e.scrollHeight / e.clientHeight")
    assert scroll < 3, f"Card Detail is {scroll:.0f} screens tall"
    page.get_by_label("Rename / move to").scroll_into_view_if_needed()
    expect(page.get_by_label("Rename / move to")).to_be_in_viewport()
