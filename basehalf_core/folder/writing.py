"""Writing a file in one study folder: compare-and-swap and atomic replace, under its lock.

Every byte basehalf writes into a folder goes through :func:`update` (or :func:`atomic_write`
under a lock from :func:`~basehalf_core.folder.fsio.locked`), which holds the file's lock
across read, plan, compare and replace. Editors do not take the lock, so the replace itself is
an atomic *exchange* (``renameat2(RENAME_EXCHANGE)``): the bytes it swapped out are compared
with the bytes the plan was made on, and a save that landed in between is put back and
reported, never overwritten.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import secrets
import stat
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from basehalf_core.folder.fsio import (
    AlreadyExists,
    ChangedOnDisk,
    NotRegularFile,
    OutsideFolder,
    WriteRefused,
    acquire_lock,
    check_name_lengths,
    describe_mode,
    inside,
    lock_key,
    locked,
    read_bytes,
    release_lock,
)

_MISSING = object()
REMOVE = object()
"""Returned by an :func:`update` plan: remove the file (compare-and-swap like a write)."""

TMP_SUFFIX = ".bh-tmp"


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
        if not acquire_lock(root, key, blocking=False):
            return False
        try:
            os.unlink(full)
        finally:
            release_lock(root, key)
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
