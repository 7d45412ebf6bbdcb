"""Answer keys in a real browser: draft with the model, edit in the note editor, approve, grade
offline against the approved key.

A real marimo server runs the workbench over a copy of the walkthrough's notes, card and PDF;
a loopback OpenAI-compatible server drafts the key. The drafted answers are deliberately
unrelated to the learner's, so only the answer the learner edits in the app can agree with
the learner's own answer when the offline grader reads the key.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import open_practice
from openai_server import blocks, key_reply, start
from playwright.sync_api import expect

from basehalf_core.study.practice import parse_card

pytestmark = pytest.mark.browser

CARD = "06-qkv-practice.md"
PDF = "attention-is-all-you-need.pdf"
TIMEOUT = 90_000
# What the model drafts: none of it agrees with the card's own answers.
DRAFT = {
    1: "A query is the colour of the sky over the harbour.",
    2: "A key is a kind of migrating bird.",
    3: "A value is a river that runs to the sea.",
    4: "They all come from the moon.",
}
# What the learner types over draft answer 1: the card's own answer, in the key's words.
EDITED = "A query encodes what the current position is looking for, scored against every key."


@pytest.fixture
def drafting_model():
    server = start(key_reply(DRAFT))
    yield server
    server.stop()


def open_workbench(marimo_app, page, tmp_path: Path, server) -> Path:
    # The paper under the name the notes' anchors cite: the drafter re-reads around them.
    return open_practice(marimo_app, page, tmp_path, "openai/key-drafter", server.base_url, pdf=PDF)


def test_draft_edit_approve_then_grade_offline_against_the_key(
    marimo_app, browser_page, tmp_path, drafting_model
):
    page = browser_page
    folder = open_workbench(marimo_app, page, tmp_path, drafting_model)
    card_file = folder / CARD
    agent = page.locator("[data-testid=agent-area]")

    # The learner opens the card in Card Detail: the note editor shows it.
    page.get_by_label("Open card").select_option(CARD)
    expect(page.locator(f"[data-testid=card-detail][data-path='{CARD}']")).to_be_visible(
        timeout=TIMEOUT
    )
    editor = page.locator(f"[data-testid=note-editor][data-path='{CARD}']")
    expect(editor).to_have_value(re.compile("Answer:"), timeout=TIMEOUT)

    # 1-2. Draft answer key: the Agent Area says so, the editor shows the draft section, and
    # the file holds it as a draft (a draft is not a key).
    page.get_by_role("button", name="Draft answer key").click()
    expect(agent).to_contain_text("Drafted 4 answers", timeout=TIMEOUT)
    expect(editor).to_have_value(re.compile(re.escape("## Answer key (draft)")), timeout=TIMEOUT)
    expect(editor).to_have_value(re.compile(re.escape(f"1. {DRAFT[1]}")))
    text = card_file.read_text(encoding="utf-8")
    assert "## Answer key (draft)" in text and "Drafted by openai/key-drafter" in text
    assert all(f"{n}. {a}" in text for n, a in DRAFT.items()), text
    assert parse_card(CARD, text).answer_key == {}
    # The model was sent the card's upstream notes and the PDF text around their anchors.
    [sent] = [r for r in drafting_model.requests if "QUESTION" in r.text]
    user = next(m for m in sent.body["messages"] if m["role"] == "user")["content"]
    around = [b for k, h, b in blocks(user) if k == "PASSAGE" and "around=" in h]
    assert around and any("Scaled Dot-Product Attention" in b for b in around)
    assert any(k == "NOTE" for k, _, _ in blocks(user))

    # 3. Edit draft answer 1 in the note editor and save with the Save button.
    body = editor.input_value()
    assert f"1. {DRAFT[1]}" in body
    editor.fill(body.replace(f"1. {DRAFT[1]}", f"1. {EDITED}"))
    page.locator("[data-testid=note-save]").click()
    expect(page.locator("[data-testid=note-status]")).to_contain_text(
        f"Saved {CARD}", timeout=TIMEOUT
    )
    saved = card_file.read_text(encoding="utf-8")
    assert f"1. {EDITED}" in saved and DRAFT[1] not in saved
    assert "## Answer key (draft)" in saved

    # 4. Approve key: the card now holds `## Answer key` with the edited answer.
    page.get_by_role("button", name="Approve key").click()
    expect(agent).to_contain_text("Approved: offline grading", timeout=TIMEOUT)
    expect(editor).to_have_value(re.compile(r"## Answer key\n"), timeout=TIMEOUT)
    approved = card_file.read_text(encoding="utf-8")
    assert "## Answer key\n" in approved and "(draft)" not in approved
    assert "Drafted by" not in approved
    key = parse_card(CARD, approved).answer_key
    assert key == {1: EDITED, 2: DRAFT[2], 3: DRAFT[3], 4: DRAFT[4]}

    # 5. Grade offline (the learner types "offline" in the Model box): the verdicts follow the
    # key — the edited answer agrees with the learner's, the unrelated drafts do not.
    calls = len(drafting_model.requests)
    page.get_by_label("Model").fill("offline")
    page.get_by_label("Model").press("Enter")
    page.get_by_role("button", name="Grade").click()
    table = agent.locator("[data-testid=verdicts][data-count='4']")
    expect(table).to_be_visible(timeout=TIMEOUT)
    rows = table.locator("tr[data-number]")
    got = {int(r.get_attribute("data-number")): r.get_attribute("data-verdict") for r in rows.all()}
    assert got[1] == "Correct", got
    assert all(got[n] != "Correct" for n in (2, 3, 4)), got
    expect(rows.first).to_contain_text(EDITED)  # the key is the evidence shown
    assert len(drafting_model.requests) == calls  # offline: the model was not asked
    grading = (folder / "06-qkv-practice.grading.md").read_text(encoding="utf-8")
    assert "model: offline" in grading
