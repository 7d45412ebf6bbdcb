"""A tiny marimo app that shows the Reader for ``-- --file PATH`` (browser tests, bench).

``-- --page N`` starts on page N (0-based); ``-- --folder DIR`` reads ``--file`` relative to
that study folder and draws the highlights of the notes grown from it. bench/reader_browser.py
times "Open document" two ways: ``-- --defer 1`` makes the reader when the button is pressed
(its cell runs and the widget is mounted then, as the workbench's Card Detail does today);
``-- --defer live`` shows one empty reader from the start and the button calls
:meth:`Reader.open_document` on it (trait messages to a view already on screen); with
``-- --also PATH`` a second button opens that other document in the same reader.
The passage the core makes of the learner's selection is shown under the reader in
``data-testid="reader-passage"`` (as the workbench shows it above its Grow button), and the
id of the last highlight clicked in ``data-testid="reader-clicked"``. The page preloads the
reader's script (:func:`basehalf_widgets.esm.preload`), as an app that makes its reader later
should; ``-- --preload 0`` leaves that out (the bench times both).
"""

import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import html

    import marimo as mo

    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.study.branch import highlight_items as highlights_for
    from basehalf_widgets.esm import preload
    from basehalf_widgets.reader import Reader

    return Reader, Workspace, highlights_for, html, mo, preload


@app.cell
def _(Reader, mo, preload):
    args = mo.cli_args()
    defer = str(args.get("defer") or "")
    opener = mo.ui.run_button(label="Open document")
    # Made here, not with the reader: the cells showing them then do not run again (and
    # compete with the first paint) each time a reader is made.
    get_passage, set_passage = mo.state(None)
    get_clicked, set_clicked = mo.state("")
    # The reader's script is fetched while the page waits for the button (see esm.preload).
    preloaded = mo.Html("" if args.get("preload") == "0" else preload(Reader))
    mo.vstack([opener, preloaded]) if defer == "1" else preloaded
    return args, defer, get_clicked, get_passage, opener, set_clicked, set_passage


@app.cell
def _(Reader, Workspace, args, defer, highlights_for, mo, opener, set_clicked, set_passage):
    mo.stop(defer == "1" and not opener.value)
    file = str(args.get("file"))
    highlights = []
    if args.get("folder"):
        ws = Workspace.open(args.get("folder"))
        highlights = highlights_for(ws, file)
        file = str(ws.root / file)
    first = int(args.get("page") or 0)
    # "--defer live": empty until the button below opens the document in it.
    reader = Reader() if defer == "live" else Reader(file, page=first, highlights=highlights)
    reader.observe(lambda _change: set_passage(reader.passage()), names=["selection"])
    reader.observe(lambda change: set_clicked(change["new"].get("id", "")), names=["clicked"])
    view = mo.ui.anywidget(reader)
    # Shown by the cell that defines it: a cell that only referenced ``view`` would re-run
    # (and re-render the widget) on every trait the browser changes.
    view  # noqa: B018 - a marimo cell shows its last expression
    return file, first, highlights, reader


@app.cell
def _(args, defer, file, first, highlights, mo, reader):
    # No cell reads this button's value: a click only runs its handler, as the workbench's
    # handlers do when they open a card.
    live = mo.ui.button(
        label="Open document",
        on_click=lambda _: reader.open_document(file, page=first, highlights=highlights),
    )
    other = mo.ui.button(
        label="Open the other document",
        on_click=lambda _: reader.open_document(str(args.get("also"))),
    )
    buttons = mo.hstack([live, other] if args.get("also") else [live], justify="start")
    buttons if defer == "live" else None  # noqa: B018 - a marimo cell shows its last expression
    return


@app.cell
def _(get_passage, html, mo):
    passage = get_passage()
    text = "" if passage is None else f"{passage.quote} (p. {passage.page})"
    mo.Html(f'<div data-testid="reader-passage">{html.escape(text)}</div>')
    return


@app.cell
def _(get_clicked, html, mo):
    mo.Html(f'<div data-testid="reader-clicked">{html.escape(get_clicked())}</div>')
    return


if __name__ == "__main__":
    app.run()
