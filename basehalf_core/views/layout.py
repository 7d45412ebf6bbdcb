"""Where cards sit on the canvas: a layered layout that follows the learning path.

Layer = the longest chain of upstream nodes met earlier on the learning path (由浅入深), so a
note sits below everything it flows from and the picture reads top to bottom like the path.
An edge that points back along the path (a cycle) does not add a layer. Within a layer, cards
keep learning-path order; a layer wider than ``wrap`` cards continues on further rows.

Positions are canvas pixels of a card's centre (vis-network's convention), y growing down.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from basehalf_core.folder.workspace import Workspace

# A card is at most three lines of 18-px text, about 22 characters each (network.card_label);
# the gaps leave room for arrows while keeping a 30-card folder readable when fitted.
CARD_W = 220
CARD_H = 74
GAP_X = 20
GAP_Y = 38
STEP_X = CARD_W + GAP_X
STEP_Y = CARD_H + GAP_Y

Point = tuple[float, float]


def layers(ws: Workspace, order: list[str] | None = None) -> dict[str, int]:
    """Layer of each node of ``order`` (default: the learning path), 0 for roots.

    Args:
        ws: the workspace.
        order: the nodes to place, in learning-path order.

    Returns:
        ``{path: layer}``.
    """
    order = ws.learning_path() if order is None else order
    index = {p: i for i, p in enumerate(order)}
    layer: dict[str, int] = {}
    graph = ws.graph
    for i, p in enumerate(order):
        best = -1
        for u in graph.predecessors(p):
            j = index.get(u)
            # Only edges that point forward along the path count: that breaks every cycle.
            if j is not None and j < i and layer[u] > best:
                best = layer[u]
        layer[p] = best + 1
    return layer


def default_wrap(count: int) -> int:
    """Cards per row before a wide layer wraps: about 1.2 × √count, at least 5.

    Rows that are not much wider than the picture is tall let a small folder fit a canvas pane
    at a readable scale (a side pane is taller than wide).
    """
    return max(5, math.ceil(1.2 * math.sqrt(max(count, 1))))


def wrap_for(sizes: list[int], aspect: float) -> int:
    """Cards per row that make the picture fill a pane of ``aspect`` (width / height) best.

    Fitted into the pane, the picture is drawn at the largest scale, so the labels read best.

    Args:
        sizes: the number of cards in each layer.
        aspect: the pane's width divided by its height.
    """
    widest = max(sizes, default=1)
    best, best_scale = widest, 0.0
    for wrap in range(1, widest + 1):
        width = wrap * STEP_X - GAP_X
        height = sum(math.ceil(n / wrap) for n in sizes) * STEP_Y - GAP_Y
        scale = min(aspect / width, 1 / height)
        if scale > best_scale * (1 + 1e-9):
            best, best_scale = wrap, scale
    return best


def positions(
    ws: Workspace,
    *,
    order: list[str] | None = None,
    wrap: int | None = None,
    aspect: float | None = None,
) -> dict[str, Point]:
    """Card centres for every node on the learning path (default) or in ``order``.

    Args:
        ws: the workspace.
        order: nodes in learning-path order (default ``ws.learning_path()``).
        wrap: most cards on one row (default: :func:`wrap_for` ``aspect`` if given, else
            :func:`default_wrap`).
        aspect: width / height of the pane the picture is shown in.

    Returns:
        ``{path: (x, y)}``; each row is centred on x = 0.
    """
    order = ws.learning_path() if order is None else order
    by_layer: dict[int, list[str]] = {}
    for p, n in layers(ws, order).items():
        by_layer.setdefault(n, []).append(p)  # dicts keep insertion (= path) order
    if not wrap:
        sizes = [len(by_layer[n]) for n in sorted(by_layer)]
        wrap = wrap_for(sizes, aspect) if aspect else default_wrap(len(order))
    out: dict[str, Point] = {}
    row = 0
    for n in sorted(by_layer):
        members = by_layer[n]
        for start in range(0, len(members), wrap):
            chunk = members[start : start + wrap]
            left = -(len(chunk) - 1) / 2
            for i, p in enumerate(chunk):
                out[p] = ((left + i) * STEP_X, row * STEP_Y)
            row += 1
    return out


class Occupancy:
    """Which canvas spots already hold a card, bucketed so a free-spot search stays cheap."""

    def __init__(self, points: Iterable[Point] = ()):
        self._cells: dict[tuple[int, int], list[Point]] = {}
        for pt in points:
            self.add(pt)

    @staticmethod
    def _cell(pt: Point) -> tuple[int, int]:
        return (math.floor(pt[0] / STEP_X), math.floor(pt[1] / STEP_Y))

    def add(self, pt: Point) -> None:
        """Mark ``pt`` as taken."""
        self._cells.setdefault(self._cell(pt), []).append(pt)

    def points(self) -> list[Point]:
        """Every taken spot."""
        return [pt for pts in self._cells.values() for pt in pts]

    def free(self, pt: Point) -> bool:
        """True when a card centred at ``pt`` overlaps no card already placed."""
        cx, cy = self._cell(pt)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for x, y in self._cells.get((cx + dx, cy + dy), ()):
                    if abs(x - pt[0]) < STEP_X - GAP_X / 2 and abs(y - pt[1]) < STEP_Y - GAP_Y / 2:
                        return False
        return True


def free_spot(target: Point, taken: Occupancy) -> Point:
    """The free spot nearest ``target`` on its row: target, then right, left, right …"""
    x, y = target
    for k in range(10_000):
        step = (k + 1) // 2 * (1 if k % 2 else -1)
        pt = (x + step * STEP_X, y)
        if taken.free(pt):
            return pt
    return (x, y)  # pragma: no cover - 10,000 cards on one row


def place_near(anchors: list[Point], taken: Occupancy, *, above: bool = False) -> Point:
    """A free spot one row below (or ``above``) the anchors, centred under them.

    A new note appears next to its upstream: below the mean of its upstream cards. With no
    anchors, the spot is to the right of everything already placed, on the top row.
    """
    if not anchors:
        pts = taken.points()
        if not pts:
            return (0.0, 0.0)
        return free_spot((max(p[0] for p in pts) + STEP_X, min(p[1] for p in pts)), taken)
    x = sum(a[0] for a in anchors) / len(anchors)
    y = (min(a[1] for a in anchors) - STEP_Y) if above else (max(a[1] for a in anchors) + STEP_Y)
    return free_spot((x, y), taken)


def extend(
    ws: Workspace,
    placed: Mapping[str, Point],
    new: list[str],
) -> dict[str, Point]:
    """Positions for ``new`` nodes next to their upstream, keeping every placed card still.

    Args:
        ws: the workspace.
        placed: cards already on the canvas (they do not move).
        new: nodes to place, in the order to place them (upstream first reads best).

    Returns:
        ``{path: (x, y)}`` for the new nodes only.
    """
    taken = Occupancy(placed.values())
    out: dict[str, Point] = {}
    for p in new:
        anchors = [
            out.get(u) or placed[u] for u in ws.graph.predecessors(p) if u in out or u in placed
        ]
        pt = place_near(anchors, taken)
        out[p] = pt
        taken.add(pt)
    return out
