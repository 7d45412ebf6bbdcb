"""The reader in a real browser: Debian's chromium against a real ``marimo run`` server.

Most tests drive ``tests/apps/reader_app.py`` (the Reader alone, for ``-- --file PATH``); the
last one drives the workbench's Grow flow end to end (``marimo run workbench.py``).
Selections are made by mouse over the word spans' boxes, as a learner drags.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import frontmatter
import pymupdf
import pytest
from conftest import corpus, wait_for_app
from playwright.sync_api import expect

from basehalf_core.documents import document as documents
from basehalf_core.documents import page_search
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import branch

pytestmark = pytest.mark.browser

ACL = "papermage_2023.eacl-main.121.pdf"
ACL_SENTENCE = (
    "Human judgments are considered the gold standard for evaluating model-generated summaries "
    "(Kryscinski et al., 2019; Fabbri et al., 2021) and generated text more broadly"
)
TIMEOUT = 60_000


@pytest.fixture
def reader_app(marimo_notebook):
    """Factory: ``reader_app(path, folder=None) -> url`` of the Reader app showing that document
    (``path`` relative to ``folder`` when a study folder is given)."""

    def start(path: Path | str, folder: Path | None = None) -> str:
        extra = ["--folder", str(folder)] if folder else []
        return marimo_notebook("tests/apps/reader_app.py", "--file", path, *extra)

    return start


def open_reader(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("[data-testid=page-image][data-key]", timeout=TIMEOUT)
    settle(page)
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)


def settle(page) -> None:
    """Wait until the page and zoom last asked for are on screen (fit width may re-render)."""
    page.wait_for_selector("[data-testid=reader]:not([data-busy])", timeout=TIMEOUT)


def span_texts(page) -> list[str]:
    return page.locator("[data-testid=text-layer] span").all_inner_texts()


def find_run(texts: list[str], run: list[str]) -> int:
    for k in range(len(texts) - len(run) + 1):
        if texts[k : k + len(run)] == run:
            return k
    raise AssertionError(f"{run!r} not among the page's word spans")


def drag(page, first: int, last: int, steps: int = 12) -> None:
    """Press on the left edge of word ``first``, move, release on the right edge of ``last``."""
    # In the workbench the reader sits in Card Detail, a pane that scrolls inside itself.
    span = page.locator(f"[data-testid=text-layer] span[data-i='{first}']")
    span.evaluate("e => e.scrollIntoView({block: 'center'})")
    a = page.locator(f"[data-testid=text-layer] span[data-i='{first}']").bounding_box()
    z = page.locator(f"[data-testid=text-layer] span[data-i='{last}']").bounding_box()
    x0, y0 = a["x"] + 1, a["y"] + a["height"] / 2
    x1, y1 = z["x"] + z["width"] - 1, z["y"] + z["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for s in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * s / steps, y0 + (y1 - y0) * s / steps)
    page.mouse.up()


def shown_passage(page) -> str:
    box = page.locator("[data-testid=reader-passage]")
    page.wait_for_function(
        "() => { const e = document.querySelector('[data-testid=reader-passage]');"
        " return e && e.textContent.trim().length > 0; }",
        timeout=TIMEOUT,
    )
    return box.inner_text().strip()


def label(page) -> str:
    return page.locator("[data-testid=page-number]").inner_text().strip()


def wait_page(page, number: int) -> None:
    """Wait until the image of 1-based page ``number`` is on screen."""
    page.wait_for_selector(f"[data-testid=page-image][data-page='{number}']", timeout=TIMEOUT)


@pytest.fixture
def acl(tmp_path):
    path = tmp_path / "longeval.pdf"
    shutil.copy(corpus(ACL), path)
    return path


def test_drag_across_columns_shows_the_sentence_without_the_footnote(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    texts = span_texts(page)
    first = find_run(texts, ["Human", "judgments", "are", "considered"])
    last = find_run(texts, ["generated", "text", "more", "broadly"]) + 3
    drag(page, first, last)
    assert shown_passage(page) == f"{ACL_SENTENCE} (p. 1)"
    # The marked lines are the passage's four lines; the footnote between is not marked.
    page.wait_for_selector("[data-testid=marked]", timeout=TIMEOUT)
    assert page.locator("[data-testid=marked]").count() == 4
    assert not page.dialogs and not page.failed_requests


def test_text_layer_lies_exactly_over_the_page_image(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    img = page.locator("[data-testid=page-image]").bounding_box()
    words = documents.open_document(acl).words(0)
    boxes = page.locator("[data-testid=text-layer] span").evaluate_all(
        "spans => spans.map(s => { const b = s.getBoundingClientRect();"
        " return [b.left, b.top, b.right, b.bottom]; })"
    )
    assert len(boxes) == len(words)
    worst = 0.0
    for w, (left, top, right, bottom) in list(zip(words, boxes, strict=True))[::7]:
        want = (
            img["x"] + w.box[0] * img["width"],
            img["y"] + w.box[1] * img["height"],
            img["x"] + w.box[2] * img["width"],
            img["y"] + w.box[3] * img["height"],
        )
        worst = max(
            worst, *(abs(a - b) for a, b in zip((left, top, right, bottom), want, strict=True))
        )
    assert worst < 2.0, f"a word span is {worst:.1f} px off its word on the image"


def test_double_click_selects_one_word_through_the_native_selection(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    k = find_run(span_texts(page), ["Human", "judgments", "are", "considered"]) + 1
    page.locator(f"[data-testid=text-layer] span[data-i='{k}']").dblclick()
    assert shown_passage(page) == "judgments (p. 1)"


def test_clicking_a_highlight_reports_its_note(reader_app, browser_page, tmp_path):
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(corpus(ACL), folder / "longeval.pdf")
    ws = Workspace.open(folder)
    doc = documents.open_document(folder / "longeval.pdf")
    texts = [w.text for w in doc.words(0)]
    k = find_run(texts, ["Human", "judgments", "are", "considered"])
    passage = doc.passage(0, range(k, k + 6))
    passage.file = "longeval.pdf"
    note = branch.grow_from_passage(ws, passage, "Gold standard")

    page = browser_page
    open_reader(page, reader_app("longeval.pdf", folder=folder))
    mark = page.locator("[data-testid=highlight]")
    expect(mark).to_have_count(1, timeout=TIMEOUT)
    assert mark.get_attribute("title") == "Gold standard"
    first = page.locator(f"[data-testid=text-layer] span[data-i='{k}']").bounding_box()
    box = mark.bounding_box()
    assert abs(box["x"] - first["x"]) < 2 and abs(box["y"] - first["y"]) < 2
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("[data-testid=reader-clicked]")).to_have_text(note, timeout=TIMEOUT)


def test_page_buttons_keys_and_go_to_page(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    assert label(page) == "1 / 20"
    assert page.locator("[data-testid=prev-page]").is_disabled()
    page.click("[data-testid=next-page]")
    wait_page(page, 2)
    assert label(page) == "2 / 20"
    page.click("[data-testid=prev-page]")
    wait_page(page, 1)

    page.locator("[data-testid=reader]").focus()
    page.keyboard.press("ArrowRight")
    wait_page(page, 2)
    page.keyboard.press("PageDown")
    wait_page(page, 3)
    page.keyboard.press("ArrowLeft")
    wait_page(page, 2)
    page.keyboard.press("End")
    wait_page(page, 20)
    assert page.locator("[data-testid=next-page]").is_disabled()

    page.fill("[data-testid=page-input]", "7")
    page.press("[data-testid=page-input]", "Enter")
    wait_page(page, 7)
    settle(page)
    assert label(page) == "7 / 20"
    # The new page's words replace the old ones: a drag selects on page 7.
    texts = span_texts(page)
    drag(page, 10, 14)
    assert shown_passage(page).endswith("(p. 7)")
    assert shown_passage(page).startswith(texts[10])


def test_search_jumps_to_a_page_and_marks_the_hits(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    page.click("[data-testid=next-page]")
    wait_page(page, 2)
    page.fill("[data-testid=reader-search]", "Kendall")
    page.press("[data-testid=reader-search]", "Enter")
    page.wait_for_selector("[data-testid=search-hit]", timeout=TIMEOUT)
    hits = page_search.search(documents.open_document(acl), "Kendall")
    expected = min(p for p, _ in hits if p >= 1) + 1
    wait_page(page, expected)
    assert "page(s)" in page.locator("[data-testid=hit-label]").inner_text()

    page.fill("[data-testid=reader-search]", "zebra quartz xylophone")
    page.press("[data-testid=reader-search]", "Enter")
    expect(page.locator("[data-testid=reader-message]")).to_contain_text(
        "No match for", timeout=TIMEOUT
    )


def test_zoom_and_fit_width_keep_the_text_layer_on_the_page(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    fit_width = page.locator("[data-testid=page-image]").bounding_box()["width"]
    page.click("[data-testid=zoom-out]")
    expect(page.locator("[data-testid=zoom-label]")).to_have_text(re.compile(r"\d+%"))
    page.wait_for_timeout(500)
    smaller = page.locator("[data-testid=page-image]").bounding_box()
    assert smaller["width"] < fit_width
    layer = page.locator("[data-testid=text-layer]").bounding_box()
    assert (
        abs(layer["width"] - smaller["width"]) < 1 and abs(layer["height"] - smaller["height"]) < 1
    )
    page.click("[data-testid=fit-width]")
    page.wait_for_timeout(500)
    assert abs(page.locator("[data-testid=page-image]").bounding_box()["width"] - fit_width) < 2


def test_password_prompt(reader_app, browser_page, tmp_path):
    path = tmp_path / "locked.pdf"
    shutil.copy(corpus("sf_libreoffice-writer-password.pdf"), path)
    page = browser_page
    page.goto(reader_app(path))
    page.wait_for_selector("[data-testid=reader-password]", state="visible", timeout=TIMEOUT)
    message = page.locator("[data-testid=reader-message]")
    assert "encrypted" in message.inner_text()
    page.fill("[data-testid=reader-password]", "not-it")
    page.click("[data-testid=reader-unlock]")
    expect(message).to_have_text("Wrong password for locked.pdf: try again.", timeout=TIMEOUT)
    page.fill("[data-testid=reader-password]", "openpassword")
    page.click("[data-testid=reader-unlock]")
    page.wait_for_selector("[data-testid=page-image][data-key]", timeout=TIMEOUT)
    settle(page)  # the words follow the image
    assert page.locator("[data-testid=reader-password]").is_hidden()
    assert page.locator("[data-testid=text-layer] span").count() > 50


def test_a_scan_shows_and_says_it_has_no_text_layer(reader_app, browser_page, tmp_path):
    path = tmp_path / "scan.pdf"
    shutil.copy(corpus("ocr_c02-22.pdf"), path)
    page = browser_page
    page.goto(reader_app(path))
    page.wait_for_selector("[data-testid=page-image][data-key]", timeout=TIMEOUT)
    assert page.locator("[data-testid=text-layer] span").count() == 0
    assert "no text layer" in page.locator("[data-testid=reader-message]").inner_text()


def test_text_from_the_pdf_never_runs_as_script(reader_app, browser_page, tmp_path):
    path = tmp_path / "hostile.pdf"
    doc = pymupdf.open()
    pg = doc.new_page()
    pg.insert_text((72, 100), "<img src=x onerror=alert(1)> <b>bold</b>", fontsize=14)
    pg.insert_text((72, 140), "<script>alert(2)</script> plain words here", fontsize=14)
    doc.save(path)
    page = browser_page
    open_reader(page, reader_app(path))
    texts = span_texts(page)
    assert "<img" in texts and "onerror=alert(1)>" in texts
    assert page.locator("img[src='x']").count() == 0 and page.locator("b").count() == 0
    drag(page, 0, len(texts) - 1)
    assert shown_passage(page).startswith("<img src=x onerror=alert(1)> <b>bold</b>")
    assert page.dialogs == []


def test_half_a_chinese_sentence_can_be_selected(reader_app, browser_page, tmp_path):
    path = tmp_path / "chinese.pdf"
    shutil.copy(corpus("pymupdf_chinese-tables.pdf"), path)
    page = browser_page
    open_reader(page, reader_app(path))
    words = documents.open_document(path).words(0)
    # A run of at least 8 glued characters on one line: select its first half.
    start = next(
        k
        for k in range(len(words) - 8)
        if all(
            w.glue and (w.block, w.line) == (words[k].block, words[k].line)
            for w in words[k + 1 : k + 8]
        )
        and documents.is_cjk(words[k].text)
    )
    drag(page, start, start + 3)
    expected = "".join(w.text for w in words[start : start + 4])
    assert shown_passage(page) == f"{expected} (p. 1)"


# -- the workbench's Grow flow ------------------------------------------------------------------


def test_grow_branch_from_a_mouse_selection_in_the_workbench(marimo_app, browser_page, tmp_path):
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(corpus(ACL), folder / "longeval.pdf")
    page = browser_page
    page.goto(marimo_app(folder, open="longeval.pdf"))
    wait_for_app(page)
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)
    settle(page)
    canvas = page.locator("[data-testid=canvas]")
    expect(canvas).to_have_attribute("data-node-count", "1", timeout=TIMEOUT)

    texts = span_texts(page)
    first = find_run(texts, ["Human", "judgments", "are", "considered"])
    last = find_run(texts, ["generated", "text", "more", "broadly"]) + 3
    drag(page, first, last)
    expect(page.locator("[data-testid=passage]")).to_contain_text(ACL_SENTENCE, timeout=TIMEOUT)

    page.fill("[data-testid=branch-title]", "Human judgment is the gold standard")
    page.click("[data-testid=grow-branch]")
    note = folder / "human-judgment-is-the-gold-standard.md"
    deadline = time.monotonic() + 30
    while not note.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert note.exists(), sorted(p.name for p in folder.iterdir())
    post = frontmatter.loads(note.read_text(encoding="utf-8"))
    assert post["upstream"] == ["longeval.pdf"]
    assert post["grown_from"]["file"] == "longeval.pdf"
    assert post["grown_from"]["page"] == 1
    assert post["grown_from"]["quote"] == ACL_SENTENCE
    assert f"> {ACL_SENTENCE} (p. 1)" in post.content
    expect(canvas).to_have_attribute("data-node-count", "2", timeout=TIMEOUT)
    expect(canvas).to_have_attribute("data-edge-count", "1", timeout=TIMEOUT)


def test_the_workbench_reader_comes_back_to_each_document_at_the_page_left(
    marimo_app, browser_page, tmp_path
):
    """One reader for every document: A → B → a note → A shows A's page left (its words, not
    B's); B again shows B's; the reader is hidden while the note is open."""
    folder = tmp_path / "study"
    folder.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), folder / "a.pdf")
    shutil.copy(corpus("sf_multicolumn.pdf"), folder / "b.pdf")
    (folder / "note.md").write_text("# A note\n\nMy words.\n", encoding="utf-8")
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(marimo_app(folder, open="a.pdf"))
    wait_for_app(page)
    reader = page.locator("[data-testid=reader-pane]")
    canvas = page.locator("[data-testid=canvas]")
    expect(canvas).to_have_attribute("data-node-count", "3", timeout=TIMEOUT)

    def shows(path: str, number: int, of: int) -> list[str]:
        expect(page.locator(f"[data-testid=card-detail][data-path='{path}']")).to_be_visible(
            timeout=TIMEOUT
        )
        expect(reader).to_be_visible(timeout=TIMEOUT)
        expect(page.locator("[data-testid=page-number]")).to_have_text(f"{number} / {of}")
        expect(page.locator(f"[data-testid=page-image][data-page='{number}']")).to_be_visible(
            timeout=TIMEOUT
        )
        page.wait_for_selector("[data-testid=reader]:not([data-busy])", timeout=TIMEOUT)
        assert page.locator("[data-testid=page-image]").count() == 1
        return span_texts(page)

    def double_click(path: str) -> None:
        page.get_by_test_id("canvas-fit").click()
        at = canvas.evaluate("(el, id) => el.bhCardCenter(id)", path)
        box = canvas.bounding_box()
        page.mouse.dblclick(box["x"] + at["x"], box["y"] + at["y"])

    shows("a.pdf", 1, 15)
    for n in (2, 3):
        page.click("[data-testid=next-page]")
        wait_page(page, n)
    a_page3 = shows("a.pdf", 3, 15)
    assert a_page3[:4] == ["Figure", "1:", "The", "Transformer"]  # p.3 of Attention

    double_click("b.pdf")
    b_page1 = shows("b.pdf", 1, 3)
    assert b_page1[:3] == ["Two-Column", "Document", "with"] and "Transformer" not in b_page1
    page.click("[data-testid=next-page]")
    wait_page(page, 2)
    b_page2 = shows("b.pdf", 2, 3)

    page.get_by_label("Open card").select_option("note.md")
    expect(page.locator("[data-testid=note-editor][data-path='note.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    expect(reader).to_be_hidden(timeout=TIMEOUT)

    page.get_by_label("Open card").select_option("a.pdf")
    assert shows("a.pdf", 3, 15) == a_page3  # A's page left, with A's own words
    double_click("b.pdf")
    assert shows("b.pdf", 2, 3) == b_page2


# -- zoom on a HiDPI screen, search status, notices that clear ----------------------------------


def test_zoom_in_after_fit_width_on_a_hidpi_screen_is_one_step(reader_app, _browser, acl):
    """On a screen with 2 device pixels per CSS pixel, "+" after "fit width" grows the page by
    one 25% step (it jumped x2.48 when the step was taken from the render scale)."""
    context = _browser.new_context(viewport={"width": 1400, "height": 2400}, device_scale_factor=2)
    page = context.new_page()
    try:
        open_reader(page, reader_app(acl))
        image = page.locator("[data-testid=page-image]")
        fit_width = image.bounding_box()["width"]
        # Rendered for the screen: twice as many pixels as CSS pixels, so the page is sharp.
        assert image.evaluate("i => Number(i.dataset.width)") >= 1.7 * fit_width
        page.click("[data-testid=zoom-in]")
        settle(page)
        page.wait_for_function(
            "w => { const i = document.querySelector('[data-testid=page-image]')"
            " || [...document.querySelectorAll('*')].map(e => e.shadowRoot"
            " && e.shadowRoot.querySelector('[data-testid=page-image]')).find(Boolean);"
            " return Math.abs(i.getBoundingClientRect().width - w * 1.25) < 3; }",
            arg=fit_width,
            timeout=TIMEOUT,
        )
        width = image.bounding_box()["width"]
        assert width == pytest.approx(fit_width * 1.25, abs=3)
        page_pts = documents.open_document(acl).page_size(0)[0]
        shown = round(width / page_pts * 100)
        assert page.locator("[data-testid=zoom-label]").inner_text() == f"{shown}%"
        page.click("[data-testid=zoom-out]")
        settle(page)
        expect(page.locator("[data-testid=zoom-label]")).to_have_text(
            f"{round(fit_width / page_pts * 100)}%", timeout=TIMEOUT
        )
    finally:
        context.close()


RECORD_LABEL = """() => {
  const find = (sel) => document.querySelector(sel) || [...document.querySelectorAll('*')]
    .map((e) => e.shadowRoot && e.shadowRoot.querySelector(sel)).find(Boolean);
  const label = find('[data-testid=hit-label]');
  window.__labels = [];
  new MutationObserver(() => window.__labels.push(label.textContent))
    .observe(label, { childList: true, characterData: true, subtree: true });
}"""


def test_the_search_box_says_searching_until_the_hits_are_in(reader_app, browser_page, tmp_path):
    path = tmp_path / "book.pdf"
    shutil.copy(corpus("pymupdf_mupdf_explored.pdf"), path)
    page = browser_page
    open_reader(page, reader_app(path))
    page.evaluate(RECORD_LABEL)
    page.fill("[data-testid=reader-search]", "reference counting")
    page.press("[data-testid=reader-search]", "Enter")
    label = page.locator("[data-testid=hit-label]")
    expect(label).to_have_text(re.compile(r"^\d+ in \d+ page\(s\)$"), timeout=TIMEOUT)
    seen = page.evaluate("() => window.__labels")
    assert seen[0].startswith("searching…")
    assert "no match" not in seen  # never said before the search was over
    pages = len(page_search.search(documents.open_document(path), "reference counting"))
    assert label.inner_text().endswith(f" in {pages} page(s)")


def test_a_notice_clears_on_the_next_action(reader_app, browser_page, acl):
    page = browser_page
    open_reader(page, reader_app(acl))
    message = page.locator("[data-testid=reader-message]")
    page.fill("[data-testid=reader-search]", "zebra quartz xylophone")
    page.press("[data-testid=reader-search]", "Enter")
    expect(message).to_contain_text("No match for", timeout=TIMEOUT)
    expect(page.locator("[data-testid=hit-label]")).to_have_text("no match")
    page.click("[data-testid=next-page]")
    wait_page(page, 2)
    expect(message).to_be_hidden(timeout=TIMEOUT)


# -- one reader on screen, documents opened in it -----------------------------------------------


def test_one_reader_on_screen_opens_a_document_then_another(marimo_notebook, browser_page, acl):
    """The reader is on screen before any document (``--defer live``); "Open document" and
    "Open the other document" open them in it, as Python calls ``Reader.open_document``."""
    other = acl.parent / "attention.pdf"
    shutil.copy(corpus("attention-1706.03762.pdf"), other)
    page = browser_page
    url = marimo_notebook(
        "tests/apps/reader_app.py", "--file", acl, "--defer", "live", "--also", other
    )
    page.goto(url)
    page.wait_for_selector("[data-testid=reader]", timeout=TIMEOUT)
    assert label(page) == "–" and page.locator("[data-testid=page-image][data-key]").count() == 0

    page.get_by_role("button", name="Open document").click()
    wait_page(page, 1)
    settle(page)
    assert label(page) == "1 / 20"
    assert "Human" in span_texts(page)
    # Paging on: the pages kept decoded in the browser stay few however far one reads.
    for number in range(2, 8):
        page.click("[data-testid=next-page]")
        wait_page(page, number)
        settle(page)
    kept = int(page.locator("[data-testid=reader]").get_attribute("data-kept"))
    assert 1 <= kept <= 4
    page.click("[data-testid=prev-page]")  # a page just left: drawn from what the browser kept
    wait_page(page, 6)
    settle(page)
    assert span_texts(page) == [w.text for w in documents.open_document(acl).words(5)]

    page.get_by_role("button", name="Open the other document").click()
    doc = documents.open_document(other)
    expect(page.locator("[data-testid=page-number]")).to_have_text(
        f"1 / {doc.page_count}", timeout=TIMEOUT
    )
    wait_page(page, 1)
    settle(page)
    assert span_texts(page) == [w.text for w in doc.words(0)]
    page.click("[data-testid=next-page]")
    wait_page(page, 2)
    settle(page)
    assert span_texts(page) == [w.text for w in doc.words(1)]
    assert not page.dialogs and not page.failed_requests


READER_SCRIPTS = """() => performance.getEntriesByType('resource')
    .filter((e) => e.name.includes('/@file/') && e.name.includes('bh-reader-'))
    .map((e) => e.name)"""


def test_a_reader_made_on_a_click_finds_its_script_loaded(marimo_notebook, browser_page, acl):
    """An app that makes its reader only when "Open document" is pressed (``--defer 1``)
    preloads the reader's script: the browser has it before the click, and the reader made
    by the click shows the page without fetching it again."""
    page = browser_page
    page.add_init_script("performance.setResourceTimingBufferSize(5000)")  # marimo's ~320
    page.goto(marimo_notebook("tests/apps/reader_app.py", "--file", acl, "--defer", "1"))
    button = page.get_by_role("button", name="Open document")
    button.wait_for(timeout=TIMEOUT)
    page.wait_for_function(f"() => ({READER_SCRIPTS})().length > 0", timeout=TIMEOUT)
    fetched = page.evaluate(READER_SCRIPTS)
    assert len(fetched) == 1 and page.locator("[data-testid=reader]").count() == 0

    button.click()
    wait_page(page, 1)
    settle(page)
    assert "Human" in span_texts(page)
    assert page.evaluate(READER_SCRIPTS) == fetched
    assert not page.failed_requests


RECORD_KEYS = """() => {
  const find = (sel) => document.querySelector(sel) || [...document.querySelectorAll('*')]
    .map((e) => e.shadowRoot && e.shadowRoot.querySelector(sel)).find(Boolean);
  const image = find('[data-testid=page-image]');
  window.__keys = [];
  new MutationObserver(() => window.__keys.push(image.dataset.key))
    .observe(image, { attributes: true, attributeFilter: ['data-key'] });
}"""


@pytest.mark.parametrize("webcodecs", [True, False], ids=["ImageDecoder", "no-ImageDecoder"])
def test_a_far_page_paints_quick_then_sharp_with_its_words(reader_app, _browser, acl, webcodecs):
    """A page not rendered yet is painted from a quick image, then the sharp one that Python
    renders once told the quick one is painted, then its words; with WebCodecs' ImageDecoder
    and, as in a browser without it, with createImageBitmap."""
    context = _browser.new_context(viewport={"width": 1400, "height": 2400})
    if not webcodecs:
        context.add_init_script("delete window.ImageDecoder;")
    page = context.new_page()
    try:
        open_reader(page, reader_app(acl))
        assert page.evaluate("() => typeof ImageDecoder") == (
            "function" if webcodecs else "undefined"
        )
        page.evaluate(RECORD_KEYS)
        page.fill("[data-testid=page-input]", "15")
        page.press("[data-testid=page-input]", "Enter")
        wait_page(page, 15)
        settle(page)
        keys = [k for k in page.evaluate("() => window.__keys") if k]
        assert len(keys) == 2 and keys[0] == keys[1] + "~low" and keys[1].startswith("14@"), keys
        texts = span_texts(page)
        assert texts == [w.text for w in documents.open_document(acl).words(14)]
    finally:
        context.close()
