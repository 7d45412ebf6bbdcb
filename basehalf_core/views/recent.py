"""Recently opened study folders, remembered per user for the folder picker.

The list lives in the platform's user configuration folder (``$XDG_CONFIG_HOME/basehalf`` or
``~/.config/basehalf`` on Linux, ``~/Library/Application Support/basehalf`` on macOS,
``%APPDATA%\\basehalf`` on Windows; ``BASEHALF_CONFIG_DIR`` overrides it), never inside a study
folder. A damaged list is treated as empty; a folder that has gone is shown as such.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from basehalf_core.folder.fsio import WriteRefused, locked
from basehalf_core.folder.writing import atomic_write

KEEP = 10


def config_dir() -> Path:
    """The user's basehalf configuration folder (not created here)."""
    override = os.environ.get("BASEHALF_CONFIG_DIR")
    if override:
        return Path(override).expanduser()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming") / "basehalf"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / "basehalf"
    xdg = os.environ.get("XDG_CONFIG_HOME")
    return (Path(xdg) if xdg else Path.home() / ".config") / "basehalf"


NAME = "recent-folders.json"


def _file() -> Path:
    return config_dir() / NAME


@dataclass(frozen=True)
class RecentFolder:
    """One remembered folder and whether it is still there."""

    path: str
    exists: bool


def load() -> list[RecentFolder]:
    """The remembered folders, newest first; a missing or damaged list gives ``[]``."""
    try:
        data = json.loads(_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    folders = data.get("folders") if isinstance(data, dict) else None
    paths = [p for p in folders if isinstance(p, str)] if isinstance(folders, list) else []
    return [RecentFolder(p, Path(p).is_dir()) for p in paths[:KEEP]]


def remember(folder: str | os.PathLike) -> None:
    """Put ``folder`` first in the list (best effort: a read-only config folder is ignored)."""
    path = str(Path(folder).expanduser().resolve())
    # Remembering is a convenience: opening the folder must not fail over it. Read, add and
    # write under one lock (threads: marimo's tabs; flock: other processes), or two folders
    # opened at once keep only one of them.
    with contextlib.suppress(OSError, WriteRefused), locked(config_dir(), NAME):
        paths = [path] + [r.path for r in load() if r.path != path]
        data = json.dumps({"folders": paths[:KEEP]}, ensure_ascii=False, indent=1)
        atomic_write(_file(), data.encode("utf-8"))
