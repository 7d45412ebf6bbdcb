"""What the note editor needs, as plain data: a note opened for editing, its title, templates.

The editor shows a note's *body* (everything after the frontmatter); the frontmatter is never
typed by hand, so it is kept as the exact bytes read and written back untouched by
:func:`basehalf_core.folder.operations.save_body`. The title is the body's first ``# `` heading.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from basehalf_core.folder.fsio import ChangedOnDisk, WriteRefused, inside, read_bytes
from basehalf_core.folder.notes import split_body
from basehalf_core.folder.operations import OperationRefused, create_note, save_body
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.markdown import render as render_markdown

MAX_EDIT_BYTES = 2 * 1024 * 1024
# Above this many characters the preview is re-rendered on Save, not while typing: rendering
# 100 KiB of Markdown takes the kernel most of a second (bench/startup.py).
PREVIEW_LIVE_LIMIT = 32 * 1024
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
    try:
        data = read_bytes(inside(ws.root, path)) or b""
    except WriteRefused as exc:
        # Swapped for a FIFO, a folder or a link out since the folder was last looked at.
        return OpenedNote(path, b"", "", f"{path}: {exc.reason}")
    except OSError as exc:
        return OpenedNote(path, b"", "", f"{path}: cannot be read ({exc.strerror or exc})")
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


@dataclass
class Draft:
    """The editor's text for one note and the bytes it was opened from.

    Attributes:
        path: the note.
        base: the file's bytes when opened (compare-and-swap base).
        saved_body: the body as on disk at ``base``.
        text: the body as the learner has it now.
        title: the title field ("" = leave the heading as the text has it).
        readonly: why it cannot be saved ("" when it can).
        seen: the file's bytes as the last conflict showed them ("On disk now"): what "Keep
            mine" may write over, and nothing newer.
    """

    path: str
    base: bytes
    saved_body: str
    text: str
    title: str
    readonly: str = ""
    seen: bytes | None = None

    @property
    def body(self) -> str:
        """What Save writes: the text with the title field applied to its first heading."""
        return with_title(self.text, self.title)

    @property
    def dirty(self) -> bool:
        """Whether there are edits not on disk."""
        return not self.readonly and self.body != self.saved_body


@dataclass(frozen=True)
class SaveResult:
    """What a Save did: ``saved`` or not, a message, and both texts when there is a conflict."""

    saved: bool
    message: str
    theirs: str | None = None
    new_path: str = ""


class Drafts:
    """Unsaved edits per note, so switching cards or a grow elsewhere never loses them."""

    def __init__(self) -> None:
        self._drafts: dict[str, Draft] = {}

    def open(self, ws: Workspace, path: str) -> Draft:
        """The draft of ``path``: the unsaved one if any, else the note as on disk now."""
        kept = self._drafts.get(path)
        if kept is not None and kept.dirty:
            return kept
        opened = open_note(ws, path)
        draft = Draft(path, opened.data, opened.body, opened.body, "", opened.readonly)
        self._drafts[path] = draft
        return draft

    def edit(self, path: str, text: str | None = None, title: str | None = None) -> Draft | None:
        """Record the learner's text and/or title for ``path`` (ignored if it is not open)."""
        draft = self._drafts.get(path)
        if draft is None or draft.readonly:
            return draft
        if text is not None:
            draft.text = text
        if title is not None:
            draft.title = title
        return draft

    def unsaved(self) -> list[str]:
        """Paths with edits not on disk."""
        return sorted(p for p, d in self._drafts.items() if d.dirty)

    def save(self, ws: Workspace, path: str, *, force: bool = False) -> SaveResult:
        """Save ``path``'s draft through :func:`operations.save_body`.

        Args:
            ws: the workspace.
            path: the note.
            force: "keep mine": write over the version the last conflict showed the learner
                (never over one that landed since: that is a new conflict).
        """
        draft = self._drafts.get(path)
        if draft is None:
            return SaveResult(False, f"{path} is not open in the editor")
        if draft.readonly:
            return SaveResult(False, draft.readonly)
        base = draft.seen if force and draft.seen is not None else draft.base
        try:
            data = save_body(ws, path, draft.body, base)
        except ChangedOnDisk:
            # What the learner is shown is exactly what Keep mine may replace.
            draft.seen = read_bytes(inside(ws.root, path)) or b""
            return SaveResult(
                False, f"{path} changed on disk since you opened it", _theirs(draft.seen)
            )
        except (OperationRefused, WriteRefused) as exc:
            return SaveResult(False, f"Not saved: {exc}")
        body = split_body(data)[1]
        self._drafts[path] = Draft(path, data, body, body, "")
        return SaveResult(True, f"Saved {path}")

    def take_theirs(self, ws: Workspace, path: str) -> Draft:
        """Drop the draft and reopen the note as it is on disk."""
        self._drafts.pop(path, None)
        return self.open(ws, path)

    def copy_mine(self, ws: Workspace, path: str) -> SaveResult:
        """Write the draft to a new file beside the note (create-only), then take theirs."""
        draft = self._drafts.get(path)
        if draft is None:
            return SaveResult(False, f"{path} is not open in the editor")
        head, _ = split_body(read_bytes(inside(ws.root, path)) or draft.base)
        stem = path[: path.rfind(".")] if "." in path.rsplit("/", 1)[-1] else path
        text = (head or b"").decode("utf-8-sig") + draft.body
        try:
            new = create_note(ws, f"{stem}-mine.md", text)
        except (OperationRefused, WriteRefused) as exc:
            return SaveResult(False, f"Not copied: {exc}")
        self.take_theirs(ws, path)
        return SaveResult(True, f"Your version is in {new}", new_path=new)


def _theirs(data: bytes) -> str:
    return (
        split_body(data)[1] if split_body(data)[0] is not None else data.decode("utf-8", "replace")
    )


class EditorController:
    """Answers an editor view's requests: the note editor widget, or any object with its
    attributes ``path``, ``dirty``, ``status``, ``conflict``, ``preview`` and
    ``show(draft, kind, heading, status, fresh=True)`` (``fresh``: opened, so the browser may
    bring back text it kept through a reload; False after a save or a conflict's choice, when
    nothing typed before is pending any more). Plain attribute access: no UI library here.

    What the learner typed arrives as one payload (:meth:`on_typed`): the note it was typed
    into, the text, the title box, and whether Save was asked for. One payload, because the
    separate values of one browser update reach Python in any order.

    Args:
        view: the editor view.
        ws: the workspace.
        after_write: called after anything was written (the app bumps its revision).
        open_card: opens a card in the app (the copy of words whose note went away).
    """

    def __init__(self, view, ws: Workspace, after_write, open_card=None) -> None:
        self.view, self.ws, self.after_write = view, ws, after_write
        self.open_card = open_card
        self.drafts = Drafts()
        self._shown: bytes | None = None  # the bytes the view's text was loaded from
        self._shown_title = ""
        self._previewed: str | None = None

    def open(self, path: str) -> None:
        """Show ``path`` (its unsaved draft if any); reload it when it changed on disk."""
        draft = self.drafts.open(self.ws, path)
        if path == self.view.path and (draft.dirty or draft.base == self._shown):
            if draft.dirty and self._gone(path) and not self.view.conflict:
                self._orphaned(draft)
            return  # same note, nothing new on disk: leave the learner's text alone
        self._show(draft)
        if draft.dirty and self._gone(path):
            self._orphaned(draft)

    def _gone(self, path: str) -> bool:
        try:
            return path not in self.ws.nodes or read_bytes(inside(self.ws.root, path)) is None
        except (OSError, WriteRefused):
            return False  # there, but not a note any more: Save says why

    def _orphaned(self, draft: Draft) -> None:
        # The note was renamed or deleted outside the app under unsaved words: they stay on
        # screen, with the one way to keep them (a new file), never silently dropped.
        self.view.conflict = {**conflict(draft.body, ""), "gone": True}
        self.view.status = (
            f"{draft.path} is no longer in the folder (renamed or deleted outside the app). "
            "Your unsaved words are kept here: copy them to a new file."
        )

    def _show(self, draft: Draft, status: str = "", *, fresh: bool = True) -> None:
        node = self.ws.nodes.get(draft.path)
        kind = node.kind if node is not None else "note"
        self._shown = draft.base
        self._shown_title = draft.title or title_of(draft.text)
        self.view.show(draft, kind, self._shown_title, status, fresh=fresh)
        self._preview(draft.body)

    def on_typed(self, change) -> None:
        """The browser sent ``{"path", "text", "title", "save"}``: keep it, maybe save.

        ``restored`` (the body the text was typed on) marks text the browser kept through a
        reload or a folder switch: it is a draft again, and if the note changed on disk since,
        the learner sees both versions and chooses, as after a Save.
        """
        typed = change.get("new") if isinstance(change, dict) else None
        if not typed or not typed.get("path"):
            return
        owner, text = typed["path"], typed.get("text", "")
        if owner != self.view.path:
            # Typed into the previous note just before the switch reached the browser: the
            # words belong to that note's draft, not to the one shown now.
            self.drafts.edit(owner, text)
            if typed.get("save"):
                self.view.status = f"Not saved: {owner} is no longer open; open it to save."
            return
        # The title box still showing the heading it was loaded with means "leave the
        # heading to the text"; only a title the learner changed rewrites it.
        title = typed.get("title", "")
        draft = self.drafts.edit(owner, text, "" if title == self._shown_title else title)
        restored = typed.get("restored")
        if isinstance(restored, str) and draft is not None and not draft.readonly:
            self._restored(draft, restored)
        if typed.get("save"):
            self.save()  # first: the preview can wait, the learner's words cannot
        elif draft is not None:
            self.view.dirty = draft.dirty
            if len(draft.body) <= PREVIEW_LIVE_LIMIT:
                self._preview(draft.body)  # a long note's preview follows its Saves only

    def _restored(self, draft: Draft, typed_on: str) -> None:
        if typed_on == draft.saved_body:
            self.view.status = "Your unsaved text from before the reload is back (not saved yet)."
            return
        # Typed on an older version: Keep mine may replace only the version shown here.
        draft.seen = draft.base
        self.view.conflict = conflict(draft.body, draft.saved_body)
        self.view.status = (
            f"{draft.path} changed on disk since you typed your unsaved text: choose below."
        )

    def _preview(self, body: str) -> None:
        # Rendering a long note costs more than saving it: only when the text changed.
        if body != self._previewed:
            self._previewed = body
            self.view.preview = preview_html(body)

    def save(self, *, force: bool = False) -> SaveResult:
        """Save the open note's draft (``force``: "keep mine" after a conflict)."""
        path = self.view.path
        draft = self.drafts.open(self.ws, path)
        if draft.dirty and self._gone(path):
            self._orphaned(draft)
            return SaveResult(False, self.view.status)
        result = self.drafts.save(self.ws, path, force=force)
        if result.theirs is not None:
            mine = self.drafts.open(self.ws, path).body
            self.view.conflict = conflict(mine, result.theirs)
            self.view.status = result.message
        elif result.saved:
            self._show(self.drafts.open(self.ws, path), result.message, fresh=False)
            self.after_write()
        else:
            self.view.status = result.message
        return result

    def link_target(self, href: str) -> tuple[str | None, int | None]:
        """Where a link clicked in the open note's preview points (see :func:`link_target`)."""
        return link_target(self.ws, self.view.path, href)

    def on_resolve(self, change) -> None:
        """The learner's choice after a conflict: keep mine, take theirs, copy mine."""
        choice = (change.get("new") or {}).get("choice")
        path = self.view.path
        if choice == "keep":
            self.save(force=True)
        elif choice == "take":
            took = self.drafts.take_theirs(self.ws, path)
            self._show(took, "Took the version on disk", fresh=False)
        elif choice == "copy":
            gone = self._gone(path)
            result = self.drafts.copy_mine(self.ws, path)
            self._show(self.drafts.open(self.ws, path), result.message, fresh=not result.saved)
            if result.saved:
                self.after_write()
                if gone and self.open_card is not None:
                    self.open_card(result.new_path)  # the note itself is no more: its copy


def conflict(mine: str, theirs: str) -> dict:
    """What a conflict shows: both bodies and, for each, the numbers (0-based) of the lines
    the other lacks, so the learner sees where they differ, not two boxes that start alike."""
    a, b = mine.splitlines(), theirs.splitlines()
    mine_changed: list[int] = []
    theirs_changed: list[int] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op != "equal":
            mine_changed += range(i1, i2)
            theirs_changed += range(j1, j2)
    return {
        "mine": mine,
        "theirs": theirs,
        "mine_changed": mine_changed,
        "theirs_changed": theirs_changed,
    }


def preview_html(body: str) -> str:
    """The editor's rendered preview: the one sanitiser's HTML."""
    return render_markdown(body)


def link_target(ws: Workspace, note: str, href: str) -> tuple[str | None, int | None]:
    """Where a relative link in ``note`` points: (folder path or ``None``, 1-based page).

    ``attention.pdf#page=4`` written in ``notes/a.md`` names ``notes/attention.pdf`` at page 4,
    the way the Source line of a grown note is written.
    """
    from posixpath import dirname, normpath
    from urllib.parse import unquote

    target, _, fragment = href.partition("#")
    page = None
    m = re.fullmatch(r"page=(\d+)", fragment)
    if m:
        page = int(m.group(1))
    if not target:
        return note, page
    joined = normpath(f"{dirname(note)}/{unquote(target)}" if dirname(note) else unquote(target))
    return ws.resolve(joined), page
