"""THE frontmatter/body reader for Markdown notes, and the one bounded YAML loader.

Every reader — the index (:mod:`~basehalf_core.folder.upstream`), Card Detail and export
(:meth:`Workspace.frontmatter` / :meth:`Workspace.body`), practice cards and the grader's
context — splits a note here, so they all see the same frontmatter and the same body.

The rules (DESIGN §2), one answer each:

- The opening fence is ``---`` at the very start (after a BOM), alone on its line.
- The closing fence is a line that is exactly ``---`` or ``...`` (trailing blanks allowed) at
  column 0; an indented ``  ---`` is YAML content, not a fence.
- The closing fence must start within the first 64 KiB (bytes, UTF-8). A note that opens with
  ``---`` and closes later than that has *oversized* frontmatter: no frontmatter for readers,
  an issue in the index, and every write refused (a second block would be stacked on top).
- ``+++`` (TOML) or a lone ``{`` first line (JSON, as Hugo writes it) is frontmatter basehalf
  does not read: no frontmatter for readers, writes refused.
- CR-only line ends (classic Mac) are refused for writes: line-based edits cannot be made
  safely, and the block would never be found again.

YAML is loaded only through :func:`load_yaml`: safe types, at most :data:`MAX_DEPTH` levels of
nesting and :data:`MAX_NODES` nodes once aliases are expanded, so a 600-byte alias bomb or a
5,000-deep nest is a clear error instead of gigabytes of memory or a ``RecursionError``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import yaml

from basehalf_core.errors import BasehalfError

try:  # libyaml is ten times faster; the pure-Python parser gives the same events.
    Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - wheels ship libyaml
    Loader = yaml.SafeLoader

FENCE_LIMIT = 64 * 1024
MAX_DEPTH = 64
MAX_NODES = 100_000

_OPEN = re.compile(r"---[ \t]*(\r\n|\n|\r)")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*\r?$", re.M)
_JSON_OPEN = re.compile(r"\{[ \t]*\r?\n")
_NEWLINE = re.compile(r"\r\n|\n|\r")


class YamlRefused(BasehalfError, ValueError):
    """YAML that basehalf will not load; ``reason`` says why in words."""


@dataclass(frozen=True)
class Layout:
    """Where the frontmatter sits in a note's text (BOM already dropped).

    Attributes:
        yaml_start, yaml_end: the YAML between the fences (``-1`` when there is none).
        body_start: where the body begins (0 when there is no frontmatter).
        problem: why the frontmatter cannot be used ("" when fine or absent); a store with a
            problem has no edges and refuses writes.
    """

    yaml_start: int = -1
    yaml_end: int = -1
    body_start: int = 0
    problem: str = ""


def newline_of(text: str) -> str:
    """The note's first line break (``\\n`` when there is none)."""
    m = _NEWLINE.search(text, 0, 4096)
    return m.group(0) if m else "\n"


def line_end(text: str, i: int) -> int:
    """Index just past the line break of the line holding ``i``."""
    m = _NEWLINE.search(text, i)
    return m.end() if m else len(text)


def locate(text: str) -> Layout:
    """Find the frontmatter of ``text`` (a note's decoded text, BOM dropped)."""
    if text.startswith("+++"):
        return Layout(
            problem="TOML (+++) frontmatter; basehalf reads upstream from YAML (---) only"
        )
    if _JSON_OPEN.match(text):
        return Layout(
            problem="JSON ({ … }) frontmatter; basehalf reads upstream from YAML (---) only"
        )
    fence = _OPEN.match(text)
    if not fence:
        return Layout()
    if fence.group(1) == "\r":
        return Layout(
            problem="CR-only line ends (classic Mac); convert the note to LF or CRLF to edit it"
        )
    close = _CLOSE.search(text, fence.end(), min(len(text), FENCE_LIMIT))
    # Under 16 K characters is under 64 KiB whatever the script: only a long block is measured.
    if (
        close
        and close.start() > FENCE_LIMIT // 4
        and len(text[: close.start()].encode("utf-8", "surrogatepass")) > FENCE_LIMIT
    ):
        close = None  # within 64 K characters but not within 64 KiB of bytes
    if close is None:
        far = _CLOSE.search(text, fence.end())
        if far is None:
            return Layout()  # '---' with no closing fence at all: a rule, not frontmatter
        return Layout(
            problem=f"frontmatter runs past {FENCE_LIMIT // 1024} KiB (closing fence at "
            f"line {text.count(chr(10), 0, far.start()) + 1}); too big to read or edit safely"
        )
    return Layout(fence.end(), close.start(), line_end(text, close.start()))


def decode(data: bytes) -> tuple[str, bool]:
    """Bytes → (text without BOM, whether a BOM was there). Raises ``UnicodeDecodeError``."""
    bom = data.startswith(b"\xef\xbb\xbf")
    text = data.decode("utf-8")
    return (text[1:] if bom else text), bom


def split_body(data: bytes) -> tuple[bytes | None, str]:
    """A note's bytes → (head bytes: BOM + frontmatter with its fences, body text).

    The head is cut where :func:`locate` puts the body's start — the same reader the index
    and Card Detail use — so the body shown in the editor and the body saved agree.
    Frontmatter basehalf cannot use (TOML, JSON, oversized, CR-only) has no head: the whole
    text is the body, as every reader sees it. ``None`` as the head means the bytes are not
    UTF-8.
    """
    try:
        text, bom = decode(data)
    except UnicodeDecodeError:
        return None, ""
    cut = locate(text).body_start
    return (b"\xef\xbb\xbf" if bom else b"") + text[:cut].encode("utf-8"), text[cut:]


def cut_utf8(data: bytes) -> bytes:
    """``data`` without a multi-byte character cut in half at its end (a read window's edge)."""
    end = len(data)
    i = end - 1
    while i >= 0 and end - i <= 4 and (data[i] & 0xC0) == 0x80:
        i -= 1
    if i < 0 or end - i > 4:
        return data
    lead = data[i]
    need = 1 if lead < 0x80 else 2 if lead >> 5 == 0b110 else 3 if lead >> 4 == 0b1110 else 4
    return data if end - i >= need else data[:i]


def split_frontmatter(text: str) -> tuple[dict, str]:
    """A note's (frontmatter mapping, body). No, unusable or bad frontmatter gives ``{}``.

    The body is everything after the closing fence's line; without usable frontmatter it is
    the whole text (BOM dropped).
    """
    text = text.removeprefix("\ufeff")
    layout = locate(text)
    if layout.yaml_start < 0:
        return {}, text
    try:
        data = load_yaml(text[layout.yaml_start : layout.yaml_end])
    except (YamlRefused, yaml.YAMLError):
        data = {}
    return (data if isinstance(data, dict) else {}), text[layout.body_start :]


def check_events(events: list) -> str:
    """Why a YAML event stream is too deep or expands too far ("" when it is fine).

    Counts each node once per place it appears, aliases included, so an alias bomb is
    caught from its few hundred events without expanding anything.
    """
    sizes: dict[str, int] = {}
    stack: list[list] = [[0, None]]  # [node count so far, anchor] per open collection
    for e in events:
        if isinstance(e, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            stack.append([1, e.anchor])
            if len(stack) - 1 > MAX_DEPTH:
                return f"YAML nests deeper than {MAX_DEPTH} levels"
            continue
        if isinstance(e, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            count, anchor = stack.pop()
            if anchor:
                sizes[anchor] = count
        elif isinstance(e, yaml.ScalarEvent):
            count = 1
            if e.anchor:
                sizes[e.anchor] = 1
        elif isinstance(e, yaml.AliasEvent):
            count = sizes.get(e.anchor, 1)
        else:
            continue
        stack[-1][0] += count
        if stack[-1][0] > MAX_NODES:
            return f"YAML aliases expand to over {MAX_NODES:,} values (an alias bomb?)"
    return ""


def load_yaml(src: str) -> object:
    """Load YAML safely, bounded in depth and alias expansion.

    Raises:
        YamlRefused: too deep, or aliases expanding past :data:`MAX_NODES`.
        yaml.YAMLError: malformed YAML.
    """
    problem = check_events(list(yaml.parse(src, Loader=Loader)))
    if problem:
        raise YamlRefused(problem)
    return yaml.load(src, Loader=Loader)
