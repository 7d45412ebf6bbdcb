"""A paper's reference: metadata from arXiv's Atom API, kept in the PDF's mirror store.

``basehalf fetch-arxiv`` asks ``<api>?id_list=<id>`` for the paper's title, authors, first
version's year and DOI, adds a DOI the PDF itself prints (a journal version's stamp), and
saves it as ``.bh/mirror/<pdf>/citation.yaml`` through the folder's one write path, so it
moves with the PDF. The export lists it as BibTeX and as one formatted line.

The answer is data from the network: parsed with the standard library's XML parser (which
fetches no external entity), capped in size, and written as plain YAML strings.
"""

from __future__ import annotations

import re
import unicodedata
import urllib.parse
import xml.etree.ElementTree as ET
from dataclasses import asdict, dataclass, field

import yaml

from basehalf_core.documents import web
from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.fsio import inside, read_bytes
from basehalf_core.folder.paths import MIRROR_ROOT
from basehalf_core.folder.workspace import Workspace

DEFAULT_API_URL = "https://export.arxiv.org/api/query"
FILE_NAME = "citation.yaml"
MAX_BYTES = 1024 * 1024
_NS = {"a": "http://www.w3.org/2005/Atom", "arxiv": "http://arxiv.org/schemas/atom"}
_DOI = re.compile(r"\b10\.\d{4,9}/[^\s\"'<>]+")
_BIB_SPECIAL = re.compile(r"([&%$#_{}])")


class CitationError(BasehalfError):
    """No metadata was had; the message says why. Nothing was written."""


@dataclass
class Citation:
    """What a reference needs. ``arxiv`` is the id as fetched (a version pins the file)."""

    title: str
    authors: list[str] = field(default_factory=list)
    year: int | None = None
    arxiv: str = ""
    doi: str = ""
    primary_class: str = ""
    url: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


def _text(node: ET.Element | None) -> str:
    return " ".join((node.text or "").split()) if node is not None else ""


def parse_atom(data: bytes, arxiv_id: str) -> Citation:
    """The citation in an arXiv API answer for one id.

    Raises:
        CitationError: not Atom XML, no entry, or arXiv's error entry.
    """
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise CitationError(f"arXiv's answer is not XML ({exc})") from None
    entry = root.find("a:entry", _NS)
    if entry is None:
        raise CitationError(f"arXiv has no entry for {arxiv_id}")
    title = _text(entry.find("a:title", _NS))
    entry_id = _text(entry.find("a:id", _NS))
    if not title or title == "Error" or "/api/errors" in entry_id:
        why = _text(entry.find("a:summary", _NS)) or "no title"
        raise CitationError(f"arXiv has no paper {arxiv_id} ({why})")
    published = _text(entry.find("a:published", _NS))
    year = int(published[:4]) if published[:4].isdigit() else None
    primary = entry.find("arxiv:primary_category", _NS)
    return Citation(
        title=title,
        authors=[
            a for a in (_text(x.find("a:name", _NS)) for x in entry.findall("a:author", _NS)) if a
        ],
        year=year,
        arxiv=arxiv_id,
        doi=_text(entry.find("arxiv:doi", _NS)),
        primary_class=primary.get("term", "") if primary is not None else "",
        url=f"https://arxiv.org/abs/{arxiv_id}",
    )


def fetch(arxiv_id: str, api_url: str, timeout: float = 10.0) -> Citation:
    """Ask arXiv's API (or a mirror of it at ``api_url``) for one paper.

    Raises:
        CitationError: unreachable, an HTTP error, or an answer without the paper.
    """
    url = f"{api_url}?{urllib.parse.urlencode({'id_list': arxiv_id, 'max_results': 1})}"
    try:
        data = web.get(url, MAX_BYTES, timeout)
    except (web.Unreachable, web.BadAnswer) as exc:
        raise CitationError(str(exc)) from None
    return parse_atom(data, arxiv_id)


def doi_in_pdf(data: bytes) -> str:
    """A DOI the PDF gives: its metadata, else the text of its first two pages ("" if none)."""
    import pymupdf

    from basehalf_core.documents.document import PYMUPDF_LOCK  # pymupdf is not thread-safe

    try:
        with PYMUPDF_LOCK, pymupdf.open(stream=data, filetype="pdf") as doc:
            meta = " ".join(str(v) for v in (doc.metadata or {}).values() if v)
            text = meta + " " + " ".join(doc[i].get_text() for i in range(min(2, doc.page_count)))
    except Exception:  # a PDF that does not open has no DOI to give; fetch checked it opens
        return ""
    m = _DOI.search(text)
    return m.group(0).rstrip(".,;)]") if m else ""


# --- the stored reference -------------------------------------------------------------------


def store_path(pdf: str) -> str:
    """Folder-relative path of a document's stored citation."""
    return f"{MIRROR_ROOT}/{pdf}/{FILE_NAME}"


def save(ws: Workspace, pdf: str, citation: Citation) -> str:
    """Write the citation beside the PDF's upstream store (compare-and-swap); returns its path."""
    data = yaml.safe_dump(
        citation.as_dict(), sort_keys=False, allow_unicode=True, default_flow_style=False
    ).encode("utf-8")
    return operations.write_mirror_file(ws, pdf, FILE_NAME, data)


def load(ws: Workspace, pdf: str) -> Citation | None:
    """The stored citation of a document, or ``None`` (no file, or not a usable one)."""
    try:
        data = read_bytes(inside(ws.root, store_path(pdf)))
    except OSError:
        return None
    if data is None:
        return None
    try:
        doc = yaml.safe_load(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("title"), str):
        return None
    authors = doc.get("authors") if isinstance(doc.get("authors"), list) else []
    year = doc.get("year") if isinstance(doc.get("year"), int) else None
    return Citation(
        title=doc["title"],
        authors=[str(a) for a in authors],
        year=year,
        **{k: str(doc.get(k) or "") for k in ("arxiv", "doi", "primary_class", "url")},
    )


# --- formats --------------------------------------------------------------------------------


def _split_name(name: str) -> tuple[str, str]:
    """(given, family): arXiv gives "Given Family"; the last word is the family name."""
    parts = name.split()
    return (" ".join(parts[:-1]), parts[-1]) if len(parts) > 1 else ("", name)


def _ascii(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def bibtex_key(c: Citation) -> str:
    """``vaswani2017attention``: family name, year, first long word of the title."""
    family = _split_name(c.authors[0])[1] if c.authors else "anon"
    word = next((w for w in re.findall(r"[A-Za-z]+", _ascii(c.title)) if len(w) > 3), "paper")
    return re.sub(r"[^a-z0-9]", "", f"{_ascii(family)}{c.year or ''}{word}".lower()) or "paper"


def _bib(text: str) -> str:
    return _BIB_SPECIAL.sub(r"\\\1", text)


def bibtex(c: Citation) -> str:
    """The reference as a BibTeX ``@misc`` entry (arXiv's own export uses that type)."""
    authors = " and ".join(
        f"{_bib(f)}, {_bib(g)}" if g else _bib(f) for g, f in map(_split_name, c.authors)
    )
    fields = [("title", f"{{{_bib(c.title)}}}"), ("author", authors)]
    if c.year:
        fields.append(("year", str(c.year)))
    if c.arxiv:
        base = re.sub(r"v\d+$", "", c.arxiv)
        fields += [("eprint", base), ("archivePrefix", "arXiv")]
        if c.primary_class:
            fields.append(("primaryClass", c.primary_class))
    if c.doi:
        fields.append(("doi", _bib(c.doi)))
    if c.url:
        fields.append(("url", c.url))
    body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields if v)
    return f"@misc{{{bibtex_key(c)},\n{body}\n}}"


def formatted(c: Citation) -> str:
    """One author-year line: ``Vaswani, A., …, & Polosukhin, I. (2017). Title. arXiv:…``."""
    names = []
    for given, family in map(_split_name, c.authors):
        initials = " ".join(f"{p[0]}." for p in given.replace("-", " ").split() if p)
        names.append(f"{family}, {initials}" if initials else family)
    if len(names) > 20:
        names = [*names[:19], "…", names[-1]]
    if len(names) < 2:
        who = names[0] if names else "Anonymous"
    else:
        who = ", ".join(names[:-1]) + f", & {names[-1]}"
    line = f"{who} ({c.year or 'n.d.'}). {c.title.rstrip('.')}."
    if c.arxiv:
        line += f" arXiv:{c.arxiv}."
    if c.doi:
        line += f" https://doi.org/{c.doi}"
    return line
