"""Safe file access inside one study folder: containment, compare-and-swap, atomic replace.

Every byte basehalf writes goes through :func:`atomic_write`. It refuses to write through a
symlink, outside the folder, or over a file whose bytes are no longer the ones the caller read.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from basehalf_core.errors import BasehalfError

_MISSING = object()


class FolderError(BasehalfError):
    """The study folder itself cannot be used (missing, not a folder, not readable)."""


class WriteRefused(BasehalfError):
    """A write was not made. ``path`` names the file, ``reason`` says why in words."""


class ChangedOnDisk(WriteRefused):
    """The file changed since it was read; writing would clobber someone else's edit."""


class AlreadyExists(WriteRefused):
    """A create-only write found a file already there."""


class OutsideFolder(WriteRefused):
    """The path (or a symlink on the way to it) leads outside the study folder."""


def open_folder(root: str | os.PathLike) -> Path:
    """Return the folder's resolved path, or raise :class:`FolderError` naming the problem."""
    path = Path(root).expanduser()
    if not path.exists():
        raise FolderError(f"{path}: folder does not exist")
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


def inside(root: Path, rel: str) -> Path:
    """Map a folder-relative ``/`` path to a real path, refusing anything that escapes.

    The final component may be a symlink only if it resolves inside the folder; a write
    through any symlink is refused separately by :func:`atomic_write`.
    """
    if not rel or rel.startswith("/") or "\\" in rel or "\x00" in rel:
        raise OutsideFolder(rel or "(empty)", "not a path inside the folder")
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise OutsideFolder(rel, "not a path inside the folder")
    path = root.joinpath(*parts)
    if not is_within(root, path.parent) or (path.is_symlink() and not is_within(root, path)):
        raise OutsideFolder(rel, "leads outside the folder through a symlink")
    return path


def read_bytes(path: Path) -> bytes | None:
    """The file's bytes, or ``None`` when there is no file."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def atomic_write(path: Path, data: bytes, *, expected: object = _MISSING) -> None:
    """Write ``data`` to ``path`` atomically.

    Args:
        path: the target, already checked with :func:`inside`.
        data: the new bytes.
        expected: the bytes the caller read and planned its edit on. ``None`` means the
            file must not exist (create-only, never overwrites). Leave unset to skip the check
            (only for files basehalf owns, such as ``.bh/`` state).

    Raises:
        ChangedOnDisk: the current bytes differ from ``expected``.
        AlreadyExists: create-only and the file is there.
        OutsideFolder: ``path`` is a symlink.
    """
    if path.is_symlink():
        raise OutsideFolder(path, "is a symlink; basehalf never writes through one")
    if expected is not _MISSING:
        current = read_bytes(path)
        if expected is None and current is not None:
            raise AlreadyExists(path, "already exists; not overwritten")
        if expected is not None and current != expected:
            raise ChangedOnDisk(path, "changed on disk since it was read; nothing written")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".bh-tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        except FileNotFoundError:
            os.chmod(tmp, 0o644)
        if expected is None:
            # link() fails if the name exists: create-only without a check-then-act race.
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise AlreadyExists(path, "already exists; not overwritten") from None
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
        _fsync_dir(path.parent)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
