"""The canvas: every node of the study folder as a card, upstream links as arrows.

The browser side is vis-network, loaded from the installed pyvis package (no CDN, works
offline) and wrapped into this widget's ES module. Python computes the cards
(:mod:`basehalf_core.views.network`) and their positions
(:mod:`basehalf_core.views.layout`); physics stays off.

The widget shows and reports; it never changes the folder. The app observes the report
traits and calls :mod:`basehalf_core.folder.operations` itself, then :meth:`Canvas.sync`.

What to draw (Python → browser):

- ``nodes``, ``edges``, ``options``: vis-network item dicts; labels and tooltips are text.
- ``positions``: cards the learner dragged, ``{id: [x, y]}``; saved to ``.bh/canvas.json``.
- ``focus`` (str): the app's choice of card (a grow, "Open card", a highlight click): the card
  is selected (``selected`` is set to it) and brought into view. :meth:`Canvas.show` focuses
  a card again even if it was the last one focused.
- ``message`` (str): a sentence the app wants next to the canvas, e.g. why a link was refused
  ("" hides it).
- ``status``: a problem with ``.bh/canvas.json`` worth showing ("" when fine).

What the learner did (browser → Python):

- ``selected`` (str): the card clicked once ("" for none); a ghost card selects the note
  that lists the missing file.
- ``selection`` (list[str]): shift-click adds a card to (or takes it out of) a multi-selection,
  e.g. the upstream of a new practice card; a plain click makes it ``[selected]``.
- ``opened`` (dict ``{"path": str, "n": int}``): a double-click, to open the card in Card
  Detail; ``n`` counts up, so opening the same card twice is two changes.
- ``link`` (dict ``{"from": upstream, "to": downstream, "n": int}``): in Link mode (the "Link"
  button, Esc leaves it) a drag from one card onto another. Nothing is drawn until the app has
  connected them and synced. A ghost card reports the missing file's path.
- ``unlink`` (dict ``{"from", "to", "n"}``): a link selected with a click, then Delete
  (or Backspace) on the canvas, or the "Unlink" button.

Viewing: the canvas opens with the whole folder fitted (a folder of over 30 cards that would
then be unreadable opens on the top of its learning path instead); "Fit all" shows every card;
a card added by a sync outside the view is brought into it. The mouse wheel zooms only once
the canvas is clicked (focused) or with Ctrl/⌘ held; otherwise it scrolls the page.

:meth:`Canvas.sync` recomputes the cards from the workspace and assigns only the traits that
changed; the browser diffs them into its DataSets, so nothing re-renders, no card jumps and
the camera stays where the learner left it.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import pyvis
import traitlets

from basehalf_core.folder.fsio import WriteRefused
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import network
from basehalf_core.views.canvas_state import CanvasStore
from basehalf_core.views.layout import Point, extend
from basehalf_widgets.esm import CachedScript

_STATIC = Path(__file__).parent / "static"
_VIS = Path(pyvis.__file__).parent / "lib" / "vis-9.1.2"


def _esm() -> str:
    """vis-network's UMD bundle, evaluated as CommonJS inside our module, then canvas.js.

    With ``module`` / ``exports`` in scope the bundle fills ``exports`` instead of setting a
    global, so two canvases (or another vis user on the page) never clash.
    """
    vis = (_VIS / "vis-network.min.js").read_text(encoding="utf-8")
    own = (_STATIC / "canvas.js").read_text(encoding="utf-8")
    return (
        "const vis = (() => {\n"
        "const module = { exports: {} };\n"
        "const exports = module.exports;\n"
        f"{vis}\n"
        "return module.exports;\n"
        "})();\n"
        f"{own}"
    )


def _css() -> str:
    vis = (_VIS / "vis-network.css").read_text(encoding="utf-8")
    return vis + "\n" + (_STATIC / "canvas.css").read_text(encoding="utf-8")


class Canvas(CachedScript, anywidget.AnyWidget):
    """The study folder's cards. Build it with :meth:`for_workspace`, refresh with :meth:`sync`."""

    _esm = _esm()
    _css = _css()

    nodes = traitlets.List(traitlets.Dict()).tag(sync=True)
    edges = traitlets.List(traitlets.Dict()).tag(sync=True)
    options = traitlets.Dict().tag(sync=True)
    positions = traitlets.Dict().tag(sync=True)
    selected = traitlets.Unicode("").tag(sync=True)
    selection = traitlets.List(traitlets.Unicode()).tag(sync=True)
    opened = traitlets.Dict().tag(sync=True)
    link = traitlets.Dict().tag(sync=True)
    unlink = traitlets.Dict().tag(sync=True)
    focus = traitlets.Unicode("").tag(sync=True)
    message = traitlets.Unicode("").tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    height = traitlets.Unicode("640px").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._store: CanvasStore | None = None
        self._xy: dict[str, Point] = {}  # where each card is drawn now
        self._pins: dict[str, Point] = {}  # saved and dragged spots, also of absent cards
        self._seen: tuple[Workspace | None, int] = (None, -1)
        self._loading = False
        self._aspect: float | None = None
        self.observe(self._on_positions, names=["positions"])
        self.observe(self._on_focus, names=["focus"])

    @classmethod
    def for_workspace(
        cls, ws: Workspace, *, height: str = "640px", aspect: float | None = 1.5
    ) -> Canvas:
        """A canvas of ``ws``: saved positions from ``.bh/canvas.json``, the rest laid out.

        Args:
            ws: the workspace.
            height: the canvas's CSS height.
            aspect: about how wide the pane is for its height: cards that have no saved spot
                are laid out to fill such a pane, so a small folder fits it at a readable
                size (``None``: rows of about 1.2 × √cards).
        """
        canvas = cls(height=height)
        canvas._aspect = aspect
        canvas._load(ws)
        return canvas

    def _load(self, ws: Workspace) -> None:
        self._store = CanvasStore(ws.root)
        self._pins = self._store.load()
        net = network.build(ws, self._pins, aspect=self._aspect)
        self._remember(net.nodes)
        self._seen = (ws, ws.revision)
        with self.hold_sync():
            self.status = self._store.problem
            # Loading saved positions is not a drag: nothing to write back.
            self._loading = True
            try:
                self.positions = {k: [x, y] for k, (x, y) in self._pins.items()}
            finally:
                self._loading = False
            self.options = net.options
            self.edges = net.edges
            self.nodes = net.nodes

    def sync(self, ws: Workspace) -> None:
        """Redraw from ``ws``: cards already shown stay put; new ones appear by their upstream.

        Costs nothing when the workspace has not changed since the last sync (its revision
        says so); otherwise only traits whose content changed are assigned, and the browser
        applies the difference. A workspace of another folder starts the canvas afresh.
        """
        if self._store is None or self._store.root != ws.root:
            self._load(ws)
            return
        if self._seen[0] is ws and self._seen[1] == ws.revision:
            return
        order = network.shown_nodes(ws)
        scanned = network.scan_issues(ws)
        real = {p: self._xy[p] for p in order if p in self._xy}
        new = [p for p in order if p not in real]
        # A card that comes back (a file restored, a move undone) returns to its saved spot.
        real.update({p: self._pins[p] for p in new if p in self._pins})
        real.update(extend(ws, real, [p for p in new if p not in real]))
        ghosts = {k: v for k, v in self._xy.items() if network.is_ghost(k)}
        ghosts.update({k: v for k, v in self._pins.items() if network.is_ghost(k)})
        net = network.build(ws, {**real, **ghosts}, order=order, scanned=scanned)
        self._remember(net.nodes)
        self._seen = (ws, ws.revision)
        with self.hold_sync():
            if net.nodes != self.nodes:
                self.nodes = net.nodes
            if net.edges != self.edges:
                self.edges = net.edges

    def show(self, path: str) -> None:
        """Select ``path`` and bring it into view, even if it was the last card focused."""
        if self.focus == path:
            self.focus = ""
        self.focus = path

    def _on_focus(self, change: dict) -> None:
        # The focused card is the selected one, on both sides, at once: app observers of
        # ``selected`` see the same card the canvas highlights.
        if change["new"]:
            self.selected = change["new"]
            self.selection = [change["new"]]

    def _remember(self, nodes: list[dict]) -> None:
        self._xy = {n["id"]: (float(n["x"]), float(n["y"])) for n in nodes}

    def _on_positions(self, change: dict) -> None:
        """A drag in the browser: keep the new spots in memory and in ``.bh/canvas.json``."""
        if self._loading:
            return
        old, new = change["old"] or {}, change["new"] or {}
        moved: dict[str, Point] = {}
        for key, value in new.items():
            if old.get(key) != value and isinstance(value, list | tuple) and len(value) == 2:
                try:
                    moved[key] = (float(value[0]), float(value[1]))
                except (TypeError, ValueError):
                    continue
        if not moved:
            return
        self._xy.update(moved)
        self._pins.update(moved)
        if self._store is None:
            return
        try:
            self._store.update(moved)
            self.status = ""
        except WriteRefused as exc:
            self.status = f"card positions not saved: {exc}"
