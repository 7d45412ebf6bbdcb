"""A tiny marimo app that shows the Reader for ``-- --file PATH`` (browser tests, bench).

The passage the core makes of the learner's selection is shown under the reader in an element
with ``data-testid="reader-passage"``, the way the workbench shows it above its Grow button.
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
def _(Reader, mo):
    args = mo.cli_args()
    reader = Reader(str(args.get("file")), page=int(args.get("page") or 0))
    get_passage, set_passage = mo.state(None)
    reader.observe(lambda _change: set_passage(reader.passage()), names=["selection"])
    view = mo.ui.anywidget(reader)
    return get_passage, view


@app.cell
def _(view):
    view  # noqa: B018 - a marimo cell shows its last expression
    return


@app.cell
def _(get_passage, html, mo):
    passage = get_passage()
    text = "" if passage is None else f"{passage.quote} (p. {passage.page})"
    mo.Html(f'<div data-testid="reader-passage">{html.escape(text)}</div>')
    return


if __name__ == "__main__":
    app.run()
