"""Card Detail's pane as marimo elements: the card's head, what it is, its links, rename."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import TYPE_CHECKING

import marimo as mo

from basehalf_core.folder import multifile, operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import card as card_view
from basehalf_core.views import grading_panel, panels, rename
from basehalf_widgets.panes import (
    DOCUMENT_KINDS,
    HEAD_HEIGHT,
    PANE_HEIGHT,
    Actions,
    Wiring,
    attr,
    keep,
    pane,
)

if TYPE_CHECKING:  # only named in detail_pane's signature; document_pane builds on panes
    from basehalf_widgets.document_pane import DocumentPane


def card_header(detail: card_view.CardDetail) -> mo.Html:
    """The card's title, path and kind (``data-path`` says which card is open)."""
    return mo.Html(
        f'<div data-testid="card-detail-head" data-path="{escape(detail.path)}">'
        f"<h3 style='margin:.2rem 0'>{escape(detail.title)}</h3>"
        f"<code>{escape(detail.path)}</code> · {escape(detail.kind)}</div>"
    )


def upstream_controls(ws: Workspace, detail: card_view.CardDetail, actions: Actions) -> mo.Html:
    """The Upstream list (state of each entry, Remove, Relink) and Add upstream + Connect."""
    rows = []
    for item in detail.upstream:
        label = escape(item.entry or "(store)")
        why = f" — {escape(item.reason)}" if item.reason else ""
        buttons = []
        if item.entry:
            buttons.append(actions.button("Remove", operations.disconnect, item.entry, detail.path))
        if item.suggestion:
            buttons.append(
                actions.button(
                    f"Relink to {item.suggestion}", multifile.relink, item.entry, item.suggestion
                )
            )
        span = (
            f'<span class="bh-entry" data-state="{escape(item.state)}" data-entry="{label}">'
            f"{label} <small>[{escape(item.state)}]{why}</small></span>"
        )
        rows.append(keep(mo.hstack([mo.Html(span), *buttons], justify="start"), *buttons))
    choices = sorted(p for p in ws.nodes if p != detail.path and ws.nodes[p].kind != "folder")
    # full_width: a select is as wide as its longest name, and one long (CJK) name pushed
    # Card Detail wider than its column at 1024 px, cutting off Save and the editor's edge.
    add_up = mo.ui.dropdown(options=choices, label="Add upstream", full_width=True)
    add = mo.ui.button(
        label="Connect",
        on_click=lambda _: (
            add_up.value and actions.run(operations.connect, add_up.value, detail.path)
        ),
    )
    down = ", ".join(escape(d) for d in detail.downstream) or "none"
    html = mo.vstack(
        [
            mo.md("**Upstream**"),
            mo.vstack(rows) if rows else mo.md("_none_"),
            mo.hstack([add_up, add], justify="start"),
            mo.Html(f'<div data-testid="downstream"><b>Downstream:</b> {down}</div>'),
        ]
    )
    return keep(html, add_up, add, *rows)


def rename_controls(detail: card_view.CardDetail, actions: Actions, open_card: Callable):
    """Rename / move: the extension is kept unless another is typed; a kind change asks twice."""
    box = mo.ui.text(value=detail.path, label="Rename / move to", full_width=True)
    pending = {"warned": ""}

    def go(_):
        new, warning = rename.target(detail.path, box.value)
        if not new:
            actions.report("Type a new name first.")
            return
        if warning and pending["warned"] != new:
            pending["warned"] = new
            actions.report(warning)
            return
        actions.run(renamed, detail.path, new, then=lambda _r: open_card(new))

    def renamed(ws: Workspace, old: str, new: str) -> multifile.Report:
        report = multifile.move(ws, old, new)
        actions.undo.renamed(ws, old, new)  # before the report re-runs the Undo button's pane
        return report

    button = mo.ui.button(label="Rename", on_click=go)
    return keep(mo.hstack([box, button], justify="start"), box, button)


def card_detail(
    ws: Workspace,
    path: str,
    actions: Actions,
    open_card: Callable[[str], None],
    show: object,
) -> mo.Html:
    """Card Detail for ``path``: header, what the card is (``show``: the note editor, a
    practice card's questions, a grading file's verdicts; nothing for a PDF/EPUB, read in the
    reader pane under it), its links and the rename box."""
    detail = card_view.card_detail(ws, path)
    opener = card_opener(ws, detail.path, open_card)
    problem = mo.callout(mo.Html(escape(detail.problem)), "warn") if detail.problem else ""
    links = upstream_controls(ws, detail, actions)
    renamer = rename_controls(detail, actions, open_card)
    body = mo.vstack([opener, card_header(detail), problem, show, links, renamer])
    return keep(body, opener, links, renamer, show)


def card_opener(ws: Workspace, path: str | None, open_card: Callable[[str], None]):
    """ "Open card": every card reachable without the mouse on the canvas."""
    options = sorted(ws.nodes)
    value = path if path in options else None
    return mo.ui.dropdown(
        options=options, value=value, label="Open card", on_change=open_card, full_width=True
    )  # full_width: never wider than the pane, however long a name (see upstream_controls)


def no_card(ws: Workspace, open_card: Callable[[str], None]) -> mo.Html:
    """Card Detail before any card is open."""
    opener = card_opener(ws, None, open_card)
    hint = mo.md("Double-click a card on the canvas (or pick one above) to open it here.")
    return keep(mo.vstack([opener, hint]), opener)


def what_it_is(ws: Workspace, path: str, editor: object) -> object:
    """The middle of Card Detail by kind (a PDF/EPUB is read in the reader pane below)."""
    kind = ws.nodes[path].kind
    if kind in DOCUMENT_KINDS:
        return ""
    if kind == "grading":
        card = path[: -len(".grading.md")] + ".md" if path.endswith(".grading.md") else path
        return mo.Html(f'<div class="bh-doc">{grading_panel.verdict_table(ws, card)}</div>')
    if kind in ("note", "practice"):
        listing = mo.Html(panels.practice_view(ws, path)) if kind == "practice" else ""
        return mo.vstack([listing, editor])
    return mo.md(f"_{escape(kind)}: nothing to show here; its links are below._")


def orphaned_note(
    ws: Workspace, path: str, wiring: Wiring, editing: object, editor_view: object
) -> mo.Html:
    """Card Detail for a note that left the folder (renamed or deleted outside the app) while
    the learner had unsaved words in it: the editor stays, offering to copy them to a file."""
    editing.open(path)
    wiring.current.update(open="", reader=None)
    opener = card_opener(ws, None, wiring.open_card)
    gone = mo.callout(
        mo.Html(
            f"<code>{escape(path)}</code> is no longer in the folder. "
            "Your unsaved words are kept below."
        ),
        "warn",
    )
    body = keep(mo.vstack([opener, gone, editor_view]), opener, editor_view)
    return pane("card-detail", body, extra=f'data-path="{attr(path)}" data-gone="1"')


def detail_pane(
    ws: Workspace | None,
    wanted: str,
    wiring: Wiring,
    *,
    editing: object,
    editor_view: object,
    documents: DocumentPane,
    folder_error: str,
    folder_picker: object,
) -> mo.Html:
    """The Card Detail pane: the folder picker (no folder yet), the card opener (no card), or
    the card ``wanted`` shown by kind — a note or practice card in the editor; a PDF/EPUB's
    head and links only, over the reader pane that ``documents`` keeps on screen (a shorter
    pane, see :data:`HEAD_ROWS`).

    ``wiring.current`` is updated with the open card and, for a document, the reader, for the
    chat.
    """
    if ws is None:
        # The message names the typed path: text, never Markdown or HTML.
        problem = mo.callout(mo.Html(escape(folder_error)), "danger") if folder_error else ""
        return pane("card-detail", mo.vstack([problem, folder_picker]))
    path = ws.resolve(wanted or "")
    if path is None and wanted and wanted in editing.drafts.unsaved():
        return orphaned_note(ws, wanted, wiring, editing, editor_view)
    if path is None:
        return pane("card-detail", no_card(ws, wiring.open_card))
    kind = ws.nodes[path].kind
    document = kind in DOCUMENT_KINDS
    if kind in ("note", "practice"):
        editing.open(path)
    wiring.current.update(open=path, reader=documents.reader if document else None)
    show = what_it_is(ws, path, editor_view)
    body = card_detail(ws, path, wiring.actions(ws), wiring.open_card, show)
    height = HEAD_HEIGHT if document else PANE_HEIGHT
    return pane("card-detail", body, extra=f'data-path="{attr(path)}"', height=height)
