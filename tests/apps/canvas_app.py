"""A small marimo app around the Canvas alone: for the canvas browser tests and bench/canvas.py.

Run: ``marimo run tests/apps/canvas_app.py -- --folder PATH [--width 900px] [--height 900px]``.
It shows the canvas, the path of the clicked card (``data-testid="card-detail"``), the card
opened by a double-click (``data-testid="card-opened"``) and the multi-selection, a "Grow"
button that grows a note below the selected card (or the first card), syncs the canvas and
focuses the new card when ``--focus-grown`` is given, and a "Show" field that focuses a card
from Python. Links drawn and removed on the canvas are written the way an app does it: the
widget reports, this app calls ``operations.connect`` / ``disconnect`` and syncs; a refusal
goes to the canvas's ``message``.
"""

import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import html

    import marimo as mo

    from basehalf_core.folder import operations
    from basehalf_core.folder.workspace import Workspace
    from basehalf_widgets.canvas import Canvas

    return Canvas, Workspace, html, mo, operations


@app.cell
def _(Canvas, Workspace, mo, operations):
    args = mo.cli_args()
    ws = Workspace.open(args.get("folder") or ".")
    height = args.get("height") or "900px"
    # A pane of known size: lay the cards out for its shape.
    pane = [str(args.get(k) or "") for k in ("width", "height")]
    aspect = 1.5
    if all(v.endswith("px") for v in pane):
        aspect = float(pane[0][:-2]) / float(pane[1][:-2])
    canvas = Canvas.for_workspace(ws, height=height, aspect=aspect)
    canvas_view = mo.ui.anywidget(canvas)
    get_selected, set_selected = mo.state("")
    get_opened, set_opened = mo.state("")
    get_selection, set_selection = mo.state([])
    canvas.observe(lambda change: set_selected(change["new"]), names=["selected"])
    canvas.observe(lambda change: set_opened(change["new"].get("path", "")), names=["opened"])
    canvas.observe(lambda change: set_selection(list(change["new"])), names=["selection"])

    # marimo drops a cell's "_" names when the cell has run: an observer must hold the
    # function itself, not look "_write" up later.
    def _writer(op, verb):
        def write(change):
            report = change["new"]
            try:
                op(ws, report["from"], report["to"])
            except operations.OperationRefused as exc:
                canvas.message = f"Not {verb}: {exc}"
                return
            canvas.message = ""
            canvas.sync(ws)

        return write

    canvas.observe(_writer(operations.connect, "linked"), names=["link"])
    canvas.observe(_writer(operations.disconnect, "unlinked"), names=["unlink"])
    return canvas, canvas_view, get_opened, get_selected, get_selection, ws


@app.cell
def _(canvas, mo, operations, ws):
    focus_grown = bool(mo.cli_args().get("focus-grown"))

    def _grow(count):
        anchor = canvas.selected or (canvas.nodes[0]["id"] if canvas.nodes else "")
        path = operations.grow(
            ws, f"Grown {count + 1}", upstream=[anchor] if anchor else [], body="From the bench."
        )
        canvas.sync(ws)
        if focus_grown:
            canvas.show(path)
        return count + 1

    grow_button = mo.ui.button(label="Grow", value=0, on_click=_grow)
    return (grow_button,)


@app.cell
def _(canvas, mo):
    # Python's choice of card (as Card Detail links or the learning path would do it).
    show_path = mo.ui.text(label="Show card", placeholder="path")
    show_button = mo.ui.button(
        label="Show", on_click=lambda _: canvas.show(show_path.value.strip())
    )
    return show_button, show_path


@app.cell
def _(canvas_view, grow_button, mo, show_button, show_path):
    width = mo.cli_args().get("width") or "100%"
    mo.vstack(
        [
            mo.hstack([grow_button, show_path, show_button], justify="start"),
            # The pane the canvas gets, as a side pane of the workbench would give it.
            mo.vstack([canvas_view]).style({"width": width}),
            mo.Html('<div data-testid="canvas-app-ready"></div>'),
        ]
    )
    return


@app.cell
def _(get_opened, get_selected, get_selection, html, mo):
    mo.Html(
        f'<div data-testid="card-detail">{html.escape(get_selected())}</div>'
        f'<div data-testid="card-opened">{html.escape(get_opened())}</div>'
        f'<div data-testid="card-selection">{html.escape(" ".join(get_selection()))}</div>'
    )
    return


if __name__ == "__main__":
    app.run()
