"""One listing of a study folder: every name in it, stat'ed only as far as the index compares.

:func:`list_folder` walks the folder without following links and returns a :class:`Listing`;
:class:`~basehalf_core.folder.workspace.Workspace` builds its index from it on open and
compares against it on refresh. A refresh hands the previous listing's :class:`Dir` records
back in, so a folder whose names did not change is not read again: only its notes are stat'ed.
"""

from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.folder import fsio, index_cache, writing
from basehalf_core.folder.fsio import is_within
from basehalf_core.folder.paths import MIRROR_FILE, MIRROR_ROOT, is_markdown

# What a listing records for a name: (is a folder, stamp, a symlink pointing outside).
Spec = tuple[bool, tuple[int, ...], bool]

PLAIN: Spec = (False, (0, 0), False)
"""A listing's value for a plain non-Markdown file (its stamp lives in its mirror store)."""
FOLDER: Spec = (True, (0, 0), False)
"""A listing's value for a plain folder."""


@dataclass(slots=True)
class Dir:
    """What one listing of a folder found, for the next listing to reuse.

    A folder's mtime and ctime change whenever a name in it is added, removed or renamed
    (ctime also when a tool sets the mtime back), so while ``(inode, mtime, ctime)`` is the
    same, its names are: only the notes in it need a ``stat`` (an edit changes a file, not its
    folder). Kept only for folders holding nothing but plain files and folders, and whose stamp
    was :data:`~basehalf_core.folder.index_cache.RACY_NS` old when listed (a change in the
    same clock tick as the listing would leave the stamp as it was).
    """

    stamp: tuple[int, int, int]  # (inode, mtime_ns, ctime_ns) of the folder
    notes: list[str]  # Markdown files: stat'ed on every listing
    plain: list[str]  # other files: their stamp lives in their mirror store
    dirs: list[str]  # sub-folders
    bh: bool  # the root's .bh/ (mirror stores) is there


@dataclass
class Listing:
    """Everything one walk of the folder found, keyed by folder-relative ``/`` path."""

    files: dict[str, Spec] = field(default_factory=dict)  # every node: PLAIN, FOLDER or own
    mirrors: dict[str, tuple[int, ...]] = field(default_factory=dict)  # node -> store's stamp
    links: set[str] = field(default_factory=set)  # symlinks that stay inside the folder
    special: dict[str, str] = field(default_factory=dict)  # path -> what it is
    temps: list[str] = field(default_factory=list)  # basehalf temp files (full paths)
    dirs: dict[str, Dir] = field(default_factory=dict)  # folders the next listing may reuse


def list_folder(root: Path, reuse: dict[str, Dir] | None = None) -> Listing:
    """Walk ``root`` (never following links) and stat what the index compares.

    Args:
        root: The opened study folder.
        reuse: The :attr:`Listing.dirs` of the previous listing; a folder whose stamp is
            unchanged is not read again, only its notes are stat'ed.
    """
    walk = _Walk(root)
    listing, root_str = walk.out, walk.root_str
    trusted = time.time_ns() - index_cache.RACY_NS
    stack = [""]
    while stack:
        rel_dir = stack.pop()
        full = os.path.join(root_str, rel_dir) if rel_dir else root_str
        try:
            st = os.lstat(full) if rel_dir else os.stat(full)
        except OSError:
            continue
        if not stat.S_ISDIR(st.st_mode):
            continue  # swapped for a link or a file since its parent was read
        dir_stamp = (st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        old = reuse.get(rel_dir) if reuse else None
        if old is not None and old.stamp == dir_stamp and walk.relist(old):
            stack += old.dirs
            listing.dirs[rel_dir] = old
            continue
        rec, clean = walk.scan_dir(rel_dir, full)
        stack += rec.dirs
        if clean and st.st_mtime_ns < trusted and st.st_ctime_ns < trusted:
            rec.stamp = dir_stamp
            listing.dirs[rel_dir] = rec
    return listing


class _Walk:
    """One walk of the folder: the steps that fill :attr:`out`, one folder at a time."""

    def __init__(self, root: Path):
        self.root = root
        self.root_str = str(root)
        self.out = Listing()

    def relist(self, old: Dir) -> bool:
        """Fill :attr:`out` from a folder's previous record, stat'ing its notes.

        False (nothing filled) when a note is gone or no longer a plain file: the folder
        changed within a clock tick of its last listing, so it must be read again.
        """
        # The one loop a refresh of an unchanged tree runs 10,000 times: kept to a stat each.
        lstat, prefix, regular = os.lstat, self.root_str + os.sep, stat.S_ISREG
        stamps = []
        for rel in old.notes:
            try:
                st = lstat(prefix + rel)
            except OSError:
                return False
            if not regular(st.st_mode):
                return False
            stamps.append((False, (st.st_mtime_ns, st.st_size, st.st_ino), False))
        files = self.out.files
        files.update(zip(old.notes, stamps, strict=True))
        for rel in old.plain:
            files[rel] = PLAIN
        for rel in old.dirs:
            files[rel] = FOLDER
        if old.bh:
            self.list_mirrors()
        return True

    def scan_dir(self, rel_dir: str, full: str) -> tuple[Dir, bool]:
        """One folder into :attr:`out`: its record, and whether the next listing may reuse it."""
        files = self.out.files
        rec = Dir((0, 0, 0), [], [], [], False)
        clean = True
        try:
            it = os.scandir(full)
        except OSError:
            return rec, False
        with it:
            for entry in it:
                name = entry.name
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if name.startswith("."):
                    if rel == ".bh":
                        self.list_mirrors()
                        rec.bh = True
                    elif writing.is_our_temp(name):
                        self.out.temps.append(entry.path)
                        clean = False  # removed or finished soon: look again next time
                    continue
                # The common cases from d_type alone: a folder, a plain file (only notes are
                # stat'ed: any other file's stamp lives in its mirror store).
                if entry.is_file(follow_symlinks=False):
                    if not is_markdown(name):
                        files[rel] = PLAIN
                        rec.plain.append(rel)
                        continue
                    try:
                        st = entry.stat(follow_symlinks=False)
                    except OSError:
                        st = None  # gone since the folder was read
                    if st is not None and stat.S_ISREG(st.st_mode):
                        files[rel] = (False, (st.st_mtime_ns, st.st_size, st.st_ino), False)
                        rec.notes.append(rel)
                        continue
                elif entry.is_dir(follow_symlinks=False):
                    files[rel] = FOLDER
                    rec.dirs.append(rel)
                    continue
                clean = False  # a link, a special file, or a file that changed under us
                if self.list_odd(entry, rel):
                    rec.dirs.append(rel)
        return rec, clean

    def list_odd(self, entry: os.DirEntry, rel: str) -> bool:
        """A symlink or special file (or one that changed while listed); True: walk it."""
        link = entry.is_symlink()
        outside = link and not is_within(self.root, entry.path)
        # A linked folder is a node, never walked (no loops).
        is_dir = not link and entry.is_dir()
        stamp = (0, 0)
        if not is_dir and not outside:
            try:
                st = entry.stat()
                stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
                if not stat.S_ISREG(st.st_mode):
                    self.out.special[rel] = fsio.describe_mode(st.st_mode)
            except OSError:
                pass  # a dangling link inside: a node whose file cannot be read
        self.out.files[rel] = (is_dir, stamp, outside)
        if link and not outside:
            self.out.links.add(rel)
        return is_dir

    def list_mirrors(self) -> None:
        """The stamps of the mirror stores under ``.bh/`` (and any temp files left there)."""
        bh = os.path.join(self.root_str, ".bh")
        if os.path.islink(bh) or not os.path.isdir(bh):
            return
        base = os.path.join(bh, *MIRROR_ROOT.split("/")[1:])
        for dirpath, dirnames, filenames in os.walk(bh):
            dirnames[:] = [
                d
                for d in dirnames
                if d not in ("locks",) and not os.path.islink(os.path.join(dirpath, d))
            ]
            self.out.temps += [
                os.path.join(dirpath, n) for n in filenames if writing.is_our_temp(n)
            ]
            if MIRROR_FILE in filenames and dirpath.startswith(base + os.sep):
                full = os.path.join(dirpath, MIRROR_FILE)
                node = os.path.relpath(dirpath, base).replace(os.sep, "/")
                if os.path.islink(full):
                    continue
                st = os.stat(full)
                self.out.mirrors[node] = (st.st_mtime_ns, st.st_size, st.st_ino)
