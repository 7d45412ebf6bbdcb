"""The single-file writes of the study folder: grow, connect, disconnect, edit, put, save a body.

With :mod:`basehalf_core.folder.multifile` (move, relink, delete) the only code that writes
the study folder. Each write reads the bytes, plans a minimal edit, and hands the result to
:func:`~basehalf_core.folder.writing.atomic_write` with the bytes it read, so an edit made on
disk in the meantime is refused rather than clobbered. After a write the workspace index is
updated from the bytes just saved.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
from pathlib import Path

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import fsio, notes, upstream_edit, writing
from basehalf_core.folder import upstream as up
from basehalf_core.folder.fsio import AlreadyExists, ChangedOnDisk, inside, read_bytes
from basehalf_core.folder.paths import (
    MIRROR_FILE,
    MIRROR_ROOT,
    check_entry,
    is_hidden,
    is_markdown,
    mirror_store,
    nfc,
    slugify,
    wikilink,
)
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import atomic_write


class OperationRefused(BasehalfError):
    """An operation was not carried out; the message names the file and why."""


def _store_path(ws: Workspace, node: str) -> str:
    return node if is_markdown(node) and ws.nodes[node].kind != "folder" else mirror_store(node)


def edit_entries(
    ws: Workspace,
    node: str,
    plan: Callable[[up.Store], str | None],
    *,
    needs: tuple[str, ...] = (),
) -> bool:
    """Re-read a node's store under its lock, plan an edit on those bytes, write it (CAS).

    The index is never trusted for a write: the plan always sees the bytes on disk now, and
    is made again if another program saves the file between the read and the replace.
    ``needs``: paths the edit names, which must still exist on disk when it is made (the
    index may be older than a move another session made).
    """
    node_obj = ws.nodes[node]
    if node_obj.outside_link or node_obj.special:
        raise OperationRefused(node, node_obj.store.unreadable)
    rel = _store_path(ws, node)

    def plan_bytes(before: bytes | None) -> object:
        if rel == node:
            if before is None:
                raise OperationRefused(node, "the file is gone from disk")
            store = up.read_note(before, node)
        else:
            store = up.read_mirror(before, node)
        ws.resolve_links(store)  # an Obsidian "[[x]]" names the node the index resolves it to
        _check_on_disk(ws, needs)
        try:
            text = plan(store)
        except up.StoreUnreadable as exc:
            raise OperationRefused(node, exc.reason) from None
        if text is None:
            return None
        if not store.fenced and text.strip() == "":
            return writing.REMOVE  # the mirror store lost its last entry: no empty file left
        return upstream_edit.encode(store, text)

    # The index records the write under the file's lock: a stamp taken after it is released
    # could be the next writer's, and the index would never re-read that writer's bytes.
    with store_lock(ws.root), fsio.locked(ws.root, rel):
        new = writing.update(ws.root, rel, plan_bytes)
        if new is None:
            return False
        ws.saved(rel, None if new is writing.REMOVE else new)  # type: ignore[arg-type]
    return True


@contextlib.contextmanager
def store_lock(root: Path) -> Iterator[None]:
    """The lock every write that can add an entry takes, before the file's own lock.

    A move or relink holds it for its whole run and plans on the folder as it is under it
    (:func:`basehalf_core.folder.multifile._multi_file`). A link written while a move runs
    would otherwise be planned on the old name and land after the move rewrote that note: a
    dangling entry the writer was told had succeeded. Writes that cannot add an entry (a
    note's body, basehalf's own state) do not take it.
    """
    with fsio.locked(root, fsio.MULTI):
        yield


def _check_on_disk(ws: Workspace, paths: tuple[str, ...]) -> None:
    """Refuse an entry naming a node that left the disk since the index was built."""
    for path in paths:
        if not os.path.lexists(os.path.join(ws.root, *path.split("/"))):
            raise OperationRefused(path, "no such file in the folder (moved or deleted meanwhile)")


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


def existing_node(ws: Workspace, path: str) -> str:
    real = ws.resolve(path)
    if real is None:
        raise OperationRefused(path, "no such file in the folder")
    return real


def connect(ws: Workspace, upstream: str, downstream: str) -> bool:
    """Add ``upstream → downstream`` (stored in the downstream node). True if a write happened."""
    down = existing_node(ws, downstream)
    target = _entry_for(ws, upstream, down)
    plan = lambda s: upstream_edit.add(s, nfc(target), ws.link_form)  # noqa: E731
    return edit_entries(ws, down, plan, needs=(target,))


def disconnect(ws: Workspace, upstream: str, downstream: str) -> bool:
    """Remove ``upstream → downstream``. True if a write happened; a missing link is fine."""
    down = existing_node(ws, downstream)
    path, _ = check_entry(upstream, "")
    target = path if path is not None else upstream
    return edit_entries(ws, down, lambda s: upstream_edit.remove(s, nfc(target)))


def edit(ws: Workspace, path: str, transform: Callable[[str], str]) -> bool:
    """Rewrite a note basehalf owns (e.g. append a grading run), under its lock, CAS.

    Returns:
        True if the text changed and was written.
    """
    node = existing_node(ws, path)

    def plan(before: bytes | None) -> bytes | None:
        if before is None:
            raise OperationRefused(node, "the file is gone from disk")
        store = up.read_note(before, node)
        if store.unreadable and store.unreadable.startswith("not UTF-8"):
            raise OperationRefused(node, store.unreadable)
        new = transform(store.text)
        return None if new == store.text else upstream_edit.encode(store, new)

    with fsio.locked(ws.root, node):  # recorded under the lock (see edit_entries)
        data = writing.update(ws.root, node, plan)
        if data is None:
            return False
        ws.saved(node, data)  # type: ignore[arg-type]
    return True


def create(root: Path, rel: str, data: bytes, *, check: Callable[[], None] | None = None) -> None:
    """Create ``rel`` with ``data`` under its lock; never over an existing file.

    A new note may list entries, so this takes the store lock too (see :func:`store_lock`);
    ``check`` runs under both, before the write (e.g. that the entries' nodes still exist).

    Raises:
        AlreadyExists: the name is taken.
        WriteRefused: the file system refused the write; the reason says why.
    """
    full = inside(root, rel)
    with store_lock(root), fsio.locked(root, rel), writing.refusing_oserror(rel):
        if check is not None:
            check()
        atomic_write(full, data, expected=None)


def write_mirror_file(ws: Workspace, node: str, name: str, data: bytes) -> str:
    """Write one of basehalf's own files about a node beside its upstream store.

    The file is ``.bh/mirror/<node>/<name>``, so it moves with the node. The write is made
    under the file's lock, compare-and-swap; the same bytes write nothing.

    Returns:
        The folder-relative path of the file.

    Raises:
        OperationRefused: no such node, or ``name`` is not a plain file name other than the
            upstream store's own.
    """
    real = existing_node(ws, node)
    if not name or "/" in name or name in (".", "..", MIRROR_FILE) or name.startswith("."):
        raise OperationRefused(name or "(empty)", "not a usable name for a mirror file")
    rel = f"{MIRROR_ROOT}/{real}/{name}"
    writing.update(ws.root, rel, lambda before: None if before == data else data)
    return rel


def put(ws: Workspace, rel: str, data: bytes, *, replace: bool = False) -> None:
    """Write a whole file node (a fetched PDF, a JSON Canvas export) and index it.

    The write path for files that are not edited entry by entry: under the file's lock,
    create-only unless ``replace`` (then compare-and-swap against the bytes read under it).

    Raises:
        AlreadyExists: the file is there and ``replace`` is false.
        WriteRefused: a symlink, special file or a name the file system cannot hold.
    """
    if replace:
        with store_lock(ws.root):
            writing.update(ws.root, rel, lambda before: None if before == data else data)
    else:
        create(ws.root, rel, data)
    ws.added(rel)


def grow(
    ws: Workspace,
    title: str,
    *,
    upstream: list[str],
    fields: dict | None = None,
    body: str = "",
    folder: str = "",
    name: str | None = None,
    unique: bool = True,
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
        unique: False for a note that must have exactly this name (a card's grading file):
            a taken name raises :class:`AlreadyExists` instead of becoming ``-2``.

    Returns:
        The new note's folder-relative path.
    """
    title = " ".join(title.split()) or "Untitled"
    base = name or f"{slugify(title)}.md"
    if "/" in base or check_entry(base, "")[0] is None or not is_markdown(base):
        raise OperationRefused(base, "not a usable note name (a .md name without folders)")
    check_visible(base)
    if folder:
        existing_node(ws, folder)
    reals = [_entry_for(ws, u, "") for u in upstream]
    entries = [nfc(r) for r in reals]
    if ws.link_form == "wikilink":
        entries = [wikilink(e) for e in entries]
    lines = ["---", "upstream:"] + [f"  - {upstream_edit.format_scalar(e)}" for e in entries]
    if not entries:
        lines = ["---"]
    head = "\n".join(lines) + "\n" + upstream_edit.render_fields(fields or {}) + "---\n"
    text = f"{head}# {title}\n\n{body.rstrip()}\n" if body.strip() else f"{head}# {title}\n"
    data = text.encode("utf-8")
    # The folder too: made anew by the write if another session moved it meanwhile.
    needs = (*reals, folder) if folder else tuple(reals)
    return _create_unique(ws, folder, base, data, needs=needs, tries=999 if unique else 1)


def check_visible(name: str) -> None:
    """Refuse a name for a new or moved node that would not be a node at all."""
    if is_hidden(name):
        raise OperationRefused(
            name, "is a hidden name: a hidden file is not a node, so every link to it would dangle"
        )


def _create_unique(
    ws: Workspace,
    folder: str,
    base: str,
    data: bytes,
    *,
    needs: tuple[str, ...] = (),
    tries: int = 999,
) -> str:
    """Create ``folder/base`` (or ``base-2``, ``base-3`` …) create-only; return the name used.

    ``needs``: the nodes the new note lists, checked on disk under the lock. ``tries=1``:
    only ``base`` itself (:class:`AlreadyExists` when it is taken).
    """
    stem, suffix = base[: base.rfind(".")], base[base.rfind(".") :]
    for n in range(1, tries + 1):
        candidate = base if n == 1 else f"{stem}-{n}{suffix}"
        rel = f"{folder}/{candidate}" if folder else candidate
        try:
            if ws.resolve(rel) is not None:
                raise AlreadyExists(rel, "already exists; not overwritten")
            create(ws.root, rel, data, check=lambda: _check_on_disk(ws, needs))
        except AlreadyExists:
            if tries == 1:
                raise
            continue  # taken, or appeared on disk since the last scan
        ws.added(rel)
        return rel
    raise OperationRefused(base, f"no free name after {tries} tries")


def create_note(ws: Workspace, name: str, text: str) -> str:
    """Create a note with exactly ``text`` under a unique name (``name``, ``name-2`` …).

    Create-only: never overwrites. Used for "copy mine to a new file" and new cards whose
    text the caller has already composed.

    Args:
        ws: the workspace.
        name: a folder-relative ``.md`` path; its folder must exist.
        text: the whole note, frontmatter included.

    Returns:
        The folder-relative path written.
    """
    folder, _, base = name.rpartition("/")
    if check_entry(name, "")[0] is None or not is_markdown(base):
        raise OperationRefused(name, "not a usable note name (a .md path inside the folder)")
    check_visible(name)
    if folder:
        existing_node(ws, folder)
    needs = (folder,) if folder else ()  # see grow: a moved folder is not made again
    return _create_unique(ws, folder, base, text.encode("utf-8"), needs=needs)


def save_body(ws: Workspace, path: str, new_body: str, expected: bytes) -> bytes:
    """Replace a note's body (all text after its frontmatter), keeping the frontmatter bytes.

    The frontmatter, the BOM and the line ends of the head stay byte for byte, even when the
    frontmatter cannot be read as YAML. Compare-and-swap: ``expected`` is the bytes the editor
    opened; if the file holds anything else now, nothing is written.

    Args:
        ws: the workspace.
        path: the note.
        new_body: the body text as the learner edited it.
        expected: the file's bytes when the editor loaded it.

    Returns:
        The bytes now on disk.

    Raises:
        OperationRefused: not a Markdown note, gone, or not UTF-8.
        ChangedOnDisk: the file changed since ``expected`` was read.
    """
    node = existing_node(ws, path)
    if not is_markdown(node) or ws.nodes[node].kind == "folder":
        raise OperationRefused(node, "only Markdown notes have a body to edit")
    head, _ = notes.split_body(expected)
    if head is None:
        raise OperationRefused(node, "not UTF-8 text; opened read-only")
    data = head + new_body.encode("utf-8")
    full = inside(ws.root, node)
    # The same lock as every other write of this file.
    with fsio.locked(ws.root, node), writing.refusing_oserror(node):
        current = read_bytes(full)
        if current is None:
            raise OperationRefused(node, "the file is gone from disk")
        if current != expected:
            raise ChangedOnDisk(node, "changed on disk since it was opened; nothing written")
        if data == expected:
            return data
        atomic_write(full, data, expected=expected)
        ws.saved(node, data)  # under the lock (see edit_entries)
    return data
