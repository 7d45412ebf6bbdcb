"""The views floor: everything the app and the export show, as data or safe HTML (no marimo): the
one Markdown sanitiser, Card Detail, the canvas model and layout, the export, JSON Canvas.
"""

__all__ = [
    "anki",
    "canvas_state",
    "card",
    "export",
    "graph_svg",
    "jsoncanvas",
    "layout",
    "markdown",
    "network",
]
