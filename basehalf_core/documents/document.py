"""PDF and EPUB documents through PyMuPDF: open, render one page, words in reading order, passages.

PyMuPDF is not thread-safe and ``marimo run`` serves each browser session as a thread of one
process, so every PyMuPDF call here runs under :data:`PYMUPDF_LOCK`.

Coordinates: ``Word.rect`` and ``Passage.rects`` are PDF points in the page's *unrotated*
space (what PyMuPDF's text extraction returns and what DESIGN §3 stores); ``Word.box`` is the
same word in *displayed* space as fractions 0..1 of the displayed page, which is what a widget
lays over the rendered (rotated) image.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from rapidfuzz import fuzz

from basehalf_core.documents import errors
from basehalf_core.documents.errors import (
    BadSelection,
    BrokenDocument,
    DocumentClosed,
    DocumentError,
    EmptyFile,
    NeedsPassword,
    NoPages,
    NotADocument,
    PageOutOfRange,
    WrongPassword,
)
from basehalf_core.documents.pages import PageText, Word, line_rects
from basehalf_core.documents.raster import (
    JPEG_QUALITY,
    MAX_RENDER_PIXELS,
    Rendered,
    capped_zoom,
    jpeg,
)
from basehalf_core.documents.raw_text import PYMUPDF_LOCK, TEXT_FLAGS
from basehalf_core.documents.running_heads import edge_lines_of
from basehalf_core.documents.runs import make_runs
from basehalf_core.documents.selection import (
    contiguous,
    drop_inner_marginalia,
    floats_between,
    keep_running_text,
    note_at_end,
)
from basehalf_core.documents.text import (
    HYPHENS,
    LIGATURES,
    Run,
    fold,
    hyphen_joins,
    is_cjk,
    join_words,
    line_vocabulary,
    normalise,
    present,
    squash,
    squash_lines,
    tokens,
    trim_left,
    trim_right,
)

# What can be wrong with a document is said here too: callers catch DocumentError from here.
__all__ = [
    *errors.__all__,
    "HYPHENS",
    "JPEG_QUALITY",
    "LIGATURES",
    "MAX_RENDER_PIXELS",
    "PYMUPDF_LOCK",
    "SEARCH_FLAGS",
    "TEXT_FLAGS",
    "Document",
    "Passage",
    "Rendered",
    "Run",
    "Word",
    "fold",
    "hyphen_joins",
    "is_cjk",
    "join_words",
    "line_rects",
    "normalise",
    "open_document",
    "squash",
]


# MuPDF's own search (Document.find_text): the same text page, line-end hyphens joined.
SEARCH_FLAGS = TEXT_FLAGS | pymupdf.TEXT_DEHYPHENATE
OPEN_CACHE_SIZE = 8
PAGE_CACHE_SIZE = 48


@dataclass
class Passage:
    """A selected passage, ready to be stored as a note's ``grown_from`` (DESIGN §3).

    Attributes:
        file: folder-relative path of the document (the caller fills it in).
        page: 1-based page number.
        quote: the passage normalised for reading.
        prefix / suffix: up to ~32 characters of normalised text around it.
        rects: one per line, unrotated PDF points, rounded to 0.1.
        fingerprint: ``sha256:<hex>`` of the file's bytes.
        chapter: the table-of-contents entry (EPUB, outlined PDFs) or None.
        word_indices: the words it is made of, in reading order.
    """

    file: str
    page: int
    quote: str
    prefix: str
    suffix: str
    rects: list[list[float]]
    fingerprint: str
    chapter: str | None = None
    word_indices: list[int] = field(default_factory=list)


def fingerprint_of(data: bytes) -> str:
    """``sha256:<hex>`` of a file's bytes: which bytes a document (or an anchor) was read from."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def search_textpage(tp, needle: str, keep_text: bool) -> tuple[list, int, str | None]:
    """MuPDF's search of one text page (the kernel's and the search helper's alike).

    Returns:
        the hits' rects, the number of occurrences (at least 1 when there is a hit), and, only
        for a page without a hit and ``keep_text``, its squashed text with its line ends
        (:func:`squash_lines`), for a search that finds nothing to rule pages out with.
    """
    rects = tp.search(needle, quads=False)
    if not rects:
        return [], 0, squash_lines(tp.extractText()) if keep_text else None
    return rects, max(squash(tp.extractText()).count(squash(needle)), 1), None


def _kind_of(path: Path, head: bytes) -> str:
    suffix = path.suffix.lower()
    if suffix == ".epub":
        if not head.startswith(b"PK"):
            raise NotADocument(path, "not an EPUB (no zip signature at the start of the file)")
        return "epub"
    if suffix == ".pdf" or head.lstrip()[:5] == b"%PDF-":
        if b"%PDF-" not in head[:1024]:
            raise NotADocument(path, "not a PDF (no %PDF- header in its first 1024 bytes)")
        return "pdf"
    if head.startswith(b"PK"):
        return "epub"
    raise NotADocument(path, f"not a PDF or EPUB (file type {suffix or 'unknown'})")


class Document:
    """An open PDF or EPUB. Use :func:`open_document` (cached) rather than the constructor."""

    def __init__(self, path: str | os.PathLike, password: str | None = None):
        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise DocumentError(self.path, "file not found") from None
        except IsADirectoryError:
            raise NotADocument(self.path, "is a folder, not a document") from None
        except OSError as exc:
            raise DocumentError(self.path, f"cannot be read: {exc.strerror or exc}") from None
        if not data:
            raise EmptyFile(self.path, "the file is empty (0 bytes)")
        self.kind = _kind_of(self.path, data[:1024])
        self.fingerprint = fingerprint_of(data)
        with PYMUPDF_LOCK:
            try:
                doc = _LazyOutline(stream=data, filetype=self.kind)
            except Exception as exc:  # FileDataError, RuntimeError code=7, zip errors...
                what = "PDF" if self.kind == "pdf" else "EPUB"
                raise BrokenDocument(
                    self.path, f"is damaged or truncated; it cannot be opened as {what} ({exc})"
                ) from None
            self.encrypted = bool(doc.needs_pass)  # never searched by a helper process
            if doc.needs_pass:
                if password is None:
                    doc.close()
                    raise NeedsPassword(self.path, "is encrypted; a password is needed to open it")
                if not doc.authenticate(password):
                    doc.close()
                    raise WrongPassword(self.path, "the password given does not open it")
            try:
                count = doc.page_count
            except Exception as exc:
                doc.close()
                raise BrokenDocument(self.path, f"its pages cannot be read: {exc}") from None
            if count == 0:
                doc.close()
                raise NoPages(self.path, "opens but has no pages (damaged or truncated file)")
            self.repaired = bool(getattr(doc, "is_repaired", False))
        self._doc = doc
        self._data = data
        self.page_count = count
        self._pages: OrderedDict[int, PageText] = OrderedDict()
        self._edges: dict[int, list] = {}  # page -> edge_lines, for running heads
        self._toc: list[tuple[int, str, int]] | None = None
        self._vocab: set[str] | None = None
        self._squashed: list[str] = []
        self._scan_vocab: set[str] = set()
        self._scan_lock = threading.Lock()
        self._closed = False
        self.helper = None  # a search_helper.SearchHelper while a reader shows it

    @contextlib.contextmanager
    def _locked(self):
        # Checked under the lock: another session may have closed the document meanwhile.
        with PYMUPDF_LOCK:
            if self._closed:
                raise DocumentClosed(self.path, "the document was closed")
            yield

    def __repr__(self) -> str:
        return f"Document({str(self.path)!r}, kind={self.kind!r}, pages={self.page_count})"

    # -- pages -------------------------------------------------------------------------------

    def _check(self, i: int) -> None:
        if self._closed:
            raise DocumentClosed(self.path, "the document was closed")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < self.page_count:
            raise PageOutOfRange(self.path, f"page index {i!r} is outside 0..{self.page_count - 1}")

    def page_size(self, i: int) -> tuple[float, float]:
        """Displayed (rotated) page size in points."""
        self._check(i)
        with self._locked():
            r = self._doc[i].rect
            return (r.width, r.height)

    def render(self, i: int, zoom: float = 1.5, image: str = "png") -> Rendered:
        """Render one page (rotated as displayed) to PNG, or to JPEG with ``image="jpeg"``.

        The zoom is lowered so the image has at most :data:`MAX_RENDER_PIXELS` pixels; the
        returned ``zoom`` is the one used. JPEG (quality :data:`JPEG_QUALITY`) is encoded
        outside the PyMuPDF lock: other sessions' pages render meanwhile.
        """
        self._check(i)
        if not (isinstance(zoom, int | float) and math.isfinite(zoom) and zoom > 0):
            raise ValueError(f"zoom must be a positive number, got {zoom!r}")
        if image not in ("png", "jpeg"):
            raise ValueError(f"image must be 'png' or 'jpeg', got {image!r}")
        width, height, used, data = self._raster(i, zoom, png=image == "png")
        if image == "png":
            return Rendered(data, used, width, height)
        return Rendered(jpeg(data, width, height), used, width, height, "image/jpeg")

    def _raster(self, i: int, zoom: float, png: bool) -> tuple[int, int, float, bytes]:
        """(width, height, zoom used, PNG bytes or raw RGB samples) of page ``i``."""
        with self._locked():
            page = self._doc[i]
            used = capped_zoom(page.rect.width, page.rect.height, float(zoom))
            try:
                pix = page.get_pixmap(matrix=pymupdf.Matrix(used, used), alpha=False)
                if not png and pix.n != 3:  # grey or CMYK pages: the JPEG encoder takes RGB
                    pix = pymupdf.Pixmap(pymupdf.csRGB, pix)
                out = (pix.width, pix.height, used, pix.tobytes("png") if png else pix.samples)
            except Exception as exc:  # a damaged page: say which, keep the others usable
                raise BrokenDocument(self.path, f"page {i + 1} cannot be rendered: {exc}") from None
            del pix  # dropped under the lock: MuPDF's allocator is not thread-safe
            return out

    def render_png(self, i: int, zoom: float = 1.5) -> bytes:
        """PNG bytes of one page; see :meth:`render` for the pixel cap."""
        return self.render(i, zoom).png

    def page_payload(self, i: int, zoom: float = 1.5) -> dict:
        """Everything a reader widget shows for one page, JSON-ready except ``png`` (bytes).

        Keys: ``page`` (1-based), ``png``, ``zoom`` (as used), ``width``/``height`` (pixels),
        ``words`` (:meth:`Word.as_dict` in reading order; span them in this order so a DOM
        range follows the reading order), ``has_text`` and ``note`` (why nothing can be
        selected, or None).
        """
        rendered = self.render(i, zoom)
        words = self.words(i)
        return {
            "page": i + 1,
            "png": rendered.png,
            "zoom": rendered.zoom,
            "width": rendered.width,
            "height": rendered.height,
            "words": [w.as_dict() for w in words],
            "has_text": bool(words),
            "note": self.no_text_reason(i),
        }

    def to_boxes(self, i: int, rects) -> list[tuple[float, float, float, float]]:
        """Unrotated PDF-point rects (a passage's, an anchor's) as displayed 0..1 boxes."""
        self._check(i)
        with self._locked():
            page = self._doc[i]
            rot, disp = page.rotation_matrix, page.rect
        out = []
        for rect in rects:
            r = pymupdf.Rect(*[float(v) for v in rect]) * rot
            r.normalize()
            out.append(
                (r.x0 / disp.width, r.y0 / disp.height, r.x1 / disp.width, r.y1 / disp.height)
            )
        return out

    def find_text(
        self, i: int, needle: str, texts: dict[int, str] | None = None
    ) -> tuple[list[tuple[float, float, float, float]], int]:
        """MuPDF's own search of page ``i``: displayed 0..1 boxes (one per line piece) and the
        number of occurrences.

        ``texts``, if given, gets the page's squashed text with its line ends
        (:func:`squash_lines`) when the page has no hit: read from the text page already
        built, it spares a search that finds nothing a second read of every page (its second
        pass rules pages out with it, a word broken in two only at a line end).

        One text page with :data:`SEARCH_FLAGS` (ligatures expanded, line-end hyphens joined,
        case ignored, line breaks read as spaces); nothing is kept, so a whole-book search
        costs what PyMuPDF's ``search_for`` costs. Unlike :func:`anchors.find_in_page` it does
        not follow the reading order: a phrase broken by a footnote between two columns is
        not found here.
        """
        self._check(i)
        with self._locked():
            page = self._doc[i]
            tp = page.get_textpage(flags=SEARCH_FLAGS)
            rects, count, text = search_textpage(tp, needle, texts is not None)
        if text is not None:
            texts[i] = text
        return (self.to_boxes(i, rects), count) if rects else ([], 0)

    def _page(self, i: int) -> PageText:
        self._check(i)
        with self._locked():
            cached = self._pages.get(i)
            if cached is not None:
                self._pages.move_to_end(i)
                return cached
            try:
                page, running = self._doc[i], self._running_near(i)
            except Exception as exc:
                raise BrokenDocument(self.path, f"page {i + 1} cannot be read: {exc}") from None
        # Built without holding the lock: PageText takes it only around PyMuPDF's own calls,
        # so the layout in Python (most of a page's cost) never holds up a render elsewhere.
        # Two threads may build the same page at once; both get the same words.
        try:
            pt = PageText.build(page, running)
        except Exception as exc:
            if self._closed:  # closed by another session meanwhile: the page is orphaned
                raise DocumentClosed(self.path, "the document was closed") from None
            raise BrokenDocument(self.path, f"page {i + 1} text cannot be read: {exc}") from None
        finally:
            with PYMUPDF_LOCK:
                del page  # dropping the page is a MuPDF call too
        with self._locked():
            self._pages[i] = pt
            while len(self._pages) > PAGE_CACHE_SIZE:
                self._pages.popitem(last=False)
            return pt

    def _running_near(self, i: int) -> list | None:
        """The edge lines of the two pages either side (running heads alternate left and
        right), each extracted once; None for an EPUB or a one-page document.

        Two pages are enough: an extended abstract or two pages cut out of a paper repeat
        their running head at the same height on both (on the left of one, the right of the
        other) and the head is matched by its text and height, not its side.
        """
        if self.kind != "pdf" or self.page_count < 2:
            return None
        out: list = []
        for j in (i - 2, i - 1, i + 1, i + 2):
            if 0 <= j < self.page_count:
                lines = self._edges.get(j)
                if lines is None:
                    lines = self._edges[j] = edge_lines_of(self._doc[j])
                out.extend(lines)
        return out

    def words(self, i: int) -> list[Word]:
        """The page's selection units in reading order (see :class:`Word`)."""
        return self._page(i).words

    def has_text(self, i: int) -> bool:
        """False for a page without a text layer (a scan): it renders but cannot be selected."""
        return bool(self._page(i).words)

    def no_text_reason(self, i: int) -> str | None:
        """A sentence for the learner when the page has no selectable text, else None."""
        if self.has_text(i):
            return None
        return (
            f"page {i + 1} of {self.path.name} has no text layer (a scanned image?): "
            "it can be read but not selected"
        )

    def runs(self, i: int) -> list[Run]:
        """The page's normalised text: the body as one run, the marginalia as another."""
        pt = self._page(i)
        if pt.runs is None:
            pt.runs = make_runs(pt.words, self.vocabulary)
        return pt.runs

    # -- selection ---------------------------------------------------------------------------

    def select_between(self, i: int, start: int, end: int) -> list[int]:
        """Word indices from ``start`` to ``end`` (either order) as read, without marginalia.

        A footnote, running footer or margin stamp swept up with running text is left out,
        and so is text set in another size or family than the drag's two ends (a caption,
        table, permission block between them); a selection made wholly inside a footnote
        keeps it. A figure's or table's contents, its caption and a boxed sidebar are left out
        when both ends are running text, kept when the drag starts or ends in them; a drag
        from running text into a caption keeps the caption, not the figure's labels between
        (:func:`~.selection.floats_between`).
        """
        words = self.words(i)
        for k in (start, end):
            if not isinstance(k, int) or not 0 <= k < len(words):
                raise BadSelection(self.path, f"page {i + 1} has no word {k!r}")
        lo, hi = sorted((start, end))
        note = note_at_end(words, start, end)
        if note is not None:
            # From a note into the text: the text and that note, nothing set beside them.
            return [
                k for k in range(lo, hi + 1) if words[k].role == "body" or words[k].block == note
            ]
        chosen = drop_inner_marginalia(words, list(range(lo, hi + 1)))
        chosen = floats_between(words, chosen, start, end)
        return keep_running_text(words, chosen)

    def passage(self, i: int, word_indices) -> Passage:
        """The passage made of these words (any order, duplicates ignored).

        Raises:
            BadSelection: empty, or an index that is not a word of the page.
        """
        words = self.words(i)
        try:
            chosen = sorted(set(word_indices))
        except TypeError:
            raise BadSelection(
                self.path, f"word indices must be integers: {word_indices!r}"
            ) from None
        if not chosen:
            raise BadSelection(self.path, f"empty selection on page {i + 1}")
        bad = [k for k in chosen if not isinstance(k, int) or not 0 <= k < len(words)]
        if bad:
            raise BadSelection(self.path, f"page {i + 1} has no word {bad[0]!r}")
        chosen = drop_inner_marginalia(words, chosen, note_at_end(words, chosen[0], chosen[-1]))
        quote = join_words([words[k] for k in chosen], self.vocabulary)
        prefix, suffix = self._context(i, chosen)
        return Passage(
            file="",
            page=i + 1,
            quote=quote,
            prefix=prefix,
            suffix=suffix,
            rects=line_rects([words[k] for k in chosen]),
            fingerprint=self.fingerprint,
            chapter=self.chapter_of(i),
            word_indices=chosen,
        )

    def passage_in_rect(self, i: int, rect) -> Passage:
        """The passage of the words whose centres lie in ``rect`` (unrotated PDF points)."""
        x0, y0, x1, y1 = (float(v) for v in rect)
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        hits = [
            w.index
            for w in self.words(i)
            if x0 <= (w.rect[0] + w.rect[2]) / 2 <= x1 and y0 <= (w.rect[1] + w.rect[3]) / 2 <= y1
        ]
        if not hits:
            raise BadSelection(self.path, f"no words inside {list(rect)!r} on page {i + 1}")
        # A rectangle has no ends to start in: a note it takes in beside the text is out.
        return self.passage(i, drop_inner_marginalia(self.words(i), hits))

    def _context(self, i: int, chosen: list[int], width: int = 32) -> tuple[str, str]:
        first, last = chosen[0], chosen[-1]
        runs = [r for r in self.runs(i) if first in r.words and last in r.words]
        # The run in which the passage reads without a gap (a drag narrowed to one style
        # reads without a gap only in that style's run).
        run = next((r for r in runs if contiguous(r, chosen)), runs[0] if runs else None)
        if run is None:
            return "", ""
        start = run.spans[run.words.index(first)][0]
        end = run.spans[run.words.index(last)][1]
        prefix = trim_left(run.text[max(0, start - width) : start], start > width)
        suffix = trim_right(run.text[end : end + width], end + width < len(run.text))
        return prefix, suffix

    # -- outline ---------------------------------------------------------------------

    def toc(self) -> list[tuple[int, str, int]]:
        """The table of contents as (level, title, 1-based page)."""
        if self._toc is None:
            with self._locked():
                try:
                    raw = self._doc.get_toc(simple=True)
                except Exception:
                    raw = []
            self._toc = [(int(a), str(b).strip(), int(c)) for a, b, c in raw]
        return self._toc

    def chapter_of(self, i: int) -> str | None:
        """The most specific table-of-contents entry starting on or before page ``i``."""
        self._check(i)
        title = None
        for _level, name, page in self.toc():
            if 1 <= page <= i + 1 and name:
                title = name
        return title

    def vocabulary(self) -> set[str]:
        """Lower-cased words of the whole document, without fragments of line-end hyphenation.

        Decides whether a line-end hyphen splits one word (join it) or is a real hyphen.
        """
        self._scan()
        return self._vocab

    def _scan(self, pages: int | None = None) -> None:
        # One cheap pass over the plain text of every page: the vocabulary, and squashed
        # page texts that rule pages out before the (costlier) word-level search. The lock is
        # taken page by page, so a reader's background scan never holds up a page asked for;
        # one scan at a time, and a second caller waits for it rather than scanning again.
        # ``pages`` stops after that many more pages (a background scan in small steps).
        if self._vocab is not None:
            return
        with self._scan_lock:
            while self._vocab is None and (pages is None or pages > 0):
                i = len(self._squashed)
                if i == self.page_count:
                    self._vocab = self._scan_vocab
                    break
                with self._locked():
                    text = self._doc[i].get_text("text", flags=TEXT_FLAGS)
                self._scan_vocab |= line_vocabulary(text.splitlines())
                self._squashed.append(squash(text))
                pages = None if pages is None else pages - 1
            if len(self._squashed) == self.page_count:
                self._vocab = self._scan_vocab

    def scan(self, pages: int | None = None) -> bool:
        """Read every page's plain text once (vocabulary, search filter); see :meth:`_scan`.

        Args:
            pages: read at most this many more pages (None: to the end). PyMuPDF holds the
                GIL while it reads a page, so a background scan goes a page at a time and
                lets a page asked for in between go first.

        Returns:
            True once every page has been read.
        """
        self._scan(pages)
        return self._vocab is not None

    def may_hold(self, i: int, text: str) -> bool | None:
        """As :meth:`may_contain` once the scan has reached page ``i``, else None (it never
        starts the scan: a reader runs it in the background)."""
        if i >= len(self._squashed):
            return None
        return all(present(t, self._squashed[i]) for t in tokens(text))

    def candidate_pages(self, text: str) -> list[int]:
        """Page indices that may hold ``text`` verbatim (normalised); a superset, never fewer.

        Every piece of the text between spaces and hyphens must occur in the page's squashed
        text, or as two parts of it (a word hyphenated across a column break).
        """
        return [i for i in range(self.page_count) if self.may_contain(i, text)]

    def may_contain(self, i: int, text: str) -> bool:
        """False only when page ``i`` surely does not hold ``text`` (see candidate_pages)."""
        self._check(i)
        self._scan()
        page = self._squashed[i]
        return all(present(t, page) for t in tokens(text))

    def fuzzy_candidate_pages(self, text: str, floor: float) -> list[int]:
        """Page indices whose squashed text is alike enough to ``text`` to be worth aligning."""
        self._scan()
        needle = squash(text)
        return [
            i
            for i, page in enumerate(self._squashed)
            if page and fuzz.partial_ratio(needle, page, score_cutoff=floor) > 0
        ]

    def close(self) -> None:
        """Close the document and drop it from the open-documents cache."""
        with PYMUPDF_LOCK:
            for key, doc in list(_OPEN.items()):
                if doc is self:
                    del _OPEN[key]
            if not self._closed:
                self._doc.close()
                self._closed = True
            self._pages.clear()
        helper, self.helper = self.helper, None
        if helper is not None:
            helper.close()


_UNREAD = object()  # an outline not read yet


class _LazyOutline(pymupdf.Document):
    """PyMuPDF's document with its outline read on first use, not when the file is opened.

    PyMuPDF reads the whole outline (every entry's destination page) as it opens a file: 17 ms
    of the 19 it takes to open the 285-page book of the corpus, before its first page can be
    shown. Only :meth:`Document.toc` needs it.
    """

    def _loadOutline(self):  # PyMuPDF's name: it calls this as it opens the file
        return _UNREAD

    @property
    def outline(self):
        if self._outline is _UNREAD:
            self._outline = pymupdf.Document._loadOutline(self)
        return self._outline


# -- the open-documents cache ------------------------------------------------------------------

_OPEN: OrderedDict[tuple, Document] = OrderedDict()


def open_document(path: str | os.PathLike, password: str | None = None) -> Document:
    """Open a PDF or EPUB, reusing an open copy while the file is unchanged.

    The cache is keyed by (path, mtime, size, password), so an edited file is reopened and
    the app does not reopen the document for every page.

    Raises:
        DocumentError: one of its subclasses, naming the file and what is wrong.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        raise DocumentError(p, "file not found") from None
    key = (str(p.resolve()), st.st_mtime_ns, st.st_size, password)
    with PYMUPDF_LOCK:
        doc = _OPEN.get(key)
        if doc is not None and not doc._closed:
            _OPEN.move_to_end(key)
            return doc
        doc = Document(p, password)
        _OPEN[key] = doc
        while len(_OPEN) > OPEN_CACHE_SIZE:
            # Not closed here: another session may still be reading it; GC closes it.
            _OPEN.popitem(last=False)
        return doc
