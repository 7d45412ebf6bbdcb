"""A persistent cache of what the index read from each note, in ``.bh/cache/index.json``.

A cold open of a big folder spends most of its time reading and parsing frontmatter. A note
whose size, mtime and inode are those recorded here is taken from the cache instead. Entries
whose mtime is within :data:`RACY_NS` of the save are not kept: a later edit in the same clock
tick with the same size would otherwise be missed (git's "racy clean" rule).

The cache is plain JSON (never pickle: nothing in a folder may run as code) and only a hint:
writes always re-read the file, an unreadable or foreign cache is ignored, and small folders
(below :data:`MIN_NODES` nodes) never get one.
"""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path

from basehalf_core.folder import fsio
from basehalf_core.folder import upstream as up

CACHE_FILE = ".bh/cache/index.json"
MIN_NODES = 1000
RACY_NS = 2_000_000_000
VERSION = 2


def load(root: Path) -> dict[str, tuple[tuple[int, ...], str, up.Store]]:
    """``{note: (stamp, title, store)}`` from the cache; ``{}`` when there is none or it is bad."""
    try:
        data = json.loads(fsio.read_node(root, CACHE_FILE))
        if data.get("version") != VERSION:
            return {}
        out = {}
        for rel, (stamp, title, unreadable, has_yaml, fields, entries) in data["notes"].items():
            store = up.Store(owner=rel, unreadable=unreadable, fields=dict(fields))
            store.yaml_start = 0 if has_yaml else -1
            store.entries = [
                up.Entry(raw, path, reason, -1, -1, link, alias, dup)
                for raw, path, reason, link, alias, dup in entries
            ]
            out[rel] = (tuple(stamp), title, store)
        return out
    except (OSError, ValueError, TypeError, KeyError, AttributeError, fsio.WriteRefused):
        return {}


def save(root: Path, nodes: list) -> None:
    """Record the notes among ``nodes`` (index nodes) whose stamps are safely in the past."""
    limit = time.time_ns() - RACY_NS
    notes = {
        n.path: [
            list(n.stamp),
            n.title,
            n.store.unreadable,
            n.store.yaml_start >= 0,
            n.store.fields,
            [[e.raw, e.path, e.reason, e.link, e.alias, e.dup] for e in n.store.entries],
        ]
        for n in nodes
        if n.store.fenced
        and len(n.stamp) == 3
        and n.stamp[0] < limit
        and not (n.outside_link or n.special)
    }
    data = json.dumps({"version": VERSION, "notes": notes}, ensure_ascii=False).encode("utf-8")
    # A read-only folder, or another process saving at the same time: just slower next time.
    with contextlib.suppress(OSError, fsio.WriteRefused):
        fsio.update(root, CACHE_FILE, lambda before: data, attempts=1)
