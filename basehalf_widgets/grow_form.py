"""The Grow-branch form: the passage about to be grown, an editable title, the Grow button."""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

_STATIC = Path(__file__).parent / "static"


class GrowForm(anywidget.AnyWidget):
    """Shows ``passage`` and lets the learner edit ``title``; each click bumps ``requests``.

    Python observes ``requests`` and performs the grow; ``status`` reports the outcome.
    """

    _esm = _STATIC / "grow_form.js"
    _css = _STATIC / "grow_form.css"

    passage = traitlets.Unicode("").tag(sync=True)
    page = traitlets.Int(0).tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    requests = traitlets.Int(0).tag(sync=True)
    status = traitlets.Unicode("").tag(sync=True)

    def offer(self, passage: str, page: int, title: str) -> None:
        """Show a new selection with a suggested title (the learner edits it before growing)."""
        self.passage, self.page, self.title, self.status = passage, page, title, ""
