"""A second process that searches a long PDF from its last page while the kernel searches
from the first (:func:`page_search.search_pages`): the two meet in the middle.

PyMuPDF holds the GIL while it builds a page's text, so a second thread cannot search beside
the kernel; a second process can, on a second core. It is started when a reader opens a
document (:func:`attach`), so its interpreter, PyMuPDF and the file are loaded before the
learner's first search, not on its path.

The kernel never waits for it. A search sends the helper the pages to search (the kernel's
order, the pages already ruled out dropped); the helper walks them from the back and reports
each page as it is done. The kernel searches from the front and reads the reports between
its own pages, without blocking; it stops when its next page is one the helper has done.
A page is taken from the helper only when the kernel has not searched it itself, so every
hit comes once. A helper that is still starting, slow, crashed or killed reports nothing
(or reaches end of file): the kernel then searches every page itself, as without a helper.

What it may open: only the file the reader opened, named by the kernel, and only if its
bytes still have the fingerprint of the document open in the kernel (checked in the helper;
otherwise it exits). A password-protected PDF gets no helper (a password never leaves the
kernel), nor a document too short for a second process to pay off, nor a kernel of a class
server (``basehalf serve``: one process per learner's document would multiply memory by the
class). ``BASEHALF_SEARCH_HELPER=0`` turns it off.

No orphans: the helper exits when its stdin reaches end of file (the kernel closed it, exited
or was killed) or its parent changes; :meth:`SearchHelper.close` (document closed, reader
switched to another document, garbage collection, interpreter exit) kills and reaps it.

Protocol (one JSON object per line): kernel → helper on stdin ``{"id", "needle", "pages"}``
to search, ``{"id", "stop": true}`` to stop; helper → kernel on a pipe of its own (stdout is
left to MuPDF's messages) ``{"ready": true}`` once, then ``{"id", "pos", "rects", "count"}``
per page done, ``pos`` being the page's index in the list sent.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import weakref
from pathlib import Path

ENV = "BASEHALF_SEARCH_HELPER"  # "0" turns the helper off
SERVED_ENV = "BASEHALF_SERVE_COURSE"  # set in a class server's kernels (basehalf_cli.served)
# Fewer pages than this and the kernel searches alone: a second process costs 30-40 MB and
# ~250 ms of a core to start, for a search of a few milliseconds per page.
MIN_PAGES = 60
# A search with fewer candidate pages (the rest ruled out by the text scan) is not shared.
MIN_SEARCH_PAGES = 40

_LIVE: weakref.WeakSet[SearchHelper] = weakref.WeakSet()


def enabled() -> bool:
    """False when switched off (``BASEHALF_SEARCH_HELPER=0``) or in a class server's kernel."""
    if os.environ.get(ENV, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return not os.environ.get(SERVED_ENV)


def wanted(doc, min_pages: int = MIN_PAGES) -> bool:
    """Whether ``doc`` (a core Document) should get a helper (see the module docstring)."""
    return (
        enabled()
        and doc.kind == "pdf"
        and not getattr(doc, "encrypted", True)
        and doc.page_count >= min_pages
        and not doc._closed
    )


def attach(doc, min_pages: int = MIN_PAGES) -> SearchHelper | None:
    """Start a helper for ``doc`` unless it has one or should not (:func:`wanted`).

    Returns the document's helper (also kept as ``doc.helper``), or None.
    """
    helper = getattr(doc, "helper", None)
    if helper is not None and helper.alive():
        return helper
    doc.helper = None
    if not wanted(doc, min_pages):
        return None
    try:
        doc.helper = SearchHelper(doc.path, doc.fingerprint)
    except OSError:  # no process can be started: the kernel searches alone
        return None
    return doc.helper


def detach(doc) -> None:
    """Stop ``doc``'s helper, if any (the reader shows another document, or closed)."""
    helper = getattr(doc, "helper", None)
    doc.helper = None
    if helper is not None:
        helper.close()


class SearchHelper:
    """The helper process of one document; used by one search at a time (:meth:`begin`)."""

    def __init__(self, path: Path, fingerprint: str):
        self.path = Path(path).resolve()
        rfd, wfd = os.pipe()
        root = str(Path(__file__).resolve().parents[2])  # the folder holding basehalf_core
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        try:
            self._proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    __name__,
                    str(self.path),
                    fingerprint,
                    str(wfd),
                ],
                stdin=subprocess.PIPE,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                pass_fds=(wfd,),
                env=env,
                close_fds=True,
            )
        finally:
            os.close(wfd)
        os.set_blocking(rfd, False)
        self._rfd = rfd
        self._buf = b""
        self._dead = False
        self.ready = False
        self._next_id = 0
        self._busy = threading.Lock()
        self._finalizer = weakref.finalize(self, _reap, self._proc, rfd)
        _LIVE.add(self)

    @property
    def pid(self) -> int:
        return self._proc.pid

    def alive(self) -> bool:
        return not self._dead and self._proc.poll() is None

    def close(self) -> None:
        """Kill the process and reap it (idempotent)."""
        self._dead = True
        self._finalizer()

    def _send(self, msg: dict) -> bool:
        try:
            self._proc.stdin.write((json.dumps(msg) + "\n").encode())
            self._proc.stdin.flush()
            return True
        except (OSError, ValueError):  # a dead helper: broken pipe, or closed
            self._dead = True
            return False

    def _lines(self) -> list[dict]:
        """Every complete message waiting on the pipe, without blocking."""
        if self._dead:
            return []
        try:
            while True:
                chunk = os.read(self._rfd, 1 << 16)
                if not chunk:  # end of file: the helper exited or was killed
                    self._dead = True
                    break
                self._buf += chunk
        except BlockingIOError:
            pass
        except OSError:
            self._dead = True
        *lines, self._buf = self._buf.split(b"\n")
        out = []
        for line in lines:
            with contextlib.suppress(ValueError):
                msg = json.loads(line)
                if msg.get("ready"):
                    self.ready = True
                else:
                    out.append(msg)
        return out

    def begin(self, needle: str, pages: list[int]) -> _Search | None:
        """Ask for ``pages`` (searched from the last) to be searched for ``needle``.

        Returns None when the helper is dead or another search is using it.
        """
        if not self.alive() or not self._busy.acquire(blocking=False):
            return None
        self._lines()  # a stopped search's last reports: dropped
        self._next_id += 1
        if not self._send({"id": self._next_id, "needle": needle, "pages": pages}):
            self._busy.release()
            return None
        return _Search(self, self._next_id)


class _Search:
    """One search shared with the helper: its reports, read without waiting."""

    def __init__(self, helper: SearchHelper, sid: int):
        self._helper = helper
        self.id = sid
        self._done = False

    def reports(self) -> list[tuple[int, list, int, str | None]]:
        """(position in the pages sent, rects, count, squashed text or None) of each page done
        since the last call; the text comes with a page without hits until the helper finds
        one (a search that finds nothing rules pages out with it, see search_pages)."""
        return [
            (m["pos"], m["rects"], m["count"], m.get("text"))
            for m in self._helper._lines()
            if m.get("id") == self.id and "pos" in m
        ]

    def end(self) -> None:
        """Tell the helper to stop (it may be mid-page) and free it for the next search."""
        if self._done:
            return
        self._done = True
        self._helper._send({"id": self.id, "stop": True})
        self._helper._busy.release()


def _reap(proc: subprocess.Popen, rfd: int) -> None:
    with contextlib.suppress(OSError):
        proc.stdin.close()
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired, OSError):
        proc.wait(timeout=2)
    with contextlib.suppress(OSError):
        os.close(rfd)


@atexit.register
def _close_all() -> None:
    for helper in list(_LIVE):
        helper.close()


# -- the helper process ------------------------------------------------------------------------


def _serve(path: str, fingerprint: str, out_fd: int) -> None:  # pragma: no cover (a subprocess)
    import pymupdf

    # The kernel's own search (Document.find_text), so the helper finds the same rects.
    from basehalf_core.documents.document import SEARCH_FLAGS, fingerprint_of, search_textpage

    parent = os.getppid()
    data = Path(path).read_bytes()
    if fingerprint_of(data) != fingerprint:
        return  # not the file the kernel opened (changed since): search nothing
    doc = pymupdf.open(stream=data, filetype="pdf")
    if doc.needs_pass:
        return
    out = os.fdopen(out_fd, "wb", buffering=0)
    out.write(b'{"ready": true}\n')
    stdin = sys.stdin.fileno()
    buf = b""
    current: dict | None = None

    def take(block: bool) -> bool:
        """Read what the kernel sent; False on end of file (the kernel is gone)."""
        nonlocal buf, current
        timeout = 1.0 if block else 0
        while True:
            ready, _, _ = select.select([stdin], [], [], timeout)
            if not ready:
                return os.getppid() == parent
            chunk = os.read(stdin, 1 << 16)
            if not chunk:
                return False
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                msg = json.loads(line)
                if msg.get("stop"):
                    if current is not None and current["id"] == msg["id"]:
                        current = None
                else:
                    current = msg
                    current["pos"] = len(msg["pages"]) - 1
            timeout = 0

    while True:
        if current is None:
            if not take(block=True):
                return
            continue
        if not take(block=False):
            return
        if current is None or current["pos"] < 0:
            current = None
            continue
        pos = current["pos"]
        current["pos"] -= 1
        i = current["pages"][pos]
        tp = doc[i].get_textpage(flags=SEARCH_FLAGS)
        rects, count, text = search_textpage(tp, current["needle"], not current.get("hit"))
        if rects:
            current["hit"] = True
        msg = {"id": current["id"], "pos": pos, "rects": [tuple(r) for r in rects], "count": count}
        if text is not None:
            msg["text"] = text
        out.write((json.dumps(msg) + "\n").encode())


if __name__ == "__main__":  # pragma: no cover (run as the helper process)
    with contextlib.suppress(BrokenPipeError, KeyboardInterrupt):
        _serve(sys.argv[1], sys.argv[2], int(sys.argv[3]))
