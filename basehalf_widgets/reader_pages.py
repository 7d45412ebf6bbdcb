"""The reader's rendered pages: a bounded cache of page images, and the thread that fills it."""

from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from typing import TYPE_CHECKING

from basehalf_core.documents.document import Document, DocumentError

if TYPE_CHECKING:
    from basehalf_widgets.reader import Reader

IMAGE = "jpeg"


class PageCache:
    """A bounded LRU of rendered page images, keyed by (document, page, zoom); thread-safe.

    The document is part of the key so that a page the background thread was rendering when
    the reader opened another document never stands for a page of the new one.
    """

    def __init__(self, size: int):
        self.size = size
        self._items: OrderedDict[tuple[Document, int, float], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def has(self, doc: Document, i: int, zoom: float) -> bool:
        with self._lock:
            return (doc, i, zoom) in self._items

    def get(self, doc: Document, i: int, zoom: float) -> bytes:
        key = (doc, i, zoom)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit
        data = doc.render(i, zoom, image=IMAGE).data
        with self._lock:
            self._items[key] = data
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return data


class Warmer:
    """Renders the neighbours of the page on screen (image and words), then reads the text of
    every page (the search filter and the selection vocabulary), off the request path.

    One daemon thread per reader, started once the first page is on screen (:meth:`want`).
    PyMuPDF holds the GIL while it renders or reads a page, so while this thread works every
    other thread of the process waits (the kernel, marimo's server sending pages and loading
    widget code): it works only when the reader is idle. A request holds it (:meth:`held`);
    it waits :data:`IDLE` seconds of quiet before each neighbour and :data:`SCAN_IDLE` before
    scanning, and scans a page at a time, stopping as soon as a request comes.
    """

    IDLE = 0.05
    SCAN_IDLE = 0.3

    def __init__(self, reader: Reader):
        self._reader = reader
        self._wake = threading.Condition()
        self._todo: list[int] = []
        self._generation = 0
        self._busy = 0
        self._scanned: Document | None = None  # the document whose text is all read
        self._thread: threading.Thread | None = None
        self._stopped = False

    def want(self, page: int) -> None:
        """Render the neighbours of ``page`` (then scan) once the reader is quiet."""
        with self._wake:
            self._generation += 1
            self._todo = [p for p in (page + 1, page - 1) if p >= 0]
            if self._thread is None and not self._stopped:
                self._thread = threading.Thread(target=self._run, name="reader-warmer", daemon=True)
                self._thread.start()
            self._wake.notify()

    def reset(self) -> None:
        """Another document: forget the last one's pages to render (it is scanned when idle)."""
        with self._wake:
            self._generation += 1
            self._todo = []

    @contextlib.contextmanager
    def held(self):
        """No background work while the block runs (a request being answered); nestable."""
        with self._wake:
            self._busy += 1
            self._generation += 1
        try:
            yield
        finally:
            with self._wake:
                self._busy -= 1
                self._generation += 1
                self._wake.notify()

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._todo = []
            self._wake.notify()

    def _quiet(self) -> bool:
        return not self._busy and not self._stopped

    def _next(self) -> int | None:
        """The next page to render, -1 to scan, None once stopped."""
        with self._wake:
            while not self._stopped:
                if self._busy or (not self._todo and self._scanned is self._reader.doc):
                    self._wake.wait()
                    continue
                seen = self._generation
                # Quiet for a moment (nothing asked for meanwhile) before working.
                self._wake.wait(self.IDLE if self._todo else self.SCAN_IDLE)
                if seen != self._generation or not self._quiet():
                    continue
                return self._todo.pop(0) if self._todo else -1
            return None

    def _run(self) -> None:
        while (i := self._next()) is not None:
            reader = self._reader
            doc = reader.doc
            if doc is None:  # nothing to read until a document opens: wait, do not poll
                with self._wake:
                    self._scanned = None
                continue
            try:
                if i < 0:
                    self._scan(doc)
                elif i < doc.page_count:
                    reader._pages.get(doc, i, reader.zoom)
                    doc.words(i)
            except DocumentError:
                continue  # the page says what is wrong when it is shown

    def _scan(self, doc: Document) -> None:
        """Read pages' text one at a time until done or a request comes."""
        seen = self._generation
        while seen == self._generation and self._quiet():
            if doc.scan(pages=1):
                self._scanned = doc
                return
