"""An SVG picture of a study folder's graph, for the static export.

Pure Python, no script: every label is escaped text, so a note titled ``<script>`` is drawn as
those characters. Cards sit where the canvas puts them: :mod:`basehalf_core.views.layout`'s layered
layout, the learner's dragged spots from ``.bh/canvas.json``, and ghost boxes for dangling
entries placed by :mod:`basehalf_core.views.network`, so the picture matches the workbench.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import layout, network
from basehalf_core.views.canvas_state import CanvasStore
from basehalf_core.views.layout import Point

NODE_W = 190
NODE_H = 44
MARGIN = 20
_LABEL_CHARS = 26

# Fill / stroke per kind: the export's picture uses the canvas's colours.
KIND_STYLE = network.KIND_COLORS


@dataclass(frozen=True)
class Box:
    """One drawn node: its path (the entry, for a ghost), label, kind and top-left corner."""

    path: str
    label: str
    kind: str
    x: float
    y: float


def positions(ws: Workspace) -> tuple[dict[str, Point], dict[str, Point]]:
    """Card centres as the canvas shows them: layout, dragged spots, ghosts above holders.

    Returns:
        ``(node centres by path, ghost centres by dangling entry)``.
    """
    order = ws.learning_path()
    dragged = CanvasStore(ws.root).load()  # an unusable canvas.json just means no drags
    placed = layout.positions(ws, order=order)
    placed.update({p: xy for p, xy in dragged.items() if p in placed})
    ghosts, _ = network.scan_issues(ws)
    by_id = network.ghost_positions(ghosts, placed, dragged)
    ghost_xy = {t: by_id[network.ghost_id(t)] for t in ghosts.holders}
    return placed, ghost_xy


def boxes(ws: Workspace) -> list[Box]:
    """Every node of the learning path plus one ghost box per dangling entry target."""
    placed, ghost_xy = positions(ws)
    out = [
        Box(p, _label(ws.nodes[p].title or p), ws.nodes[p].kind, x - NODE_W / 2, y - NODE_H / 2)
        for p, (x, y) in placed.items()
    ]
    out += [
        Box(t, _label(t), "dangling", x - NODE_W / 2, y - NODE_H / 2)
        for t, (x, y) in sorted(ghost_xy.items())
    ]
    return _normalised(out)


def _normalised(items: list[Box]) -> list[Box]:
    if not items:
        return items
    min_x = min(b.x for b in items)
    min_y = min(b.y for b in items)
    return [Box(b.path, b.label, b.kind, b.x - min_x + MARGIN, b.y - min_y + MARGIN) for b in items]


def _label(text: str) -> str:
    title = " ".join(text.split())
    return title if len(title) <= _LABEL_CHARS else title[: _LABEL_CHARS - 1] + "…"


def render_svg(ws: Workspace) -> str:
    """The graph as a standalone ``<svg>`` element (edges upstream → downstream, arrows).

    Returns:
        SVG markup with every label escaped; empty folder gives a small empty picture.
    """
    items = boxes(ws)
    where = {(b.kind == "dangling", b.path): b for b in items}
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
    edges = [((False, a), (False, b)) for a, b in sorted(ws.graph.edges)]
    edges += sorted(
        ((True, i.entry), (False, i.path)) for i in ws.issues() if i.problem == "dangling"
    )
    for a, b in edges:
        if a in where and b in where:
            parts.append(_edge(where[a], where[b], dashed=a[0]))
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
    tip = f"{box.path} (missing file)" if box.kind == "dangling" else box.path
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
