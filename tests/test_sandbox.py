"""``uvx marimo run --sandbox workbench.py``: the PEP 723 header, and a real sandboxed start.

The header names the project itself as an editable path source plus marimo; its pins must
be the ones ``pyproject.toml`` has, or the sandbox runs another marimo than the tests do.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, free_port
from packaging.requirements import Requirement

# The reference regex of PEP 723 (https://peps.python.org/pep-0723/#reference-implementation).
_BLOCK = re.compile(r"(?m)^# /// (?P<type>[a-zA-Z0-9-]+)$\s(?P<content>(^#(| .*)$\s)+)^# ///$")


def script_header(text: str) -> dict:
    """The ``script`` metadata block of a PEP 723 file as TOML data (error if absent or doubled)."""
    blocks = [m for m in _BLOCK.finditer(text) if m.group("type") == "script"]
    if len(blocks) != 1:
        raise ValueError(f"expected one '# /// script' block, found {len(blocks)}")
    lines = blocks[0].group("content").splitlines(keepends=True)
    toml = "".join(line[2:] if line.startswith("# ") else line[1:] for line in lines)
    return tomllib.loads(toml)


def header_problems(header: dict, project: dict, project_dir: Path) -> list[str]:
    """Every way the script header disagrees with ``pyproject.toml`` (empty when it agrees)."""
    problems = []
    meta = project["project"]
    name = meta["name"]
    if header.get("requires-python") != meta["requires-python"]:
        problems.append(f"requires-python {header.get('requires-python')!r} != pyproject's")
    wanted = {Requirement(d).name: Requirement(d) for d in meta["dependencies"]}
    listed = [Requirement(d) for d in header.get("dependencies", [])]
    names = [r.name for r in listed]
    if name not in names:
        problems.append(f"the project {name!r} is not a dependency")
    if "marimo" not in names:
        problems.append("marimo is not a dependency (the sandbox must run it)")
    for req in listed:
        if req.name == name:
            continue
        if req.name not in wanted:
            problems.append(f"{req.name} is not a dependency in pyproject.toml")
        elif (req.specifier, req.extras) != (wanted[req.name].specifier, wanted[req.name].extras):
            problems.append(f"{req} differs from pyproject's {wanted[req.name]}")
    source = header.get("tool", {}).get("uv", {}).get("sources", {}).get(name, {})
    if not source.get("editable") or "path" not in source:
        problems.append(f"{name} has no editable path source under [tool.uv.sources]")
    elif (project_dir / source["path"]).resolve() != project_dir.resolve():
        problems.append(f"{name}'s path source {source['path']!r} is not the project folder")
    return problems


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def test_header_matches_pyproject():
    text = (ROOT / "workbench.py").read_text("utf-8")
    assert text.startswith("# /// script\n"), "the header must open the file"
    header = script_header(text)
    assert header_problems(header, _project(), ROOT) == []
    assert [Requirement(d).name for d in header["dependencies"]] == ["basehalf", "marimo"]


_GOOD = {
    "requires-python": ">=3.11",
    "dependencies": ["basehalf", "marimo>=0.25.2,<0.26"],
    "tool": {"uv": {"sources": {"basehalf": {"path": ".", "editable": True}}}},
}


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"dependencies": ["basehalf", "marimo>=0.24"]}, "differs from pyproject"),
        ({"dependencies": ["marimo>=0.25.2,<0.26"]}, "'basehalf' is not a dependency"),
        ({"dependencies": ["basehalf"]}, "marimo is not a dependency"),
        ({"dependencies": ["basehalf", "marimo>=0.25.2,<0.26", "pandas"]}, "pandas is not"),
        ({"requires-python": ">=3.10"}, "requires-python"),
        ({"tool": {}}, "no editable path source"),
        ({"tool": {"uv": {"sources": {"basehalf": {"path": ".."}}}}}, "no editable path"),
        (
            {"tool": {"uv": {"sources": {"basehalf": {"path": "tests", "editable": True}}}}},
            "is not the project folder",
        ),
    ],
)
def test_a_drifted_header_is_caught(change, problem):
    project = _project()
    marimo = next(d for d in project["project"]["dependencies"] if d.startswith("marimo"))
    assert Requirement(marimo) == Requirement(_GOOD["dependencies"][1])  # the table's premise
    assert header_problems(_GOOD, project, ROOT) == []
    found = header_problems({**_GOOD, **change}, project, ROOT)
    assert any(problem in p for p in found), found


@pytest.mark.parametrize(
    "text",
    ["import marimo\n", "# /// script\n# x = 1\n# ///\nimport x\n# /// script\n# y = 2\n# ///\n"],
)
def test_missing_or_doubled_header_is_an_error(text):
    with pytest.raises(ValueError, match="expected one"):
        script_header(text)


def _copy_project(dest: Path) -> None:
    """What ``uv`` needs to build the project editable: pyproject, readme, licence, packages."""
    dest.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE", "workbench.py"):
        shutil.copy2(ROOT / name, dest / name)
    for pkg in ("basehalf_core", "basehalf_widgets", "basehalf_cli"):
        shutil.copytree(ROOT / pkg, dest / pkg, ignore=shutil.ignore_patterns("__pycache__"))


@pytest.mark.slow
def test_marimo_run_sandbox_serves_the_workbench(tmp_path):
    """``uv`` from PyPI, then ``marimo run --sandbox`` builds its own environment and serves.

    The project is copied first: marimo may rewrite a sandboxed notebook's header. uv's own
    cache is shared between runs (a cold one took 39 s and 750 MB here, a warm one 8 s); the
    wait is bounded at five minutes.
    """
    venv = tmp_path / "uv-venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "uv"],
        check=True,
        timeout=300,
    )
    assert (venv / "bin" / "uv").exists()
    app = tmp_path / "app"
    _copy_project(app)
    port = free_port()
    env = {
        **os.environ,
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "UV_PYTHON_DOWNLOADS": "never",  # PyPI only: use an installed Python >= 3.11
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }
    env.pop("VIRTUAL_ENV", None)
    log = tmp_path / "sandbox.log"
    cmd = [
        sys.executable, "-m", "marimo", "run", "--sandbox", "workbench.py",
        "--headless", "--host", "127.0.0.1", "--port", str(port), "--no-token",
    ]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd,
            cwd=app,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # uv starts marimo as a child: stop the whole group
        )
        try:
            health = _wait_for_health(proc, f"http://127.0.0.1:{port}", log, timeout=300)
            page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10).read()
        finally:
            _stop_group(proc)
    assert health.get("status") == "healthy"
    assert b"<title>basehalf</title>" in page
    text = log.read_text("utf-8", errors="replace")
    assert "Using script environment" in text
    assert "ModuleNotFoundError" not in text


def _wait_for_health(proc: subprocess.Popen, url: str, log: Path, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"marimo --sandbox exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as resp:
                return json.loads(resp.read())
        except OSError:
            time.sleep(0.5)
    pytest.fail(f"marimo --sandbox did not answer in {timeout}s:\n{log.read_text()[-3000:]}")


def _stop_group(proc: subprocess.Popen) -> None:
    """SIGINT (marimo shuts down cleanly), then make sure nothing of the group is left."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # a child uv or marimo that outlived its parent
