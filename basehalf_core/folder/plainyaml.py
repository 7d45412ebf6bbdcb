"""A fast reader for the plain YAML most frontmatter is written in.

libyaml costs ~25 µs per note, several times the cost of reading a small file. This reader
accepts only a conservative subset — ``key: scalar``, ``key: [flow, list]``, block lists of
scalars, one level of nested ``key: value`` lines, comments — checked by one regular
expression over the whole block, and returns ``None`` for anything else so the caller falls
back to libyaml. Inside the subset it gives exactly what the event reader gives;
``tests/test_plainyaml.py`` checks that property.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

# Characters that never appear in the subset: controls, YAML 1.1 line breaks, BOM.
_BAN = r"\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff"
_PLAIN = (
    rf"[A-Za-z0-9_./(\u00a0-\u2027\u202a-\ufefe\uff00-\U0010ffff][^{_BAN}:#\[\]{{}},&*!|>'\"%@`]*"
)
_DQ = rf'"[^"\\{_BAN}]*"'
_SQ = rf"'[^'{_BAN}]*'"
_SCALAR = rf"(?:{_PLAIN}|{_DQ}|{_SQ})"
_FLOW1 = rf"\[ *(?:{_SCALAR}(?: *, *{_SCALAR})*)? *\]"
_FLOW2 = rf"\[ *(?:(?:{_SCALAR}|{_FLOW1})(?: *, *(?:{_SCALAR}|{_FLOW1}))*)? *\]"
_VALUE = rf"(?:{_SCALAR}|{_FLOW2})"
_TAIL = r" *(?: #[^\r\n]*)?"
_NL = r"\r?\n"
_KEY = r"[A-Za-z_][A-Za-z0-9_-]*"
_SKIPL = rf" *(?:#[^\r\n]*)?{_NL}"
_ITEMS = rf"(?P<i> *)- +{_SCALAR}{_TAIL}{_NL}(?:(?P=i)- +{_SCALAR}{_TAIL}{_NL}|{_SKIPL})*"
_CHILDREN = (
    rf"(?P<c> +){_KEY}: +{_VALUE}{_TAIL}{_NL}(?:(?P=c){_KEY}: +{_VALUE}{_TAIL}{_NL}|{_SKIPL})*"
)


@functools.cache
def _doc_pattern() -> re.Pattern[str]:
    """The whole-document shape; compiled on first use, since compiling it costs ~0.1 s."""
    return re.compile(
        rf"(?:{_SKIPL}|{_KEY}: +{_VALUE}{_TAIL}{_NL}|{_KEY}:{_TAIL}{_NL}(?:{_ITEMS}|{_CHILDREN})?)*"
    )


_FIELD = re.compile(rf"({_KEY}):(?: +({_SCALAR}))?{_TAIL}{_NL}")
_ITEM = re.compile(rf"( *)- +({_SCALAR}){_TAIL}{_NL}")
_SKIP_LINE = re.compile(_SKIPL)
_SCALAR_RE = re.compile(_SCALAR)
_CHILD_START = re.compile(rf"(?: *- | +{_KEY}:)")
_NULLS = ("null", "Null", "NULL")
FIELD_KEYS = ("kind", "title")  # the top-level scalars the index keeps


class Item(NamedTuple):
    raw: str
    start: int
    end: int


@dataclass
class Parsed:
    """What the event reader would find: scalar fields and the upstream key's layout."""

    fields: dict[str, str] = field(default_factory=dict)
    key_start: int = -1
    key_end: int = -1
    value_start: int = -1
    value_end: int = -1
    shape: str = ""
    items: list[Item] = field(default_factory=list)


def _unquote(text: str) -> str:
    return text[1:-1] if text[:1] in "\"'" else text.rstrip(" ")


def _line_start_of(text: str, head: str) -> int:
    """Offset of the one line starting with ``head``; -1 if none, -2 if more than one."""
    first = 0 if text.startswith(head) else text.find("\n" + head)
    if first < 0:
        return -1
    if first > 0 or not text.startswith(head):
        first += 1
    if text.find("\n" + head, first) >= 0:
        return -2
    return first


def _item(text: str, start: int) -> Item:
    stripped = text if text[:1] in "\"'" else text.rstrip(" ")
    return Item(_unquote(text), start, start + len(stripped))


def parse(src: str, base: int, key: str = "upstream") -> Parsed | None:
    """Parse ``src`` (frontmatter YAML starting at offset ``base``) or return ``None``."""
    text = src if not src or src.endswith("\n") else src + "\n"
    if _doc_pattern().fullmatch(text) is None:
        return None
    out = Parsed()
    for name in FIELD_KEYS:
        pos = _line_start_of(text, name + ":")
        if pos == -2:
            return None  # the key appears twice; the event reader decides
        if pos < 0:
            continue
        m = _FIELD.match(text, pos)
        if m is None:
            continue  # a flow list or a nested block: not a scalar field
        value = m.group(2)
        if value is None:
            if _CHILD_START.match(text, m.end()):
                continue
            value = ""
        out.fields[name] = _unquote(value)
    at = _line_start_of(text, key + ":")
    if at == -2:
        return None
    if at == -1:
        return out
    out.key_start, out.key_end = base + at, base + at + len(key)
    after = at + len(key) + 1
    line_end = text.index("\n", after)
    rest = text[after:line_end].rstrip("\r")
    value = rest.strip(" ")
    if value.startswith("#"):
        value = ""
    elif " #" in rest and not value.startswith(("[", '"', "'")):
        value = rest.split(" #", 1)[0].strip(" ")
    if value == "":
        if _CHILD_START.match(text, line_end + 1) and not _ITEM.match(text, line_end + 1):
            return None  # upstream as a mapping: the event reader says why it is unreadable
        _block(out, text, line_end + 1, base, after)
    elif value.startswith("["):
        return _flow(out, text, after + rest.index("["), base)
    else:
        vstart = after + rest.index(value[0])
        m = _SCALAR_RE.match(text, vstart)
        item = _item(m.group(0), base + vstart)
        out.value_start, out.value_end = item.start, item.end
        if value[:1] not in "\"'" and item.raw in _NULLS:
            out.shape = "null"
        else:
            out.shape = "scalar"
            out.items.append(item)
    return out


def _block(out: Parsed, text: str, pos: int, base: int, after: int) -> None:
    out.value_start = out.value_end = base + after
    indent = None
    while pos < len(text):
        m = _ITEM.match(text, pos)
        if m and (indent is None or m.group(1) == indent):
            indent = m.group(1)
            item = _item(m.group(2), base + m.start(2))
            if not out.items:
                out.value_start = base + m.start(1) + len(indent)
            out.items.append(item)
            out.value_end = item.end
            pos = m.end()
            continue
        if indent is not None and (s := _SKIP_LINE.match(text, pos)):
            pos = s.end()
            continue
        break
    out.shape = "block" if out.items else "null"


def _flow(out: Parsed, text: str, open_at: int, base: int) -> Parsed | None:
    pos = open_at + 1
    while True:
        while text[pos] == " ":
            pos += 1
        if text[pos] == "]":
            break
        if text[pos] == "[":
            return None  # nested lists are not paths; let the event reader report them
        m = _SCALAR_RE.match(text, pos)
        out.items.append(_item(m.group(0), base + pos))
        pos = m.end()
        while text[pos] == " ":
            pos += 1
        if text[pos] == ",":
            pos += 1
    out.shape = "flow"
    out.value_start, out.value_end = base + open_at, base + pos + 1
    return out
