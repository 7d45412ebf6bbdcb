"""Lint, format and the marimo app's static check are part of the suite."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, capture_output=True, text=True)


def test_ruff_check_is_clean():
    proc = run(str(BIN / "ruff"), "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format_is_applied():
    proc = run(str(BIN / "ruff"), "format", "--check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_marimo_check_workbench():
    proc = run(str(BIN / "marimo"), "check", "workbench.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_cdn_addresses_in_the_app():
    hits = []
    for folder in ("basehalf_widgets", "basehalf_core"):
        for p in (ROOT / folder).rglob("*"):
            if p.suffix in (".py", ".js", ".css", ".html") and p.is_file():
                text = p.read_text(encoding="utf-8", errors="replace")
                for host in ("cdn.", "unpkg.com", "cdnjs", "fonts.googleapis", "jsdelivr"):
                    if host in text:
                        hits.append(f"{p.relative_to(ROOT)}: {host}")
    assert hits == []
