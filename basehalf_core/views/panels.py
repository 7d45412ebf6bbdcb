"""The workbench's panels as HTML strings, shared by the app and the static export.

Each function takes plain data (no marimo) and returns HTML in which every piece of text from
the folder is escaped: a note or a grading file is data, never markup. The same classes are
styled by ``static/panels.css`` in both the app and the export, so a verdict table looks the
same in both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from html import escape
from importlib import resources

from basehalf_core.folder.workspace import Issue, Workspace
from basehalf_core.study.grading import Verdict, in_force
from basehalf_core.study.practice import PracticeCard, PracticeError, parse_card
from basehalf_core.study.review import DueItem


def css() -> str:
    """The shared stylesheet: headings, numbered lists, blockquotes, tables, verdict colours."""
    return resources.files("basehalf_core.views").joinpath("static/panels.css").read_text("utf-8")


def _attr(value: object) -> str:
    return escape(str(value), quote=True)


def verdict_line(v: Verdict) -> str:
    """One verdict in force, with the learner's override and what the grader said."""
    cls = f"bh-verdict bh-{escape(v.verdict.lower())}"
    model = f' <span class="bh-model">[{escape(v.model)}, run {escape(v.run_id)}]</span>'
    if not v.overridden:
        reason = f" — {escape(v.reason)}" if v.reason else ""
        return f'<p class="{cls}"><b>{escape(v.verdict)}</b>{reason}{model}</p>'
    note = f": {escape(v.note)}" if v.note else ""
    return (
        f'<p class="{cls}"><b>{escape(v.verdict)}</b> <span class="bh-override">'
        f"(learner's override{note})</span><br><small>The grader said "
        f"<b>{escape(v.graded_verdict)}</b>"
        + (f" — {escape(v.reason)}" if v.reason else "")
        + f"{model}</small></p>"
    )


def practice_list(card: PracticeCard, in_force: Mapping[int, Verdict]) -> str:
    """A practice card as a numbered list: question, answer, the verdict in force."""
    rows = ['<ol class="bh-questions" data-testid="practice-questions">']
    for q in card.questions:
        rows.append(f'<li value="{q.number}"><p class="bh-q">{escape(q.text)}</p>')
        if q.answer:
            rows.append(f'<p class="bh-a"><b>Answer:</b> {escape(q.answer)}</p>')
        else:
            rows.append('<p class="bh-a bh-missing">No answer yet.</p>')
        v = in_force.get(q.number)
        if v is not None:
            rows.append(verdict_line(v))
        rows.append("</li>")
    rows.append("</ol>")
    if not in_force:
        rows.append('<p class="bh-ungraded">Not graded yet.</p>')
    return "\n".join(rows)


def review_list(due: Iterable[DueItem], error: str = "") -> str:
    """What is due for review today, with what to reread first after a Wrong."""
    due = list(due)
    items = "".join(
        f"<li>{escape(d.card)} Q{d.number}: {escape(d.question)}"
        + (f" <b>last: {escape(d.last_verdict)}</b>" if d.last_verdict else "")
        + (f" — reread first: {escape(', '.join(d.revisit))}" if d.revisit else "")
        + "</li>"
        for d in due
    )
    return (
        f'<div class="bh-doc" data-testid="review" data-due="{len(due)}">'
        + (f'<p class="bh-problem">{escape(error)}</p>' if error else "")
        + (f"<ul>{items}</ul>" if items else "<p>Nothing due today.</p>")
        + "</div>"
    )


def course_table(rows: Iterable[Mapping]) -> str:
    """Course progress per session (:func:`basehalf_core.teaching.course.progress`)."""
    body = "".join(
        f"<tr><td>{escape(str(r['session']))}</td><td>{r['notes']}</td>"
        f"<td>{r['practice_questions']}</td><td>{r['graded']}</td><td>{r['due']}</td></tr>"
        for r in rows
    )
    return (
        '<table class="bh-table" data-testid="course"><tr><th>Session</th><th>Notes</th>'
        f"<th>Questions</th><th>Graded</th><th>Due</th></tr>{body}</table>"
    )


def learning_path(ws: Workspace) -> str:
    """The learning path (由浅入深) as a numbered list of titles and paths."""
    order = [p for p in ws.learning_path() if ws.nodes[p].kind != "folder"]
    items = "".join(
        f"<li>{escape(ws.nodes[p].title)} <small><code>{escape(p)}</code></small></li>"
        for p in order
    )
    return f'<ol class="bh-doc bh-path" data-testid="learning-path">{items}</ol>'


def issue_items(issues: Iterable[Issue]) -> str:
    """One ``<li>`` per missing or broken upstream entry."""
    return "".join(
        f'<li data-problem="{_attr(i.problem)}"><code>{escape(i.path)}</code> lists '
        f"<code>{escape(i.entry or '(store)')}</code>: {escape(i.problem)} "
        f"({escape(i.reason)})</li>"
        for i in issues
    )


def issues_panel(issues: list[Issue]) -> str:
    """Every dangling, invalid or unreadable entry of the folder (or a line saying none)."""
    items = issue_items(issues)
    return (
        f'<div class="bh-doc" data-testid="issues" data-issue-count="{len(issues)}">'
        + (f"<ul>{items}</ul>" if items else "<p>No problems found.</p>")
        + "</div>"
    )


def practice_choices(ws: Workspace) -> list[str]:
    """Cards the Agent Area offers for grading: ``kind: practice`` ones, and notes shaped like
    one (numbered questions with ``Answer:`` lines) that lack the key."""
    found = []
    for path, node in sorted(ws.nodes.items()):
        if node.kind == "practice" or (node.kind == "note" and _shaped_like_card(ws, path)):
            found.append(path)
    return found


def _shaped_like_card(ws: Workspace, path: str) -> bool:
    try:
        text = ws.read_text(path)
    except OSError:
        return False
    if "Answer:" not in text:
        return False
    try:
        card = parse_card(path, text)
    except PracticeError:
        return False
    return any(q.answer for q in card.questions)


def practice_view(ws: Workspace, path: str) -> str:
    """Card Detail's view of a practice card: its questions and answers as a numbered list."""
    try:
        card = parse_card(path, ws.read_text(path))
    except (PracticeError, OSError) as exc:
        return f'<p class="bh-problem">{escape(str(exc))}</p>'
    return f'<div class="bh-doc">{practice_list(card, in_force(ws, path))}</div>'
