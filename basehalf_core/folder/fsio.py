"""Safe file access inside one study folder: containment, reading, and the files' locks.

A write (:mod:`basehalf_core.folder.writing`) holds the file's lock from :func:`locked` — a
thread lock, because marimo serves browser sessions as threads of one process, plus an
``flock`` on a file under ``.bh/locks/``, because the CLI and other processes write too —
across read, plan, compare and replace.

Reading a node goes through :func:`read_node`: one containment check (no symlink out of the
folder), and nothing that is not a regular file is ever opened for reading (a FIFO would block).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import stat
import threading
import unicodedata
from collections.abc import Iterator
from pathlib import Path

from basehalf_core.errors import BasehalfError

LOCK_DIR = ".bh/locks"
MULTI = "\x00multi-file operation"  # the lock every operation touching several files takes first
NAME_MAX = 255
PATH_MAX = 4096


class FolderError(BasehalfError):
    """The study folder itself cannot be used (missing, not a folder, not readable)."""


class WriteRefused(BasehalfError):
    """A write (or a read of a node) was not made. ``path`` names the file, ``reason`` says why."""


class ChangedOnDisk(WriteRefused):
    """The file changed since it was read; writing would clobber someone else's edit."""


class AlreadyExists(WriteRefused):
    """A create-only write found a file already there."""


class OutsideFolder(WriteRefused):
    """The path (or a symlink on the way to it) leads outside the study folder."""


class NotRegularFile(WriteRefused):
    """The path is a FIFO, socket, device or other special file: never opened."""


class NameTooLong(WriteRefused):
    """A file name over 255 bytes or a path over 4 KiB: the file system cannot hold it."""


def open_folder(root: str | os.PathLike) -> Path:
    """Return the folder's resolved path, or raise :class:`FolderError` naming the problem."""
    path = Path(root).expanduser()
    try:
        if not path.exists():
            raise FolderError(f"{path}: folder does not exist")
    except OSError as exc:  # ENAMETOOLONG and friends: one line, not a traceback
        raise FolderError(f"{str(path)[:80]}…: {exc.strerror}") from None
    if not path.is_dir():
        raise FolderError(f"{path}: not a folder")
    if not os.access(path, os.R_OK | os.X_OK):
        raise FolderError(f"{path}: folder is not readable")
    return path.resolve()


def is_within(root: Path, candidate: str | os.PathLike) -> bool:
    """True when ``candidate`` (after resolving symlinks) is ``root`` or below it."""
    real = os.path.realpath(candidate)
    base = os.path.realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def check_name_lengths(rel: str) -> None:
    """Refuse a path the file system cannot hold, in one line instead of an OSError later."""
    if len(rel.encode("utf-8", "surrogateescape")) > PATH_MAX:
        raise NameTooLong(rel, f"path is over {PATH_MAX} bytes")
    for part in rel.split("/"):
        if len(part.encode("utf-8", "surrogateescape")) > NAME_MAX:
            raise NameTooLong(part, f"file name is over {NAME_MAX} bytes")


def inside(root: Path, rel: str) -> Path:
    """Map a folder-relative ``/`` path to a real path, refusing anything that escapes.

    This is the one containment check: every reader and writer (app, CLI, export, course
    handout) maps names through it. The final component may be a symlink only if it resolves
    inside the folder; a write through any symlink is refused separately by :func:`atomic_write`.
    """
    if not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel:
        raise OutsideFolder(rel or "(empty)", "not a path inside the folder")
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise OutsideFolder(rel, "not a path inside the folder")
    check_name_lengths(rel)
    path = root.joinpath(*parts)
    if not is_within(root, path.parent) or (path.is_symlink() and not is_within(root, path)):
        raise OutsideFolder(rel, "points outside the folder (a symlink); not followed")
    return path


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or ``None`` when there is no file. Never opens a special file."""
    try:
        return read_regular(path)
    except FileNotFoundError:
        return None


def read_regular(path: str | os.PathLike, limit: int | None = None) -> bytes:
    """Bytes of a regular file (up to ``limit``), opened without blocking on a FIFO.

    Raises:
        NotRegularFile: a FIFO, socket, device or folder.
        FileNotFoundError: no file.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(
                path, f"is {describe_mode(st.st_mode)}, not a regular file; not read"
            )
        if limit is not None:
            return os.read(fd, limit)
        chunks = []
        while chunk := os.read(fd, max(st.st_size + 1, 65536)):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def describe_mode(mode: int) -> str:
    """'a FIFO', 'a socket', 'a device', 'a folder' … for messages."""
    for test, words in (
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISLNK, "a symlink"),
    ):
        if test(mode):
            return words
    return "a special file"


def read_node(root: Path, rel: str, limit: int | None = None) -> bytes:
    """A node's bytes through the one containment check; never a special file.

    Raises:
        OutsideFolder: the path or a symlink on it leads outside the folder.
        NotRegularFile: a FIFO, device, socket or folder.
        FileNotFoundError: no such file.
    """
    return read_regular(inside(root, rel), limit)


# --- locks ---------------------------------------------------------------------------------


class _Held:
    __slots__ = ("depth", "fd", "rlock")

    def __init__(self) -> None:
        self.rlock = threading.RLock()
        self.depth = 0
        self.fd: int | None = None


_registry: dict[str, _Held] = {}
_registry_guard = threading.Lock()


def lock_key(full: str | os.PathLike) -> str:
    """The lock's name for a file (a hash of its full path: any name, any length, NFC)."""
    text = unicodedata.normalize("NFC", os.fspath(full))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def _held(root: Path, key: str) -> _Held:
    with _registry_guard:
        return _registry.setdefault(f"{root}\x00{key}", _Held())


def _open_lock_file(root: Path, key: str) -> int | None:
    folder = root / ".bh" / "locks"
    # Checked before mkdir too: a ``.bh`` linking out would have the folder made out there.
    if not is_within(root, folder):
        raise OutsideFolder(LOCK_DIR, "points outside the folder (a symlink); not used")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a read-only folder: the write itself will fail with its own reason
    if not is_within(root, folder):
        raise OutsideFolder(LOCK_DIR, "points outside the folder (a symlink); not used")
    try:
        return os.open(
            folder / f"{key}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644
        )
    except OSError:
        return None


def acquire_lock(root: Path, key: str, blocking: bool = True) -> bool:
    held = _held(root, key)
    if not held.rlock.acquire(blocking=blocking):
        return False
    if held.depth == 0:
        try:
            fd = _open_lock_file(root, key)
            if fd is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
                except BlockingIOError:
                    os.close(fd)
                    held.rlock.release()
                    return False
            held.fd = fd
        except BaseException:
            held.rlock.release()
            raise
    held.depth += 1
    return True


def release_lock(root: Path, key: str) -> None:
    held = _held(root, key)
    held.depth -= 1
    if held.depth == 0 and held.fd is not None:
        # Closing the descriptor drops the flock; the lock file stays for the next writer.
        os.close(held.fd)
        held.fd = None
    held.rlock.release()


@contextlib.contextmanager
def locked(root: Path, *rels: str) -> Iterator[None]:
    """Hold the locks of ``rels`` (folder-relative paths) for the block.

    Several locks are taken in one fixed order: :data:`MULTI` first when given, then by key.
    Re-entrant within a thread, so an operation may call another on a file it holds.
    """
    keys = sorted({lock_key(f"{root}/{r}") for r in rels if r != MULTI})
    if MULTI in rels:
        keys.insert(0, "multi")
    taken: list[str] = []
    try:
        for key in keys:
            acquire_lock(root, key)
            taken.append(key)
        yield
    finally:
        for key in reversed(taken):
            release_lock(root, key)


@contextlib.contextmanager
def try_locked(root: Path, rel: str) -> Iterator[bool]:
    """Take ``rel``'s lock if nobody holds it; yields whether it was taken."""
    key = "multi" if rel == MULTI else lock_key(f"{root}/{rel}")
    got = acquire_lock(root, key, blocking=False)
    try:
        yield got
    finally:
        if got:
            release_lock(root, key)
