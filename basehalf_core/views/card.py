"""What Card Detail shows for one node, as plain data (no UI): links, their state, the body.

- ``upstream``: every entry of the node's store, in order, each ``ok`` | ``dangling`` |
  ``invalid``; an unreadable store gives one ``unreadable`` item with the reason.
- ``downstream``: derived (nothing stores it).
- ``body``: the note's Markdown after its frontmatter, made safe to render with ``mo.md``: no
  raw HTML survives (``<`` outside code is written ``&lt;``) and links may only be http(s),
  mailto or relative. A note is data; nothing in it runs in the app.
- ``body_html``: the same text already rendered, as HTML that is safe to insert as it is
  (:func:`basehalf_core.views.markdown.render`: no raw markup, no script link, no image fetch).
- a dangling entry carries a relink ``suggestion``: the one file of the same name, when
  exactly one exists.
"""

from __future__ import annotations

import html
import re
from dataclasses import asdict, dataclass, field

from basehalf_core.folder.paths import is_markdown, nfc, posix_name
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.markdown import render as render_html


@dataclass(frozen=True)
class UpstreamItem:
    """One upstream entry as Card Detail lists it.

    Attributes:
        entry: the entry as written in the store ("" for an unreadable store).
        state: ``ok`` | ``dangling`` | ``invalid`` | ``unreadable``.
        path: the node it names, when ``ok``.
        reason: why it is not ``ok`` ("" when it is).
        suggestion: for a dangling entry, the unique file of the same name (else ``None``).
    """

    entry: str
    state: str
    path: str | None = None
    reason: str = ""
    suggestion: str | None = None


@dataclass(frozen=True)
class CardDetail:
    """Everything Card Detail shows for one node."""

    path: str
    kind: str
    title: str
    upstream: list[UpstreamItem] = field(default_factory=list)
    downstream: list[str] = field(default_factory=list)
    body: str = ""
    body_html: str = ""
    problem: str = ""

    def as_dict(self) -> dict:
        """JSON-ready form (for the CLI or a test)."""
        return asdict(self)


def card_detail(ws: Workspace, path: str) -> CardDetail:
    """Card Detail data for ``path``.

    Raises:
        UnknownNode: no node has that path.
    """
    node = ws.node(path)
    items: list[UpstreamItem] = []
    problem = node.store.unreadable
    if problem:
        items.append(UpstreamItem("", "unreadable", reason=problem))
    names = None
    for e in node.store.entries:
        if e.path is None:
            items.append(UpstreamItem(e.raw, "invalid", reason=e.reason))
            continue
        real = ws.resolve(e.path)
        if real is not None:
            items.append(UpstreamItem(e.raw, "ok", path=real))
            continue
        if names is None:
            names = _names(ws)
        items.append(
            UpstreamItem(
                e.raw,
                "dangling",
                reason="names no file in the folder",
                suggestion=_suggest(names, e.path, node.path),
            )
        )
    body = body_html = ""
    if is_markdown(node.path) and node.kind != "folder" and not node.outside_link:
        try:
            text = ws.body(node.path)
            body, body_html = safe_markdown(text), render_html(text)
        except OSError as exc:
            problem = problem or f"cannot be read ({exc.strerror})"
    return CardDetail(
        path=node.path,
        kind=node.kind,
        title=node.title,
        upstream=items,
        downstream=ws.downstream(node.path),
        body=body,
        body_html=body_html,
        problem=problem,
    )


def _names(ws: Workspace) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p, n in ws.nodes.items():
        if n.kind != "folder":
            out.setdefault(nfc(posix_name(p)), []).append(p)
    return out


def _suggest(names: dict[str, list[str]], entry: str, owner: str) -> str | None:
    found = [p for p in names.get(nfc(posix_name(entry)), []) if p != owner]
    return found[0] if len(found) == 1 else None


def relink_suggestion(ws: Workspace, entry: str, owner: str = "") -> str | None:
    """The unique file named like ``entry``'s last segment (not ``owner``), or ``None``."""
    return _suggest(_names(ws), entry, owner)


# --- making Markdown safe to render -------------------------------------------------------

_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)")
_SAFE_SCHEMES = ("http", "https", "mailto")
_URL_NOISE = re.compile(r"[\x00-\x20\x7f]")
# Inline link / image destinations: ](dest …)
_INLINE_DEST = re.compile(r"(\]\(\s*)((?:[^()\s]|\([^()\s]*\))*)")
# Reference definitions: [id]: dest
_REF_DEF = re.compile(r"^( {0,3}\[[^\]]+\]:[ \t]*)(\S+)")
BLOCKED_LINK = "#blocked-link"


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
    # Read the destination as a browser would: entities decoded, blanks and controls dropped.
    probe = _URL_NOISE.sub("", html.unescape(html.unescape(dest)))
    if ":" in probe:
        head = probe.split(":", 1)[0]
        if not any(c in head for c in "/?#") and head.lower() not in _SAFE_SCHEMES:
            return BLOCKED_LINK
    return dest


def _escape_line(line: str) -> str:
    line = _REF_DEF.sub(lambda m: m.group(1) + _safe_dest(m.group(2)), line)
    out = []
    pos = 0
    for m in _CODE_SPAN.finditer(line):
        out.append(_escape_prose(line[pos : m.start()]))
        out.append(m.group(0))  # Markdown escapes code itself; it is shown as written
        pos = m.end()
    out.append(_escape_prose(line[pos:]))
    return "".join(out)


def _escape_prose(text: str) -> str:
    text = text.replace("<", "&lt;")
    return _INLINE_DEST.sub(lambda m: m.group(1) + _safe_dest(m.group(2)), text)


def safe_markdown(text: str) -> str:
    """Markdown with no raw HTML and no script links; code blocks and spans stay as written.

    Args:
        text: Markdown from a note (any content, including HTML and script).

    Returns:
        Markdown that renders the same text, with every tag shown as characters.
    """
    lines = text.splitlines(keepends=True)
    fenced = _fences(lines)
    return "".join(
        line if code else _escape_line(line) for line, code in zip(lines, fenced, strict=True)
    )
