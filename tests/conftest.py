"""Shared fixtures: the corpus, and a real marimo server driven by Debian's chromium."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import hypothesis
import pytest

# Re-exported: tests import these names from conftest.
from harness import (  # noqa: F401
    CHROMIUM,
    CHROMIUM_ARGS,
    ROOT,
    MarimoServer,
    free_port,
    launch_chromium,
)

# Property tests check answers, not speed: a per-example deadline only flakes on a busy machine.
hypothesis.settings.register_profile("basehalf", deadline=None)
hypothesis.settings.load_profile("basehalf")

# litellm must not reach for its online cost map in any test process.
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# BASEHALF_SHARED: the shared folder when the checkout is not beside it (a git worktree).
SHARED = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared"))
SESSION = ROOT / "sessions" / "attention-is-all-you-need"
CORPUS = SHARED / "corpus"
GRADING_DATA = SHARED / "grading"


def corpus(name: str) -> Path:
    """A real document from ``../shared/corpus`` (read-only; copy it into tmp_path to change it)."""
    path = CORPUS / name
    if not path.exists():
        pytest.fail(f"corpus file missing: {path} (tests need ../shared/corpus beside the repo)")
    return path


def drag(doc, i: int, first: str, last: str) -> str:
    """The quote of a mouse drag on page ``i`` from the first word ``first`` to the next
    word ``last`` (words as the reader shows them)."""
    words = doc.words(i)
    a = next(w.index for w in words if w.text == first)
    b = next(w.index for w in words[a:] if w.text == last)
    return doc.passage(i, doc.select_between(i, a, b)).quote


@pytest.fixture
def l2_trains(monkeypatch) -> list[list[int]]:
    """The training parts the offline grader's CV chooses a ridge penalty on, as it runs."""
    from basehalf_core.study.offline_grader import evaluate

    trains: list[list[int]] = []
    real = evaluate.choose_l2

    def spy(train, *args):
        trains.append(list(train))
        return real(train, *args)

    monkeypatch.setattr(evaluate, "choose_l2", spy)
    return trains


@pytest.fixture
def corpus_file():
    """Factory: ``corpus_file(name)`` → path of a corpus document."""
    return corpus


@pytest.fixture
def marimo_notebook(tmp_path: Path) -> Iterator:
    """Factory: ``marimo_notebook(path, *args, env=None) -> base_url`` of a running notebook."""
    servers: list[MarimoServer] = []

    def start(notebook: str | Path, *args: str, env: dict[str, str] | None = None) -> str:
        full_env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", **(env or {})}
        log = tmp_path / f"marimo-{len(servers)}.log"
        server = MarimoServer(ROOT / notebook, [str(a) for a in args], full_env, log)
        servers.append(server)
        return server.url

    yield start
    for s in servers:
        s.stop()


@pytest.fixture
def marimo_app(marimo_notebook):
    """Factory: ``marimo_app(folder, open=None, env=None) -> base_url`` of a running workbench."""

    def start(folder: Path, open: str | None = None, env: dict[str, str] | None = None) -> str:
        args = ["--folder", str(folder)] + (["--open", open] if open else [])
        return marimo_notebook("workbench.py", *args, env=env)

    return start


def _require_chromium() -> None:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        pytest.fail(
            f"{CHROMIUM} not found: browser tests need Debian's chromium (apt-get install chromium)"
        )


@pytest.fixture(scope="session")
def _browser():
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch_chromium(pw)
        yield browser
        browser.close()


@pytest.fixture
def browser_page(_browser):
    """A fresh Playwright page (own context) with a tall viewport; dialogs are recorded."""
    context = _browser.new_context(viewport={"width": 1400, "height": 2400})
    page = context.new_page()
    page.dialogs = []  # type: ignore[attr-defined]

    def on_dialog(dialog):
        page.dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.failed_requests = []  # type: ignore[attr-defined]
    page.on("requestfailed", lambda r: page.failed_requests.append(r.url))  # type: ignore[attr-defined]
    yield page
    context.close()


def wait_for_app(page, timeout: float = 60_000) -> None:
    """Wait until marimo has run every cell (no cell still queued or running)."""
    page.wait_for_selector("[data-testid='workbench-ready']", state="attached", timeout=timeout)
    page.wait_for_function(
        '() => !document.querySelector(\'[data-status="running"], [data-status="queued"]\')',
        timeout=timeout,
    )


def open_practice(
    marimo_app, page, tmp_path: Path, model: str, api_base: str, pdf: str = ""
) -> Path:
    """The workbench on a copy of the Attention session's notes, its practice card picked.

    ``model`` at ``api_base`` (a loopback server) is the Agent Area's model; ``pdf``, if
    given, is the name the paper is copied under (the notes' anchors cite it by name).
    """
    folder = tmp_path / "attention"
    folder.mkdir()
    for note in SESSION.glob("0*.md"):
        shutil.copyfile(note, folder / note.name)
    if pdf:
        shutil.copyfile(corpus("attention-1706.03762.pdf"), folder / pdf)
    page.goto(marimo_app(folder, env={"BASEHALF_MODEL": model, "BASEHALF_API_BASE": api_base}))
    wait_for_app(page)
    page.get_by_label("Practice card").select_option("06-qkv-practice.md")
    return folder


# --- loopback HTTP servers and the attention session, for fetch and citation tests ---


class _Server:
    """Serves ``routes`` (path → (status, content type, bytes)) on 127.0.0.1."""

    def __init__(self, routes: dict[str, tuple[int, str, bytes]]):
        self.requests: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                outer.requests.append(self.path)
                status, ctype, body = routes.get(self.path, (404, "text/plain", b"no such"))
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/pdf/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def arxiv():
    servers: list[_Server] = []

    def start(routes):
        s = _Server(routes)
        servers.append(s)
        return s

    yield start
    for s in servers:
        s.close()


@pytest.fixture
def session_copy(tmp_path: Path) -> Path:
    """The attention session's notes, without the PDF (as a learner clones them)."""
    dest = tmp_path / "attention-is-all-you-need"
    shutil.copytree(SESSION, dest, ignore=shutil.ignore_patterns("*.pdf", ".bh"))
    return dest
