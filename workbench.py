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
    import os
    from datetime import UTC, datetime
    from pathlib import Path

    import marimo as mo

    from basehalf_core.folder import operations
    from basehalf_core.folder.fsio import FolderError
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.study import answer_key, branch, grading, llm, review
    from basehalf_core.study import ask as asking
    from basehalf_core.study.branch import highlight_items as highlights_for
    from basehalf_core.teaching import course
    from basehalf_core.views import card as card_view
    from basehalf_core.views import export, grading_panel, panels, recent
    from basehalf_core.views.note_edit import EditorController
    from basehalf_widgets import grow_form, panes
    from basehalf_widgets.canvas import Canvas
    from basehalf_widgets.note_editor import NoteEditor
    from basehalf_widgets.reader import Reader

    if llm.resolve() is not None:  # litellm's import off the first click
        llm.warm_up()

    return (
        Canvas,
        EditorController,
        FolderError,
        NoteEditor,
        Path,
        Reader,
        UTC,
        Workspace,
        answer_key,
        asking,
        branch,
        card_view,
        course,
        datetime,
        export,
        grading,
        grading_panel,
        grow_form,
        highlights_for,
        llm,
        mo,
        operations,
        os,
        panels,
        panes,
        recent,
        review,
    )


@app.cell
def launch(mo, panes):
    # --folder skips the picker; "Switch folder" sets it back to "".
    args = mo.cli_args()
    get_folder, set_folder = mo.state(str(args.get("folder") or ""))
    get_rev, set_rev = mo.state(0, allow_self_loops=True)
    get_open, set_open = mo.state(str(args.get("open") or ""), allow_self_loops=True)
    get_report, set_report = mo.state("", allow_self_loops=True)
    get_card, set_card = mo.state(None)
    # What the chat reads when asked (a plain dict, so the chat is never rebuilt).
    current = {"open": "", "reader": None, "card": None}

    def bump():
        # Cells that only bump must not read get_rev, or they would re-run themselves.
        set_rev(lambda rev: rev + 1)

    def open_card(path):
        if path and path != get_open():
            set_open(path)

    wiring = panes.Wiring(bump, set_report, open_card, current)
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
def header(export, get_folder, mo, panes, set_folder):
    # Outside edits (an editor, git pull, an agent): poll the folder; only changed files are read.
    watcher = mo.ui.refresh(default_interval="2s", label="Watch folder")
    switch = mo.ui.button(label="Switch folder", on_click=lambda _: set_folder(""))
    _name = get_folder().rstrip("/").rsplit("/", 1)[-1] or "choose a study folder"
    _export = mo.download(
        data=lambda: export.render_html(get_folder()).encode("utf-8"),
        filename=f"{_name}.html",
        label="Export (static HTML)",
    )
    mo.hstack(
        [panes.style(), mo.md(f"**basehalf** · `{_name}`"), switch, watcher]
        + ([_export] if get_folder() else []),
        justify="start",
        align="center",
    )
    return (watcher,)


@app.cell
def settings(mo, os):
    # Made once and read at click time, so what the learner typed survives every re-run.
    model_box = mo.ui.text(
        placeholder=os.environ.get("BASEHALF_MODEL") or "offline, or openai/gpt-4o-mini …",
        label="Model",
    )
    api_base_box = mo.ui.text(
        placeholder=os.environ.get("BASEHALF_API_BASE") or "provider default", label="API base"
    )
    mo.hstack([model_box, api_base_box], justify="end")
    return api_base_box, model_box


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
    start_doc = ""
    if ws is not None:
        recent.remember(ws.root)
        start_doc = next((p for p in ws.learning_path() if ws.nodes[p].kind in ("pdf", "epub")), "")
        set_open(ws.resolve(mo.cli_args().get("open") or "") or start_doc)
    return folder_error, start_doc, ws


@app.cell
def watch(bump, watcher, ws):
    watcher.value
    if ws is not None and ws.refresh():
        bump()
    return


@app.cell
def readers(
    Reader, branch, bump, grow_form, highlights_for, mo, open_card, set_report, start_doc, ws
):
    # One reader (and Grow form) per document, kept while the folder is open: back to the
    # PDF, the learner finds the page they left.
    reader_cache = {}

    def reader_for(doc):
        if doc not in reader_cache:
            reader = Reader(ws.root / doc, file=doc, highlights=highlights_for(ws, doc))
            form = grow_form.GrowForm()

            def _grow(passage, title):
                path = branch.grow_from_passage(ws, passage, title)
                set_report(f"Grown: {path}")
                open_card(path)
                bump()
                return path

            grow_form.attach(form, reader, branch.default_title, _grow)
            reader.observe(
                lambda c: (c["new"] or {}).get("id") and open_card(c["new"]["id"]),
                names=["clicked"],
            )
            reader_cache[doc] = (reader, form)
        return reader_cache[doc]

    # The first reader is made here, not in Card Detail: marimo serves a widget's script from
    # the run that first showed it, and Card Detail re-runs often.
    if start_doc:
        reader_for(start_doc)
    return (reader_for,)


@app.cell
def note_editor(EditorController, NoteEditor, bump, mo, open_card, reader_for, ws):
    editor = NoteEditor()
    editing = EditorController(editor, ws, bump)
    editor.observe(editing.on_typed, names=["typed"])
    editor.observe(editing.on_resolve, names=["resolve"])

    def _follow(change):
        # A Source link opens its document at the page instead of leaving the app.
        target, page = editing.link_target(change["new"].get("href", ""))
        if target is None:
            editor.status = f"No such file in the folder: {change['new'].get('href', '')}"
            return
        open_card(target)
        if page and ws.nodes[target].kind in ("pdf", "epub"):
            reader_for(target)[0].show(page - 1)

    editor.observe(_follow, names=["follow"])
    editor_view = mo.ui.anywidget(editor)
    return editing, editor_view


@app.cell
def canvas_widget(Canvas, bump, mo, open_card, operations, panes, set_report, ws):
    mo.stop(ws is None)
    canvas = Canvas.for_workspace(ws, height="640px", aspect=0.7)  # the pane is tall
    # A refusal (self-link, unreadable store) shows next to the canvas and in the status line.
    canvas_actions = panes.Actions(ws, panes.reporter(set_report, canvas), bump)
    # A click selects; a double-click (`opened`) opens the card in Card Detail.
    canvas.observe(lambda c: open_card(panes.opened_path(c["new"])), names=["opened"])
    for _trait, _fn in (("link", operations.connect), ("unlink", operations.disconnect)):
        canvas.observe(
            lambda c, fn=_fn: c["new"] and canvas_actions.run(fn, c["new"]["from"], c["new"]["to"]),
            names=[_trait],
        )
    canvas_view = mo.ui.anywidget(canvas)
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
def canvas_pane(canvas, canvas_actions, canvas_view, get_report, mo, open_card, panes):
    def _upstream():
        # The cards selected on the canvas (shift-click for several).
        return list(canvas.selection) or ([canvas.selected] if canvas.selected else [])

    canvas_pane_view = panes.pane(
        "canvas-pane",
        mo.vstack(
            [
                panes.new_card_buttons(canvas_actions, _upstream, open_card),
                canvas_view,
                panes.report(get_report()),
            ]
        ),
    )
    canvas_pane_view
    return


@app.cell
def card_detail(
    editing, editor_view, folder_error, folder_picker, get_open, get_rev, panes, reader_for,
    wiring, ws,
):  # fmt: skip
    get_rev()
    # Kept in a global: marimo holds UI elements weakly, and the pane's buttons live in it.
    card_detail_view = panes.detail_pane(
        ws, get_open(), wiring, editing=editing, editor_view=editor_view, reader_for=reader_for,
        folder_error=folder_error, folder_picker=folder_picker,
    )  # fmt: skip
    card_detail_view
    return


@app.cell
def grader(answer_key, bump, current, llm, mo, model_box, ws):
    # Made once per folder and read at click time, so a click is never lost to a re-run.
    grade_button = mo.ui.run_button(label="Grade")

    def _draft(_):
        # Draft an answer key with the model; the learner approves it here or in the editor.
        cfg = llm.resolve(model_box.value.strip() or None)
        if cfg is None:
            return "Drafting a key needs a model: set one in the Model box."
        try:
            key = answer_key.draft_answer_key(ws, current["card"], cfg)
        except (answer_key.AnswerKeyError, llm.ModelError) as exc:
            return f"No key drafted: {exc}"
        bump()
        return f"Drafted {len(key)} answers under '## Answer key (draft)': check, then approve."

    def _approve(_):
        try:
            answer_key.approve(ws, current["card"])
        except answer_key.AnswerKeyError as exc:
            return str(exc)
        bump()
        return "Approved: offline grading now uses this answer key."

    draft_key = mo.ui.button(label="Draft answer key", value="", on_click=_draft)
    approve_key = mo.ui.button(label="Approve key", value="", on_click=_approve)
    return approve_key, draft_key, grade_button


@app.cell
def grade(api_base_box, bump, current, grade_button, grading_panel, mo, model_box, set_report, ws):
    # Grading may call a paid model: only on Grade. Verdicts stream in from a thread; Cancel
    # writes nothing. One model rule (study.llm.resolve): the box, else the environment.
    import threading

    mo.stop(not grade_button.value or not current["card"])
    _cancel = threading.Event()
    _stop = mo.ui.button(label="Cancel", on_click=lambda _: _cancel.set())
    _model, _base = model_box.value.strip() or None, api_base_box.value.strip() or None

    def _work():
        me = mo.current_thread()
        for html, state in grading_panel.stream_html(
            ws, current["card"], _model, _cancel, lambda: me.should_exit, api_base=_base
        ):
            if state in ("waiting", "streaming"):
                mo.output.replace(mo.vstack([_stop, mo.Html(html)]))
            elif state != "done":
                mo.output.replace(mo.Html(html))  # cancelled or refused: say why
        if state == "done":
            # The Agent Area's verdict table shows the written run: one table, not two.
            mo.output.clear()
            set_report(f"Graded {current['card']}: the verdicts are in the Agent Area.")
            bump()

    mo.Thread(target=_work, daemon=True).start()
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
def ask(api_base_box, asking, current, mo, model_box, ws):
    mo.stop(ws is None)
    ask_view = mo.ui.chat(
        asking.chat_model(
            ws,
            card_path=lambda: current["open"],
            selection=lambda: current["reader"] and current["reader"].passage(),
            model=lambda: model_box.value.strip() or None,
            api_base=lambda: api_base_box.value.strip() or None,
        )
    )
    mo.Html(
        '<div data-testid="ask">'
        + mo.vstack(
            [mo.md("**Ask** (the open card, its upstream notes, your selection)"), ask_view]
        ).text
        + "</div>"
    )
    return


@app.cell
def more(UTC, course, datetime, get_rev, mo, panels, review, ws):
    get_rev()
    mo.stop(ws is None)
    try:
        _due, _err = review.due(ws.root, datetime.now(UTC), today=True), ""
    except Exception as exc:  # a damaged .bh/reviews.json is reported, not fatal
        _due, _err = [], str(exc)
    _course = course.enclosing(ws.root)
    _tabs = {
        "Learning path (由浅入深)": mo.Html(panels.learning_path(ws)),
        "Review today": mo.Html(panels.review_list(_due, _err)),
        "Issues": mo.Html(panels.issues_panel(ws.issues())),
    }
    if _course is not None:
        _tabs["Course"] = mo.Html(panels.course_table(course.progress(_course)))
    from basehalf_cli.served import status_html  # under `basehalf serve`: who, calls left

    mo.vstack(
        [
            mo.ui.tabs(_tabs),
            mo.Html(status_html(mo.app_meta().request)),
            mo.Html('<div data-testid="workbench-ready"></div>'),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
