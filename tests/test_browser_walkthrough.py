"""The user's walkthrough, end to end, in the real app in a real browser, at 1440×900.

`Attention Is All You Need` → five notes grown by mouse from the passages the walkthrough names
(abstract, introduction, §3.2.1 / Figure 2 on p.4, §3.2.3 on p.5, positional encodings on p.6),
one renamed through Card Detail, own words typed under each quote in the note editor, a practice
card made with New practice card and written in the editor, linked to 04 and 02 by dragging on
the canvas, graded in the Agent Area by a model behind a loopback OpenAI-compatible server, a
question asked about a selection, and the learning path read back. The test never writes a file
of the study folder itself.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import time

import frontmatter
import pytest
from conftest import ROOT, corpus, wait_for_app
from openai_server import grading_reply, start
from playwright.sync_api import expect
from test_browser_reader import drag

pytestmark = pytest.mark.browser

PDF = "attention-is-all-you-need.pdf"
TIMEOUT = 60_000

# (1-based page, first words, last words, title typed before growing, expected file, quote)
PASSAGES = [
    (
        1,
        ["The", "dominant", "sequence"],
        ["convolutional", "neural", "networks"],
        None,  # keep the suggested title; renamed afterwards
        "01-transformer-claim.md",
        "The dominant sequence transduction models are based on complex recurrent or "
        "convolutional neural networks",
    ),
    (
        2,
        ["Recurrent", "models", "typically"],
        ["input", "and", "output", "sequences."],
        "02 Why not only recurrence",
        "02-why-not-only-recurrence.md",
        "Recurrent models typically factor computation along the symbol positions of the "
        "input and output sequences.",
    ),
    (
        4,
        ["We", "call", "our"],
        ["(Figure", "2)."],
        "03 Scaled dot-product",
        "03-scaled-dot-product.md",
        'We call our particular attention "Scaled Dot-Product Attention" (Figure 2).',
    ),
    (
        5,
        ["The", "Transformer", "uses", "multi-head"],
        ["three", "different", "ways:"],
        "04 Three attention uses",
        "04-three-attention-uses.md",
        "The Transformer uses multi-head attention in three different ways:",
    ),
    (
        6,
        ["To", "this", "end,"],
        ["encoder", "and", "decoder", "stacks."],
        "05 Positional encoding",
        "05-positional-encoding.md",
        'To this end, we add "positional encodings" to the input embeddings at the bottoms '
        "of the encoder and decoder stacks.",
    ),
]

PRACTICE_TITLE = "Q, K, V in one sentence each"
PRACTICE_BODY = """\
1. In scaled dot-product attention, what does the Query stand for?
   Answer: What the current position is looking for in the whole sequence.
2. What does a Key stand for?
   Answer: What each position offers, to be matched against the queries.
3. What does a Value stand for?
   Answer: The content a position passes on once its key matches a query.
4. Why are the dot products divided by the square root of d_k?
   Answer: Large dot products push the softmax into regions with tiny gradients.
"""
DOCS = ROOT / "docs"


def words(page) -> list[str]:
    return page.locator("[data-testid=text-layer] span").all_inner_texts()


def find(texts: list[str], run: list[str], after: int = 0) -> int:
    for k in range(after, len(texts) - len(run) + 1):
        if texts[k : k + len(run)] == run:
            return k
    raise AssertionError(f"{run!r} not on this page")


def go_to(page, number: int) -> None:
    while True:
        shown = int(page.locator("[data-testid=page-image]").get_attribute("data-page"))
        if shown == number:
            break
        page.click("[data-testid=next-page]" if shown < number else "[data-testid=prev-page]")
        page.wait_for_selector(
            f"[data-testid=page-image][data-page='{shown + (1 if shown < number else -1)}']",
            timeout=TIMEOUT,
        )
    # The page asked for is on screen with its own words (not the last page's, still laid out).
    page.wait_for_selector("[data-testid=reader]:not([data-busy])", timeout=TIMEOUT)
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)


def wait_file(path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} did not appear"
        time.sleep(0.1)


def card_open(page, path: str):
    """Wait until Card Detail shows ``path``; returns its locator."""
    detail = page.locator(f"[data-testid=card-detail][data-path='{path}']")
    expect(detail).to_be_visible(timeout=TIMEOUT)
    return detail


def open_card(page, path: str):
    page.get_by_label("Open card").select_option(path)
    return card_open(page, path)


def card_centre(canvas, path: str) -> tuple[float, float]:
    """Page coordinates of a card's centre, from the network's own canvas coordinates."""
    at = canvas.evaluate("(el, id) => el.bhCardCenter(id)", path)
    assert at is not None, f"{path} is not on the canvas"
    box = canvas.bounding_box()
    return box["x"] + at["x"], box["y"] + at["y"]


def unlink_on_canvas(page, canvas, source: str, target: str) -> None:
    """Select the link source → target with a click on it, then press Delete."""
    page.get_by_test_id("canvas-fit").click()
    edges = int(canvas.get_attribute("data-edge-count"))
    edge = json.dumps([source, target], separators=(",", ":"))
    at = canvas.evaluate("(el, id) => el.bhEdgePoint(id)", edge)
    assert at is not None, f"no link {source} -> {target} on the canvas"
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + at["x"], box["y"] + at["y"])
    expect(page.get_by_test_id("canvas-unlink")).to_be_enabled(timeout=TIMEOUT)
    page.keyboard.press("Delete")
    expect(canvas).to_have_attribute("data-edge-count", str(edges - 1), timeout=TIMEOUT)


def link_by_dragging(page, canvas, sources: list[str], target: str) -> None:
    """Link each source → ``target`` by a mouse drag in the canvas's Link mode."""
    page.get_by_test_id("canvas-fit").click()  # every card inside the pane, none under another
    link = page.get_by_test_id("canvas-link")
    link.click()
    expect(link).to_have_attribute("aria-pressed", "true")
    for source in sources:
        edges = int(canvas.get_attribute("data-edge-count"))
        # vis-network leaves add-edge mode on each data change; the widget re-enters it.
        page.wait_for_function(
            "el => el.bhEditMode() === 'addEdge'", arg=canvas.element_handle(), timeout=TIMEOUT
        )
        start, end = card_centre(canvas, source), card_centre(canvas, target)
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(*end, steps=15)
        page.mouse.up()
        expect(canvas).to_have_attribute("data-edge-count", str(edges + 1), timeout=TIMEOUT)
        detail = page.locator(f"[data-testid=card-detail] [data-entry='{source}']")
        expect(detail).to_be_visible(timeout=TIMEOUT)  # Card Detail (06) lists the new entry
    link.click()
    expect(link).to_have_attribute("aria-pressed", "false")


def rename(page, old: str, typed: str) -> None:
    card_open(page, old)
    box = page.get_by_label("Rename / move to")
    box.fill(typed)
    box.press("Enter")
    page.get_by_role("button", name="Rename").click()


def write_note(page, path: str, words: str, *, keyboard: bool, title: str | None = None) -> str:
    """Type ``words`` at the end of the open note's body and save; returns the body typed."""
    card_open(page, path)
    editor = page.locator(f"[data-testid=note-editor][data-path='{path}']")
    expect(editor).to_be_visible(timeout=TIMEOUT)
    body = editor.input_value().rstrip("\n") + "\n\n" + words + "\n"
    editor.fill(body)
    if title is not None:
        page.locator("[data-testid=note-title]").fill(title)
    if keyboard:
        editor.press("Control+s")
    else:
        page.locator("[data-testid=note-save]").click()
    expect(page.locator("[data-testid=note-status]")).to_contain_text(
        f"Saved {path}", timeout=TIMEOUT
    )
    return body


def column_box(page, tid: str) -> dict | None:
    """The box of pane ``tid``; for Card Detail, with the reader pane under it when that is
    shown (a PDF/EPUB card): the card's head on top, the document below, one column."""
    b = page.locator(f"[data-testid={tid}]").bounding_box()
    reader = page.locator("[data-testid=reader-pane]")
    if tid == "card-detail" and b is not None and reader.is_visible():
        r = reader.bounding_box()
        assert abs(r["x"] - b["x"]) < 2 and abs(r["width"] - b["width"]) < 2, (b, r)
        assert b["y"] + b["height"] <= r["y"] + 1, (b, r)  # the head above, not over, the reader
        b = {**b, "height": r["y"] + r["height"] - b["y"]}
    return b


def boxes_apart(page) -> None:
    """Canvas, Card Detail and the Agent Area: inside the viewport, side by side, no overlap."""
    view = page.viewport_size
    boxes = {}
    for tid in ("canvas", "card-detail", "agent-area"):
        b = column_box(page, tid)
        assert b is not None, f"{tid} is not on screen"
        assert b["x"] >= 0 and b["y"] >= 0, (tid, b)
        assert b["x"] + b["width"] <= view["width"] and b["y"] + b["height"] <= view["height"], (
            tid,
            b,
            view,
        )
        assert b["width"] >= 300 and b["height"] >= 300, (tid, b)
        boxes[tid] = b
    order = [boxes[t] for t in ("canvas", "card-detail", "agent-area")]
    for left, right in itertools.pairwise(order):
        assert left["x"] + left["width"] <= right["x"], (left, right)


def shot(page, name: str) -> None:
    """A screenshot of the three panes for the README (docs/NAME.png).

    Written only when ``BASEHALF_DOCS_SHOTS=1``: a test run must not change the
    checkout it runs from (PNG re-encodes differ byte for byte on every run).
    """
    if os.environ.get("BASEHALF_DOCS_SHOTS") != "1":
        return
    DOCS.mkdir(exist_ok=True)
    page.screenshot(path=str(DOCS / f"{name}.png"), scale="css")


@pytest.fixture
def model():
    server = start(grading_reply("Correct"))
    yield server
    server.stop()


def test_the_attention_walkthrough(marimo_app, browser_page, tmp_path, model):
    folder = tmp_path / "attention"
    folder.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), folder / PDF)
    env = {"OPENAI_API_KEY": "sk-test-walkthrough-0000", "BASEHALF_CONFIG_DIR": str(tmp_path)}
    page = browser_page
    page.set_viewport_size({"width": 1440, "height": 900})
    page.goto(marimo_app(folder, open=PDF, env=env))
    wait_for_app(page)
    canvas = page.locator("[data-testid=canvas]")
    expect(canvas).to_have_attribute("data-node-count", "1", timeout=TIMEOUT)
    card_open(page, PDF)
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)
    boxes_apart(page)
    shot(page, "workbench-start")
    # The learner types the model once; every later re-run keeps it.
    page.get_by_label("Model").fill("openai/local-grader")
    page.get_by_label("Model").press("Enter")
    page.get_by_label("API base").fill(model.base_url)
    page.get_by_label("API base").press("Enter")

    for n, (number, head, tail, title, name, quote) in enumerate(PASSAGES, start=1):
        if n > 1:
            open_card(page, PDF)  # back to the reader, at the page left
        go_to(page, number)
        texts = words(page)
        first = find(texts, head)
        last = find(texts, tail, first) + len(tail) - 1
        drag(page, first, last)
        expect(page.locator("[data-testid=passage]")).to_contain_text(quote, timeout=TIMEOUT)
        if title:
            page.locator("[data-testid=branch-title]").fill(title)
        status = page.locator("[data-testid=card-report]")
        before = status.inner_text()
        page.click("[data-testid=grow-branch]")
        expect(status).not_to_have_text(before, timeout=TIMEOUT)
        expect(status).to_contain_text("Grown: ", timeout=TIMEOUT)
        grown = status.inner_text().split("Grown: ", 1)[1].strip()
        card_open(page, grown)  # Card Detail opens the new note in the editor
        if title is None:
            # Renamed without typing ".md": the extension is kept.
            rename(page, grown, name.removesuffix(".md"))
            wait_file(folder / name)
            assert not (folder / grown).exists()
        else:
            assert grown == name
        post = frontmatter.load(folder / name)
        assert post["upstream"] == [PDF]
        assert post["grown_from"]["page"] == number
        assert post["grown_from"]["quote"] == quote
        head_bytes = (folder / name).read_bytes().split(b"\n---\n", 1)[0]
        own = f"Own words {n}: in my words, the passage on page {number}."
        body = write_note(page, name, own, keyboard=n % 2 == 0)
        saved = (folder / name).read_text(encoding="utf-8")
        assert saved.endswith(body) and own in saved
        assert (folder / name).read_bytes().startswith(head_bytes + b"\n---\n")
        assert f"> {quote} (p. {number})" in saved
        expect(canvas).to_have_attribute("data-node-count", str(1 + n), timeout=TIMEOUT)
        expect(canvas).to_have_attribute("data-edge-count", str(n), timeout=TIMEOUT)
        if n == 1:
            shot(page, "workbench-note-editor")

    # New practice card: upstream = the card selected on the canvas (03, opened last).
    open_card(page, "03-scaled-dot-product.md")
    page.locator("[data-testid=new-practice-card] button").click()
    card_open(page, "new-practice-card.md")
    template = page.locator("[data-testid=note-editor][data-path='new-practice-card.md']")
    expect(template).to_have_value(re.compile("Answer:"), timeout=TIMEOUT)
    rename(page, "new-practice-card.md", "06-qkv-practice")
    wait_file(folder / "06-qkv-practice.md")
    card_open(page, "06-qkv-practice.md")
    editor = page.locator("[data-testid=note-editor][data-path='06-qkv-practice.md']")
    editor.fill(f"# {PRACTICE_TITLE}\n\n{PRACTICE_BODY}")
    editor.press("Control+s")
    expect(page.locator("[data-testid=note-status]")).to_contain_text("Saved", timeout=TIMEOUT)
    # New practice card listed 03 (the card selected then): the learner takes that link off on
    # the canvas (click it, Delete), then links 03, 04 and 02 to the card by dragging (Link
    # mode: vis-network's add-edge mode, written by operations.connect).
    unlink_on_canvas(page, canvas, "03-scaled-dot-product.md", "06-qkv-practice.md")
    assert not frontmatter.load(folder / "06-qkv-practice.md").get("upstream")
    link_by_dragging(
        page, canvas,
        ["03-scaled-dot-product.md", "04-three-attention-uses.md", "02-why-not-only-recurrence.md"],
        "06-qkv-practice.md",
    )  # fmt: skip
    card = frontmatter.load(folder / "06-qkv-practice.md")
    assert card["kind"] == "practice"
    assert card["upstream"] == [
        "03-scaled-dot-product.md",
        "04-three-attention-uses.md",
        "02-why-not-only-recurrence.md",
    ]
    assert card.content.strip() == f"# {PRACTICE_TITLE}\n\n{PRACTICE_BODY}".strip()
    expect(canvas).to_have_attribute("data-edge-count", "8", timeout=TIMEOUT)
    # Card Detail shows the card as a numbered list of questions and answers.
    questions = page.locator("[data-testid=card-detail] [data-testid=practice-questions] > li")
    expect(questions).to_have_count(4, timeout=TIMEOUT)

    # Grade it in the Agent Area with the model typed in the box (kept through every re-run).
    page.get_by_label("Practice card").select_option("06-qkv-practice.md")
    page.get_by_role("button", name="Grade").click()
    verdicts = page.locator("[data-testid=agent-area] [data-testid=verdicts][data-count='4']")
    expect(verdicts).to_be_visible(timeout=TIMEOUT)
    assert verdicts.get_attribute("data-model") == "openai/local-grader"
    assert verdicts.locator("tr[data-verdict='Correct']").count() == 4
    grading = folder / "06-qkv-practice.grading.md"
    assert frontmatter.load(grading)["upstream"] == ["06-qkv-practice.md"]
    [request] = [r for r in model.requests if "ANSWER" in r.text]
    assert "<<<NOTE" in request.text and "Scaled Dot-Product Attention" in request.text
    assert "sk-test-walkthrough-0000" not in grading.read_text(encoding="utf-8")
    boxes_apart(page)
    shot(page, "workbench-graded")

    # Renaming a note the card lists rewrites the card's entry; the edge stays drawn.
    open_card(page, "02-why-not-only-recurrence.md")
    rename(page, "02-why-not-only-recurrence.md", "02-why-not-recurrence-alone")
    expect(page.locator("[data-testid=card-report]")).to_contain_text(
        "Updated: 06-qkv-practice.md", timeout=TIMEOUT
    )
    wait_file(folder / "02-why-not-recurrence-alone.md")
    assert frontmatter.load(folder / "06-qkv-practice.md")["upstream"][2] == (
        "02-why-not-recurrence-alone.md"
    )
    expect(canvas).to_have_attribute("data-node-count", "8", timeout=TIMEOUT)  # + grading file
    expect(canvas).to_have_attribute("data-edge-count", "9", timeout=TIMEOUT)

    # The Source link of a note opens the reader at its page; the tab stays in the app.
    url = page.url
    open_card(page, "03-scaled-dot-product.md")
    page.locator("[data-testid=note-preview] a", has_text="p. 4").click()
    card_open(page, PDF)
    expect(page.locator("[data-testid=page-image][data-page='4']")).to_be_visible(timeout=TIMEOUT)
    assert page.url == url

    # After the rename, the highlight on page 2 opens the renamed note.
    go_to(page, 2)
    mark = page.locator("[data-testid=highlight][data-id='02-why-not-recurrence-alone.md']").first
    mark.evaluate("e => e.scrollIntoView({block: 'center'})")
    box = mark.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    card_open(page, "02-why-not-recurrence-alone.md")

    # Ask with a selection: the answer comes from the model; the ask is logged with the quote.
    open_card(page, PDF)
    go_to(page, 4)
    texts = words(page)
    first = find(texts, ["We", "call", "our"])
    drag(page, first, find(texts, ["(Figure", "2)."], first) + 1)
    expect(page.locator("[data-testid=passage]")).to_contain_text("Scaled", timeout=TIMEOUT)
    page.locator("[data-testid=ask] .cm-content").click()
    page.keyboard.type("Why is it called scaled?")
    page.keyboard.press("Enter")
    asks = folder / ".bh" / "asks.jsonl"
    wait_file(asks)
    logged = [json.loads(line) for line in asks.read_text(encoding="utf-8").splitlines()]
    assert logged[-1]["question"] == "Why is it called scaled?"
    assert "Scaled Dot-Product Attention" in json.dumps(logged[-1]["selection"])
    assert logged[-1]["model"] == "openai/local-grader"

    # Read back 由浅入深: the PDF, the notes in order, the card, its grading.
    page.get_by_role("tab", name=re.compile("Learning path")).click()
    path_list = page.locator("[data-testid=learning-path]:visible")
    expect(path_list).to_have_count(1, timeout=TIMEOUT)
    order = path_list.locator("code").all_inner_texts()
    assert order == [
        PDF,
        "01-transformer-claim.md",
        "02-why-not-recurrence-alone.md",
        "03-scaled-dot-product.md",
        "04-three-attention-uses.md",
        "05-positional-encoding.md",
        "06-qkv-practice.md",
        "06-qkv-practice.grading.md",
    ]
    assert page.locator("[data-testid=issues]").first.get_attribute("data-issue-count") == "0"
    assert not page.dialogs
    assert not [u for u in page.failed_requests if not u.startswith("http://127.0.0.1")]
