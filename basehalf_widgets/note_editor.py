"""The note editor: a note's body as Markdown source, its title, a preview, Save.

The widget shows and reports; it never reads or writes the folder. Python loads a note with
:meth:`NoteEditor.show` and answers the learner's requests (``save_requests``, ``resolve``)
through :class:`basehalf_core.views.note_edit.Drafts`. Typing stays in the browser: the text
reaches Python a moment after the learner pauses, and Save (button or Ctrl/Cmd+S) sends it
first.
"""

from __future__ import annotations

import uuid
from pathlib import Path

import anywidget
import traitlets

from basehalf_core.views import panels
from basehalf_core.views.note_edit import Draft

_STATIC = Path(__file__).parent / "static"


class NoteEditor(anywidget.AnyWidget):
    """The editor view. Python → browser: ``doc`` (``{"path", "title", "text", "saved",
    "fresh", "readonly", "editor", "n"}``, the note to show, in one trait because the keys of
    one update reach the browser in any order; ``saved`` is the body on disk, ``fresh`` says it
    was opened rather than saved or resolved, ``editor`` and ``n`` which editor sent it when),
    ``folder`` (whose notes: the browser keeps a tab's unsaved text per folder and note in
    ``sessionStorage`` through a reload, and warns before the tab closes over it), ``path``,
    ``kind``, ``readonly`` (why it cannot be edited; "" when it can), ``dirty``, ``status``,
    ``preview`` (safe HTML), ``conflict`` (``{"mine", "theirs", "mine_changed",
    "theirs_changed"}``, and ``"gone"`` when the note left the folder, while a save waits for
    the learner's choice). Browser → Python: ``typed`` (``{"path", "text", "title", "save",
    "n"}``, and ``"restored"`` for text kept through a reload: what was typed into which note,
    and whether Save or Ctrl/Cmd+S asked to save it), ``resolve`` (``{"choice": "keep" |
    "take" | "copy", "n"}``) and ``follow`` (``{"href", "n"}``: a relative link clicked in the
    preview, which the app opens instead of leaving the page)."""

    _esm = _STATIC / "note_editor.js"
    # The preview sits in the widget's shadow root: it gets the shared panel stylesheet
    # (numbered lists, sized headings, quote borders) there, as the export does.
    _css = (_STATIC / "note_editor.css").read_text(encoding="utf-8") + "\n" + panels.css()

    doc = traitlets.Dict({}).tag(sync=True)
    folder = traitlets.Unicode("").tag(sync=True)
    path = traitlets.Unicode("").tag(sync=True)
    kind = traitlets.Unicode("note").tag(sync=True)
    readonly = traitlets.Unicode("").tag(sync=True)
    dirty = traitlets.Bool(False).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)
    preview = traitlets.Unicode("").tag(sync=True)
    conflict = traitlets.Dict({}).tag(sync=True)
    typed = traitlets.Dict({}).tag(sync=True)
    resolve = traitlets.Dict({}).tag(sync=True)
    follow = traitlets.Dict({}).tag(sync=True)

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._id = uuid.uuid4().hex  # which editor loaded a doc (a view mounted again or not)

    def show(
        self, draft: Draft, kind: str, heading: str, status: str = "", *, fresh: bool = True
    ) -> None:
        """Load ``draft`` into the editor (replacing what the browser shows); ``fresh``: it was
        opened (text the browser kept through a reload may come back), not saved or resolved."""
        with self.hold_sync():
            self.path, self.kind, self.readonly = draft.path, kind, draft.readonly
            self.dirty, self.conflict, self.status = draft.dirty, {}, status
            n = self.doc.get("n", 0) + 1
            doc = {
                "path": draft.path,
                "title": heading,
                "text": draft.text,
                "fresh": fresh,
                "readonly": bool(draft.readonly),
                "editor": self._id,
                "n": n,
            }
            if draft.saved_body != draft.text:  # else the browser takes the text: sent once
                doc["saved"] = draft.saved_body
            self.doc = doc
