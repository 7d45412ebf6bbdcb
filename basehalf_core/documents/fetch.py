"""``basehalf fetch-arxiv``: download an arXiv paper into a study folder.

A session that cannot redistribute its PDF names it in its notes' ``upstream`` (a dangling
entry until fetched); this puts the file there. The download must be a real PDF (header and
pymupdf both agree) before a byte is written, the write is atomic and create-only, and no
internet gives one clear line instead of a traceback. ``BASEHALF_ARXIV_URL`` (or ``base_url``)
points the download elsewhere, e.g. at a loopback server in tests or a mirror.

It also stores the paper's reference (title, authors, year, arXiv id, DOI) from arXiv's API in
the PDF's mirror store (:mod:`basehalf_core.documents.citation`). ``BASEHALF_ARXIV_API_URL``
(or ``api_url``) points that request elsewhere; with a custom download URL and no API URL the
reference is not fetched (a mirror of PDFs says nothing about where an API is). A reference
that cannot be had is reported, never a reason to lose the downloaded PDF.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from basehalf_core.documents import citation as cite
from basehalf_core.documents import web
from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.fsio import WriteRefused, inside, read_bytes
from basehalf_core.folder.paths import check_entry
from basehalf_core.folder.workspace import Workspace

DEFAULT_BASE_URL = "https://arxiv.org/pdf/"
MAX_BYTES = 200 * 1024 * 1024
_NEW_ID = re.compile(r"^\d{4}\.\d{4,5}(v\d+)?$")
_OLD_ID = re.compile(r"^[a-z][a-z.-]*(\.[A-Z]{2})?/\d{7}(v\d+)?$")


class FetchError(BasehalfError):
    """The paper was not fetched; the message names what and why. Nothing was written."""


class BadArxivId(FetchError):
    def __init__(self, arxiv_id: str):
        super().__init__(
            f"{arxiv_id!r}: not an arXiv id (expected e.g. 1706.03762, 1706.03762v5 "
            "or hep-th/9901001)"
        )


class NoInternet(FetchError):
    """The server could not be reached at all (offline, DNS, refused, timed out)."""


class NotAPdf(FetchError):
    """The server answered, but not with a PDF."""


class DownloadFailed(FetchError):
    """The server answered with an HTTP error or the download broke off."""


@dataclass(frozen=True)
class Fetched:
    """What was fetched: the folder-relative name, its size and SHA-256, and what it matches."""

    path: str
    size: int
    sha256: str
    url: str
    already_there: bool = False
    anchors_matching: int = 0  # notes whose grown_from fingerprint equals these bytes
    anchors_differing: int = 0  # notes grown from another edition (re-anchored on open)
    citation: dict | None = None  # the stored reference (see citation.Citation)
    citation_problem: str = ""  # why no reference is stored, when none is

    def as_dict(self) -> dict:
        return {
            "path": self.path,
            "size": self.size,
            "sha256": self.sha256,
            "url": self.url,
            "already_there": self.already_there,
            "anchors_matching": self.anchors_matching,
            "anchors_differing": self.anchors_differing,
            "citation": self.citation,
            "citation_problem": self.citation_problem,
        }


def check_id(arxiv_id: str) -> str:
    """The id, stripped; raises :class:`BadArxivId` for anything else (no path tricks)."""
    text = arxiv_id.strip()
    if text.lower().startswith("arxiv:"):
        text = text[6:]
    if not (_NEW_ID.match(text) or _OLD_ID.match(text)):
        raise BadArxivId(arxiv_id)
    return text


def expected_name(ws: Workspace) -> str | None:
    """The one ``.pdf`` the folder's notes list upstream (fetched or not), if there is one."""
    named = {
        p for node in ws.nodes.values() for p in node.store.paths if p.lower().endswith(".pdf")
    }
    return named.pop() if len(named) == 1 else None


def _download(url: str, timeout: float) -> bytes:
    try:
        return web.get(url, MAX_BYTES, timeout)
    except web.Unreachable as exc:
        raise NoInternet(
            f"{exc}: no internet connection? Download {url} "
            "by hand and save it in the folder under the name the README gives"
        ) from None
    except web.BadAnswer as exc:
        raise DownloadFailed(exc.path, exc.reason) from None


def _check_pdf(data: bytes, url: str) -> None:
    if data.lstrip()[:5] != b"%PDF-":
        start = data[:60].decode("latin-1", errors="replace").replace("\n", " ")
        raise NotAPdf(f"{url}: the answer is not a PDF (it starts {start!r})")
    import pymupdf

    from basehalf_core.documents.document import (
        PYMUPDF_LOCK,  # pymupdf is not thread-safe (DESIGN §6)
    )

    try:
        with PYMUPDF_LOCK, pymupdf.open(stream=data, filetype="pdf") as doc:
            pages = doc.page_count
    except Exception as exc:  # pymupdf raises several types for broken files
        raise NotAPdf(f"{url}: the PDF does not open ({exc})") from None
    if pages == 0:
        raise NotAPdf(f"{url}: the PDF has no pages (truncated download?)")


def _count_anchors(ws: Workspace, name: str, digest: str) -> tuple[int, int]:
    same = other = 0
    for path in ws.downstream(name):
        grown = ws.frontmatter(path).get("grown_from")
        if isinstance(grown, dict) and grown.get("fingerprint"):
            if str(grown["fingerprint"]) == f"sha256:{digest}":
                same += 1
            else:
                other += 1
    return same, other


def _reference(
    ws: Workspace, rel: str, ident: str, data: bytes, api_url: str | None, timeout: float
) -> tuple[dict | None, str]:
    """The PDF's stored reference, fetched and saved if it is not there yet; or why not."""
    stored = cite.load(ws, rel)
    if stored is not None and stored.arxiv == ident:
        return stored.as_dict(), ""  # already known: no need to go online
    if api_url is None:
        return None, (
            "not fetched: the download URL is not arXiv's; set BASEHALF_ARXIV_API_URL "
            "to the matching API"
        )
    try:
        found = cite.fetch(ident, api_url, timeout)
    except cite.CitationError as exc:
        return None, str(exc)
    found.doi = cite.doi_in_pdf(data) or found.doi  # the PDF's own DOI: the version in hand
    try:
        cite.save(ws, rel, found)
    except WriteRefused as exc:
        return None, str(exc)
    return found.as_dict(), ""


def fetch_arxiv(
    arxiv_id: str,
    folder: str | os.PathLike,
    *,
    name: str | None = None,
    base_url: str | None = None,
    api_url: str | None = None,
    timeout: float = 10.0,
) -> Fetched:
    """Download ``<base_url><id>`` into ``folder`` as a PDF.

    Args:
        arxiv_id: e.g. ``1706.03762`` or ``1706.03762v5`` (a version pins the exact file).
        folder: the study folder.
        name: file name inside the folder; default: the one dangling PDF entry the notes name,
            else ``<id>.pdf``.
        base_url: default ``$BASEHALF_ARXIV_URL`` or ``https://arxiv.org/pdf/``.
        api_url: arXiv's query API for the reference; default ``$BASEHALF_ARXIV_API_URL``,
            else arXiv's own when the PDF comes from arXiv's own download URL.
        timeout: seconds to wait for the server (short: offline should say so quickly).

    Raises:
        BadArxivId, NoInternet, DownloadFailed, NotAPdf, FetchError (bad or taken name).
    """
    ident = check_id(arxiv_id)
    ws = Workspace.open(folder)
    name = name or expected_name(ws) or f"{ident.replace('/', '_')}.pdf"
    rel, reason = check_entry(name, "")
    if rel is None:
        raise FetchError(f"{name!r}: not a file name inside the folder ({reason})")
    if not rel.lower().endswith(".pdf"):
        raise FetchError(f"{name!r}: the name must end in .pdf")
    target = inside(ws.root, rel)
    base = base_url or os.environ.get("BASEHALF_ARXIV_URL") or DEFAULT_BASE_URL
    url = base.rstrip("/") + "/" + ident
    api = api_url or os.environ.get("BASEHALF_ARXIV_API_URL")
    if api is None and base == DEFAULT_BASE_URL:
        api = cite.DEFAULT_API_URL
    if target.exists() or target.is_symlink():
        existing = read_bytes(target) if target.is_file() else None
        if existing is None:
            raise FetchError(f"{rel}: exists and is not a file; nothing written")
        # Already fetched: check it and say so, without going online again.
        _check_pdf(existing, rel)
        digest = hashlib.sha256(existing).hexdigest()
        same, other = _count_anchors(ws, rel, digest)
        ref, problem = _reference(ws, rel, ident, existing, api, timeout)
        return Fetched(rel, len(existing), digest, url, True, same, other, ref, problem)
    data = _download(url, timeout)
    _check_pdf(data, url)
    digest = hashlib.sha256(data).hexdigest()
    operations.put(ws, rel, data)
    same, other = _count_anchors(ws, rel, digest)
    ref, problem = _reference(ws, rel, ident, data, api, timeout)
    return Fetched(rel, len(data), digest, url, False, same, other, ref, problem)


def describe(result: Fetched, folder: Path | str) -> str:
    """Human lines for the CLI: what was saved, then the reference (or why there is none)."""
    verb = "already there" if result.already_there else "saved"
    where = Path(folder) / result.path
    line = f"{verb}: {where} ({result.size:,} bytes, sha256 {result.sha256[:12]}…)"
    if result.anchors_matching or result.anchors_differing:
        line += (
            f"; {result.anchors_matching} note(s) grown from exactly this file"
            f", {result.anchors_differing} from another edition (re-anchored when opened)"
        )
    if result.citation:
        line += "\nreference: " + cite.formatted(cite.Citation(**result.citation))
    elif result.citation_problem:
        line += f"\nno reference stored: {result.citation_problem}"
    return line
