"""The page's bounding-box log as the region rules read it.

Two things MuPDF's log says otherwise than a reader sees: a stroke outlining the text just
filled (faux bold) is drawn as a path, and a picture is logged at its placement, not at what
its clip path shows. :func:`read_log` gives the log with both put right.
"""

from __future__ import annotations

import pymupdf

from basehalf_core.documents.raw_text import PYMUPDF_LOCK


def read_log(page: pymupdf.Page, text) -> list:
    """``page``'s bounding-box log (kind, rectangle), its outlines of text left out and its
    pictures cut to their clips (``text``: the page's blocks' boxes)."""
    with PYMUPDF_LOCK:
        log = page.get_bboxlog()
    return _shown_pictures(page, _without_outlined_text(log), text)


# A glyph's outline stroked over it stands this close to the glyph's box on every side.
OUTLINE_SLACK = 0.5


def _without_outlined_text(log: list) -> list:
    """``log`` without the strokes that outline the text just filled (a flyer's faux bold,
    "Desinfiziert Oberflächen", each glyph filled then stroked): no drawing of a figure's,
    they made a figure of a bold phrase, and the paragraph holding it was left out."""
    out: list = []
    for kind, r in log:
        if kind == "stroke-path" and out and out[-1][0] == "fill-text":
            q = out[-1][1]
            if all(abs(a - b) <= OUTLINE_SLACK for a, b in zip(r, q, strict=True)):
                continue
        out.append((kind, r))
    return out


def _shown_pictures(page: pymupdf.Page, log: list, text) -> list:
    """``log`` (the page's bounding-box log) with each picture's box cut to what its clip
    path shows, where the uncut box would matter.

    A flyer places its team photo 500 points wide from the middle panel to past the page's
    edge and shows a rounded 215 × 84 corner of it under the right panel's text: the whole
    placement joined the middle panel's photo into one figure over the right panel's text,
    which was left out as a figure's contents. The log holds a picture's placement, the
    page's text extraction what its clip shows: its blocks only, not the "dict" that copies
    every picture's bytes (3 ms against 220 ms on that flyer), and only when a placement
    reaches past the page or over a block of text. The two list the pictures in the same
    order; a shown box lies within its placement.
    """
    placed = [r for kind, r in log if kind == "fill-image"]
    box = page.rect

    def matters(r) -> bool:
        past = r[0] < box.x0 - 1 or r[1] < box.y0 - 1 or r[2] > box.x1 + 1 or r[3] > box.y1 + 1
        return past or any(
            r[0] <= t[0] and t[2] <= r[2] and r[1] <= t[1] and t[3] <= r[3] for t in text
        )

    if not any(matters(r) for r in placed):
        return log
    with PYMUPDF_LOCK:
        found = page.get_text(
            "blocks", flags=pymupdf.TEXT_PRESERVE_IMAGES | pymupdf.TEXT_MEDIABOX_CLIP
        )
    # A block is (x0, y0, x1, y1, text, number, type); type 1 is a picture.
    shown = [tuple(b[:4]) for b in found if b[6] == 1]
    within = len(shown) == len(placed) and all(
        r[0] - 1 <= v[0] and v[2] <= r[2] + 1 and r[1] - 1 <= v[1] and v[3] <= r[3] + 1
        for r, v in zip(placed, shown, strict=True)
    )
    if not within:
        return log
    cut = iter(shown)
    return [(kind, next(cut) if kind == "fill-image" else r) for kind, r in log]
