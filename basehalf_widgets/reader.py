"""The reader: one PDF/EPUB page as an image with an exact text layer, highlights and search.

The widget does four jobs only: its traits, page delivery, the password prompt and the
learner's selection. The document work is the core's: rendering and words in reading order
(:mod:`basehalf_core.documents.document`), search (:func:`page_search.search_pages`) and
highlights (:func:`basehalf_core.documents.anchors.highlights` re-anchors the notes the
app passes in; the widget never reads the folder).

Traits (all synced):

- ``page``: the page on screen, **0-based** (the label shows ``page + 1``).
- ``page_count``, ``page_size`` ([width, height] of the displayed page, points).
- ``image``: the page on screen as JPEG (``image_type``), rendered lazily. ``image_page`` says
  which page ``image`` is, ``image_key`` which page at which zoom.
- ``words``: ``[x0, y0, x1, y1, text, glue]`` per selection unit of page ``words_page``, in the
  core's reading order; the box is in fractions of the displayed page; ``glue`` is 1 when no
  space separates the unit from the previous one (Chinese characters). A page asked for by
  the browser is sent in two messages, the image first and its words right after, so the
  page is painted before its words are laid out.
- ``ahead``: set by the browser, once it has shown a page for a moment, to the page it expects
  next; Python answers with ``ahead_page``/``ahead_key``/``ahead_image``/``ahead_words``/
  ``ahead_size``, so the next page turn paints at once, without a round trip to Python.
  A background thread renders the neighbours of the page on screen into a small cache
  meanwhile, so that answer (and a turn back) costs no render.
- ``painted``: set by the browser to the key of a quick image (``…~low``) it has just painted
  while no sharper one had come; Python answers with the sharp image when that quick image is
  still its last word. Every page not rendered yet goes out quick, and its sharp image is
  rendered only then (see :meth:`Reader._deliver`); Python clears ``painted`` with each quick
  image, so a page shown quick a second time is reported again.
- ``zoom``: render scale (pixels per point). ``fit``: fit the page to the widget's width. The
  browser shows the page at ``zoom / devicePixelRatio`` CSS pixels per point.
- ``selection``: set by the browser on a drag: ``{page, start, end, covered, text}`` (word
  indices of the first and last word touched, the covered set in DOM order, the raw DOM text).
  Python turns it into a core Passage (:meth:`Reader.passage`) and shows its lines in
  ``marked``. ``{}`` means nothing is selected.
- ``highlights``: ``[{id, page (0-based), boxes (fractions), label, status}]``; set them with
  :meth:`Reader.set_highlights` from notes' ``grown_from`` anchors.
- ``clicked``: ``{id, page, n}`` — the highlight the learner clicked (``n`` counts clicks, so a
  second click on the same note is a change too).
- ``query`` / ``hits`` / ``search``: the search text, ``[{page, boxes, count}]`` of the pages
  that hold it (sorted by page, growing while the search runs: the first page found is sent
  and shown at once, the others as they come), and ``{query, done}`` so the browser says
  "searching…" until the search is over.
- ``message``: what the learner should know (scan without text layer, broken file, wrong
  password, no search hit). A notice about an action (no match, a selection that could not
  be read) is cleared by the learner's next action. ``needs_password`` / ``password``: the
  password flow.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

import anywidget
import traitlets

from basehalf_core.documents import anchors, page_search, search_helper
from basehalf_core.documents import document as documents
from basehalf_core.documents.document import (
    Document,
    DocumentError,
    NeedsPassword,
    Passage,
    WrongPassword,
)
from basehalf_core.documents.pages import line_rects
from basehalf_core.documents.raster import warm_renderer
from basehalf_core.errors import BasehalfError
from basehalf_widgets.esm import CachedScript
from basehalf_widgets.reader_pages import IMAGE, PageCache, Warmer

# The rasteriser and JPEG encoder are set up with this module, not on the first page a
# learner opens.
warm_renderer()

_STATIC = Path(__file__).parent / "static"
MIN_ZOOM, MAX_ZOOM = 0.25, 6.0
# Rendered pages kept per reader (on screen, sent ahead, the neighbours rendered in the
# background, the page before): a few JPEGs, so memory stays flat however many pages the
# learner visits.
PAGE_CACHE = 6
# A page asked for from the browser and not rendered yet is first sent at this fraction of
# its scale (a quarter of the pixels: quick to render, send and decode), then sharp.
PREVIEW_SCALE = 0.5
LOW = "~low"  # image_key suffix of that first, low-resolution image
# After a page image is handed to marimo, the kernel thread sleeps this long before rendering
# or reading words again: marimo's server threads (which send the message) need the GIL, and
# PyMuPDF keeps it for a whole render, so without a pause a quick image would leave after the
# sharp render (9-16 ms later, median, measured with a queue and a second thread; 0.1 ms
# with the pause).
HANDOFF = 0.003
STREAM_EVERY = 0.1  # seconds between two updates of the hits while a search runs
_IMAGE_KEYS = ("image", "image_type", "image_page", "image_key", "page_size", "page")
# What belongs to one document, reset when the reader opens another (Reader.open_document).
_DOCUMENT_TRAITS = (
    "page_count", "words", "words_page", "selection", "marked", "highlights", "clicked",
    "query", "hits", "search", "message", "ahead", "ahead_page", "ahead_key", "ahead_image",
    "ahead_words", "ahead_size", "painted",
)  # fmt: skip


class ReaderError(BasehalfError):
    """A call on the reader that cannot be honoured; the message names the bad value."""


def line_boxes(words: list[documents.Word], indices: Iterable[int]) -> list[list[float]]:
    """One displayed-space box (fractions of the page) per line of these words, rounded."""
    return _rounded(line_rects([words[k] for k in indices], space="box"))


def _rounded(boxes) -> list[list[float]]:
    return [[round(v, 5) for v in b] for b in boxes]


class Reader(CachedScript, anywidget.AnyWidget):
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
    image_type = traitlets.Unicode("image/jpeg").tag(sync=True)
    image_page = traitlets.Int(-1).tag(sync=True)
    image_key = traitlets.Unicode("").tag(sync=True)
    words = traitlets.List([]).tag(sync=True)
    words_page = traitlets.Int(-1).tag(sync=True)
    zoom = traitlets.Float(1.5).tag(sync=True)
    fit = traitlets.Bool(True).tag(sync=True)
    selection = traitlets.Dict({}).tag(sync=True)
    marked = traitlets.List([]).tag(sync=True)
    highlights = traitlets.List([]).tag(sync=True)
    clicked = traitlets.Dict({}).tag(sync=True)
    query = traitlets.Unicode("").tag(sync=True)
    hits = traitlets.List([]).tag(sync=True)
    search = traitlets.Dict({}).tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    needs_password = traitlets.Bool(False).tag(sync=True)
    password = traitlets.Unicode("").tag(sync=True)
    ahead = traitlets.Int(-1).tag(sync=True)
    ahead_page = traitlets.Int(-1).tag(sync=True)
    ahead_key = traitlets.Unicode("").tag(sync=True)
    ahead_image = traitlets.Bytes(b"").tag(sync=True)
    ahead_words = traitlets.List([]).tag(sync=True)
    ahead_size = traitlets.List([0.0, 0.0]).tag(sync=True)
    painted = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        path: str | os.PathLike | None = None,
        *,
        file: str | None = None,
        page: int = 0,
        zoom: float = 1.5,
        password: str | None = None,
        highlights: Iterable[Mapping] | None = None,
        **kwargs,
    ):
        name = file or (Path(path).name if path is not None else "")
        super().__init__(file=name, zoom=_clamp_zoom(zoom), **kwargs)
        self.path = Path(path) if path is not None else None
        self.doc: Document | None = None
        self._opened = 0  # documents opened so far: part of every image key (see _key)
        self.error: DocumentError | None = None
        self._passage: Passage | None = None
        self._notice = ""  # a message about the learner's last action, cleared by the next
        self._stored_highlights: list[Mapping] = list(highlights or [])
        self._pages = PageCache(PAGE_CACHE)
        self._warmer = Warmer(self)
        # Registered first, so the passage is ready when the app's own observers run.
        self.observe(self._on_selection, names=["selection"])
        self.observe(self._on_page, names=["page"])
        self.observe(self._on_zoom, names=["zoom"])
        self.observe(self._on_query, names=["query"])
        self.observe(self._on_password, names=["password"])
        self.observe(self._on_ahead, names=["ahead"])
        self.observe(self._on_painted, names=["painted"])
        # The view is being made: nothing to let marimo send yet (see _set_image).
        self._shown = False
        self._searching = False  # a search runs: a page it turns to goes out quick (_search)
        if path is not None:
            self._open(password, first_page=page)
        self._shown = True

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

    def open_document(
        self,
        path: str | os.PathLike,
        *,
        file: str | None = None,
        page: int = 0,
        password: str | None = None,
        highlights: Iterable[Mapping] | None = None,
        zoom: float | None = None,
    ) -> None:
        """Show another document in this widget.

        A view already on screen gets it as trait messages: no cell re-runs and no widget is
        mounted, so an app that keeps one reader on screen opens a document for the price of
        a quick render and a paint. As when the widget is made, the first page goes quick and
        the sharp one follows once the browser has painted it (``painted``).

        Everything about the last document (its page sent ahead, selection, search,
        highlights) is dropped first, and every image key names the document it belongs to
        (:meth:`_key`), so a late reply about the last document changes nothing.

        Args: as for the class (``file`` defaults to the file name); ``zoom`` None keeps the
            reader's (an app that knows the width the page will be fitted to passes it, so
            the browser need not ask for the page again at another scale).
        """
        self._warmer.reset()
        if self.doc is not None:
            search_helper.detach(self.doc)  # one helper per document shown, not per one seen
        self._opened += 1
        self.path = Path(path)
        self.doc, self.error = None, None
        self._pages.clear()
        self._passage, self._notice = None, ""
        self._stored_highlights = list(highlights or [])
        with self.hold_sync():
            self.file = file or self.path.name
            self.needs_password = False
            for name in (*_DOCUMENT_TRAITS, *_IMAGE_KEYS):
                self.set_trait(name, self.trait_defaults(name))
            if zoom is not None:
                self.zoom = _clamp_zoom(zoom)  # no document open: nothing is rendered
            self._flush()  # the view drops the last document before the first image comes
        self._open(password, first_page=page)

    def _open(self, password: str | None, first_page: int = 0) -> None:
        try:
            doc = documents.open_document(self.path, password=password)
        except NeedsPassword as exc:
            self._refuse(exc, f"{self.file} is encrypted: enter its password to read it.")
            return
        except WrongPassword as exc:
            self._refuse(exc, f"Wrong password for {self.file}: try again.")
            return
        except DocumentError as exc:
            self.error = exc
            self.message = f"{self.file} cannot be shown: {exc.reason}."
            return
        self.doc, self.error = doc, None
        # Started before the first page is rendered: its start (~200 ms of a process of its
        # own, on the other core) is then over before a learner's first search; started after
        # the first image, a search typed as soon as the page showed began without it (cold
        # search over 336 vs 278 ms median in an A/B; the first page row moved within noise).
        search_helper.attach(doc)
        with self.hold_sync():
            self.needs_password = False
            self.page_count = doc.page_count
            self.message = ""
            self._flush(["needs_password", "page_count", "message"])  # before the first image
            first = min(max(int(first_page), 0), doc.page_count - 1)
            if first == self.page:
                self._deliver()
            else:
                self.page = first  # the observer delivers
            self.set_highlights(self._stored_highlights)

    def _refuse(self, exc: DocumentError, message: str) -> None:
        self.error = exc
        self.needs_password = True
        self.message = message

    def _on_password(self, change) -> None:
        secret = change["new"]
        if not secret:
            return
        # The password is not kept in a trait: clear it before trying it.
        self.password = ""
        self._open(secret, first_page=self.page)

    # -- messages ----------------------------------------------------------------------------

    def _say(self, notice: str = "") -> None:
        """Show ``notice`` (or clear the last one) beside what the page itself needs said."""
        self._notice = notice
        note = None
        if self.doc is not None and 0 <= self.image_page < self.page_count:
            # A page whose text cannot be read has its own notice (see _send_words).
            with contextlib.suppress(DocumentError):
                note = self.doc.no_text_reason(self.image_page)
        parts = [f"{note[0].upper()}{note[1:]}. Selection needs a text layer." if note else ""]
        self.message = " ".join(p for p in [*parts, notice] if p)

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

    def page_image(self, i: int, zoom: float | None = None) -> bytes:
        """The JPEG of page ``i`` at ``zoom`` (default: the reader's), from a bounded cache."""
        if self.doc is None:
            raise ReaderError(f"{self.file}: not open ({self.message})")
        zoom = self.zoom if zoom is None else zoom
        return self._pages.get(self.doc, i, zoom)

    def page_words(self, i: int) -> list:
        """The ``words`` trait value of page ``i`` (the core keeps the page's words)."""
        if self.doc is None:
            raise ReaderError(f"{self.file}: not open ({self.message})")
        return [
            [*(round(v, 5) for v in w.box), w.text, 1 if w.glue else 0] for w in self.doc.words(i)
        ]

    def page_payload(self, i: int, zoom: float | None = None) -> tuple[bytes, list]:
        """The image and the ``words`` trait value of page ``i``."""
        return self.page_image(i, zoom), self.page_words(i)

    def _key(self, i: int, zoom: float | None = None) -> str:
        """Page ``i`` at ``zoom`` of the document open now: ``page@zoom#document``."""
        return f"{i}@{self.zoom if zoom is None else zoom}#{self._opened}"

    def cached(self, i: int, zoom: float | None = None) -> bool:
        """Whether page ``i`` of the open document is rendered at ``zoom`` already."""
        return self.doc is not None and self._pages.has(
            self.doc, i, self.zoom if zoom is None else zoom
        )

    def _flush(self, keys: Iterable[str] | None = None) -> None:
        """Send these traits now, even inside a held sync.

        A page is delivered inside ``hold_sync`` (one message for its words and the rest);
        its image goes out first, on its own, so the page is painted while its words are
        still being extracted and laid out.
        """
        if not self._holding_sync or self.comm is None:
            return
        pending = self._states_to_send
        keys = [k for k in (pending if keys is None else keys) if k in pending]
        if keys:
            self.send_state(keys)
            self._states_to_send.difference_update(keys)

    def _deliver(self) -> None:
        """Send the page on screen: its image first (on its own message), then its words.

        A page not rendered at this zoom yet goes out as a quick low-resolution image, alone;
        its sharp image and its words follow once the browser says it has painted the quick
        one (``painted``, :meth:`_on_painted`). Rendering the sharp image at once took a core
        (and, in PyMuPDF, the GIL) while the browser decoded and painted the quick image, on a
        machine where the browser, marimo's server and the kernel share the cores; and the
        background renderer starts only after the sharp image, so no other page is rendered
        before the learner sees this one. The words (tens of milliseconds on a long book's
        page) are read now but sent with the sharp image: read later, they held up the
        learner's next request; sent now, their message reached the browser while it decoded
        (both measured slower, see the session notes). A page already rendered (sent ahead,
        rendered in the background, seen before) goes out sharp at once, with its words.
        """
        assert self.doc is not None
        i = self.page
        with self._warmer.held():
            try:
                size = self.doc.page_size(i)
                sharp = self.cached(i)
                image = self.page_image(i) if sharp else self._quick(i)
            except DocumentError as exc:
                self.message = f"page {i + 1} of {self.file} cannot be shown: {exc.reason}."
                return
            with self.hold_sync():
                self._set_image(i, size, image, self._key(i) + ("" if sharp else LOW))
                if self.selection.get("page") not in (None, i):
                    self.selection = {}
                if sharp:
                    self._send_words(i)
                else:
                    # Not while the widget is made: its cell's output (and so the view that
                    # paints the image) waits for the constructor. A search's page is read once
                    # the search is over (_search).
                    if self._shown and not self._searching:
                        with contextlib.suppress(DocumentError):  # said when the words are sent
                            self.page_words(i)
                    self._say()  # turning the page clears the notice about the last action
                self._flush()  # a search goes on after turning to its first hit: send the words
        if sharp:
            self._warmer.want(i)

    def _send_words(self, i: int) -> None:
        """Set the ``words`` of page ``i`` (sent with the caller's held sync)."""
        notice = ""  # turning the page clears the notice about the last action
        try:
            self.words = self.page_words(i)
        except DocumentError as exc:
            self.words = []
            notice = f"The text of page {i + 1} cannot be read: {exc.reason}."
        self.words_page = i
        self._say(notice)

    def _set_image(self, i: int, size, image: bytes, key: str) -> None:
        self.page_size = [round(size[0], 2), round(size[1], 2)]
        self.image = image
        self.image_type = f"image/{IMAGE}"
        self.image_page = i
        self.image_key = key
        if key.endswith(LOW):
            # A page shown quick again (after the cache dropped it) is reported again.
            self.painted = ""
        self._flush([*_IMAGE_KEYS, "painted"])
        if self._shown and self.comm is not None:
            time.sleep(HANDOFF)  # let marimo send it before the next render or word extraction

    def _quick(self, i: int) -> bytes:
        """Page ``i`` at :data:`PREVIEW_SCALE` of the reader's zoom (not cached)."""
        assert self.doc is not None
        return self.doc.render(i, self.zoom * PREVIEW_SCALE, image=IMAGE).data

    def _on_painted(self, change) -> None:
        """The browser has painted a quick image: send the sharp one and the words if due."""
        i = self.page
        key = self._key(i)
        if self.doc is None or change["new"] != key + LOW or self.image_key != key + LOW:
            return  # another page or zoom since, or the sharp image is already sent
        if self._searching:
            return  # the search sends the sharp page and its words once it is over (_search)
        with self._warmer.held():
            try:
                image = self.page_image(i)
                size = self.doc.page_size(i)
            except DocumentError:
                image = None  # the page says what is wrong when it is shown again
            with self.hold_sync():
                if image is not None:
                    self._set_image(i, size, image, key)  # sent first, on its own
                if self.words_page != i:  # a new zoom keeps the page's words
                    self._send_words(i)
        if image is not None:
            self._warmer.want(i)

    def _on_ahead(self, change) -> None:
        """The browser asks for the page it expects next; send it so a turn needs no trip."""
        self._send_ahead(change["new"])

    def _send_ahead(self, i: int) -> None:
        if self.doc is None or not 0 <= i < self.page_count or i == self.page:
            return
        key = self._key(i)
        if self.ahead_key == key:
            return
        try:
            with self._warmer.held():
                image, words = self.page_payload(i)
                size = self.doc.page_size(i)
        except DocumentError:
            return  # the page says what is wrong when it is shown
        with self.hold_sync():
            self.ahead_size = [round(size[0], 2), round(size[1], 2)]
            self.ahead_words = words
            self.ahead_image = image
            self.ahead_page = i
            self.ahead_key = key

    def close(self) -> None:
        """Stop the background renderer and close the widget."""
        self._warmer.stop()
        if self.doc is not None:
            search_helper.detach(self.doc)
        super().close()

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
            self._say(f"That selection could not be read: {exc}")
            return
        passage.file = self.file
        self._passage = passage
        self.marked = line_boxes(self.doc.words(page), passage.word_indices)
        if self._notice:
            self._say()

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
                ``prefix``, ``suffix``, ``rects``). The core re-anchors each in the document
                as it is now (:func:`anchors.highlights`); an orphan is not drawn but
                counted in ``message``.
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
                    "boxes": _rounded(h.boxes),
                    "label": h.label,
                    "status": h.status,
                }
            )
        self.highlights = shown
        if orphans:
            self._say(
                f"{len(orphans)} note(s) no longer match {self.file}: " + ", ".join(orphans[:3])
            )

    # -- search ------------------------------------------------------------------------------

    def _on_query(self, change) -> None:
        text = change["new"].strip()
        if self.doc is None:
            return
        self.hits = []
        self._say()
        if not text:
            self.search = {}
            return
        self.search = {"query": change["new"], "done": False}
        self._flush(["hits", "search", "message"])
        # Pages are searched from the one on screen: the first hit is the one to show, at once;
        # the others are sent as they come, at most every STREAM_EVERY seconds.
        with self._warmer.held():
            self._search(text, change["new"])

    def _search(self, text: str, query: str) -> None:
        """Search every page from the one on screen, streaming the hits.

        The first hit's page is turned to at once, but only its quick low-resolution image
        goes out while the search runs (with the hits marked on it): its sharp image and its
        words (the page's layout, the costliest part of a page) are made once the last page
        is searched, so they neither delay the other hits nor compete with the search for
        the two cores a learner's laptop may have.
        """
        assert self.doc is not None
        found: list[dict] = []
        sent = 0.0
        turned = False
        self._searching = True
        try:
            for hit in page_search.search_pages(self.doc, text, start=self.page):
                found.append({"page": hit.page, "boxes": _rounded(hit.boxes), "count": hit.count})
                if len(found) == 1:
                    self.hits = list(found)
                    if hit.page != self.page:
                        turned = True
                        self.page = hit.page  # its quick image, at once (see _deliver)
                    sent = time.monotonic()
                elif time.monotonic() - sent >= STREAM_EVERY:
                    self.hits = sorted(found, key=lambda h: h["page"])
                    sent = time.monotonic()
        finally:
            self._searching = False
            with self.hold_sync():
                self.hits = sorted(found, key=lambda h: h["page"])
                self.search = {"query": query, "done": True}
                if not found:
                    self._say(f"No match for “{text}” in {self.file}.")
        if turned and self.image_key == self._key(self.page) + LOW:
            # Only a page still shown quick: one that was cached went out sharp, with its words.
            # PyMuPDF holds the GIL while it renders: let marimo send "done" first, or the
            # learner sees the search running until the sharp page and its words are made.
            if self.comm is not None:
                time.sleep(HANDOFF)
            # Rendered first, so the page goes out sharp, not quick again; a page that cannot
            # be rendered says so when it is delivered.
            with contextlib.suppress(DocumentError):
                self.page_image(self.page)
            self._deliver()


def _clamp_zoom(z: float) -> float:
    try:
        z = float(z)
    except (TypeError, ValueError):
        raise ReaderError(f"zoom must be a number, got {z!r}") from None
    if z != z:  # NaN
        return 1.5
    return round(min(max(z, MIN_ZOOM), MAX_ZOOM), 3)
