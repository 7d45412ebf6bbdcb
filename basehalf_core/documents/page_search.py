"""Searching a whole document for the learner's text, page by page: the reader's search box."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from basehalf_core.documents import search_helper
from basehalf_core.documents.anchors import find_in_page, find_on_page
from basehalf_core.documents.document import Document
from basehalf_core.documents.pages import line_rects
from basehalf_core.documents.text import normalise, present, tokens


def find_all(doc: Document, text: str) -> Iterator[tuple[int, list[list[int]]]]:
    """Each page index that holds ``text`` (normalised, folded), with the words of each hit.

    Pages are yielded as they are searched, so a caller can show the first hits at once.
    """
    needle = normalise(text)
    if not needle:
        return
    for i in doc.candidate_pages(needle):
        hits = find_in_page(doc, i, needle)
        if hits:
            yield i, hits


def search(doc: Document, text: str) -> list[tuple[int, list[tuple[float, float, float, float]]]]:
    """Pages where ``text`` occurs, with one rect per line of each hit (unrotated points).

    Compared on normalised text, so ligatures, line-end hyphens and line breaks in the
    document do not hide a match.
    """
    out = []
    for i, hits in find_all(doc, text):
        words = doc.words(i)
        rects = [tuple(r) for idx in hits for r in line_rects([words[k] for k in idx])]
        out.append((i, rects))
    return out


@dataclass
class PageHits:
    """Where a search found its text on one page.

    Attributes:
        page: 0-based page index.
        boxes: displayed 0..1 boxes, one per line piece of each occurrence.
        count: how many occurrences.
    """

    page: int
    boxes: list[tuple[float, float, float, float]]
    count: int


def search_pages(doc: Document, text: str, start: int = 0) -> Iterator[PageHits]:
    """Search the whole document for ``text``, one page at a time (a caller can stream).

    Pages are visited from ``start`` to the end and then from the beginning, so the hit the
    learner wants next comes first. Each page is searched by MuPDF itself
    (:meth:`Document.find_text`: as fast as PyMuPDF's ``search_for``), except the pages the
    document's text scan (:meth:`Document.scan`) already rules out. A long PDF a reader shows
    has a helper process (:mod:`search_helper`) that searches the same pages from the last
    while this one searches from the first; they meet in the middle. The helper's hits come
    once one of this side's has (the first hit yielded is the first in the order above),
    else at the end, in order; a page is counted once, whoever searched it. Only when no
    page matches that way is the document searched again in reading order with the
    anchors' rules (:func:`find_in_page`: ligatures, hyphens, curly quotes, a phrase broken
    by a footnote between two columns), which costs a first pass over every page's text.
    """
    needle = normalise(text)
    if not needle:
        return
    n = doc.page_count
    start = min(max(start, 0), n - 1)
    order = [*range(start, n), *range(start)]
    # A page whose text is known (a reader scans it in the background) is ruled out without
    # building its text page when a piece of the needle is not in it.
    pages = [i for i in order if doc.may_hold(i, needle) is not False]
    # Squashed text with line ends of the pages searched, kept while none matches.
    texts: dict[int, str] = {}
    found = False
    for hit in _search_shared(doc, needle, pages, texts):
        found = True
        yield hit
    if found:
        return
    # The second pass rules pages out with the text the first one read (``texts``: every
    # page searched, by either process), not with a second read of every page (the scan).
    # A page the scan ruled out above stays out: asking again (may_contain) would wait for
    # the whole scan.
    pieces = tokens(needle)
    searched = set(pages)
    for i in order:
        if i not in searched:
            continue
        text = texts.get(i)
        if text is not None and not all(present(t, text) for t in pieces):
            continue
        groups = [m.word_indices for m in find_on_page(doc, i, needle, text is not None)]
        if groups:
            words = doc.words(i)
            rects = [r for g in groups for r in line_rects([words[k] for k in g])]
            yield PageHits(i, doc.to_boxes(i, rects), len(groups))


def _search_shared(
    doc: Document, needle: str, pages: list[int], texts: dict[int, str]
) -> Iterator[PageHits]:
    """MuPDF's search of ``pages`` in order, shared with the document's helper if it has one.

    While nothing is found, ``texts`` gets each page's squashed text (see
    :meth:`Document.find_text`), from both processes.
    """
    helper = getattr(doc, "helper", None)
    shared = None
    if helper is not None and len(pages) >= search_helper.MIN_SEARCH_PAGES:
        shared = helper.begin(needle, pages)
    if shared is None:
        for i in pages:
            boxes, count = doc.find_text(i, needle, texts)
            if boxes:
                texts = None  # a hit: no second pass, so no text to keep
                yield PageHits(i, boxes, count)
        return
    try:
        front, back = 0, len(pages)  # this side searched pages[:front]; the helper pages[back:]
        theirs: list[tuple[int, list, int]] = []  # the helper's hits, held until one of ours
        ours = False
        while front < back:
            for pos, rects, count, text in shared.reports():
                back = min(back, pos)
                if texts is not None and text is not None and pos >= front:
                    texts[pages[pos]] = text
                # A page before ``front`` was searched here too (the helper was mid-page as
                # the two met): its hits are counted here.
                if rects and pos >= front:
                    theirs.append((pos, rects, count))
            if front >= back:
                break
            i = pages[front]
            front += 1
            boxes, count = doc.find_text(i, needle, None if (ours or theirs) else texts)
            if boxes:
                ours = True
                yield PageHits(i, boxes, count)
            if ours and theirs:
                yield from _theirs(doc, pages, theirs)
        yield from _theirs(doc, pages, theirs)
    finally:
        shared.end()


def _theirs(doc: Document, pages: list[int], held: list) -> Iterator[PageHits]:
    """The helper's hits held so far, in search order (emptying ``held``)."""
    held.sort(key=lambda h: h[0])
    out, held[:] = list(held), []
    for pos, rects, count in out:
        yield PageHits(pages[pos], doc.to_boxes(pages[pos], rects), count)
