"""Words drawn without space characters: a long word, or a list's mark and its item's first
word, cut where its glyphs stand a word space apart."""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise

from basehalf_core.documents.raw_text import _Unit
from basehalf_core.documents.text import has_hangul

# A word of letters this long (a Hangul one this long: Korean pages are looked at whole) may
# be several words drawn without spaces: "Pellentesquetinciduntpurus". A URL, a DOI, a
# formula or a hyphenated compound holds other characters, and is not looked at (half of a
# paper's pages hold one, and reading their glyphs costs a tenth of a page's extraction).
GLUED_CHARS = 25
GLUED_HANGUL = 2
_GLUED_LATIN = re.compile(r"[^\W\d_]+(?:[.,;:][^\W\d_]+)*[.,;:!?]?")
# ... split where its glyphs stand at least this many of their size further apart than its
# two closest glyphs do: a word space drawn as a gap (a Korean Hwp export, 0.68 of the size; a
# Korean LaTeX paper, 0.25; a justified line set without space characters). Measured from
# the word's own smallest gap, a letter-spaced word is not cut at every letter.
GLUED_GAP = 0.15


# Marks that open a list's item ("●", "▶", "✓" and the other symbols, the bullet): the text
# layer may hold one glued to its item's first word ("●Pose") though the page sets it a
# gap apart.
_MARKS = "•‣⁃◦∙"


def maybe_glued(text: str) -> bool:
    """Whether a word is long enough, and made of letters enough, or opens with a list's
    mark, to be looked at for gaps inside it."""
    if has_hangul(text):
        return len(text) >= GLUED_HANGUL
    if len(text) > 1 and (text[0] in _MARKS or unicodedata.category(text[0]) == "So"):
        return text[1].isalnum()
    return len(text) >= GLUED_CHARS and bool(_GLUED_LATIN.fullmatch(text))


def split_at_gaps(units: list[_Unit], raw: dict) -> list[_Unit]:
    """Long words split where their glyphs stand a word space apart.

    A writer may draw the space between words as a gap instead of a space character: Hwp
    exports Korean so ("기계학습기반상권…" for "기계학습 기반 상권 …"), and some justified
    Latin lines come out as one word ("Pellentesquetinciduntpurus"). PyMuPDF's words break
    only at space characters. A word that :func:`maybe_glued` picks is cut where the next
    glyph starts :data:`GLUED_GAP` of the font size or more further from the last one than
    the word's smallest gap between glyphs.
    """
    glued = {id(u) for u in units if maybe_glued(u.text)}
    wanted = {(u.block, u.line) for u in units if id(u) in glued}
    chars: dict[tuple[int, int], list] = {}
    for b in raw.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            if (b["number"], ln) in wanted:  # only the lines holding such a word
                chars[(b["number"], ln)] = [
                    (c["c"], c["bbox"], sp["size"])
                    for sp in line["spans"]
                    for c in sp["chars"]
                    if not c["c"].isspace()
                ]
    out: list[_Unit] = []
    for u in units:
        here = chars.get((u.block, u.line)) if id(u) in glued else None
        mine = [
            c for c in here or () if u.rect[0] - 0.5 <= (c[1][0] + c[1][2]) / 2 <= u.rect[2] + 0.5
        ]
        if not mine or "".join(c[0] for c in mine) != u.text:
            out.append(u)
            continue
        gaps = [mine[k][1][0] - mine[k - 1][1][2] for k in range(1, len(mine))]
        usual = max(min(gaps), 0.0) if gaps else 0.0
        cuts = [
            0,
            *(k + 1 for k, gap in enumerate(gaps) if gap >= usual + GLUED_GAP * mine[k + 1][2]),
        ]
        cuts.append(len(mine))
        for n, (a, b) in enumerate(pairwise(cuts)):
            part = mine[a:b]
            rect = (
                min(c[1][0] for c in part),
                min(c[1][1] for c in part),
                max(c[1][2] for c in part),
                max(c[1][3] for c in part),
            )
            text = "".join(c[0] for c in part)
            out.append(_Unit(rect, text, u.block, u.line, u.glue if n == 0 else False))
    return out
