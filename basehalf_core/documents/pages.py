"""Text extraction of one page through PyMuPDF: words in reading order, character boxes.

Callers hold :data:`basehalf_core.documents.document.PYMUPDF_LOCK` around :meth:`PageText.build`
(PyMuPDF is not thread-safe). The reading order itself is decided from block boxes, sizes and
directions by :mod:`.reading_order`; this module turns PyMuPDF's dictionaries into those
blocks and into selection units.
"""

from __future__ import annotations

from dataclasses import dataclass

import pymupdf

from basehalf_core.documents.reading_order import Block, order_blocks
from basehalf_core.documents.text import Run, has_cjk, is_cjk

# One text page per page, built with these flags and reused for words and search. Ligatures
# are not preserved (so MuPDF expands those it can); fonts that map glyphs to the ligature
# code points themselves are expanded by :func:`basehalf_core.documents.text.normalise`.
TEXT_FLAGS = (
    pymupdf.TEXT_PRESERVE_WHITESPACE
    | pymupdf.TEXT_MEDIABOX_CLIP
    | pymupdf.TEXT_CID_FOR_UNKNOWN_UNICODE
)

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


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
    """

    index: int
    text: str
    rect: tuple[float, float, float, float]
    box: tuple[float, float, float, float]
    block: int
    line: int
    role: str = "body"
    glue: bool = False

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
    def build(cls, page: pymupdf.Page) -> PageText:
        """Extract the words of ``page`` and put them in reading order."""
        tp = page.get_textpage(flags=TEXT_FLAGS)
        raw_words = tp.extractWORDS()
        info = tp.extractDICT()
        rot = tuple(page.rotation_matrix)
        disp = page.rect
        w_disp, h_disp = max(disp.width, 1e-6), max(disp.height, 1e-6)
        if any(has_cjk(t[4]) for t in raw_words):
            units = _units_from_rawdict(tp.extractRAWDICT())
        else:
            units = [(tuple(t[:4]), t[4], t[5], t[6], False) for t in raw_words]
        blocks = _blocks(info, page.rotation_matrix)
        order = order_blocks(list(blocks.values()), h_disp)
        by_block: dict[int, list] = {}
        for u in units:
            by_block.setdefault(u[2], []).append(u)
        words: list[Word] = []
        roles = dict(order)
        # Blocks the dict did not list come last, as running text.
        sequence = [b for b, _ in order] + [b for b in by_block if b not in roles]
        for block_id in sequence:
            role = roles.get(block_id, "body")
            for rect, text, b, ln, glue in by_block.get(block_id, []):
                words.append(_word(len(words), rect, text, b, ln, glue, role, rot, w_disp, h_disp))
        return cls(words)


def _word(index, rect, text, block, line, glue, role, rot, w_disp, h_disp) -> Word:
    # Plain arithmetic: pymupdf.Rect * Matrix per word cost more than the rest of the page.
    # Page rotations are multiples of 90 degrees, so two corners give the displayed box.
    a, b, c, d, e, f = rot
    x0, y0, x1, y1 = (float(v) for v in rect)
    xa, ya = a * x0 + c * y0 + e, b * x0 + d * y0 + f
    xb, yb = a * x1 + c * y1 + e, b * x1 + d * y1 + f
    box = (
        min(xa, xb) / w_disp,
        min(ya, yb) / h_disp,
        max(xa, xb) / w_disp,
        max(ya, yb) / h_disp,
    )
    return Word(index, text, (x0, y0, x1, y1), box, block, line, role, glue)


def _blocks(info: dict, rot: pymupdf.Matrix) -> dict[int, Block]:
    out = {}
    for b in info.get("blocks", []):
        if b.get("type") != 0 or not b.get("lines"):
            continue
        chars = 0
        dirs: dict[tuple[float, float], int] = {}
        size_weight: dict[float, int] = {}
        first = ""
        for line in b["lines"]:
            dx, dy = line["dir"]
            # Direction as displayed: rotate the vector (no translation).
            ddir = (round(dx * rot.a + dy * rot.c, 3), round(dx * rot.b + dy * rot.d, 3))
            n = sum(len(s["text"]) for s in line["spans"])
            dirs[ddir] = dirs.get(ddir, 0) + n
            chars += n
            for s in line["spans"]:
                size = round(s["size"], 1)
                size_weight[size] = size_weight.get(size, 0) + len(s["text"])
                if not first and s["text"].strip():
                    first = s["text"].strip()[0]
        if not chars:
            continue
        r = pymupdf.Rect(b["bbox"]) * rot
        r.normalize()
        out[b["number"]] = Block(
            id=b["number"],
            bbox=(r.x0, r.y0, r.x1, r.y1),
            direction=max(dirs, key=dirs.get),
            size=max(size_weight, key=size_weight.get),
            chars=chars,
            lines=len(b["lines"]),
            first_char=first,
        )
    return out


def _units_from_rawdict(raw: dict) -> list[tuple]:
    """Words split at spaces, with every CJK character its own unit (glued to its neighbours)."""
    units: list[tuple] = []
    for b in raw.get("blocks", []):
        if b.get("type") != 0:
            continue
        for ln, line in enumerate(b["lines"]):
            groups: list[tuple[list[dict], bool]] = []  # (chars, glued to the previous unit)
            open_group = glue = False
            for span in line["spans"]:
                for c in span["chars"]:
                    ch = c["c"]
                    if ch.isspace():
                        open_group = glue = False
                        continue
                    cjk = is_cjk(ch)
                    if cjk or not open_group:
                        groups.append(([c], glue))
                    else:
                        groups[-1][0].append(c)
                    open_group = not cjk
                    glue = True
            for chars, glued in groups:
                x0 = min(c["bbox"][0] for c in chars)
                y0 = min(c["bbox"][1] for c in chars)
                x1 = max(c["bbox"][2] for c in chars)
                y1 = max(c["bbox"][3] for c in chars)
                text = "".join(c["c"] for c in chars)
                units.append(((x0, y0, x1, y1), text, b["number"], ln, glued))
    return units
