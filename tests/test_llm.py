"""The litellm wrapper against a real loopback OpenAI-compatible server."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from openai_server import no_model_env, openai_server  # noqa: F401

from basehalf_core.study import llm

ROOT = Path(__file__).resolve().parents[1]
SECRET = "sk-test-DO-NOT-LEAK-4c1d2e9f"
MSG = [{"role": "user", "content": "hello"}]


def cfg(server, **kw) -> llm.ModelConfig:
    kw.setdefault("timeout", 5.0)
    kw.setdefault("backoff", 0.05)
    return llm.ModelConfig("openai/local-model", server.base_url, **kw)


def test_importing_the_wrapper_does_not_import_litellm():
    code = (
        "import os, sys; os.environ.pop('LITELLM_LOCAL_MODEL_COST_MAP', None);"
        "import basehalf_core.study.llm;"
        "print('litellm' in sys.modules, os.environ.get('LITELLM_LOCAL_MODEL_COST_MAP'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]


@pytest.mark.usefixtures("no_model_env")
def test_resolve_reads_the_environment(monkeypatch):
    assert llm.resolve() is None
    assert llm.resolve("offline") is None
    monkeypatch.setenv("BASEHALF_MODEL", "openai/gpt-4o-mini")
    monkeypatch.setenv("BASEHALF_API_BASE", "http://127.0.0.1:9/v1")
    c = llm.resolve()
    assert (c.model, c.api_base) == ("openai/gpt-4o-mini", "http://127.0.0.1:9/v1")
    assert llm.resolve("anthropic/claude-x").model == "anthropic/claude-x"
    assert llm.key_variable(llm.resolve("anthropic/claude-x")) == "ANTHROPIC_API_KEY"


@pytest.mark.usefixtures("no_model_env")
def test_completion_goes_through_the_server_with_a_placeholder_key(openai_server):
    openai_server.script = [{"content": "pong"}]
    assert llm.complete(cfg(openai_server), MSG) == "pong"
    req = openai_server.requests[0]
    assert req.path == "/v1/chat/completions"
    assert req.body["model"] == "local-model"
    assert req.body["messages"] == MSG
    assert req.headers["authorization"] == f"Bearer {llm.PLACEHOLDER_KEY}"


def test_key_comes_from_the_environment(openai_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    openai_server.script = [{"content": "pong"}]
    llm.complete(cfg(openai_server), MSG)
    assert openai_server.requests[0].headers["authorization"] == f"Bearer {SECRET}"


def test_timeout_is_a_model_timeout(openai_server):
    openai_server.script = [{"delay": 2.0, "content": "late"}]
    with pytest.raises(llm.ModelTimeout, match="no answer within 0.5 s"):
        llm.complete(cfg(openai_server, timeout=0.5), MSG)
    assert len(openai_server.requests) == 1  # a timeout is not retried


def test_401_names_the_variable_and_never_the_key(openai_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    # Real providers echo (part of) the key back in the error text.
    openai_server.script = [{"status": 401, "error": f"Incorrect API key provided: {SECRET}"}]
    with pytest.raises(llm.ModelAuthError) as info:
        llm.complete(cfg(openai_server), MSG)
    assert "OPENAI_API_KEY" in str(info.value)
    assert SECRET not in str(info.value)
    assert SECRET[:12] not in str(info.value)


def test_429_then_success_backs_off_and_answers(openai_server):
    openai_server.script = [
        {"status": 429, "error": "rate limited"},
        {"status": 429, "error": "rate limited"},
        {"content": "finally"},
    ]
    assert llm.complete(cfg(openai_server), MSG) == "finally"
    assert len(openai_server.requests) == 3


def test_429_forever_gives_up_after_bounded_retries(openai_server):
    openai_server.default = {"status": 429, "error": "rate limited"}
    with pytest.raises(llm.ModelRateLimited, match="after 3 attempts"):
        llm.complete(cfg(openai_server, retries=2), MSG)
    assert len(openai_server.requests) == 3


def test_server_error_then_success_is_retried(openai_server):
    openai_server.script = [{"status": 503, "error": "overloaded"}, {"content": "ok now"}]
    assert llm.complete(cfg(openai_server), MSG) == "ok now"


def test_unreachable_server_is_model_unavailable():
    c = llm.ModelConfig("openai/x", "http://127.0.0.1:9/v1", timeout=2, retries=0)
    with pytest.raises(llm.ModelError) as info:
        llm.complete(c, MSG)
    assert "127.0.0.1:9" in str(info.value)


def test_stream_yields_deltas_that_make_the_answer(openai_server):
    text = "Attention maps a query and key-value pairs to an output."
    openai_server.script = [{"content": text, "chunk": 5}]
    deltas = list(llm.stream(cfg(openai_server), MSG))
    assert len(deltas) > 3
    assert "".join(deltas) == text
    assert openai_server.requests[0].body["stream"] is True


def test_no_key_value_in_environment_is_printed_by_errors(openai_server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    openai_server.script = [{"status": 400, "error": f"bad request for key {SECRET}"}]
    with pytest.raises(llm.ModelError) as info:
        llm.complete(cfg(openai_server), MSG)
    assert SECRET not in str(info.value)
    assert os.environ["OPENAI_API_KEY"] == SECRET


def test_warm_up_imports_litellm_in_a_background_thread():
    code = (
        "import sys, threading; from basehalf_core.study import llm;"
        "t = llm.warm_up(); print(t is not threading.current_thread() and t.daemon);"
        "t.join(); print('litellm' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["True", "True"]
