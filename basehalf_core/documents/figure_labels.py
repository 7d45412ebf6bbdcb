"""The labels a figure carries outside its drawn region: panel letters, sub-figure tags,
tick labels, axis titles and rows of labels over drawings.

A figure's region comes from the page's drawings (:mod:`basehalf_core.documents.regions`);
its labels are set round it in the page's fonts, often in the text's own, and would be read
as lines of the text: each is told here by its shape and its place by the region.
"""

from __future__ import annotations

import re
import unicodedata

from basehalf_core.documents.captions import first_line
from basehalf_core.documents.grouping import Group, segment_text
from basehalf_core.documents.labels import CAPTION_LABEL
from basehalf_core.documents.text import is_cjk
from basehalf_core.documents.text_blocks import text_style

__all__ = ["near", "panel_labels"]

# A panel's letter has at most this many characters, and stands at most this many of the
# page's text sizes outside its figure's region.
PANEL_LABEL_CHARS = 2
PANEL_LABEL_REACH = 1.0


# A sub-figure's tag: a letter or two, or a small roman numeral, in parentheses.
PANEL_TAG = re.compile(r"^\(([a-z]{1,2}|[ivx]{1,4})\)$")


def panel_labels(groups: list[Group], figures: list, em: float) -> None:
    """Read the letters of a figure's panels ("a", "b", ... "e") as the figure's contents.

    A journal (Nature's) sets each panel's letter in a bold sans at the panel's top left,
    just outside the plot the panel draws, so outside the figure's region; beside a column
    of text narrowed to make room for the figure, the letter lies within that column's
    width and was read as a heading of it, inside a drag through the column. A block of one
    line holding one word of at most :data:`PANEL_LABEL_CHARS` letters, set in a style
    other than the page's text (family or size), within :data:`PANEL_LABEL_REACH` of the
    page's text sizes of a figure's region, is read like the figure (``float``). A word of
    the text stands on a line of the text; a heading has more letters. A sub-figure's tag in
    parentheses ("(a)", "(iv)") is read so in any style, and so is a short label standing
    right over or under a drawing and centred on it (:func:`_drawing_label`).
    """
    text = text_style(g.block for g in groups)
    reach = PANEL_LABEL_REACH * em
    _drawing_labels(groups, figures, reach)
    for g in groups:
        b = g.block
        if b.region or g.segments[0].direction != (1.0, 0.0):
            continue
        words = [u.text for seg in g.segments for u in seg.units]
        if all(TICK.fullmatch(w) for w in words):
            # A plot's tick labels, a column of them or a row: numbers only, by a drawing.
            if any(near(g.box, r, reach) for r in figures):
                b.region = "float"
            continue
        if b.lines != 1 or len(words) != 1:
            continue
        # A sub-figure's tag in parentheses ("(a)" under its panel, as IEEE sets them) may
        # be set in the text's own style: alone on its line, it is no word of the text.
        tagged = bool(PANEL_TAG.match(words[0])) or _axis_label(words[0])
        if not tagged and (
            b.style == text or len(words[0]) > PANEL_LABEL_CHARS or not words[0].isalpha()
        ):
            continue
        if any(near(g.box, r, reach) for r in figures):
            b.region = "float"

    _axis_titles(groups, figures, em)


# An axis title is one line of at most this many words.
AXIS_TITLE_WORDS = 3


def _axis_titles(groups: list[Group], figures: list, em: float) -> None:
    """Read a plot's axis title, set under the row of its tick labels, as the plot's.

    An IEEE paper sets "SNR(dB)" in the text's own font and size under each plot's tick
    labels, outside the plot's region: a drag from the left column's foot to the right
    column's top, under a row of four plots, read "SNR(dB) SNR(dB)". One line of at most
    :data:`AXIS_TITLE_WORDS` words, no caption, centred within a figure's width and at most
    half a line under a block already read as that figure's (its tick labels), is ``float``.
    """
    floats = [g for g in groups if g.block.region == "float"]
    for g in groups:
        b = g.block
        if b.region or b.lines != 1 or CAPTION_LABEL.match(first_line(g)):
            continue
        if len(segment_text(g.segments[0]).split()) > AXIS_TITLE_WORDS or len(g.segments) != 1:
            continue
        x0, y0, x1, _y1 = g.box
        middle = (x0 + x1) / 2
        for r in figures:
            if not r[0] <= middle <= r[2] or not 0 <= y0 - r[3] <= 2 * em:
                continue
            if any(
                0 <= y0 - f.box[3] <= 0.5 * b.size
                and min(f.box[2], x1) > max(f.box[0], x0)
                and r[0] - em <= f.box[0]
                and f.box[2] <= r[2] + em
                for f in floats
            ):
                b.region = "float"
                break


# A tick label: a number ("7", "0.25", "−0.4", "40%").
TICK = re.compile(r"[−-]?\d+([.,]\d+)?%?")


def near(box, r, reach: float) -> bool:
    """Does ``box`` lie within ``reach`` of the region ``r``?"""
    x0, y0, x1, y1 = box
    return x0 - reach <= r[2] and r[0] <= x1 + reach and y0 - reach <= r[3] and r[1] <= y1 + reach


# Unicode categories of accents written as characters of their own: combining marks,
# modifier symbols ("´", "¨") and modifier letters ("ˆ").
ACCENTS = ("Mn", "Sk", "Lm")


def _axis_label(word: str) -> bool:
    """A plot's axis or vector label standing alone by it ("x", "y", "−u"), in any style.

    TikZ sets the labels of a drawing's axes in the text's own font and size, just past the
    arrows' tips, so outside the drawing's region: "y" over the figure and "x" beside it
    were read into a drag through the column under the figure. One character, or two with
    a sign, on a line of its own cannot be a line of the text (a paragraph's last word
    groups with its paragraph); a CJK character may end a paragraph on a line of its own.
    An accent set as a character of its own over the letter (a unit vector's "ˆκ") does not
    count.
    """
    word = "".join(c for c in word if unicodedata.category(c) not in ACCENTS) or word
    if len(word) == 1:
        return not is_cjk(word)
    return len(word) <= PANEL_LABEL_CHARS and word[0] in "−-+±" and word[1:].isalpha()


# A drawing's label is at most this many words and characters, none a word of three letters.
DRAWING_LABEL_WORDS = 3
DRAWING_LABEL_CHARS = 6


def _drawing_label(words: list[str]) -> bool:
    """Is this one line's text a label a drawing carries ("n = 1", "t0", "x"), not words?"""
    return (
        0 < len(words) <= DRAWING_LABEL_WORDS
        and len("".join(words)) <= DRAWING_LABEL_CHARS
        and not any(sum(c.isalpha() for c in w) >= 3 for w in words)
    )


def _drawing_labels(groups: list[Group], figures: list, reach: float) -> None:
    """Read a row of short labels over (or under) a row of drawings as the drawings'.

    Tufte's handout sets "n = 1" ... "n = 5" in the text's own font over five curves drawn
    side by side, outside their regions; a drag past them read them as a line of text. Two
    or more one-line blocks of :func:`_drawing_label` text on one baseline, each centred on
    a different drawing right under (or over) it within ``reach``, are ``float``. One such
    block alone is not: a short line of text ("0 ∼ 1,", a paragraph's last "体 *") may stand
    by a figure.
    """
    found: list[tuple[Group, int]] = []
    for g in groups:
        b = g.block
        if b.region or b.lines != 1 or g.segments[0].direction != (1.0, 0.0):
            continue
        if not _drawing_label([u.text for seg in g.segments for u in seg.units]):
            continue
        x0, y0, x1, y1 = g.box
        for k, r in enumerate(figures):
            # Its box may reach a little into the region's (a drawing's stroke widens it).
            near = (y0 < r[1] and abs(r[1] - y1) <= reach) or (
                y1 > r[3] and abs(y0 - r[3]) <= reach
            )
            if near and r[0] <= (x0 + x1) / 2 <= r[2]:
                found.append((g, k))
                break
    for g, _drawing in found:
        row = {j for h, j in found if abs(h.box[3] - g.box[3]) <= 1}
        if len(row) >= 2:
            g.block.region = "float"
