"""basehalf — the Teacher view of a served class (``basehalf serve COURSE``, at ``/teacher/``).

The roster with each learner's progress, one learner's folder read-only, "Grade the class" for
a card with a progress bar, the gradebook (sortable, CSV download) and the questions most
learners got Wrong, with their reasons. Only the signed-in teacher gets past the first cell.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full", app_title="basehalf · teacher")


@app.cell
def _():
    import html

    import marimo as mo

    from basehalf_cli import served
    from basehalf_core.folder.workspace import Workspace
    from basehalf_core.teaching import budget, classroom, classview, course, roster
    from basehalf_core.views import card as card_detail

    return Workspace, budget, card_detail, classroom, classview, course, html, mo, roster, served


@app.cell
def _(budget, mo, roster, served):
    _why = ""
    try:
        course_root = served.teacher_course(mo.app_meta().request)
    except PermissionError as exc:
        course_root = None
        _why = str(exc)
    mo.stop(course_root is None, mo.callout(mo.md(f"**Refused.** {_why}"), "danger"))
    learners = roster.load(course_root)
    class_folder = course_root / roster.LEARNERS_DIR
    calls = budget.Budget(course_root, served.calls_per_day())
    # Bumped after each "Grade the class": the gradebook below re-reads its CSV.
    get_graded, set_graded = mo.state(0)
    # Every learner folder is re-read per refresh: not too often for a large class.
    refresh = mo.ui.refresh(options=["30s", "2m", "10m"], default_interval="30s", label="Refresh")
    mo.hstack([mo.md(f"# Teacher view · `{course_root.name}`"), refresh], justify="space-between")
    return calls, class_folder, course_root, get_graded, learners, refresh, set_graded


@app.cell
def _(calls, classview, course_root, html, learners, mo, refresh):
    refresh.value
    _rows = classview.learner_rows(course_root, calls)
    roster_table = mo.ui.table(_rows, label="Roster", selection=None, page_size=50)
    mo.vstack(
        [
            mo.md(f"## Roster ({len(learners)} learners)"),
            mo.Html(
                f'<div data-testid="roster" data-learners="{html.escape(",".join(learners))}">'
                "</div>"
            ),
            roster_table,
        ]
    )
    return


@app.cell
def _(learners, mo):
    pick = mo.ui.dropdown(options=sorted(learners), label="Look at a learner's folder (read-only)")
    pick
    return (pick,)


@app.cell
def _(Workspace, mo, pick, roster, course_root):
    mo.stop(not pick.value)
    learner_ws = Workspace.open(roster.folder_of(course_root, pick.value))
    file_pick = mo.ui.dropdown(
        options=[p for p in learner_ws.learning_path() if learner_ws.nodes[p].kind != "folder"],
        label="File",
    )
    file_pick
    return file_pick, learner_ws


@app.cell
def _(card_detail, file_pick, html, learner_ws, mo, pick):
    mo.stop(not file_pick.value)
    _d = card_detail.card_detail(learner_ws, file_pick.value)
    # The export's sanitised renderer; no buttons: the teacher reads, never writes, here.
    mo.Html(
        f'<div data-testid="learner-file" data-learner="{html.escape(pick.value)}" '
        f'data-path="{html.escape(_d.path)}"><h3>{html.escape(_d.title)}</h3>'
        f"{_d.body_html}</div>"
    )
    return


@app.cell
def _(Workspace, course, course_root, mo):
    # The cards of the course's sessions: a hand-out puts them at the same paths in every
    # learner folder.
    _practice = []
    for _session in course.load(course_root).sessions:
        _ws = Workspace.open(course_root / _session)
        _practice += [f"{_session}/{p}" for p, n in _ws.nodes.items() if n.kind == "practice"]
    _practice.sort()
    grade_card = mo.ui.dropdown(options=_practice, label="Card")
    grade_model = mo.ui.text(placeholder="blank: the class model (or offline)", label="Model")
    grade_go = mo.ui.run_button(label="Grade the class")
    mo.vstack([mo.md("## Grade the class"), mo.hstack([grade_card, grade_model, grade_go])])
    return grade_card, grade_go, grade_model


@app.cell
def _(class_folder, classroom, grade_card, grade_go, grade_model, mo, set_graded):
    mo.stop(not grade_go.value or not grade_card.value)
    _have, _ = classroom.learner_folders(class_folder, grade_card.value)
    with mo.status.progress_bar(total=len(_have), title="Grading the class") as _bar:
        report = classroom.grade_class(
            class_folder,
            grade_card.value,
            model=grade_model.value.strip() or None,
            progress=lambda done, total, name: _bar.update(subtitle=name),
        )
    set_graded(lambda n: n + 1)
    mo.md(
        f"Graded {len(report.results) - len(report.failures)} of {len(report.results)} learners;"
        f" {len(report.failures)} failed."
    )
    return (report,)


@app.cell
def _(class_folder, classview, get_graded, grade_card, html, mo):
    get_graded()
    mo.stop(not grade_card.value)
    _stem = grade_card.value.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    _book = class_folder / f"{_stem}.gradebook.csv"
    mo.stop(not _book.is_file(), mo.md("_Not graded yet._"))
    _rows = classview.read_gradebook(_book)
    _wrong = classview.most_wrong(_rows)
    mo.vstack(
        [
            mo.md("## Gradebook"),
            mo.Html(f'<div data-testid="gradebook" data-rows="{len(_rows)}"></div>'),
            mo.ui.table(_rows, selection=None, page_size=50, label="Gradebook"),
            mo.download(
                data=_book.read_bytes(), filename=_book.name, label="Download gradebook (CSV)"
            ),
            mo.md("## Questions most got Wrong"),
            mo.Html(
                f'<div data-testid="most-wrong" data-top="{html.escape(_wrong[0]["question"])}">'
                "</div>"
                if _wrong
                else ""
            ),
            mo.ui.table(_wrong, selection=None, label="Per question"),
        ]
    )
    return


@app.cell
def _(mo):
    mo.Html('<div data-testid="teacher-ready"></div>')
    return


if __name__ == "__main__":
    app.run()
