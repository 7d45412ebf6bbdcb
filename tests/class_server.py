"""A real ``basehalf serve`` for tests and the bench: a course, its learners, a running server.

:func:`make_class` builds a course of one session with an answer key and hands learners out;
:class:`ClassServer` runs ``python -m basehalf_cli.main serve`` on a loopback port and signs
people in over plain HTTP (the login form a browser posts).
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

from conftest import ROOT, free_port

from basehalf_cli.main import main
from basehalf_core.teaching import auth, course

SESSION = ROOT / "sessions" / "attention-is-all-you-need"
LONGEVAL = ROOT / "sessions" / "longeval-human-evaluation"
KEY = "# Key\n\n1. The walrus-striped query vector probes every token of the sequence.\n"
PASSWORD = "correct horse {name}"


def make_class(tmp_path: Path, *names: str, sessions=(SESSION,), passwords: bool = False) -> Path:
    """A course with an answer key and ``names`` handed out under ``learners/``."""
    root = tmp_path / "course"
    course.new(root, "Reading Transformers", list(sessions), key=["answers/"])
    (root / "answers").mkdir()
    (root / "answers" / "key.md").write_text(KEY, encoding="utf-8")
    for name in names:
        assert main(["course", "add-learner", str(root), name]) == 0
        if passwords:
            auth.set_password(root, name, PASSWORD.format(name=name))
    if passwords:
        auth.set_password(root, "teacher", PASSWORD.format(name="teacher"), role="teacher")
    return root


class ClassServer:
    """``basehalf serve COURSE`` in its own process, on a free loopback port."""

    def __init__(self, course_root: Path, log: Path, env: dict[str, str] | None = None):
        self.root = course_root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        full = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", **(env or {})}
        full["PYTHONPATH"] = str(ROOT) + os.pathsep + full.get("PYTHONPATH", "")
        self.log = log
        self._log = open(log, "wb")  # noqa: SIM115 - lives as long as the server
        cmd = [sys.executable, "-m", "basehalf_cli.main", "serve", str(course_root)]
        self.proc = subprocess.Popen(
            [*cmd, "--port", str(self.port)],
            cwd=ROOT,
            env=full,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"basehalf serve exited:\n{log.read_text()[-3000:]}")
            try:
                if self.request("GET", "/login")[0] == 200:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"basehalf serve did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.3)

    def request(
        self, method: str, path: str, *, cookie: str = "", body: str = "", headers=None
    ) -> tuple[int, dict, str]:
        """(status, headers, body) of one request; redirects are not followed."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        head = dict(headers or {})
        if cookie:
            head["Cookie"] = cookie
        if body:
            head["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            conn.request(method, path, body=body.encode() if body else None, headers=head)
            resp = conn.getresponse()
            return resp.status, dict(resp.getheaders()), resp.read().decode("utf-8", "replace")
        finally:
            conn.close()

    def login(self, name: str, password: str | None = None) -> tuple[int, str]:
        """(status, the session cookie ``name=value`` or ``""``)."""
        form = urllib.parse.urlencode(
            {"name": name, "password": PASSWORD.format(name=name) if password is None else password}
        )
        status, headers, _ = self.request("POST", "/login", body=form)
        cookie = headers.get("set-cookie", "").split(";", 1)[0]
        return status, cookie

    def refusals(self) -> list[str]:
        """The server's log of refused requests."""
        path = self.root / ".bh" / "serve.log"
        return path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._log.close()
