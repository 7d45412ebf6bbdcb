"""The workbench's one document reader pane: a :class:`Reader` and its Grow form for every
PDF/EPUB card of the folder, kept on screen, put up or covered by the :class:`Stage`.

Built from the pane helpers of :mod:`basehalf_widgets.panes` and wired in ``workbench.py``
through :func:`basehalf_widgets.cells.document_reader`.
"""

from __future__ import annotations

from collections.abc import Callable

import marimo as mo

from basehalf_core.documents import document as documents
from basehalf_core.documents.document import DocumentError
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import branch
from basehalf_widgets import grow_form
from basehalf_widgets.panes import DOCUMENT_KINDS, READER_HEIGHT, Wiring, keep, pane
from basehalf_widgets.reader import Reader
from basehalf_widgets.stage import DETAIL, READER, Stage, fit_zoom


class DocumentPane:
    """One reader (with its Grow form) for every document of the folder, on screen for good.

    Opening a PDF/EPUB card opens the document in this reader
    (:meth:`Reader.open_document`): trait messages to a view already mounted, so no cell runs
    and nothing is mounted. The reader's view lives in a cell that never re-runs; the
    :class:`Stage` says whether it or Card Detail is up (see
    :data:`~basehalf_widgets.panes.STAGE_CSS`).

    Per document, for as long as the folder is open: the last page shown (back to a document,
    the learner finds the page they left) and a password that opened it (kept in memory only,
    as an open document kept it before; never written).

    Args:
        wiring: the app's callbacks; a grow and a highlight click open the note in Card Detail.
        highlights_for: ``(ws, file) -> items`` of the notes grown from ``file``.
    """

    def __init__(self, wiring: Wiring, highlights_for: Callable = branch.highlight_items):
        self.wiring, self.highlights_for = wiring, highlights_for
        self.reader, self.form, self.stage = Reader(), grow_form.GrowForm(), Stage()
        self.ws: Workspace | None = None
        self.path: str | None = None  # the document in the reader (folder-relative)
        self.pages: dict[str, int] = {}  # last page (0-based) per document
        self._passwords: dict[str, str] = {}
        grow_form.attach(self.form, self.reader, branch.default_title, self._grow)
        self.reader.observe(self._clicked, names=["clicked"])
        self.reader.observe(self._turned, names=["page"])
        self.reader.observe(self._unlocked, names=["password"])
        self.reader.observe(self._opened, names=["page_count"])
        self.stage.observe(self._reopen, names=["reopen"])
        self._raise = False  # put the reader up as soon as the document being opened is open

    def use(self, ws: Workspace | None) -> None:
        """Read documents from ``ws`` (another folder forgets every page and password)."""
        if ws is not self.ws:
            self.ws, self.path = ws, None
            self.pages.clear()
            self._passwords.clear()
            self.stage.folder = str(ws.root) if ws is not None else ""

    def document(self, wanted: str | None) -> str | None:
        """The folder-relative path of ``wanted`` when it is a PDF/EPUB card, else None."""
        path = self.ws.resolve(wanted or "") if self.ws is not None else None
        return path if path is not None and self.ws.nodes[path].kind in DOCUMENT_KINDS else None

    def follow(self, wanted: str | None) -> str | None:
        """Show the card ``wanted``: a document is opened in the reader (unless it is the one
        there already) at the page last left, and the reader is put up; any other card puts
        Card Detail up. Returns the document's path, or None."""
        path = self.document(wanted)
        if path is not None and path != self.path:
            # Up as soon as the new document is open (_opened): its first page is then on its
            # way, and the view has dropped the last document's page, so none shows.
            self._raise = self.stage.shown != READER
            try:
                self._open(path, self.pages.get(path, 0))
            finally:
                self._raise = False
        self.stage.shown = READER if path is not None else DETAIL  # a broken file says why
        return path

    def open_at(self, wanted: str, page: int) -> None:
        """Open document ``wanted`` at ``page`` (0-based), e.g. from a note's Source link."""
        path = self.document(wanted)
        if path is None:
            return
        if path == self.path and self.reader.doc is not None:
            self.reader.show(min(max(page, 0), self.reader.page_count - 1))
        else:
            self._open(path, page)

    def refresh(self) -> None:
        """Redraw the highlights of the document shown (a note was grown, renamed, edited)."""
        if self.path is not None and self.ws is not None and self.path in self.ws.nodes:
            self.reader.set_highlights(self.highlights_for(self.ws, self.path))

    def _open(self, path: str, page: int) -> None:
        self.path = path
        password = self._passwords.get(path)
        self.reader.open_document(
            self.ws.root / path,
            file=path,
            page=page,
            password=password,
            highlights=self.highlights_for(self.ws, path),
            zoom=self._fit(path, page, password),
        )

    def _fit(self, path: str, page: int, password: str | None) -> float | None:
        """The scale "fit width" will pick for ``page`` in the reader's pane (None: the
        reader's own, e.g. the learner zoomed, the pane not measured yet, or a document that
        does not open: the reader then says why)."""
        if not self.reader.fit or self.stage.width <= 0:
            return None
        try:
            # Opened once: the reader gets the same open copy (documents keeps it).
            doc = documents.open_document(self.ws.root / path, password=password)
            width = doc.page_size(min(max(page, 0), doc.page_count - 1))[0]
        except DocumentError:
            return None
        return fit_zoom(self.stage.width, self.stage.ratio, width)

    def _opened(self, change) -> None:
        if self._raise and change["new"] > 0:
            self._raise = False
            self.stage.shown = READER

    def _turned(self, change) -> None:
        if self.path is not None and self.reader.doc is not None:
            self.pages[self.path] = change["new"]

    def _unlocked(self, change) -> None:
        # The reader has tried the password (and cleared the trait) before this observer runs.
        if change["new"] and self.path is not None and self.reader.doc is not None:
            self._passwords[self.path] = change["new"]

    def _reopen(self, change) -> None:
        # A note with unsaved words kept by this tab through a reload: open it again.
        path = (change["new"] or {}).get("path", "")
        if self.ws is not None and path in self.ws.nodes:
            self.wiring.open_card(path)

    def _clicked(self, change) -> None:
        note = (change["new"] or {}).get("id")
        if note:
            self.wiring.open_card(note)

    def _grow(self, passage, title: str) -> str:
        path = branch.grow_from_passage(self.ws, passage, title)
        self.wiring.undo.made(self.ws, path, back=passage.file)  # before the report re-runs
        self.wiring.set_report(f"Grown: {path}")
        self.wiring.open_card(path)
        self.wiring.bump()
        return path

    def view(self) -> mo.Html:
        """The reader pane (the reader, its Grow form kept in sight below it) and the Stage."""
        reader, form, stage = (mo.ui.anywidget(w) for w in (self.reader, self.form, self.stage))
        sticky = mo.Html(
            '<div style="position:sticky;bottom:0;z-index:2;background:var(--background,#fff)">'
            f"{form.text}</div>"
        )
        body = keep(mo.vstack([reader, sticky, stage]), reader, form, stage)
        return pane("reader-pane", body, height=READER_HEIGHT)
