"""Quotations and closing tags set off between paragraphs, read with the running text.

A quotation indented on both sides and set a little smaller, and a paragraph's closing tag
(an attribution or a date set flush right under it), are part of the text a drag crosses.
Split out of :mod:`.headings`, which calls these before it reads the headings.
"""

from __future__ import annotations

from collections import Counter

from basehalf_core.documents.text import style_family
from basehalf_core.documents.text_blocks import Block

# A quotation is set at least this share of the text's size (Springer: 8.5 pt in 10 pt
# text) and indented at least this many sizes on both sides of the paragraph right above it
# (at most QUOTE_GAP sizes up); the text goes on under it, at the paragraph's left edge,
# at most QUOTE_UNDER sizes down (a heading may follow, with more space).
QUOTE_MIN_RATIO = 0.8
QUOTE_INDENT = 1.0
QUOTE_GAP = 2.0
QUOTE_UNDER = 3.0


def quotations_read_as_text(body: list[Block], body_style: str) -> None:
    """Give a displayed quotation between two pieces of text the running text's style.

    A book sets a quotation in its text's family a size smaller, indented on both sides,
    after a paragraph; a drag from that paragraph to the text after the quotation kept only
    text set like its ends and left the quotation out. A block in the text's family, set
    smaller (down to :data:`QUOTE_MIN_RATIO`), right under a paragraph of the text that
    reaches past it by :data:`QUOTE_INDENT` sizes on either side, with the text going on
    right under it, is read as text; so is an epigraph under a section's heading
    (:func:`_epigraph`). A footnote or a permission block has no text under it;
    a caption or a table is a region.
    """
    family = style_family(body_style)
    text = [b for b in body if b.style == body_style]
    if not family or not text:
        return
    size = Counter(b.size for b in text).most_common(1)[0][0]
    indent = QUOTE_INDENT * size
    for b in body:
        if b.style == body_style or b.region or style_family(b.style) != family:
            continue
        if not QUOTE_MIN_RATIO * size <= b.size < size:
            continue
        x0, y0, x1, y1 = b.bbox
        above = [
            t
            for t in text
            if t.bbox[0] <= x0 - indent
            and t.bbox[2] >= x1 + indent
            and 0 <= y0 - t.bbox[3] <= QUOTE_GAP * size
        ]
        under = [
            t
            for t in text
            if any(abs(t.bbox[0] - a.bbox[0]) <= 1 for a in above)
            and 0 <= t.bbox[1] - y1 <= QUOTE_UNDER * size
        ]
        if (above and under) or _epigraph(b, body, text, size):
            b.style = body_style


def _epigraph(b: Block, body: list[Block], text: list[Block], size: float) -> bool:
    """Is ``b`` an epigraph: right under a section's heading (set larger, flush with the
    text's left edge), over the section's text, which reaches past it by
    :data:`QUOTE_INDENT` sizes on both sides? SWIM's introduction opens with two lines of
    verse, 9 pt italic in 10 pt text; a title's author lines stand under a centred title."""
    x0, y0, x1, y1 = b.bbox
    indent = QUOTE_INDENT * size
    under = [
        t
        for t in text
        if t.bbox[0] <= x0 - indent
        and t.bbox[2] >= x1 + indent
        and 0 <= t.bbox[1] - y1 <= QUOTE_UNDER * size
    ]
    return any(
        h is not b
        and h.size > size
        and h.lines <= 2
        and 0 <= y0 - h.bbox[3] <= QUOTE_GAP * size
        and abs(h.bbox[0] - t.bbox[0]) <= size
        for h in body
        for t in under
    )


# A paragraph's closing tag starts at least this many sizes right of the paragraph's left
# edge, ends within one size of its right edge, and stands at most this many sizes under it.
TAG_INDENT = 2.0
TAG_GAP = 0.5


def closing_tags_read_as_text(body: list[Block], body_style: str) -> None:
    """Give a one-line tag set flush right under a paragraph the running text's style.

    LaTeX News closes an item with "(tagging-project issue 1115)", slanted and a size
    smaller, set flush right on a line of its own right under the item's last line; a drag
    from that item into the next kept only text set like its ends and dropped the tag. A
    one-line block set no larger than the text (down to :data:`QUOTE_MIN_RATIO`), right
    under a paragraph of the text (within :data:`TAG_GAP` sizes), ending at the paragraph's
    right edge and starting well right of its left edge, is read as text: an attribution
    under a quotation is set so too. A footnote starts at the column's left edge; a page
    number stands far under the text; a caption is a region.
    """
    text = [b for b in body if b.style == body_style and b.lines >= 2]
    if not text:
        return
    size = Counter(b.size for b in text).most_common(1)[0][0]
    for b in body:
        if b.style == body_style or b.region or b.lines != 1:
            continue
        if not QUOTE_MIN_RATIO * size <= b.size <= size:
            continue
        x0, y0, x1, _y1 = b.bbox
        if any(
            -TAG_GAP * size <= y0 - t.bbox[3] <= TAG_GAP * size  # line boxes may touch
            and abs(t.bbox[2] - x1) <= size
            and x0 >= t.bbox[0] + TAG_INDENT * size
            for t in text
        ):
            b.style = body_style
