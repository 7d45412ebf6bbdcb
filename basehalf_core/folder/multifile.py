"""The multi-file operations: move, relink and delete, one at a time, journalled.

Each rewrites the entries that name a node in every store through the single-file write
path of :mod:`basehalf_core.folder.operations`. Its plan is journalled in ``.bh/`` before the
first write, so a process killed half way is finished (or undone) by :func:`recover`, which
:meth:`Workspace.open` calls.
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
from basehalf_core.folder import fsio, upstream_edit, writing
from basehalf_core.folder.fsio import WriteRefused, inside, read_bytes
from basehalf_core.folder.operations import (
    OperationRefused,
    check_visible,
    edit_entries,
    existing_node,
    store_lock,
)
from basehalf_core.folder.paths import (
    JOURNAL,
    MIRROR_ROOT,
    check_entry,
    mirror_store,
    nfc,
    split_wikilink,
)
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import atomic_write


@dataclass
class Report:
    """What a refactoring operation (move, relink) changed, and what it had to leave."""

    updated: list[str] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"updated": self.updated, "skipped": self.skipped}


@contextlib.contextmanager
def _multi_file(ws: Workspace) -> Iterator[None]:
    """A multi-file operation's run: the store lock held throughout, the index brought up to
    date with the disk under it first.

    Such an operation decides which stores to rewrite from the index: one a session built a
    second ago does not know a link another session or the CLI wrote since.
    """
    with store_lock(ws.root):
        ws.refresh()
        yield


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
            lambda s, o=a, n=b: upstream_edit.replace(s, o, n)
            for a, b in [(p, rename(p)) for p in store.paths]
            + [(e.raw, rename(nfc(e.raw))) for e in store.entries if e.path is None]
            if b is not None
        ]
        plans += [
            lambda s, o=a, n=b: upstream_edit.replace_link(s, o, n) for a, b in links.get(node, [])
        ]
        if not plans:
            continue
        try:
            changed = False
            for plan in plans:
                changed |= edit_entries(ws, node, plan)
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
    check_visible(dest)
    with _multi_file(ws):
        src = existing_node(ws, old)
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
            with writing.refusing_oserror(dest):
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
        target = existing_node(ws, new)
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
        node = existing_node(ws, path)
        full = inside(ws.root, node)
        if full.is_dir() and not full.is_symlink():
            raise OperationRefused(node, "is a folder; basehalf deletes files only")
        dangling = ws.downstream(node)
        _journal(ws, {"op": "delete", "path": node})
        if ws.nodes[node].special or full.is_symlink():
            # Never opened, so nothing to compare: only the name goes.
            if expected is not None:
                raise OperationRefused(node, "is not a regular file; its bytes cannot be compared")
            with fsio.locked(ws.root, node), writing.refusing_oserror(node):
                full.unlink()
        else:

            def plan(before: bytes | None) -> object:
                if before is None:
                    raise OperationRefused(node, "the file is gone from disk")
                if expected is not None and before != expected:
                    raise OperationRefused(node, "changed on disk since it was read; not deleted")
                return writing.REMOVE

            try:
                writing.update(ws.root, node, plan)
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
    with fsio.locked(ws.root, mirror_store(node)), writing.refusing_oserror(mirror_store(node)):
        if mirror.is_dir() and not mirror.is_symlink():
            shutil.rmtree(mirror)
