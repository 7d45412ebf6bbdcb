"""The entry grammar: which strings name a node, and how nodes are named and classified."""

from __future__ import annotations

import re
import unicodedata
from pathlib import PurePosixPath

MARKDOWN_SUFFIXES = (".md", ".markdown")
MIRROR_ROOT = ".bh/mirror"
MIRROR_FILE = "upstream.yaml"

# Characters no file system or sync tool is happy with in a name; everything else stays,
# so a Chinese title gives a Chinese file name.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")  # exactly Unicode category Cc
_UNSAFE_NAME = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|#\[\]^`{}]')
# Obsidian's link form in properties: "[[target]]", "[[target|alias]]", "[[target#heading]]".
_WIKILINK = re.compile(r"\[\[([^\[\]|]*?)(?:\|([^\[\]]*))?\]\]")
LINK_FORMS = ("path", "wikilink")


def nfc(text: str) -> str:
    """Unicode NFC form, the one names are compared in."""
    return unicodedata.normalize("NFC", text)


def is_markdown(path: str) -> bool:
    """True for ``.md`` / ``.markdown`` in any case: those keep links in frontmatter."""
    return path.lower().endswith(MARKDOWN_SUFFIXES)


def is_hidden(rel: str) -> bool:
    """Hidden names (and so ``.git/`` and ``.bh/``) are never nodes."""
    return any(part.startswith(".") for part in rel.split("/"))


def mirror_store(node: str) -> str:
    """Folder-relative path of the store that holds a non-Markdown node's upstream list."""
    return f"{MIRROR_ROOT}/{node}/{MIRROR_FILE}"


def check_entry(raw: str, owner: str) -> tuple[str | None, str]:
    """Validate one upstream entry as written in ``owner``'s store.

    Args:
        raw: the entry's source text (YAML-unquoted, never type-converted).
        owner: the node whose store holds the entry.

    Returns:
        ``(path, "")`` for a valid entry (NFC, one trailing ``/`` dropped), else
        ``(None, reason)``. Duplicates are the store's business, not this function's.
    """
    if raw == "":
        return None, "empty entry"
    if raw.startswith("/"):
        return None, "absolute path; entries are relative to the folder root"
    if "\\" in raw:
        return None, "contains a backslash; use / between folders"
    if _CONTROL.search(raw):
        return None, "contains a control character"
    path = nfc(raw[:-1] if raw.endswith("/") else raw)
    parts = path.split("/")
    if any(p in ("", ".", "..") for p in parts):
        return None, "has an empty, '.' or '..' segment"
    if path == ".bh" or path.startswith(".bh/"):
        return None, "points into .bh/, basehalf's own state"
    if path == nfc(owner):
        return None, "names the node itself"
    return path, ""


def split_wikilink(raw: str) -> tuple[str, str] | None:
    """``(target, alias)`` of an Obsidian wikilink entry such as ``[[x|alias]]``, else ``None``.

    A ``#heading`` or ``#^block`` part is dropped: the link still names the file. The target
    is as written (Obsidian may leave out ``.md`` and the folders); resolving it to a node is
    the workspace's job.
    """
    m = _WIKILINK.fullmatch(raw.strip())
    if m is None:
        return None
    return m.group(1).split("#", 1)[0].strip(), (m.group(2) or "").strip()


def wikilink(path: str, alias: str = "") -> str:
    """The wikilink Obsidian reads for ``path``: the full path, ``.md`` left out for notes."""
    target = path[:-3] if path.endswith(".md") else path
    return f"[[{target}|{alias}]]" if alias else f"[[{target}]]"


def kind_for(path: str, *, is_dir: bool = False, declared: object = None) -> str:
    """The node kind shown on cards and in ``basehalf graph``."""
    if is_dir:
        return "folder"
    lower = path.lower()
    if lower.endswith(".pdf"):
        return "pdf"
    if lower.endswith(".epub"):
        return "epub"
    if is_markdown(path):
        if declared in ("practice", "grading"):
            return str(declared)
        if lower.endswith((".grading.md", ".grading.markdown")):
            return "grading"
        return "note"
    return "other"


def slugify(title: str, *, limit: int = 80) -> str:
    """A file-name stem from a title, in the title's own script.

    Latin letters are lower-cased and spaces become ``-``; characters unsafe in file names
    are dropped; the result is never empty.
    """
    text = nfc(title).strip().lower()
    text = _UNSAFE_NAME.sub(" ", text)
    text = re.sub(r"[\s'’.,;!()]+", "-", text)
    text = re.sub(r"-{2,}", "-", text).strip("-")
    text = text[:limit].rstrip("-")
    return text or "untitled"


def posix_name(path: str) -> str:
    """The last segment of a ``/`` path."""
    return PurePosixPath(path).name
