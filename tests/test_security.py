"""The security standard attacked with real parts: hostile notes, documents, requests and replies.

Each test here failed before the mechanism it names was fixed (see /work/notes/sec-note.md).
"""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

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
