"""A page's pixels: the zoom cap, the JPEG the reader is sent, and the rasteriser warmed up."""

from __future__ import annotations

import io
import math
from dataclasses import dataclass

import pymupdf

__all__ = ["JPEG_QUALITY", "MAX_RENDER_PIXELS", "Rendered", "capped_zoom", "jpeg", "warm_renderer"]

# Rendering cannot be interrupted: a huge page is rendered scaled down to at most this.
MAX_RENDER_PIXELS = 12_000_000
# JPEG quality of pages sent to the reader: small print stays legible (tests/test_documents.py
# compares it with the PNG of the same page); the text layer carries exact text and boxes.
JPEG_QUALITY = 80


@dataclass(frozen=True)
class Rendered:
    """One rendered page: the encoded image and the zoom actually used (lower than asked if
    capped); ``mime`` is ``image/png`` or ``image/jpeg``."""

    data: bytes
    zoom: float
    width: int
    height: int
    mime: str = "image/png"

    @property
    def png(self) -> bytes:
        """The PNG bytes (a page rendered as PNG only)."""
        if self.mime != "image/png":
            raise ValueError(f"this page was rendered as {self.mime}, not PNG")
        return self.data


def capped_zoom(w: float, h: float, zoom: float) -> float:
    """``zoom`` lowered so a ``w`` x ``h`` point page renders to at most MAX_RENDER_PIXELS."""
    used = min(zoom, math.sqrt(MAX_RENDER_PIXELS / max(w * h, 1e-6)))
    while math.ceil(w * used) * math.ceil(h * used) > MAX_RENDER_PIXELS:
        used *= 0.999  # pixel sizes round up
    return used


def warm_renderer() -> None:
    """Set up MuPDF's rasteriser and Pillow's JPEG encoder now, not on the first page rendered.

    Their first use costs tens of milliseconds (imports, encoder set-up; MuPDF's colour
    management and glyph machinery: a book's first page rendered in 15 ms cold against 5 ms
    after a word on a blank page was rendered); a module that will render pages (the reader
    widget) calls this when it is imported, so a learner's first page does not wait for it.
    """
    scratch = pymupdf.open()
    try:
        page = scratch.new_page(width=32, height=16)
        page.insert_text((2, 12), "Ag")
        pixmap = page.get_pixmap()
        jpeg(pixmap.samples, pixmap.width, pixmap.height)
    finally:
        scratch.close()


def jpeg(samples: bytes, width: int, height: int) -> bytes:
    from PIL import Image  # imported on first use: the CLI and the grader never render

    out = io.BytesIO()
    picture = Image.frombuffer("RGB", (width, height), samples, "raw", "RGB", 0, 1)
    # 4:2:0 chroma: text edges live in the luminance, kept at full resolution; colour at half
    # costs nothing legible and makes the page smaller than its PNG and quicker to encode.
    picture.save(out, "JPEG", quality=JPEG_QUALITY, subsampling=2)
    return out.getvalue()
