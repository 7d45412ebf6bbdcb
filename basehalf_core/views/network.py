"""The canvas as a pyvis network: one card per node, an edge per upstream link, ghost cards.

pyvis assembles the node and edge dicts and the vis-network options; the canvas widget ships
those dicts to the browser itself. pyvis's own HTML page is never used (it pulls Bootstrap
from a CDN, sends no clicks back, and switches tooltips to ``innerHTML``).

Every label and tooltip is plain text; vis-network 9 draws labels on a ``<canvas>`` and puts
string tooltips in with ``innerText``, so a file named ``<img onerror=…>.md`` stays text.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field

from pyvis.network import Network

from basehalf_core.documents.document import is_cjk
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.layout import Occupancy, Point, place_near, positions

# A ghost card's id. Node paths never start with "/" (such an entry is invalid), so no real
# file can take a ghost's id.
GHOST_PREFIX = "//missing/"
# A card label: at most LABEL_LINES lines of about LINE_CHARS characters (half as many for
# Chinese or Japanese, whose characters are twice as wide), broken between words only.
LABEL_LINES = 3
LINE_CHARS = 22
FONT_SIZE = 18  # canvas px; at the fitted scale of a 30-card folder it stays >= 12 CSS px

# Fill / border per kind, as vis-network groups: kinds look different at a glance.
KIND_COLORS: dict[str, tuple[str, str]] = {
    "pdf": ("#fde8e8", "#b42318"),
    "epub": ("#fdf0e1", "#b54708"),
    "note": ("#eef4ff", "#3538cd"),
    "practice": ("#ecfdf3", "#027a48"),
    "grading": ("#f4f3ff", "#5925dc"),
    "folder": ("#f2f4f7", "#475467"),
    "other": ("#ffffff", "#667085"),
    "dangling": ("#fffaeb", "#dc6803"),
}
KIND_SHAPES = {"pdf": "box", "epub": "box", "folder": "database", "dangling": "box"}
ISSUE_BORDER = "#d92d20"


def ghost_id(entry: str) -> str:
    """The id of the ghost card standing in for a dangling entry."""
    return GHOST_PREFIX + entry


def is_ghost(node_id: str) -> bool:
    """True for a ghost card's id."""
    return node_id.startswith(GHOST_PREFIX)


def edge_id(upstream: str, downstream: str) -> str:
    """A stable, unambiguous edge id (JSON of the pair: any character can sit in a path)."""
    return json.dumps([upstream, downstream], ensure_ascii=False, separators=(",", ":"))


@dataclass
class Ghosts:
    """Dangling entries: each missing target and the nodes that list it."""

    holders: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Problems:
    """Per node: invalid entries and unreadable stores, as text for the card's tooltip."""

    by_node: dict[str, list[str]] = field(default_factory=dict)


def scan_issues(ws: Workspace) -> tuple[Ghosts, Problems]:
    """Split the workspace's issues into ghost cards and per-card problem markers."""
    ghosts, problems = Ghosts(), Problems()
    for issue in ws.issues():
        if issue.problem == "dangling":
            holders = ghosts.holders.setdefault(issue.entry, [])
            if issue.path not in holders:
                holders.append(issue.path)
        elif issue.problem == "invalid":
            problems.by_node.setdefault(issue.path, []).append(
                f"invalid entry {issue.entry!r}: {issue.reason}"
            )
        else:
            problems.by_node.setdefault(issue.path, []).append(f"unreadable: {issue.reason}")
    for target, holders in ghosts.holders.items():
        for h in holders:
            problems.by_node.setdefault(h, []).append(f"dangling entry {target!r}: no such file")
    return ghosts, problems


def shown_nodes(ws: Workspace) -> list[str]:
    """The nodes that get a card, in learning-path order (folders only when linked)."""
    return ws.learning_path()


def options() -> dict:
    """vis-network options: physics off (positions come from Python), text labels, groups."""
    groups = {}
    for kind, (fill, border) in KIND_COLORS.items():
        groups[kind] = {
            "shape": KIND_SHAPES.get(kind, "box"),
            "color": {
                "background": fill,
                "border": border,
                "highlight": {"background": fill, "border": "#101828"},
                "hover": {"background": fill, "border": "#101828"},
            },
            "font": {"color": "#101828"},
        }
    groups["dangling"]["shapeProperties"] = {"borderDashes": [6, 4]}
    groups["dangling"]["font"] = {"color": "#93370d"}
    return {
        "autoResize": True,
        "physics": {"enabled": False},
        "layout": {"improvedLayout": False, "hierarchical": {"enabled": False}},
        "interaction": {
            "hover": True,
            "tooltipDelay": 250,
            "dragNodes": True,
            "dragView": True,
            "zoomView": True,
            "multiselect": False,
            "navigationButtons": False,
            "keyboard": False,
            "hideEdgesOnDrag": False,
        },
        "nodes": {
            "shape": "box",
            "margin": 10,
            "borderWidth": 1.5,
            # No maximum: card_label breaks the lines, vis-network would cut words.
            "widthConstraint": {"minimum": 120},
            "font": {"face": "system-ui, sans-serif", "size": FONT_SIZE, "multi": False},
            "labelHighlightBold": False,
        },
        "edges": {
            "arrows": {"to": {"enabled": True, "scaleFactor": 0.6}},
            "smooth": False,
            "color": {"color": "#98a2b3", "highlight": "#344054", "hover": "#344054"},
            "width": 1.2,
        },
        "groups": groups,
    }


class _Ids(list):
    """pyvis checks node membership with a list scan (O(n²) for a big folder); keep a set too."""

    def __init__(self) -> None:
        super().__init__()
        self._set: set = set()

    def append(self, item) -> None:
        self._set.add(item)
        super().append(item)

    def __contains__(self, item) -> bool:
        return item in self._set


# In Chinese or Japanese text any character boundary is a word boundary; a run of Latin
# letters or digits inside it is one word.
_CJK_TOKEN = re.compile(r"[A-Za-z0-9]+|\s|.")


def _wrap_cjk(text: str, width: int) -> list[str]:
    lines, line = [], ""
    for token in _CJK_TOKEN.findall(text):
        if line and len(line) + len(token) > width:
            lines.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines


def card_label(text: str) -> str:
    """The text on a card: the title wrapped between words into at most :data:`LABEL_LINES`.

    vis-network would break a word wider than the card in the middle, so lines are broken
    here and the card is as wide as its longest line. A longer title ends in "…" after a whole
    word; the tooltip keeps the whole title.
    """
    text = " ".join(text.split())
    if not text:
        return text
    cjk = sum(1 for c in text if is_cjk(c))
    if cjk * 2 >= sum(1 for c in text if c.isalpha()) and cjk:
        lines = _wrap_cjk(text, LINE_CHARS // 2)
    else:
        # After a hyphen is a word boundary too ("05-positional-encoding" from a file name).
        lines = textwrap.wrap(text, LINE_CHARS, break_long_words=False)
    # A "word" of more than two lines (a hash, a URL) would make a huge card: it alone is cut.
    lines = [ln if len(ln) <= 2 * LINE_CHARS else ln[: 2 * LINE_CHARS - 1] + "…" for ln in lines]
    if len(lines) > LABEL_LINES:
        lines = lines[:LABEL_LINES]
        words = lines[-1].split(" ")
        while len(words) > 1 and len(" ".join(words)) + 1 > LINE_CHARS:
            words.pop()
        lines[-1] = " ".join(words).rstrip(",;:") + "…"
    return "\n".join(lines)


def ghost_positions(
    ghosts: Ghosts, placed: Mapping[str, Point], known: Mapping[str, Point] | None = None
) -> dict[str, Point]:
    """Spots for ghost cards: one row above their first holder, on a free spot.

    Args:
        ghosts: the dangling entries.
        placed: positions of the real cards.
        known: ghost positions already on the canvas (kept as they are).
    """
    known = known or {}
    taken = Occupancy(list(placed.values()) + list(known.values()))
    out: dict[str, Point] = {}
    for target, holders in ghosts.holders.items():
        gid = ghost_id(target)
        if gid in known:
            out[gid] = known[gid]
            continue
        anchors = [placed[h] for h in holders[:1] if h in placed]
        pt = place_near(anchors, taken, above=True)
        out[gid] = pt
        taken.add(pt)
    return out


def build(
    ws: Workspace,
    xy: Mapping[str, Point] | None = None,
    *,
    order: list[str] | None = None,
    scanned: tuple[Ghosts, Problems] | None = None,
    aspect: float | None = None,
) -> Network:
    """The pyvis network of the workspace.

    Args:
        ws: the workspace.
        xy: card centres by id (real paths and ghost ids); missing ones are laid out.
        order: the nodes to show (default :func:`shown_nodes`).
        scanned: a result of :func:`scan_issues` to reuse.
        aspect: width / height of the pane, to lay out cards that fill it
            (:func:`basehalf_core.views.layout.positions`).

    Returns:
        A ``pyvis.network.Network`` whose ``nodes`` / ``edges`` / ``options`` the widget ships.
    """
    order = shown_nodes(ws) if order is None else order
    ghosts, problems = scanned or scan_issues(ws)
    xy = dict(xy or {})
    if any(p not in xy for p in order):
        layout = positions(ws, order=order, aspect=aspect)
        xy.update({p: layout[p] for p in order if p not in xy})
    xy.update(ghost_positions(ghosts, xy, {k: v for k, v in xy.items() if is_ghost(k)}))

    net = Network(directed=True)
    net.node_ids = _Ids()
    for p in order:
        node = ws.nodes[p]
        issues = problems.by_node.get(p, [])
        tooltip = [node.title, p, f"kind: {node.kind}", *(f"⚠ {i}" for i in issues)]
        label = card_label(node.title)
        x, y = xy[p]
        net.add_node(
            p,
            label=("⚠ " + label) if issues else label,
            shape=KIND_SHAPES.get(node.kind, "box"),
            group=node.kind,
            title="\n".join(tooltip),
            x=round(x),
            y=round(y),
        )
        if issues:
            # pyvis drops ``color`` when a group is given; set the marker on the dict itself.
            fill = KIND_COLORS.get(node.kind, KIND_COLORS["other"])[0]
            ring = {"background": fill, "border": ISSUE_BORDER}
            net.node_map[p].update(borderWidth=3, color={**ring, "highlight": ring, "hover": ring})
    for target, holders in ghosts.holders.items():
        gid = ghost_id(target)
        x, y = xy[gid]
        held = ", ".join(holders)
        net.add_node(
            gid,
            label=card_label(f"missing: {target}"),
            shape="box",
            group="dangling",
            title=f"{target}\nno such file in the folder\nlisted upstream by: {held}",
            x=round(x),
            y=round(y),
            path=holders[0],
        )
    shown = set(order)
    for u, v in ws.graph.edges:
        if u in shown and v in shown:
            net.add_edge(u, v)
    for target, holders in ghosts.holders.items():
        gid = ghost_id(target)
        for h in holders:
            if h in shown:
                net.add_edge(gid, h, dashes=True, color="#dc6803")
    net.options = options()
    _compact(net)
    return net


def _compact(net: Network) -> None:
    """Drop what the groups and options already say: the payload of a 1,000-card canvas is
    sent on every sync, so every repeated key counts.

    Shapes come from the node's group, arrows from ``options.edges``; an edge's id is
    ``edge_id(from, to)``, which the browser derives itself.
    """
    for n in net.nodes:
        if n.get("shape") == KIND_SHAPES.get(n.get("group"), "box"):
            del n["shape"]
    for e in net.edges:
        e.pop("arrows", None)


def traits(net: Network) -> dict:
    """The widget traits of a built network: ``nodes``, ``edges``, ``options``."""
    return {"nodes": net.nodes, "edges": net.edges, "options": net.options}
