"""The only code that writes the study folder: grow, connect, disconnect, move, relink, delete.

Each write reads the bytes, plans a minimal edit, and hands the result to
:func:`~basehalf_core.folder.fsio.atomic_write` with the bytes it read, so an edit made on
disk in the meantime is refused rather than clobbered. After a write the workspace index is
updated from the bytes just saved.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import fsio, notes
from basehalf_core.folder import upstream as up
from basehalf_core.folder.fsio import (
    AlreadyExists,
    ChangedOnDisk,
    WriteRefused,
    atomic_write,
    inside,
    read_bytes,
)
from basehalf_core.folder.paths import (
    JOURNAL,
    MIRROR_FILE,
    MIRROR_ROOT,
    check_entry,
    is_hidden,
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


def _edit_entries(
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
            return fsio.REMOVE  # the mirror store lost its last entry: no empty file left
        return up.encode(store, text)

    # The index records the write under the file's lock: a stamp taken after it is released
    # could be the next writer's, and the index would never re-read that writer's bytes.
    with _store_lock(ws.root), fsio.locked(ws.root, rel):
        new = fsio.update(ws.root, rel, plan_bytes)
        if new is None:
            return False
        ws.saved(rel, None if new is fsio.REMOVE else new)  # type: ignore[arg-type]
    return True


@contextlib.contextmanager
def _store_lock(root: Path) -> Iterator[None]:
    """The lock every write that can add an entry takes, before the file's own lock.

    A move or relink holds it for its whole run and plans on the folder as it is under it
    (:func:`_multi_file`). A link written while a move runs would otherwise be planned on
    the old name and land after the move rewrote that note: a dangling entry the writer was
    told had succeeded. Writes that cannot add an entry (a note's body, basehalf's own state)
    do not take it.
    """
    with fsio.locked(root, fsio.MULTI):
        yield


def _check_on_disk(ws: Workspace, paths: tuple[str, ...]) -> None:
    """Refuse an entry naming a node that left the disk since the index was built."""
    for path in paths:
        if not os.path.lexists(os.path.join(ws.root, *path.split("/"))):
            raise OperationRefused(path, "no such file in the folder (moved or deleted meanwhile)")


@contextlib.contextmanager
def _multi_file(ws: Workspace) -> Iterator[None]:
    """A multi-file operation's run: the store lock held throughout, the index brought up to
    date with the disk under it first.

    Such an operation decides which stores to rewrite from the index: one a session built a
    second ago does not know a link another session or the CLI wrote since.
    """
    with _store_lock(ws.root):
        ws.refresh()
        yield


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
    plan = lambda s: up.add(s, nfc(target), ws.link_form)  # noqa: E731
    return _edit_entries(ws, down, plan, needs=(target,))


def disconnect(ws: Workspace, upstream: str, downstream: str) -> bool:
    """Remove ``upstream → downstream``. True if a write happened; a missing link is fine."""
    down = _existing(ws, downstream)
    path, _ = check_entry(upstream, "")
    target = path if path is not None else upstream
    return _edit_entries(ws, down, lambda s: up.remove(s, nfc(target)))


def edit(ws: Workspace, path: str, transform: Callable[[str], str]) -> bool:
    """Rewrite a note basehalf owns (e.g. append a grading run), under its lock, CAS.

    Returns:
        True if the text changed and was written.
    """
    node = _existing(ws, path)

    def plan(before: bytes | None) -> bytes | None:
        if before is None:
            raise OperationRefused(node, "the file is gone from disk")
        store = up.read_note(before, node)
        if store.unreadable and store.unreadable.startswith("not UTF-8"):
            raise OperationRefused(node, store.unreadable)
        new = transform(store.text)
        return None if new == store.text else up.encode(store, new)

    with fsio.locked(ws.root, node):  # recorded under the lock (see _edit_entries)
        data = fsio.update(ws.root, node, plan)
        if data is None:
            return False
        ws.saved(node, data)  # type: ignore[arg-type]
    return True


def create(root: Path, rel: str, data: bytes, *, check: Callable[[], None] | None = None) -> None:
    """Create ``rel`` with ``data`` under its lock; never over an existing file.

    A new note may list entries, so this takes the store lock too (see :func:`_store_lock`);
    ``check`` runs under both, before the write (e.g. that the entries' nodes still exist).

    Raises:
        AlreadyExists: the name is taken.
        WriteRefused: the file system refused the write; the reason says why.
    """
    full = inside(root, rel)
    with _store_lock(root), fsio.locked(root, rel), fsio.refusing_oserror(rel):
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
    real = _existing(ws, node)
    if not name or "/" in name or name in (".", "..", MIRROR_FILE) or name.startswith("."):
        raise OperationRefused(name or "(empty)", "not a usable name for a mirror file")
    rel = f"{MIRROR_ROOT}/{real}/{name}"
    fsio.update(ws.root, rel, lambda before: None if before == data else data)
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
        with _store_lock(ws.root):
            fsio.update(ws.root, rel, lambda before: None if before == data else data)
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
    _check_visible(base)
    if folder:
        _existing(ws, folder)
    reals = [_entry_for(ws, u, "") for u in upstream]
    entries = [nfc(r) for r in reals]
    if ws.link_form == "wikilink":
        entries = [wikilink(e) for e in entries]
    lines = ["---", "upstream:"] + [f"  - {up.format_scalar(e)}" for e in entries]
    if not entries:
        lines = ["---"]
    head = "\n".join(lines) + "\n" + up.render_fields(fields or {}) + "---\n"
    text = f"{head}# {title}\n\n{body.rstrip()}\n" if body.strip() else f"{head}# {title}\n"
    data = text.encode("utf-8")
    # The folder too: made anew by the write if another session moved it meanwhile.
    needs = (*reals, folder) if folder else tuple(reals)
    return _create_unique(ws, folder, base, data, needs=needs, tries=999 if unique else 1)


def _check_visible(name: str) -> None:
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
    _check_visible(name)
    if folder:
        _existing(ws, folder)
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
    node = _existing(ws, path)
    if not is_markdown(node) or ws.nodes[node].kind == "folder":
        raise OperationRefused(node, "only Markdown notes have a body to edit")
    head, _ = notes.split_body(expected)
    if head is None:
        raise OperationRefused(node, "not UTF-8 text; opened read-only")
    data = head + new_body.encode("utf-8")
    full = inside(ws.root, node)
    # The same lock as every other write of this file.
    with fsio.locked(ws.root, node), fsio.refusing_oserror(node):
        current = read_bytes(full)
        if current is None:
            raise OperationRefused(node, "the file is gone from disk")
        if current != expected:
            raise ChangedOnDisk(node, "changed on disk since it was opened; nothing written")
        if data == expected:
            return data
        atomic_write(full, data, expected=expected)
        ws.saved(node, data)  # under the lock (see _edit_entries)
    return data


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

    ``links`` are wikilinks found (by :func:`_wikilinks_to`) to name a moved path. One store
    that cannot be read or written is listed in ``report.skipped`` with its reason; it never
    stops the others.
    """
    links = links or {}
    for node in sorted(ws.nodes):
        store = ws.nodes[node].store
        if store.unreadable:
            if _mentions(ws, node, old):
                report.skipped.append({"path": node, "reason": store.unreadable})
            continue
        plans = [
            lambda s, o=a, n=b: up.replace(s, o, n)
            for a, b in [(p, rename(p)) for p in store.paths]
            + [(e.raw, rename(nfc(e.raw))) for e in store.entries if e.path is None]
            if b is not None
        ]
        plans += [lambda s, o=a, n=b: up.replace_link(s, o, n) for a, b in links.get(node, [])]
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
        except OSError as exc:
            report.skipped.append({"path": node, "reason": f"cannot be written ({exc.strerror})"})


def _mentions(ws: Workspace, node: str, old: str) -> bool:
    """Whether an unreadable store seems to name ``old`` (so the report can say it was skipped).

    A node that is a symlink out of the folder or a special file is never opened: it is
    reported as skipped whenever a rewrite runs, since what it names cannot be known.
    """
    if ws.nodes[node].outside_link or ws.nodes[node].special:
        return True
    try:
        return old in ws.read_text(node)
    except (OSError, WriteRefused):
        return True


# --- multi-file operations: one at a time, journalled --------------------------------------


def _journal(ws: Workspace, plan: dict | None) -> None:
    """Record (or, with ``None``, clear) the plan of a multi-file operation in ``.bh/``."""
    full = inside(ws.root, JOURNAL)
    if plan is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(full)
        return
    data = json.dumps(plan, ensure_ascii=False).encode("utf-8")
    atomic_write(full, data)


def move(ws: Workspace, old: str, new: str) -> Report:
    """Move or rename a node and rewrite every entry that names it (or a path inside it).

    Planned on the folder as it is under the lock (not on an older index), and everything
    that could refuse is checked before the first write. The plan is journalled in ``.bh/``
    before the file moves, so a process killed half way is finished by the next
    :meth:`Workspace.open` (see :func:`recover`).

    Raises:
        OperationRefused: ``old`` does not exist, ``new`` is taken, hidden, under a file or a
            symlink, or not a valid path; or a leftover store is in the way.
    """
    dest, reason = check_entry(new, "")
    if dest is None:
        raise OperationRefused(new, f"not a valid destination: {reason}")
    _check_visible(dest)
    with _multi_file(ws):
        src = _existing(ws, old)
        if dest == src or dest.startswith(src + "/"):
            raise OperationRefused(dest, f"cannot move {src} inside itself")
        src_full, dest_full = inside(ws.root, src), inside(ws.root, dest)
        if src_full.is_symlink():
            raise OperationRefused(src, "is a symlink; move it with your file manager")
        with fsio.locked(ws.root, src, dest):
            if ws.resolve(dest) is not None or os.path.lexists(dest_full):
                raise OperationRefused(dest, "already exists; not overwritten")
            if not os.path.lexists(src_full):
                raise OperationRefused(src, "the file is gone from disk")
            _check_destination(ws, src, dest)
            links = _wikilinks_to(ws, _renamer(src, dest))
            _journal(ws, {"op": "move", "src": src, "dest": dest, "links": links})
            with fsio.refusing_oserror(dest):
                dest_full.parent.mkdir(parents=True, exist_ok=True)
                if src_full.is_dir():
                    os.rename(src_full, dest_full)
                else:
                    os.link(src_full, dest_full)  # fails if the name was taken: never clobbers
                    os.unlink(src_full)
            report = _finish_move(ws, src, dest, links)
            _journal(ws, None)
    return report


def _check_destination(ws: Workspace, src: str, dest: str) -> None:
    """What would stop a move after its first write, checked before it.

    Every existing folder on the way must be a plain folder (a note or a symlink there would
    fail the move, or put the node under another name than its entries say); every path
    after the move, the ones inside a moved folder too, must fit the file system's limit; and
    no store left behind by a node removed outside basehalf may sit where the moved node's goes.
    """
    size = lambda text: len(text.encode("utf-8", "surrogateescape"))  # noqa: E731
    inner = max((size(p) for p in ws.nodes if p.startswith(src + "/")), default=size(src))
    if size(str(ws.root)) + 1 + size(dest) + inner - size(src) >= fsio.PATH_MAX:
        raise OperationRefused(
            dest, f"a path there would be over {fsio.PATH_MAX} bytes; choose a shorter name"
        )
    parts = dest.split("/")
    for i in range(1, len(parts)):
        try:
            mode = os.lstat(ws.root.joinpath(*parts[:i])).st_mode
        except FileNotFoundError:
            break
        prefix = "/".join(parts[:i])
        if stat.S_ISLNK(mode):
            raise OperationRefused(dest, f"{prefix} is a symlink; move into the folder it names")
        if not stat.S_ISDIR(mode):
            raise OperationRefused(dest, f"{prefix} is not a folder")
    if _holds_files(inside(ws.root, MIRROR_ROOT).joinpath(*parts)):
        raise OperationRefused(
            dest,
            f"a store already exists at {MIRROR_ROOT}/{dest} (left by a file removed outside "
            "basehalf); remove it or choose another name",
        )


def _holds_files(path: Path) -> bool:
    """Whether ``path`` is anything but a missing or empty folder (empty ones are removed)."""
    if not os.path.lexists(path):
        return False
    if path.is_symlink() or not path.is_dir():
        return True
    if any(not d.is_dir() or d.is_symlink() for d in path.rglob("*")):
        return True
    shutil.rmtree(path)  # empty folders a delete left: nothing to keep, nothing in the way
    return False


def _renamer(src: str, dest: str) -> Callable[[str], str | None]:
    """Maps a path naming ``src`` (or something inside it) to its new path, else ``None``."""
    key = nfc(src)

    def rename(path: str) -> str | None:
        if path == key:
            return dest
        if path.startswith(key + "/"):
            return dest + path[len(key) :]
        return None

    return rename


def _finish_move(ws: Workspace, src: str, dest: str, links: dict | None = None) -> Report:
    """Everything after the file itself moved: its mirror store, the index, every entry.

    ``links``: wikilinks naming ``src``, found before it moved (the journal keeps them, so a
    recovery after a kill rewrites short ``[[name]]`` links too).
    """
    report = Report()
    try:
        _move_mirrors(ws, src, dest)
    except (BasehalfError, OSError) as exc:
        # The node has moved: its entries must follow even if its store cannot (a recovery
        # never stops half way). The store stays where it was and is named.
        why = exc.reason if isinstance(exc, BasehalfError) else exc.strerror
        report.skipped.append({"path": f"{MIRROR_ROOT}/{src}", "reason": f"not moved: {why}"})
    ws.removed(src)
    ws.added(dest)
    _rewrite_everywhere(ws, _renamer(src, dest), report, nfc(src), links)
    return report


def _move_mirrors(ws: Workspace, src: str, dest: str) -> None:
    base = inside(ws.root, ".bh/mirror")
    old_dir = base.joinpath(*src.split("/"))
    if not old_dir.is_dir() or old_dir.is_symlink():
        return
    new_dir = base.joinpath(*dest.split("/"))
    if _holds_files(new_dir):
        raise OperationRefused(dest, f"a store already exists at .bh/mirror/{dest}")
    new_dir.parent.mkdir(parents=True, exist_ok=True)
    os.rename(old_dir, new_dir)


def relink(ws: Workspace, old: str, new: str) -> Report:
    """After a move made outside basehalf: point every entry naming ``old`` at ``new``.

    ``old`` may be given as an entry shows it, Obsidian's ``[[old]]`` included. Planned on the
    folder as it is under the lock, like :func:`move`.
    """
    link = split_wikilink(old)
    key, reason = check_entry(link[0] if link else old, "")
    if key is None:
        raise OperationRefused(old, f"not a valid entry: {reason}")
    with _multi_file(ws):
        if ws.resolve(key) is not None:
            raise OperationRefused(old, "still exists, so it is not dangling; use mv to rename it")
        target = _existing(ws, new)
        _journal(ws, {"op": "relink", "old": key, "new": target})
        report = _relink(ws, key, target)
        _journal(ws, None)
    return report


def _relink(ws: Workspace, key: str, target: str) -> Report:
    report = Report()
    _rewrite_everywhere(ws, lambda p: target if p == key else None, report, key)
    return report


def recover(ws: Workspace) -> Report | None:
    """Finish (or undo) a multi-file operation a killed process left in its journal.

    A move whose file had not moved yet is undone (nothing else was written); one whose file
    moved is finished: a second name of the same file is removed, and every entry naming the
    old path is rewritten. Called by :meth:`Workspace.open`; a live operation (its lock held)
    is left to finish itself.

    Returns:
        What the finished operation changed, or ``None`` when there was nothing to do.
    """
    full = inside(ws.root, JOURNAL)
    with fsio.try_locked(ws.root, fsio.MULTI) as got:
        if not got or not full.is_file():
            return None
        try:
            plan = json.loads(read_bytes(full) or b"{}")
        except ValueError:
            plan = {}
        report = None
        if plan.get("op") == "move":
            links = plan.get("links") if isinstance(plan.get("links"), dict) else {}
            report = _recover_move(ws, str(plan["src"]), str(plan["dest"]), links)
        elif plan.get("op") == "relink" and ws.resolve(str(plan["new"])) is not None:
            report = _relink(ws, str(plan["old"]), str(plan["new"]))
        elif plan.get("op") == "delete" and _gone(ws, plan.get("path")):
            # The file went but its store may not have: finish. The file still there: the
            # delete never happened, and its store stays with it.
            _remove_mirror(ws, plan["path"])
        _journal(ws, None)
        return report


def _gone(ws: Workspace, path: object) -> bool:
    """Whether a journalled path names a node that is no longer on disk."""
    if not isinstance(path, str) or check_entry(path, "")[0] is None:
        return False
    return not os.path.lexists(inside(ws.root, path))


def _recover_move(ws: Workspace, src: str, dest: str, links: dict) -> Report | None:
    src_full, dest_full = inside(ws.root, src), inside(ws.root, dest)
    if not os.path.lexists(dest_full):
        return None  # killed before the file moved: nothing was written, nothing to undo
    if os.path.lexists(src_full) and not src_full.is_dir():
        if not os.path.samefile(src_full, dest_full):
            return None  # someone made a new file at the old name: both are theirs now
        os.unlink(src_full)  # killed between link and unlink: one file under two names
    ws.refresh()
    return _finish_move(ws, src, dest, links)


def delete(ws: Workspace, path: str, *, expected: bytes | None = None) -> list[str]:
    """Delete a file node and its mirror store; entries naming it become dangling.

    Args:
        ws: the workspace.
        path: the node to delete (files only; folders are refused).
        expected: when given, the bytes the caller showed the user; refused if the file
            holds anything else, compared on the bytes actually removed (an editor's save
            landing meanwhile is put back, never deleted).

    Returns:
        The nodes whose entries now dangle (removing those is a separate, explicit step).
    """
    with _multi_file(ws):  # the nodes to name: every one that links to it now
        node = _existing(ws, path)
        full = inside(ws.root, node)
        if full.is_dir() and not full.is_symlink():
            raise OperationRefused(node, "is a folder; basehalf deletes files only")
        dangling = ws.downstream(node)
        _journal(ws, {"op": "delete", "path": node})
        if ws.nodes[node].special or full.is_symlink():
            # Never opened, so nothing to compare: only the name goes.
            if expected is not None:
                raise OperationRefused(node, "is not a regular file; its bytes cannot be compared")
            with fsio.locked(ws.root, node), fsio.refusing_oserror(node):
                full.unlink()
        else:

            def plan(before: bytes | None) -> object:
                if before is None:
                    raise OperationRefused(node, "the file is gone from disk")
                if expected is not None and before != expected:
                    raise OperationRefused(node, "changed on disk since it was read; not deleted")
                return fsio.REMOVE

            try:
                fsio.update(ws.root, node, plan)
            except BaseException:
                _journal(ws, None)  # nothing was deleted
                raise
        _remove_mirror(ws, node)
        _journal(ws, None)
    ws.removed(node)
    return dangling


def _remove_mirror(ws: Workspace, node: str) -> None:
    """Remove a deleted file's folder under ``.bh/mirror/``: its store and basehalf's files
    about it. Left behind, a later file of the same name would inherit its links."""
    mirror = inside(ws.root, MIRROR_ROOT).joinpath(*node.split("/"))
    with fsio.locked(ws.root, mirror_store(node)), fsio.refusing_oserror(mirror_store(node)):
        if mirror.is_dir() and not mirror.is_symlink():
            shutil.rmtree(mirror)
