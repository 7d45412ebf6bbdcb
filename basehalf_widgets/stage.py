"""Which face of the Card Detail column is up: the document reader or the card's own view.

The workbench keeps one reader on screen in a cell of its own (so opening a document never
runs a cell or mounts a view) beneath the Card Detail pane. :class:`Stage` carries one trait,
``shown``; its script puts the value on the page's root element (``<html data-bh-stage=…>``),
and the workbench's stylesheet (:data:`basehalf_widgets.panes.STAGE_CSS`) hides the reader
and lets Card Detail fill the column when it says ``"detail"``. A trait set from Python
re-runs nothing, so the switch costs one small message.

It also reports the width of the reader's pane (``width``, CSS pixels) and the screen's
``ratio`` (``devicePixelRatio``), so a document is first rendered at the scale the reader
fits it to (:func:`fit_zoom`), not at a default the browser would then ask to change.

Being on the page for as long as the app, its script also keeps Tab and Shift+Tab moving the
focus out of the Ask box (marimo's chat editor would indent with them: a keyboard trap).
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from basehalf_widgets.esm import CachedScript

READER, DETAIL = "reader", "detail"
MIN_ZOOM, MAX_ZOOM = 0.25, 6.0  # as the reader clamps its zoom


def fit_zoom(width: float, ratio: float, page_width: float) -> float | None:
    """The render scale the reader's "fit width" picks for a page ``page_width`` points wide
    in a pane ``width`` CSS pixels wide (static/reader.js ``layout``: quarter steps); None
    when either width is unknown."""
    if width <= 0 or page_width <= 0:
        return None
    want = width * (ratio if ratio > 0 else 1.0) / page_width
    return min(max(round(want * 4) / 4, MIN_ZOOM), MAX_ZOOM)


class Stage(CachedScript, anywidget.AnyWidget):
    """``shown``: ``"reader"`` (a PDF/EPUB card is open) or ``"detail"`` (anything else)."""

    _esm = Path(__file__).parent / "static" / "stage.js"

    shown = traitlets.Unicode(DETAIL).tag(sync=True)
    # The open folder; the browser answers with ``reopen`` (``{"path", "n"}``): a note of it
    # this tab still holds unsaved words for (after a reload), to be opened again.
    folder = traitlets.Unicode("").tag(sync=True)
    reopen = traitlets.Dict({}).tag(sync=True)
    width = traitlets.Float(0.0).tag(sync=True)
    ratio = traitlets.Float(1.0).tag(sync=True)
