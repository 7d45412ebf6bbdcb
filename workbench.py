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

Run: ``marimo run workbench.py -- --folder sessions/longeval-human-evaluation [--open FILE]``.
Every cell wires a widget to a ``basehalf_core`` call; edit them to change the flow.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full", app_title="basehalf")


@app.cell
def _():
    import html
    import os
    from datetime import UTC, datetime

    import marimo as mo

    from basehalf_core.folder import operations
    from basehalf_core.folder.fsio import FolderError, WriteRefused
    from basehalf_core.folder.operations import OperationRefused
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.study import ask as asking
    from basehalf_core.study import branch, grading, review
    from basehalf_core.teaching import course
    from basehalf_core.views import card as card_detail
    from basehalf_core.views import export
    from basehalf_widgets.canvas import Canvas
    from basehalf_widgets.grow_form import GrowForm
    from basehalf_widgets.reader import Reader, highlights_for

    return (
        Canvas,
        FolderError,
        GrowForm,
        OperationRefused,
        Reader,
        UTC,
        Workspace,
        WriteRefused,
        asking,
        branch,
        card_detail,
        course,
        datetime,
        export,
        grading,
        highlights_for,
        html,
        mo,
        operations,
        os,
        review,
    )


@app.cell
def _(FolderError, Workspace, mo):
    args = mo.cli_args()
    # With no --folder, the bundled example session (found beside this notebook).
    folder = str(args.get("folder") or mo.notebook_dir() / "sessions/longeval-human-evaluation")
    try:
        ws = Workspace.open(folder)
    except FolderError as exc:
        ws = None
        folder_error = str(exc)
    else:
        folder_error = ""
    mo.stop(ws is None, mo.callout(mo.md(f"**Cannot open the folder.** {folder_error}"), "danger"))
    start_file = ws.resolve(str(args.get("open") or "")) or next(
        (p for p in ws.learning_path() if ws.nodes[p].kind in ("pdf", "epub")), ""
    )
    return start_file, ws


@app.cell
def _(mo, start_file):
    # One revision number for "the folder changed": every panel that shows folder state reads it.
    # Self-loops allowed: a panel's own buttons change what that panel shows.
    get_rev, set_rev = mo.state(0, allow_self_loops=True)
    get_selected, set_selected = mo.state(start_file, allow_self_loops=True)
    get_doc, set_doc = mo.state(start_file)
    get_report, set_report = mo.state("")

    def bump():
        # Cells that only bump must not read get_rev, or they would re-run themselves.
        set_rev(lambda rev: rev + 1)

    return bump, get_doc, get_report, get_rev, get_selected, set_doc, set_report, set_selected


@app.cell
def _(export, html, mo, ws):
    # Outside edits (an editor, git pull, an agent): poll the folder; only changed files are read.
    watcher = mo.ui.refresh(default_interval="2s", label="Watch folder")
    export_button = mo.download(
        data=lambda: export.render_html(ws.root).encode("utf-8"),
        filename=f"{ws.root.name}.html",
        label="Export session (static HTML)",
    )
    mo.hstack(
        [mo.md(f"# basehalf · `{html.escape(ws.root.name)}`"), watcher, export_button],
        justify="space-between",
    )
    return (watcher,)


@app.cell
def _(bump, watcher, ws):
    watcher.value
    if ws.refresh():
        bump()
    return


@app.cell
def _(Canvas, mo, set_doc, set_selected, start_file, ws):
    canvas = Canvas.for_workspace(ws, height="560px")
    canvas_view = mo.ui.anywidget(canvas)
    _shown = {"doc": start_file}

    def _on_card(change):
        path = change["new"]
        if not path:
            return
        set_selected(path)
        node = ws.nodes.get(path)
        if node is not None and node.kind in ("pdf", "epub") and path != _shown["doc"]:
            _shown["doc"] = path
            set_doc(path)

    canvas.observe(_on_card, names=["selected"])
    return canvas, canvas_view


@app.cell
def _(canvas, get_rev, ws):
    get_rev()
    canvas.sync(ws)
    return


@app.cell
def _(
    OperationRefused,
    WriteRefused,
    card_detail,
    get_rev,
    get_selected,
    html,
    mo,
    operations,
    set_report,
    bump,
    set_selected,
    ws,
):
    get_rev()
    _path = ws.resolve(get_selected() or "")

    def _act(fn, *a, then=None):
        def run(_):
            try:
                result = fn(ws, *a)
            except (OperationRefused, WriteRefused) as exc:
                set_report(f"Refused: {exc}")
                return
            if hasattr(result, "as_dict"):
                r = result.as_dict()
                skipped = "; ".join(f"{s['path']} ({s['reason']})" for s in r["skipped"])
                set_report(
                    f"Updated: {', '.join(r['updated']) or 'nothing'}."
                    + (f" Skipped: {skipped}." if skipped else "")
                )
            else:
                set_report("")
            if then:
                then()
            bump()

        return run

    # Every card is reachable without the mouse on the canvas, too.
    _all = sorted(ws.nodes)
    open_card = mo.ui.dropdown(
        options=_all,
        value=_path if _path in _all else None,
        label="Open card",
        on_change=lambda p: p and set_selected(p),
    )
    if _path is None:
        _hint = '<div data-testid="card-detail">Click a card to see it here.</div>'
        card_panel = mo.vstack([open_card, mo.Html(_hint)])
    else:
        detail = card_detail.card_detail(ws, _path)
        rename_to = mo.ui.text(value=detail.path, label="Rename / move to", full_width=True)
        rename = mo.ui.button(
            label="Rename",
            on_click=lambda v: _act(
                operations.move,
                detail.path,
                rename_to.value.strip(),
                then=lambda: set_selected(rename_to.value.strip()),
            )(v),
        )
        _choices = sorted(p for p in ws.nodes if p != detail.path and ws.nodes[p].kind != "folder")
        add_up = mo.ui.dropdown(options=_choices, label="Add upstream")
        add = mo.ui.button(
            label="Connect",
            on_click=lambda v: (
                add_up.value and _act(operations.connect, add_up.value, detail.path)(v)
            ),
        )
        _rows = []
        for _item in detail.upstream:
            _label = html.escape(_item.entry or "(store)")
            _state = html.escape(_item.state)
            _why = f" — {html.escape(_item.reason)}" if _item.reason else ""
            _buttons = []
            if _item.entry:
                _buttons.append(
                    mo.ui.button(
                        label="Remove",
                        on_click=_act(operations.disconnect, _item.entry, detail.path),
                    )
                )
            if _item.suggestion:
                _buttons.append(
                    mo.ui.button(
                        label=f"Relink to {_item.suggestion}",
                        on_click=_act(operations.relink, _item.entry, _item.suggestion),
                    )
                )
            _rows.append(
                mo.hstack(
                    [
                        mo.Html(
                            f'<span class="bh-entry" data-state="{_state}" data-entry="{_label}">'
                            f"{_label} <small>[{_state}]{_why}</small></span>"
                        ),
                        *_buttons,
                    ],
                    justify="start",
                )
            )
        _down = ", ".join(html.escape(d) for d in detail.downstream) or "none"
        card_panel = mo.vstack(
            [
                open_card,
                mo.Html(
                    f'<div data-testid="card-detail" data-path="{html.escape(detail.path)}">'
                    f"<h3>{html.escape(detail.title)}</h3>"
                    f"<code>{html.escape(detail.path)}</code> · {html.escape(detail.kind)}</div>"
                ),
                mo.callout(mo.Html(html.escape(detail.problem)), "warn")
                if detail.problem
                else mo.md(""),
                # The export's renderer: raw HTML shown as text, no script links, no fetches.
                mo.Html(f'<div class="bh-body" data-testid="card-body">{detail.body_html}</div>'),
                mo.md("**Upstream**"),
                mo.vstack(_rows) if _rows else mo.md("_none_"),
                mo.hstack([add_up, add], justify="start"),
                mo.Html(f'<div data-testid="downstream"><b>Downstream:</b> {_down}</div>'),
                mo.hstack([rename_to, rename], justify="start"),
            ]
        )
    return (card_panel,)


@app.cell
def _(canvas_view, card_panel, get_report, html, mo):
    mo.vstack(
        [
            mo.hstack([canvas_view, card_panel], widths=[3, 2], align="start"),
            mo.Html(f'<div data-testid="card-report">{html.escape(get_report())}</div>'),
        ]
    )
    return


@app.cell
def _(
    GrowForm,
    Reader,
    branch,
    canvas,
    get_doc,
    bump,
    highlights_for,
    mo,
    set_selected,
    ws,
):
    doc = get_doc()
    reader = None
    if not doc:
        reader_panel = mo.md("_No PDF or EPUB in this folder: add one to read it here._")
    else:
        reader = Reader(ws.root / doc, file=doc, highlights=highlights_for(ws, doc))
        grow_form = GrowForm()

        def _on_selection(_change):
            passage = reader.passage()
            if passage is None:
                grow_form.offer("", 0, "")
            else:
                grow_form.offer(passage.quote, passage.page, branch.default_title(passage))

        def _on_grow(_change):
            passage = reader.passage()
            if passage is None:
                grow_form.status = "Select a passage first."
                return
            try:
                path = branch.grow_from_passage(ws, passage, grow_form.title)
            except Exception as exc:  # shown to the learner; nothing was written
                grow_form.status = f"Not grown: {exc}"
                return
            canvas.sync(ws)
            reader.set_highlights(highlights_for(ws, doc))
            reader.clear_selection()
            grow_form.offer("", 0, "")
            grow_form.status = f"Grown: {path}"
            set_selected(path)
            bump()

        def _on_highlight(change):
            note = (change["new"] or {}).get("id")
            if note:
                set_selected(note)

        reader.observe(_on_selection, names=["selection"])
        reader.observe(_on_highlight, names=["clicked"])
        grow_form.observe(_on_grow, names=["requests"])
        reader_panel = mo.vstack(
            [mo.md(f"## Reader · `{doc}`"), mo.ui.anywidget(reader), mo.ui.anywidget(grow_form)]
        )
    reader_panel
    return (reader,)


@app.cell
def _(get_rev, get_selected, mo, ws):
    get_rev()
    _cards = sorted(p for p, n in ws.nodes.items() if n.kind == "practice")
    _sel = get_selected()
    card_choice = mo.ui.dropdown(
        options=_cards,
        value=_sel if _sel in _cards else (_cards[0] if _cards else None),
        label="Practice card",
    )
    model_box = mo.ui.text(
        placeholder="offline, or a litellm model such as openai/gpt-4o-mini",
        label="Model",
        full_width=True,
    )
    grade_button = mo.ui.run_button(label="Grade")
    mo.vstack([mo.md("## Agent Area"), mo.hstack([card_choice, model_box, grade_button])])
    return card_choice, grade_button, model_box


@app.cell
def _(bump, card_choice, grade_button, grading, html, mo, model_box, os, ws):
    # Grading may call a paid model: it runs only when the learner presses Grade.
    mo.stop(not grade_button.value or not card_choice.value)
    _model = model_box.value.strip() or os.environ.get("BASEHALF_MODEL") or None
    try:
        _run = grading.grade_card(ws, card_choice.value, _model)
    except Exception as exc:  # the learner sees why; nothing was written
        _out = mo.callout(
            mo.Html(f'<span data-testid="grade-error">{html.escape(str(exc))}</span>'), "danger"
        )
    else:
        _out = mo.md(f"Graded {len(_run.grades)} answers into `{_run.grading_path}`.")
        bump()
    _out
    return


@app.cell
def _(card_choice, get_rev, grading, html, mo, ws):
    get_rev()
    _runs = grading.runs(ws, card_choice.value)[0] if card_choice.value else []
    _eff = grading.latest_verdicts(ws, card_choice.value) if _runs else {}
    if not _runs:
        _html = '<div data-testid="verdicts" data-count="0">Not graded yet.</div>'
    else:
        _last = _runs[-1]
        _label = "offline grader" if _last.offline else f"model {_last.model}"
        _rows = []
        for g in _last.grades:
            e = _eff.get(g.number)
            shown = e.verdict if e else g.verdict
            over = ""
            if e and e.source == "override":
                over = f" <small>(your override; the grader said {html.escape(g.verdict)})</small>"
            _rows.append(
                f'<tr data-number="{g.number}" data-verdict="{html.escape(shown)}">'
                f"<td>{g.number}</td><td>{html.escape(g.question)}</td>"
                f"<td>{html.escape(g.answer)}</td><td><b>{html.escape(shown)}</b>{over}</td>"
                f"<td>{html.escape(g.reason)}<br><small>“{html.escape(g.evidence)}”</small></td>"
                "</tr>"
            )
        _html = (
            f'<div data-testid="verdicts" data-count="{len(_last.grades)}" '
            f'data-model="{html.escape(_last.model)}">'
            f"<p>Run {html.escape(_last.run_id)} · {html.escape(_label)} · "
            f"{html.escape(_last.time)}</p><table><tr><th>#</th><th>Question</th>"
            "<th>Answer</th><th>Verdict</th><th>Reason and evidence</th></tr>"
            + "".join(_rows)
            + "</table></div>"
        )
    mo.Html(_html)
    return


@app.cell
def _(bump, card_choice, get_rev, grading, mo, ws):
    get_rev()
    _runs = grading.runs(ws, card_choice.value)[0] if card_choice.value else []
    mo.stop(not _runs)
    _last = _runs[-1]
    override_q = mo.ui.dropdown(
        options={f"Q{g.number}": g.number for g in _last.grades}, label="Override"
    )
    override_v = mo.ui.dropdown(options=list(grading.VERDICTS), label="to")
    override_note = mo.ui.text(placeholder="why (optional)")

    def _override(_):
        if override_q.value is None or override_v.value is None:
            return
        grading.override(
            ws,
            _last.grading_path,
            _last.run_id,
            override_q.value,
            override_v.value,
            override_note.value,
        )
        bump()

    mo.hstack(
        [override_q, override_v, override_note, mo.ui.button(label="Record", on_click=_override)],
        justify="start",
    )
    return


@app.cell
def _(asking, card_choice, mo, model_box, os, reader, ws):
    def _answer(messages, config):
        question = messages[-1].content if messages else ""
        passage = reader.passage() if reader is not None else None
        selection = None
        if passage is not None:
            # Used for this one question only; it never becomes a note unless grown.
            selection = {
                "file": passage.file,
                "page": passage.page,
                "quote": passage.quote,
                "prefix": passage.prefix,
                "suffix": passage.suffix,
                "rects": passage.rects,
            }
        model = model_box.value.strip() or os.environ.get("BASEHALF_MODEL") or None
        try:
            yield from asking.ask_stream(ws, question, card_choice.value, selection, model)
        except Exception as exc:  # shown in the chat; nothing is logged
            yield f"Could not answer: {exc}"

    mo.vstack([mo.md("### Ask"), mo.ui.chat(_answer)])
    return


@app.cell
def _(UTC, course, datetime, get_rev, html, mo, review, ws):
    get_rev()
    try:
        _due = review.due(ws.root, datetime.now(UTC), today=True)
        _err = ""
    except Exception as exc:  # a damaged .bh/reviews.json is reported, not fatal
        _due, _err = [], str(exc)
    _items = "".join(
        f"<li>{html.escape(d.card)} Q{d.number}: {html.escape(d.question)}"
        + (f" <b>last: {html.escape(d.last_verdict)}</b>" if d.last_verdict else "")
        + (f" — reread first: {html.escape(', '.join(d.revisit))}" if d.revisit else "")
        + "</li>"
        for d in _due
    )
    _parts = [
        mo.md("## Review today"),
        mo.Html(
            f'<div data-testid="review" data-due="{len(_due)}">'
            + (f"<p>{html.escape(_err)}</p>" if _err else "")
            + (f"<ul>{_items}</ul>" if _items else "<p>Nothing due today.</p>")
            + "</div>"
        ),
    ]
    _course_root = next(
        (p for p in (ws.root, ws.root.parent) if (p / "course.yaml").is_file()), None
    )
    if _course_root is not None:
        _rows = course.progress(_course_root)
        _parts += [
            mo.md("## Course progress"),
            mo.Html(
                '<table data-testid="course"><tr><th>Session</th><th>Notes</th>'
                "<th>Questions</th><th>Graded</th><th>Due</th></tr>"
                + "".join(
                    f"<tr><td>{html.escape(r['session'])}</td><td>{r['notes']}</td>"
                    f"<td>{r['practice_questions']}</td><td>{r['graded']}</td>"
                    f"<td>{r['due']}</td></tr>"
                    for r in _rows
                )
                + "</table>"
            ),
        ]
    mo.vstack(_parts)
    return


@app.cell
def _(get_rev, html, mo, ws):
    get_rev()
    _order = [p for p in ws.learning_path() if ws.nodes[p].kind != "folder"]
    _issues = ws.issues()
    _lines = [
        f'<li data-problem="{i.problem}"><code>{html.escape(i.path)}</code>: '
        f"{html.escape(i.entry or '(store)')} — <b>{i.problem}</b>: {html.escape(i.reason)}</li>"
        for i in _issues
    ]
    mo.vstack(
        [
            mo.md("## Learning path (由浅入深)"),
            mo.Html(
                '<ol data-testid="learning-path">'
                + "".join(
                    f"<li>{html.escape(ws.nodes[p].title)} "
                    f"<small><code>{html.escape(p)}</code></small></li>"
                    for p in _order
                )
                + "</ol>"
            ),
            mo.md("## Issues"),
            mo.Html(
                f'<div data-testid="issues" data-issue-count="{len(_issues)}">'
                + (f"<ul>{''.join(_lines)}</ul>" if _lines else "<p>No problems found.</p>")
                + "</div>"
            ),
            mo.Html('<div data-testid="workbench-ready"></div>'),
        ]
    )
    return


if __name__ == "__main__":
    app.run()
