"""Drawing test pages with PyMuPDF: lines of words at a size and leading (reading order);
and blocks as the layout rules see them, for the rules tested on blocks alone."""

from __future__ import annotations

import pymupdf

from basehalf_core.documents.document import open_document
from basehalf_core.documents.text_blocks import Block

# Words of running text that the drawn pages' columns cycle through, and the text's size,
# leading and left edge on an A4 page (points).
VOCABULARY = (
    "the wave moves to the right and its energy stays the same over the whole run as the "
    "scheme keeps the sum of squares"
)
WORDS = VOCABULARY.split()
SIZE, LEAD = 10.0, 12.0
LEFT = 54


def one_page(tmp_path, draw, size: tuple[float, float] = (595, 842)):
    """The reader's document of a page ``size`` points wide and tall (A4 unless given) that
    ``draw(page)`` drew, saved under ``tmp_path``."""
    doc = pymupdf.open()
    draw(doc.new_page(width=size[0], height=size[1]))
    path = tmp_path / "page.pdf"
    doc.save(path)
    return open_document(path)


def write_lines(page, x, y, counts, words, *, size, lead, start=0, font="tiro") -> float:
    """One line per entry of ``counts``, each that many words taken in turn from ``words``.

    Returns:
        The baseline of the line that would come next.
    """
    k = start
    for count in counts:
        page.insert_text(
            (x, y),
            " ".join(words[(k + j) % len(words)] for j in range(count)),
            fontsize=size,
            fontname=font,
        )
        k += count
        y += lead
    return y


def justify(page, x, y, words, right, *, size, font="tiro") -> None:
    """One line of ``words`` set flush on both sides from ``x`` to ``right`` (word spaces
    stretched, as a justified column sets its lines)."""
    widths = [pymupdf.get_text_length(w, fontsize=size, fontname=font) for w in words]
    space = (right - x - sum(widths)) / max(len(words) - 1, 1)
    for word, width in zip(words, widths, strict=True):
        page.insert_text((x, y), word, fontsize=size, fontname=font)
        x += width + space


def across_columns(doc, *, split: float = 300, right_below: float = 0) -> tuple[str, str, str]:
    """A drag from the left column's last word to the right column's first (below
    ``right_below``) on page 1 of ``doc``: (the passage's quote, first word, last word)."""
    words = doc.words(0)
    left = [w for w in words if w.rect[0] < split]
    right = [w for w in words if w.rect[0] > split and w.rect[1] > right_below]
    quote = doc.passage(0, doc.select_between(0, left[-1].index, right[0].index)).quote
    return quote, left[-1].text, right[0].text


def drag_across(doc, before, after) -> tuple[str, str, str]:
    """A drag on page 1 of ``doc`` from the last word (in reading order) that ``before``
    accepts to the first one ``after`` accepts: (the passage's quote, first word, last
    word). ``before`` and ``after`` take a word's ``rect``."""
    words = doc.words(0)
    start = [w for w in words if before(w.rect)][-1]
    end = next(w for w in words if after(w.rect))
    quote = doc.passage(0, doc.select_between(0, start.index, end.index)).quote
    return quote, start.text, end.text


def block(n: int, bbox, style: str = "ClassicoURW@9.0", lines: int = 1, region: str = "") -> Block:
    """Block ``n`` with box ``bbox``, in ``style`` ("Face@size": its size is read from it),
    ``lines`` lines of forty characters each."""
    return Block(
        id=n,
        bbox=bbox,
        direction=(1.0, 0.0),
        size=float(style.rsplit("@", 1)[1]),
        chars=40 * lines,
        lines=lines,
        style=style,
        region=region,
    )
