"""Undo for the app's last card-making or renaming step: a mistaken Grow branch, New note or
rename is taken back without leaving the app.

Only what the app itself did is taken back, and only safely: a note it made is removed only
while it still holds exactly the bytes written (own words saved into it since are never
deleted, nor words still unsaved in the editor), and a rename is undone by renaming back
through :func:`multifile.move`, which rewrites the entries again and refuses a name taken
since. Plain data and the one write path: no UI library here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from basehalf_core.folder import multifile
from basehalf_core.folder.fsio import WriteRefused, inside, read_bytes
from basehalf_core.folder.operations import OperationRefused
from basehalf_core.folder.workspace import Workspace


@dataclass(frozen=True)
class Step:
    """One step the app took.

    Attributes:
        what: "made" (a note created by Grow branch, New note or New practice card) or
            "renamed".
        path: the note made, or the new name.
        old: the old name (renamed only).
        data: the bytes written (made only): the note is removed only while it holds them.
        back: the card to open after the undo (the document grown from, the old name).
    """

    what: str
    path: str
    old: str = ""
    data: bytes = b""
    back: str = ""


@dataclass(frozen=True)
class Outcome:
    """What an undo did: ``done`` or not, the sentence for the status line, the card to open."""

    done: bool
    message: str
    open: str = ""


class UndoLog:
    """The last undoable step per folder, for one app session.

    ``unsaved`` (set by the app to the note editor's list of notes with unsaved words) keeps an
    undo from removing a note the learner is still typing into.
    """

    def __init__(self) -> None:
        self._step: Step | None = None
        self._root: str = ""
        self.unsaved: Callable[[], list[str]] = list

    def made(self, ws: Workspace, path: str, back: str = "") -> None:
        """Remember that the app created ``path`` (its bytes as written now)."""
        try:
            data = read_bytes(inside(ws.root, path))
        except (OSError, WriteRefused):
            data = None
        self._remember(ws, None if data is None else Step("made", path, data=data, back=back))

    def renamed(self, ws: Workspace, old: str, new: str) -> None:
        """Remember that the app renamed ``old`` to ``new``."""
        self._remember(ws, Step("renamed", new, old=old, back=old))

    def _remember(self, ws: Workspace, step: Step | None) -> None:
        self._step, self._root = step, str(ws.root)

    def last(self, ws: Workspace | None) -> Step | None:
        """The step an undo would take back in ``ws`` (None: nothing, or another folder)."""
        if ws is None or self._step is None or self._root != str(ws.root):
            return None
        return self._step

    def label(self, ws: Workspace | None) -> str:
        """The Undo button's words ("" when there is nothing to undo)."""
        step = self.last(ws)
        if step is None:
            return ""
        if step.what == "made":
            return f"Undo: remove {step.path}"
        return f"Undo: back to {step.old}"  # not "rename": the Rename button keeps its name

    def undo(self, ws: Workspace) -> Outcome:
        """Take the last step back; a refusal says why and leaves everything as it is."""
        step = self.last(ws)
        if step is None:
            return Outcome(False, "Nothing to undo.")
        try:
            outcome = self._made(ws, step) if step.what == "made" else self._renamed(ws, step)
        except (OperationRefused, WriteRefused) as exc:
            return Outcome(False, f"Not undone: {exc}")
        except OSError as exc:  # a read the system refused (permissions): say so, no traceback
            return Outcome(False, f"Not undone: {step.path}: {exc.strerror or exc}")
        if outcome.done:
            self._step = None
        return outcome

    def _made(self, ws: Workspace, step: Step) -> Outcome:
        if step.path in self.unsaved():
            return Outcome(
                False,
                f"Not undone: {step.path} has words not saved yet in the note editor; "
                "save them (or take them out) first.",
            )
        if read_bytes(inside(ws.root, step.path)) != step.data:
            return Outcome(
                False,
                f"Not undone: {step.path} changed since it was made (your words are in it, "
                "or it is gone); nothing was removed.",
            )
        # Compared again under the file's lock: a save landing now is kept, never deleted.
        dangling = multifile.delete(ws, step.path, expected=step.data)
        left = f" {', '.join(dangling)} still name it (now dangling)." if dangling else ""
        back = step.back if step.back in ws.nodes else ""
        return Outcome(True, f"Undone: removed {step.path}.{left}", back)

    def _renamed(self, ws: Workspace, step: Step) -> Outcome:
        report = multifile.move(ws, step.path, step.old)
        updated = f" Updated: {', '.join(report.updated)}." if report.updated else ""
        return Outcome(True, f"Undone: renamed {step.path} back to {step.old}.{updated}", step.old)
