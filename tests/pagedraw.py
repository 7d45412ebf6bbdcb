"""Drawing test pages with PyMuPDF: lines of words at a size and leading (reading order)."""

from __future__ import annotations


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
