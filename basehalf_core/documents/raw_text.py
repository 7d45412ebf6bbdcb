"""PyMuPDF's raw text as the page readers share it.

The process-wide PyMuPDF lock and the text flags; selection units and line segments as read
from PyMuPDF's dictionaries, with their span styles; and whether a drawing has any ink. The
page reader (:mod:`.pages`, with :mod:`.lines`, :mod:`.grouping`, :mod:`.regions` and
:mod:`.running_heads`) and the vertical-writing reader (:mod:`.vertical`) both build on these,
so they sit below both. The underscored names are this package's own helpers, not API.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field

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
    # How many of its words (three letters or more) each style sets: a line that opens in
    # another font (inline code, an italic term) still carries its paragraph's words.
    words_in: dict[tuple[str, float], int] = field(default_factory=dict, compare=False)

    box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    # The segment this one goes on from on its line: split off only by a change of style
    # (inline code, a keyword label) at a stretched word space, not by a wide gap or gutter.
    after: _Segment | None = field(default=None, repr=False, compare=False)

    def close(self) -> None:
        """Fix the segment's box once its units are all in."""
        self.box = (
            min(u.rect[0] for u in self.units),
            min(u.rect[1] for u in self.units),
            max(u.rect[2] for u in self.units),
            max(u.rect[3] for u in self.units),
        )


# Characters that print nothing: Google Docs indents a paragraph with zero-width spaces, an
# exporter leaves an object replacement character (U+FFFC) where a picture was anchored. A
# reader sees no word there.
UNSEEN = "\u200b\u2060\ufeff\ufffc"
_UNSEEN_TABLE = str.maketrans("", "", UNSEEN)


def seen_units(units: list[_Unit]) -> list[_Unit]:
    """``units`` without the characters that print nothing; a unit of nothing else is gone."""
    if not any(ch in u.text for u in units for ch in UNSEEN):
        return units
    out = []
    for u in units:
        text = u.text.translate(_UNSEEN_TABLE)
        if text:
            out.append(u if text == u.text else _Unit(u.rect, text, u.block, u.line, u.glue))
    return out


# Fonts of ornaments, not letters: a glyph of one maps to whatever character its font's
# table says ("!" for an IEEE paper's diamond between two rules, "l" for a bullet).
ORNAMENT_FONT = re.compile(r"dingbats|wingdings|webdings", re.IGNORECASE)


def span_boxes(info: dict, keep) -> dict[tuple[int, int], list]:
    """The boxes of the printing spans ``keep`` accepts, by (MuPDF block, line): empty when
    none is."""
    out: dict[tuple[int, int], list] = {}
    for b in info.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            for sp in line.get("spans", []):
                if sp.get("text", "").strip() and keep(sp):
                    out.setdefault((b["number"], ln), []).append(sp["bbox"])
    return out


def in_spans(u: _Unit, spans: dict[tuple[int, int], list]) -> bool:
    """Does the middle of unit ``u`` lie in one of ``spans`` on its line?"""
    cx = (u.rect[0] + u.rect[2]) / 2
    return any(r[0] <= cx <= r[2] for r in spans.get((u.block, u.line), ()))


def ornaments_out(units: list[_Unit], info: dict) -> list[_Unit]:
    """``units`` without those set in an ornament font (:data:`ORNAMENT_FONT`), unless the
    page holds nothing else: a diamond or a bullet is no word of the text."""
    spans = span_boxes(info, lambda sp: ORNAMENT_FONT.search(sp.get("font", "")))
    if not spans:
        return units
    kept = [u for u in units if not in_spans(u, spans)]
    return kept or units


# A word boxed this many times taller than its line's words, round their middle (within
# MIDDLE_SLACK of their height), is boxed by its font's tall glyphs, not set higher or lower.
TALL_BOX = 1.5
MIDDLE_SLACK = 0.15


def even_heights(units: list[_Unit], info: dict) -> list[_Unit]:
    """``units`` with a word boxed taller than its line round the line's middle cut to the
    line's height.

    A publisher's font boxes its parentheses 22 points tall on 11-point lines: the words
    "(previously" and "Life)" stood off their line's baseline, were read as lines of their
    own after the paragraph, and the tall lines overlapped the lines above and below.
    Only lines running left to right, of three words or more, are looked at.
    """
    across = {
        (b["number"], k)
        for b in info.get("blocks", [])
        for k, line in enumerate(b.get("lines", []))
        if tuple(round(d, 3) for d in line.get("dir", (1, 0))) == (1.0, 0.0)
    }
    lines: dict[tuple[int, int], list[_Unit]] = {}
    for u in units:
        lines.setdefault((u.block, u.line), []).append(u)
    cut: dict[int, _Unit] = {}
    for key, line in lines.items():
        if key not in across or len(line) < 3:
            continue
        tops = sorted(u.rect[1] for u in line)
        feet = sorted(u.rect[3] for u in line)
        top, foot = tops[len(tops) // 2], feet[len(feet) // 2]
        height = foot - top
        if height <= 0:
            continue
        for u in line:
            middle = (u.rect[1] + u.rect[3]) / 2
            if (
                u.rect[3] - u.rect[1] > TALL_BOX * height
                and abs(middle - (top + foot) / 2) <= MIDDLE_SLACK * height
            ):
                cut[id(u)] = _Unit(
                    (u.rect[0], top, u.rect[2], foot), u.text, u.block, u.line, u.glue
                )
    if not cut:
        return units
    return [cut.get(id(u), u) for u in units]


# Two units of the same text whose boxes lie within this many points of each other are one
# word drawn twice.
TWICE = 1.0


def drawn_once(units: list[_Unit]) -> list[_Unit]:
    """``units`` with each word drawn twice at the same place kept once.

    A voucher sets its notice in "fake bold": every word drawn twice, a hair apart, in two
    text objects; MuPDF reads each line twice (two blocks), and a drag read every word
    twice. A unit of the same text as an earlier one, its box within :data:`TWICE` points
    of that one's on every side, is the same ink.
    """
    seen: dict[tuple[str, int, int], list[tuple[float, float, float, float]]] = {}
    out = []
    for u in units:
        kx, ky = round(u.rect[0]), round(u.rect[1])
        near = (
            r
            for dx in (-1, 0, 1)
            for dy in (-1, 0, 1)
            for r in seen.get((u.text, kx + dx, ky + dy), ())
        )
        if any(all(abs(a - b) <= TWICE for a, b in zip(r, u.rect, strict=True)) for r in near):
            continue
        seen.setdefault((u.text, kx, ky), []).append(u.rect)
        out.append(u)
    return out


def box_of(segs: list[_Segment]) -> tuple[float, float, float, float]:
    """The box around these segments (unrotated points)."""
    return (
        min(m.box[0] for m in segs),
        min(m.box[1] for m in segs),
        max(m.box[2] for m in segs),
        max(m.box[3] for m in segs),
    )


def font_family(name: str) -> str:
    """The family of a PDF font name: subset tag, style suffix and point size dropped.

    ``ABCDEF+Times-Italic`` → ``Times``, ``CMR10`` → ``CMR``, ``NimbusRomNo9L-Medi`` →
    ``NimbusRomNo9L``. Bold and italic of one family compare equal; math fonts do not.
    """
    name = name.split("+", 1)[-1]
    name = name.split("-", 1)[0].split(",", 1)[0]
    return name.rstrip("0123456789") or name


# On a page whose text is all invisible (an OCR layer over a scanned image) a line's size
# within this share of the page's text size is taken to be that size.
OCR_SIZE_SLACK = 0.2
# A page is taken for an OCR layer when at least this share of its characters is invisible.
OCR_HIDDEN_SHARE = 0.9


def _span_styles(info: dict) -> dict[tuple[int, int], list]:
    sizes = _ocr_line_sizes(info)
    out: dict[tuple[int, int], list] = {}
    for b in info.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln, line in enumerate(b.get("lines", [])):
            fixed = sizes.get((b["number"], ln))
            out[(b["number"], ln)] = [
                (
                    s["bbox"],
                    font_family(s["font"]),
                    fixed if fixed is not None else round(s["size"] * 2) / 2,
                    len(s["text"]),
                )
                for s in line["spans"]
                if s["text"].strip()
            ] or [((0, 0, 0, 0), "", 0.0, 0)]
            out[(b["number"], ln)].append(tuple(line["dir"]))
    return out


def _weighted_median(pairs: list[tuple[float, int]]) -> float:
    """The value at the middle character of ``(value, characters)`` pairs."""
    pairs = sorted(pairs)
    half, seen = sum(n for _v, n in pairs) / 2, 0
    for value, n in pairs:
        seen += n
        if seen >= half:
            return value
    return pairs[-1][0]


def _ocr_line_sizes(info: dict) -> dict[tuple[int, int], float]:
    """One size per line of an OCR text layer (text nearly all invisible), ``{}`` otherwise.

    A scanned page's invisible text layer gives each word (or line) the size its OCR
    guessed from the ink, so one line of running text comes out in sizes from 7.5 to 10 pt
    and style (which groups lines into blocks and tells headings and footnotes from text)
    says nothing. There each line takes its characters' median size, and a line within
    :data:`OCR_SIZE_SLACK` of the page's median takes the page's: only print clearly larger
    or smaller (a title, a caption's labels) keeps a size of its own.
    """
    spans = [
        (key, s)
        for b in info.get("blocks", [])
        if b.get("type") == 0
        for key, line in (((b["number"], ln), ln_) for ln, ln_ in enumerate(b.get("lines", [])))
        for s in line["spans"]
        if s["text"].strip()
    ]
    hidden = sum(len(s["text"]) for _k, s in spans if s.get("alpha", 255) == 0)
    # A line or two of visible print (a download stamp) may sit on the scan too.
    if not spans or hidden < OCR_HIDDEN_SHARE * sum(len(s["text"]) for _k, s in spans):
        return {}
    by_line: dict[tuple[int, int], list[tuple[float, int]]] = {}
    for key, s in spans:
        by_line.setdefault(key, []).append((s["size"], len(s["text"].strip())))
    line_size = {key: _weighted_median(pairs) for key, pairs in by_line.items()}
    page = _weighted_median([(line_size[k], sum(n for _v, n in p)) for k, p in by_line.items()])
    page_size = round(page * 2) / 2
    out = {}
    for key, size in line_size.items():
        near = abs(size - page) <= OCR_SIZE_SLACK * page
        out[key] = page_size if near else round(size * 2) / 2
    return out


# Small capitals are set at least this share of their capitals' size (and below 0.9 of it).
SMALL_CAPS_RATIO = 0.6


def _style_of(u: _Unit, spans: list) -> tuple[str, float]:
    caps = _small_caps_style(u, spans)
    if caps is not None:
        return caps
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


def _small_caps_style(u: _Unit, spans: list) -> tuple[str, float] | None:
    """The style of a word set in small capitals: its capitals', not its small letters'.

    "PROTOCOL" in an IEEE heading is a "P" at the text's size and "ROTOCOL" at 0.8 of it;
    styled by the span at its middle, the word would take the smaller size and be read as
    other print than the heading's "IV." on its baseline. A word whose every letter is a
    capital, over spans of one family in exactly two sizes (the smaller at
    :data:`SMALL_CAPS_RATIO` to 0.9 of the larger), whose first letter is in the larger,
    takes the larger size. A footnote marker or a script is no capital of the word's own.
    """
    letters = [ch for ch in u.text if ch.isalpha()]
    if len(letters) < 2 or not all(ch.isupper() for ch in letters):
        return None
    x0, x1 = u.rect[0], u.rect[2]
    over = [s for s in spans if min(x1, s[0][2]) - max(x0, s[0][0]) > 0.5]
    sizes = {s[2] for s in over}
    if len(sizes) != 2 or len({s[1] for s in over}) != 1:
        return None
    small, large = sorted(sizes)
    if not SMALL_CAPS_RATIO * large <= small < 0.9 * large:
        return None
    first = min(over, key=lambda s: s[0][0])
    if first[2] != large or first[0][0] > x0 + 0.5 * (x1 - x0) / len(u.text):
        return None
    return first[1], large
