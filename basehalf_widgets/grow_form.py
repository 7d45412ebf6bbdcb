"""The Grow-branch form: the passage about to be grown, an editable title, the Grow button."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets

from basehalf_widgets.esm import CachedScript

_STATIC = Path(__file__).parent / "static"


class GrowForm(CachedScript, anywidget.AnyWidget):
    """Shows ``passage`` and lets the learner edit ``title``; each click sends a ``request``.

    A request carries what the learner saw when they clicked: the title in the box and the
    passage shown. Python grows from the request, never from the synced ``title``: that trait
    crosses the wire in both directions (a suggestion out, keystrokes back), so on a loaded
    machine the two can pass each other and Python's copy can be the suggestion the learner
    already typed over. ``status`` reports the outcome.
    """

    _esm = _STATIC / "grow_form.js"
    _css = _STATIC / "grow_form.css"

    passage = traitlets.Unicode("").tag(sync=True)
    page = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    request = traitlets.Dict({}).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)

    def offer(self, passage: str, page: int, title: str) -> None:
        """Show a new selection with a suggested title (the learner edits it before growing)."""
        with self.hold_sync():  # one message: a passage never shows beside the last title
            self.passage, self.page, self.title, self.status = passage, page, title, ""

    def press(self, title: str | None = None) -> None:
        """Click Grow as the browser does: send the title in the box and the passage shown."""
        n = int(self.request.get("n", 0)) + 1
        title = self.title if title is None else title
        self.request = {"n": n, "title": title, "passage": self.passage, "page": self.page}


def attach(form: GrowForm, reader, suggest: Callable, grow: Callable) -> None:
    """Wire ``form`` to ``reader``: a selection is offered with a suggested title; a request grows.

    Args:
        form: the Grow form.
        reader: a :class:`basehalf_widgets.reader.Reader` (its ``passage()`` is the selection).
        suggest: passage → suggested title.
        grow: ``(passage, title) -> str`` that writes the note and returns its path; an
            exception's message is shown and nothing else happens.
    """

    def on_selection(_change=None) -> None:
        passage = reader.passage()
        if passage is None:
            form.offer("", 0, "")
        elif (passage.quote, passage.page) != (form.passage, form.page):
            # The same passage reported again (a late or repeated selection message) keeps
            # the title: the learner may have typed one already, and a fresh suggestion sent
            # to the browser after it would be the title the next Grow writes.
            form.offer(passage.quote, passage.page, suggest(passage))

    def on_request(_change=None) -> None:
        request = form.request
        if not request:
            return
        passage = reader.passage()
        if passage is None:
            form.status = "Select a passage first."
            return
        if (request.get("passage"), request.get("page")) != (passage.quote, passage.page):
            # The selection changed after the click left the browser: grow nothing the
            # learner has not seen; the form now shows the new passage.
            form.status = "The selection changed: check the passage and click Grow again."
            return
        title = str(request.get("title", ""))
        form.title = title
        try:
            path = grow(passage, title)
        except Exception as exc:  # shown to the learner; nothing was written
            form.status = f"Not grown: {exc}"
            return
        reader.clear_selection()
        form.offer("", 0, "")
        form.status = f"Grown: {path}"

    reader.observe(on_selection, names=["selection"])
    form.observe(on_request, names=["request"])
