"""``basehalf export``: one self-contained, script-free HTML page of a study folder."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT

from basehalf_cli.main import main
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import export

LONGEVAL = ROOT / "sessions" / "longeval-human-evaluation"
ATTENTION = ROOT / "sessions" / "attention-is-all-you-need"


class _Tags(HTMLParser):
    """Every start tag with its attributes, and the visible text."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag in ("style", "title"):
            self._skip += 1

    def handle_endtag(self, tag):
        if tag in ("style", "title") and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.text.append(data)


def _parse(html: str) -> _Tags:
    p = _Tags()
    p.feed(html)
    return p


def _visible(html: str) -> str:
    return " ".join(" ".join(_parse(html).text).split())


def test_notes_appear_in_learning_path_order_with_quote_page_and_own_words():
    html = export.render_html(LONGEVAL)
    ws = Workspace.open(LONGEVAL)
    text = _visible(html)
    titles = [ws.nodes[p].title for p in ws.learning_path() if ws.nodes[p].kind != "grading"]
    positions = [text.find(t, text.find("Few long-form papers ask humans") - 1) for t in titles]
    # Sections follow the learning path (the table of contents repeats it first).
    sections = re.findall(
        r'<section class="bh-(?:note|file)[^"]*" id="n\d+" data-path="([^"]+)"', html
    )
    assert sections == [p for p in ws.learning_path() if ws.nodes[p].kind != "grading"]
    assert all(pos >= 0 for pos in positions)
    for path in sections:
        grown = ws.frontmatter(path).get("grown_from")
        if grown:
            assert " ".join(grown["quote"].split()) in text
            assert f"p. {grown['page']}" in text
    assert "Own words: COARSE rating asks for one Likert score" in text


def test_graph_picture_has_every_node_and_edge():
    html = export.render_html(LONGEVAL)
    ws = Workspace.open(LONGEVAL)
    svg = html[html.index("<svg") : html.index("</svg>")]
    drawn = re.findall(r'<g class="bh-node bh-kind-(\w+)" data-path="([^"]+)"', svg)
    assert sorted(p for _, p in drawn) == sorted(ws.learning_path())
    assert svg.count('class="bh-edge"') == ws.graph.number_of_edges()


def test_practice_card_shows_latest_grading_and_overrides():
    text = _visible(export.render_html(LONGEVAL))
    grading = (LONGEVAL / "06-longeval-practice.grading.md").read_text(encoding="utf-8")
    said = re.findall(r"^### Question \d+: (\w+)$", grading, flags=re.M)
    overridden = grading.count("## Override ·")
    assert said and overridden == len(said)  # the session's author checked every answer
    # Each override is shown in force, with the grader's own verdict and reason beside it.
    assert text.count("(learner's override: Checked against the paper") == overridden
    for verdict in set(said):
        assert text.count(f"The grader said {verdict} — Offline grader: {verdict} because") == (
            said.count(verdict)
        )
    assert "[offline, run r1]" in text


def test_a_missing_pdf_is_shown_as_a_ghost_and_listed(tmp_path):
    html = export.render_html(ATTENTION)
    assert 'class="bh-node bh-kind-dangling" data-path="attention-is-all-you-need.pdf"' in html
    text = _visible(html)
    assert "Missing or broken links" in text
    assert "01-transformer-claim.md lists attention-is-all-you-need.pdf : dangling" in text


HOSTILE = """\
---
upstream:
  - 01-intro.md
---
# Evil <script>alert('title')</script>

<script>alert(1)</script>
<img src="http://tracker.example/p.gif" onerror="alert(2)">
<div onclick="alert(3)">block html</div>

[js](javascript:alert(4)) [entity](&#106;avascript:alert(5)) [ok](https://example.org/x)
![pixel](http://tracker.example/pixel.png)
<a href="javascript:alert(6)">raw link</a>
<svg onload="alert(7)"></svg>
<iframe src="http://evil.example/"></iframe>
"""


@pytest.fixture
def hostile_folder(tmp_path: Path) -> Path:
    root = tmp_path / "hostile"
    root.mkdir()
    ws = Workspace.open(root)
    operations.grow(ws, "Intro", upstream=[], body="Plain words.", name="01-intro.md")
    (root / "02-evil.md").write_text(HOSTILE, encoding="utf-8")
    (root / "03-<b>odd name.md").write_text("# <i>x</i>\n", encoding="utf-8")
    return root


def test_no_note_content_becomes_markup_or_script(hostile_folder):
    html = export.render_html(hostile_folder)
    tags = _parse(html).tags
    assert not [t for t, _ in tags if t in ("script", "iframe", "img", "object", "embed")]
    assert [a.get("class") for t, a in tags if t == "div"] == ["bh-body"] * 3  # ours only
    for tag, attrs in tags:
        assert not [a for a in attrs if a.startswith("on")], (tag, attrs)
        for key in ("href", "src", "xlink:href", "action"):
            value = (attrs.get(key) or "").lower()
            assert not value.startswith(("javascript:", "&#", "data:", "vbscript:")), (tag, attrs)
    text = _visible(html)
    assert "<script>alert(1)</script>" in text  # shown as text, so the reader sees it
    assert "Evil <script>alert('title')</script>" in text
    assert "[image: pixel]" in text
    links = [a.get("href") for t, a in tags if t == "a" and a.get("href")]
    assert "https://example.org/x" in links


def test_the_page_fetches_nothing_and_runs_nothing():
    html = export.render_html(LONGEVAL)
    tags = _parse(html).tags
    assert not [t for t, _ in tags if t in ("script", "link", "img", "iframe")]
    csp = [a["content"] for t, a in tags if t == "meta" and a.get("http-equiv")]
    assert csp == [export.CSP]
    assert "default-src 'none'" in export.CSP
    assert "url(http" not in html and "@import" not in html


def test_no_environment_value_ends_up_in_the_page(monkeypatch):
    secret = "sk-test-7f3a9c-not-a-real-key"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    monkeypatch.setenv("BASEHALF_API_BASE", "http://127.0.0.1:9/secret-base")
    html = export.render_html(LONGEVAL)
    assert secret not in html and "secret-base" not in html


def test_export_writes_the_file_and_replaces_an_earlier_one(tmp_path):
    out = tmp_path / "session.html"
    out.write_text("old export")
    export.export(LONGEVAL, out)
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".bh-tmp")]


@pytest.mark.parametrize(
    ("target", "message"),
    [(".", "is a folder"), ("nowhere/session.html", "folder does not exist")],
)
def test_export_refuses_bad_targets(tmp_path, target, message, capsys):
    out = tmp_path / target
    code = main(["export", str(LONGEVAL), "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert message in err and err.count("\n") == 1


def test_cli_export_prints_the_file(tmp_path, capsys):
    out = tmp_path / "longeval.html"
    assert main(["export", str(LONGEVAL), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    assert "LongEval in one sentence each" in out.read_text()


def test_cli_export_of_a_missing_folder_names_it(tmp_path, capsys):
    assert main(["export", str(tmp_path / "gone"), "-o", str(tmp_path / "x.html")]) == 1
    assert "gone: folder does not exist" in capsys.readouterr().err


TINY_APP = """\
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    mo.md("tiny app")
    return


if __name__ == "__main__":
    app.run()
"""


def _marimo_export(app_dir: Path, notebook: str, out: Path, *args: str):
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "marimo", "export", "html", notebook, "-o", str(out), *args],
        cwd=app_dir, env=env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip


def _assert_cdn_page_and_session_state(proc, out: Path, app_dir: Path) -> None:
    assert proc.returncode == 0, proc.stderr[-3000:]
    page = out.read_text()
    assert "<html" in page.lower()
    # Its frontend comes from a CDN: the file alone is blank offline (use basehalf export).
    assert re.search(r'(src|href)="https://[^"]*(marimo|jsdelivr|unpkg)', page)
    assert list((app_dir / "__marimo__" / "session").glob("*.json"))


def test_marimo_export_html_needs_the_cdn_and_leaves_session_state(tmp_path):
    """DESIGN §6, on a minimal notebook: why the offline export has to be ours."""
    (tmp_path / "tiny.py").write_text(TINY_APP)
    out = tmp_path / "tiny.html"
    proc = _marimo_export(tmp_path, "tiny.py", out)
    _assert_cdn_page_and_session_state(proc, out, tmp_path)


def test_marimo_export_html_of_the_workbench(tmp_path):
    """The documented command on the real app: ``marimo export html workbench.py -o x.html``."""
    workbench = ROOT / "workbench.py"
    if not workbench.exists():
        pytest.fail("workbench.py is missing: the marimo export needs the app")
    app_dir = tmp_path / "app"
    app_dir.mkdir()
    shutil.copy(workbench, app_dir / "workbench.py")  # so __marimo__/ lands in tmp, not the repo
    folder = tmp_path / "longeval"
    shutil.copytree(LONGEVAL, folder)
    out = tmp_path / "x.html"
    proc = _marimo_export(app_dir, "workbench.py", out, "--", "--folder", str(folder))
    _assert_cdn_page_and_session_state(proc, out, app_dir)


def test_graph_picture_keeps_the_learners_dragged_positions(tmp_path):
    folder = tmp_path / "longeval"
    shutil.copytree(LONGEVAL, folder)

    def rect_of(html: str, path: str) -> tuple[float, float]:
        m = re.search(rf'data-path="{re.escape(path)}"><title>[^<]*</title><rect x="([\d.]+)" '
                      r'y="([\d.]+)"', html)  # fmt: skip
        assert m, path
        return float(m.group(1)), float(m.group(2))

    before = export.render_html(folder)
    a0, b0 = rect_of(before, "01-few-papers-evaluate-humans.md"), rect_of(before, "ATTRIBUTION.md")
    assert a0[1] > b0[1]  # grown notes sit a layer below the roots
    (folder / ".bh").mkdir(exist_ok=True)
    (folder / ".bh" / "canvas.json").write_text(
        json.dumps({"version": 1, "positions": {"01-few-papers-evaluate-humans.md": [0, -900]}})
    )
    after = export.render_html(folder)
    a1, b1 = rect_of(after, "01-few-papers-evaluate-humans.md"), rect_of(after, "ATTRIBUTION.md")
    assert a1[1] < b1[1]  # dragged above everything, as on the canvas
