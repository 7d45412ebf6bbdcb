"""A small marimo app around the Canvas alone: for the canvas browser tests and bench/canvas.py.

Run: ``marimo run tests/apps/canvas_app.py -- --folder PATH``. It shows the canvas, the path
of the clicked card (``data-testid="card-detail"``), a "Grow" button that grows a note below
the selected card (or the first card) and syncs the canvas, and a "Show" field that selects a
card from Python.
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
def _(canvas, mo):
    # Python-side selection (as Card Detail links or the learning path would do it).
    show_path = mo.ui.text(label="Show card", placeholder="path")
    show_button = mo.ui.button(
        label="Show", on_click=lambda _: setattr(canvas, "selected", show_path.value.strip())
    )
    return show_button, show_path


@app.cell
def _(canvas_view, grow_button, mo, show_button, show_path):
    mo.vstack(
        [
            mo.hstack([grow_button, show_path, show_button], justify="start"),
            canvas_view,
            mo.Html('<div data-testid="canvas-app-ready"></div>'),
        ]
    )
    return


@app.cell
def _(get_selected, html, mo):
    mo.Html(f'<div data-testid="card-detail">{html.escape(get_selected())}</div>')
    return


if __name__ == "__main__":
    app.run()
