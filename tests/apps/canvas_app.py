"""A small marimo app around the Canvas alone: for the canvas browser tests and bench/canvas.py.

Run: ``marimo run tests/apps/canvas_app.py -- --folder PATH``. It shows the canvas, the path
of the clicked card (``data-testid="card-detail"``), and a "Grow" button that grows a note
below the selected card (or the first card) and syncs the canvas.
"""

import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import html

    import marimo as mo

    from basehalf_core import operations
    from basehalf_core.workspace import Workspace
    from basehalf_widgets.canvas import Canvas

    return Canvas, Workspace, html, mo, operations


@app.cell
def _(Canvas, Workspace, mo):
    ws = Workspace.open(mo.cli_args().get("folder") or ".")
    canvas = Canvas.for_workspace(ws, height="900px")
    canvas_view = mo.ui.anywidget(canvas)
    get_selected, set_selected = mo.state("")
    canvas.observe(lambda change: set_selected(change["new"]), names=["selected"])
    return canvas, canvas_view, get_selected, ws


@app.cell
def _(canvas, mo, operations, ws):
    grown = []

    def _grow(count):
        anchor = canvas.selected or (canvas.nodes[0]["id"] if canvas.nodes else "")
        path = operations.grow(
            ws, f"Grown {count + 1}", upstream=[anchor] if anchor else [], body="From the bench."
        )
        grown.append(path)
        canvas.sync(ws)
        return count + 1

    grow_button = mo.ui.button(label="Grow", value=0, on_click=_grow)
    return (grow_button,)


@app.cell
def _(canvas_view, grow_button, mo):
    mo.vstack([grow_button, canvas_view, mo.Html('<div data-testid="canvas-app-ready"></div>')])
    return


@app.cell
def _(get_selected, html, mo):
    mo.Html(f'<div data-testid="card-detail">{html.escape(get_selected())}</div>')
    return


if __name__ == "__main__":
    app.run()
