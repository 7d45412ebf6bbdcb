"""Which face of the Card Detail column is up: the document reader or the card's own view.

The workbench keeps one reader on screen in a cell of its own (so opening a document never
runs a cell or mounts a view) beneath the Card Detail pane. :class:`Stage` carries one trait,
``shown``; its script puts the value on the page's root element (``<html data-bh-stage=…>``),
and the workbench's stylesheet (:data:`basehalf_widgets.panes.STAGE_CSS`) hides the reader
and lets Card Detail fill the column when it says ``"detail"``. A trait set from Python
re-runs nothing, so the switch costs one small message.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from basehalf_widgets.esm import CachedScript

READER, DETAIL = "reader", "detail"


class Stage(CachedScript, anywidget.AnyWidget):
    """``shown``: ``"reader"`` (a PDF/EPUB card is open) or ``"detail"`` (anything else)."""

    _esm = Path(__file__).parent / "static" / "stage.js"

    shown = traitlets.Unicode(DETAIL).tag(sync=True)
