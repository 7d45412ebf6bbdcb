"""A learner's unsaved words in the real app: through a reload, and against another tab's save.

One server, two browser tabs (each its own marimo session) on one note, in Chromium at
1440×900. The note is long, so the two versions differ only far below the top.
"""

from __future__ import annotations

import re

import pytest
from conftest import wait_for_app
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
NOTE = "# Tabs note\n\n" + "".join(f"Line {i} of the note.\n" for i in range(1, 61))
LONG_NAME = "一个很长的中文文件名-注意力机制就是你所需要的一切-the-attention-paper-notes"


def _tab(_browser, url: str, width: int = 1440, height: int = 900):
    """A tab of its own (own context) that accepts "leave this page?" and records it."""
    context = _browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.asked = []  # type: ignore[attr-defined]

    def on_dialog(dialog):
        page.asked.append(dialog.type)  # type: ignore[attr-defined]
        if dialog.type == "beforeunload":
            dialog.accept()
        else:
            dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(url)
    wait_for_app(page)
    return context, page


def _type_at_end(page, words: str):
    editor = page.locator("[data-testid=note-editor][data-path='n.md']")
    expect(editor).to_be_visible(timeout=TIMEOUT)
    editor.click()
    page.keyboard.press("Control+End")
    page.keyboard.type(words)
    return editor


def test_unsaved_words_survive_a_reload_and_a_conflict_shows_where_tabs_differ(
    marimo_app, _browser, tmp_path
):
    folder = tmp_path / "study"
    folder.mkdir()
    note = folder / "n.md"
    note.write_text(NOTE, encoding="utf-8")
    (folder / f"{LONG_NAME}.md").write_text("# 注意力\n", encoding="utf-8")
    url = marimo_app(folder, env={"BASEHALF_CONFIG_DIR": str(tmp_path)})  # no card open
    one_ctx, one = _tab(_browser, url)
    two_ctx, two = _tab(_browser, url, 1024, 768)  # a narrow window
    for page in (one, two):
        page.get_by_label("Open card").select_option("n.md")
    try:
        # Tab one types, does not save, and reloads: the browser asks first, the note opens
        # again and the words come back as unsaved text (nothing was written).
        _type_at_end(one, "Tab one words.")
        one.wait_for_timeout(600)  # past the editor's pause before it reports the text
        one.reload()
        wait_for_app(one)
        assert "beforeunload" in one.asked
        editor = one.locator("[data-testid=note-editor][data-path='n.md']")
        expect(editor).to_have_value(NOTE + "Tab one words.", timeout=TIMEOUT)
        expect(one.locator("[data-testid=note-dirty]")).to_have_text("unsaved", timeout=TIMEOUT)
        assert note.read_text(encoding="utf-8") == NOTE

        # Tab two saves its own words; tab one's Save then shows both versions, each box
        # opened at the line that differs (line 63, far below the top), and writes nothing.
        _type_at_end(two, "Tab two words.")
        # At 1024 px, with a long name among the cards and "unsaved" beside the title, Card
        # Detail is no wider than its column (Save was cut off at its edge).
        expect(two.locator("[data-testid=note-dirty]")).to_have_text("unsaved", timeout=TIMEOUT)
        detail = two.locator("[data-testid=card-detail]")
        assert detail.evaluate("e => e.scrollWidth - e.clientWidth") <= 0
        two.keyboard.press("Control+s")
        expect(two.locator("[data-testid=note-status]")).to_contain_text("Saved", timeout=TIMEOUT)
        theirs = note.read_text(encoding="utf-8")
        editor.press("Control+s")
        conflict = one.locator("[data-testid=save-conflict]")
        expect(conflict).to_be_visible(timeout=TIMEOUT)
        expect(conflict).to_contain_text("differ from line 63")
        for side, words in (("mine", "Tab one words."), ("theirs", "Tab two words.")):
            box = conflict.locator(f"[data-testid=conflict-{side}]")
            mark = box.locator("[data-changed]")
            expect(mark).to_have_text(words)
            one.wait_for_function(
                "([b, m]) => { const r = b.getBoundingClientRect(), s = m.getBoundingClientRect();"
                " return s.top >= r.top && s.bottom <= r.bottom; }",
                arg=[box.element_handle(), mark.element_handle()],
                timeout=TIMEOUT,
            )
        assert note.read_text(encoding="utf-8") == theirs

        # A reload in the middle of that choice: the words are still there, and since the
        # note changed on disk after they were typed, both versions are shown again.
        one.reload()
        wait_for_app(one)
        expect(conflict).to_be_visible(timeout=TIMEOUT)
        expect(conflict.locator("[data-testid=conflict-mine]")).to_contain_text("Tab one words.")
        expect(conflict.locator("[data-testid=conflict-theirs]")).to_contain_text("Tab two words.")
        conflict.locator("[data-testid=conflict-copy]").click()
        expect(one.locator("[data-testid=note-status]")).to_contain_text(
            "n-mine.md", timeout=TIMEOUT
        )
        assert note.read_text(encoding="utf-8") == theirs
        assert (folder / "n-mine.md").read_text(encoding="utf-8").endswith("Tab one words.")
        # Nothing is pending any more: this tab keeps nothing, and leaving does not ask.
        assert one.evaluate("() => Object.keys(sessionStorage).length") == 0

        # The note is renamed outside the app under new unsaved words: they stay on screen
        # (the folder watcher dropped the card), and a copy keeps them.
        editor = _type_at_end(one, "\nWords typed as it went away.")
        one.wait_for_timeout(600)
        note.rename(folder / "moved-away.md")
        gone = one.locator("[data-testid=card-detail][data-path='n.md'][data-gone='1']")
        expect(gone).to_be_visible(timeout=TIMEOUT)
        expect(editor).to_have_value(re.compile("Words typed as it went away.$"))
        expect(conflict).to_contain_text("no longer in the folder", timeout=TIMEOUT)
        expect(conflict.locator("[data-testid=conflict-take]")).to_have_count(0)
        conflict.locator("[data-testid=conflict-copy]").click()
        expect(one.locator("[data-testid=card-detail][data-path='n-mine-2.md']")).to_be_visible(
            timeout=TIMEOUT
        )
        copy = (folder / "n-mine-2.md").read_text(encoding="utf-8")
        assert copy.endswith("Words typed as it went away.")
    finally:
        one_ctx.close()
        two_ctx.close()
