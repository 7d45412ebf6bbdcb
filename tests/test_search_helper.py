"""The search helper process: the same hits as the kernel alone, each once; the kernel searches
alone when the helper is off, missing, killed or not wanted; and no helper outlives its
document, reader or kernel."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import pymupdf
import pytest

from basehalf_core.documents import page_search, search_helper
from basehalf_core.documents.document import SEARCH_FLAGS, open_document

BOOK = "pymupdf_mupdf_explored.pdf"  # 285 pages


def _hits(doc, query: str) -> list[tuple[int, list, int]]:
    return [(h.page, h.boxes, h.count) for h in page_search.search_pages(doc, query)]


def _search_for(path, query: str) -> dict[int, int]:
    """PyMuPDF's own ``search_for`` (no reading order, no fallback): rects per page."""
    with pymupdf.open(path) as pdf:
        out = {}
        for page in pdf:
            rects = page.search_for(query, flags=SEARCH_FLAGS)
            if rects:
                out[page.number] = len(rects)
        return out


def _ready(helper: search_helper.SearchHelper, timeout: float = 20.0) -> None:
    end = time.monotonic() + timeout
    while not helper.ready and time.monotonic() < end:
        helper._lines()
        time.sleep(0.02)
    assert helper.ready, "the helper did not start"


def _gone(pid: int, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie (exited, not reaped by a parent that is itself gone) counts as gone.
        with open(f"/proc/{pid}/stat") as f:
            if f.read().split(")")[-1].split()[0] == "Z":
                return True
        time.sleep(0.05)
    return False


@pytest.fixture
def book(corpus_file, tmp_path):
    """A private copy: the open-documents cache and other tests' helpers stay out of it."""
    path = tmp_path / "book.pdf"
    shutil.copy(corpus_file(BOOK), path)
    doc = open_document(path)
    yield doc
    doc.close()


@pytest.mark.parametrize(
    ("query", "start"),
    [("reference counting", 0), ("the", 0), ("Pixmap", 200), ("zzqqxx nothing", 0)],
)
def test_shared_search_finds_what_the_kernel_alone_finds(book, query, start):
    alone = [(h.page, h.boxes, h.count) for h in page_search.search_pages(book, query, start)]
    helper = search_helper.attach(book, min_pages=1)
    assert helper is not None
    _ready(helper)
    shared = [(h.page, h.boxes, h.count) for h in page_search.search_pages(book, query, start)]
    pages = [p for p, _, _ in shared]
    assert len(pages) == len(set(pages)), "a page reported twice"
    assert sorted(shared) == sorted(alone)
    if alone:  # the first hit is still the first from ``start``: the page to turn to
        assert shared[0] == alone[0]


def test_shared_search_agrees_with_search_for(book):
    helper = search_helper.attach(book, min_pages=1)
    _ready(helper)
    hits = _hits(book, "reference counting")
    expected = _search_for(book.path, "reference counting")
    assert expected, "the book holds the phrase"
    assert {p: len(b) for p, b, _ in hits} == expected


def test_the_helper_really_searches_part_of_the_book(book, monkeypatch):
    """Not only a fallback that always wins: some pages are the helper's."""
    helper = search_helper.attach(book, min_pages=1)
    _ready(helper)
    searched: list[int] = []
    find = type(book).find_text

    def counted(self, i, needle, texts=None):
        searched.append(i)
        time.sleep(0.002)  # a slow kernel: the helper gets its share even on a loaded machine
        return find(self, i, needle, texts)

    monkeypatch.setattr(type(book), "find_text", counted)
    hits = _hits(book, "reference counting")
    assert len(searched) < book.page_count
    assert {p for p, _, _ in hits} == set(_search_for(book.path, "reference counting"))


def test_a_killed_helper_leaves_the_search_to_the_kernel(book):
    expected = _hits(book, "reference counting")
    helper = search_helper.attach(book, min_pages=1)
    _ready(helper)
    os.kill(helper.pid, signal.SIGKILL)
    helper._proc.wait(timeout=5)
    assert _hits(book, "reference counting") == expected
    assert not helper.alive()


def test_a_helper_killed_mid_search_leaves_the_rest_to_the_kernel(book):
    expected = sorted(_hits(book, "the"))
    helper = search_helper.attach(book, min_pages=1)
    _ready(helper)
    got = []
    for k, hit in enumerate(page_search.search_pages(book, "the")):
        got.append((hit.page, hit.boxes, hit.count))
        if k == 3:
            os.kill(helper.pid, signal.SIGKILL)
    assert sorted(got) == expected


def test_a_helper_not_started_yet_costs_nothing(book):
    """The kernel never waits: a search right after the start finds every hit."""
    expected = _hits(book, "reference counting")
    search_helper.attach(book, min_pages=1)
    assert sorted(_hits(book, "reference counting")) == sorted(expected)


@pytest.mark.parametrize(
    ("env", "value", "wanted"),
    [
        (search_helper.ENV, "0", False),
        (search_helper.ENV, "off", False),
        (search_helper.ENV, "1", True),
        (search_helper.SERVED_ENV, "/srv/course", False),  # a class server's kernel
    ],
)
def test_switches(book, monkeypatch, env, value, wanted):
    monkeypatch.delenv(search_helper.ENV, raising=False)
    monkeypatch.delenv(search_helper.SERVED_ENV, raising=False)
    monkeypatch.setenv(env, value)
    helper = search_helper.attach(book, min_pages=1)
    assert (helper is not None) is wanted
    assert (book.helper is not None) is wanted


def test_no_helper_for_a_short_document(corpus_file, tmp_path):
    path = tmp_path / "short.pdf"
    shutil.copy(corpus_file("attention-1706.03762.pdf"), path)
    doc = open_document(path)
    try:
        assert doc.page_count < search_helper.MIN_PAGES
        assert search_helper.attach(doc) is None
    finally:
        doc.close()


def test_no_helper_for_a_password_protected_pdf(corpus_file, tmp_path):
    path = tmp_path / "locked.pdf"
    shutil.copy(corpus_file("sf_libreoffice-writer-password.pdf"), path)
    with pymupdf.open(path) as pdf:
        assert pdf.needs_pass
    doc = open_document(path, password="openpassword")  # the corpus MANIFEST's
    try:
        assert doc.encrypted
        assert search_helper.attach(doc, min_pages=1) is None
    finally:
        doc.close()


def test_a_changed_file_is_not_searched_by_the_helper(book, corpus_file):
    """The helper opens only the bytes the kernel opened: another file there, it exits."""
    shutil.copy(corpus_file("attention-1706.03762.pdf"), book.path)
    helper = search_helper.attach(book, min_pages=1)
    helper._proc.wait(timeout=20)
    assert not helper.ready
    assert _hits(book, "attention") == []  # the kernel's copy of the book: no such word


def test_closing_the_document_ends_its_helper(book):
    helper = search_helper.attach(book, min_pages=1)
    _ready(helper)
    book.close()
    assert _gone(helper.pid)


def test_the_reader_ends_the_helper_when_it_closes_or_switches(corpus_file, tmp_path):
    from basehalf_widgets.reader import Reader

    path = tmp_path / "book.pdf"
    shutil.copy(corpus_file(BOOK), path)
    reader = Reader(path)
    first = reader.doc.helper
    assert first is not None
    other = tmp_path / "other.pdf"
    shutil.copy(corpus_file(BOOK), other)
    reader.open_document(other)
    assert _gone(first.pid)
    second = reader.doc.helper
    assert second is not None and second.pid != first.pid
    reader.close()
    assert _gone(second.pid)
    reader.doc.close()


KERNEL = textwrap.dedent(
    """
    import sys, time
    from basehalf_core.documents import document, search_helper
    doc = document.open_document(sys.argv[1])
    helper = search_helper.attach(doc, min_pages=1)
    print(helper.pid, flush=True)
    if sys.argv[2] == "hang":
        time.sleep(60)
    """
)


@pytest.mark.parametrize("ending", ["exit", "killed"])
def test_no_helper_outlives_its_kernel(book, ending, tmp_path):
    """A kernel that exits (or is killed, with no chance to clean up) leaves no helper."""
    script = tmp_path / "kernel.py"
    script.write_text(KERNEL)
    mode = "hang" if ending == "killed" else "exit"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    kernel = subprocess.Popen(
        [sys.executable, str(script), str(book.path), mode], stdout=subprocess.PIPE, env=env
    )
    pid = int(kernel.stdout.readline())
    if ending == "killed":
        time.sleep(0.5)
        kernel.kill()
    kernel.wait(timeout=30)
    assert _gone(pid, timeout=10)
