"""PyMuPDF's raw text as the page readers share it.

The process-wide PyMuPDF lock and the text flags; selection units and line segments as read
from PyMuPDF's dictionaries, with their span styles; and whether a drawing has any ink. The
page reader (:mod:`.pages`) and the vertical-writing reader (:mod:`.vertical`) both build on
these, so they sit below both. The underscored names are this package's own helpers, not API.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import pymupdf

# One text page per page, built with these flags and reused for words and search. Ligatures
# are not preserved (so MuPDF expands those it can); fonts that map glyphs to the ligature
# code points themselves are expanded by :func:`basehalf_core.documents.text.normalise`.
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
)

# Every PyMuPDF call in the process runs under this lock (re-entrant: callers may hold it).
PYMUPDF_LOCK = threading.RLock()

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


@dataclass
class _Unit:
    """A selection unit as extracted: box (unrotated), text, PyMuPDF block and line, glue."""

    rect: tuple[float, float, float, float]
    text: str
    block: int
    line: int
    glue: bool


@dataclass
class _Segment:
    """Units of one PyMuPDF line that sit together: no wide gap, one style.

    MuPDF joins text written one after another on one baseline into one line, even across a
    column gutter or from the text to a line number or side note; a wide gap splits it again.
    """

    units: list[_Unit]
    family: str
    size: float
    direction: tuple[float, float]
    chars: int = 0

    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)

    def close(self) -> None:
        """Fix the segment's box once its units are all in."""
        self.box = (
            min(u.rect[0] for u in self.units),
            min(u.rect[1] for u in self.units),
            max(u.rect[2] for u in self.units),
            max(u.rect[3] for u in self.units),
        )


def font_family(name: str) -> str:
    """The family of a PDF font name: subset tag, style suffix and point size dropped.

    ``ABCDEF+Times-Italic`` → ``Times``, ``CMR10`` → ``CMR``, ``NimbusRomNo9L-Medi`` →
    ``NimbusRomNo9L``. Bold and italic of one family compare equal; math fonts do not.
    """
    name = name.split("+", 1)[-1]
    name = name.split("-", 1)[0].split(",", 1)[0]
    return name.rstrip("0123456789") or name


def _span_styles(info: dict) -> dict[tuple[int, int], list]:
    out: dict[tuple[int, int], list] = {}
    for b in info.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln, line in enumerate(b.get("lines", [])):
            out[(b["number"], ln)] = [
                (s["bbox"], font_family(s["font"]), round(s["size"] * 2) / 2, len(s["text"]))
                for s in line["spans"]
                if s["text"].strip()
            ] or [((0, 0, 0, 0), "", 0.0, 0)]
            out[(b["number"], ln)].append(tuple(line["dir"]))
    return out


def _style_of(u: _Unit, spans: list) -> tuple[str, float]:
    cx = (u.rect[0] + u.rect[2]) / 2
    for s in spans:
        if s[0][0] <= cx <= s[0][2]:
            return s[1], s[2]
    best = min(spans, key=lambda s: min(abs(cx - s[0][0]), abs(cx - s[0][2])))
    return best[1], best[2]


def _invisible(d: dict) -> bool:
    """A path painted with no ink: every paint it has (fill, stroke) at opacity 0."""
    kind = d.get("type", "")
    fill_gone = "f" not in kind or d.get("fill_opacity", 1.0) == 0
    stroke_gone = "s" not in kind or d.get("stroke_opacity", 1.0) == 0
    return fill_gone and stroke_gone
