"""The workbench's panes as marimo elements: built here, wired in ``workbench.py``'s named cells.

HTML comes from :mod:`basehalf_core.views.panels` (shared with the export); this module only
adds marimo controls (buttons, dropdowns) and the ``data-testid`` hooks the browser tests use.
Every action reports through ``report`` and calls ``after_write`` when it wrote the folder.
Card Detail's pane has its own module, :mod:`basehalf_widgets.card_pane`, and so has the
document reader's, :mod:`basehalf_widgets.document_pane`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

import marimo as mo

from basehalf_core.folder import operations
from basehalf_core.folder.fsio import WriteRefused
from basehalf_core.folder.operations import OperationRefused
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading
from basehalf_core.views import grading_panel, panels, recent
from basehalf_core.views.note_edit import PRACTICE_TEMPLATE
from basehalf_core.views.undo import UndoLog

DOCUMENT_KINDS = ("pdf", "epub")

# Heights match the grid layout (layouts/workbench.grid.json, 20 px rows, no margin, 8 px of
# padding above and below a cell's output): the three panes are 39 rows, the Agent Area 22 of
# them (the chat sits under it). Each pane scrolls inside itself. In the Card Detail column the
# card's head (HEAD_ROWS) sits over the document reader (READER_ROWS): a PDF/EPUB card shows
# both; any other card covers the reader, its pane stretched to the whole column (STAGE_CSS).
ROW, PANE_ROWS, HEAD_ROWS = 20, 39, 7
READER_ROWS = PANE_ROWS - HEAD_ROWS


def rows_px(rows: int) -> str:
    """The height of a pane that fills ``rows`` grid rows (less the cell's padding)."""
    return f"{rows * ROW - 16}px"


PANE_HEIGHT = rows_px(PANE_ROWS)
HEAD_HEIGHT = rows_px(HEAD_ROWS)
READER_HEIGHT = rows_px(READER_ROWS)
AGENT_HEIGHT = rows_px(22)
# <html data-bh-stage> is set by the Stage widget (basehalf_widgets/stage.py). "detail": the
# reader's grid cell is hidden (still mounted and laid out, so it never re-fits a page) and
# Card Detail's grid cell covers it. Grid cells are react-grid-layout items: the one holding
# the pane is found with :has().
STAGE_CSS = (
    "html[data-bh-stage=detail] .react-grid-item:has([data-testid=reader-pane])"
    "{visibility:hidden}"
    "html[data-bh-stage=detail] .react-grid-item:has([data-testid=card-detail])"
    f"{{height:{PANE_ROWS * ROW}px!important;z-index:3}}"
)


def keep(html: mo.Html, *elements: object) -> mo.Html:
    """Tie UI elements to the HTML that shows them.

    marimo's registry holds UI elements weakly; one embedded only as HTML text would be
    collected and its clicks lost. The cell keeps the returned HTML in a global, so this
    keeps the elements alive exactly as long as they are shown.
    """
    kept = list(getattr(html, "_bh_keep", []))
    for e in elements:
        kept += [*getattr(e, "_bh_keep", []), e]
    html._bh_keep = kept  # type: ignore[attr-defined]
    return html


def unbound(view: mo.ui.anywidget) -> mo.Html:
    """A widget's view as HTML, so no cell re-runs when the learner changes a trait.

    marimo re-runs every cell that names a UI element when the browser changes its value; a
    cell that shows a widget made by another cell names it. The canvas's cell re-ran (and its
    output was rendered again) on every click on a card, the first click of a double-click
    included. Python still hears every change through the widget's observers.
    """
    return keep(mo.Html(view.text), view)


def attr(value: object) -> str:
    """``value`` escaped for an HTML attribute."""
    return escape(str(value), quote=True)


def pane(testid: str, body: object, *, extra: str = "", height: str = PANE_HEIGHT) -> mo.Html:
    """One of the three panes: a box of its own height that scrolls inside, never the page."""
    html = mo.Html(
        f'<div data-testid="{testid}" class="bh-pane" {extra} '
        f'style="height:{height};overflow:auto;padding:0 .3rem">{mo.as_html(body).text}</div>'
    )
    return keep(html, body)


def style() -> mo.Html:
    """The shared panel stylesheet (the export's look) for the whole page, and the rules that
    show either the reader or Card Detail in the middle column (:data:`STAGE_CSS`)."""
    return mo.Html(f"<style>{panels.css()}{STAGE_CSS}</style>")


class Actions:
    """Runs folder operations for buttons and reports the outcome in one status line."""

    def __init__(
        self,
        ws: Workspace,
        report: Callable[[str], None],
        after_write: Callable,
        undo: UndoLog | None = None,
    ):
        self.ws, self.report, self.after_write = ws, report, after_write
        self.undo = undo if undo is not None else UndoLog()  # what the Undo button takes back

    def run(self, fn: Callable, *args, then: Callable | None = None) -> object:
        """Call ``fn(ws, *args)``; a refusal is reported with its reason, nothing else happens."""
        try:
            result = fn(self.ws, *args)
        except (OperationRefused, WriteRefused) as exc:
            self.report(f"Refused: {exc}")
            return None
        if hasattr(result, "as_dict"):
            r = result.as_dict()
            skipped = "; ".join(f"{s['path']} ({s['reason']})" for s in r["skipped"])
            self.report(
                f"Updated: {', '.join(r['updated']) or 'no other card'}."
                + (f" Skipped: {skipped}." if skipped else "")
            )
        else:
            self.report("")
        if then is not None:
            then(result)
        self.after_write()
        return result

    def button(self, label: str, fn: Callable, *args, then: Callable | None = None):
        """A marimo button that runs ``fn(ws, *args)`` when clicked."""
        return mo.ui.button(label=label, on_click=lambda _: self.run(fn, *args, then=then))


@dataclass
class Wiring:
    """What every pane calls back into, made once in the app's ``launch`` cell.

    Attributes:
        bump: tell the cells that read the folder that it changed.
        set_report: set the status line.
        open_card: open a card in Card Detail.
        current: what the chat and the grader read at click time (``open``, ``reader``,
            ``card``): a plain dict, so changing it re-runs nothing.
        opening: called with the card's path by ``open_card`` before the cells re-run (the
            reader opens a document from there: see
            :class:`~basehalf_widgets.document_pane.DocumentPane`).
        undo: the last Grow branch, New note or rename, for the Undo button by the status line.
    """

    bump: Callable[[], None]
    set_report: Callable[[str], None]
    open_card: Callable[[str], None]
    current: dict = field(default_factory=dict)
    opening: list = field(default_factory=list)
    undo: UndoLog = field(default_factory=UndoLog)

    def actions(self, ws: Workspace) -> Actions:
        """Folder operations for buttons, reported in the status line."""
        return Actions(ws, self.set_report, self.bump, self.undo)


def reporter(set_report: Callable[[str], None], canvas: object) -> Callable[[str], None]:
    """Report to the status line, and a refusal also next to the canvas (its ``message``)."""

    def say(text: str) -> None:
        set_report(text)
        canvas.message = text if text.startswith("Refused") else ""

    return say


def opened_path(value: object) -> str:
    """The card a canvas ``opened`` report names (``{"path", "n"}``, or a bare path)."""
    return (value or {}).get("path", "") if isinstance(value, dict) else str(value or "")


def report(text: str) -> mo.Html:
    """The status line of the last folder action (refusals say why)."""
    return mo.Html(f'<div data-testid="card-report" role="status">{escape(text)}</div>')


def undo_button(actions: Actions, open_card: Callable[[str], None]) -> mo.Html:
    """ "Undo: …" for the last Grow branch, New note or rename ("" when there is none): the
    note made is removed only while it holds what was written; a rename goes back."""
    label = actions.undo.label(actions.ws)
    if not label:
        return mo.Html("")

    def take_back(_):
        outcome = actions.undo.undo(actions.ws)
        actions.report(outcome.message)
        if outcome.done:
            actions.after_write()
            if outcome.open:
                open_card(outcome.open)

    button = mo.ui.button(label=label, on_click=take_back)
    return keep(mo.Html(f'<span data-testid="undo">{button.text}</span>'), button)


def highlights(ws: Workspace, doc: str) -> list[dict]:
    """The reader's highlights of ``doc``, recomputed from the folder as it is now."""
    from basehalf_core.study.branch import highlight_items

    return highlight_items(ws, doc)


# --- the canvas pane --------------------------------------------------------------------------


def new_card_buttons(actions: Actions, upstream: Callable[[], list[str]], open_card: Callable):
    """ "New note" and "New practice card": created create-only, upstream = the canvas selection."""

    def make(title: str, name: str, fields: dict, body: str):
        def create(ws: Workspace, _):
            above = upstream()
            path = operations.grow(ws, title, upstream=above, fields=fields, body=body, name=name)
            actions.undo.made(ws, path, back=above[0] if above else "")  # before the report
            return path

        def made(path: str) -> None:
            actions.report(f"Created: {path}")
            open_card(path)

        return mo.ui.button(label=title, on_click=lambda v: actions.run(create, v, then=made))

    note = make("New note", "new-note.md", {}, "Own words: ")
    practice = make(
        "New practice card", "new-practice-card.md", {"kind": "practice"}, PRACTICE_TEMPLATE
    )
    html = mo.Html(
        f'<span data-testid="new-note">{note.text}</span> '
        f'<span data-testid="new-practice-card">{practice.text}</span>'
    )
    return keep(html, note, practice)


# --- folder picker ----------------------------------------------------------------------------


def folder_picker(start: Path, bundled: Path, choose: Callable[[str], None]) -> mo.Html:
    """Choose a study folder: browse, the bundled example, or a recent folder (gone ones marked)."""
    browser = mo.ui.file_browser(
        initial_path=start, selection_mode="directory", multiple=False, restrict_navigation=False
    )

    def open_chosen(_):
        picked = browser.path(0)
        if picked is not None:
            choose(str(picked))

    open_button = mo.ui.button(label="Open the chosen folder", on_click=open_chosen)
    example = mo.ui.button(
        label=f"Open the bundled example ({bundled.name})", on_click=lambda _: choose(str(bundled))
    )
    items, buttons = [], []
    for r in recent.load():
        if r.exists:
            b = mo.ui.button(label=r.path, on_click=lambda _, p=r.path: choose(p))
            buttons.append(b)
            items.append(mo.Html(f'<li data-recent="{escape(r.path)}">{b.text}</li>'))
        else:
            items.append(
                mo.Html(
                    f'<li data-recent="{escape(r.path)}" data-gone="1"><s>{escape(r.path)}</s> '
                    "<small>(no longer exists)</small></li>"
                )
            )
    listing = "".join(i.text for i in items) or "<li><i>none yet</i></li>"
    body = mo.vstack(
        [
            mo.md("## Open a study folder"),
            mo.md("A folder holding a paper (PDF) or a book (EPUB); every file becomes a card."),
            example,
            mo.md("**Recent folders**"),
            mo.Html(f'<ul data-testid="recent-folders">{listing}</ul>'),
            mo.md("**Or browse** (select a folder, then open it)"),
            browser,
            open_button,
        ]
    )
    html = mo.Html(f'<div data-testid="folder-picker">{body.text}</div>')
    return keep(html, browser, open_button, example, *buttons)


# --- the Agent Area ---------------------------------------------------------------------------


def chosen_card(ws: Workspace, card: str | None) -> str | None:
    """The practice card the Agent Area shows: the learner's choice, else the first one."""
    cards = panels.practice_choices(ws)
    return card if card in cards else (cards[0] if cards else None)


def agent_area(
    ws: Workspace,
    card: str | None,
    choose: Callable[[str], None],
    controls: list,
    status: str,
    actions: Actions,
) -> mo.Html:
    """Pick a practice card, Grade it (nothing is sent before the click), see and override
    the verdicts in force. ``controls`` (Grade, the answer-key buttons) are made once by the
    app (see ``workbench.py``), so a click is never lost to a re-run of this pane."""
    cards = panels.practice_choices(ws)
    choice = mo.ui.dropdown(options=cards, value=card, label="Practice card", on_change=choose)
    parts = [
        mo.md("### Agent Area"),
        mo.hstack([choice, *controls], justify="start", wrap=True),
        mo.Html(f'<div data-testid="answer-key-status">{escape(status)}</div>') if status else "",
    ]
    kept: list = [choice]
    if card:
        parts.append(mo.Html(f'<div class="bh-doc">{grading_panel.verdict_table(ws, card)}</div>'))
        found, _ = grading.runs(ws, card)
        if found:
            row = override_controls(found[-1], actions)
            parts.append(row)
            kept.append(row)
    elif not cards:
        parts.append(mo.md("_No practice card yet: press **New practice card** on the canvas._"))
    return keep(mo.vstack(parts), *kept)


def agent_pane(
    ws: Workspace,
    card: str | None,
    choose: Callable[[str], None],
    controls: list,
    status: str,
    wiring: Wiring,
) -> mo.Html:
    """The Agent Area pane for the learner's choice of practice card (else the first one);
    the chosen card is kept in ``wiring.current`` for the Grade and answer-key buttons."""
    wiring.current["card"] = chosen_card(ws, card)
    body = agent_area(ws, wiring.current["card"], choose, controls, status, wiring.actions(ws))
    return pane("agent-area", body, height=AGENT_HEIGHT)


def override_controls(run: grading.GradingRun, actions: Actions) -> mo.Html:
    """Record the learner's own verdict for one question of ``run`` (kept beside the grader's)."""
    question = mo.ui.dropdown(
        options={f"Q{g.number}": g.number for g in run.grades}, label="Override"
    )
    verdict = mo.ui.dropdown(options=list(grading.GRADES), label="to")
    note = mo.ui.text(placeholder="why (optional)")

    def record(_):
        if question.value is None or verdict.value is None:
            return
        actions.run(
            grading.override,
            run.grading_path,
            run.run_id,
            question.value,
            verdict.value,
            note.value,
        )

    button = mo.ui.button(label="Record", on_click=record)
    return keep(
        mo.hstack([question, verdict, note, button], justify="start"),
        question,
        verdict,
        note,
        button,
    )
