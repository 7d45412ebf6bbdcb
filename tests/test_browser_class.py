"""A served class in a real browser: two learners at once, each in their own folder; the
teacher sees both; a learner's crafted request for the other's session is refused and logged."""

from __future__ import annotations

import shutil
import time
from urllib.parse import parse_qs, urlparse

import pytest
from class_server import LONGEVAL, PASSWORD, ClassServer, make_class
from conftest import wait_for_app
from playwright.sync_api import expect
from test_browser_reader import drag
from test_browser_walkthrough import words

from basehalf_core.teaching import roster

pytestmark = pytest.mark.browser
TIMEOUT = 90_000
CARD = "longeval-human-evaluation/06-longeval-practice.md"


def sign_in(browser, server: ClassServer, name: str):
    context = browser.new_context(viewport={"width": 1400, "height": 2400})
    page = context.new_page()
    page.sockets = []  # type: ignore[attr-defined]
    page.on("websocket", lambda ws: page.sockets.append(ws.url))  # type: ignore[attr-defined]
    page.goto(server.url + "/")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", PASSWORD.format(name=name))
    page.click("button[type=submit]")
    return page


def wait_for(path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} did not appear"
        time.sleep(0.1)


def test_two_learners_at_once_and_the_teacher_sees_both(_browser, tmp_path):
    root = make_class(tmp_path, "alice", "bob", sessions=(LONGEVAL,), passwords=True)
    # Alice answered her card in an editor before class; Bob's is still blank.
    shutil.copy(LONGEVAL / CARD.split("/", 1)[1], roster.folder_of(root, "alice") / CARD)
    server = ClassServer(root, tmp_path / "serve.log", env={"BASEHALF_MODEL": ""})
    try:
        pages = {name: sign_in(_browser, server, name) for name in ("alice", "bob")}
        folders = {name: roster.folder_of(root, name) for name in pages}
        for name, page in pages.items():
            wait_for_app(page, TIMEOUT)
            status = page.locator("[data-testid=served-status]")
            expect(status).to_have_attribute("data-learner", name)
            expect(status).to_have_attribute("data-calls-left", "50")  # the daily budget, shown
            page.wait_for_selector("[data-testid=text-layer] span", timeout=TIMEOUT)
        canvas = {n: p.locator("[data-testid=canvas]") for n, p in pages.items()}
        before = canvas["alice"].get_attribute("data-node-count")

        # Both select a passage and grow it, then both rename their note: at the same time.
        for name, page in pages.items():
            texts = words(page)
            drag(page, 0, min(6, len(texts) - 1))
            expect(page.locator("[data-testid=passage]")).not_to_be_empty(timeout=TIMEOUT)
            title = page.locator("[data-testid=branch-title]")
            expect(title).not_to_have_value("", timeout=TIMEOUT)  # the suggestion arrived
            title.fill(f"{name} grew this")
        for page in pages.values():
            page.click("[data-testid=grow-branch]")
        grown = {}
        for name, page in pages.items():
            # The grow form gives way to the new note in Card Detail: its path names the note.
            detail = page.locator("[data-testid=card-detail][data-path$='.md']")
            expect(detail).to_be_visible(timeout=TIMEOUT)
            grown[name] = detail.get_attribute("data-path")
            assert f"{name}-grew-this" in grown[name]
            assert (folders[name] / grown[name]).is_file()
            expect(
                page.locator(f"[data-testid=card-detail][data-path='{grown[name]}']")
            ).to_be_visible(timeout=TIMEOUT)
            page.get_by_label("Rename / move to").fill(f"{name}-edited.md")
        for page in pages.values():
            page.get_by_role("button", name="Rename").click()
        for name in pages:
            wait_for(folders[name] / f"{name}-edited.md")
            other = "bob" if name == "alice" else "alice"
            assert not (folders[name] / grown[name]).exists()
            assert not (folders[other] / f"{name}-edited.md").exists()
            assert not list(folders[other].rglob(f"{name}-grew-this*"))

        # Neither sees the other's cards.
        for name, page in pages.items():
            other = "bob" if name == "alice" else "alice"
            expect(canvas[name]).to_have_attribute(
                "data-node-count", str(int(before) + 1), timeout=TIMEOUT
            )
            path = page.get_by_role("tabpanel", name="Learning path (由浅入深)").get_by_test_id(
                "learning-path"
            )
            expect(path).to_contain_text(f"{name}-edited.md", timeout=TIMEOUT)
            assert f"{other}-edited.md" not in path.inner_text()
            assert f"{other} grew this" not in page.content()

        # A folder in the URL changes nothing: Alice still gets her own.
        alice = pages["alice"]
        alice.goto(server.url + f"/?folder={folders['bob']}")
        wait_for_app(alice, TIMEOUT)
        expect(
            alice.get_by_role("tabpanel", name="Learning path (由浅入深)").get_by_test_id(
                "learning-path"
            )
        ).to_contain_text("alice-edited.md")
        assert (
            "bob-edited.md"
            not in alice.get_by_role("tabpanel", name="Learning path (由浅入深)")
            .get_by_test_id("learning-path")
            .inner_text()
        )

        # Alice's devtools request into Bob's kernel (his session id): refused, logged.
        bob_sid = next(
            parse_qs(urlparse(u).query)["session_id"][0]
            for u in pages["bob"].sockets
            if "session_id=" in u
        )
        crafted = alice.request.post(
            server.url + "/api/kernel/set_ui_element_value",
            headers={"Marimo-Session-Id": bob_sid, "Content-Type": "application/json"},
            data='{"objectIds": [], "values": []}',
        )
        assert crafted.status == 403
        assert any(
            "user=alice" in ln and "another user's session" in ln for ln in server.refusals()
        )

        # The teacher sees both, and can read Alice's note (read-only).
        teacher = sign_in(_browser, server, "teacher")
        teacher.wait_for_selector("[data-testid=teacher-ready]", state="attached", timeout=TIMEOUT)
        expect(teacher.locator("[data-testid=roster]")).to_have_attribute(
            "data-learners", "alice,bob", timeout=TIMEOUT
        )
        teacher.get_by_label("Look at a learner's folder (read-only)").select_option("alice")
        teacher.get_by_label("File").select_option("alice-edited.md")
        shown = teacher.locator("[data-testid=learner-file][data-learner=alice]")
        expect(shown).to_contain_text("alice grew this", timeout=TIMEOUT)
        assert teacher.locator("button", has_text="Rename").count() == 0

        # Grade the class (offline here): a gradebook with a row per learner and question.
        teacher.get_by_label("Card", exact=True).select_option(CARD)
        teacher.get_by_role("button", name="Grade the class").click()
        expect(teacher.locator("[data-testid=gradebook]")).to_be_attached(timeout=TIMEOUT)
        book = (root / "learners" / "06-longeval-practice.gradebook.csv").read_text()
        assert "\nalice," in book and "\nbob," in book
        expect(teacher.locator("[data-testid=most-wrong]")).to_be_attached(timeout=TIMEOUT)
        for page in [*pages.values(), teacher]:
            page.context.close()
    finally:
        server.stop()
