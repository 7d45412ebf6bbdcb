"""What the note editor needs, as plain data: a note opened for editing, its title, templates.

The editor shows a note's *body* (everything after the frontmatter); the frontmatter is never
typed by hand, so it is kept as the exact bytes read and written back untouched by
:func:`basehalf_core.folder.operations.save_body`. The title is the body's first ``# `` heading.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from basehalf_core.folder.fsio import inside, read_bytes
from basehalf_core.folder.operations import split_body
from basehalf_core.folder.workspace import Workspace

MAX_EDIT_BYTES = 2 * 1024 * 1024
_HEADING = re.compile(r"^# +(.*?)[ \t#]*$", re.M)

PRACTICE_TEMPLATE = """\
1. First question?
   Answer: your answer in one sentence.
2. Second question?
   Answer:
3. Third question?
   Answer:
4. Fourth question?
   Answer:
"""
PRACTICE_HELP = (
    "A practice card: `kind: practice` in the frontmatter (set for you), then numbered "
    "questions, each followed by an indented `Answer:` line. Grading refers to the numbers."
)


@dataclass(frozen=True)
class OpenedNote:
    """A note as the editor opened it.

    Attributes:
        path: folder-relative path.
        data: the file's bytes when opened (the compare-and-swap base for Save).
        body: the editable text after the frontmatter ("" when read-only).
        readonly: why the note cannot be edited here ("" when it can).
    """

    path: str
    data: bytes
    body: str
    readonly: str = ""


def open_note(ws: Workspace, path: str) -> OpenedNote:
    """Read ``path`` for the editor; a note too big or not UTF-8 opens read-only with a reason."""
    data = read_bytes(inside(ws.root, path)) or b""
    if len(data) > MAX_EDIT_BYTES:
        size = len(data) / (1024 * 1024)
        reason = f"{path} is {size:.1f} MB; notes over 2 MB open read-only"
        return OpenedNote(path, data, data[:4096].decode("utf-8", "replace"), reason)
    head, body = split_body(data)
    if head is None:
        shown = data.decode("utf-8", "replace")
        return OpenedNote(path, data, shown, f"{path} is not UTF-8 text; opened read-only")
    return OpenedNote(path, data, body)


def title_of(body: str) -> str:
    """The body's first ``# `` heading ("" when it has none)."""
    m = _HEADING.search(body)
    return m.group(1).strip() if m else ""


def with_title(body: str, title: str) -> str:
    """``body`` with its first ``# `` heading set to ``title`` (added at the top if absent)."""
    title = " ".join(title.split())
    if not title or title == title_of(body):
        return body
    m = _HEADING.search(body)
    if m is None:
        lead = body.lstrip("\r\n")
        return f"# {title}\n\n{lead}" if lead else f"# {title}\n"
    return body[: m.start()] + f"# {title}" + body[m.end() :]

