"""The Agent Area's grading views (views/grading_panel.py) as a learner reads them.

Runs are made the real way (the offline grader, or a model on the loopback server in
tests/openai_server.py) and written to the grading file; the HTML is then parsed with the
standard library's parser and read per row: what the verdict cell and the evidence cell say.
"""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from openai_server import no_model_env, openai_server  # noqa: F401

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import grading, llm
from basehalf_core.views import grading_panel

pytestmark = pytest.mark.usefixtures("no_model_env")

VOID = {"br", "img", "hr", "input", "meta", "link", "source", "wbr"}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str]
    children: list = field(default_factory=list)  # Node or str

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()

    def by_class(self, name: str) -> list[Node]:
        return [n for n in self.walk() if name in n.attrs.get("class", "").split()]


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {})
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def parse(html: str) -> Node:
    tree = _Tree()
    tree.feed(html)
    tree.close()
    return tree.root


def rows(html: str) -> dict[int, Node]:
    """The verdict rows by question number."""
    return {int(n.attrs["data-number"]): n for n in parse(html).walk() if "data-number" in n.attrs}


def cells(row: Node) -> list[Node]:
    return [c for c in row.children if isinstance(c, Node) and c.tag == "td"]


def write(folder: Path, name: str, text: str) -> None:
    (folder / name).write_text(text, encoding="utf-8")


def make_folder(tmp_path: Path, note_extra: str = "", answer: str = "", key: str = "") -> Path:
    folder = tmp_path / "study"
    folder.mkdir()
    write(
        folder,
        "01-note.md",
        "# Attention\n\nThe query is what the current position is looking for in the sequence.\n"
        f"The values are what a position passes on, weighted by how well its key matches.\n"
        f"{note_extra}",
    )
    write(
        folder,
        "02-card.md",
        "---\nupstream:\n  - 01-note.md\nkind: practice\n---\n# Card\n\n"
        "1. What does the query stand for?\n"
        "   Answer: What the current position is looking for in the sequence.\n"
        "2. What are the values?\n"
        f"   Answer: {answer or 'The values are never passed on.'}\n"
        + (f"\n## Answer key\n\n{key}" if key else ""),
    )
    return folder


def model_cfg(server) -> llm.ModelConfig:
    return llm.ModelConfig("openai/local-model", server.base_url, timeout=5, backoff=0.05)


def model_reply(grades: list[dict]) -> dict:
    return {"content": json.dumps({"grades": grades})}


def test_an_unsure_shows_its_confidence_and_the_passages_to_compare(tmp_path):
    # Question 1 has a key (Correct offline); question 2 is graded against the notes only,
    # and the negation leaves it Unsure.
    key = "1. What the current position is looking for in the sequence.\n"
    ws = Workspace.open(make_folder(tmp_path, key=key))
    run = grading.grade_card(ws, "02-card.md")
    assert run.grades[0].verdict == "Correct"
    unsure = run.grades[1]
    assert unsure.verdict == "Unsure" and unsure.compare and unsure.confidence is not None
    html = grading_panel.verdict_table(ws, "02-card.md")
    row = rows(html)[2]
    assert row.attrs["data-verdict"] == "Unsure"
    verdict_cell, evidence_cell = cells(row)[3], cells(row)[4]
    assert verdict_cell.text() == f"Unsure ({round(unsure.confidence * 100)}% sure)"
    (compare,) = evidence_cell.by_class("bh-compare")
    assert "Compare your answer with:" in compare.text()
    assert [li.text() for li in compare.walk() if li.tag == "li"] == list(unsure.compare)
    assert "1 Unsure" in parse(html).text() and "never counts as Wrong" in parse(html).text()
    # The Correct row has no compare list: the help is for an Unsure.
    assert not cells(rows(html)[1])[4].by_class("bh-compare")


def test_approximate_evidence_shows_the_mark_and_the_nearest_passage_and_unfound_says_so(
    tmp_path, openai_server
):
    ws = Workspace.open(make_folder(tmp_path))
    changed = "The query is what the position is looking for in the sequence"  # a dropped word
    openai_server.default = model_reply(
        [
            {"number": 1, "verdict": "Correct", "reason": "Right.", "evidence": changed},
            {"number": 2, "verdict": "Wrong", "reason": "No.", "evidence": "in no note at all"},
        ]
    )
    run = grading.grade_card(ws, "02-card.md", config=model_cfg(openai_server))
    approx, unfound = run.grades
    assert (approx.evidence_match, unfound.evidence_match) == ("approximate", "not found")
    found = rows(grading_panel.verdict_table(ws, "02-card.md"))
    (mark,) = cells(found[1])[4].by_class("bh-approximate")
    assert mark.text() == f"quoted approximately; the passage reads: “{approx.nearest}”"
    assert "is what the current position is looking for" in approx.nearest
    assert f"“{changed}”" in cells(found[1])[4].text()  # the model's quote stays beside it
    assert not cells(found[1])[4].by_class("bh-not-found")
    (gone,) = cells(found[2])[4].by_class("bh-not-found")
    assert gone.text() == "evidence not found in the notes"
    assert not cells(found[2])[4].by_class("bh-approximate")
    assert found[2].attrs["data-verdict"] == "Wrong"


SCRIPT = "<script>window.pwned = 1</script>"
IMG = '<img src="x" onerror="window.pwned = 2">'
HOSTILE = f"The values are what a position passes on {SCRIPT} {IMG} in every layer."


def _no_script(html: str) -> Node:
    tree = parse(html)
    tags = {n.tag for n in tree.walk()}
    assert not tags & {"script", "img", "iframe", "object", "embed"}, tags
    for n in tree.walk():
        assert not [a for a in n.attrs if a.startswith("on")], n
        assert not any("javascript:" in v for v in n.attrs.values()), n
    return tree


@pytest.mark.parametrize("how", ["offline", "model", "stream"])
def test_note_text_is_shown_as_text_and_never_runs(tmp_path, openai_server, how):
    folder = make_folder(tmp_path, note_extra=f"{HOSTILE}\n", answer=f"Passed on {IMG}.")
    ws = Workspace.open(folder)
    openai_server.default = model_reply(
        [
            {"number": 1, "verdict": "Correct", "reason": f"Fine {SCRIPT}.", "evidence": HOSTILE},
            {"number": 2, "verdict": "Unsure", "reason": f"Open {IMG}.", "evidence": ""},
        ]
    )
    if how == "stream":
        pages = list(
            grading_panel.stream_html(
                ws, "02-card.md", "openai/local-model", threading.Event(),
                api_base=openai_server.base_url,
            )
        )  # fmt: skip
        assert [state for _, state in pages][-1] == "done"
        for html, _ in pages:
            _no_script(html)
        shown = pages[-2][0]  # the last page with the rows
    else:
        config = model_cfg(openai_server) if how == "model" else None
        grading.grade_card(ws, "02-card.md", config=config)
        shown = grading_panel.verdict_table(ws, "02-card.md")
    text = _no_script(shown).text()
    # The learner sees the note's and the answer's markup as the characters they typed.
    assert IMG in text
    if how != "offline":
        assert SCRIPT in text and HOSTILE in text
    else:  # the Unsure's passages to compare with (cut at "window." by the sentence splitter)
        assert "passes on <script>window." in text
