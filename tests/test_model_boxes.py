"""The Agent Area's Model and API base boxes: what typing in them starts and where calls go.

The boxes are real marimo elements; a value is set the way marimo's kernel sets one from the
page (``UIElement._update``, which runs ``on_change``/``on_click``). Model calls go to the real
loopback server in tests/openai_server.py.
"""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from openai_server import blocks, no_model_env, openai_server, practice_folder  # noqa: F401

from basehalf_core.folder.workspace import Workspace
from basehalf_widgets import cells

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.usefixtures("no_model_env")

# Run in a fresh interpreter: litellm must not be imported yet (other tests in this worker
# may have imported it). Prints one JSON object of what it saw.
WARM_UP_PROBE = """
import json, sys, threading
from basehalf_widgets import cells
from basehalf_core.study import llm

def warming():
    return [t for t in threading.enumerate() if t.name == "basehalf-litellm-warm-up"]

seen = {"litellm_at_start": "litellm" in sys.modules}
model_box = cells.model_settings().model_box
model_box._update("offline")
seen["offline_warms"] = bool(warming())
model_box._update("openai/local-model")
first = warming()
seen["warming"] = len(first)
model_box._update("openai/another-model")  # a second value: no second import
seen["threads_after_second_value"] = len(warming())
seen["warm_up_returns_the_same_thread"] = bool(first) and llm.warm_up() is first[0]
for t in first:
    t.join(120)
seen["litellm_after_warm_up"] = "litellm" in sys.modules
before = {m for m in sys.modules if m.split(".")[0] == "litellm"}
cfg = llm.ModelConfig("openai/local-model", sys.argv[1], timeout=10)
seen["reply"] = llm.complete(cfg, [{"role": "user", "content": "hello"}])
seen["imported_by_first_call"] = sorted(
    m for m in sys.modules if m.split(".")[0] == "litellm" and m not in before
)
print(json.dumps(seen))
"""


def test_a_model_typed_in_the_box_starts_the_warm_up_once_and_the_first_call_imports_nothing(
    openai_server,
):
    openai_server.default = {"content": "hi"}
    out = subprocess.run(
        [sys.executable, "-c", WARM_UP_PROBE, openai_server.base_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=180,
    )
    seen = json.loads(out.stdout)
    assert seen == {
        "litellm_at_start": False,  # making the boxes imports nothing
        "offline_warms": False,  # "offline" names no model
        "warming": 1,  # a model typed in the box: the import starts, off the kernel thread
        "threads_after_second_value": 1,
        "warm_up_returns_the_same_thread": True,
        "litellm_after_warm_up": True,
        "reply": "hi",
        "imported_by_first_call": [],  # the learner's first call pays no import
    }
    assert len(openai_server.requests) == 1  # the warm-up itself never reached a server


KEY = {1: "The query is what a position looks for.", 2: "The values are what it passes on."}


def test_draft_answer_key_goes_to_the_server_in_the_api_base_box(tmp_path, openai_server):
    folder = practice_folder(
        tmp_path / "study",
        ("01-note.md", "# Attention\n\nThe query is what the current position is looking for.\n"),
        "1. What is the query?\n   Answer: What a position looks for.\n"
        "2. What are the values?\n   Answer: What it passes on.\n",
        "02-card.md",
    )
    ws = Workspace.open(folder)
    openai_server.default = {
        "content": json.dumps({"key": [{"number": n, "answer": a} for n, a in KEY.items()]})
    }
    settings = cells.model_settings()
    bumps = []
    current = {"open": "02-card.md", "reader": None, "card": "02-card.md"}
    _, draft_key, _ = cells.answer_key_buttons(ws, current, settings, lambda: bumps.append(1))
    # No BASEHALF_API_BASE: the box is the only place the server is named.
    settings.model_box._update("openai/local-model")
    settings.api_base_box._update(openai_server.base_url)
    draft_key._update(1)  # the click
    assert draft_key.value.startswith("Drafted 2 answers"), draft_key.value
    assert len(openai_server.requests) == 1 and bumps == [1]
    sent = openai_server.requests[0].body
    assert sent["model"] == "local-model"
    assert any(k == "NOTE" for k, _, _ in blocks(sent["messages"][1]["content"]))
    text = (folder / "02-card.md").read_text()
    assert "## Answer key (draft)" in text and KEY[2] in text
