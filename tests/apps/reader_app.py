"""A tiny marimo app that shows the Reader for ``-- --file PATH`` (browser tests, bench).

``-- --page N`` starts on page N (0-based); ``-- --defer 1`` opens the document only when the
"Open document" button is pressed (bench/reader_browser.py times that). The passage the core
makes of the learner's selection is shown under the reader in ``data-testid="reader-passage"``,
the way the workbench shows it above its Grow button.
"""

import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import html

    import marimo as mo

    from basehalf_widgets.reader import Reader

    return Reader, html, mo


@app.cell
def _(mo):
    args = mo.cli_args()
    defer = bool(args.get("defer"))
    opener = mo.ui.run_button(label="Open document")
    opener if defer else None  # noqa: B018 - a marimo cell shows its last expression
    return args, defer, opener


@app.cell
def _(Reader, args, defer, mo, opener):
    mo.stop(defer and not opener.value)
    reader = Reader(str(args.get("file")), page=int(args.get("page") or 0))
    get_passage, set_passage = mo.state(None)
    reader.observe(lambda _change: set_passage(reader.passage()), names=["selection"])
    view = mo.ui.anywidget(reader)
    # Shown by the cell that defines it: a cell that only referenced ``view`` would re-run
    # (and re-render the widget) on every trait the browser changes.
    view  # noqa: B018 - a marimo cell shows its last expression
    return (get_passage,)


@app.cell
def _(get_passage, html, mo):
    passage = get_passage()
    text = "" if passage is None else f"{passage.quote} (p. {passage.page})"
    mo.Html(f'<div data-testid="reader-passage">{html.escape(text)}</div>')
    return


if __name__ == "__main__":
    app.run()
