"""What one ``basehalf serve`` process needs when a whole class works in it at once.

Found by bench/course_server.py with 30 learners: a learner signing in at the same moment as
another got no kernel (CPython 3.11's AST constructor is not safe across threads), and the
gate parsed the course's YAML on every request.
"""

from __future__ import annotations

import os
import subprocess
import sys

from class_server import make_class
from conftest import ROOT

from basehalf_cli import marimo_tuning, serve

# Several threads parse the notebook at once while others make garbage whose finaliser runs
# Python code (so the collector switches threads inside the AST constructor), thread switches
# as often as possible. Run in a fresh interpreter, as the server is. Unguarded, CPython 3.11
# raised "AST constructor recursion depth mismatch" here in 3 runs of 4.
RACE = """
import ast, gc, sys, threading, time
from basehalf_cli import marimo_tuning
if sys.argv[1] == "guarded":
    marimo_tuning.serialise_compile()
    marimo_tuning.serialise_compile()  # twice is once
    assert builtins_compile_wrapped()
source = open(sys.argv[2], encoding="utf-8").read()
errors = []
end = time.monotonic() + 3
class Finalised:
    def __del__(self):
        sum(range(50))
def parse():
    while time.monotonic() < end:
        try:
            ast.parse(source)
        except SystemError as exc:
            errors.append(str(exc))
def churn():
    while time.monotonic() < end:
        ring = [Finalised() for _ in range(200)]
        for a, b in zip(ring, ring[1:] + ring[:1]):
            a.next = b
        del ring
gc.set_threshold(50)
sys.setswitchinterval(1e-6)
threads = [threading.Thread(target=parse) for _ in range(4)]
threads += [threading.Thread(target=churn) for _ in range(2)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(len(errors), errors[:1])
"""
WRAPPED = """
def builtins_compile_wrapped():
    import builtins
    return builtins.compile.__wrapped__.__name__ == "compile"
"""


def test_many_kernels_build_asts_at_once_without_a_systemerror():
    # What a served class does at sign-in: marimo parses the notebook for each new session in
    # a thread, and each kernel thread compiles its cells.
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(
        [sys.executable, "-c", WRAPPED + RACE, "guarded", str(ROOT / "workbench.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("0 "), done.stdout


def test_marimo_plugin_lookup_is_read_once_per_server(monkeypatch):
    # marimo looks its cell-executor plugins up before every cell run; the server reads the
    # installed packages' entry points once and still runs cells with marimo's own executor.
    from marimo._entrypoints import registry
    from marimo._runtime.executor import evaluator

    monkeypatch.setattr(registry, "get_entry_points", registry.get_entry_points)  # restored
    reads = []
    real = registry.entry_points
    monkeypatch.setattr(registry, "entry_points", lambda: reads.append(1) or real())
    marimo_tuning.cache_marimo_plugins()
    marimo_tuning.cache_marimo_plugins()  # twice is once
    for _ in range(5):
        assert isinstance(evaluator.resolve_executor(), evaluator.DefaultExecutor)
    assert len(reads) == 1


def test_the_gate_sees_a_roster_edit_at_once(tmp_path):
    # The gate keeps the parsed roster between requests; taking a learner off (or adding one)
    # must still count from the very next request, even within the same second.
    root = make_class(tmp_path, "alice", "bob")
    gate = serve.Gate(app=None, course_root=root)
    assert gate.on_roster("alice") and gate.on_roster("bob")
    assert not gate.on_roster("carol") and not gate.on_roster("teacher")
    text = (root / "course.yaml").read_text(encoding="utf-8")
    without_bob = "\n".join(ln for ln in text.splitlines() if "bob" not in ln) + "\n"
    (root / "course.yaml").write_text(without_bob, encoding="utf-8")
    assert gate.on_roster("alice") and not gate.on_roster("bob")
    (root / "course.yaml").write_text(text, encoding="utf-8")
    assert gate.on_roster("bob")


SPENDER = """
import sys
from basehalf_core.teaching import budget
b = budget.Budget(sys.argv[1], 30)
refused = 0
for _ in range(20):
    try:
        b.spend("alice")
    except budget.BudgetExceeded:
        refused += 1
print(refused)
"""


def test_two_server_processes_share_one_budget_exactly(tmp_path):
    # Several `basehalf serve` processes on one course count into the same .bh/budget.json:
    # two processes spending 20 calls each against a budget of 30 get exactly 30 and exactly
    # 10 refusals between them, with no error and nothing counted twice or lost.
    from basehalf_core.teaching import budget

    root = make_class(tmp_path, "alice")
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", SPENDER, str(root)], stdout=subprocess.PIPE, text=True, env=env
        )
        for _ in range(2)
    ]
    refused = []
    for p in procs:
        out, _ = p.communicate(timeout=120)
        assert p.returncode == 0
        refused.append(int(out))
    assert sum(refused) == 10
    assert budget.Budget(root, 30).used("alice") == 30


def test_the_notebook_is_parsed_once_and_an_edit_is_seen_on_the_next_page(monkeypatch, tmp_path):
    # marimo parses the notebook for every page and every session; the server keeps the parse
    # of the exact text, so identical text is parsed once and an edited notebook afresh.
    from marimo._ast import parse
    from marimo._session.notebook.file_manager import AppFileManager
    from marimo._session.notebook.serializer import PythonNotebookSerializer

    monkeypatch.setattr(
        PythonNotebookSerializer, "deserialize", PythonNotebookSerializer.deserialize
    )
    parses = []
    real = parse.parse_notebook
    monkeypatch.setattr(parse, "parse_notebook", lambda *a, **k: parses.append(1) or real(*a, **k))
    marimo_tuning.cache_notebook_parse()
    marimo_tuning.cache_notebook_parse()  # twice is once
    notebook = tmp_path / "notebook.py"
    notebook.write_text((ROOT / "workbench.py").read_text(encoding="utf-8"), encoding="utf-8")

    def cells(path):
        return [c.name for c in AppFileManager(str(path)).app.cell_manager.cell_data()]

    first = cells(notebook)
    assert "canvas_pane" in first and cells(notebook) == first and cells(notebook) == first
    assert len(parses) == 1
    edited = notebook.read_text(encoding="utf-8").replace("def canvas_pane(", "def canvas_box(")
    notebook.write_text(edited, encoding="utf-8")
    assert "canvas_box" in cells(notebook) and "canvas_pane" not in cells(notebook)
    assert len(parses) == 2
