"""The reader: one PDF/EPUB page as an image with an exact text layer, highlights and search.

Python does the document work through :mod:`basehalf_core.documents.document` (render,
words in reading order, passages) and :mod:`basehalf_core.documents.anchors` (highlights,
search); the browser shows the page and reports what the learner did (page turns, a drag
selection, a click on a highlight).

Traits (all synced):

- ``page``: the page on screen, **0-based** (the label shows ``page + 1``).
- ``page_count``, ``page_size`` ([width, height] of the displayed page, points).
- ``image``: PNG bytes of the page on screen only (rendered lazily). ``image_page`` says
  which page ``image`` and ``words`` are, ``image_key`` which page at which zoom.
- ``ahead``: set by the browser after painting a page to the page it expects next; Python
  answers with ``ahead_page``/``ahead_key``/``ahead_image``/``ahead_words``/``ahead_size``, so
  the next page turn paints at once, without a round trip to Python.
- ``words``: ``[x0, y0, x1, y1, text, glue]`` per selection unit, in the core's reading order;
  the box is in fractions of the displayed page; ``glue`` is 1 when no space separates the unit
  from the previous one (Chinese characters).
- ``zoom``: render scale (pixels per point); with ``fit`` off it is also the display scale.
  ``fit``: fit the page to the widget's width.
- ``selection``: set by the browser on a drag: ``{page, start, end, covered, text}`` (word
  indices of the first and last word touched, the covered set in DOM order, the raw DOM text).
  Python turns it into a core Passage (:meth:`Reader.passage`) and shows its lines in
  ``marked``. ``{}`` means nothing is selected.
- ``highlights``: ``[{id, page (0-based), boxes (fractions), label, status}]``; set them with
  :meth:`Reader.set_highlights` from notes' ``grown_from`` anchors.
- ``clicked``: ``{id, page, n}`` — the highlight the learner clicked (``n`` counts clicks, so a
  second click on the same note is a change too).
- ``query`` / ``hits``: the search text and ``[{page, boxes}]`` of the pages that hold it.
- ``message``: what the learner should know (scan without text layer, broken file, wrong
  password, no search hit). ``needs_password`` / ``password``: the password flow.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from pathlib import Path

import anywidget
import traitlets

from basehalf_core.documents import anchors
from basehalf_core.documents import document as documents
from basehalf_core.documents.document import (
    Document,
    DocumentError,
    NeedsPassword,
    Passage,
    WrongPassword,
)
from basehalf_core.documents.pages import line_rects
from basehalf_core.errors import BasehalfError
from basehalf_core.study.branch import highlight_items

_STATIC = Path(__file__).parent / "static"
MIN_ZOOM, MAX_ZOOM = 0.25, 6.0
# Rendered pages kept per reader (current, previous, prefetched next): a few PNGs, so memory
# stays flat however many pages the learner visits.
_PAGE_CACHE = 4


class ReaderError(BasehalfError):
    """A call on the reader that cannot be honoured; the message names the bad value."""


def line_boxes(words: list[documents.Word], indices: Iterable[int]) -> list[list[float]]:
    """One displayed-space box (fractions of the page) per line of these words."""
    return line_rects([words[k] for k in indices], space="box")


class Reader(anywidget.AnyWidget):
    """A page-at-a-time PDF/EPUB reader with an exact text layer (see the module docstring).

    Args:
        path: the document on disk.
        file: its folder-relative name, written into passages (defaults to the file name).
        page: the page to show first, 0-based.
        zoom: render scale in pixels per point.
        password: for an encrypted PDF (else the widget asks for one).
        highlights: as for :meth:`set_highlights`.
    """

    _esm = _STATIC / "reader.js"
    _css = _STATIC / "reader.css"

    file = traitlets.Unicode("").tag(sync=True)
    page = traitlets.Int(0).tag(sync=True)
    page_count = traitlets.Int(0).tag(sync=True)
    page_size = traitlets.List([0.0, 0.0]).tag(sync=True)
    image = traitlets.Bytes(b"").tag(sync=True)
    image_page = traitlets.Int(-1).tag(sync=True)
    image_key = traitlets.Unicode("").tag(sync=True)
    words = traitlets.List([]).tag(sync=True)
    zoom = traitlets.Float(1.5).tag(sync=True)
    fit = traitlets.Bool(True).tag(sync=True)
    selection = traitlets.Dict({}).tag(sync=True)
    marked = traitlets.List([]).tag(sync=True)
    highlights = traitlets.List([]).tag(sync=True)
    clicked = traitlets.Dict({}).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    hits = traitlets.List([]).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    needs_password = traitlets.Bool(False).tag(sync=True)
    password = traitlets.Unicode("").tag(sync=True)
    ahead = traitlets.Int(-1).tag(sync=True)
    ahead_page = traitlets.Int(-1).tag(sync=True)
    ahead_key = traitlets.Unicode("").tag(sync=True)
    ahead_image = traitlets.Bytes(b"").tag(sync=True)
    ahead_words = traitlets.List([]).tag(sync=True)
    ahead_size = traitlets.List([0.0, 0.0]).tag(sync=True)

    def __init__(
        self,
        path: str | os.PathLike,
        *,
        file: str | None = None,
        page: int = 0,
        zoom: float = 1.5,
        password: str | None = None,
        highlights: Iterable[Mapping] | None = None,
        **kwargs,
    ):
        super().__init__(file=file or Path(path).name, zoom=_clamp_zoom(zoom), **kwargs)
        self.path = Path(path)
        self.doc: Document | None = None
        self.error: DocumentError | None = None
        self._passage: Passage | None = None
        self._stored_highlights: list[Mapping] = list(highlights or [])
        self._cache: OrderedDict[tuple[int, float], tuple[bytes, list]] = OrderedDict()
        self._cache_lock = threading.Lock()
        # Registered first, so the passage is ready when the app's own observers run.
        self.observe(self._on_selection, names=["selection"])
        self.observe(self._on_page, names=["page"])
        self.observe(self._on_zoom, names=["zoom"])
        self.observe(self._on_query, names=["query"])
        self.observe(self._on_password, names=["password"])
        self.observe(self._on_ahead, names=["ahead"])
        self._open(password, first_page=page)

    @classmethod
    def for_document(
        cls,
        doc_or_path: Document | str | os.PathLike,
        *,
        highlights: Iterable[Mapping] | None = None,
        **kwargs,
    ) -> Reader:
        """A reader for an open core Document or a path (see the class arguments)."""
        path = doc_or_path.path if isinstance(doc_or_path, Document) else doc_or_path
        return cls(path, highlights=highlights, **kwargs)

    # -- opening -----------------------------------------------------------------------------

    def _open(self, password: str | None, first_page: int = 0) -> None:
        try:
            doc = documents.open_document(self.path, password=password)
        except NeedsPassword as exc:
            self.error = exc
            self.needs_password = True
            self.message = f"{self.file} is encrypted: enter its password to read it."
            return
        except WrongPassword as exc:
            self.error = exc
            self.needs_password = True
            self.message = f"Wrong password for {self.file}: try again."
            return
        except DocumentError as exc:
            self.error = exc
            self.message = f"{self.file} cannot be shown: {exc.reason}."
            return
        self.doc, self.error = doc, None
        with self.hold_sync():
            self.needs_password = False
            self.page_count = doc.page_count
            self.message = ""
            first = min(max(int(first_page), 0), doc.page_count - 1)
            if first == self.page:
                self._deliver()
            else:
                self.page = first  # the observer delivers
            self.set_highlights(self._stored_highlights)

    def _on_password(self, change) -> None:
        secret = change["new"]
        if not secret:
            return
        # The password is not kept in a trait: clear it before trying it.
        self.password = ""
        self._open(secret, first_page=self.page)

    # -- pages -------------------------------------------------------------------------------

    def show(self, page: int) -> None:
        """Turn to ``page`` (0-based).

        Raises:
            ReaderError: the page is not in the document.
        """
        if self.doc is None:
            raise ReaderError(f"{self.file}: no page to show ({self.message or 'not open'})")
        if not isinstance(page, int) or not 0 <= page < self.page_count:
            raise ReaderError(f"{self.file}: page {page!r} is outside 0..{self.page_count - 1}")
        self.page = page

    def _on_page(self, change) -> None:
        if self.doc is None:
            return
        if not 0 <= change["new"] < self.page_count:
            # A bad page from the browser is put back, not rendered.
            self.page = min(max(change["new"], 0), self.page_count - 1)
            return
        self._deliver()

    def _on_zoom(self, change) -> None:
        clamped = _clamp_zoom(change["new"])
        if clamped != change["new"]:
            self.zoom = clamped
            return
        if self.doc is not None:
            self._deliver()
            self._send_ahead(self.ahead)  # the page sent ahead is redone at the new zoom

    def page_payload(self, i: int, zoom: float | None = None) -> tuple[bytes, list]:
        """PNG bytes and the ``words`` trait value of page ``i`` (cached per reader)."""
        if self.doc is None:
            raise ReaderError(f"{self.file}: not open ({self.message})")
        zoom = self.zoom if zoom is None else zoom
        key = (i, zoom)
        with self._cache_lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                return hit
        png = self.doc.render_png(i, zoom)
        words = [
            [*(round(v, 5) for v in w.box), w.text, 1 if w.glue else 0] for w in self.doc.words(i)
        ]
        with self._cache_lock:
            self._cache[key] = (png, words)
            while len(self._cache) > _PAGE_CACHE:
                self._cache.popitem(last=False)
        return png, words

    def _deliver(self) -> None:
        assert self.doc is not None
        i = self.page
        try:
            png, words = self.page_payload(i)
            size = self.doc.page_size(i)
            note = self.doc.no_text_reason(i)
        except DocumentError as exc:
            self.message = f"page {i + 1} of {self.file} cannot be shown: {exc.reason}."
            return
        with self.hold_sync():
            self.page_size = [round(size[0], 2), round(size[1], 2)]
            self.words = words
            self.image = png
            self.image_page = i
            self.image_key = _key(i, self.zoom)
            if self.selection.get("page") not in (None, i):
                self.selection = {}
            self.message = (
                f"{note[0].upper()}{note[1:]}. Selection needs a text layer." if note else ""
            )

    def _on_ahead(self, change) -> None:
        """The browser asks for the page it expects next; send it so a turn needs no trip."""
        self._send_ahead(change["new"])

    def _send_ahead(self, i: int) -> None:
        if self.doc is None or not 0 <= i < self.page_count or i == self.page:
            return
        key = _key(i, self.zoom)
        if self.ahead_key == key:
            return
        try:
            png, words = self.page_payload(i)
            size = self.doc.page_size(i)
        except DocumentError:
            return  # the page says what is wrong when it is shown
        with self.hold_sync():
            self.ahead_size = [round(size[0], 2), round(size[1], 2)]
            self.ahead_words = words
            self.ahead_image = png
            self.ahead_page = i
            self.ahead_key = key

    # -- selection ---------------------------------------------------------------------------

    def _on_selection(self, change) -> None:
        self._passage = None
        sel = change["new"] or {}
        if self.doc is None or not sel:
            self.marked = []
            return
        try:
            page = int(sel["page"])
            start, end = int(sel["start"]), int(sel["end"])
            indices = self.doc.select_between(page, start, end)
            passage = self.doc.passage(page, indices)
        except (KeyError, TypeError, ValueError, DocumentError) as exc:
            self.marked = []
            self.message = f"That selection could not be read: {exc}"
            return
        passage.file = self.file
        self._passage = passage
        self.marked = line_boxes(self.doc.words(page), passage.word_indices)

    def passage(self) -> Passage | None:
        """The core Passage for the learner's current selection, or None."""
        return self._passage

    def select(self, page: int, start: int, end: int) -> Passage | None:
        """Select from word ``start`` to word ``end`` of ``page`` as a drag would."""
        self.show(page)
        self.selection = {"page": page, "start": start, "end": end, "covered": [], "text": ""}
        return self._passage

    def clear_selection(self) -> None:
        """Forget the selection (after a grow, say)."""
        self.selection = {}

    # -- highlights --------------------------------------------------------------------------

    def set_highlights(self, items: Iterable[Mapping]) -> None:
        """Draw stored passages on their pages.

        Args:
            items: mappings with ``id`` (e.g. the note's path), ``label`` and an anchor as a
                note stores it in ``grown_from`` (``quote``, ``page`` 1-based, optional
                ``prefix``, ``suffix``, ``rects``). Each is re-anchored in the document as it
                is now; an orphan is not drawn but counted in ``message``.
        """
        self._stored_highlights = list(items)
        if self.doc is None:
            return
        shown, orphans = [], []
        for h in anchors.highlights(self.doc, self._stored_highlights):
            if not h.boxes:
                orphans.append(h.note)
                continue
            shown.append(
                {
                    "id": h.note,
                    "page": h.page - 1,
                    "boxes": h.boxes,
                    "label": h.label,
                    "status": h.status,
                }
            )
        self.highlights = shown
        if orphans:
            self.message = f"{len(orphans)} note(s) no longer match {self.file}: " + ", ".join(
                orphans[:3]
            )

    # -- search ------------------------------------------------------------------------------

    def _on_query(self, change) -> None:
        text = change["new"].strip()
        if self.doc is None:
            return
        if not text:
            self.hits = []
            return
        found = []
        for i, groups in anchors.find_all(self.doc, text):
            words = self.doc.words(i)
            boxes = [b for g in groups for b in line_boxes(words, g)]
            found.append({"page": i, "boxes": boxes, "count": len(groups)})
        with self.hold_sync():
            self.hits = found
            if not found:
                self.message = f"No match for “{text}” in {self.file}."
                return
            self.message = ""
            later = [h["page"] for h in found if h["page"] >= self.page]
            self.page = later[0] if later else found[0]["page"]


# Kept under its old name for the app: the items come from the study floor, not the widget.
highlights_for = highlight_items


def _key(page: int, zoom: float) -> str:
    return f"{page}@{zoom}"


def _clamp_zoom(z: float) -> float:
    try:
        z = float(z)
    except (TypeError, ValueError):
        raise ReaderError(f"zoom must be a number, got {z!r}") from None
    if z != z:  # NaN
        return 1.5
    return round(min(max(z, MIN_ZOOM), MAX_ZOOM), 3)
