"""Safe file access inside one study folder: containment, locks, compare-and-swap, atomic replace.

Every byte basehalf writes into a folder goes through :func:`update` (or :func:`atomic_write`
under a lock from :func:`locked`). A write holds the file's lock — a thread lock, because
marimo serves browser sessions as threads of one process, plus an ``flock`` on a file under
``.bh/locks/``, because the CLI and other processes write too — across read, plan, compare and
replace. Editors do not take the lock, so the replace itself is an atomic *exchange*
(``renameat2(RENAME_EXCHANGE)``): the bytes it swapped out are compared with the bytes the plan
was made on, and a save that landed in between is put back and reported, never overwritten.

Reading a node goes through :func:`read_node`: one containment check (no symlink out of the
folder), and nothing that is not a regular file is ever opened for reading (a FIFO would block).
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import hashlib
import os
import secrets
import stat
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path

from basehalf_core.errors import BasehalfError

_MISSING = object()
REMOVE = object()
"""Returned by an :func:`update` plan: remove the file (compare-and-swap like a write)."""

LOCK_DIR = ".bh/locks"
TMP_SUFFIX = ".bh-tmp"
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


def _acquire(root: Path, key: str, blocking: bool = True) -> bool:
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


def _release(root: Path, key: str) -> None:
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
            _acquire(root, key)
            taken.append(key)
        yield
    finally:
        for key in reversed(taken):
            _release(root, key)


@contextlib.contextmanager
def try_locked(root: Path, rel: str) -> Iterator[bool]:
    """Take ``rel``'s lock if nobody holds it; yields whether it was taken."""
    key = "multi" if rel == MULTI else lock_key(f"{root}/{rel}")
    got = _acquire(root, key, blocking=False)
    try:
        yield got
    finally:
        if got:
            _release(root, key)


# --- writing -------------------------------------------------------------------------------


def _load_renameat2() -> Callable[[str, str], int] | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int

    def exchange(a: str, b: str) -> int:
        at_fdcwd, rename_exchange = -100, 2
        if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
            return 0
        return ctypes.get_errno()

    return exchange


_exchange = _load_renameat2()


def temp_name(path: Path) -> Path:
    """A hidden temp name beside ``path``: short (any note name fits) and tied to its lock."""
    key = lock_key(path)
    return path.parent / f".{key}.{secrets.token_hex(4)}{TMP_SUFFIX}"


def _replace(tmp: Path, path: Path, expected: object) -> None:
    """Put ``tmp`` at ``path``; with ``expected`` bytes, prove those were what got replaced."""
    if expected is None:
        # link() fails if the name exists: create-only without a check-then-act race.
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise AlreadyExists(path, "already exists; not overwritten") from None
        os.unlink(tmp)
        return
    if expected is _MISSING or _exchange is None:
        os.replace(tmp, path)
        return
    err = _exchange(str(tmp), str(path))
    if err == errno.ENOENT:
        raise ChangedOnDisk(path, "was removed while being written; nothing written")
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        os.replace(tmp, path)  # a file system without exchange: the compare just before stands
        return
    if err:
        raise OSError(err, os.strerror(err), str(path))
    # ``tmp`` now holds exactly what was at ``path`` a moment ago: a file, or (replaced at the
    # last moment) a folder, a symlink or a FIFO, which must go back untouched and unread.
    _put_back_unless_file(tmp, path, lambda: _exchange(str(tmp), str(path)))
    swapped_out = read_bytes(tmp)
    if swapped_out != expected:
        # An editor saved between our last compare and the exchange: give its bytes back.
        _exchange(str(tmp), str(path))
        raise ChangedOnDisk(
            path, "was saved by another program during the write; its version kept, nothing written"
        )
    os.unlink(tmp)  # the replaced bytes, before the folder's fsync (one journal commit)


def atomic_write(
    path: Path, data: bytes, *, expected: object = _MISSING, mode: int | None = None
) -> None:
    """Write ``data`` to ``path`` atomically (temp file, fsync, exchange, fsync the folder).

    Callers writing into a study folder hold the file's :func:`locked` lock across their read
    and this call (or use :func:`update`, which does).

    Args:
        path: the target, already checked with :func:`inside`.
        data: the new bytes.
        expected: the bytes the caller read and planned its edit on. ``None`` means the
            file must not exist (create-only, never overwrites). Leave unset to skip the check
            (only for files basehalf owns outright, such as an export the user named).
        mode: the file's permission bits, set before it appears under its name (a secret
            made 0644 and narrowed afterwards can be read in between). Default: the current
            file's, or 0644 for a new one.

    Raises:
        ChangedOnDisk: the current bytes differ from ``expected`` (checked after the temp file
            is written, and again on the bytes the exchange replaced).
        AlreadyExists: create-only and the file is there.
        OutsideFolder: ``path`` is a symlink.
        NotRegularFile: ``path`` is a FIFO, device or other special file.
    """
    path = Path(path)
    if path.is_symlink():
        raise OutsideFolder(path, "is a symlink; basehalf never writes through one")
    with contextlib.suppress(FileNotFoundError):
        mode = path.lstat().st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, f"is {describe_mode(mode)}; not replaced")
    if expected is None and os.path.lexists(path):
        raise AlreadyExists(path, "already exists; not overwritten")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_name(path)
    if mode is None:
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o644
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            os.fchmod(fh.fileno(), mode)  # before the fsync: one metadata flush, not two
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if expected is not _MISSING and expected is not None and read_bytes(path) != expected:
            # Compared after the slow part (fsync), so the window before the swap is short.
            raise ChangedOnDisk(path, "changed on disk since it was read; nothing written")
        _replace(tmp, path, expected)
        _fsync_dir(path.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)


def write_output(target: Path, data: bytes) -> None:
    """Write a file the user named on the command line (an export), atomically.

    The final name is never followed: a symlink there is refused (it could point at a file
    outside anything the user meant), as is anything that is not a regular file.

    Raises:
        WriteRefused: a folder, a symlink, a special file, or a missing parent folder.
    """
    target = Path(target)
    try:
        st = target.lstat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteRefused(target, f"cannot be written ({exc.strerror})") from None
    if st is not None and stat.S_ISLNK(st.st_mode):
        raise OutsideFolder(
            target, "is a symlink; not written through it (remove it, or use -o - for stdout)"
        )
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise WriteRefused(target, "is a folder; give a file name such as session.html")
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise NotRegularFile(
            target, f"is {describe_mode(st.st_mode)}, not a regular file; not replaced"
        )
    parent = target.parent
    if not parent.is_dir():
        raise WriteRefused(parent, "folder does not exist")
    check_name_lengths(target.name)
    with refusing_oserror(str(target)):  # a read-only mount, a full disk, no permission
        atomic_write(parent.resolve() / target.name, data)


def update(
    root: Path,
    rel: str,
    plan: Callable[[bytes | None], object],
    *,
    attempts: int = 5,
) -> object:
    """Under ``rel``'s lock: read, plan, compare-and-swap, replace; re-plan if an editor raced.

    The one write path for a file in the folder (notes, mirror stores, ``.bh/`` state).

    Args:
        root: the study folder.
        rel: folder-relative path of the file.
        plan: gets the current bytes (``None`` = no file) and returns the new bytes, ``None`` to
            write nothing, or :data:`REMOVE` to delete the file.
        attempts: how often to re-read and re-plan when another program saved in between.

    Returns:
        What the plan returned for the write that was made (``None`` if nothing was written).

    Raises:
        ChangedOnDisk: the file kept changing for every attempt.
        WriteRefused: (and subclasses) the write cannot be made; the reason says why.
    """
    path = inside(root, rel)
    with locked(root, rel), refusing_oserror(rel):
        for attempt in range(attempts):
            before = read_bytes(path)
            new = plan(before)
            if new is None:
                return None
            try:
                if new is REMOVE:
                    if before is None:
                        return None
                    _remove(path, before)
                else:
                    atomic_write(path, new, expected=before)  # type: ignore[arg-type]
                return new
            except (ChangedOnDisk, AlreadyExists):
                if attempt == attempts - 1:
                    raise
                time.sleep(0.001 * (attempt + 1))
    return None  # pragma: no cover - the loop returns or raises


@contextlib.contextmanager
def refusing_oserror(rel: str) -> Iterator[None]:
    """Turn an ``OSError`` of the block into :class:`WriteRefused` naming ``rel``.

    A write can fail below basehalf (a folder where a file's folder should be, a full disk, a
    read-only mount): the app and the CLI show refusals in one line, not a traceback.
    """
    try:
        yield
    except OSError as exc:
        raise WriteRefused(rel, f"cannot be written ({exc.strerror or exc})") from None


def _remove(path: Path, expected: bytes) -> None:
    # Move the file aside first, then check what was moved: a save that raced us is put back.
    aside = temp_name(path)
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        raise ChangedOnDisk(path, "was removed meanwhile; nothing removed") from None
    _put_back_unless_file(aside, path, lambda: os.rename(aside, path))
    if read_bytes(aside) != expected:
        os.rename(aside, path)
        raise ChangedOnDisk(path, "changed on disk since it was read; not removed")
    os.unlink(aside)
    _fsync_dir(path.parent)


def _put_back_unless_file(moved: Path, path: Path, put_back: Callable[[], object]) -> None:
    """After ``path`` was swapped or moved to ``moved``: if that is not a regular file, undo.

    Raises:
        ChangedOnDisk: the name held a folder, symlink or special file by then; it is back.
    """
    mode = os.lstat(moved).st_mode
    if not stat.S_ISREG(mode):
        put_back()
        raise ChangedOnDisk(
            path, f"was replaced by {describe_mode(mode)} meanwhile; it is kept, nothing written"
        )


def is_our_temp(name: str) -> bool:
    """Whether a file name is one of basehalf's temp files (``.<key>.<hex>.bh-tmp``)."""
    return name.startswith(".") and name.endswith(TMP_SUFFIX)


def remove_stale_temp(root: Path, full: str) -> bool:
    """Remove a temp file left by a killed writer; a live writer's temp file is left alone.

    A writer holds the target's lock for as long as its temp file exists, so a temp file whose
    lock can be taken is stale. Temp files in the old naming (before locks) go when an hour old.
    """
    name = os.path.basename(full)
    parts = name.split(".")
    key = parts[1] if len(parts) == 4 and len(parts[1]) == 32 else None
    try:
        if key is None:
            if time.time() - os.lstat(full).st_mtime < 3600:
                return False
            os.unlink(full)
            return True
        if not _acquire(root, key, blocking=False):
            return False
        try:
            os.unlink(full)
        finally:
            _release(root, key)
        return True
    except OSError:
        return False


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
