"""The views floor: everything the app and the export show, as data or safe HTML (no marimo): the
one Markdown sanitiser, Card Detail, the canvas model and layout, the export, JSON Canvas.

Modules are imported by name (``from basehalf_core.views import X``); importing the floor
itself imports none of them, so the command line stays fast.
"""

__all__ = [
    "canvas_state",
    "card",
    "export",
    "graph_svg",
    "jsoncanvas",
    "layout",
    "markdown",
    "network",
]
