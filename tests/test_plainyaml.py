"""The fast line reader must agree with the libyaml event reader wherever it accepts input."""

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from basehalf_core.folder import plainyaml, upstream_edit
from basehalf_core.folder import upstream as up

_word = st.text(alphabet="abcxyz019_./-() 中文é:#&*!'\",[]{}|>%@`~?", min_size=0, max_size=10)
_scalar = st.one_of(
    _word,
    _word.map(lambda s: f'"{s}"'),
    _word.map(lambda s: f"'{s}'"),
    st.sampled_from(["null", "~", "01", "2024", "yes", "2024-01-01", "1.5", ""]),
)
_flow = st.lists(_scalar, max_size=3).map(lambda xs: "[" + ", ".join(xs) + "]")
_value = st.one_of(_scalar, _flow, st.just("[[1.0, 2.5], [3, 4]]"))
_key = st.sampled_from(["upstream", "title", "kind", "grown_from", "tags", "x-y", "中"])
_tail = st.sampled_from(["", " ", "  # c", "#c", " #"])
_indent = st.sampled_from(["", " ", "  ", "    ", "\t"])


@st.composite
def frontmatter(draw):
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            lines.append(f"{draw(_key)}: {draw(_value)}{draw(_tail)}")
        elif kind == 1:
            lines.append(f"{draw(_key)}:{draw(_tail)}")
        elif kind == 2:
            lines.append(f"{draw(_indent)}- {draw(_scalar)}{draw(_tail)}")
        elif kind == 3:
            lines.append(f"{draw(_indent)}{draw(_key)}: {draw(_value)}{draw(_tail)}")
        elif kind == 4:
            lines.append(draw(st.sampled_from(["", "# comment", "  ", "  # indented"])))
        else:
            lines.append(f"{draw(_key)}: {draw(_scalar)}")
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    return nl.join(lines) + (nl if lines and draw(st.booleans()) else "")


_safe = st.text(alphabet="abc019_./- 中é", min_size=1, max_size=8).filter(
    lambda w: w[0] not in "- " and w.strip() == w
)
_safe_scalar = st.one_of(_safe, _safe.map(lambda s: f'"{s} # x"'), _safe.map(lambda s: f"'{s}'"))


@st.composite
def plain_frontmatter(draw):
    """Mostly inside the fast reader's subset, so the comparison has teeth."""
    lines = []
    for key in draw(st.lists(_key, unique=True, max_size=5)):
        form = draw(st.integers(0, 3))
        tail = draw(st.sampled_from(["", "  # c", " "]))
        if form == 0:
            lines.append(f"{key}: {draw(_safe_scalar)}{tail}")
        elif form == 1:
            items = draw(st.lists(_safe_scalar, max_size=3))
            lines.append(f"{key}: [{', '.join(items)}]{tail}")
        elif form == 2:
            ind = draw(st.sampled_from(["", "  ", "    "]))
            lines.append(f"{key}:{tail}")
            for item in draw(st.lists(_safe_scalar, max_size=3)):
                lines.append(f"{ind}- {item}{draw(st.sampled_from(['', ' # c']))}")
                if draw(st.booleans()):
                    lines.append(draw(st.sampled_from(["", "# between", "   # deep"])))
        else:
            lines.append(f"{key}:")
            for sub in draw(st.lists(st.sampled_from(["page", "file", "rects"]), unique=True)):
                lines.append(f"  {sub}: {draw(_safe_scalar)}")
    nl = draw(st.sampled_from(["\n", "\r\n"]))
    return nl.join(lines) + nl if lines else ""


def _slow(text: str) -> up.Store:
    store = up.Store(owner="me.md", text=text, yaml_start=0, yaml_end=len(text), fenced=False)
    store.newline = upstream_edit._newline_of(text)
    up._parse_events(store, text, 0)
    return store


def _fast(text: str) -> up.Store | None:
    if plainyaml.parse(text, 0) is None:
        return None
    return up.read_mirror(text.encode("utf-8"), "me.md")


@settings(
    max_examples=1500, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(st.one_of(frontmatter(), plain_frontmatter()))
@example("upstream:\n  - a.md\n  - 01\ntitle: T # c\ngrown_from:\n  page: 4\n  rects: [[1, 2]]\n")
@example("upstream: [a.md, 'b c.md', \"d\"]\nkind: practice\n")
@example("upstream:\n- a\n- b\n")
@example("upstream:\nkind: x\n")
@example("upstream: null\n")
def test_fast_reader_agrees_with_libyaml(text):
    fast = _fast(text)
    if fast is None:
        return
    slow = _slow(text)
    assert not slow.unreadable, (text, slow.unreadable)
    assert fast.unreadable == ""
    assert [(e.raw, e.path, e.reason, e.start, e.end) for e in fast.entries] == [
        (e.raw, e.path, e.reason, e.start, e.end) for e in slow.entries
    ]
    assert (fast.shape, fast.key_start, fast.fields) == (slow.shape, slow.key_start, slow.fields)
    for target in ["new.md", *fast.paths[:1]]:
        assert upstream_edit.add(fast, target) == upstream_edit.add(slow, target)
        assert upstream_edit.remove(fast, target) == upstream_edit.remove(slow, target)


def test_fast_reader_declines_what_it_does_not_know():
    for text in [
        "upstream: &a [x]\n",
        "upstream: !!seq [x]\n",
        "k: |\n  x\n",
        "k: v\n  more\n",
        "upstream:\n  - [a]\n",
        "upstream: [a]\nupstream: [b]\n",
        "\tk: v\n",
        'k: "es\\"c"\n',
    ]:
        assert plainyaml.parse(text, 0) is None, text
