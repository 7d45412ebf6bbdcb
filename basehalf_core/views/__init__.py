"""The views floor: everything the app and the export show, as data or safe HTML (no marimo): the
one Markdown sanitiser, Card Detail, the panels shared by the app and the export, the note
editor's model, the canvas model and layout, the export, JSON Canvas, recent folders, and the
undo of the app's last Grow branch, New note or rename.
"""

__all__ = [
    "anki",
    "canvas_state",
    "card",
    "export",
    "grading_panel",
    "graph_svg",
    "jsoncanvas",
    "layout",
    "markdown",
    "network",
    "note_edit",
    "panels",
    "recent",
    "rename",
    "undo",
]
