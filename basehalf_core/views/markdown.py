"""Markdown to HTML that no note can turn into script.

Raw HTML in a note is shown as text (Python-Markdown's HTML passes are removed), link targets
are kept only for relative paths, ``#anchors``, ``http(s):`` and ``mailto:`` (checked after
entity decoding, so ``&#106;avascript:`` does not slip through), and images become their alt
text: an offline page must not fetch anything, and a note's image could be a tracking pixel.
"""

from __future__ import annotations

import html
import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator

import markdown
from markdown.treeprocessors import Treeprocessor

_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
# Browsers drop these anywhere in a URL before reading the scheme ("java\tscript:").
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")


def safe_href(url: str) -> str | None:
    """The link target if it is harmless, else ``None``."""
    plain = _IGNORED_IN_URL.sub("", html.unescape(html.unescape(url)))
    m = _SCHEME.match(plain)
    if m is None:
        return url if not plain.startswith("//") else None
    return url if m.group(1).lower() in _SAFE_SCHEMES else None


class _Sanitise(Treeprocessor):
    def __init__(self, md: markdown.Markdown, shift: int):
        super().__init__(md)
        self.shift = shift

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag == "img":
                    alt = el.get("alt") or "image"
                    span = ET.Element("span", {"class": "bh-image"})
                    span.text = f"[image: {alt}]"
                    span.tail = el.tail
                    parent[i] = span
                    continue
                if el.tag == "a":
                    href = safe_href(el.get("href", ""))
                    for attr in list(el.attrib):
                        if attr not in ("href", "title"):
                            del el.attrib[attr]
                    if href is None:
                        el.attrib.pop("href", None)
                        el.set("class", "bh-unsafe-link")
                if re.fullmatch(r"h[1-6]", el.tag) and self.shift:
                    el.tag = f"h{min(6, int(el.tag[1]) + self.shift)}"


def _converter(shift: int) -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "fenced_code"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_Sanitise(md, shift), "bh-sanitise", 0)
    return md


# Building a converter costs more than converting a note; keep one per heading shift and
# thread (a Markdown instance holds per-document state, so threads must not share one).
_local = threading.local()


def render(text: str, *, heading_shift: int = 0) -> str:
    """Render Markdown safely.

    Args:
        text: Markdown source from a note (untrusted).
        heading_shift: levels to add to every heading (a note's ``#`` inside a page section).

    Returns:
        HTML with no raw markup from ``text``, no script-capable link and no image fetch.
    """
    cache = _local.__dict__.setdefault("converters", {})
    md = cache.get(heading_shift)
    if md is None:
        md = cache[heading_shift] = _converter(heading_shift)
    try:
        return md.convert(text)
    finally:
        md.reset()


_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)")
# Inline link / image destinations: ](dest …)
_INLINE_DEST = re.compile(r"(\]\(\s*)((?:[^()\s]|\([^()\s]*\))*)")
# Reference definitions: [id]: dest
_REF_DEF = re.compile(r"^( {0,3}\[[^\]]+\]:[ \t]*)(\S+)")
BLOCKED_LINK = "#blocked-link"


# A destination left open at the end of a line, and the one that continues it.
_DEST_OPEN_AT_END = re.compile(r"\]\(\s*$")
_LEADING_DEST = re.compile(r"^(\s*)((?:[^()\s]|\([^()\s]*\))*)")


def _fences(lines: list[str]) -> list[bool]:
    """Which lines sit inside a closed fenced code block (fence lines included)."""
    inside = [False] * len(lines)
    i = 0
    while i < len(lines):
        m = _FENCE_OPEN.match(lines[i].rstrip("\r\n"))
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            char, length = m.group(2)[0], len(m.group(2))
            close = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{length},}}[ \t]*$")
            for j in range(i + 1, len(lines)):
                if close.match(lines[j].rstrip("\r\n")):
                    for k in range(i, j + 1):
                        inside[k] = True
                    i = j
                    break
            # An unclosed fence is not code: its lines are escaped like any other.
        i += 1
    return inside


def _safe_dest(dest: str) -> str:
    # The same rule as the HTML renderer's links: one answer to "may this link be followed".
    return dest if not dest or safe_href(dest) is not None else BLOCKED_LINK


def _escape_line(line: str, images: bool = True) -> str:
    line = _REF_DEF.sub(lambda m: m.group(1) + _safe_dest(m.group(2)), line)
    out = []
    pos = 0
    for m in _CODE_SPAN.finditer(line):
        out.append(_escape_prose(line[pos : m.start()], images))
        out.append(m.group(0))  # Markdown escapes code itself; it is shown as written
        pos = m.end()
    out.append(_escape_prose(line[pos:], images))
    return "".join(out)


# An image's "!" after an even run of backslashes (an odd one escapes it already): "\!"
# leaves a plain link, which fetches nothing.
_IMAGE_BANG = re.compile(r"(?<!\\)((?:\\\\)*)!(?=\[)")


def _escape_prose(text: str, images: bool = True) -> str:
    text = text.replace("<", "&lt;")
    if not images:
        text = _IMAGE_BANG.sub(r"\1\\!", text)
    return _INLINE_DEST.sub(lambda m: m.group(1) + _safe_dest(m.group(2)), text)


def escape(text: str) -> str:
    """Markdown with no raw HTML and no script links, for another renderer (``mo.md``, Obsidian).

    Code blocks and spans stay as written. A link destination is kept only when
    :func:`safe_href` keeps it, so this and :func:`render` agree on every link.

    Args:
        text: Markdown from a note (any content, including HTML and script).

    Returns:
        Markdown that renders the same text, with every tag shown as characters.
    """
    lines = text.splitlines(keepends=True)
    fenced = _fences(lines)
    out, dest_opens = [], False
    for line, code in zip(lines, fenced, strict=True):
        if code:
            out.append(line)
            dest_opens = False
            continue
        if dest_opens:
            # ``[x](`` at a line end: the destination is the next line's first word.
            line = _LEADING_DEST.sub(lambda m: m.group(1) + _safe_dest(m.group(2)), line, 1)
        escaped = _escape_line(line)
        out.append(escaped)
        dest_opens = _DEST_OPEN_AT_END.search(escaped) is not None
    return "".join(out)


def escape_stream(deltas: Iterable[str]) -> Iterator[str]:
    """:func:`escape` for Markdown that arrives in pieces (a model's answer in a chat), and
    with images made plain links: a browser fetches an image as soon as it is drawn, so a
    note that talks a model into writing ``![](https://…?your-answers)`` would leak them.

    A line after an opening fence is code as it arrives (as in CommonMark, where a fence left
    open runs to the end), and a fence still open at the end is closed. A line is passed on
    when it is complete; before that, only the part up to its last space, and only while
    nothing in it (a backtick, ``](``, a fence or link definition about to start) could
    change how it reads.

    Args:
        deltas: the text, piece by piece.

    Yields:
        The escaped text, piece by piece (joined, the escape of the whole).
    """
    fence: re.Pattern[str] | None = None
    opened = ""  # the fence that opened the code being read, to close it at the end
    dest_opens = False
    pending = ""  # the current line's text not yet passed on
    started = False  # part of the current line has been passed on already

    def line_out(line: str) -> str:
        nonlocal fence, opened, dest_opens, started
        whole = not started
        started = False
        bare = line.rstrip("\r\n")
        if fence is not None:
            if fence.match(bare):
                fence = None
            return line
        m = _FENCE_OPEN.match(bare) if whole else None
        if m and not (m.group(2)[0] == "`" and "`" in m.group(3)):
            char, length = m.group(2)[0], len(m.group(2))
            fence = re.compile(rf"^ {{0,3}}{re.escape(char)}{{{length},}}[ \t]*$")
            opened = char * length + "\n"
            dest_opens = False
            return line
        if dest_opens and whole:
            line = _LEADING_DEST.sub(lambda d: d.group(1) + _safe_dest(d.group(2)), line, 1)
        escaped = _escape_line(line, images=False)
        dest_opens = _DEST_OPEN_AT_END.search(escaped) is not None
        return escaped

    for delta in deltas:
        pending += delta
        out = []
        while "\n" in pending:
            line, pending = pending.split("\n", 1)
            out.append(line_out(line + "\n"))
        # Part of an unfinished line: prose only, cut at a space so no construct is split.
        head, space, _ = pending.rpartition(" ")
        if (
            space
            and fence is None
            and not (dest_opens and not started)
            and not _MAY_CHANGE.search(pending)
            and (started or not _MAY_OPEN_LINE.match(pending))
        ):
            out.append(_escape_prose(head + space, images=False))
            pending = pending[len(head) + 1 :]
            started = True
        if out:
            yield "".join(out)
    tail = line_out(pending) if pending else ""
    if fence is not None:
        # Closed here, so no renderer reads what followed the open fence as anything but code.
        tail += ("" if not tail or tail.endswith("\n") else "\n") + opened
    if tail:
        yield tail


# In an unfinished line, what could still turn into a code span or a link destination.
_MAY_CHANGE = re.compile(r"`|\]\s*\(|\]\s*$|!\s*$")
# A line start that could still open a fence or a link reference definition.
_MAY_OPEN_LINE = re.compile(r"^ {0,3}[`~\[]|^\s*$")
