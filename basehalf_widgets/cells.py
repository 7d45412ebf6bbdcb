"""The bodies of ``workbench.py``'s cells: each cell names what it reads and calls one of these.

Why here and not in the cells: marimo re-reads and compiles the whole notebook on every page
request, again when it makes the session, and twice more when the kernel starts (marimo 0.25),
and that cost grows with the notebook's code (nested functions and lambdas most). Code in a
module is compiled once per server process. The cells keep every name marimo's reactivity
depends on (a state getter, a UI element), so what re-runs when stays as it was.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape as escape_html

import marimo as mo

from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import answer_key, llm, review
from basehalf_core.study import ask as asking
from basehalf_core.teaching import course
from basehalf_core.views import export, grading_panel, markdown, panels
from basehalf_core.views.note_edit import EditorController
from basehalf_core.views.undo import UndoLog
from basehalf_widgets import panes
from basehalf_widgets.canvas import Canvas
from basehalf_widgets.document_pane import DocumentPane
from basehalf_widgets.note_editor import NoteEditor


def wiring(set_rev: Callable, get_open: Callable, set_open: Callable, set_report: Callable):
    """What every pane calls back into (see :class:`panes.Wiring`), from the app's states."""

    def bump():
        # Cells that only bump must not read get_rev, or they would re-run themselves.
        set_rev(lambda rev: rev + 1)

    opening: list[Callable[[str], None]] = []  # DocumentPane.follow: see document_reader

    def open_card(path):
        if path and path != get_open():
            try:
                for hook in opening:
                    hook(path)
            finally:
                set_open(path)

    # `current`: what the chat reads when asked (a plain dict, so the chat is never rebuilt).
    current = {"open": "", "reader": None, "card": None}
    return panes.Wiring(bump, set_report, open_card, current, opening)


def document_reader(wiring: panes.Wiring):
    """The one reader of the workbench and its view, shown by a cell that never re-runs.

    A card opened by the learner (a double-click on the canvas, Open card, a highlight, a
    grow) reaches :meth:`DocumentPane.follow` from ``open_card`` itself, so the
    document's first page is on its way before any cell re-runs; the ``reader_sync`` cell
    follows every other change of the open card (the folder's first document, a switch).
    """
    documents = DocumentPane(wiring)
    wiring.opening.append(documents.follow)
    return documents, documents.view()


def header(folder: str, get_folder: Callable[[], str], set_folder: Callable[[str], None]):
    """The header row and the folder watcher (outside edits: an editor, git pull, an agent;
    polled, only changed files are read). "Switch folder" sets the folder back to ""."""
    watcher = mo.ui.refresh(default_interval="2s", label="Watch folder")
    switch = mo.ui.button(label="Switch folder", on_click=lambda _: set_folder(""))
    name = folder.rstrip("/").rsplit("/", 1)[-1] or "choose a study folder"
    download = mo.download(
        data=lambda: export.render_html(get_folder()).encode("utf-8"),
        filename=f"{name}.html",
        label="Export (static HTML)",
    )
    # The folder's name is the user's text: escaped, never Markdown (a backtick in it would
    # end the code span and let the rest through as HTML).
    title = mo.Html(f"<b>basehalf</b> · <code>{escape_html(name)}</code>")
    row = mo.hstack(
        [panes.style(), title, switch, watcher] + ([download] if folder else []),
        justify="start",
        align="center",
    )
    return panes.keep(row, switch, download), watcher


@dataclass(frozen=True)
class ModelSettings:
    """The Model and API base boxes, handed to other cells as one plain object.

    marimo re-runs every cell that names a UI element when its value changes. The cells that
    make Grade, Draft and the Ask chat hold this object instead of the boxes, so typing in a
    box re-runs none of them: a box hands its value over as it loses focus, in the very
    moment the learner clicks Grade, and a button re-made under that click lost it.
    """

    model_box: mo.ui.text
    api_base_box: mo.ui.text

    def model(self) -> str | None:
        """What the Model box holds now, or None (then the environment decides)."""
        return self.model_box.value.strip() or None

    def api_base(self) -> str | None:
        """What the API base box holds now, or None."""
        return self.api_base_box.value.strip() or None


def model_settings() -> ModelSettings:
    """The Model and API base boxes: made once and read at click time, so what the learner
    typed survives every re-run."""
    model_box = mo.ui.text(
        placeholder=os.environ.get("BASEHALF_MODEL") or "offline, or openai/gpt-4o-mini …",
        label="Model",
        on_change=llm.warm_up_for,  # litellm's import off the first Grade/Draft/Ask click
    )
    api_base_box = mo.ui.text(
        placeholder=os.environ.get("BASEHALF_API_BASE") or "provider default", label="API base"
    )
    return ModelSettings(model_box, api_base_box)


def note_editor(ws: Workspace, bump: Callable, open_card: Callable, documents: DocumentPane):
    """The note editor widget and its controller (Save, conflicts, Source links)."""
    editor = NoteEditor(folder=str(ws.root) if ws is not None else "")
    editing = EditorController(editor, ws, bump, open_card)
    editor.observe(editing.on_typed, names=["typed"])
    editor.observe(editing.on_resolve, names=["resolve"])
    # Undo never removes a note the learner is still typing into.
    documents.wiring.undo.unsaved = editing.drafts.unsaved

    def follow(change):
        # A Source link opens its document at the page instead of leaving the app.
        target, page = editing.link_target(change["new"].get("href", ""))
        if target is None:
            editor.status = f"No such file in the folder: {change['new'].get('href', '')}"
            return
        if page:
            documents.open_at(target, page - 1)  # before open_card: the reader opens it there
        open_card(target)

    editor.observe(follow, names=["follow"])
    return editing, mo.ui.anywidget(editor)


def canvas(ws: Workspace, bump: Callable, open_card: Callable, set_report: Callable):
    """The canvas widget, wired: a double-click (``opened``) opens the card in Card Detail; a
    link drawn or removed goes through ``operations``; a refusal (self-link, unreadable store)
    shows next to the canvas and in the status line."""
    # The pane is tall, but its status line (Grown, Refused, Undo) must stay in sight under it.
    widget = Canvas.for_workspace(ws, height="590px", aspect=0.7)
    actions = panes.Actions(ws, panes.reporter(set_report, widget), bump)
    widget.observe(lambda c: open_card(panes.opened_path(c["new"])), names=["opened"])
    for trait, fn in (("link", operations.connect), ("unlink", operations.disconnect)):
        widget.observe(
            lambda c, fn=fn: c["new"] and actions.run(fn, c["new"]["from"], c["new"]["to"]),
            names=[trait],
        )
    return widget, actions, panes.unbound(mo.ui.anywidget(widget))


def canvas_pane(
    widget: Canvas,
    actions: panes.Actions,
    view,
    report: str,
    open_card: Callable,
    undo: UndoLog | None = None,
):
    """The canvas pane: New note / New practice card (upstream = the cards selected on the
    canvas, shift-click for several), the canvas, the status line and, after a Grow branch,
    New note or rename, its Undo button (``undo``: the app's :class:`UndoLog`)."""

    def upstream():
        return list(widget.selection) or ([widget.selected] if widget.selected else [])

    if undo is not None:
        actions.undo = undo  # one log for the whole app: the reader's grows are in it too
    status = mo.hstack(
        [panes.report(report), panes.undo_button(actions, open_card)], justify="start"
    )
    body = mo.vstack([panes.new_card_buttons(actions, upstream, open_card), view, status])
    return panes.pane("canvas-pane", body)


def answer_key_buttons(ws: Workspace, current: dict, settings: ModelSettings, bump: Callable):
    """Grade and the answer-key buttons, made once per folder and read at click time, so a
    click is never lost to a re-run. The Model and API base boxes count as for Grade."""

    def draft(_):
        # Draft an answer key with the model; the learner approves it here or in the editor.
        cfg = llm.resolve(settings.model(), settings.api_base())
        if cfg is None:
            return "Drafting a key needs a model: set one in the Model box."
        try:
            key = answer_key.draft_answer_key(ws, current["card"], cfg)
        except (answer_key.AnswerKeyError, llm.ModelError) as exc:
            return f"No key drafted: {exc}"
        bump()
        return f"Drafted {len(key)} answers under '## Answer key (draft)': check, then approve."

    def approve(_):
        try:
            answer_key.approve(ws, current["card"])
        except answer_key.AnswerKeyError as exc:
            return str(exc)
        bump()
        return "Approved: offline grading now uses this answer key."

    grade_button = mo.ui.run_button(label="Grade")
    draft_key = mo.ui.button(label="Draft answer key", value="", on_click=draft)
    approve_key = mo.ui.button(label="Approve key", value="", on_click=approve)
    return grade_button, draft_key, approve_key


def start_grading(ws: Workspace, card: str, model: str | None, api_base: str | None, wiring):
    """Grade ``card`` in a thread: verdicts stream into the cell's output; Cancel writes
    nothing. Called from the ``grade`` cell (mo.Thread carries the cell's output)."""
    cancel = threading.Event()
    stop = mo.ui.button(label="Cancel", on_click=lambda _: cancel.set())

    def work():
        me = mo.current_thread()
        state = ""
        for html, state in grading_panel.stream_html(
            ws, card, model, cancel, lambda: me.should_exit, api_base=api_base
        ):
            if state in ("waiting", "streaming"):
                mo.output.replace(mo.vstack([stop, mo.Html(html)]))
            elif state != "done":
                mo.output.replace(mo.Html(html))  # cancelled or refused: say why
        if state == "done":
            # The Agent Area's verdict table shows the written run: one table, not two.
            mo.output.clear()
            wiring.set_report(f"Graded {card}: the verdicts are in the Agent Area.")
            wiring.bump()

    mo.Thread(target=work, daemon=True).start()


def ask_box(ws: Workspace, current: dict, settings: ModelSettings):
    """The Ask chat (the open card, its upstream notes, the reader's selection), kept alive
    by the returned HTML (marimo holds UI elements weakly)."""
    respond = asking.chat_model(
        ws,
        card_path=lambda: current["open"],
        selection=lambda: current["reader"] and current["reader"].passage(),
        model=settings.model,
        api_base=settings.api_base,
    )
    # The chat draws Markdown with HTML and images: an answer is escaped as it streams, so
    # a note that talks the model into an <img> or ![](url) cannot make the browser fetch.
    chat = mo.ui.chat(
        lambda messages, config=None: markdown.escape_stream(respond(messages, config))
    )
    title = mo.md("**Ask** (the open card, its upstream notes, your selection)")
    html = mo.Html(f'<div data-testid="ask">{mo.vstack([title, chat]).text}</div>')
    return panes.keep(html, chat)


def more_tabs(ws: Workspace, status: str) -> object:
    """Learning path, review today, issues and (in a course) progress, as tabs; ``status`` is
    the served class's line (who is signed in, calls left), "" otherwise."""
    try:
        # The open workspace, not its folder: re-opening (a full scan) on every change was
        # a large share of a served class's CPU.
        due, err = review.due(ws, datetime.now(UTC), today=True), ""
    except Exception as exc:  # a damaged .bh/reviews.json is reported, not fatal
        due, err = [], str(exc)
    tabs = {
        "Learning path (由浅入深)": mo.Html(panels.learning_path(ws)),
        "Review today": mo.Html(panels.review_list(due, err)),
        "Issues": mo.Html(panels.issues_panel(ws.issues())),
    }
    enclosing = course.enclosing(ws.root)
    if enclosing is not None:
        tabs["Course"] = mo.Html(panels.course_table(course.progress(enclosing)))
    return mo.vstack(
        [
            mo.ui.tabs(tabs),
            mo.Html(status),
            mo.Html('<div data-testid="workbench-ready"></div>'),
        ]
    )
