"""One launcher for a real marimo server and Debian's chromium, shared by the tests and bench/.

The tests reach it through ``conftest.py``; bench scripts put ``tests/`` on ``sys.path`` and import
it, so a server or browser is started the same way everywhere.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("BASEHALF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright):
    """Debian's chromium through Playwright, with the flags this closed network needs."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MarimoServer:
    """``marimo run NOTEBOOK -- ARGS`` on a loopback port, stopped by :meth:`stop`."""

    def __init__(self, notebook: Path, args: list[str], env: dict[str, str], log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [
            sys.executable, "-m", "marimo", "run", str(notebook),
            "--headless", "--port", str(self.port), "--no-token", "--no-sandbox",
            "--", *args,
        ]  # fmt: skip
        self.log = log
        self._log = open(log, "wb")  # noqa: SIM115 - lives as long as the server
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        self._wait()

    def _wait(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"marimo exited early:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"marimo did not start in {timeout}s:\n{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self._log.close()

    def rss_mb(self) -> float:
        """Resident memory of the server process, in MiB (Linux /proc)."""
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


# The floor of the start-up benches: a notebook of one line of HTML, what marimo alone takes to
# show a fresh page (bench/startup.py and bench/canvas.py print their figures beside it).
FLOOR_APP = """import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import marimo as mo

    mo.Html('<div data-testid="floor-ready">ready</div>')
    return


if __name__ == "__main__":
    app.run()
"""
FLOOR_READY = "() => !!document.querySelector('[data-testid=floor-ready]')"
