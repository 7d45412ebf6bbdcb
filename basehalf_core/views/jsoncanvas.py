"""Export the canvas as JSON Canvas 1.0 (https://jsoncanvas.org), e.g. for Obsidian, and import
the card positions of such a file back (:func:`import_positions`).

Every card becomes a ``file`` node at the spot it has on basehalf's canvas (dragged spots from
``.bh/canvas.json``, the rest from the layered layout); every upstream link an edge with an
arrow at the downstream end. A dangling entry becomes a ``text`` node saying what is missing,
a linked folder a ``text`` node naming it.
JSON Canvas positions are a node's top-left corner in whole pixels; ids are stable hashes of
the paths, so re-exporting a folder gives the same ids.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.fsio import AlreadyExists, inside, read_bytes
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import network
from basehalf_core.views.canvas_state import CanvasStore, decode_json
from basehalf_core.views.layout import CARD_H, CARD_W, positions
from basehalf_core.views.markdown import escape as safe_markdown

SUFFIX = ".canvas"
# JSON Canvas preset colours: 1 red, 2 orange, 3 yellow, 4 green, 5 cyan, 6 purple.
KIND_COLOR = {"pdf": "1", "epub": "2", "dangling": "3", "practice": "4", "grading": "6"}


class BadCanvasTarget(BasehalfError):
    """The export cannot be written where asked; the message names the path and why."""


def node_id(key: str) -> str:
    """A stable 16-hex-digit id for a node path or ghost id."""
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def export(ws: Workspace, *, exclude: set[str] | None = None) -> dict:
    """The JSON Canvas document of the workspace.

    Args:
        ws: the workspace.
        exclude: node paths to leave out (the export file itself, when it is in the folder).

    Returns:
        ``{"nodes": [...], "edges": [...]}``.
    """
    exclude = exclude or set()
    order = [p for p in network.shown_nodes(ws) if p not in exclude]
    ghosts, _ = network.scan_issues(ws)
    xy = positions(ws, order=order)
    try:
        pins = CanvasStore(ws.root).load()
    except OSError:
        pins = {}
    xy.update({k: v for k, v in pins.items() if k in xy})
    ghost_known = {k: v for k, v in pins.items() if network.is_ghost(k)}
    xy.update(network.ghost_positions(ghosts, xy, ghost_known))

    nodes: list[dict] = []
    for p in order:
        kind = ws.nodes[p].kind
        # A folder is no file a canvas app can open: it becomes a text card naming it.
        fields = (
            {"type": "text", "text": safe_markdown(f"Folder: {p}/")}
            if kind == "folder"
            else {"type": "file", "file": p}
        )
        nodes.append(_node(node_id(p), xy[p], kind, fields))
    for target in ghosts.holders:
        gid = network.ghost_id(target)
        text = safe_markdown(f"Missing: {target}")
        nodes.append(_node(node_id(gid), xy[gid], "dangling", {"type": "text", "text": text}))

    edges: list[dict] = []
    shown = set(order)
    pairs = [(u, v) for u, v in ws.graph.edges if u in shown and v in shown]
    pairs += [
        (network.ghost_id(t), h) for t, hs in ghosts.holders.items() for h in hs if h in shown
    ]
    for u, v in sorted(pairs):
        edges.append(
            {
                "id": node_id(network.edge_id(u, v)),
                "fromNode": node_id(u),
                "fromSide": "bottom",
                "toNode": node_id(v),
                "toSide": "top",
                "toEnd": "arrow",
            }
        )
    return {"nodes": nodes, "edges": edges}


def _node(nid: str, centre: tuple[float, float], kind: str, fields: dict) -> dict:
    node = {
        "id": nid,
        **fields,
        "x": round(centre[0] - CARD_W / 2),
        "y": round(centre[1] - CARD_H / 2),
        "width": CARD_W,
        "height": CARD_H,
    }
    if kind in KIND_COLOR:
        node["color"] = KIND_COLOR[kind]
    return node


def dumps(doc: dict) -> bytes:
    """The document as UTF-8 JSON text, tab-indented like Obsidian writes it."""
    return (json.dumps(doc, ensure_ascii=False, indent="\t") + "\n").encode("utf-8")


def target_path(ws: Workspace, name: str) -> str:
    """Folder-relative path of the export file ``name`` (relative to the folder, or absolute).

    Raises:
        BadCanvasTarget: not a ``.canvas`` name, or not inside the folder.
    """
    if not name.lower().endswith(SUFFIX):
        raise BadCanvasTarget(name, f"the export file name must end in {SUFFIX}")
    path = Path(name)
    if path.is_absolute():
        real = Path(os.path.realpath(path))
        try:
            rel = real.relative_to(ws.root).as_posix()
        except ValueError:
            raise BadCanvasTarget(name, f"outside the folder {ws.root}; not written") from None
    else:
        rel = Path(name).as_posix()
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts) or parts[0] == ".bh":
        raise BadCanvasTarget(name, "not a path inside the folder (no '..', not in .bh/)")
    return rel


def write(ws: Workspace, name: str, *, replace: bool = False) -> str:
    """Export the workspace to ``name`` inside the folder; never overwrites unless ``replace``.

    Returns:
        The folder-relative path written.

    Raises:
        BadCanvasTarget: a bad name (see :func:`target_path`).
        AlreadyExists: the file is there and ``replace`` is false.
        OutsideFolder / ChangedOnDisk: see :func:`basehalf_core.folder.writing.atomic_write`.
    """
    rel = target_path(ws, name)
    full = inside(ws.root, rel)
    before = read_bytes(full)
    if before is not None and not replace:
        raise AlreadyExists(rel, "already exists; not overwritten (use --replace)")
    data = dumps(export(ws, exclude={rel}))
    operations.put(ws, rel, data, replace=replace)
    return rel


# --- import ---------------------------------------------------------------------------------


class BadCanvasFile(BasehalfError):
    """A ``.canvas`` file that cannot be imported; the message names the file and why."""


@dataclass
class Imported:
    """What an import did: card positions taken (node path → centre) and nodes left out."""

    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    skipped: list[dict[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"imported": sorted(self.positions), "skipped": self.skipped}


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) else None


def read_positions(ws: Workspace, data: bytes, name: str) -> Imported:
    """Card centres from a JSON Canvas document: its ``file`` nodes matched to nodes by path.

    JSON Canvas keeps a node's top-left corner and size; basehalf keeps centres. A file node
    naming no node of the folder, or with unusable numbers, is skipped and named; so is a
    second node for the same file (the first one wins, as it is drawn first).

    Raises:
        BadCanvasFile: not UTF-8 JSON, or not an object with a ``nodes`` list.
    """
    doc = decode_json(data, name, BadCanvasFile)
    if not isinstance(doc, dict) or not isinstance(doc.get("nodes", []), list):
        raise BadCanvasFile(name, "not a JSON Canvas document (an object with a 'nodes' list)")
    out = Imported()
    for i, node in enumerate(doc.get("nodes", [])):
        if not isinstance(node, dict) or node.get("type") != "file":
            continue  # text, link and group nodes have no card in basehalf
        label = str(node.get("id") or f"node {i}")
        file = node.get("file")
        real = ws.resolve(file) if isinstance(file, str) and file else None
        x, y = _number(node.get("x")), _number(node.get("y"))
        w, h = _number(node.get("width", CARD_W)), _number(node.get("height", CARD_H))
        reason = ""
        if real is None:
            reason = f"file {file!r} is not a node of the folder"
        elif None in (x, y, w, h):
            reason = "x, y, width and height must be finite numbers"
        elif real in out.positions:
            reason = f"a second node for {real}; the first one is kept"
        if reason:
            out.skipped.append({"node": label, "reason": reason})
            continue
        out.positions[real] = (x + w / 2, y + h / 2)
    return out


def import_positions(ws: Workspace, file: str | os.PathLike) -> Imported:
    """Lay the positions of a ``.canvas`` file's file nodes over ``.bh/canvas.json``.

    Raises:
        BadCanvasFile: the file cannot be read or is not a JSON Canvas document.
    """
    path = Path(file).expanduser()
    if not path.name.lower().endswith(SUFFIX):
        raise BadCanvasFile(str(path), f"the file name must end in {SUFFIX}")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BadCanvasFile(str(path), "no such file") from None
    except OSError as exc:
        raise BadCanvasFile(str(path), f"cannot be read ({exc.strerror or exc})") from None
    found = read_positions(ws, data, str(path))
    if found.positions:
        CanvasStore(ws.root).update(found.positions)
    return found
