"""Text extraction of one page through PyMuPDF: words in reading order, character boxes.

PyMuPDF is not thread-safe: every call into it here runs under
:data:`~.raw_text.PYMUPDF_LOCK`, one lock for the process, and only the calls do. The reading
order worked out in Python afterwards (the larger part of a page's cost) runs outside it, so a
page being laid out for one reader (or one learner of a class) never holds up another's render.
The reading order itself is decided from block boxes, sizes and directions by
:mod:`.reading_order`; this module turns PyMuPDF's dictionaries into selection units and line
segments (:mod:`.lines`; words drawn without spaces are cut by :mod:`.glued`), groups them
into those blocks (:mod:`.grouping`) and marks them from the page's drawings (:mod:`.regions`)
and nearby pages' running heads (:mod:`.running_heads`); labels hung left of their lines are
read with them (:mod:`.hanging`); a page set vertically is read by columns (:mod:`.vertical`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import pymupdf

from basehalf_core.documents.glued import maybe_glued, split_at_gaps
from basehalf_core.documents.grouping import Group, blocks_of, group
from basehalf_core.documents.hanging import hanging_labels
from basehalf_core.documents.lines import (
    lines_with_scripts,
    segments,
    units_from_rawdict,
    write_scripts,
)
from basehalf_core.documents.raw_text import (
    PYMUPDF_LOCK,
    TEXT_FLAGS,
    _Unit,
    drawn_once,
    even_heights,
    font_family,
    in_spans,
    ornaments_out,
    seen_units,
    span_boxes,
)
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.regions import mark_regions
from basehalf_core.documents.running_heads import mark_running
from basehalf_core.documents.text import Run, has_cjk, is_icon
from basehalf_core.documents.vertical import _column_segments, _vertical_columns


@dataclass(frozen=True)
class Word:
    """One selection unit: a word, or one character of a script written without spaces.

    Attributes:
        index: position in the page's reading order (``words(i)[k].index == k``).
        text: the word as extracted (ligatures expanded by ``normalise`` in passages).
        rect: (x0, y0, x1, y1) in unrotated page space, PDF points.
        box: (x0, y0, x1, y1) in displayed space, fractions 0..1 of the displayed page.
        block: PyMuPDF's block number; ``line`` its line number inside the block.
        role: body | header | footer | footnote | margin.
        glue: True when nothing separates it from the previous unit on its line (the second
            character of a Chinese run), so passages join them without a space.
        style: its block's font family and size (``Times@10.0``): running text keeps one.
        broken: True when it ends a full line of its block with no space character after
            it, on a page whose lines keep the spaces they end with: the line may break
            inside a word there (see :func:`_broken_line_ends`).
    """

    index: int
    text: str
    rect: tuple[float, float, float, float]
    box: tuple[float, float, float, float]
    block: int
    line: int
    role: str = "body"
    glue: bool = False
    style: str = ""
    broken: bool = False

    def as_dict(self) -> dict:
        """JSON-ready form for a widget (boxes rounded to 1e-5 of the page)."""
        return {
            "i": self.index,
            "t": self.text,
            "b": [round(v, 5) for v in self.box],
            "r": self.role,
            "g": self.glue,
            "l": [self.block, self.line],
        }


def line_rects(words, space: str = "rect") -> list[list[float]]:
    """One rect per (block, line) of these words, in the order the lines are first met.

    Args:
        words: :class:`Word` objects.
        space: ``"rect"`` for unrotated PDF points rounded to 0.1 (what a note stores),
            ``"box"`` for displayed fractions of the page rounded to 1e-5 (what a widget draws).
    """
    digits = {"rect": 1, "box": 5}[space]
    lines: dict[tuple[int, int], list[float]] = {}
    for w in words:
        geom = w.rect if space == "rect" else w.box
        r = lines.get((w.block, w.line))
        if r is None:
            lines[(w.block, w.line)] = list(geom)
        else:
            r[0], r[1] = min(r[0], geom[0]), min(r[1], geom[1])
            r[2], r[3] = max(r[2], geom[2]), max(r[3], geom[3])
    return [[round(v, digits) for v in r] for r in lines.values()]


@dataclass
class PageText:
    """A page's selection units in reading order, and (filled in lazily) its text runs."""

    words: list[Word]
    runs: list[Run] | None = None

    @classmethod
    def build(cls, page: pymupdf.Page, running: list | None = None) -> PageText:
        """Extract the words of ``page`` and put them in reading order.

        Args:
            page: the page.
            running: :func:`edge_lines` of nearby pages; a short block near the top or foot
                of this page that repeats one of them (same text with other digits, same
                height on the page) is a running head or footer wherever the margins are.
        """
        with PYMUPDF_LOCK:
            tp = page.get_textpage(flags=TEXT_FLAGS)
            raw_words = tp.extractWORDS()
            info = tp.extractDICT()
            rot = page.rotation_matrix
            disp = page.rect
            height = page.cropbox.height
        w_disp, h_disp = max(disp.width, 1e-6), max(disp.height, 1e-6)
        rawdict_used = any(has_cjk(t[4]) for t in raw_words)
        rawdict = None
        if rawdict_used:
            with PYMUPDF_LOCK:
                rawdict = tp.extractRAWDICT()
            units = units_from_rawdict(rawdict)
        else:
            units = [_Unit(tuple(t[:4]), t[4], t[5], t[6], False) for t in raw_words]
            scripted = lines_with_scripts(info)
            if scripted:
                with PYMUPDF_LOCK:
                    rawdict = tp.extractRAWDICT()
                write_scripts(units, rawdict, scripted)
        units = even_heights(ornaments_out(drawn_once(seen_units(units)), info), info)
        if any(maybe_glued(u.text) for u in units):
            if rawdict is None:
                with PYMUPDF_LOCK:
                    rawdict = tp.extractRAWDICT()
            units = split_at_gaps(units, rawdict)
        with PYMUPDF_LOCK:
            del tp  # freeing MuPDF's text page is a MuPDF call too
        columns = _vertical_columns(units, page, info) if rawdict_used else None
        if columns is not None:
            blocks = blocks_of(_column_segments(columns, info), tuple(rot))
        else:
            blocks = group(segments(units, info), tuple(rot))
        _mark_faces(blocks, info)
        drawn = mark_regions(blocks, page)
        if running:
            blocks = mark_running(blocks, raw_words, height, running, tuple(rot))
        order = order_blocks(
            [b.block for b in blocks], h_disp, drawn.regions, drawn.column_rules + drawn.cross_rules
        )
        by_id = {b.block.id: b for b in blocks}
        words: list[Word] = []
        r = tuple(rot)
        broken = _broken_line_ends(units, info) if columns is None else set()
        # A symbol font's glyph with no text behind it (a private-use code point) is no word,
        # unless the page's font maps all its text there: nothing else would be left.
        icons_out = any(not is_icon(u.text) for u in units)
        roles = dict(order)
        hung = hanging_labels(blocks, roles) if columns is None else {}
        opens = {(t, k): label for label, (t, k) in hung.items()}
        for block_id, role in order:
            if block_id in hung:
                continue  # read before the line it stands level with
            blk = by_id[block_id]
            right = _column_right(blk, blocks) if broken else blk.box[2]
            for ln, seg in enumerate(blk.segments):
                label = opens.get((block_id, ln))
                pieces = (
                    [(label, 0, u) for u in by_id[label].segments[0].units]
                    if label is not None  # a block id may be 0
                    else []
                )
                pieces += [(block_id, ln, u) for u in seg.units]
                for owner, line, u in pieces:
                    if icons_out and is_icon(u.text):
                        continue
                    style = by_id[owner].block.style
                    word = _word(len(words), u, owner, line, role, style, r, w_disp, h_disp)
                    if icons_out and is_icon(word.text[0]) and _opens_line(word, words):
                        # A symbol font's bullet set without a space before the item's first
                        # word ("\uf06e16 LED drivers"): the word is what follows it. (Inside
                        # a line such a glyph may be a letter: Symbol's "\uf044" is a Δ.)
                        word = replace(word, text=_ICON_PREFIX.sub("", word.text))
                    words.append(word)
                if id(seg.units[-1]) in broken and seg.box[2] >= right - seg.size:
                    # A full line of a paragraph: it ran out of room, maybe inside a word.
                    words[-1] = replace(words[-1], broken=True)
        _join_drop_caps(words)
        return cls(words)


# A symbol font's glyphs (Unicode's private use area) opening a word.
_ICON_PREFIX = re.compile("^[\ue000-\uf8ff]+")


def _opens_line(word: Word, words: list[Word]) -> bool:
    """Does ``word`` open its line: the word read before it is not level with it on its left?"""
    if not words:
        return True
    last = words[-1].rect
    top, bottom = max(last[1], word.rect[1]), min(last[3], word.rect[3])
    level = bottom - top > 0.5 * min(last[3] - last[1], word.rect[3] - word.rect[1])
    return not (level and last[2] <= word.rect[0] + 1)


# A column's right edge is where at least this many lines starting at its left edge end.
COLUMN_EDGE_LINES = 3


def _column_right(blk, blocks) -> float:
    """The right edge a full line of ``blk`` reaches: its own, for a block of
    :data:`COLUMN_EDGE_LINES` lines or more; for fewer, the right edge that as many blocks
    starting at its left edge end at (a Word paper set with wide spacing makes each line a
    block of its own; a heading's two lines, "2. 데이터셋 구축" over "2.1 데이터 출처", are
    no paragraph whose longer line is full). Headings at a shared indent end anywhere: a
    short block without such a column has no full line (``inf``)."""
    if blk.block.lines >= COLUMN_EDGE_LINES:
        return blk.box[2]
    x0, size = blk.box[0], blk.block.size
    edges = sorted(
        (
            o.box[2]
            for o in blocks
            if abs(o.box[0] - x0) <= size and o.block.direction == blk.block.direction
        ),
        reverse=True,
    )
    for edge in edges:
        if sum(abs(e - edge) <= 0.5 * size for e in edges) >= COLUMN_EDGE_LINES:
            return edge
    return float("inf")


def _broken_line_ends(units: list[_Unit], info: dict) -> set[int]:
    """ids of the units that end their line with no space character after them, on a page
    that shows it keeps such spaces: some line ends in a letter and a space.

    Korean text breaks its lines between words and also inside them ("개" / "정된"); a
    writer that keeps the space a line ends with (this report's "발생 또는 유행 ") tells
    the two apart: a line ending in no space broke inside a word. A writer that drops them
    says nothing, and no unit is returned (a passage keeps the space it has always put at
    a line end).
    """
    ends: dict[tuple[int, int], bool] = {}
    kept = False  # a line ending in a letter and then a space
    for b in info.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            text = "".join(s["text"] for s in line["spans"]).rstrip("\n")
            if text.strip():
                ends[(b["number"], ln)] = spaced = text[-1].isspace()
                kept = kept or (spaced and text.rstrip()[-1].isalpha())
    if not kept:
        return set()
    last: dict[tuple[int, int], _Unit] = {}
    for u in units:
        last[(u.block, u.line)] = u
    return {id(u) for key, u in last.items() if ends.get(key) is False}


# A drop cap is one letter at least this many times as tall as the line it opens, and that
# line starts within this share of the cap's height right of it, its top inside the cap's.
DROP_CAP_RATIO = 2.0
DROP_CAP_GAP = 0.5


def _join_drop_caps(words: list[Word]) -> None:
    """Glue a drop cap to the rest of its word ("T" + "O SOLVE" reads "TO SOLVE").

    The cap is a block of its own in a larger size, which the block order may put anywhere;
    it becomes part of the first line of the paragraph it opens (placed before that line's
    first word, with its block, line and style), so a passage joins it to the next word
    without a space and a drag across it keeps it with the running text.
    """
    moves: dict[int, int] = {}  # cap's position -> position of the word it opens
    for k, cap in enumerate(words):
        if len(cap.text) != 1 or not cap.text.isalpha():
            continue
        _cx0, cy0, cx1, cy1 = cap.rect
        tall = cy1 - cy0
        prev = words[k - 1] if k else None
        after = words[k + 1] if k + 1 < len(words) else None
        # Its own block, or the head of a line whose next word stands far shorter (a slide's
        # text box holds the cap on the line of the text beside its foot): a word set in
        # the line's own size is a word of a heading or of the text.
        if prev is not None and (prev.block, prev.line) == (cap.block, cap.line):
            continue
        if (
            after is not None
            and (after.block, after.line) == (cap.block, cap.line)
            and DROP_CAP_RATIO * (after.rect[3] - after.rect[1]) > tall
        ):
            continue
        for j, nxt in enumerate(words):
            nx0, ny0, _nx1, ny1 = nxt.rect
            if j == k or nxt.role != cap.role or tall < DROP_CAP_RATIO * max(ny1 - ny0, 1e-6):
                continue
            first = j == 0 or (words[j - 1].block, words[j - 1].line) != (nxt.block, nxt.line)
            if (
                first
                # Set flush against it, the word may start a hair inside the cap's box.
                and -1 <= nx0 - cx1 <= DROP_CAP_GAP * tall
                # Its line's box may rise a line's ascent over the cap's top (a slide's text
                # box sets the letter's box lower than the line's).
                and cy0 - max(ny1 - ny0, 1.0) <= ny0 <= cy0 + 0.5 * tall
            ):
                moves[k] = j
                break
    if not moves:
        return
    out: list[Word] = []
    before = {j: k for k, j in moves.items()}
    for j, w in enumerate(words):
        if j in moves:
            continue
        if j in before:
            cap = words[before[j]]
            out.append(replace(cap, block=w.block, line=w.line, style=w.style))
            w = replace(w, glue=True)
        out.append(w)
    words[:] = [replace(w, index=i) if w.index != i else w for i, w in enumerate(out)]


# PyMuPDF's span flags: a font whose descriptor says it is fixed-pitch (monospaced), italic,
# bold. A font's name says its weight and slant more often than its descriptor does
# ("Lato-Black", "Times-Italic", "NimbusRomNo9L-Medi").
FIXED_PITCH_FLAG = 8
EMPHASIS_FLAGS = 2 | 16
EMPHASIS_NAME = re.compile(r"bold|black|heavy|semi|demi|medi|ital|obl", re.IGNORECASE)
# Many embedded fixed-pitch fonts do not say so in their descriptor (URW's NimbusMonL, TeX's
# CMTT); their family names do: Courier and its clones, TeX's typewriter faces, the coding
# faces named "Mono", Consolas, Menlo, Inconsolata, Source Code, Fira Code (not the
# foundry Monotype's proportional faces, "MonotypeCorsiva").
FIXED_PITCH_NAME = re.compile(
    r"mono(?!type)|courier|consol|menlo|typewriter|^(cm|lm|sf|ec|tc)tt|^nimbusmon|sourcecode|firacode",
    re.IGNORECASE,
)
# A block is set off by its face when at least this share of its characters is emphasised.
EMPHASIS_SHARE = 0.9


def _face(font: str) -> str:
    """What a font's name says after its family: "Black" of "ABCDEF+Lato-Black", "Bold" of
    "Arial,Bold"."""
    parts = re.split(r"[-,]", font.split("+", 1)[-1], maxsplit=1)
    return parts[1] if len(parts) == 2 else ""


def _mark_faces(groups: list[Group], info: dict) -> None:
    """Set ``Block.fixed`` where most of a block's characters are in a fixed-pitch font, and
    ``Block.emphasis`` where nearly all are in a bold or italic face."""
    fixed_spans = span_boxes(
        info,
        lambda s: s["flags"] & FIXED_PITCH_FLAG or FIXED_PITCH_NAME.search(font_family(s["font"])),
    )
    emphasised = span_boxes(
        info, lambda s: s["flags"] & EMPHASIS_FLAGS or EMPHASIS_NAME.search(_face(s["font"]))
    )
    if not fixed_spans and not emphasised:
        return  # one plain face on the page (most pages)
    for g in groups:
        fixed = emphasis = total = 0
        for seg in g.segments:
            for u in seg.units:
                total += len(u.text)
                fixed += len(u.text) * in_spans(u, fixed_spans)
                emphasis += len(u.text) * in_spans(u, emphasised)
        g.block.fixed = 2 * fixed > total
        g.block.emphasis = total > 0 and emphasis >= EMPHASIS_SHARE * total


def _word(index, u: _Unit, block, line, role, style, rot, w_disp, h_disp) -> Word:
    # Plain arithmetic: pymupdf.Rect * Matrix per word cost more than the rest of the page.
    # Page rotations are multiples of 90 degrees, so two corners give the displayed box.
    a, b, c, d, e, f = rot
    x0, y0, x1, y1 = (float(v) for v in u.rect)
    xa, ya = a * x0 + c * y0 + e, b * x0 + d * y0 + f
    xb, yb = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    box = (
        min(xa, xb) / w_disp,
        min(ya, yb) / h_disp,
        max(xa, xb) / w_disp,
        max(ya, yb) / h_disp,
    )
    return Word(index, u.text, (x0, y0, x1, y1), box, block, line, role, u.glue, style)
