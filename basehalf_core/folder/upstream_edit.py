"""Plan minimal text edits to an upstream store, and write new frontmatter text.

Edits replace only the spans :mod:`basehalf_core.folder.upstream` read, so every other byte
(comments, quoting, key order, BOM, CRLF, the body) stays as it was. New text is written the
same way: :func:`format_scalar` for one value, :func:`render_fields` for the frontmatter
lines of a new note.
"""

from __future__ import annotations

import json
import re

import yaml

from basehalf_core.folder import notes
from basehalf_core.folder.paths import nfc, wikilink
from basehalf_core.folder.upstream import (
    BOM,
    DUPLICATE,
    KEY,
    Entry,
    Store,
    StoreUnreadable,
)

_YAML_SPECIAL_START = set("-?:,[]{}#&*!|>'\"%@`")
_UNPRINTABLE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff]")
_NEEDS_QUOTES = (": ", " #", "[", "]", "{", "}", ",", '"', "'")


def format_scalar(value: str) -> str:
    """Write a string so YAML reads back exactly that string."""
    if _plain_ok(value):
        return value
    # YAML allows no raw C0/C1 controls, even quoted: write those (and only those) as escapes.
    return _UNPRINTABLE.sub(
        lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False)
    )


def _plain_ok(value: str) -> bool:
    if not value or value != value.strip() or value[0] in _YAML_SPECIAL_START:
        return False
    if value.endswith(":") or any(s in value for s in _NEEDS_QUOTES):
        return False
    if any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in value):
        return False
    try:
        return yaml.load(value, Loader=notes.Loader) == value
    except yaml.YAMLError:
        return False


def render_fields(fields: dict, indent: str = "", nl: str = "\n") -> str:
    """YAML lines for frontmatter fields, in the given order, strings quoted only when needed."""
    out = []
    for key, value in fields.items():
        if isinstance(value, dict):
            out.append(f"{indent}{key}:{nl}{render_fields(value, indent + '  ', nl)}")
        else:
            out.append(f"{indent}{key}: {_flow(value)}{nl}")
    return "".join(out)


def _flow(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return format_scalar(str(value))


def _line_start(text: str, i: int) -> int:
    return max(text.rfind("\n", 0, i), text.rfind("\r", 0, i)) + 1


_line_end = notes.line_end
_newline_of = notes.newline_of


def _item_line_end(text: str, entry: Entry) -> int:
    # A nested item's end mark can sit at the start of the next line; step back into its own.
    return _line_end(text, max(entry.end - 1, entry.start))


def _indent_of(text: str, i: int) -> str:
    start = _line_start(text, i)
    m = re.match(r"[ \t]*", text[start:])
    return m.group(0) if m else ""


def _matches(entry: Entry, target: str) -> bool:
    if entry.path is not None:
        return entry.path == target
    # Duplicates lost their path; they still name the target and go with it.
    raw = nfc(entry.raw[:-1] if entry.raw.endswith("/") else entry.raw)
    return entry.reason == DUPLICATE and target in (raw, entry.dup)


def _require_writable(store: Store) -> None:
    if store.unreadable:
        raise StoreUnreadable(store.owner, f"{store.unreadable}; not changed")


def add(store: Store, target: str, form: str = "path") -> str | None:
    """Text with ``target`` appended to the upstream list, or ``None`` if it is already there.

    ``form="wikilink"`` writes ``"[[target]]"`` (Obsidian's property links) instead of the path.
    """
    _require_writable(store)
    if target in store.paths:
        return None
    text, nl = store.text, store.newline
    item = format_scalar(wikilink(target) if form == "wikilink" else target)
    if store.yaml_start < 0:
        block = f"---{nl}{KEY}:{nl}  - {item}{nl}---{nl}"
        return block + text
    if store.key_start < 0:
        at = store.yaml_end
        lead = "" if at == 0 or text[at - 1] in "\r\n" else nl
        return text[:at] + f"{lead}{KEY}:{nl}  - {item}{nl}" + text[at:]
    if store.shape == "block":
        last = store.entries[-1]
        indent = _indent_of(text, last.start)
        at = _item_line_end(text, last)
        lead = "" if text[at - 1 : at] in ("\n", "\r") else nl
        return text[:at] + f"{lead}{indent}- {item}{nl}" + text[at:]
    if store.shape == "flow":
        close = store.value_end - 1  # the ']'
        if store.entries:
            at = store.entries[-1].end
            return text[:at] + f", {item}" + text[at:]
        return text[:close] + item + text[close:]
    # null or a single scalar: turn it into a block list
    items = [text[e.start : e.end] for e in store.entries] + [item]
    return _replace_value(store, items)


def _replace_value(store: Store, items: list[str]) -> str:
    text, nl = store.text, store.newline
    start = _line_start(text, store.key_start)
    end = _line_end(text, max(store.value_end - 1, store.key_start))
    key_part = text[start : store.key_end] + ":"
    lines = [key_part] + [f"  - {i}" for i in items]
    return text[:start] + nl.join(lines) + nl + text[end:]


def remove(store: Store, target: str) -> str | None:
    """Text without any entry naming ``target``, or ``None`` if none does."""
    _require_writable(store)
    return _remove_hits(store, [e for e in store.entries if _matches(e, target)])


def _remove_hits(store: Store, hits: list[Entry]) -> str | None:
    if not hits:
        return None
    keep = [e for e in store.entries if e not in hits]
    if not keep:
        return _drop_key(store)
    text = store.text
    if store.shape == "block":
        return _apply(
            text, [(_line_start(text, e.start), _item_line_end(text, e), "") for e in hits]
        )
    if store.shape == "flow":
        return _apply(text, _flow_removals(store, hits))
    return _drop_key(store)  # scalar: the one entry was the hit


def _flow_removals(store: Store, hits: list[Entry]) -> list[tuple[int, int, str]]:
    """Edits that take ``hits`` out of a flow list, keeping every comment and line break.

    An entry goes with the separator after it (its own trailing comment included); a run of
    entries at the end goes with the comma after the last kept entry, so the comments between
    them and that entry stay.
    """
    text, entries = store.text, store.entries
    edits = []
    tail = len(entries)
    while tail > 0 and entries[tail - 1] in hits:
        tail -= 1
    for i, e in enumerate(entries):
        if e not in hits:
            continue
        if i < tail or i + 1 < len(entries):
            edits.append((e.start, entries[i + 1].start, ""))
        else:
            edits.append((e.start, e.end, ""))
    if 0 < tail < len(entries):
        sep_from, sep_to = entries[tail - 1].end, entries[tail].start
        if "#" in text[sep_from:sep_to] or "\n" in text[sep_from:sep_to]:
            comma = text.index(",", sep_from)
            edits.append((comma, comma + 1, ""))
        else:
            edits.append((sep_from, sep_to, ""))
    return edits


def _drop_key(store: Store) -> str:
    text = store.text
    start = _line_start(text, store.key_start)
    end = _line_end(text, max(store.value_end - 1, store.key_start))
    new = text[:start] + text[end:]
    yaml_end = store.yaml_end - (end - start)
    if new[store.yaml_start : yaml_end].strip() == "":
        if not store.fenced:
            return ""
        # The block held nothing else: remove it, fences and all.
        close_end = _line_end(new, yaml_end)
        return new[close_end:]
    return new


def replace(store: Store, old: str, new: str) -> str | None:
    """Text with every entry naming ``old`` rewritten to ``new`` (``None`` if none names it).

    If ``new`` is already listed, the ``old`` entries are removed instead of duplicating it.
    """
    _require_writable(store)
    return _replace_hits(store, [e for e in store.entries if _matches(e, old)], new)


def replace_link(store: Store, link: str, new: str) -> str | None:
    """Text with every wikilink whose target is written ``link`` pointed at ``new`` instead.

    For a move: the caller found, before the file moved, which wikilinks named it (a short
    ``[[b]]`` may name ``notes/b.md``), since afterwards they no longer resolve to it.
    """
    _require_writable(store)
    return _replace_hits(store, [e for e in store.entries if e.link == link], new)


def _replace_hits(store: Store, hits: list[Entry], new: str) -> str | None:
    if not hits:
        return None
    if new in store.paths:
        return _remove_hits(store, hits)
    text = store.text
    # A wikilink stays a wikilink (alias kept), a path a path.
    first = hits[0]
    item = format_scalar(wikilink(new, first.alias) if first.link else new)
    edits = [(hits[0].start, hits[0].end, item)]
    if store.shape == "flow":
        edits += _flow_removals(store, hits[1:])
    else:
        edits += [(_line_start(text, e.start), _item_line_end(text, e), "") for e in hits[1:]]
    return _apply(text, edits)


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, pos = [], 0
    for start, end, repl in sorted(edits):
        out += [text[pos:start], repl]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def encode(store: Store, text: str) -> bytes:
    """Text back to bytes, with the BOM it came with."""
    return ((BOM if store.bom else "") + text).encode("utf-8")
