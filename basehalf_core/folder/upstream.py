"""Read an upstream store: its entries, each with its exact span in the file.

A store is either a Markdown note's YAML frontmatter or a ``.bh/mirror/.../upstream.yaml``
file. Reading goes through YAML *events* (not values), so ``- 01`` stays the text ``01`` and
every entry keeps its exact span in the file; the edits of :mod:`upstream_edit` then replace
only those spans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import yaml

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import notes, plainyaml
from basehalf_core.folder.paths import check_entry, nfc, split_wikilink

_Loader = notes.Loader
FENCE_LIMIT = notes.FENCE_LIMIT
KEY = "upstream"
BOM = "\ufeff"


class StoreUnreadable(BasehalfError):
    """The store cannot be read safely; it has no edges and refuses writes."""


@dataclass(slots=True)
class Entry:
    """One item of an ``upstream`` list.

    Attributes:
        raw: the source text, unquoted (``"01"`` and ``01`` both give ``01``).
        path: the node it names (NFC), or ``None`` when invalid.
        reason: why it is invalid ("" when valid).
        start, end: the item's span in the decoded text (``-1`` when it has none).
        link: for an Obsidian wikilink (``"[[x|alias]]"``), the target as written (``x``);
            ``path`` is then what the workspace resolved it to (see :func:`resolve_links`).
        alias: the wikilink's alias, kept when the entry is rewritten.
    """

    raw: str
    path: str | None
    reason: str = ""
    start: int = -1
    end: int = -1
    link: str = ""
    alias: str = ""
    dup: str = ""  # for a repeated entry, the path the earlier one names


@dataclass
class Store:
    """A parsed store: its entries, or why it cannot be read, and where things sit in the text."""

    owner: str
    text: str = ""
    bom: bool = False
    newline: str = "\n"
    unreadable: str = ""
    entries: list[Entry] = field(default_factory=list)
    fields: dict[str, str] = field(default_factory=dict)
    # Where the YAML sits: [yaml_start, yaml_end) in ``text``; -1 when there is no frontmatter.
    yaml_start: int = -1
    yaml_end: int = -1
    fenced: bool = True
    # The upstream key, when present: span of its line(s) and the shape of its value.
    key_start: int = -1
    key_end: int = -1
    value_start: int = -1
    value_end: int = -1
    shape: str = ""  # block | flow | scalar | null

    @property
    def paths(self) -> list[str]:
        """Valid entries, in order."""
        return [e.path for e in self.entries if e.path is not None]


def decode(data: bytes, owner: str) -> tuple[str, bool]:
    """Bytes → text and whether a BOM was there; raises :class:`StoreUnreadable` on bad UTF-8."""
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StoreUnreadable(
            owner, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
    return (text[1:] if bom else text), bom


def read_note(data: bytes, owner: str, *, head: bool = False) -> Store:
    """Parse a Markdown note's frontmatter store. Never raises: problems land in ``unreadable``.

    Args:
        data: the note's bytes (or, with ``head``, its first bytes: a character cut at the
            end of that window is dropped, not reported as bad UTF-8).
        owner: the note's folder-relative path.
        head: ``data`` is a window on a longer file.
    """
    store = Store(owner=owner)
    try:
        store.text, store.bom = decode(notes.cut_utf8(data) if head else data, owner)
    except StoreUnreadable as exc:
        store.unreadable = exc.reason
        return store
    store.newline = notes.newline_of(store.text)
    layout = notes.locate(store.text)
    if layout.problem:
        store.unreadable = layout.problem
        return store
    if layout.yaml_start < 0:
        return store
    store.yaml_start, store.yaml_end = layout.yaml_start, layout.yaml_end
    _parse_yaml(store)
    return store


def read_mirror(data: bytes | None, owner: str) -> Store:
    """Parse a ``.bh/mirror/<node>/upstream.yaml`` store (absent file = empty store)."""
    store = Store(owner=owner, fenced=False, yaml_start=0, yaml_end=0)
    if data is None:
        return store
    try:
        store.text, store.bom = decode(data, owner)
    except StoreUnreadable as exc:
        store.unreadable = exc.reason
        return store
    store.newline = notes.newline_of(store.text)
    if store.newline == "\r":
        store.unreadable = "CR-only line ends (classic Mac); convert to LF or CRLF to edit it"
        return store
    store.yaml_start, store.yaml_end = 0, len(store.text)
    _parse_yaml(store)
    return store


def _parse_yaml(store: Store) -> None:
    src = store.text[store.yaml_start : store.yaml_end]
    base = store.yaml_start
    quick = plainyaml.parse(src, base, KEY)
    if quick is not None:
        store.fields = quick.fields
        store.key_start, store.key_end = quick.key_start, quick.key_end
        store.value_start, store.value_end = quick.value_start, quick.value_end
        store.shape = quick.shape
        for item in quick.items:
            store.entries.append(new_entry(item.raw, store.owner, item.start, item.end))
        _mark_duplicates(store)
        return
    _parse_events(store, src, base)


def _parse_events(store: Store, src: str, base: int) -> None:
    try:
        events = list(yaml.parse(src, Loader=_Loader))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = ""
        if mark is not None:
            line = store.text.count("\n", 0, base) + mark.line + 1
            where = f" at line {line}"
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        store.unreadable = (
            f"malformed YAML{' frontmatter' if store.fenced else ''}: {problem}{where}"
        )
        return
    problem = notes.check_events(events)
    if problem:
        store.unreadable = f"{problem}{' in the frontmatter' if store.fenced else ''}"
        return
    body = [e for e in events if not isinstance(e, yaml.StreamStartEvent | yaml.StreamEndEvent)]
    docs = sum(isinstance(e, yaml.DocumentStartEvent) for e in body)
    if docs == 0:
        return  # empty
    if docs > 1:
        store.unreadable = "frontmatter holds more than one YAML document"
        return
    top = body[1]
    if isinstance(top, yaml.ScalarEvent) and top.value == "" and not top.style:
        return  # only comments / blank
    if not isinstance(top, yaml.MappingStartEvent):
        store.unreadable = "frontmatter is not a mapping of keys"
        return
    i = 2
    seen = False
    while i < len(body) and not isinstance(body[i], yaml.MappingEndEvent):
        key = body[i]
        value_from = i + 1
        i = _skip(body, value_from)
        if not isinstance(key, yaml.ScalarEvent):
            continue
        if key.value != KEY:
            value = body[value_from]
            if isinstance(value, yaml.ScalarEvent) and key.value in plainyaml.FIELD_KEYS:
                store.fields[key.value] = value.value
            continue
        if seen:
            store.unreadable = "the upstream key appears twice"
            store.entries = []
            return
        seen = True
        problem = _read_upstream(store, key, body[value_from:i], base)
        if problem:
            store.unreadable = problem
            store.entries = []
            return
    _mark_duplicates(store)


def _skip(events: list, i: int) -> int:
    """Index just past the node starting at ``events[i]``."""
    depth = 0
    while True:
        e = events[i]
        if isinstance(e, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            depth += 1
        elif isinstance(e, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            depth -= 1
        i += 1
        if depth == 0:
            return i


def _read_upstream(store: Store, key, value: list, base: int) -> str:
    for e in value:
        if isinstance(e, yaml.AliasEvent):
            return "upstream uses a YAML alias (*); write the entries out"
        if getattr(e, "anchor", None):
            return "upstream uses a YAML anchor (&); write the entries out"
        if getattr(e, "tag", None) and not (isinstance(e, yaml.ScalarEvent) and e.tag == "!"):
            return f"upstream uses a YAML tag ({e.tag}); write plain entries"
    head = value[0]
    store.key_start = base + key.start_mark.index
    store.key_end = base + key.end_mark.index
    store.value_start = base + head.start_mark.index
    store.value_end = base + value[-1].end_mark.index
    if isinstance(head, yaml.MappingStartEvent):
        return "upstream is a mapping; it must be a list of paths"
    if isinstance(head, yaml.ScalarEvent):
        if head.style in ("|", ">"):
            return "upstream is a block scalar (| or >); it must be a list of paths"
        if not head.style and head.value in ("", "~", "null", "Null", "NULL"):
            store.shape = "null"
            return ""
        store.shape = "scalar"
        store.entries.append(_entry(store, head, base))
        return ""
    store.shape = "flow" if head.flow_style else "block"
    items = value[1:-1]
    store.value_end = base + value[-1].end_mark.index
    j = 0
    while j < len(items):
        item = items[j]
        nxt = _skip(items, j)
        if isinstance(item, yaml.ScalarEvent):
            if item.style in ("|", ">"):
                return "an upstream entry is a block scalar (| or >)"
            store.entries.append(_entry(store, item, base))
        else:
            start = base + item.start_mark.index
            end = base + items[nxt - 1].end_mark.index
            raw = store.text[start:end]
            store.entries.append(
                Entry(raw, None, "not a path (a nested list or mapping)", start, end)
            )
        j = nxt
    if store.shape == "block" and store.entries:
        store.value_end = store.entries[-1].end
    return ""


def _entry(store: Store, event, base: int) -> Entry:
    start, end = base + event.start_mark.index, base + event.end_mark.index
    return new_entry(event.value, store.owner, start, end)


def new_entry(raw: str, owner: str, start: int = -1, end: int = -1) -> Entry:
    """One entry from its source text: a path, or an Obsidian wikilink naming one."""
    link = split_wikilink(raw)
    if link is None:
        path, reason = check_entry(raw, owner)
        return Entry(raw, path, reason, start, end)
    target, alias = link
    path, reason = check_entry(target, owner)
    return Entry(raw, path, reason, start, end, link=target if path else "", alias=alias)


def resolve_links(store: Store, resolve: Callable[[str], str | None]) -> bool:
    """Point the store's wikilink entries at the nodes ``resolve`` finds for their targets.

    A target that names no node keeps its text as the (dangling) path. Duplicates are marked
    again afterwards, since ``[[x]]`` and ``x.md`` may now name the same node.

    Returns:
        True if any entry's path changed.
    """
    before = store.paths
    for e in store.entries:
        if e.link:
            real = resolve(e.link)
            e.path, e.reason = (real or e.link), ""
            if real is not None and nfc(real) == nfc(store.owner):
                e.path, e.reason = None, "names the node itself"
        elif e.reason == DUPLICATE:
            e.path, e.reason = check_entry(e.raw, store.owner)
    _mark_duplicates(store)
    return store.paths != before


DUPLICATE = "repeats an earlier entry"


def _mark_duplicates(store: Store) -> None:
    seen: set[str] = set()
    for e in store.entries:
        if e.path is None:
            continue
        if e.path in seen:
            e.path, e.reason, e.dup = None, DUPLICATE, e.path
        else:
            seen.add(e.path)
