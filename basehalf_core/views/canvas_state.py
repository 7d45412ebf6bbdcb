"""Dragged card positions, kept in ``.bh/canvas.json`` so the canvas opens as it was left.

Format: ``{"version": 1, "positions": {"<node path or ghost id>": [x, y], ...}}``.

Writes merge: the file is re-read, the moved cards are laid over it and the result goes
through :func:`basehalf_core.folder.writing.atomic_write` compare-and-swap, so two browser tabs (two
kernels) dragging different cards both keep their moves. A file that is not valid JSON of
that shape is never overwritten: it is kept as ``canvas.json.bad`` (or ``.bad-2`` …) first.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import fsio, writing
from basehalf_core.folder.fsio import (
    AlreadyExists,
    ChangedOnDisk,
    OutsideFolder,
    inside,
    read_bytes,
)
from basehalf_core.folder.writing import atomic_write

STATE_PATH = ".bh/canvas.json"
VERSION = 1
_RETRIES = 5

Point = tuple[float, float]


class CanvasStateInvalid(BasehalfError):
    """``.bh/canvas.json`` is not a canvas state; the message says what is wrong with it."""


@dataclass
class Loaded:
    """What was read: good positions, the entries that were skipped, and the raw bytes."""

    positions: dict[str, Point] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    data: bytes | None = None


def decode_json(data: bytes, name: str, error: type[BasehalfError]) -> object:
    """JSON from UTF-8 bytes (a BOM allowed), or ``error(name, reason)`` saying what is wrong.

    Shared by the canvas state and JSON Canvas imports, so both name a bad file the same way.
    """
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise error(name, f"not UTF-8 (byte at offset {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise error(name, f"not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})") from None


def parse(data: bytes) -> Loaded:
    """Read canvas state bytes. One bad entry is skipped (and named), never the whole file.

    Raises:
        CanvasStateInvalid: the bytes are not JSON, or not an object with a ``positions`` map.
    """
    doc = decode_json(data, STATE_PATH, CanvasStateInvalid)
    if not isinstance(doc, dict):
        raise CanvasStateInvalid(STATE_PATH, f"top level is {type(doc).__name__}, not an object")
    version = doc.get("version", VERSION)
    if version != VERSION:
        raise CanvasStateInvalid(STATE_PATH, f"version {version!r} is not {VERSION}")
    raw = doc.get("positions", {})
    if not isinstance(raw, dict):
        raise CanvasStateInvalid(STATE_PATH, f"'positions' is {type(raw).__name__}, not an object")
    out = Loaded(data=data)
    for key, value in raw.items():
        point = _point(value)
        if not key or point is None:
            out.skipped.append(f"{key!r}: {value!r} is not an [x, y] pair of finite numbers")
            continue
        out.positions[key] = point
    return out


def _point(value: object) -> Point | None:
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    x, y = float(value[0]), float(value[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    return (x, y)


def encode(positions: Mapping[str, Point]) -> bytes:
    """Canvas state bytes: sorted keys, numbers to 0.1 px, one card a line (diffs read well)."""
    lines = [
        f"  {json.dumps(k, ensure_ascii=False)}: [{_num(x)}, {_num(y)}]"
        for k, (x, y) in sorted(positions.items())
    ]
    body = ("{\n" + ",\n".join(lines) + "\n }") if lines else "{}"
    return f'{{"version": {VERSION}, "positions": {body}}}\n'.encode()


def _num(v: float) -> str:
    r = round(float(v), 1)
    return str(int(r)) if r == int(r) else repr(r)


class CanvasStore:
    """The ``.bh/canvas.json`` of one folder.

    Attributes:
        problem: why the file on disk could not be used ("" when it is fine); it is reported,
            then set aside as ``.bad`` on the first save so nothing is lost.
    """

    def __init__(self, root: Path):
        self.root = root
        self.problem = ""

    @property
    def path(self) -> Path:
        """The state file, checked on every use (a symlink may appear at any time).

        Raises:
            OutsideFolder: ``.bh`` or the file leads out of the folder.
        """
        return inside(self.root, STATE_PATH)

    def load(self) -> dict[str, Point]:
        """The saved positions ({} when there is no file or it is unusable, see ``problem``)."""
        try:
            data = read_bytes(self.path)
        except (OutsideFolder, OSError) as exc:
            self.problem = f"{STATE_PATH}: not read: {getattr(exc, 'reason', exc)}"
            return {}
        if data is None:
            self.problem = ""
            return {}
        try:
            loaded = parse(data)
        except CanvasStateInvalid as exc:
            self.problem = str(exc)
            return {}
        self.problem = (
            f"{STATE_PATH}: skipped {len(loaded.skipped)} entries: " + "; ".join(loaded.skipped)
            if loaded.skipped
            else ""
        )
        return loaded.positions

    def update(self, moved: Mapping[str, Point]) -> dict[str, Point]:
        """Lay ``moved`` over what is on disk now and write it back (compare-and-swap).

        Returns:
            All positions now saved.

        Raises:
            ChangedOnDisk: the file kept changing under us for every retry.
        """
        merged: dict[str, Point] = {}

        def plan(data: bytes | None) -> bytes | None:
            current: dict[str, Point] = {}
            if data is not None:
                try:
                    current = parse(data).positions
                except CanvasStateInvalid:
                    # Keep the unusable bytes under another name, then replace them.
                    self._set_aside(data)
            merged.clear()
            merged.update(current)
            merged.update({k: (float(x), float(y)) for k, (x, y) in moved.items()})
            new = encode(merged)
            return None if new == data else new

        try:
            writing.update(self.root, STATE_PATH, plan, attempts=_RETRIES)
        except ChangedOnDisk:
            raise ChangedOnDisk(
                STATE_PATH, "kept changing while saving card positions; not saved"
            ) from None
        self.problem = ""
        return dict(merged)

    def _set_aside(self, data: bytes) -> str:
        """Copy an unusable state file's bytes to a new ``.bad`` name; returns that name."""
        for n in range(1, 1000):
            name = STATE_PATH + (".bad" if n == 1 else f".bad-{n}")
            existing = read_bytes(inside(self.root, name))
            if existing == data:
                return name  # already kept (a retry, or a second tab)
            if existing is not None:
                continue
            try:
                with fsio.locked(self.root, name):
                    atomic_write(inside(self.root, name), data, expected=None)
                return name
            except AlreadyExists:
                continue
        raise CanvasStateInvalid(STATE_PATH, "unusable, and 999 .bad copies exist; not replaced")
