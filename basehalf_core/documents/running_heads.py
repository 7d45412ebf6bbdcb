"""Running heads and footers: a page's edge lines repeated at the same height on nearby pages."""

from __future__ import annotations

import re

import pymupdf

from basehalf_core.documents.grouping import Group, next_block_id, split_group
from basehalf_core.documents.lines import SPLIT_GAP
from basehalf_core.documents.raw_text import PYMUPDF_LOCK, TEXT_FLAGS

# Running heads and footers are looked for this far (a fraction of the height) from the edges.
EDGE_BAND = 0.15
# The same head sits at the same height on every page, give or take this many points.
EDGE_SLACK = 2.0


def edge_lines(raw_words: list, height: float) -> list[tuple[str, float, frozenset]]:
    """A page's pieces of line near its top or foot: ``(text, top y, word boxes)``.

    Args:
        raw_words: PyMuPDF ``extractWORDS`` tuples (unrotated points).
        height: the unrotated page height.

    The text has every run of digits written ``#`` (page numbers, dates and volume numbers
    differ from page to page); a line is cut at a wide gap like the segments (a page number
    far right of the running head is a piece of its own).
    """
    lines: dict[tuple[bool, int, int], list] = {}
    for w in raw_words:
        top = w[3] <= EDGE_BAND * height
        if top or w[1] >= (1 - EDGE_BAND) * height:
            # Keyed by the band too: :func:`edge_lines_of` reads the two bands apart, and
            # MuPDF numbers each read's blocks from 0 (a head and a footer were one line).
            lines.setdefault((top, w[5], w[6]), []).append(w)
    out = []
    for ws in lines.values():
        ws.sort(key=lambda w: w[0])
        pieces = [[ws[0]]]
        for w in ws[1:]:
            if w[0] - pieces[-1][-1][2] > SPLIT_GAP * max(w[3] - w[1], 1.0):
                pieces.append([w])
            else:
                pieces[-1].append(w)
        for piece in pieces:
            text = re.sub(r"\d+", "#", " ".join(w[4] for w in piece))
            out.append((text, piece[0][1], frozenset(tuple(w[:4]) for w in piece)))
    return out


def edge_lines_of(page: pymupdf.Page) -> list[tuple[str, float, frozenset]]:
    """:func:`edge_lines` of a page, reading only its two edge bands (half the cost of the
    whole page's words)."""
    raw = []
    with PYMUPDF_LOCK:
        box = page.cropbox
        w, h = box.width, box.height
        for y0, y1 in ((0, EDGE_BAND * h), ((1 - EDGE_BAND) * h, h)):
            raw += page.get_text("words", flags=TEXT_FLAGS, clip=pymupdf.Rect(0, y0, w, y1))
    return edge_lines(raw, h)


def mark_running(
    groups: list[Group], raw_words: list, height: float, running: list, rot: tuple
) -> list[Group]:
    """Set ``Block.running`` on short blocks whose every word repeats on a nearby page.

    A running head set in the text's own font and size a few points over a column (Pis'ma
    v Astronomicheskii Zhurnal's "2" and "И. А. Мереминский и др.") groups with the
    column's first line, and the block, holding words of no other page, was read as text
    and bridged the gutter. A block whose first (or last) lines are all repeated words and
    whose other lines are not is cut in two there: the repeated lines are a running block
    of their own.

    Returns:
        the page's blocks, those cut in two replaced by their two parts.
    """
    seen: dict[str, list[float]] = {}
    for text, y, _ in running:
        seen.setdefault(text, []).append(y)
    pieces = edge_lines(raw_words, height)
    hits = [any(abs(y - y2) <= EDGE_SLACK for y2 in seen.get(text, ())) for text, y, _ in pieces]
    matched: set = set()
    for (text, _y, boxes), hit in zip(pieces, hits, strict=True):
        if hit and not (_numeral(text) and _beside_other(boxes, pieces, hits)):
            matched |= boxes
    if not matched:
        return groups
    repeated_boxes = list(matched)

    def repeats(rect) -> bool:
        # A CJK run PyMuPDF gives as one word is cut into its characters (a drag starts at
        # any of them): a unit repeats when it lies inside a repeated word's box.
        key = tuple(rect)
        return key in matched or any(
            b[0] - 0.5 <= key[0]
            and key[2] <= b[2] + 0.5
            and b[1] - 0.5 <= key[1]
            and key[3] <= b[3] + 0.5
            for b in repeated_boxes
        )

    out: list[Group] = []
    next_id = next_block_id(groups)
    for g in groups:
        repeated = [all(repeats(u.rect) for u in seg.units) for seg in g.segments]
        if all(repeated):
            g.block.running = g.block.lines <= 2
            out.append(g)
            continue
        cut = _edge_cut(g, repeated)
        if cut is None:
            out.append(g)
            continue
        at_top = repeated[0]
        segs = g.segments
        top, bottom = split_group(g, segs[:cut], segs[cut:], rot, next_id, 0 if at_top else 1)
        edge = top if at_top else bottom
        next_id += 1
        edge.block.running = True
        out += [top, bottom]
    return out


def _numeral(text: str) -> bool:
    """Digits and marks only ("#", "#.#" once digits are written ``#``)."""
    return not any(c.isalpha() for c in text)


def _beside_other(boxes: frozenset, pieces: list, hits: list[bool]) -> bool:
    """Does a piece that does not repeat stand level with ``boxes``, within three of their
    heights? A section's number at the top of a page ("5.6" of "5.6 Quotes and block
    quotes") reads "#.#" like another page's; a page number stands apart from the words
    of its line."""
    x0 = min(b[0] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y0 = min(b[1] for b in boxes)
    y1 = max(b[3] for b in boxes)
    reach = 3 * (y1 - y0)
    for (_text, _y, other), hit in zip(pieces, hits, strict=True):
        if hit:
            continue
        for b in other:
            level = min(y1, b[3]) - max(y0, b[1]) > 0.5 * (y1 - y0)
            if level and b[0] - x1 <= reach and x0 - b[2] <= reach:
                return True
    return False


def _edge_cut(g: Group, repeated: list[bool]) -> int | None:
    """Where ``g`` is cut between its repeated edge lines and the rest, or None.

    Its first or last line (the segments on one baseline) is repeated, at most two lines
    are, and all the other lines are not: a line of the text that happens to repeat
    ("Introduction") is no running head in the middle of a block.
    """
    segs = g.segments
    # A table's or a figure's first row of numbers may stand where another page's does.
    if g.block.direction != (1.0, 0.0) or len(segs) < 2 or g.block.region:
        return None
    lines: list[list[int]] = []
    for k, seg in enumerate(segs):
        if lines and abs(seg.box[3] - segs[lines[-1][0]].box[3]) <= 0.3 * seg.size:
            lines[-1].append(k)
        else:
            lines.append([k])
    flags = [all(repeated[k] for k in line) for line in lines]
    if any(repeated[k] != flags[n] for n, line in enumerate(lines) for k in line):
        return None  # a line half repeated
    lead = next((n for n, f in enumerate(flags) if not f), len(flags))
    tail = next((n for n, f in enumerate(reversed(flags)) if not f), len(flags))
    if 0 < lead <= 2 and not any(flags[lead:]):
        n = lead
    elif 0 < tail <= 2 and not any(flags[: len(flags) - tail]):
        n = len(flags) - tail
    else:
        return None
    tops = [min(segs[k].box[1] for k in line) for line in lines]
    bottoms = [max(segs[k].box[3] for k in line) for line in lines]
    gaps = [tops[m + 1] - bottoms[m] for m in range(len(lines) - 1)]
    edge = gaps.pop(n - 1)
    inner = sorted(gaps[n - 1 :] if n == lead else gaps[: n - 1])
    # Set off from the rest by more than its lines are from each other: a table's first
    # row or a reference's last line ("Linguistics.") can repeat on the next page too.
    size = segs[0].size
    spacing = max(inner[len(inner) // 2] if inner else 0.0, LINE_SPACE * size)
    if edge < spacing + EDGE_GAP * size:
        return None
    return lines[n][0]


# A running head stands this many sizes further from the text than its lines stand apart
# (at least this many sizes apart where a line alone is left).
EDGE_GAP = 0.2
LINE_SPACE = 0.15
