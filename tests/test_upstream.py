import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from basehalf_core.folder import upstream as up
from basehalf_core.folder import upstream_edit


def read(text: str, owner: str = "me.md") -> up.Store:
    return up.read_note(text.encode("utf-8"), owner)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("---\nupstream: {a: b}\n---\n", "mapping"),
        ("---\nupstream: [a]\nupstream: [b]\n---\n", "twice"),
        ("---\nupstream: &x [a]\nother: *x\n---\n", "anchor"),
        ("---\nx: &y a.md\nupstream:\n  - *y\n---\n", "alias"),
        ("---\nupstream: !!seq [a]\n---\n", "tag"),
        ("---\nupstream:\n  - !!str 01\n---\n", "tag"),
        ("---\nupstream: |\n  a.md\n---\n", "block scalar"),
        ("---\nupstream: >\n  a.md\n---\n", "block scalar"),
        ("---\nupstream: [a\n---\n", "malformed YAML"),
        ("---\ntitle: 'unclosed\n---\n", "malformed YAML"),
        ("+++\nupstream = ['a.md']\n+++\n", "TOML"),
        ("---\n- a\n- b\n---\n", "not a mapping"),
    ],
)
def test_unreadable_stores_have_no_edges_and_say_why(text, reason):
    store = read(text)
    assert reason in store.unreadable
    assert store.entries == []
    with pytest.raises(up.StoreUnreadable):
        upstream_edit.add(store, "new.md")


def test_malformed_yaml_names_the_line():
    store = read("---\ntitle: ok\nupstream: [a\n---\n")
    assert "line" in store.unreadable


def test_non_utf8_is_unreadable():
    store = up.read_note(b"---\nupstream: [a]\n---\n\xff\xfe caf\xe9", "x.md")
    assert "not UTF-8" in store.unreadable


def test_entries_keep_source_text_and_bad_ones_do_not_hide_good_ones():
    store = read(
        "---\nupstream:\n  - 2024\n  - 01\n  - yes\n  - '007'\n  - ../x\n  - 2024\n  - ok.md\n---\n"
    )
    assert [e.raw for e in store.entries] == ["2024", "01", "yes", "007", "../x", "2024", "ok.md"]
    assert store.paths == ["2024", "01", "yes", "007", "ok.md"]
    assert [e.reason for e in store.entries if e.path is None] == [
        "has an empty, '.' or '..' segment",
        "repeats an earlier entry",
    ]


def test_unclosed_fence_in_reach_means_no_frontmatter():
    text = "---\nupstream: [a]\n" + "x" * (70 * 1024) + "\n---\n"
    store = read(text)
    assert store.yaml_start == -1 and store.entries == []


# --- edits: every byte outside the upstream lines stays -----------------------------------

EDIT_CASES = [
    # (before, op, arg, after)
    ("# Body\n", "add", "a.md", "---\nupstream:\n  - a.md\n---\n# Body\n"),
    ("", "add", "a.md", "---\nupstream:\n  - a.md\n---\n"),
    (
        "---\ntitle: T  # kept\n---\nbody",
        "add",
        "a.md",
        "---\ntitle: T  # kept\nupstream:\n  - a.md\n---\nbody",
    ),
    (
        "---\nupstream:\n    - 'x.md'   # first\n# between\ntags: [z]\n---\n",
        "add",
        "2024",
        "---\nupstream:\n    - 'x.md'   # first\n    - \"2024\"\n# between\ntags: [z]\n---\n",
    ),
    ("---\nupstream: [a.md]\n---\n", "add", "b: c.md", '---\nupstream: [a.md, "b: c.md"]\n---\n'),
    ("---\nupstream: []\n---\n", "add", "a.md", "---\nupstream: [a.md]\n---\n"),
    ("---\nupstream:\nk: v\n---\n", "add", "a.md", "---\nupstream:\n  - a.md\nk: v\n---\n"),
    ("---\nupstream: a.md\n---\n", "add", "b.md", "---\nupstream:\n  - a.md\n  - b.md\n---\n"),
    (
        "\ufeff---\r\nupstream:\r\n  - a.md\r\n---\r\nbody\r\n",
        "add",
        "b.md",
        "\ufeff---\r\nupstream:\r\n  - a.md\r\n  - b.md\r\n---\r\nbody\r\n",
    ),
    (
        "---\nupstream:\n  - a.md\n  - b.md\n---\n",
        "remove",
        "a.md",
        "---\nupstream:\n  - b.md\n---\n",
    ),
    ("---\nupstream:\n  - a.md\nk: v\n---\nB\n", "remove", "a.md", "---\nk: v\n---\nB\n"),
    ("---\nupstream:\n  - a.md\n---\nBody\n", "remove", "a.md", "Body\n"),
    (
        "---\nupstream: [a.md, 'b.md', c]\n---\n",
        "remove",
        "b.md",
        "---\nupstream: [a.md, c]\n---\n",
    ),
    ("---\nupstream:\n  - a.md\n  - a.md/\n---\n", "remove", "a.md", ""),
    (
        '---\nupstream:\n  - "old.md" # c\n---\n',
        "replace",
        ("old.md", "new dir/n.md"),
        "---\nupstream:\n  - new dir/n.md # c\n---\n",
    ),
]


@pytest.mark.parametrize(("before", "op", "arg", "after"), EDIT_CASES)
def test_minimal_edits(before, op, arg, after):
    data = before.encode("utf-8")
    store = up.read_note(data, "me.md")
    args = arg if isinstance(arg, tuple) else (arg,)
    text = getattr(upstream_edit, op)(store, *args)
    assert upstream_edit.encode(store, text).decode("utf-8") == after


def test_adding_what_is_there_and_removing_what_is_not_change_nothing():
    store = read("---\nupstream: [a.md]\n---\n")
    assert upstream_edit.add(store, "a.md") is None
    assert upstream_edit.remove(store, "b.md") is None
    assert upstream_edit.replace(store, "b.md", "c.md") is None


@pytest.mark.parametrize(
    "value",
    [
        "2024",
        "01",
        "yes",
        "null",
        "2024-01-01",
        "a: b",
        "x #y",
        "[a]",
        "-lead",
        "trail ",
        "it's",
        "中文.md",
        "a,b",
        "~",
        "1e3",
    ],
)
def test_written_entries_read_back_as_the_same_text(value):
    store = read("---\ntitle: t\n---\n")
    text = upstream_edit.add(store, value)
    again = read(text)
    assert [e.raw for e in again.entries] == [value]
    assert yaml.safe_load(text.split("---")[1])["upstream"] == [value]


# --- property: connect/disconnect leave every other byte alone ----------------------------

_key = st.sampled_from(["title", "tags", "kind", "date", "note", "weight"])
_plain = st.text(alphabet="abcdefgh -_.", min_size=1, max_size=12).map(str.strip).filter(bool)
_value = st.one_of(
    _plain,
    _plain.map(lambda s: f"'{s}'"),
    _plain.map(lambda s: f'"{s}"'),
    st.integers(0, 3000).map(str),
    st.just("[a, b]"),
)
_comment = st.sampled_from(["", "  # note", " # 注释"])


@st.composite
def notes(draw):
    lines = []
    for key in draw(st.lists(_key, unique=True, max_size=4)):
        lines.append(f"{key}: {draw(_value)}{draw(_comment)}")
    if draw(st.booleans()):
        entries = draw(st.lists(_plain.filter(lambda s: s != "me.md"), unique=True, max_size=3))
        if entries:
            pos = draw(st.integers(0, len(lines)))
            block = ["upstream:"] + [f"  - {e}{draw(_comment)}" for e in entries]
            lines[pos:pos] = block
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "\ufeff"]))
    body = draw(st.text(alphabet="xyz #\n-", max_size=30))
    if lines or draw(st.booleans()):
        return bom + nl.join(["---", *lines, "---"]) + nl + body
    return bom + body


def _outside_upstream(text: str) -> str:
    """The text with the upstream key's lines (and an added/removed empty block) taken out."""
    store = up.read_note(text.encode("utf-8"), "me.md")
    if store.yaml_start < 0:
        return text.lstrip("\ufeff")
    t = store.text
    if store.key_start >= 0:
        a = upstream_edit._line_start(t, store.key_start)
        b = upstream_edit._line_end(t, max(store.value_end - 1, store.key_start))
        t = t[:a] + t[b:]
    rest = t.partition("---")[2]
    inner_end = rest.find("---", 1)
    if rest[:inner_end].strip() == "":
        after = rest[inner_end + 3 :]
        return after[2:] if after.startswith("\r\n") else after[1:]
    return t


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(notes(), st.sampled_from(["a.md", "new file.md", "01", "b"]), st.booleans())
def test_connect_disconnect_touch_only_upstream_lines(text, entry, adding):
    store = up.read_note(text.encode("utf-8"), "me.md")
    if store.unreadable:
        return
    new = upstream_edit.add(store, entry) if adding else upstream_edit.remove(store, entry)
    if new is None:
        return
    assert _outside_upstream(upstream_edit.encode(store, new).decode("utf-8")) == _outside_upstream(
        text
    )
    after = up.read_note(upstream_edit.encode(store, new), "me.md")
    assert not after.unreadable
    expected = [p for p in store.paths if p != entry] + ([entry] if adding else [])
    assert sorted(after.paths) == sorted(expected)
