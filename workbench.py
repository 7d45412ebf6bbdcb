# /// script
# requires-python = ">=3.11"
# dependencies = [
#     "basehalf",
#     "marimo>=0.25.2,<0.26",
# ]
#
# [tool.uv.sources]
# basehalf = { path = ".", editable = true }
# ///
"""basehalf — the study workbench.

Run: ``marimo run workbench.py`` (a folder picker) or
``marimo run workbench.py -- --folder sessions/longeval-human-evaluation [--open FILE]``.
One screen: the canvas (left), Card Detail (centre), the Agent Area (right); review, learning
path, issues and course below. The placement lives in ``layouts/workbench.grid.json``; each
named cell wires a widget to ``basehalf_core`` calls. Edit them to change the flow.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full", app_title="basehalf", layout_file="layouts/workbench.grid.json")


@app.cell
def setup():
    from pathlib import Path

    import marimo as mo

    from basehalf_core.folder.fsio import FolderError
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.study import llm
    from basehalf_core.views import recent
    from basehalf_widgets import card_pane, cells, panes

    if llm.resolve() is not None:  # litellm's import off the first click
        llm.warm_up()

    return FolderError, Path, Workspace, card_pane, cells, mo, panes, recent


@app.cell
def launch(cells, mo):
    # --folder skips the picker; "Switch folder" sets it back to "".
    args = mo.cli_args()
    get_folder, set_folder = mo.state(str(args.get("folder") or ""))
    get_rev, set_rev = mo.state(0, allow_self_loops=True)
    get_open, set_open = mo.state(str(args.get("open") or ""), allow_self_loops=True)
    get_report, set_report = mo.state("", allow_self_loops=True)
    get_card, set_card = mo.state(None)
    wiring = cells.wiring(set_rev, get_open, set_open, set_report)
    bump, open_card, current = wiring.bump, wiring.open_card, wiring.current
    return (
        bump,
        current,
        get_card,
        get_folder,
        get_open,
        get_report,
        get_rev,
        open_card,
        set_card,
        set_folder,
        set_report,
        wiring,
    )


@app.cell
def header(cells, get_folder, set_folder):
    header_view, watcher = cells.header(get_folder(), get_folder, set_folder)
    header_view
    return (watcher,)


@app.cell
def settings(cells, mo):
    # One plain object, read at click time: typing in a box re-runs no cell.
    model_settings = cells.model_settings()
    mo.hstack([model_settings.model_box, model_settings.api_base_box], justify="end")
    return (model_settings,)


@app.cell
def picker(Path, get_folder, mo, panes, set_folder):
    from basehalf_cli.served import course as _served_course

    get_folder()  # rebuilt after each switch, so the recent list is fresh
    # Under `basehalf serve` the folder comes from the sign-in only: no picker to browse with.
    folder_picker = (
        mo.md("")
        if _served_course() is not None
        else panes.folder_picker(
            Path.cwd(),
            (mo.notebook_dir() or Path.cwd()) / "sessions/longeval-human-evaluation",
            set_folder,
        )
    )
    return (folder_picker,)


@app.cell
def workspace(FolderError, Workspace, get_folder, mo, recent, set_open):
    from basehalf_cli import served

    try:
        # Under `basehalf serve`: the signed-in learner's own folder, from the server-verified
        # identity only (never a path from the URL or the page); else the folder as chosen.
        chosen = served.folder_for(mo.app_meta().request, get_folder())
        ws = Workspace.open(chosen) if chosen else None
        folder_error = ""
    except FolderError as exc:
        ws, folder_error = None, str(exc)
    if ws is not None:
        recent.remember(ws.root)
        _first = next((p for p in ws.learning_path() if ws.nodes[p].kind in ("pdf", "epub")), "")
        set_open(ws.resolve(mo.cli_args().get("open") or "") or _first)
    return folder_error, ws


@app.cell
def watch(bump, watcher, ws):
    watcher.value
    if ws is not None and ws.refresh():
        bump()
    return


@app.cell
def reader(cells, wiring):
    # One reader for every document, on screen from the start (hidden while another kind of
    # card is open): opening a document sends it there, no cell runs and nothing is mounted.
    # This cell reads nothing that changes, so it never re-runs (marimo serves a widget's
    # script from the run that first showed it).
    documents, reader_view = cells.document_reader(wiring)
    reader_view
    return (documents,)


@app.cell
def reader_sync(documents, get_open, get_rev, ws):
    # The folder's first document, a folder switch; after a write, the highlights.
    get_rev()
    documents.use(ws)
    documents.follow(get_open())
    documents.refresh()
    return


@app.cell
def note_editor(bump, cells, documents, open_card, ws):
    editing, editor_view = cells.note_editor(ws, bump, open_card, documents)
    return editing, editor_view


@app.cell
def canvas_widget(bump, cells, mo, open_card, set_report, ws):
    mo.stop(ws is None)
    canvas, canvas_actions, canvas_view = cells.canvas(ws, bump, open_card, set_report)
    return canvas, canvas_actions, canvas_view


@app.cell
def canvas_sync(canvas, get_open, get_rev, ws):
    # After a write (or an outside edit) the canvas applies the difference, then selects and
    # brings into view the card the app opened (grow, Open card, a highlight click).
    get_rev()
    canvas.sync(ws)
    if get_open() in ws.nodes and canvas.focus != get_open():
        canvas.show(get_open())
    return


@app.cell
def canvas_pane(canvas, canvas_actions, canvas_view, cells, get_report, open_card, wiring):
    canvas_pane_view = cells.canvas_pane(
        canvas, canvas_actions, canvas_view, get_report(), open_card, wiring.undo
    )
    canvas_pane_view
    return


@app.cell
def card_detail(
    card_pane, documents, editing, editor_view, folder_error, folder_picker, get_open, get_rev,
    wiring, ws,
):  # fmt: skip
    get_rev()
    # Kept in a global: marimo holds UI elements weakly, and the pane's buttons live in it.
    card_detail_view = card_pane.detail_pane(
        ws, get_open(), wiring, editing=editing, editor_view=editor_view, documents=documents,
        folder_error=folder_error, folder_picker=folder_picker,
    )  # fmt: skip
    card_detail_view
    return


@app.cell
def grader(bump, cells, current, model_settings, ws):
    # Made once per folder and read at click time, so a click is never lost to a re-run.
    grade_button, draft_key, approve_key = cells.answer_key_buttons(
        ws, current, model_settings, bump
    )
    return approve_key, draft_key, grade_button


@app.cell
def grade(cells, current, grade_button, mo, model_settings, wiring, ws):
    # Grading may call a paid model: only on Grade. One model rule (study.llm.resolve): the
    # box, else the environment.
    mo.stop(not grade_button.value or not current["card"])
    cells.start_grading(
        ws, current["card"], model_settings.model(), model_settings.api_base(), wiring
    )
    return


@app.cell
def agent(approve_key, draft_key, get_card, get_rev, grade_button, mo, panes, set_card, wiring, ws):
    get_rev()
    mo.stop(ws is None)
    _keys = [grade_button, draft_key, approve_key]
    _note = approve_key.value or draft_key.value
    agent_view = panes.agent_pane(ws, get_card(), set_card, _keys, _note, wiring)  # kept alive
    agent_view
    return


@app.cell
def ask(cells, current, mo, model_settings, ws):
    mo.stop(ws is None)
    # Lazy: the chat's ~0.5 MiB of marimo scripts load once the canvas and reader are up.
    ask_view = mo.lazy(cells.ask_box(ws, current, model_settings))
    ask_view
    return


@app.cell
def more(cells, get_rev, mo, ws):
    from basehalf_cli.served import status_html  # under `basehalf serve`: who, calls left

    get_rev()
    mo.stop(ws is None)
    more_view = cells.more_tabs(ws, status_html(mo.app_meta().request))
    more_view
    return


if __name__ == "__main__":
    app.run()
