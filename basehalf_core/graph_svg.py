"""An SVG picture of a study folder's graph, for the static export.

Pure Python, no script: every label is escaped text, so a note titled ``<script>`` is drawn as
those characters. Positions come from :mod:`basehalf_core.layout` when it is installed in the
tree, else from a small layered layout here that follows the learning path (layer = longest
chain of upstream nodes met earlier on the path, so the picture reads top to bottom like the
path does).
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from .workspace import Workspace

NODE_W = 190
NODE_H = 44
GAP_X = 30
GAP_Y = 60
MARGIN = 20
_LABEL_CHARS = 26

# Fill / stroke per kind; dangling entries are drawn as dashed ghost boxes.
KIND_STYLE: dict[str, tuple[str, str]] = {
    "pdf": ("#fde8e8", "#b42318"),
    "epub": ("#fdf0e1", "#b54708"),
    "note": ("#eef4ff", "#3538cd"),
    "practice": ("#ecfdf3", "#027a48"),
    "grading": ("#f4f3ff", "#5925dc"),
    "folder": ("#f2f4f7", "#475467"),
    "other": ("#f9fafb", "#667085"),
    "dangling": ("#fffaeb", "#dc6803"),
}


@dataclass(frozen=True)
class Box:
    """One drawn node: its path, label, kind and top-left corner."""

    path: str
    label: str
    kind: str
    x: float
    y: float


def layered_positions(ws: Workspace, order: list[str] | None = None) -> dict[str, tuple[int, int]]:
    """Layer/column for each node: a layered layout that follows the learning path.

    Args:
        ws: the workspace.
        order: the node order to lay out (default: the learning path).

    Returns:
        ``{path: (column, layer)}``; columns count from 0 within each layer.
    """
    order = order if order is not None else ws.learning_path()
    seen: set[str] = set()
    layer: dict[str, int] = {}
    for p in order:
        ups = [u for u in ws.graph.predecessors(p) if u in seen]
        layer[p] = max((layer[u] + 1 for u in ups), default=0)
        seen.add(p)
    columns: dict[int, int] = {}
    out: dict[str, tuple[int, int]] = {}
    for p in order:
        col = columns.get(layer[p], 0)
        columns[layer[p]] = col + 1
        out[p] = (col, layer[p])
    return out


def _layout_positions(ws: Workspace) -> dict[str, tuple[float, float]] | None:
    """Pixel positions from the canvas room's layout, when that module is present."""
    try:
        from . import layout  # the canvas room's module; optional here
    except ImportError:
        return None
    compute = getattr(layout, "positions", None) or getattr(layout, "layout", None)
    if compute is None:
        return None
    try:
        raw = compute(ws)
    except Exception:  # a layout bug must not break the export; fall back to ours
        return None
    out: dict[str, tuple[float, float]] = {}
    for path, pos in dict(raw).items():
        if isinstance(pos, dict):
            pos = (pos.get("x"), pos.get("y"))
        try:
            out[str(path)] = (float(pos[0]), float(pos[1]))
        except (TypeError, ValueError, IndexError):
            return None
    return out


def boxes(ws: Workspace) -> list[Box]:
    """Every node of the learning path plus one ghost box per dangling entry target."""
    order = ws.learning_path()
    ghosts = sorted({i.entry for i in ws.issues() if i.problem == "dangling"})
    grid = layered_positions(ws, order)
    ghost_layer = -1  # dangling targets are upstream of what names them: draw them on top
    if ghosts:
        grid = {p: (c, r + 1) for p, (c, r) in grid.items()}
        ghost_layer = 0
    pixels: dict[str, tuple[float, float]] = {
        p: (c * (NODE_W + GAP_X), r * (NODE_H + GAP_Y)) for p, (c, r) in grid.items()
    }
    external = _layout_positions(ws)
    if external and all(p in external for p in order):
        pixels = {p: external[p] for p in order}
    out = [Box(p, _label(ws, p), ws.nodes[p].kind, *pixels[p]) for p in order]
    for i, g in enumerate(ghosts):
        x, y = i * (NODE_W + GAP_X), ghost_layer * (NODE_H + GAP_Y)
        if external:
            x, y = _ghost_spot(ws, g, pixels, i)
        out.append(Box(f"dangling:{g}", g, "dangling", x, y))
    return _normalised(out)


def _ghost_spot(ws: Workspace, target: str, pixels: dict, i: int) -> tuple[float, float]:
    holders = [i.path for i in ws.issues() if i.entry == target and i.path in pixels]
    if not holders:
        return (i * (NODE_W + GAP_X), -(NODE_H + GAP_Y))
    x, y = pixels[holders[0]]
    return (x + i * 12, y - (NODE_H + GAP_Y))


def _normalised(items: list[Box]) -> list[Box]:
    if not items:
        return items
    min_x = min(b.x for b in items)
    min_y = min(b.y for b in items)
    return [Box(b.path, b.label, b.kind, b.x - min_x + MARGIN, b.y - min_y + MARGIN) for b in items]


def _label(ws: Workspace, path: str) -> str:
    title = ws.nodes[path].title or path
    return title if len(title) <= _LABEL_CHARS else title[: _LABEL_CHARS - 1] + "…"


def render_svg(ws: Workspace) -> str:
    """The graph as a standalone ``<svg>`` element (edges upstream → downstream, arrows).

    Returns:
        SVG markup with every label escaped; empty folder gives a small empty picture.
    """
    items = boxes(ws)
    where = {b.path: b for b in items}
    width = max((b.x + NODE_W for b in items), default=0) + MARGIN
    height = max((b.y + NODE_H for b in items), default=0) + MARGIN
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bh-graph" role="img" '
        f'width="{width:.0f}" height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
        "<title>Graph of the study folder: arrows run from upstream to downstream</title>",
        '<defs><marker id="bh-arrow" viewBox="0 0 10 10" refX="10" refY="5" '
        'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
        '<path d="M 0 0 L 10 5 L 0 10 z" fill="#667085"/></marker></defs>',
    ]
    edges = sorted(ws.graph.edges)
    edges += sorted((f"dangling:{i.entry}", i.path) for i in ws.issues() if i.problem == "dangling")
    for a, b in edges:
        if a not in where or b not in where:
            continue
        parts.append(_edge(where[a], where[b], dashed=a.startswith("dangling:")))
    for box in items:
        parts.append(_node(box))
    parts.append("</svg>")
    return "\n".join(parts)


def _edge(a: Box, b: Box, *, dashed: bool) -> str:
    x1, y1 = a.x + NODE_W / 2, a.y + NODE_H
    x2, y2 = b.x + NODE_W / 2, b.y
    if b.y <= a.y:  # same layer or upward (a cycle): leave from the side instead
        x1, y1 = a.x + NODE_W, a.y + NODE_H / 2
        x2, y2 = b.x, b.y + NODE_H / 2
    dash = ' stroke-dasharray="5 4"' if dashed else ""
    return (
        f'<line class="bh-edge" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="#98a2b3" stroke-width="1.5"{dash} marker-end="url(#bh-arrow)"/>'
    )


def _node(box: Box) -> str:
    fill, stroke = KIND_STYLE.get(box.kind, KIND_STYLE["other"])
    dash = ' stroke-dasharray="6 4"' if box.kind == "dangling" else ""
    tip = f"{box.path[len('dangling:') :]} (missing file)" if box.kind == "dangling" else box.path
    return (
        f'<g class="bh-node bh-kind-{box.kind}" data-path={quoteattr(box.path)}>'
        f"<title>{escape(tip)}</title>"
        f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="8" '
        f'fill="{fill}" stroke="{stroke}" stroke-width="1.5"{dash}/>'
        f'<text x="{box.x + 10:.1f}" y="{box.y + 18:.1f}" font-size="13" fill="#101828">'
        f"{escape(box.label)}</text>"
        f'<text x="{box.x + 10:.1f}" y="{box.y + 35:.1f}" font-size="10" fill="{stroke}">'
        f"{escape(box.kind)}</text></g>"
    )
