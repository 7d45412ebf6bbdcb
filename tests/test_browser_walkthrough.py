"""The user's walkthrough, end to end, in the real app in a real browser.

`Attention Is All You Need` → five notes grown by mouse from the passages the walkthrough names
(abstract, introduction, §3.2.1 / Figure 2 on p.4, §3.2.3 on p.5, positional encodings on p.6),
one renamed through Card Detail, a practice card written in an editor and linked by hand, graded
in the Agent Area by a model behind a loopback OpenAI-compatible server.
"""

from __future__ import annotations

import shutil
import time

import frontmatter
import pytest
from conftest import corpus, wait_for_app
from openai_server import grading_reply, start
from playwright.sync_api import expect

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

PRACTICE = """---
upstream:
  - 03-scaled-dot-product.md
  - 04-three-attention-uses.md
kind: practice
---
# Q, K, V in one sentence each

1. In scaled dot-product attention, what does the Query stand for?
   Answer: What the current position is looking for in the whole sequence.
2. What does a Key stand for?
   Answer: What each position offers, to be matched against the queries.
3. What does a Value stand for?
   Answer: The content a position passes on once its key matches a query.
4. Why are the dot products divided by the square root of d_k?
   Answer: Large dot products push the softmax into regions with tiny gradients.
"""


def words(page) -> list[str]:
    return page.locator("[data-testid=text-layer] span").all_inner_texts()


def find(texts: list[str], run: list[str], after: int = 0) -> int:
    for k in range(after, len(texts) - len(run) + 1):
        if texts[k : k + len(run)] == run:
            return k
    raise AssertionError(f"{run!r} not on this page")


def drag(page, first: int, last: int) -> None:
    a = page.locator(f"[data-testid=text-layer] span[data-i='{first}']").bounding_box()
    z = page.locator(f"[data-testid=text-layer] span[data-i='{last}']").bounding_box()
    x0, y0 = a["x"] + 1, a["y"] + a["height"] / 2
    x1, y1 = z["x"] + z["width"] - 1, z["y"] + z["height"] / 2
    page.mouse.move(x0, y0)
    page.mouse.down()
    for s in range(1, 13):
        page.mouse.move(x0 + (x1 - x0) * s / 12, y0 + (y1 - y0) * s / 12)
    page.mouse.up()


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
    page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)


def wait_file(path, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path.name} did not appear"
        time.sleep(0.1)


@pytest.fixture
def model():
    server = start(grading_reply("Correct"))
    yield server
    server.stop()


def test_the_attention_walkthrough(marimo_app, browser_page, tmp_path, model):
    folder = tmp_path / "attention"
    folder.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), folder / PDF)
    env = {
        "BASEHALF_MODEL": "openai/local-grader",
        "BASEHALF_API_BASE": model.base_url,
        "OPENAI_API_KEY": "sk-test-walkthrough-0000",
    }
    page = browser_page
    page.goto(marimo_app(folder, open=PDF, env=env))
    wait_for_app(page)
    canvas = page.locator("[data-testid=canvas]")
    expect(canvas).to_have_attribute("data-node-count", "1", timeout=TIMEOUT)

    for n, (number, head, tail, title, name, quote) in enumerate(PASSAGES, start=1):
        go_to(page, number)
        texts = words(page)
        first = find(texts, head)
        last = find(texts, tail, first) + len(tail) - 1
        drag(page, first, last)
        expect(page.locator("[data-testid=passage]")).to_contain_text(quote, timeout=TIMEOUT)
        if title:
            page.locator("[data-testid=branch-title]").fill(title)
        page.click("[data-testid=grow-branch]")
        status = page.locator("[data-testid=grow-status]")
        expect(status).to_contain_text("Grown: ", timeout=TIMEOUT)
        grown = status.inner_text().split("Grown: ", 1)[1].strip()
        if title is None:
            # Rename the suggested name through Card Detail, which now shows the new note.
            expect(page.locator(f"[data-testid=card-detail][data-path='{grown}']")).to_be_visible(
                timeout=TIMEOUT
            )
            box = page.get_by_label("Rename / move to")
            box.fill(name)
            box.press("Enter")
            page.get_by_role("button", name="Rename").click()
            wait_file(folder / name)
            assert not (folder / grown).exists()
        else:
            assert grown == name
        post = frontmatter.load(folder / name)
        assert post["upstream"] == [PDF]
        assert post["grown_from"]["page"] == number
        assert post["grown_from"]["quote"] == quote
        assert post["grown_from"]["fingerprint"].startswith("sha256:")
        assert f"> {quote} (p. {number})" in post.content
        expect(canvas).to_have_attribute("data-node-count", str(1 + n), timeout=TIMEOUT)
        expect(canvas).to_have_attribute("data-edge-count", str(n), timeout=TIMEOUT)

    # The learner writes the practice card in an editor: the watcher picks it up.
    (folder / "06-qkv-practice.md").write_text(PRACTICE, encoding="utf-8")
    expect(canvas).to_have_attribute("data-node-count", "7", timeout=TIMEOUT)
    expect(canvas).to_have_attribute("data-edge-count", "7", timeout=TIMEOUT)

    # ...and links 02 to it by hand in Card Detail.
    page.get_by_label("Open card").select_option("06-qkv-practice.md")
    expect(page.locator("[data-testid=card-detail][data-path='06-qkv-practice.md']")).to_be_visible(
        timeout=TIMEOUT
    )
    page.get_by_label("Add upstream").select_option("02-why-not-only-recurrence.md")
    page.get_by_role("button", name="Connect").click()
    expect(canvas).to_have_attribute("data-edge-count", "8", timeout=TIMEOUT)
    card = frontmatter.load(folder / "06-qkv-practice.md")
    assert card["upstream"] == [
        "03-scaled-dot-product.md",
        "04-three-attention-uses.md",
        "02-why-not-only-recurrence.md",
    ]

    # Grade it in the Agent Area.
    page.get_by_label("Practice card").select_option("06-qkv-practice.md")
    page.get_by_role("button", name="Grade").click()
    verdicts = page.locator("[data-testid=verdicts][data-count='4']")
    expect(verdicts).to_be_visible(timeout=TIMEOUT)
    assert verdicts.get_attribute("data-model") == "openai/local-grader"
    assert page.locator("[data-testid=verdicts] tr[data-verdict='Correct']").count() == 4
    grading = folder / "06-qkv-practice.grading.md"
    assert frontmatter.load(grading)["upstream"] == ["06-qkv-practice.md"]
    [request] = [r for r in model.requests if "ANSWER" in r.text]
    assert "<<<NOTE" in request.text and "Scaled Dot-Product Attention" in request.text
    assert "sk-test-walkthrough-0000" not in grading.read_text(encoding="utf-8")

    # Renaming a note that the card lists rewrites the card's entry; the edge stays drawn.
    page.get_by_label("Open card").select_option("02-why-not-only-recurrence.md")
    expect(
        page.locator("[data-testid=card-detail][data-path='02-why-not-only-recurrence.md']")
    ).to_be_visible(timeout=TIMEOUT)
    box = page.get_by_label("Rename / move to")
    box.fill("02-why-not-recurrence-alone.md")
    box.press("Enter")
    page.get_by_role("button", name="Rename").click()
    expect(page.locator("[data-testid=card-report]")).to_contain_text(
        "Updated: 06-qkv-practice.md", timeout=TIMEOUT
    )
    wait_file(folder / "02-why-not-recurrence-alone.md")
    assert not (folder / "02-why-not-only-recurrence.md").exists()
    assert frontmatter.load(folder / "06-qkv-practice.md")["upstream"][2] == (
        "02-why-not-recurrence-alone.md"
    )
    expect(canvas).to_have_attribute("data-node-count", "8", timeout=TIMEOUT)  # + grading file
    expect(canvas).to_have_attribute("data-edge-count", "9", timeout=TIMEOUT)
    assert page.locator("[data-testid=issues]").get_attribute("data-issue-count") == "0"

    # Read back 由浅入深: the PDF, the notes in order, the card, its grading.
    order = page.locator("[data-testid=learning-path] code").all_inner_texts()
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
    assert not page.dialogs
    assert not [u for u in page.failed_requests if not u.startswith("http://127.0.0.1")]
