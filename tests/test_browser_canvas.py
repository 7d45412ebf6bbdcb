"""The canvas in a real browser: Debian's chromium against a real ``marimo run`` server.

Most tests drive ``tests/apps/canvas_app.py`` (the Canvas alone plus a Grow button); the last
ones drive ``workbench.py`` (the lead's app) through the shared ``marimo_app`` fixture.
Cards are clicked and dragged with the mouse at the spot vis-network draws them.
"""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from conftest import corpus, wait_for_app
from playwright.sync_api import expect

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.canvas_state import STATE_PATH

pytestmark = pytest.mark.browser

TIMEOUT = 60_000
CANVAS = "[data-testid='canvas']"
XSS_NAME = "<img src=x onerror=alert(1)>.md"


@pytest.fixture
def canvas_app(marimo_notebook):
    """Factory: ``canvas_app(folder, *args) -> url`` of the canvas app over that folder."""
    return lambda folder, *args: marimo_notebook(
        "tests/apps/canvas_app.py", "--folder", folder, *args
    )


def make_study(root: Path) -> Path:
    """A PDF, two grown notes, a practice card, a dangling entry, and hostile names."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copy(corpus("attention-1706.03762.pdf"), root / "attention.pdf")
    ws = Workspace.open(root)
    claim = operations.grow(ws, "The Transformer claim", upstream=["attention.pdf"])
    operations.grow(ws, "QKV", upstream=[claim], fields={"kind": "practice"})
    (root / "lost.md").write_text("---\nupstream:\n  - moved-away.pdf\n---\n# Lost\n")
    (root / XSS_NAME).write_text(
        "---\nupstream:\n  - attention.pdf\n---\n# <script>alert(2)</script>\n\n"
        "`<img src=z onerror=alert(4)>` and <img src=w onerror=alert(5)>\n",
        encoding="utf-8",
    )
    (root / "titled.md").write_text(
        '---\ntitle: "<img src=y onerror=alert(3)>"\n---\nbody\n', encoding="utf-8"
    )
    return root


def open_canvas(page, url: str):
    page.goto(url)
    canvas = page.locator(CANVAS)
    canvas.wait_for(timeout=TIMEOUT)
    expect(canvas).to_have_attribute("data-node-count", "7", timeout=TIMEOUT)
    return canvas


def centre(canvas, node: str) -> tuple[float, float]:
    """Page coordinates of the centre of a card, as drawn right now."""
    at = canvas.evaluate("(el, id) => el.bhCardCenter(id)", node)
    assert at is not None, f"{node} is not drawn"
    box = canvas.bounding_box()
    return box["x"] + at["x"], box["y"] + at["y"]


def click_card(page, canvas, node: str, *, shift: bool = False) -> None:
    x, y = centre(canvas, node)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.click(x, y)
    if shift:
        page.keyboard.up("Shift")


def select_card(page, canvas, node: str) -> None:
    """Click ``node`` and wait until Card Detail shows it."""
    click_card(page, canvas, node)
    expect(page.locator("[data-testid='card-detail']")).to_have_text(node, timeout=TIMEOUT)


def in_view(canvas, node: str) -> bool:
    """The card's centre is drawn inside the canvas element."""
    return canvas.evaluate(
        "(el, id) => { const p = el.bhCardCenter(id);"
        " return p.x > 0 && p.y > 0 && p.x < el.clientWidth && p.y < el.clientHeight; }",
        node,
    )


def drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=12)
    page.mouse.up()


def wait_for(predicate, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


def no_injection(page) -> None:
    """Nothing from a file ran: no dialog, no element built from a note's HTML, in any frame."""
    page.wait_for_timeout(500)
    assert page.dialogs == []
    for frame in page.frames:
        for src in ("x", "y", "z", "w"):
            assert frame.locator(f"img[src='{src}']").count() == 0
        assert frame.locator("script:text('alert')").count() == 0


def test_the_canvas_draws_every_card_and_link(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    canvas = open_canvas(browser_page, canvas_app(folder))
    # 6 files + 1 ghost for the dangling entry; 3 links + 1 ghost edge.
    expect(canvas).to_have_attribute("data-edge-count", "4")
    assert browser_page.failed_requests == []


def test_clicking_a_card_selects_it_in_python(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    canvas = open_canvas(page, canvas_app(folder))
    select_card(page, canvas, "the-transformer-claim.md")
    # A ghost card opens the note that lists the missing file.
    click_card(page, canvas, "//missing/moved-away.pdf")
    expect(page.locator("[data-testid='card-detail']")).to_have_text("lost.md", timeout=TIMEOUT)


def test_a_drag_is_saved_and_survives_a_reload(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    url = canvas_app(folder)
    canvas = open_canvas(page, url)
    before = canvas.evaluate("(el) => el.bhPosition('attention.pdf')")
    x, y = centre(canvas, "attention.pdf")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 150, y + 90, steps=12)
    page.mouse.up()
    state = folder / STATE_PATH
    deadline = time.monotonic() + 20
    while not state.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    saved = json.loads(state.read_text())["positions"]["attention.pdf"]
    moved = canvas.evaluate("(el) => el.bhPosition('attention.pdf')")
    assert abs(saved[0] - moved["x"]) <= 1 and abs(saved[1] - moved["y"]) <= 1
    assert moved["x"] > before["x"] + 50 and moved["y"] > before["y"] + 30
    page.reload()
    canvas = open_canvas(page, url)
    again = canvas.evaluate("(el) => el.bhPosition('attention.pdf')")
    assert (round(again["x"]), round(again["y"])) == (round(saved[0]), round(saved[1]))


def test_a_grow_adds_a_card_and_nothing_else_moves(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    canvas = open_canvas(page, canvas_app(folder))
    select_card(page, canvas, "the-transformer-claim.md")
    shown = ["attention.pdf", "the-transformer-claim.md", "qkv.md", "lost.md", "titled.md"]
    before = {n: centre(canvas, n) for n in shown}
    page.get_by_role("button", name="Grow").click()
    expect(canvas).to_have_attribute("data-node-count", "8", timeout=TIMEOUT)
    expect(canvas).to_have_attribute("data-edge-count", "5")
    after = {n: centre(canvas, n) for n in shown}
    assert after == before  # same spots on screen: no re-layout, the camera stayed
    grown = canvas.evaluate("(el) => el.bhPosition('grown-1.md')")
    claim = canvas.evaluate("(el) => el.bhPosition('the-transformer-claim.md')")
    assert grown["y"] > claim["y"] and abs(grown["x"] - claim["x"]) < 800


def test_hostile_names_and_titles_show_as_text_and_run_nothing(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    canvas = open_canvas(page, canvas_app(folder))
    x, y = centre(canvas, XSS_NAME)
    page.mouse.move(x, y)
    tooltip = page.locator("div.vis-tooltip")
    expect(tooltip).to_be_visible(timeout=10_000)
    assert XSS_NAME in tooltip.inner_text()
    assert "<script>alert(2)</script>" in tooltip.inner_text()
    # Text only: innerText turns line ends into <br>, and nothing else becomes an element.
    tags = tooltip.evaluate("(el) => [...el.querySelectorAll('*')].map((e) => e.tagName)")
    assert set(tags) <= {"BR"}
    select_card(page, canvas, XSS_NAME)
    x, y = centre(canvas, "titled.md")
    page.mouse.move(x, y)
    expect(tooltip).to_contain_text("<img src=y onerror=alert(3)>")
    no_injection(page)


def test_a_big_folder_opens_readable_and_python_can_bring_a_card_into_view(
    canvas_app, browser_page, tmp_path
):
    folder = tmp_path / "big"
    folder.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), folder / "paper.pdf")
    for i in range(300):
        up = "paper.pdf" if i % 10 == 0 else f"{i - 1:03}-n.md"
        (folder / f"{i:03}-n.md").write_text(f"---\nupstream:\n  - {up}\n---\n# Note {i}\n")
    page = browser_page
    page.goto(canvas_app(folder))
    canvas = page.locator(CANVAS)
    expect(canvas).to_have_attribute("data-node-count", "301", timeout=TIMEOUT)
    box = canvas.bounding_box()
    inside = canvas.evaluate(
        "(el) => { const p = el.bhCardCenter('paper.pdf');"
        " return p.x > 0 && p.y > 0 && p.x < el.clientWidth && p.y < el.clientHeight; }"
    )
    assert inside, "the top of the learning path is in view"
    (ax, _), (bx, _) = centre(canvas, "000-n.md"), centre(canvas, "010-n.md")
    assert abs(bx - ax) >= 0.5 * 240, "cards are drawn at a readable size"
    x, y = centre(canvas, "299-n.md")
    assert not (box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"])
    page.get_by_placeholder("path").fill("299-n.md")
    page.get_by_role("button", name="Show").click()
    expect(canvas).to_have_attribute("data-selected", "299-n.md", timeout=TIMEOUT)
    x, y = centre(canvas, "299-n.md")
    assert box["x"] < x < box["x"] + box["width"] and box["y"] < y < box["y"] + box["height"]
    # The app's choice is the selected card on both sides.
    expect(page.locator("[data-testid='card-detail']")).to_have_text("299-n.md")
    # Panned away and shown again: the same card is brought back (not a no-op).
    canvas.evaluate("(el) => el.bhFocus('paper.pdf')")
    assert not in_view(canvas, "299-n.md")
    page.get_by_role("button", name="Show").click()
    wait_for(lambda: in_view(canvas, "299-n.md"), "the card shown again")


def test_a_grown_card_outside_the_view_is_brought_into_it(canvas_app, browser_page, tmp_path):
    folder = tmp_path / "big"
    folder.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), folder / "paper.pdf")
    for i in range(120):
        (folder / f"{i:03}-n.md").write_text(f"---\nupstream:\n  - paper.pdf\n---\n# N {i}\n")
    page = browser_page
    page.goto(canvas_app(folder, "--height", "500px"))
    canvas = page.locator(CANVAS)
    expect(canvas).to_have_attribute("data-node-count", "121", timeout=TIMEOUT)
    # Zoomed in on the PDF: the row below it is full, a note grown from it lands far out.
    canvas.evaluate("(el) => el.bhFocus('paper.pdf', 1)")
    select_card(page, canvas, "paper.pdf")
    page.get_by_role("button", name="Grow").click()
    expect(canvas).to_have_attribute("data-node-count", "122", timeout=TIMEOUT)
    grown = canvas.evaluate("(el) => el.bhPosition('grown-1.md')")
    pdf = canvas.evaluate("(el) => el.bhPosition('paper.pdf')")
    assert abs(grown["x"] - pdf["x"]) > 1000, "the test needs a card that lands out of view"
    wait_for(lambda: in_view(canvas, "grown-1.md"), "the grown card in view")


def thirty_cards(root: Path) -> Path:
    """A folder of 30 cards as a learner grows it: two PDFs, notes with long titles, practice."""
    root.mkdir(parents=True)
    shutil.copy(corpus("attention-1706.03762.pdf"), root / "attention.pdf")
    shutil.copy(corpus("pdfminer_naacl06-shinyama.pdf"), root / "paraphrase.pdf")
    titles = [
        "The Transformer dispenses with recurrence and convolutions entirely",
        'We call our particular attention "Scaled Dot-Product Attention"',
        "Multi-head attention attends to information from different subspaces",
        "Positional encoding with sinusoids of geometrically increasing wavelengths",
        "Why self-attention: path length between long-range dependencies",
        "Encoder–decoder attention: queries from the decoder, keys from the encoder",
        "Residual dropout and label smoothing",
        "Training on WMT 2014 English-German",
        "Learning rate schedule with warmup",
        "Byte-pair encoding vocabulary",
        "Masking future positions in the decoder",
        "Comparison with ByteNet and ConvS2S",
    ]
    for i, title in enumerate(titles):
        up = "attention.pdf" if i < 8 else f"n{i - 8:02}.md"
        body = f"---\nupstream:\n  - {up}\n---\n# {title}\n"
        (root / f"n{i:02}.md").write_text(body, encoding="utf-8")
    for i in range(12, 24):
        up = "paraphrase.pdf" if i < 20 else f"n{i - 8:02}.md"
        title = f"Paraphrase acquisition from comparable news articles, part {i - 11}"
        body = f"---\nupstream:\n  - {up}\n---\n# {title}\n"
        (root / f"n{i:02}.md").write_text(body, encoding="utf-8")
    for i in range(4):
        ups = "".join(f"  - n{j:02}.md\n" for j in (i, i + 12))
        body = f"---\nupstream:\n{ups}kind: practice\n---\n# Practice {i + 1}\n"
        (root / f"p{i}.md").write_text(body, encoding="utf-8")
    return root


def test_thirty_cards_fit_the_pane_with_readable_labels(canvas_app, browser_page, tmp_path):
    folder = thirty_cards(tmp_path / "thirty")
    page = browser_page
    page.goto(canvas_app(folder, "--width", "900px", "--height", "720px"))
    canvas = page.locator(CANVAS)
    expect(canvas).to_have_attribute("data-node-count", "30", timeout=TIMEOUT)
    width, height = canvas.evaluate("(el) => [el.clientWidth, el.clientHeight]")
    assert (width, height) == (900 - 2, 720 - 2)  # the pane asked for, less the border
    cards = canvas.evaluate("(el) => el.bhCards()")
    assert len(cards) == 30
    for card in cards.values():
        # Readable: the label is drawn at 12 CSS px or more ...
        assert card["font"] >= 12, card
        # ... the whole card is inside the pane ...
        assert card["left"] >= 0 and card["top"] >= 0, card
        assert card["right"] <= width and card["bottom"] <= height, card
        # ... and the label is drawn in the lines it was given: no word broken by the canvas.
        assert card["drawnLines"] == card["label"].count("\n") + 1, card
    long = cards["n03.md"]["label"]
    assert long.replace("\n", " ").startswith("Positional encoding with sinusoids")
    # No two cards overlap.
    boxes = list(cards.values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = (
                a["right"] <= b["left"] or b["right"] <= a["left"]
                or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
            )  # fmt: skip
            assert apart, (a["label"], b["label"])
    # Zoomed into one card, "Fit all" brings every card back into the pane.
    canvas.evaluate("(el) => el.bhFocus('n03.md', 2.5)")
    assert not all(in_view(canvas, c) for c in cards)
    page.get_by_test_id("canvas-fit").click()
    assert all(in_view(canvas, c) for c in cards)


# --- the workbench (the lead's app) ---------------------------------------------------------


def open_in_workbench(page, url: str, node: str):
    """Open the workbench at ``url``, double-click card ``node`` on its canvas and wait until
    Card Detail has it open; returns Card Detail."""
    page.goto(url)
    wait_for_app(page)
    canvas = page.locator(CANVAS)
    expect(canvas).to_have_attribute("data-node-count", "7", timeout=TIMEOUT)
    page.mouse.dblclick(*centre(canvas, node))  # double-click opens
    detail = page.locator("[data-testid='card-detail']")
    expect(detail).to_have_attribute("data-path", node, timeout=TIMEOUT)
    return detail


def test_workbench_canvas_opens_card_detail(marimo_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    detail = open_in_workbench(browser_page, marimo_app(folder), "the-transformer-claim.md")
    expect(detail).to_contain_text("The Transformer claim")


def test_workbench_hostile_note_runs_nothing_in_card_detail(marimo_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    detail = open_in_workbench(page, marimo_app(folder), XSS_NAME)
    expect(detail).to_contain_text("<script>alert(2)</script>")
    body = page.locator("[data-testid='card-body']")
    expect(body).to_contain_text("<img src=w onerror=alert(5)>", timeout=TIMEOUT)
    no_injection(page)


def test_click_selects_shift_click_adds_and_double_click_opens(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    canvas = open_canvas(page, canvas_app(folder))
    detail = page.locator("[data-testid='card-detail']")
    opened = page.locator("[data-testid='card-opened']")
    selection = page.locator("[data-testid='card-selection']")
    click_card(page, canvas, "attention.pdf")
    expect(detail).to_have_text("attention.pdf", timeout=TIMEOUT)
    expect(selection).to_have_text("attention.pdf")
    page.wait_for_timeout(600)  # a single click opens nothing
    expect(opened).to_have_text("")
    click_card(page, canvas, "qkv.md", shift=True)
    expect(selection).to_have_text("attention.pdf qkv.md", timeout=TIMEOUT)
    assert json.loads(canvas.get_attribute("data-selection")) == ["attention.pdf", "qkv.md"]
    click_card(page, canvas, "attention.pdf", shift=True)  # taken out again
    expect(selection).to_have_text("qkv.md", timeout=TIMEOUT)
    x, y = centre(canvas, "the-transformer-claim.md")
    page.mouse.dblclick(x, y)
    expect(opened).to_have_text("the-transformer-claim.md", timeout=TIMEOUT)
    expect(detail).to_have_text("the-transformer-claim.md")
    expect(selection).to_have_text("the-transformer-claim.md")
    # The same card opened again is reported again (the counter moves).
    before = canvas.evaluate("(el) => el.bhOpened()")
    page.mouse.dblclick(x, y)
    wait_for(lambda: canvas.evaluate("(el) => el.bhOpened()") == before + 1, "a second open")


def test_drag_in_link_mode_links_and_delete_unlinks(canvas_app, browser_page, tmp_path):
    folder = make_study(tmp_path / "study")
    page = browser_page
    canvas = open_canvas(page, canvas_app(folder))
    expect(canvas).to_have_attribute("data-edge-count", "4")
    link = page.get_by_test_id("canvas-link")
    link.click()
    expect(link).to_have_attribute("aria-pressed", "true")
    drag(page, centre(canvas, "titled.md"), centre(canvas, "qkv.md"))
    expect(canvas).to_have_attribute("data-edge-count", "5", timeout=TIMEOUT)
    assert Workspace.open(folder).upstream("qkv.md") == ["the-transformer-claim.md", "titled.md"]
    # Still in Link mode: a card dragged onto itself is refused, with the reason shown.
    x, y = centre(canvas, "lost.md")
    drag(page, (x, y), (x + 25, y + 4))
    message = page.get_by_test_id("canvas-message")
    expect(message).to_contain_text("names the node itself", timeout=TIMEOUT)
    link.click()
    expect(link).to_have_attribute("aria-pressed", "false")
    # Select the new link with a click on its middle, then Delete.
    edge = json.dumps(["titled.md", "qkv.md"], separators=(",", ":"))
    at = canvas.evaluate("(el, id) => el.bhEdgePoint(id)", edge)
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + at["x"], box["y"] + at["y"])
    expect(page.get_by_test_id("canvas-unlink")).to_be_enabled()
    page.keyboard.press("Delete")
    expect(canvas).to_have_attribute("data-edge-count", "4", timeout=TIMEOUT)
    assert Workspace.open(folder).upstream("qkv.md") == ["the-transformer-claim.md"]
    # A drag outside Link mode moves a card and links nothing.
    x, y = centre(canvas, "titled.md")
    drag(page, (x, y), (x + 40, y + 40))
    page.wait_for_timeout(500)
    expect(canvas).to_have_attribute("data-edge-count", "4")


def test_tooltip_leaves_with_the_pointer_and_the_wheel_scrolls_the_page(
    canvas_app, browser_page, tmp_path
):
    folder = make_study(tmp_path / "study")
    page = browser_page
    page.set_viewport_size({"width": 1200, "height": 700})
    canvas = open_canvas(page, canvas_app(folder))
    # Hover a card, wait for its tooltip, then jump out of the canvas in one move.
    x, y = centre(canvas, "attention.pdf")
    page.mouse.move(x, y)
    tooltip = page.locator("div.vis-tooltip")
    expect(tooltip).to_be_visible(timeout=10_000)
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] + 30, box["y"] - 30, steps=1)
    expect(tooltip).to_be_hidden(timeout=2_000)
    # A pointer that leaves before the tooltip delay: none appears afterwards.
    x, y = centre(canvas, "qkv.md")
    page.mouse.move(x, y)
    page.mouse.move(box["x"] + box["width"] + 30, box["y"] - 30, steps=1)
    page.wait_for_timeout(800)
    expect(tooltip).to_be_hidden()
    # The wheel over a canvas nobody clicked scrolls the page and leaves the zoom alone.
    page.locator("body").click(position={"x": 5, "y": 5})
    scale = canvas.evaluate("(el) => el.bhScale()")
    top = canvas.bounding_box()["y"]
    page.mouse.move(box["x"] + box["width"] / 2, max(box["y"], 0) + 100)
    page.mouse.wheel(0, 300)
    wait_for(lambda: canvas.bounding_box()["y"] < top - 50, "the page to scroll")
    assert canvas.evaluate("(el) => el.bhScale()") == scale
    # Clicked, the canvas takes the wheel: it zooms and the page stays.
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + 10, max(box["y"], 0) + 10)
    top = canvas.bounding_box()["y"]
    page.mouse.wheel(0, -300)
    wait_for(lambda: canvas.evaluate("(el) => el.bhScale()") > scale * 1.05, "a zoom")
    assert abs(canvas.bounding_box()["y"] - top) < 1


def test_a_returning_learner_gets_the_canvas_script_from_the_browser_cache(
    canvas_app, browser_page, tmp_path
):
    # marimo names a widget's script at random on every page; the canvas's (vis-network, ~480
    # KiB) has a stable, content-named URL instead, so a second page takes it from the cache.
    import urllib.request

    from basehalf_widgets.canvas import Canvas

    url = canvas_app(make_study(tmp_path / "study"))
    scripts = """() => performance.getEntriesByType('resource')
        .filter((e) => e.name.includes('/@file/') && e.name.includes('bh-canvas-'))
        .map((e) => ({ url: e.name, transfer: e.transferSize, size: e.decodedBodySize }))"""
    seen = []
    for _ in range(2):  # a first visit, then a new tab in the same browser profile
        page = browser_page.context.new_page()
        page.add_init_script("performance.setResourceTimingBufferSize(5000)")  # marimo's ~320
        open_canvas(page, url)
        seen.append(page.evaluate(scripts))
        page.close()
    assert len(seen[0]) == 1 and len(seen[1]) == 1, seen
    assert seen[0][0]["url"] == seen[1][0]["url"]  # the same name on every page
    assert seen[0][0]["transfer"] > 0 and seen[1][0]["transfer"] == 0  # then from the cache
    with urllib.request.urlopen(seen[0][0]["url"]) as got:  # exactly our own script
        assert got.read() == Canvas._esm.encode("utf-8")
