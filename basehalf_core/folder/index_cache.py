"""A persistent cache of what the index read from each note, in ``.bh/cache/index.json``.

A cold open of a big folder spends most of its time reading and parsing frontmatter. A note
whose size, mtime and inode are those recorded here is taken from the cache instead. Entries
whose mtime is within :data:`RACY_NS` of the save are not kept: a later edit in the same clock
tick with the same size would otherwise be missed (git's "racy clean" rule).

The cache is plain JSON (never pickle: nothing in a folder may run as code) and only a hint:
writes always re-read the file, an unreadable or foreign cache is ignored, a record that does
not have the expected shape is ignored (its note is parsed), and small folders (below
:data:`MIN_NODES` nodes) never get one.

Format (version 3), chosen to be cheap to load: one ``json.loads`` of flat arrays, one per
note, ``[path, mtime_ns, size, inode, title, unreadable, has_yaml, *fields, *entries]`` with
``fields`` the values of :data:`~basehalf_core.folder.plainyaml.FIELD_KEYS` (``null`` when
absent). An entry that is a plain valid path (its text is its path) is that string; any other
entry is ``[raw, path, reason, link, alias, dup]``. The store (and its entry objects) is built
only for a record whose stamp matches the file on disk.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from basehalf_core.folder import fsio, writing
from basehalf_core.folder import upstream as up
from basehalf_core.folder.plainyaml import FIELD_KEYS

CACHE_FILE = ".bh/cache/index.json"
MIN_NODES = 1000
RACY_NS = 2_000_000_000
VERSION = 3
_FIELDS = list(FIELD_KEYS)
_NF = len(FIELD_KEYS)
_HEAD = 7 + _NF  # where a record's entries start


def load(root: Path) -> dict[str, list]:
    """``{note: record}`` from the cache; ``{}`` when there is none or it is not ours."""
    try:
        data = json.loads(fsio.read_node(root, CACHE_FILE))
        if data.get("version") != VERSION or data.get("fields") != _FIELDS:
            return {}
        return {rec[0]: rec for rec in data["notes"] if type(rec) is list and len(rec) >= _HEAD}
    except (OSError, ValueError, TypeError, KeyError, AttributeError, fsio.WriteRefused):
        return {}


def store(rec: list, stamp: tuple[int, ...]) -> tuple[str, up.Store] | None:
    """``(title, store)`` of a cache record if it was made from a file with ``stamp``, else None.

    A record of the wrong shape (a planted or damaged cache) gives None too: the note is then
    read from disk like any other.
    """
    if len(stamp) != 3 or rec[1] != stamp[0] or rec[2] != stamp[1] or rec[3] != stamp[2]:
        return None
    owner, title, unreadable = rec[0], rec[4], rec[5]
    if type(title) is not str or type(unreadable) is not str:
        return None
    fields = {k: v for k, v in zip(FIELD_KEYS, rec[7:_HEAD], strict=True) if v is not None}
    entries = []
    add = entries.append
    Entry = up.Entry
    for e in rec[_HEAD:]:
        if type(e) is str:
            add(Entry(e, e))
        elif type(e) is list and len(e) == 6 and all(type(x) is str for x in e[2:]):
            raw, path, reason, link, alias, dup = e
            if type(raw) is not str or not (path is None or type(path) is str):
                return None
            add(Entry(raw, path, reason, -1, -1, link, alias, dup))
        else:
            return None
    if any(type(v) is not str for v in fields.values()):
        return None
    s = up.Store(owner=owner, unreadable=unreadable, fields=fields, entries=entries)
    s.yaml_start = 0 if rec[6] else -1
    return title, s


def _record(n) -> list:
    s = n.store
    rec = [n.path, *n.stamp, n.title, s.unreadable, s.yaml_start >= 0]
    rec += [s.fields.get(k) for k in FIELD_KEYS]
    for e in s.entries:
        if e.raw == e.path and not (e.reason or e.link or e.alias or e.dup):
            rec.append(e.raw)
        else:
            rec.append([e.raw, e.path, e.reason, e.link, e.alias, e.dup])
    return rec


def save(root: Path, nodes: list) -> None:
    """Record the notes among ``nodes`` (index nodes) whose stamps are safely in the past."""
    limit = time.time_ns() - RACY_NS
    notes = [
        _record(n)
        for n in nodes
        if n.store.fenced
        and len(n.stamp) == 3
        and n.stamp[0] < limit
        and not (n.outside_link or n.special)
    ]
    doc = {"version": VERSION, "fields": _FIELDS, "notes": notes}
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    # A read-only folder, or another process saving at the same time: just slower next time.
    with contextlib.suppress(OSError, fsio.WriteRefused):
        writing.update(root, CACHE_FILE, lambda before: data, attempts=1)
