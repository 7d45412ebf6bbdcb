"""The only code that writes the study folder: grow, connect, disconnect, move, relink, delete.

Each write reads the bytes, plans a minimal edit, and hands the result to
:func:`~basehalf_core.folder.fsio.atomic_write` with the bytes it read, so an edit made on
disk in the meantime is refused rather than clobbered. After a write the workspace index is
updated from the bytes just saved.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import upstream as up
from basehalf_core.folder.fsio import AlreadyExists, WriteRefused, atomic_write, inside, read_bytes
from basehalf_core.folder.paths import (
    MIRROR_FILE,
    MIRROR_ROOT,
    check_entry,
    is_markdown,
    mirror_store,
    nfc,
    slugify,
    split_wikilink,
    wikilink,
)
from basehalf_core.folder.workspace import Workspace


class OperationRefused(BasehalfError):
    """An operation was not carried out; the message names the file and why."""


@dataclass
class Report:
    """What a refactoring operation (move, relink) changed, and what it had to leave."""

    updated: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"updated": self.updated, "skipped": self.skipped}


def _store_path(ws: Workspace, node: str) -> str:
    return node if is_markdown(node) and ws.nodes[node].kind != "folder" else mirror_store(node)


def _read_store(ws: Workspace, node: str) -> tuple[str, bytes | None, up.Store]:
    """Read a node's store fresh from disk (never trust the index for a write)."""
    node_obj = ws.nodes[node]
    if node_obj.outside_link:
        raise OperationRefused(node, node_obj.store.unreadable)
    rel = _store_path(ws, node)
    data = read_bytes(inside(ws.root, rel))
    if rel == node:
        if data is None:
            raise OperationRefused(node, "the file is gone from disk")
        store = up.read_note(data, node)
    else:
        store = up.read_mirror(data, node)
    ws.resolve_links(store)  # an Obsidian "[[x]]" names the node the index resolves it to
    return rel, data, store


def _write_store(ws: Workspace, rel: str, before: bytes | None, store: up.Store, text: str) -> None:
    full = inside(ws.root, rel)
    if not store.fenced and text.strip() == "":
        # The mirror store lost its last entry: remove the file instead of leaving an empty one.
        if read_bytes(full) != before:
            raise WriteRefused(rel, "changed on disk since it was read; nothing written")
        full.unlink()
        ws.saved(rel, None)
        return
    data = up.encode(store, text)
    atomic_write(full, data, expected=before)
    ws.saved(rel, data)


def _edit_entries(ws: Workspace, node: str, plan: Callable[[up.Store], str | None]) -> bool:
    rel, before, store = _read_store(ws, node)
    try:
        text = plan(store)
    except up.StoreUnreadable as exc:
        raise OperationRefused(node, exc.reason) from None
    if text is None:
        return False
    _write_store(ws, rel, before, store, text)
    return True


def _entry_for(ws: Workspace, target: str, owner: str, *, must_exist: bool = True) -> str:
    path, reason = check_entry(target, owner)
    if path is None:
        raise OperationRefused(
            target, f"cannot be listed upstream of {owner or 'a new note'}: {reason}"
        )
    real = ws.resolve(path)
    if must_exist and real is None:
        raise OperationRefused(target, "no such file in the folder")
    return real or path


def _existing(ws: Workspace, path: str) -> str:
    real = ws.resolve(path)
    if real is None:
        raise OperationRefused(path, "no such file in the folder")
    return real


def connect(ws: Workspace, upstream: str, downstream: str) -> bool:
    """Add ``upstream → downstream`` (stored in the downstream node). True if a write happened."""
    down = _existing(ws, downstream)
    target = _entry_for(ws, upstream, down)
    return _edit_entries(ws, down, lambda s: up.add(s, nfc(target), ws.link_form))


def disconnect(ws: Workspace, upstream: str, downstream: str) -> bool:
    """Remove ``upstream → downstream``. True if a write happened; a missing link is fine."""
    down = _existing(ws, downstream)
    path, _ = check_entry(upstream, "")
    target = path if path is not None else upstream
    return _edit_entries(ws, down, lambda s: up.remove(s, nfc(target)))


def edit(ws: Workspace, path: str, transform: Callable[[str], str]) -> bool:
    """Rewrite a note basehalf owns (e.g. append a grading run), compare-and-swap.

    Returns:
        True if the text changed and was written.
    """
    node = _existing(ws, path)
    full = inside(ws.root, node)
    before = read_bytes(full)
    if before is None:
        raise OperationRefused(node, "the file is gone from disk")
    store = up.read_note(before, node)
    if store.unreadable and store.unreadable.startswith("not UTF-8"):
        raise OperationRefused(node, store.unreadable)
    new = transform(store.text)
    if new == store.text:
        return False
    data = up.encode(store, new)
    atomic_write(full, data, expected=before)
    ws.saved(node, data)
    return True


def write_mirror_file(ws: Workspace, node: str, name: str, data: bytes) -> str:
    """Write one of basehalf's own files about a node beside its upstream store.

    The file is ``.bh/mirror/<node>/<name>``, so it moves with the node. The write is a
    compare-and-swap against the bytes read just before; the same bytes write nothing.

    Returns:
        The folder-relative path of the file.

    Raises:
        OperationRefused: no such node, or ``name`` is not a plain file name other than the
            upstream store's own.
    """
    real = _existing(ws, node)
    if not name or "/" in name or name in (".", "..", MIRROR_FILE) or name.startswith("."):
        raise OperationRefused(name or "(empty)", "not a usable name for a mirror file")
    rel = f"{MIRROR_ROOT}/{real}/{name}"
    full = inside(ws.root, rel)
    before = read_bytes(full)
    if before != data:
        atomic_write(full, data, expected=before)
    return rel


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
    return up.format_scalar(str(value))


def grow(
    ws: Workspace,
    title: str,
    *,
    upstream: list[str],
    fields: dict | None = None,
    body: str = "",
    folder: str = "",
    name: str | None = None,
) -> str:
    """Create a new note whose first bytes name its upstream; never overwrites.

    Args:
        ws: the workspace.
        title: the note's heading; its slug names the file unless ``name`` is given.
        upstream: entries for the new note (each must name an existing node).
        fields: further frontmatter keys, written after ``upstream`` in this order.
        body: Markdown after the heading.
        folder: folder-relative folder to create the note in ("" = the root).
        name: an exact file name; made unique (``-2``, ``-3``) like a slug would be.

    Returns:
        The new note's folder-relative path.
    """
    title = " ".join(title.split()) or "Untitled"
    base = name or f"{slugify(title)}.md"
    if "/" in base or check_entry(base, "")[0] is None or not is_markdown(base):
        raise OperationRefused(base, "not a usable note name (a .md name without folders)")
    stem, suffix = base[: base.rfind(".")], base[base.rfind(".") :]
    if folder:
        _existing(ws, folder)
    entries = [nfc(_entry_for(ws, u, "")) for u in upstream]
    if ws.link_form == "wikilink":
        entries = [wikilink(e) for e in entries]
    lines = ["---", "upstream:"] + [f"  - {up.format_scalar(e)}" for e in entries]
    if not entries:
        lines = ["---"]
    head = "\n".join(lines) + "\n" + render_fields(fields or {}) + "---\n"
    text = f"{head}# {title}\n\n{body.rstrip()}\n" if body.strip() else f"{head}# {title}\n"
    data = text.encode("utf-8")
    for n in range(1, 1000):
        candidate = base if n == 1 else f"{stem}-{n}{suffix}"
        rel = f"{folder}/{candidate}" if folder else candidate
        if ws.resolve(rel) is not None:
            continue
        try:
            atomic_write(inside(ws.root, rel), data, expected=None)
        except AlreadyExists:
            continue  # appeared on disk since the last scan
        ws.added(rel)
        return rel
    raise OperationRefused(base, "no free name after 999 tries")


def _wikilinks_to(ws: Workspace, rename: Callable[[str], str | None]) -> dict[str, list]:
    """Before a move: ``{holder: [(link as written, new path)]}`` for wikilinks naming it.

    Taken while the old path still exists: afterwards a short ``[[b]]`` no longer resolves
    to what it named. Holders are keyed by their path after the move.
    """
    out: dict[str, list] = {}
    for node, store in ((p, ws.nodes[p].store) for p in ws.wikilink_holders()):
        pairs = [(e.link, rename(e.path)) for e in store.entries if e.link and e.path]
        pairs = [(a, b) for a, b in pairs if b is not None]
        if pairs:
            out[rename(node) or node] = pairs
    return out


def _rewrite_everywhere(
    ws: Workspace,
    rename: Callable[[str], str | None],
    report: Report,
    old: str,
    links: dict[str, list] | None = None,
) -> None:
    """Replace, in every store, each entry that ``rename`` maps to a new path.

    ``links`` are wikilinks found (by :func:`_wikilinks_to`) to name a moved path.
    """
    links = links or {}
    for node in sorted(ws.nodes):
        store = ws.nodes[node].store
        plans = [
            lambda s, o=a, n=b: up.replace(s, o, n)
            for a, b in [(p, rename(p)) for p in store.paths]
            + [(e.raw, rename(nfc(e.raw))) for e in store.entries if e.path is None]
            if b is not None
        ]
        plans += [lambda s, o=a, n=b: up.replace_link(s, o, n) for a, b in links.get(node, [])]
        if store.unreadable:
            if _mentions(ws, node, old):
                report.skipped.append({"path": node, "reason": store.unreadable})
            continue
        if not plans:
            continue
        try:
            changed = False
            for plan in plans:
                changed |= _edit_entries(ws, node, plan)
            if changed:
                report.updated.append(node)
        except (OperationRefused, WriteRefused) as exc:
            report.skipped.append({"path": node, "reason": exc.reason})


def _mentions(ws: Workspace, node: str, old: str) -> bool:
    """Whether an unreadable store seems to name ``old`` (so the report can say it was skipped)."""
    try:
        return old in ws.read_text(node)
    except OSError:
        return False


def move(ws: Workspace, old: str, new: str) -> Report:
    """Move or rename a node and rewrite every entry that names it (or a path inside it).

    Raises:
        OperationRefused: ``old`` does not exist, ``new`` is taken or not a valid path.
    """
    src = _existing(ws, old)
    dest, reason = check_entry(new, "")
    if dest is None:
        raise OperationRefused(new, f"not a valid destination: {reason}")
    if ws.resolve(dest) is not None or os.path.lexists(inside(ws.root, dest)):
        raise OperationRefused(dest, "already exists; not overwritten")
    if dest == src or dest.startswith(src + "/"):
        raise OperationRefused(dest, f"cannot move {src} inside itself")
    src_full, dest_full = inside(ws.root, src), inside(ws.root, dest)
    if src_full.is_symlink():
        raise OperationRefused(src, "is a symlink; move it with your file manager")
    key = nfc(src)

    def rename(path: str) -> str | None:
        if path == key:
            return dest
        if path.startswith(key + "/"):
            return dest + path[len(key) :]
        return None

    links = _wikilinks_to(ws, rename)
    dest_full.parent.mkdir(parents=True, exist_ok=True)
    if src_full.is_dir():
        os.rename(src_full, dest_full)
    else:
        os.link(src_full, dest_full)  # fails if the name was taken meanwhile: never clobbers
        os.unlink(src_full)
    _move_mirrors(ws, src, dest)
    ws.removed(src)
    ws.added(dest)
    report = Report()
    _rewrite_everywhere(ws, rename, report, key, links)
    return report


def _move_mirrors(ws: Workspace, src: str, dest: str) -> None:
    base = inside(ws.root, ".bh/mirror")
    old_dir = base.joinpath(*src.split("/"))
    if not old_dir.is_dir() or old_dir.is_symlink():
        return
    new_dir = base.joinpath(*dest.split("/"))
    if new_dir.exists():
        raise OperationRefused(dest, f"a store already exists at .bh/mirror/{dest}")
    new_dir.parent.mkdir(parents=True, exist_ok=True)
    os.rename(old_dir, new_dir)


def relink(ws: Workspace, old: str, new: str) -> Report:
    """After a move made outside basehalf: point every entry naming ``old`` at ``new``.

    ``old`` may be given as an entry shows it, Obsidian's ``[[old]]`` included.
    """
    link = split_wikilink(old)
    key, reason = check_entry(link[0] if link else old, "")
    if key is None:
        raise OperationRefused(old, f"not a valid entry: {reason}")
    if ws.resolve(key) is not None:
        raise OperationRefused(old, "still exists, so it is not dangling; use mv to rename it")
    target = _existing(ws, new)

    def rename(path: str) -> str | None:
        return target if path == key else None

    report = Report()
    _rewrite_everywhere(ws, rename, report, key)
    return report


def delete(ws: Workspace, path: str, *, expected: bytes | None = None) -> list[str]:
    """Delete a file node and its mirror store; entries naming it become dangling.

    Args:
        ws: the workspace.
        path: the node to delete (files only; folders are refused).
        expected: when given, the bytes the caller showed the user; refused if the file changed.

    Returns:
        The nodes whose entries now dangle (removing those is a separate, explicit step).
    """
    node = _existing(ws, path)
    full = inside(ws.root, node)
    if full.is_dir() and not full.is_symlink():
        raise OperationRefused(node, "is a folder; basehalf deletes files only")
    if expected is not None and read_bytes(full) != expected:
        raise OperationRefused(node, "changed on disk since it was read; not deleted")
    dangling = ws.downstream(node)
    full.unlink()
    mirror = inside(ws.root, mirror_store(node))
    if mirror.is_file() and not mirror.is_symlink():
        mirror.unlink()
    ws.removed(node)
    return dangling
