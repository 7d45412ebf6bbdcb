"""Import Zotero 7 highlights of a PDF as grown notes anchored in the PDF of the folder.

Two export shapes are read:

* **Markdown**: a note made with Zotero's "Add Note from Annotations" and exported as
  Markdown. Each highlight is a paragraph ``“text” ([Author, 2017, p. 3](zotero://select/…))
  ([pdf](zotero://open-pdf/library/items/KEY?page=3&annotation=KEY)) comment``.
* **JSON**: a list of annotations, either as the Zotero web API gives them
  (``{"key", "data": {"annotationType", "annotationText", "annotationComment",
  "annotationPageLabel", "annotationPosition": "{\\"pageIndex\\": 2, …}"}}``), the same
  ``data`` objects alone, or the reader's shape (``type``, ``text``, ``comment``,
  ``pageLabel``, ``position.pageIndex``).

Every highlight's text is found again in the PDF with the matcher Grow uses
(:func:`basehalf_core.documents.anchors.reanchor`: the recorded page, then anywhere, then a
fuzzy match); a found one becomes a note grown from that passage (its ``grown_from`` is the
document's text there, with rects and fingerprint), the Zotero comment its "Own words". A
highlight that cannot be found is an orphan: reported, nothing written. A passage some note
was already grown from is not grown twice, so importing the same export again adds nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from basehalf_core.documents.anchors import BadAnchor, reanchor
from basehalf_core.documents.document import fold, normalise
from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import branch

TEXT_TYPES = ("highlight", "underline")
_OPEN_PDF = re.compile(
    r"\(\[pdf\]\(zotero://open-pdf/[^)?]*\?page=(?P<page>\d+)(?:&annotation=(?P<key>\w+))?\)\)"
)
_CITATION = re.compile(r"\(\[(?P<label>[^\]]*)\]\(zotero://select/[^)]*\)\)")
_QUOTED = re.compile(r"^[“\"](?P<text>.*)[”\"]\s*(?=\(\[)", re.S)
_PAGE_LABEL = re.compile(r"\bp+\.\s*(?P<page>\d+)")


class ZoteroImportError(BasehalfError):
    """The export cannot be read; the message names the file and why."""


@dataclass(frozen=True)
class Highlight:
    """One text annotation from the export: its text, 1-based page (if known), comment, key."""

    text: str
    page: int | None
    comment: str = ""
    key: str = ""


@dataclass
class Result:
    """What the import did, one entry per highlight, in the export's order."""

    grown: list[dict] = field(default_factory=list)
    already: list[dict] = field(default_factory=list)
    orphans: list[dict] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "grown": self.grown,
            "already_imported": self.already,
            "orphans": self.orphans,
            "skipped": self.skipped,
        }


# --- reading the export ---------------------------------------------------------------------


def parse_markdown(text: str) -> tuple[list[Highlight], list[dict]]:
    """Highlights of a Markdown "note from annotations", and paragraphs skipped (with why)."""
    out, skipped = [], []
    for para in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        para = para.strip()
        link = _OPEN_PDF.search(para)
        if link is None:
            continue  # headings, the date line, the learner's own paragraphs
        quoted = _QUOTED.match(para)
        if quoted is None:
            skipped.append(
                {"annotation": link.group("key") or para[:40], "reason": "not a text highlight"}
            )
            continue
        page = int(link.group("page"))
        comment = para[link.end() :].strip()
        cite = _CITATION.search(para)
        if cite is not None and cite.end() > link.end():
            comment = para[cite.end() :].strip()
        out.append(
            Highlight(
                " ".join(quoted.group("text").split()), page, comment, link.group("key") or ""
            )
        )
    return out, skipped


def _position(value: object) -> dict:
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            return {}
    return value if isinstance(value, dict) else {}


def _page(position: dict, label: object) -> int | None:
    index = position.get("pageIndex")
    if isinstance(index, int) and not isinstance(index, bool) and index >= 0:
        return index + 1
    text = str(label or "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else None


def parse_json(doc: object) -> tuple[list[Highlight], list[dict]]:
    """Highlights of a JSON export (web API items, their ``data``, or the reader's shape)."""
    items = doc.get("annotations") if isinstance(doc, dict) else doc
    if not isinstance(items, list):
        raise ValueError("expected a list of annotations (or {'annotations': [...]})")
    out, skipped = [], []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            skipped.append({"annotation": f"#{i + 1}", "reason": "not an object"})
            continue
        data = item.get("data") if isinstance(item.get("data"), dict) else item
        key = str(item.get("key") or data.get("key") or item.get("id") or f"#{i + 1}")
        kind = data.get("annotationType", data.get("type"))
        text = data.get("annotationText", data.get("text"))
        if kind not in TEXT_TYPES or not isinstance(text, str) or not text.strip():
            skipped.append({"annotation": key, "reason": f"not a text highlight ({kind!r})"})
            continue
        position = _position(data.get("annotationPosition", data.get("position")))
        page = _page(position, data.get("annotationPageLabel", data.get("pageLabel")))
        comment = data.get("annotationComment", data.get("comment")) or ""
        out.append(Highlight(" ".join(text.split()), page, str(comment).strip(), key))
    return out, skipped


def read_export(data: bytes, name: str) -> tuple[list[Highlight], list[dict]]:
    """Highlights of an export file: JSON if it parses as JSON, else Markdown.

    Raises:
        ZoteroImportError: not UTF-8, JSON of the wrong shape, or no highlight at all.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ZoteroImportError(f"{name}: not UTF-8 (byte at offset {exc.start})") from None
    stripped = text.lstrip()
    if stripped[:1] in "[{":
        try:
            doc = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ZoteroImportError(
                f"{name}: not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from None
        try:
            found = parse_json(doc)
        except ValueError as exc:
            raise ZoteroImportError(f"{name}: {exc}") from None
    else:
        found = parse_markdown(text)
    if not found[0]:
        raise ZoteroImportError(
            f"{name}: no highlights found (expected Zotero's Markdown note from annotations "
            "or a JSON list of annotations)"
        )
    return found


# --- growing the notes ----------------------------------------------------------------------


def _grown_quotes(ws: Workspace, pdf: str) -> set[str]:
    """Folded quotes of the notes already grown from ``pdf``."""
    out = set()
    for note in ws.downstream(pdf):
        grown = ws.frontmatter(note).get("grown_from")
        if isinstance(grown, dict) and grown.get("file") == pdf and grown.get("quote"):
            out.add(fold(normalise(str(grown["quote"]))))
    return out


def _own_words(comment: str) -> str:
    # The comment is data: keep it from opening HTML or a Markdown block in the note.
    return branch.body_safe(" ".join(comment.split())) or "…"


def import_highlights(
    ws: Workspace, pdf: str, highlights: list[Highlight], password: str | None = None
) -> Result:
    """Grow one note per highlight found in ``pdf``; report the rest.

    Raises:
        branch.NotADocumentNode, DocumentError: ``pdf`` is not a readable document of the folder.
    """
    rel, doc = branch.open_node_document(ws, pdf, password)
    done = _grown_quotes(ws, rel)
    result = Result()
    for h in highlights:
        label = {"annotation": h.key or h.text[:40], "page": h.page}
        try:
            anchor = reanchor(doc, {"quote": h.text, "page": h.page or 1})
        except BadAnchor as exc:
            result.skipped.append({**label, "reason": str(exc)})
            continue
        if anchor.status == "orphan" or not anchor.word_indices:
            result.orphans.append({**label, "text": h.text, "reason": anchor.note})
            continue
        passage = replace(doc.passage(anchor.page - 1, anchor.word_indices), file=rel)
        key = fold(normalise(passage.quote))
        where = {**label, "found_page": anchor.page, "status": _status(anchor, h.page)}
        if key in done:
            result.already.append(where)
            continue
        title = branch.default_title(passage)
        fields, body = branch.passage_note(passage, title, folder := rel.rpartition("/")[0])
        if h.key:
            fields["zotero_annotation"] = h.key
        body = body.replace("Own words: …", f"Own words: {_own_words(h.comment)}")
        note = operations.grow(ws, title, upstream=[rel], fields=fields, body=body, folder=folder)
        done.add(key)
        result.grown.append({**where, "note": note})
    return result


def _status(anchor, page: int | None) -> str:
    """found (on the page Zotero gave), moved (another page), or fuzzy (text differs)."""
    if anchor.status == "fuzzy":
        return "fuzzy"
    return "found" if page is None or anchor.page == page else "moved"
