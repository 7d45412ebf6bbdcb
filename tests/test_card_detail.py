"""Card Detail data: entry states, downstream, relink suggestions, a body that runs nothing."""

from __future__ import annotations

import shutil
from html.parser import HTMLParser

import marimo as mo
import pytest
from conftest import corpus

from basehalf_core.folder import multifile, operations
from basehalf_core.folder.workspace import UnknownNode, Workspace
from basehalf_core.views.card import card_detail, relink_suggestion
from basehalf_core.views.markdown import BLOCKED_LINK
from basehalf_core.views.markdown import escape as safe_markdown


def write(root, name, text):
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


@pytest.fixture
def folder(tmp_path):
    shutil.copy(corpus("attention-1706.03762.pdf"), tmp_path / "attention.pdf")
    write(tmp_path, "ch1/intro.md", "# Intro (chapter 1)\n")
    write(tmp_path, "ch2/intro.md", "# Intro (chapter 2)\n")
    write(tmp_path, "library/moved.md", "# Moved here\n")
    write(
        tmp_path,
        "card.md",
        "---\nupstream:\n  - attention.pdf\n  - moved.md\n  - intro.md\n  - gone.md\n"
        "  - /abs.md\n  - attention.pdf\n---\n# The card\n\nSome *text*.\n",
    )
    write(tmp_path, "after.md", "---\nupstream:\n  - card.md\n---\n# After\n")
    return Workspace.open(tmp_path)


def test_each_entry_has_its_state_in_store_order(folder):
    d = card_detail(folder, "card.md")
    assert [(u.entry, u.state) for u in d.upstream] == [
        ("attention.pdf", "ok"),
        ("moved.md", "dangling"),
        ("intro.md", "dangling"),
        ("gone.md", "dangling"),
        ("/abs.md", "invalid"),
        ("attention.pdf", "invalid"),
    ]
    assert d.upstream[0].path == "attention.pdf"
    assert "absolute" in d.upstream[4].reason
    assert "repeat" in d.upstream[5].reason or "twice" in d.upstream[5].reason


def test_relink_is_suggested_only_for_a_unique_file_of_the_same_name(folder):
    by_entry = {u.entry: u.suggestion for u in card_detail(folder, "card.md").upstream}
    assert by_entry["moved.md"] == "library/moved.md"
    assert by_entry["intro.md"] is None  # two files are called intro.md: no guess
    assert by_entry["gone.md"] is None
    assert relink_suggestion(folder, "old/place/moved.md") == "library/moved.md"


def test_a_suggestion_that_is_applied_fixes_the_entry(folder):
    multifile.relink(folder, "moved.md", "library/moved.md")
    states = {u.entry: u.state for u in card_detail(folder, "card.md").upstream}
    assert states["library/moved.md"] == "ok"
    assert "moved.md" not in states


def test_downstream_is_derived(folder):
    assert card_detail(folder, "card.md").downstream == ["after.md"]
    assert card_detail(folder, "attention.pdf").downstream == ["card.md"]


def test_title_kind_and_body_of_a_note(folder):
    d = card_detail(folder, "card.md")
    assert (d.title, d.kind) == ("The card", "note")
    assert d.body == "# The card\n\nSome *text*.\n"
    assert d.body_html == "<h1>The card</h1>\n<p>Some <em>text</em>.</p>"
    assert "upstream" not in d.body
    assert d.as_dict()["upstream"][1]["suggestion"] == "library/moved.md"


def test_a_pdf_has_no_body_and_its_mirror_store_is_read(folder):
    operations.connect(folder, "ch1/intro.md", "attention.pdf")
    d = card_detail(folder, "attention.pdf")
    assert (d.kind, d.body) == ("pdf", "")
    assert [(u.entry, u.state) for u in d.upstream] == [("ch1/intro.md", "ok")]


@pytest.mark.parametrize(
    "front",
    [
        "upstream: {a: b}",
        "upstream: &x [a.md]",
        "upstream: |\n  a.md",
        "upstream: []\nupstream: []",
    ],
)
def test_an_unreadable_store_says_why(tmp_path, front):
    write(tmp_path, "n.md", f"---\n{front}\n---\n# N\n")
    d = card_detail(Workspace.open(tmp_path), "n.md")
    assert [u.state for u in d.upstream] == ["unreadable"]
    assert d.problem and d.problem == d.upstream[0].reason
    assert "text editor" in d.problem  # where to mend it, since the app never types it


def test_an_unknown_path_is_a_clear_error(folder):
    with pytest.raises(UnknownNode, match="nope.md"):
        card_detail(folder, "nope.md")


def rendered(markdown: str) -> str:
    """HTML as marimo's own Markdown renders it (mo.md), the way Card Detail would show it."""
    return mo.md(markdown).text


class Parsed(HTMLParser):
    """The elements a browser would build from some HTML, and its text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict]] = []
        self.text = ""
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text += data


SAFE_TAGS = {"span", "p", "h1", "h2", "blockquote", "ul", "ol", "li", "a", "code", "pre", "div"}
SAFE_TAGS |= {"em", "strong", "br", "hr", "img"}  # a Markdown image is fine; its src is checked


ATTACKS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:alert(1)">x</a>',
    "<iframe srcdoc='<script>alert(1)</script>'></iframe>",
    "<div\nonclick=alert(1)>x</div>",
    "<svg/onload=alert(1)>",
    "<style>body{display:none}</style>",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(1))",
    "[click]( javascript:alert(1))",
    "[click](java&#115;cript:alert(1))",
    "[click](javascript&colon;alert(1))",
    "[click](data:text/html,<script>alert(1)</script>)",
    "![img](javascript:alert(1))",
    "[ref]\n\n[ref]: javascript:alert(1)",
    "`code` <img src=x onerror=alert(1)> `more`",
    "```\nunclosed fence <img src=x onerror=alert(1)>\n",
    "> quoted <img src=x onerror=alert(1)>",
    "- item <script>alert(1)</script>",
]


@pytest.mark.parametrize("attack", ATTACKS)
def test_no_tag_or_script_link_survives_rendering(attack):
    html = rendered(safe_markdown(attack))
    for tag, attrs in Parsed(html).elements:
        assert tag in SAFE_TAGS, html
        assert not [a for a in attrs if a.startswith("on")], html
        for name in ("href", "src"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("javascript", "data", "vbscript")), html


@pytest.mark.parametrize("attack", ATTACKS)
def test_body_html_is_safe_to_insert_as_it_is(tmp_path, attack):
    write(tmp_path, "n.md", f"# Note\n\n{attack}\n")
    html = card_detail(Workspace.open(tmp_path), "n.md").body_html
    assert html.startswith("<h1>Note</h1>")
    for tag, attrs in Parsed(html).elements:
        assert tag in SAFE_TAGS - {"img"}, html
        assert not [a for a in attrs if a.startswith("on")], html
        assert not (attrs.get("href") or "").strip().lower().startswith(("javascript", "data"))


def test_escaped_html_still_reads_as_the_same_text():
    parsed = Parsed(rendered(safe_markdown("5 < 6 and <b>bold</b> & co")))
    assert parsed.text == "5 < 6 and <b>bold</b> & co"


def test_code_keeps_its_characters():
    md = "Inline `a <b> c`.\n\n```html\n<img src=x onerror=alert(1)>\n```\n"
    text = Parsed(rendered(safe_markdown(md))).text
    assert "Inline a <b> c." in text
    assert "<img src=x onerror=alert(1)>" in text
    assert "&lt;" not in text


def test_ordinary_links_and_quotes_are_untouched():
    md = (
        "> The dominant sequence (p. 1)\n\n"
        "Source: [attention.pdf, p. 1](attention.pdf#page=1) "
        "and [site](https://arxiv.org/abs/1706.03762) and [me](mailto:a@b.c)\n"
    )
    assert safe_markdown(md) == md
    assert BLOCKED_LINK not in rendered(safe_markdown(md))
