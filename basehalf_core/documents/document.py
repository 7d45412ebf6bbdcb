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
import functools
import hashlib
import math
import os
import re
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
from rapidfuzz import fuzz

from basehalf_core.documents.reading_order import Block, order_blocks
from basehalf_core.errors import BasehalfError

PYMUPDF_LOCK = threading.RLock()

# One text page per page, built with these flags and reused for words and search. Ligatures
# are not preserved (so MuPDF expands those it can); fonts that map glyphs to the ligature
# code points themselves are expanded by :func:`normalise`.
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
)
# Rendering cannot be interrupted: a huge page is rendered scaled down to at most this.
MAX_RENDER_PIXELS = 12_000_000
OPEN_CACHE_SIZE = 8
PAGE_CACHE_SIZE = 48

LIGATURES = {
    "ﬀ": "ff",
    "ﬁ": "fi",
    "ﬂ": "fl",
    "ﬃ": "ffi",
    "ﬄ": "ffl",
    "ﬅ": "st",
    "ﬆ": "st",
}
_LIG_RE = re.compile("[" + "".join(LIGATURES) + "]")
HYPHENS = ("-", "\u2010", "\u00ad")
_WS_RE = re.compile(r"\s+")
# Scripts written without spaces: each character is its own selection unit.
_CJK_RE = re.compile(
    "[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]"
)
_LETTERS_RE = re.compile(r"[^\W\d_]+")
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-"})
_SQUASH_RE = re.compile(r"[\s\-\u2010\u00ad]+")
_SPLIT_RE = _SQUASH_RE

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


class DocumentError(BasehalfError):
    """A document cannot be used; ``path`` names the file and ``reason`` says why."""


class NeedsPassword(DocumentError):
    """The PDF is encrypted and no password was given."""


class WrongPassword(DocumentError):
    """The password given does not open the PDF."""


class NoPages(DocumentError):
    """The file opens but has no pages (xref loop, truncation)."""


class BrokenDocument(DocumentError):
    """The file claims to be a PDF or EPUB but is truncated or corrupt."""


class EmptyFile(DocumentError):
    """The file has 0 bytes."""


class NotADocument(DocumentError):
    """The file is not a PDF or EPUB whatever its name says."""


class PageOutOfRange(DocumentError):
    """A page index outside the document."""


class BadSelection(DocumentError):
    """Word indices that are not words of that page."""


class DocumentClosed(DocumentError):
    """The document was closed."""


@dataclass(frozen=True)
class Word:
    """One selection unit: a word, or one character of a script written without spaces.

    Attributes:
        index: position in the page's reading order (``words(i)[k].index == k``).
        text: the word as extracted (ligatures expanded by :func:`normalise` in passages).
        rect: (x0, y0, x1, y1) in unrotated page space, PDF points.
        box: (x0, y0, x1, y1) in displayed space, fractions 0..1 of the displayed page.
        block: PyMuPDF's block number; ``line`` its line number inside the block.
        role: body | header | footer | footnote | margin.
        glue: True when nothing separates it from the previous unit on its line (the second
            character of a Chinese run), so passages join them without a space.
    """

    index: int
    text: str
    rect: tuple[float, float, float, float]
    box: tuple[float, float, float, float]
    block: int
    line: int
    role: str = "body"
    glue: bool = False

    def as_dict(self) -> dict:
        """JSON-ready form for a widget (boxes rounded to 1e-5 of the page)."""
        return {
            "i": self.index,
            "t": self.text,
            "b": [round(v, 5) for v in self.box],
            "r": self.role,
            "g": self.glue,
            "l": [self.block, self.line],
        }


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


@dataclass(frozen=True)
class Rendered:
    """One rendered page: PNG bytes and the zoom actually used (lower than asked if capped)."""

    png: bytes
    zoom: float
    width: int
    height: int


@dataclass
class Run:
    """Normalised text of the body ("body") or of the marginalia ("aside"), with word spans."""

    role: str
    text: str
    words: list[int]
    spans: list[tuple[int, int]]


def normalise(text: str) -> str:
    """Ligatures expanded, whitespace collapsed, NFC (DESIGN §3); hyphens are left alone."""
    text = _LIG_RE.sub(lambda m: LIGATURES[m.group()], text)
    return unicodedata.normalize("NFC", _WS_RE.sub(" ", text).strip())


def fold(text: str) -> str:
    """Fold case, curly quotes and dashes without changing the length (offsets stay valid)."""
    text = text.translate(_FOLD)
    low = text.lower()
    if len(low) == len(text):
        return low
    out = []  # a character such as "İ" lower-cases to two: keep those as they are
    for ch in text:
        low = ch.lower()
        out.append(low if len(low) == 1 else ch)
    return "".join(out)


def squash(text: str) -> str:
    """Normalised and folded, with every space and hyphen removed: for ruling pages out."""
    return _SQUASH_RE.sub("", fold(normalise(text)))


@functools.lru_cache(maxsize=256)
def _tokens(text: str) -> frozenset[str]:
    return frozenset(t for t in (squash(p) for p in _SPLIT_RE.split(normalise(text))) if t)


def _present(token: str, page: str) -> bool:
    if token in page:
        return True
    if _CJK_RE.search(token):
        # Text without spaces runs on across lines and blocks in reading order, so only
        # its characters are sure to be on the page.
        return all(ch in page for ch in set(token))
    return len(token) >= 4 and any(
        token[:k] in page and token[k:] in page for k in range(2, len(token) - 1)
    )


def is_cjk(ch: str) -> bool:
    """True for characters of scripts written without spaces between words."""
    return bool(_CJK_RE.match(ch))


def _fingerprint(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


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
        self.fingerprint = _fingerprint(data)
        with PYMUPDF_LOCK:
            try:
                doc = pymupdf.open(stream=data, filetype=self.kind)
            except Exception as exc:  # FileDataError, RuntimeError code=7, zip errors...
                what = "PDF" if self.kind == "pdf" else "EPUB"
                raise BrokenDocument(
                    self.path, f"is damaged or truncated; it cannot be opened as {what} ({exc})"
                ) from None
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
        self._pages: OrderedDict[int, _PageText] = OrderedDict()
        self._toc: list[tuple[int, str, int]] | None = None
        self._vocab: set[str] | None = None
        self._squashed: list[str] = []
        self._closed = False

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

    def render(self, i: int, zoom: float = 1.5) -> Rendered:
        """Render one page (rotated as displayed) to PNG.

        The zoom is lowered so the image has at most :data:`MAX_RENDER_PIXELS` pixels; the
        returned ``zoom`` is the one used.
        """
        self._check(i)
        if not (isinstance(zoom, int | float) and math.isfinite(zoom) and zoom > 0):
            raise ValueError(f"zoom must be a positive number, got {zoom!r}")
        with self._locked():
            page = self._doc[i]
            w, h = page.rect.width, page.rect.height
            cap = math.sqrt(MAX_RENDER_PIXELS / max(w * h, 1e-6))
            used = min(float(zoom), cap)
            while math.ceil(w * used) * math.ceil(h * used) > MAX_RENDER_PIXELS:
                used *= 0.999  # pixel sizes round up
            try:
                pix = page.get_pixmap(matrix=pymupdf.Matrix(used, used), alpha=False)
                png = pix.tobytes("png")
            except Exception as exc:  # a damaged page: say which, keep the others usable
                raise BrokenDocument(self.path, f"page {i + 1} cannot be rendered: {exc}") from None
            return Rendered(png, used, pix.width, pix.height)

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

    def _page(self, i: int) -> _PageText:
        self._check(i)
        with self._locked():
            cached = self._pages.get(i)
            if cached is not None:
                self._pages.move_to_end(i)
                return cached
            try:
                pt = _PageText.build(self._doc[i])
            except Exception as exc:
                raise BrokenDocument(
                    self.path, f"page {i + 1} text cannot be read: {exc}"
                ) from None
            self._pages[i] = pt
            while len(self._pages) > PAGE_CACHE_SIZE:
                self._pages.popitem(last=False)
            return pt

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
            pt.runs = _make_runs(pt.words, self.vocabulary)
        return pt.runs

    # -- selection ---------------------------------------------------------------------------

    def select_between(self, i: int, start: int, end: int) -> list[int]:
        """Word indices from ``start`` to ``end`` (either order) as read, without marginalia.

        A footnote, running footer or margin stamp swept up with running text is left out;
        a selection made wholly inside a footnote keeps it.
        """
        words = self.words(i)
        for k in (start, end):
            if not isinstance(k, int) or not 0 <= k < len(words):
                raise BadSelection(self.path, f"page {i + 1} has no word {k!r}")
        lo, hi = sorted((start, end))
        return _drop_inner_marginalia(words, list(range(lo, hi + 1)))

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
        chosen = _drop_inner_marginalia(words, chosen)
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
        return self.passage(i, hits)

    def _context(self, i: int, chosen: list[int], width: int = 32) -> tuple[str, str]:
        first, last = chosen[0], chosen[-1]
        prefix = suffix = ""
        for run in self.runs(i):
            if first in run.words:
                start = run.spans[run.words.index(first)][0]
                prefix = _trim_left(run.text[max(0, start - width) : start], start > width)
            if last in run.words:
                end = run.spans[run.words.index(last)][1]
                suffix = _trim_right(run.text[end : end + width], end + width < len(run.text))
        return prefix, suffix

    # -- search, outline ---------------------------------------------------------------------

    def search(self, text: str) -> list[tuple[int, list[tuple[float, float, float, float]]]]:
        """Pages where ``text`` occurs, with one rect per line of each hit.

        Compared on normalised text, so ligatures, line-end hyphens and line breaks in the
        document do not hide a match.
        """
        from basehalf_core.documents.anchors import (
            find_in_page,  # anchors builds on this module
        )

        needle = normalise(text)
        if not needle:
            return []
        out = []
        for i in self.candidate_pages(needle):
            hits = find_in_page(self, i, needle)
            if hits:
                rects = []
                for idx in hits:
                    rects.extend(tuple(r) for r in line_rects([self.words(i)[k] for k in idx]))
                out.append((i, rects))
        return out

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

    def _scan(self) -> None:
        # One cheap pass over the plain text of every page: the vocabulary, and squashed
        # page texts that rule pages out before the (costlier) word-level search.
        if self._vocab is not None:
            return
        vocab: set[str] = set()
        squashed: list[str] = []
        with self._locked():
            for page in self._doc:
                text = page.get_text("text", flags=TEXT_FLAGS)
                vocab |= _line_vocabulary(text.splitlines())
                squashed.append(squash(text))
        self._squashed = squashed
        self._vocab = vocab

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
        return all(_present(t, page) for t in _tokens(text))

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


def _line_vocabulary(lines: list[str]) -> set[str]:
    vocab: set[str] = set()
    skip_first = False
    for line in lines:
        tokens = _LETTERS_RE.findall(normalise(line).lower())
        stripped = line.rstrip()
        broken = stripped.endswith(HYPHENS)
        start = 1 if skip_first else 0
        end = len(tokens) - 1 if broken else len(tokens)
        vocab.update(tokens[start:end])
        skip_first = broken
    return vocab


def _trim_left(text: str, cut: bool) -> str:
    if cut and " " in text:
        text = text[text.index(" ") + 1 :]
    return text.lstrip()


def _trim_right(text: str, cut: bool) -> str:
    if cut and " " in text:
        text = text[: text.rindex(" ")]
    return text.rstrip()


def _drop_inner_marginalia(words: list[Word], chosen: list[int]) -> list[int]:
    """A selection that holds running text keeps only running text.

    A drag (or a rectangle) across a column break, a footnote or a margin stamp is about
    the sentence; a selection made wholly inside a footnote or a stamp keeps it.
    """
    body = [k for k in chosen if words[k].role == "body"]
    return body or chosen


def hyphen_joins(head: str, tail: str, vocabulary) -> bool:
    """Does a line-end hyphen between ``head`` and ``tail`` split one word?

    ``al-``/``ternative`` joins (``alternative``); ``English-``/``to-German`` keeps its
    hyphen. The test is the document's own words: the joined form being one of them joins;
    two parts that are both words of the document (``model-``/``generated``), a tail that
    starts with a capital or digit, or a tail that holds another hyphen keep the hyphen.
    """
    h = _LETTERS_RE.findall(head.lower())
    t = _LETTERS_RE.findall(tail.lower())
    if not h or not t or not head.rstrip()[-2:-1].isalpha():
        return False
    core_tail = tail.lstrip("\"'(“‘[")
    if not core_tail or not core_tail[0].isalpha() or core_tail[0].isupper():
        return False
    vocab = vocabulary() if callable(vocabulary) else vocabulary
    joined = h[-1] + t[0]
    if joined in vocab:
        return True
    if any(c in core_tail for c in HYPHENS[:2]):
        return False
    return not (h[-1] in vocab and t[0] in vocab)


def join_words(words: list[Word], vocabulary) -> str:
    """Join words in reading order into normalised text (DESIGN §3)."""
    return _join(words, vocabulary)[0]


def _join(words: list[Word], vocabulary) -> tuple[str, list[tuple[int, int]]]:
    """The joined text and each word's (start, end) in it."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    glue_next = False
    for k, w in enumerate(words):
        raw = normalise(w.text)
        if k:
            prev = words[k - 1]
            same_line = (prev.block, prev.line) == (w.block, w.line)
            cjk_wrap = not same_line and is_cjk(prev.text[-1:]) and is_cjk(raw[:1])
            if not (glue_next or (same_line and w.glue) or cjk_wrap):
                out.append(" ")
                pos += 1
        nxt = words[k + 1] if k + 1 < len(words) else None
        line_end = nxt is not None and (nxt.block, nxt.line) != (w.block, w.line)
        glue_next = False
        if line_end and raw.endswith(HYPHENS) and raw[-2:-1].isalnum():
            # Either way the word goes on: no space after a line-end hyphen.
            glue_next = True
            if raw.endswith("\u00ad") or hyphen_joins(raw, normalise(nxt.text), vocabulary):
                raw = raw.rstrip("".join(HYPHENS))
        raw = raw.replace("\u00ad", "")
        out.append(raw)
        spans.append((pos, pos + len(raw)))
        pos += len(raw)
    return "".join(out), spans


def line_rects(words: list[Word]) -> list[list[float]]:
    """One rect per (block, line) of these words, unrotated PDF points rounded to 0.1."""
    lines: dict[tuple[int, int], list[float]] = {}
    for w in words:
        key = (w.block, w.line)
        r = lines.get(key)
        if r is None:
            lines[key] = list(w.rect)
        else:
            r[0], r[1] = min(r[0], w.rect[0]), min(r[1], w.rect[1])
            r[2], r[3] = max(r[2], w.rect[2]), max(r[3], w.rect[3])
    return [[round(v, 1) for v in r] for r in lines.values()]


def _make_runs(words: list[Word], vocabulary) -> list[Run]:
    """Two runs: the body words (marginalia between them skipped) and the marginalia."""
    groups: dict[str, list[Word]] = {}
    for w in words:
        groups.setdefault(_run_key(w), []).append(w)
    runs = []
    for group in groups.values():
        text, spans = _join(group, vocabulary)
        runs.append(Run(_run_key(group[0]), text, [w.index for w in group], spans))
    return runs


def _run_key(w: Word) -> str:
    # Marginalia of every kind read as one stream, so a selection from a footnote into the
    # footer below it is still one piece of text.
    return "body" if w.role == "body" else "aside"


@dataclass
class _PageText:
    words: list[Word]
    runs: list[Run] | None = None

    @classmethod
    def build(cls, page: pymupdf.Page) -> _PageText:
        tp = page.get_textpage(flags=TEXT_FLAGS)
        raw_words = tp.extractWORDS()
        info = tp.extractDICT()
        rot = tuple(page.rotation_matrix)
        disp = page.rect
        w_disp, h_disp = max(disp.width, 1e-6), max(disp.height, 1e-6)
        if any(_CJK_RE.search(t[4]) for t in raw_words):
            units = _units_from_rawdict(tp.extractRAWDICT())
        else:
            units = [(tuple(t[:4]), t[4], t[5], t[6], False) for t in raw_words]
        blocks = _blocks(info, page.rotation_matrix)
        order = order_blocks(list(blocks.values()), h_disp)
        by_block: dict[int, list] = {}
        for u in units:
            by_block.setdefault(u[2], []).append(u)
        words: list[Word] = []
        placed = set()
        for block_id, role in order:
            for rect, text, b, ln, glue in by_block.get(block_id, []):
                words.append(_word(len(words), rect, text, b, ln, glue, role, rot, w_disp, h_disp))
            placed.add(block_id)
        for block_id, units_here in by_block.items():  # words in blocks the dict did not list
            if block_id not in placed:
                for rect, text, b, ln, glue in units_here:
                    words.append(
                        _word(len(words), rect, text, b, ln, glue, "body", rot, w_disp, h_disp)
                    )
        return cls(words)


def _word(index, rect, text, block, line, glue, role, rot, w_disp, h_disp) -> Word:
    # Plain arithmetic: pymupdf.Rect * Matrix per word cost more than the rest of the page.
    # Page rotations are multiples of 90 degrees, so two corners give the displayed box.
    a, b, c, d, e, f = rot
    x0, y0, x1, y1 = (float(v) for v in rect)
    xa, ya = a * x0 + c * y0 + e, b * x0 + d * y0 + f
    xb, yb = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    box = (
        min(xa, xb) / w_disp,
        min(ya, yb) / h_disp,
        max(xa, xb) / w_disp,
        max(ya, yb) / h_disp,
    )
    return Word(index, text, (x0, y0, x1, y1), box, block, line, role, glue)


def _blocks(info: dict, rot: pymupdf.Matrix) -> dict[int, Block]:
    out = {}
    for b in info.get("blocks", []):
        if b.get("type") != 0 or not b.get("lines"):
            continue
        chars = 0
        dirs: dict[tuple[float, float], int] = {}
        size_weight: dict[float, int] = {}
        first = ""
        for line in b["lines"]:
            dx, dy = line["dir"]
            # Direction as displayed: rotate the vector (no translation).
            ddir = (round(dx * rot.a + dy * rot.c, 3), round(dx * rot.b + dy * rot.d, 3))
            n = sum(len(s["text"]) for s in line["spans"])
            dirs[ddir] = dirs.get(ddir, 0) + n
            chars += n
            for s in line["spans"]:
                size_weight[round(s["size"], 1)] = size_weight.get(round(s["size"], 1), 0) + len(
                    s["text"]
                )
                if not first and s["text"].strip():
                    first = s["text"].strip()[0]
        if not chars:
            continue
        r = pymupdf.Rect(b["bbox"]) * rot
        r.normalize()
        out[b["number"]] = Block(
            id=b["number"],
            bbox=(r.x0, r.y0, r.x1, r.y1),
            direction=max(dirs, key=dirs.get),
            size=max(size_weight, key=size_weight.get),
            chars=chars,
            lines=len(b["lines"]),
            first_char=first,
        )
    return out


def _units_from_rawdict(raw: dict) -> list[tuple]:
    """Words split at spaces, with every CJK character its own unit (glued to its neighbours)."""
    units: list[tuple] = []
    for b in raw.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln, line in enumerate(b["lines"]):
            groups: list[tuple[list[dict], bool]] = []  # (chars, glued to the previous unit)
            open_group = glue = False
            for span in line["spans"]:
                for c in span["chars"]:
                    ch = c["c"]
                    if ch.isspace():
                        open_group = glue = False
                        continue
                    cjk = is_cjk(ch)
                    if cjk or not open_group:
                        groups.append(([c], glue))
                    else:
                        groups[-1][0].append(c)
                    open_group = not cjk
                    glue = True
            for chars, glued in groups:
                x0 = min(c["bbox"][0] for c in chars)
                y0 = min(c["bbox"][1] for c in chars)
                x1 = max(c["bbox"][2] for c in chars)
                y1 = max(c["bbox"][3] for c in chars)
                text = "".join(c["c"] for c in chars)
                units.append(((x0, y0, x1, y1), text, b["number"], ln, glued))
    return units


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
