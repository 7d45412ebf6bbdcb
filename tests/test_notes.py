"""One frontmatter/body reader: the index, Card Detail/export and practice cards agree.

Each row is a note as a learner (or another tool) might write it, with the single answer
basehalf gives: the frontmatter mapping, the body, and whether the index reports a problem
(and so refuses writes).
"""

import pytest
import yaml

from basehalf_core.folder import notes
from basehalf_core.folder import upstream as up
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.practice import split_frontmatter

BIG = "k: v\n" * 14_000  # 70,000 bytes of YAML
CJK = "字" * 22_000  # 66,000 bytes in 22,000 characters

CASES = [
    # (id, text, frontmatter, body, problem-substring or "")
    (
        "dash-fences",
        "---\ntitle: T\nupstream: [a.md]\n---\n# Body\n",
        {"title": "T", "upstream": ["a.md"]},
        "# Body\n",
        "",
    ),
    (
        "dots-closing-fence",
        "---\ntitle: T\nupstream: [a.md]\n...\n# Body\n",
        {"title": "T", "upstream": ["a.md"]},
        "# Body\n",
        "",
    ),
    (
        "indented-dashes-are-not-a-fence",
        "---\ntitle: T\nx: |\n  ---\n---\nBody\n",
        {"title": "T", "x": "---\n"},
        "Body\n",
        "",
    ),
    (
        "only-an-indented-closing-fence",
        "---\ntitle: T\n  ---\nBody\n",
        {},
        "---\ntitle: T\n  ---\nBody\n",
        "",
    ),
    (
        "fence-past-64-KiB",
        f"---\n{BIG}---\n# Body\n",
        {},
        f"---\n{BIG}---\n# Body\n",
        "runs past 64 KiB",
    ),
    (
        "fence-within-64-K-characters-but-past-64-KiB-of-bytes",
        f"---\nt: {CJK}\n---\nBody\n",
        {},
        f"---\nt: {CJK}\n---\nBody\n",
        "runs past 64 KiB",
    ),
    ("no-closing-fence", "---\nA rule, then text.\n", {}, "---\nA rule, then text.\n", ""),
    (
        "bom-and-crlf",
        "\ufeff---\r\ntitle: T\r\n---\r\nBody\r\n",
        {"title": "T"},
        "Body\r\n",
        "",
    ),
    ("cr-only", "---\rtitle: T\r---\rBody\r", {}, "---\rtitle: T\r---\rBody\r", "CR-only"),
    (
        "json-frontmatter",
        '{\n  "title": "T"\n}\nBody\n',
        {},
        '{\n  "title": "T"\n}\nBody\n',
        "JSON",
    ),
    (
        "toml-frontmatter",
        '+++\ntitle = "T"\n+++\nBody\n',
        {},
        '+++\ntitle = "T"\n+++\nBody\n',
        "TOML",
    ),
    ("malformed-yaml", "---\ntitle: [\n---\nBody\n", {}, "Body\n", "malformed YAML"),
    ("not-a-mapping", "---\n- a\n- b\n---\nBody\n", {}, "Body\n", "not a mapping"),
]


@pytest.mark.parametrize(
    ("text", "meta", "body", "problem"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_every_reader_gives_the_one_answer(tmp_path, text, meta, body, problem):
    (tmp_path / "n.md").write_bytes(text.encode("utf-8"))
    ws = Workspace.open(tmp_path)
    assert split_frontmatter(text) == (meta, body)  # practice cards, grading context
    assert ws.frontmatter("n.md") == meta  # Card Detail, export, highlights
    assert ws.body("n.md") == body
    store = ws.nodes["n.md"].store  # the index
    if problem:
        assert problem in store.unreadable
    else:
        assert store.unreadable == ""
    if store.yaml_start >= 0:
        assert store.text[notes.line_end(store.text, store.yaml_end) :] == body


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (f"---\n{BIG}---\n# Body\n", "runs past 64 KiB"),
        ("---\rtitle: T\r---\rBody\r", "CR-only"),
        ('{\n  "title": "T"\n}\nBody\n', "JSON"),
    ],
    ids=["oversized", "cr-only", "json"],
)
def test_unusable_frontmatter_refuses_writes_and_never_stacks_a_second_block(
    tmp_path, text, problem
):
    from basehalf_core.folder import operations as ops

    (tmp_path / "a.md").write_text("# a\n")
    (tmp_path / "n.md").write_bytes(text.encode("utf-8"))
    ws = Workspace.open(tmp_path)
    issues = [i for i in ws.issues() if i.path == "n.md"]
    assert issues and problem in issues[0].reason
    with pytest.raises(ops.OperationRefused, match=problem):
        ops.connect(ws, "a.md", "n.md")
    assert (tmp_path / "n.md").read_bytes() == text.encode("utf-8")


ALIAS_BOMB = "\n".join(
    ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [
        f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]"
        for p, n in zip("abcdefgh", "bcdefghi", strict=False)
    ]
    + ["grown_from:", "  file: paper.pdf", "  page: 1", "  quote: *i"]
)


@pytest.mark.parametrize(
    ("src", "reason"),
    [
        (ALIAS_BOMB, "alias bomb"),
        ("x: " + "[" * 200 + "]" * 200, "deeper than 64 levels"),
        ("x: " + "{a: " * 100 + "1" + "}" * 100, "deeper than 64 levels"),
    ],
    ids=["alias-bomb", "deep-lists", "deep-maps"],
)
def test_the_yaml_loader_is_bounded(tmp_path, src, reason):
    with pytest.raises(notes.YamlRefused, match=reason):
        notes.load_yaml(src)
    (tmp_path / "n.md").write_text(f"---\n{src}\n---\n# N\n")
    ws = Workspace.open(tmp_path)
    assert ws.frontmatter("n.md") == {}
    assert ws.body("n.md") == "# N\n"
    assert reason in ws.nodes["n.md"].store.unreadable


def test_the_yaml_loader_keeps_ordinary_aliases():
    assert notes.load_yaml("a: &x [1, 2]\nb: *x\n") == {"a": [1, 2], "b": [1, 2]}


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_the_64_KiB_window_is_cut_on_a_character_boundary(tmp_path, cut):
    """A long note whose index window ends inside a 3- or 4-byte character keeps its edges."""
    from basehalf_core.folder.workspace import _SCAN_BYTES

    head = "---\nupstream: [a.md]\n---\n"
    filler = "x" * (_SCAN_BYTES - len(head) - cut)
    text = head + filler + "字😀" * 2000
    (tmp_path / "a.md").write_text("# a\n")
    (tmp_path / "n.md").write_text(text, encoding="utf-8")
    ws = Workspace.open(tmp_path)
    assert ws.nodes["n.md"].store.unreadable == ""
    assert ws.upstream("n.md") == ["a.md"]


@pytest.mark.parametrize(
    "data",
    [b"abc", "字".encode() * 3, "😀".encode(), b""],
)
@pytest.mark.parametrize("drop", [0, 1, 2, 3])
def test_cut_utf8_only_drops_a_partial_last_character(data, drop):
    window = (data + "字😀".encode())[: len(data) + drop]
    kept = notes.cut_utf8(window)
    kept.decode("utf-8")  # never cut inside a character
    assert window.startswith(kept) and len(window) - len(kept) <= 3


def test_a_comment_inside_a_multiline_flow_list_survives_a_disconnect(tmp_path):
    from basehalf_core.folder import operations as ops

    for n in ("a.md", "b.md", "c.md"):
        (tmp_path / n).write_text(f"# {n}\n")
    text = "---\nupstream: [\n  a.md,  # the claim\n  b.md,  # why it matters\n  c.md\n]\n---\n"
    (tmp_path / "n.md").write_text(text)
    ws = Workspace.open(tmp_path)
    assert ops.disconnect(ws, "c.md", "n.md")
    after = (tmp_path / "n.md").read_text()
    assert "# the claim" in after and "# why it matters" in after
    assert ops.disconnect(ws, "a.md", "n.md")
    after = (tmp_path / "n.md").read_text()
    assert "# why it matters" in after
    assert Workspace.open(tmp_path).upstream("n.md") == ["b.md"]


def test_upstream_reader_agrees_with_yaml_on_the_fields_it_keeps():
    store = up.read_note(b"---\ntitle: 'A: b'\nkind: practice\n---\n", "n.md")
    assert store.fields == {"title": "A: b", "kind": "practice"}
    assert yaml.safe_load("title: 'A: b'\nkind: practice\n") == store.fields
