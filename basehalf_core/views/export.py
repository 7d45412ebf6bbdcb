"""``basehalf export``: a study folder as ONE self-contained HTML page that works offline.

The page holds the notes in learning-path order (quote, page reference, own words), an inline
SVG picture of the graph, the practice cards with their latest grading, and the missing files.
It has no script and a Content-Security-Policy that forbids any fetch or script, so a note's
content cannot run or phone home even if the Markdown sanitiser missed something. Nothing
from the environment is read: no key can end up in the file.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from html import escape
from importlib import resources
from pathlib import Path

from basehalf_core.documents import citation
from basehalf_core.errors import BasehalfError
from basehalf_core.folder.fsio import WriteRefused
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import write_output
from basehalf_core.study.grading import in_force
from basehalf_core.study.practice import PracticeError, parse_card
from basehalf_core.views import graph_svg, panels
from basehalf_core.views import markdown as safe_markdown

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'"


class ExportError(BasehalfError):
    """The export could not be written; the message names the file and why."""


def _css() -> str:
    page = resources.files("basehalf_core.views").joinpath("static/export.css").read_text("utf-8")
    return page + "\n" + panels.css()


def _page_ref(grown: dict) -> str:
    page = grown.get("page")
    file = grown.get("file")
    bits = []
    if file:
        bits.append(escape(str(file)))
    if page is not None:
        bits.append(f"p. {escape(str(page))}")
    if grown.get("chapter"):
        bits.append(escape(str(grown["chapter"])))
    return ", ".join(bits)


def _note_section(ws: Workspace, path: str, index: int) -> str:
    node = ws.nodes[path]
    meta = ws.frontmatter(path)
    body = ws.body(path)
    # The note's own "# Title" is the section heading already.
    lines = body.lstrip("\n").splitlines()
    if lines and lines[0].lstrip().startswith("# "):
        body = "\n".join(lines[1:])
    grown = meta.get("grown_from") if isinstance(meta.get("grown_from"), dict) else {}
    ups = ws.upstream(path)
    parts = [
        f'<section class="bh-note bh-kind-{escape(node.kind)}" id="n{index}" '
        f'data-path="{escape(path)}">',
        f"<h2>{escape(node.title)}</h2>",
        f'<p class="bh-meta"><code>{escape(path)}</code> · {escape(node.kind)}',
    ]
    if ups:
        parts.append(" · from " + ", ".join(f"<code>{escape(u)}</code>" for u in ups))
    parts.append("</p>")
    quote = " ".join(str(grown.get("quote") or "").split())
    if quote and quote not in " ".join(body.split()):  # most grown notes quote it in the body
        parts.append(
            f'<blockquote class="bh-quote"><p>{escape(quote)}</p>'
            f"<footer>{_page_ref(grown)}</footer></blockquote>"
        )
    if node.kind == "practice":
        parts.append(_practice(ws, path))
    else:
        parts.append(f'<div class="bh-body">{safe_markdown.render(body, heading_shift=2)}</div>')
    parts.append("</section>")
    return "\n".join(parts)


def _practice(ws: Workspace, path: str) -> str:
    try:
        card = parse_card(path, ws.read_text(path))
    except PracticeError as exc:
        return f'<p class="bh-problem">{escape(str(exc))}</p>'
    return panels.practice_list(card, in_force(ws, path))


def _listing(ws: Workspace, path: str, index: int) -> str:
    node = ws.nodes[path]
    return (
        f'<section class="bh-file bh-kind-{escape(node.kind)}" id="n{index}" '
        f'data-path="{escape(path)}"><h2>{escape(node.title)}</h2>'
        f'<p class="bh-meta"><code>{escape(path)}</code> · {escape(node.kind)}</p></section>'
    )


def _references(ws: Workspace, order: list[str]) -> str:
    """The stored references of the folder's documents: a formatted line and BibTeX each."""
    items = []
    for path in order:
        if ws.nodes[path].kind not in ("pdf", "epub"):
            continue
        ref = citation.load(ws, path)
        if ref is None:
            continue
        items.append(
            f'<li data-path="{escape(path)}"><p class="bh-ref">{escape(citation.formatted(ref))}'
            f" <small><code>{escape(path)}</code></small></p>"
            f'<pre class="bh-bibtex">{escape(citation.bibtex(ref))}</pre></li>'
        )
    if not items:
        return ""
    return f'<section class="bh-references"><h2>References</h2><ul>{"".join(items)}</ul></section>'


def render_html(folder: str | os.PathLike, *, now: datetime | None = None) -> str:
    """The whole export page for a study folder.

    Args:
        folder: the study folder.
        now: the time stamped in the footer (default: the current time, UTC).

    Returns:
        A complete HTML document with inline CSS and SVG and no script.
    """
    ws = Workspace.open(folder)
    now = now or datetime.now(UTC)
    order = ws.learning_path()
    title = ws.root.name
    sections, toc = [], []
    for i, path in enumerate(order, start=1):
        node = ws.nodes[path]
        if node.kind == "grading":
            continue  # shown inside the practice card it grades
        is_text = node.kind in ("note", "practice")
        sections.append(_note_section(ws, path, i) if is_text else _listing(ws, path, i))
        toc.append(
            f'<li><a href="#n{i}">{escape(node.title)}</a> <small>{escape(node.kind)}</small></li>'
        )
    missing = ws.issues()
    issue_rows = panels.issue_items(missing)
    issues = (
        f'<section class="bh-issues"><h2>Missing or broken links</h2><ul>{issue_rows}</ul>'
        "<p>A missing document shows as a dashed box in the graph: fetch it as the "
        "folder's README says.</p></section>"
        if missing
        else ""
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f'<meta http-equiv="Content-Security-Policy" content="{CSP}">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)} — basehalf session</title>",
            f'<style>{_css()}</style></head><body class="bh-doc">',
            f'<header><h1>{escape(title)}</h1><p class="bh-meta">{len(toc)} items in '
            "learning-path order. Exported by basehalf on "
            f"{now.strftime('%Y-%m-%d %H:%M UTC')}.</p></header>",
            f'<nav><h2>Learning path</h2><ol class="bh-toc">{"".join(toc)}</ol></nav>',
            f'<figure class="bh-figure">{graph_svg.render_svg(ws)}'
            "<figcaption>The graph: arrows run from upstream to downstream.</figcaption></figure>",
            '<main class="bh-notes">',
            *sections,
            "</main>",
            _references(ws, order),
            issues,
            "</body></html>",
        ]
    )


def export(
    folder: str | os.PathLike, out: str | os.PathLike, *, now: datetime | None = None
) -> Path:
    """Write the export page to ``out`` (replacing an earlier export there).

    The page is written to that very name: never through a symlink (which could replace a file
    elsewhere) and never over a device or FIFO (``/dev/null``); ``-`` in the CLI means stdout.

    Raises:
        ExportError: ``out`` is a folder, a symlink, a special file, or its folder is missing.
    """
    target = Path(out).expanduser()
    html = render_html(folder, now=now)
    try:
        write_output(target, html.encode("utf-8"))
    except WriteRefused as exc:
        raise ExportError(exc.path, exc.reason) from None
    return target
