"""A marimo server process that runs many kernels, tuned: compiles serialised, lookups cached."""

from __future__ import annotations

import builtins
import functools
import threading

_COMPILE_LOCK = threading.RLock()


def serialise_compile() -> None:
    """Let one thread at a time turn source into an AST or an AST into code, in this process.

    CPython 3.11 keeps the AST constructor's recursion depth in per-interpreter state, so two
    threads building ASTs at once (marimo parses the notebook for every new session and
    compiles every cell in each kernel thread) can fail with ``SystemError: AST constructor
    recursion depth mismatch`` — a learner signing in at the same moment as another then got
    no kernel. ``compile`` holds the GIL while it works, so the lock costs no parallelism.
    Re-entrant: a finaliser run by the garbage collector inside ``compile`` may compile too.
    """
    if getattr(builtins.compile, "_basehalf_serialised", False):
        return
    original = builtins.compile

    @functools.wraps(original)
    def compile(*args, **kwargs):
        with _COMPILE_LOCK:
            return original(*args, **kwargs)

    compile._basehalf_serialised = True  # type: ignore[attr-defined]
    builtins.compile = compile


def cache_marimo_plugins() -> None:
    """Look marimo's plugin entry points up once per server process, not on every cell run.

    marimo 0.25 asks ``importlib.metadata.entry_points()`` for cell-executor plugins each
    time it runs cells (``Runner.__init__`` → ``resolve_executor``): that reads the metadata
    of every installed distribution from disk, ~16 ms with the ~120 packages here. In a
    served class every Watch-folder tick (each learner, every 2 s) and every click runs cells,
    so with 30 learners this lookup was about half of the server's CPU (py-spy, see the
    class note). The installed packages do not change under a running server (a new plugin
    needs a restart anyway), so the answer is kept per group. Skipped quietly if a later
    marimo moves the function.
    """
    try:
        from marimo._entrypoints import registry
    except ImportError:
        return
    lookup = getattr(registry, "get_entry_points", None)
    if lookup is None or hasattr(lookup, "cache_info"):
        return
    registry.get_entry_points = functools.lru_cache(maxsize=None)(lookup)


def cache_notebook_parse(size: int = 8) -> None:
    """Parse a notebook's text once per server process, not on every page and every session.

    marimo 0.25 reads and parses the notebook (``PythonNotebookSerializer.deserialize``: the
    Python AST, then each cell compiled to check it) for every page request and again for
    every new session, ~30–60 ms each for the workbench on this machine (bench/startup.py
    prints the parse cost), all of it on the server's event loop. The parse is kept per exact
    text (and path), so an edited notebook is parsed afresh on its next page: the file is still
    read every time, only identical text is not parsed twice. marimo only reads the result
    (``NotebookSerializationV1`` is frozen). Skipped quietly if a later marimo moves it.
    """
    try:
        from marimo._session.notebook.serializer import PythonNotebookSerializer
    except ImportError:
        return
    original = PythonNotebookSerializer.deserialize
    if getattr(original, "_basehalf_cached", False):
        return
    kept: dict[tuple[str, str | None], object] = {}
    lock = threading.Lock()

    @functools.wraps(original)
    def deserialize(self, content: str, filepath: str | None = None):
        key = (content, filepath)
        with lock:
            notebook = kept.get(key)
        if notebook is None:
            notebook = original(self, content, filepath)
            with lock:
                while len(kept) >= size:  # the oldest text goes first
                    kept.pop(next(iter(kept)))
                kept[key] = notebook
        return notebook

    deserialize._basehalf_cached = True  # type: ignore[attr-defined]
    PythonNotebookSerializer.deserialize = deserialize
