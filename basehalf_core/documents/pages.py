"""Text extraction of one page through PyMuPDF: words in reading order, character boxes.

PyMuPDF is not thread-safe: every call into it here runs under
:data:`~.raw_text.PYMUPDF_LOCK`, one lock for the process, and only the calls do. The reading
order worked out in Python afterwards (the larger part of a page's cost) runs outside it, so a
page being laid out for one reader (or one learner of a class) never holds up another's render.
The reading order itself is decided from block boxes, sizes and directions by
:mod:`.reading_order`; this module turns PyMuPDF's dictionaries into those blocks and into
selection units; a page set vertically is read by columns (:mod:`.vertical`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, replace

import pymupdf

from basehalf_core.documents.raw_text import (
    PYMUPDF_LOCK,
    TEXT_FLAGS,
    _invisible,
    _ocr_line_sizes,
    _Segment,
    _span_styles,
    _style_of,
    _Unit,
)
from basehalf_core.documents.reading_order import order_blocks
from basehalf_core.documents.text import Run, has_cjk, is_cjk, script_text
from basehalf_core.documents.text_blocks import TINY_RATIO, Block, text_size
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
        if rawdict_used:
            with PYMUPDF_LOCK:
                rawdict = tp.extractRAWDICT()
            units = _units_from_rawdict(rawdict)
        else:
            units = [_Unit(tuple(t[:4]), t[4], t[5], t[6], False) for t in raw_words]
            scripted = _lines_with_scripts(info)
            if scripted:
                with PYMUPDF_LOCK:
                    rawdict = tp.extractRAWDICT()
                _write_scripts(units, rawdict, scripted)
        with PYMUPDF_LOCK:
            del tp  # freeing MuPDF's text page is a MuPDF call too
        columns = _vertical_columns(units, page, info) if rawdict_used else None
        if columns is not None:
            blocks = _blocks_of(_column_segments(columns, info), tuple(rot))
        else:
            blocks = _group(_segments(units, info), tuple(rot))
        _mark_regions(blocks, page)
        _mark_fixed_pitch(blocks, info)
        if running:
            _mark_running(blocks, raw_words, height, running)
        order = order_blocks([b.block for b in blocks], h_disp)
        by_id = {b.block.id: b for b in blocks}
        words: list[Word] = []
        r = tuple(rot)
        for block_id, role in order:
            blk = by_id[block_id]
            for ln, seg in enumerate(blk.segments):
                for u in seg.units:
                    words.append(
                        _word(len(words), u, block_id, ln, role, blk.block.style, r, w_disp, h_disp)
                    )
        _join_drop_caps(words)
        return cls(words)


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
        if any(w.block == cap.block for w in words[max(k - 1, 0) : k + 2] if w is not cap):
            continue  # not a block of its own
        _cx0, cy0, cx1, cy1 = cap.rect
        tall = cy1 - cy0
        for j, nxt in enumerate(words):
            nx0, ny0, _nx1, ny1 = nxt.rect
            if j == k or nxt.role != cap.role or tall < DROP_CAP_RATIO * max(ny1 - ny0, 1e-6):
                continue
            first = j == 0 or (words[j - 1].block, words[j - 1].line) != (nxt.block, nxt.line)
            if (
                first
                and 0 <= nx0 - cx1 <= DROP_CAP_GAP * tall
                and cy0 - 1 <= ny0 <= cy0 + 0.5 * tall
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


@dataclass
class _Group:
    block: Block
    segments: list[_Segment]
    box: tuple = (0.0, 0.0, 0.0, 0.0)  # unrotated points, as the page's drawings are


# A gap wider than this many font sizes between two units of a line separates them: word
# spaces, even stretched by justification, stay well under it; gutters and margins do not.
SPLIT_GAP = 1.5
# On an OCR text layer a line splits only at a gap this wide (or at a gutter).
OCR_SPLIT_GAP = 3.0
# A change of style splits a line at a narrower gap (a line number set close to the text).
STYLE_GAP = 0.6
# Lines join one block when the space between them is at most this many font sizes.
LINE_GAP = 1.0


def _segments(units: list[_Unit], info: dict) -> list[_Segment]:
    styles = _span_styles(info)
    segs: list[_Segment] = []
    cur: _Segment | None = None
    key = None
    gutters = _Gutters(units)
    # An OCR layer's word boxes take their widths from the invisible font, not from the ink,
    # so the space between two words of a line can come out two sizes wide; the gutter test
    # below still splits a line across a column gutter.
    split_gap = OCR_SPLIT_GAP if _ocr_line_sizes(info) else SPLIT_GAP
    for u in units:
        entry = styles.get((u.block, u.line)) or [((0, 0, 0, 0), "", 0.0, 0), (1.0, 0.0)]
        spans, direction = entry[:-1], (round(entry[-1][0], 3), round(entry[-1][1], 3))
        family, size = _style_of(u, spans)
        size = size or (u.rect[3] - u.rect[1])
        if (
            cur is not None
            and _continues(cur, u, family, size, direction, key, split_gap)
            and not (direction == (1.0, 0.0) and gutters.between(cur.units[-1], u, size))
        ):
            cur.units.append(u)
            cur.chars += len(u.text)
            continue
        new = _Segment([u], family, size, direction, len(u.text))
        if (
            cur is not None
            and direction == (1.0, 0.0) == cur.direction
            and _continues(cur, u, cur.family, cur.size, direction, key, split_gap)
            and not gutters.between(cur.units[-1], u, size)
        ):
            new.after = cur  # the same line, set otherwise from here on
        cur = new
        key = (u.block, u.line)
        segs.append(cur)
    for seg in segs:
        seg.close()
    return _fold_inset_pieces(segs)


# A piece of a line drawn on its own into a word space of that line has at most this many units.
INSET_UNITS = 2
# It touches the word before it (no space between them) when closer than this many sizes.
INSET_TOUCH = 0.15


def _fold_inset_pieces(segs: list[_Segment]) -> list[_Segment]:
    """Put a piece of a line drawn later into one of that line's word spaces back in it.

    Some writers draw a line's text first and a character or two of it afterwards (Word's
    "Figure 3" with its ":" written in a text object of its own); MuPDF then makes that
    piece a line of its own, which would be read as a block of its own after the line's
    paragraph. A short piece (at most :data:`INSET_UNITS` units) on another segment's
    baseline, in its style, lying wholly inside the space between two of its units, goes
    back into that segment there. A gap that wide (under :data:`SPLIT_GAP` sizes) holds no
    cell of a table or a side note, which stand further apart.
    """
    horizontal = [s for s in segs if s.direction == (1.0, 0.0)]
    pieces = [s for s in horizontal if len(s.units) <= INSET_UNITS]
    if not pieces:
        return segs
    by_line: dict[int, list[_Segment]] = {}
    for t in horizontal:
        if len(t.units) >= 2:
            by_line.setdefault(round(t.box[3]), []).append(t)
    folded: set[int] = set()
    for s in pieces:
        tol = 0.3 * s.size
        near = round(s.box[3])
        for t in (t for d in (-1, 0, 1) for t in by_line.get(near + d, ())):
            if t is s or id(t) in folded or (t.family, t.size) != (s.family, s.size):
                continue
            if abs(t.box[3] - s.box[3]) > tol or not t.box[0] < s.box[0] < s.box[2] < t.box[2]:
                continue
            k = next(
                (
                    k
                    for k in range(len(t.units) - 1)
                    if t.units[k].rect[2] <= s.box[0] + 0.5
                    and s.box[2] <= t.units[k + 1].rect[0] + 0.5
                ),
                None,
            )
            if k is None:
                continue
            units = list(s.units)
            if s.box[0] - t.units[k].rect[2] < INSET_TOUCH * s.size:
                units[0] = replace(units[0], glue=True)
            t.units[k + 1 : k + 1] = units
            t.chars += s.chars
            folded.add(id(s))
            break
    if not folded:
        return segs
    return [s for s in segs if id(s) not in folded]


# A gap this many font sizes wide may be a narrow gutter (ragged columns set close together).
GUTTER_GAP = 0.5
# Words are counted this many font sizes above and below the line to tell a gutter.
GUTTER_WINDOW = 15
# A gutter is crossed by at most this share of the words that end just left of it.
GUTTER_CROSSING = 0.1


class _Gutters:
    """Narrow column gutters: vertical white stripes that words end at but never cross.

    Ragged-right columns set a few points apart come out of MuPDF as one line across the
    gutter; the gap there is narrower than :data:`SPLIT_GAP` but, unlike a wide word space, the
    line just left of the next column's edge is crossed by (almost) no word above or below.
    """

    def __init__(self, units: list[_Unit]):
        self.units = sorted((u.rect for u in units), key=lambda r: r[1])
        self.tops = [r[1] for r in self.units]
        self.memo: dict[tuple[int, int], bool] = {}

    def between(self, last: _Unit, u: _Unit, size: float) -> bool:
        gap = u.rect[0] - last.rect[2]
        if gap < GUTTER_GAP * size:
            return False
        x = u.rect[0] - min(1.5, gap / 2)
        y = (u.rect[1] + u.rect[3]) / 2
        window = GUTTER_WINDOW * size
        key = (round(x), int(y // window))
        found = self.memo.get(key)
        if found is None:
            y0, y1 = (key[1] - 0.5) * window, (key[1] + 1.5) * window
            crossing = ending = 0
            lo, hi = bisect_left(self.tops, y0), bisect_right(self.tops, y1)
            for r in self.units[lo:hi]:
                if r[0] < x < r[2]:
                    crossing += 1
                elif x - 4 * size <= r[2] <= x:
                    ending += 1
            found = self.memo[key] = ending >= 5 and crossing <= GUTTER_CROSSING * ending
        return found


def _continues(
    cur: _Segment, u: _Unit, family: str, size: float, direction, key, split_gap: float = SPLIT_GAP
) -> bool:
    """Does unit ``u`` go on the line segment ``cur``?

    Vertical or slanted text keeps MuPDF's lines. Horizontal text goes on while it sits on
    the same baseline, to the right, without a wide gap or (at a narrower gap) a change of
    style; MuPDF's own line breaks do not count (justified text written word by word comes
    out of it as one line per word).
    """
    if direction != cur.direction:
        return False
    if direction != (1.0, 0.0):
        return key == (u.block, u.line)
    last = cur.units[-1]
    em = max(size, cur.size, 1.0)
    if abs(u.rect[3] - last.rect[3]) > 0.3 * em:
        return False
    gap = u.rect[0] - last.rect[2]
    if gap > split_gap * em or u.rect[2] < last.rect[0]:
        return False
    return (family, size) == (cur.family, cur.size) or gap <= STYLE_GAP * em


def _group(segs: list[_Segment], rot) -> list[_Group]:
    """Segments into blocks: same style and direction, overlapping across, one line apart."""
    groups: list[tuple[list[_Segment], tuple]] = []  # (segments, box so far)
    active: list[int] = []  # groups a later segment may still join
    ordered = sorted(segs, key=lambda s: (s.box[1], s.box[0]))
    followed = _followed_on_line(ordered)
    for seg in ordered:
        x0, y0, x1, y1 = seg.box
        best = None
        # Segments come top down: a horizontal block whose last line ended more than a line
        # gap above this one takes no more lines.
        active = [
            k
            for k in active
            if groups[k][0][0].direction != (1.0, 0.0)
            or y0 - groups[k][0][-1].box[3] <= LINE_GAP * groups[k][0][0].size
        ]
        for k in active:
            members, (bx0, _by0, bx1, _by1) = groups[k]
            head = members[0]
            if (head.family, head.size, head.direction) != (seg.family, seg.size, seg.direction):
                continue
            if seg.direction != (1.0, 0.0):
                if members[-1].units[0].block != seg.units[0].block:
                    continue
            elif id(members[-1]) in followed:
                # Its line goes on in another style (inline math, a bold term): the next line
                # follows that line's end, not this piece of its start.
                continue
            else:
                # Against the block's width, not its last line: a paragraph's short last
                # line and the indented first line of the next need not overlap.
                last = members[-1].box
                overlap = min(x1, bx1) - max(x0, bx0)
                if overlap < 0.5 * min(x1 - x0, bx1 - bx0):
                    continue
                if not -0.5 * seg.size <= y0 - last[3] <= LINE_GAP * seg.size:
                    continue
            best = k
        if best is None:
            active.append(len(groups))
            groups.append(([seg], seg.box))
        else:
            members, (bx0, by0, bx1, by1) = groups[best]
            members.append(seg)
            groups[best] = (members, (min(bx0, x0), min(by0, y0), max(bx1, x1), max(by1, y1)))
    groups = _join_line_pieces(groups)
    groups, credits = _split_credit_lines(groups, ordered)
    out = _blocks_of(groups, rot)
    for n in credits:
        # Read in the flow like a caption, left out of a drag between two pieces of text.
        out[n].block.region = "float"
    return out


# A credit line ends at its block's right edge and starts at least this many font sizes in.
CREDIT_INDENT = 4.0
# A closing credit paragraph has at most this many lines.
CREDIT_LINES = 3


# A piece of a line joins its paragraph when set at this share of the paragraph's size or more
# (and at most its inverse): a raised footnote marker or a heading is no piece of a line.
PIECE_SIZE_RATIO = 0.85


def _join_line_pieces(
    groups: list[tuple[list[_Segment], tuple]],
) -> list[tuple[list[_Segment], tuple]]:
    """Put the pieces of a paragraph's lines set in another style back into the paragraph.

    A justified line stretches its word spaces; where one falls between two styles (inline
    code in a fixed-pitch font, "Keywords:" set smaller than the keywords, a symbol), the
    line comes out in pieces, and a piece that opens or closes its line groups on its own,
    to be read after the whole paragraph it sits in. A group whose every line piece goes on
    (or is gone on from) on its line in one paragraph of two or more lines, with fewer
    characters than it, is part of that paragraph: its lines are merged into it, in line
    order and left to right on a line. Repeated so that a chain of pieces ("Let S",
    "= {w ∈ R^n}", "be a space ...") joins in full.
    """
    while True:
        owner = {id(m): k for k, (members, _box) in enumerate(groups) for m in members}
        linked: dict[int, set[int]] = {}
        for k, (members, _box) in enumerate(groups):
            for m in members:
                if m.after is not None and id(m.after) in owner:
                    linked.setdefault(id(m), set()).add(owner[id(m.after)])
                    linked.setdefault(id(m.after), set()).add(k)
        merge = None
        for k, (members, _box) in enumerate(groups):
            if members[0].direction != (1.0, 0.0):
                continue
            common = None
            for m in members:
                here = linked.get(id(m), set()) - {k}
                common = here if common is None else common & here
                if not common:
                    break
            for j in sorted(common or ()):
                target = groups[j][0]
                size = target[0].size
                if (
                    len(target) >= 2
                    and sum(m.chars for m in members) < sum(m.chars for m in target)
                    and PIECE_SIZE_RATIO * size <= members[0].size <= size / PIECE_SIZE_RATIO
                ):
                    merge = (k, j)
                    break
            if merge:
                break
        if merge is None:
            return groups
        k, j = merge
        pieces = groups[j][0] + groups[k][0]
        em = max(groups[j][0][0].size, 1.0)
        lines: list[list[_Segment]] = []
        for m in sorted(pieces, key=lambda m: m.box[3]):
            if lines and m.box[3] - lines[-1][0].box[3] <= 0.3 * em:
                lines[-1].append(m)
            else:
                lines.append([m])
        members = [m for line in lines for m in sorted(line, key=lambda m: m.box[0])]
        box = (
            min(m.box[0] for m in members),
            min(m.box[1] for m in members),
            max(m.box[2] for m in members),
            max(m.box[3] for m in members),
        )
        groups[j] = (members, box)
        del groups[k]


def _split_credit_lines(
    groups: list[tuple[list[_Segment], tuple]], segs: list[_Segment]
) -> tuple[list[tuple[list[_Segment], tuple]], list[int]]:
    """Split off a block's closing paragraph whose last line is set flush right.

    A copyright and licence line closing an abstract, or an attribution under a quotation,
    follows the text at its line spacing in its font, so it groups with it; but its last
    line is pushed to the right edge, which the last line of a paragraph of running text
    (left-aligned, justified or ragged) never is. That paragraph, from the line after the
    last one that ends short of the edge, is split off as its own block. The flush-right
    line must stand alone on its line (an equation's number or a table's last cell has
    something to its left) and follow at least two lines of text.

    Returns:
        the groups (split ones in place of the originals) and the indices of the split-off
        credit blocks among them.
    """
    out: list[tuple[list[_Segment], tuple]] = []
    credits: list[int] = []
    for members, box in groups:
        head = members[0]
        bx0, _by0, bx1, _by1 = box
        size = head.size
        split = None
        if head.direction == (1.0, 0.0) and len(members) >= 3:
            last = members[-1].box
            flush_right = last[2] >= bx1 - 0.5 * size and last[0] >= bx0 + CREDIT_INDENT * size
            alone = flush_right and not any(
                o is not members[-1]
                and min(o.box[3], last[3]) - max(o.box[1], last[1]) > 0
                and o.box[2] <= last[0] + 1
                and o.box[2] > bx0 - size
                for o in segs
            )
            # Running text here starts its lines at the block's left edge (not right-aligned).
            left = sum(1 for m in members[:-1] if m.box[0] <= bx0 + 2 * size)
            if alone and left >= (len(members) - 1) / 2:
                for k in range(len(members) - 2, -1, -1):
                    if members[k].box[2] < bx1 - 2 * size:  # the paragraph before ends here
                        split = k + 1
                        break
            if split is not None and len(members) - split > CREDIT_LINES:
                split = None
        if split is None or split < 2:
            out.append((members, box))
            continue
        for part in (members[:split], members[split:]):
            part_box = (
                min(m.box[0] for m in part),
                min(m.box[1] for m in part),
                max(m.box[2] for m in part),
                max(m.box[3] for m in part),
            )
            out.append((part, part_box))
        credits.append(len(out) - 1)
    return out, credits


def _blocks_of(groups: list[tuple[list[_Segment], tuple]], rot) -> list[_Group]:
    """Reading-order blocks of grouped segments (each with its box), numbered in this order."""
    out = []
    a, b, c, d, e, f = rot
    for n, (members, box) in enumerate(groups):
        x0, y0, x1, y1 = box
        xa, ya = a * x0 + c * y0 + e, b * x0 + d * y0 + f
        xb, yb = a * x1 + c * y1 + e, b * x1 + d * y1 + f
        dx, dy = members[0].direction
        chars = sum(m.chars for m in members)
        # A paragraph holding pieces of its lines set otherwise (:func:`_join_line_pieces`)
        # keeps the style most of its characters are set in, and counts its lines once.
        weight: dict[tuple[str, float], int] = {}
        for m in members:
            weight[(m.family, m.size)] = weight.get((m.family, m.size), 0) + m.chars
        family, size = max(weight, key=lambda k: weight[k])
        pieces = sum(1 for m in members if any(m.after is o for o in members))
        fx0, fy0, fx1, fy1 = members[0].box
        fxa, fya = a * fx0 + c * fy0 + e, b * fx0 + d * fy0 + f
        fxb, fyb = a * fx1 + c * fy1 + e, b * fx1 + d * fy1 + f
        # A raised footnote marker is written "^1": the marker is the "1".
        texts = (u.text.strip().lstrip("^_(") for m in members for u in m.units)
        first = next((t[0] for t in texts if t), "")
        out.append(
            _Group(
                Block(
                    id=n,
                    bbox=(min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)),
                    direction=(round(dx * a + dy * c, 3), round(dx * b + dy * d, 3)),
                    size=size,
                    chars=chars,
                    lines=len(members) - pieces,
                    first_char=first,
                    style=f"{family}@{size}",
                    first_line=(min(fxa, fxb), min(fya, fyb), max(fxa, fxb), max(fya, fyb)),
                ),
                members,
                box,
            )
        )
    return out


def _followed_on_line(ordered: list[_Segment]) -> set[int]:
    """ids of horizontal segments that another segment, not smaller, continues on the same
    line within a word space (a gutter is wider; segments sorted by top)."""
    out: set[int] = set()
    tops = [s.box[1] for s in ordered]
    for seg in ordered:
        if seg.direction != (1.0, 0.0):
            continue
        _x0, y0, x1, y1 = seg.box
        em = max(seg.size, 1.0)
        lo = bisect_left(tops, y0 - em)
        for other in ordered[lo : bisect_right(tops, y1)]:
            ox0, oy0, _ox1, oy1 = other.box
            if other is seg or other.direction != (1.0, 0.0) or other.size < 0.9 * seg.size:
                continue  # a raised footnote marker does not take the line's end
            level = min(y1, oy1) - max(y0, oy0) > 0.5 * min(y1 - y0, oy1 - oy0)
            if level and x1 - 0.5 <= ox0 <= x1 + STYLE_GAP * em:
                out.add(id(seg))
                break
    return out


# -- running heads and footers repeated across pages -------------------------------------------

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
    lines: dict[tuple[int, int], list] = {}
    for w in raw_words:
        if w[3] <= EDGE_BAND * height or w[1] >= (1 - EDGE_BAND) * height:
            lines.setdefault((w[5], w[6]), []).append(w)
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


def _mark_running(groups: list[_Group], raw_words: list, height: float, running: list) -> None:
    """Set ``Block.running`` on short blocks whose every word repeats on a nearby page."""
    seen: dict[str, list[float]] = {}
    for text, y, _ in running:
        seen.setdefault(text, []).append(y)
    matched: set = set()
    for text, y, boxes in edge_lines(raw_words, height):
        if any(abs(y - y2) <= EDGE_SLACK for y2 in seen.get(text, ())):
            matched |= boxes
    if not matched:
        return
    for g in groups:
        units = [tuple(u.rect) for seg in g.segments for u in seg.units]
        if g.block.lines <= 2 and all(r in matched for r in units):
            g.block.running = True


# -- figures, tables and boxes from the page's drawings ----------------------------------------

# A caption opens with its label and number, then punctuation or the end of its line: "Figure 3:",
# "Fig. 2.", "Table 1 |", "TABLE II". "Table 1 summarises ..." is running text.
CAPTION_LABEL = re.compile(
    r"^(fig(ure)?|tab(le)?|chart|plate|exhibit|listing|algorithm|scheme|图|表)\.?\s*"
    r"[0-9IVXivx]+[a-z]?(\s*[.:|—–]|$)",
    re.IGNORECASE,
)
# Page marks that draw something (text, clips and the like are left out).
GRAPHIC_KINDS = ("fill-path", "stroke-path", "fill-image", "fill-imgmask", "fill-shade")
# More drawings than this on a page (a plot of thousands of points) and regions are not sought.
MAX_GRAPHICS = 4000
# A figure's region holding a paragraph (this many lines, this many characters a line on
# average) is a frame or column rules around running text; a table column's cells are short.
FRAME_LINES = 4
FRAME_LINE_CHARS = 30


def _near(r, q, gap: float) -> bool:
    return q[0] - gap <= r[2] and r[0] <= q[2] + gap and q[1] - gap <= r[3] and r[1] <= q[3] + gap


def _cluster(rects: list, gap: float) -> list[list[float]]:
    """Rectangles merged while any two lie within ``gap`` of each other."""
    out: list[list[float]] = []
    for r in sorted(rects, key=lambda r: r[1]):
        r = list(r)
        merged = True
        while merged:
            merged = False
            for k, c in enumerate(out):
                if _near(r, c, gap):
                    r = [min(r[0], c[0]), min(r[1], c[1]), max(r[2], c[2]), max(r[3], c[3])]
                    out.pop(k)
                    merged = True
                    break
        out.append(r)
    return out


def _graphics(page: pymupdf.Page, em: float) -> tuple[list, list, list]:
    """Figure regions (images and drawings grouped), filled boxes and rules, unrotated points.

    Regions smaller than two ems either way are rules and underlines; larger than half the
    page, a background or a page frame. A box is a filled rectangle of a colour other than
    white; colours are read only when such a rectangle is drawn. A rule is a mark at most
    :data:`RULE_THICKNESS` points thick and at least two ems long.
    """
    with PYMUPDF_LOCK:
        mb = page.mediabox
        log = page.get_bboxlog()
    half = 0.5 * mb.width * mb.height
    marks = [tuple(r) for kind, r in log if kind in GRAPHIC_KINDS]
    marks = [r for r in marks if (r[2] - r[0]) * (r[3] - r[1]) < half]
    if not marks or len(marks) > MAX_GRAPHICS:
        return [], [], []
    rules = [r for r in marks if r[3] - r[1] <= RULE_THICKNESS and r[2] - r[0] >= 2 * em]

    def sized(r, w: float, h: float) -> bool:
        return r[2] - r[0] >= w * em and r[3] - r[1] >= h * em

    boxes = []
    if any(sized(r, 3, 1) for r in marks):
        # The C-level paths: get_drawings() makes Python objects of every point (40 ms a page).
        with PYMUPDF_LOCK:
            drawings = page.get_cdrawings()
        unseen, white, inked = [], [], []
        for d in drawings:
            fill = d.get("fill")
            r = tuple(d["rect"])
            if _invisible(d):
                # Drawn with no ink (opacity 0: a clip-like frame of a plotting tool): it
                # neither groups a figure nor boxes text, however large.
                unseen.append(r)
                continue
            if _paper_white(d):
                white.append(r)
                continue
            inked.append(r)
            small = (r[2] - r[0]) * (r[3] - r[1]) < half
            if fill and min(fill) < 0.95 and sized(r, 3, 1.5) and small:
                boxes.append(r)
        unseen += _text_backgrounds(white, marks, inked, unseen)
        if unseen:
            marks = [r for r in marks if not any(_same_rect(r, q) for q in unseen)]
    figures = [r for r in _cluster(marks, 0.5 * em) if sized(r, 2, 2)]
    return figures, boxes, rules


def _paper_white(d: dict) -> bool:
    """A path only filled, in white: on a white page it draws nothing to be seen."""
    fill = d.get("fill")
    return d.get("type", "") == "f" and bool(fill) and min(fill) >= 0.95


def _text_backgrounds(white: list, marks: list, inked: list, unseen: list) -> list:
    """The white rectangles with nothing drawn on them: backgrounds of text alone.

    The listings package puts each line of code on a white rectangle; two stacked measure
    like a figure, but they hold only text. A plotting tool's white background holds the
    plot's lines and ticks, and a shape painted white under its ink (an arrowhead) holds
    that ink: they stay marks, so a figure keeps its labels and its parts together.

    Args:
        white: rectangles of paths only filled in white.
        marks: the page's marks (images too), the white and unseen paths among them.
        inked: rectangles of the paths drawn in ink.
        unseen: paths drawn with no ink.
    """
    if not white:
        return []
    drawn = [r for r in marks if not any(_same_rect(r, q) for q in white + unseen)] + inked
    centres = [((r[0] + r[2]) / 2, (r[1] + r[3]) / 2) for r in drawn]
    return [
        w for w in white if not any(w[0] <= x <= w[2] and w[1] <= y <= w[3] for x, y in centres)
    ]


def _same_rect(r, q, slack: float = 1.0) -> bool:
    return all(abs(a - b) <= slack for a, b in zip(r, q, strict=True))


def _mark_regions(groups: list[_Group], page: pymupdf.Page) -> None:
    """Set ``Block.region``: ``box`` inside a filled box, ``float`` for figure and table
    contents (inside a figure region) and for a caption beside one.

    A region holding a paragraph (a frame or column rules around running text) is no figure.
    """
    em = max(text_size(g.block for g in groups) or 10.0, 4.0)
    figures, boxes, rules = _graphics(page, em)
    if not figures and not boxes:
        if rules:
            _mark_footnote_rules(groups, rules, page.rect.height)
        return

    def inside(g: _Group, r) -> bool:
        cx, cy = (g.box[0] + g.box[2]) / 2, (g.box[1] + g.box[3]) / 2
        return r[0] - 1 <= cx <= r[2] + 1 and r[1] - 1 <= cy <= r[3] + 1

    def paragraph(g: _Group) -> bool:
        # In the text's size: a document's page shown small inside a figure holds paragraphs.
        return (
            g.block.lines >= FRAME_LINES
            and g.block.chars >= FRAME_LINE_CHARS * g.block.lines
            and g.block.size >= TINY_RATIO * em
        )

    figures = [r for r in figures if not any(inside(g, r) and paragraph(g) for g in groups)]
    if figures:
        groups[:] = _split_fused_captions(
            groups, figures, em, tuple(page.rotation_matrix), paragraph
        )
    if rules:
        _mark_footnote_rules(groups, rules, page.rect.height)
    for g in groups:
        if any(inside(g, r) for r in boxes):
            g.block.region = "box"
        elif any(inside(g, r) for r in figures):
            g.block.region = "float"
        elif not paragraph(g) and CAPTION_LABEL.match(_first_line(g)):
            x0, y0, x1, y1 = g.box
            if any(
                min(x1, r[2]) > max(x0, r[0])
                and (-em <= y0 - r[3] <= 4 * em or -em <= r[1] - y1 <= 4 * em)
                for r in figures
            ):
                g.block.region = "float"


# A rule is drawn at most this many points thick.
RULE_THICKNESS = 1.5
# A footnote rule spans at most this share of the width of the notes under it.
FOOTNOTE_RULE_SHARE = 0.6


def _mark_footnote_rules(groups: list[_Group], rules: list, height: float) -> None:
    """Set ``Block.ruled`` on a block right under a footnote rule.

    A column's footnotes are set off from its text by a short rule drawn at the column's
    left edge, over the first note (STOC's notes are set in the text's own size, so the
    rule is all that tells them from it). The rule lies in the lower half of the page, in
    the space above the block (not right under a line of text, as a link's underline does,
    nor across a block's lines, as a table's rule does), starts at
    the block's left edge and spans at most :data:`FOOTNOTE_RULE_SHARE` of its width; the
    block's first line starts within two of its sizes under it.
    """
    for r in rules:
        if r[1] < 0.5 * height:
            continue
        if any(
            g.box[1] < r[1] - 0.5 * g.block.size
            and g.box[3] >= r[1] - 0.3 * g.block.size
            and g.box[0] < r[2]
            and r[0] < g.box[2]
            for g in groups
        ):
            continue  # under a line of text or across a block: an underline, a table's rule
        for g in groups:
            x0, y0, x1, _y1 = g.box
            size = g.block.size
            if (
                abs(r[0] - x0) <= size
                and r[2] - r[0] <= FOOTNOTE_RULE_SHARE * (x1 - x0)
                and r[3] - 0.5 * size <= y0 <= r[3] + 2 * size
            ):
                g.block.ruled = True


# A caption sits at most this many ems under its figure (the same reach as beside one).
CAPTION_REACH = 4.0
# A caption's paragraph ends at its first line that stops this many sizes short of the block's
# right edge (a centred or ragged last line; justified running text reaches the edge).
CAPTION_SHORT = 1.0
# A centred line (in this many sizes from both edges) ends its caption too.
CAPTION_CENTRED = 0.5
# At least this many lines of running text are left under a caption split off.
CAPTION_REST = 2


def _split_fused_captions(
    groups: list[_Group], figures: list, em: float, rot: tuple, paragraph
) -> list[_Group]:
    """Split a caption off the paragraph it was grouped with, under its figure.

    A caption set in the text's font and size, with no more space under it than a line's
    spacing (IPAC's "Figure 2: ..." over the text resuming in its column), groups with the
    paragraph below it, and the block would be read as running text, caption and all. When a
    block's first line opens with a caption's label and a figure ends just above it (within
    :data:`CAPTION_REACH` ems, across the same width), its lines down to the first one that
    ends short of the block's right edge, or is centred in it, are the caption: they become a
    block of their own, read like a caption (``float``); the rest stays running text. Only a
    block that holds a paragraph is split, and only when at least :data:`CAPTION_REST` lines
    of it are left: a caption standing alone (its title line short, its legend under it) is
    read as one already.

    Args:
        groups: the page's blocks.
        figures: the figure regions (unrotated points).
        em: the page's text size.
        rot: the page's rotation matrix.
        paragraph: tells whether a block holds a paragraph of running text.
    """
    out: list[_Group] = []
    next_id = max((g.block.id for g in groups if isinstance(g.block.id, int)), default=0) + 1
    for g in groups:
        members = g.segments
        head = members[0]
        x0, _y0, x1, _y1 = g.box
        if (
            len(members) < 2
            or head.direction != (1.0, 0.0)
            or g.block.region
            or not paragraph(g)
            or not CAPTION_LABEL.match(_first_line(g))
            or not any(
                min(x1, r[2]) > max(x0, r[0]) and -em <= head.box[1] - r[3] <= CAPTION_REACH * em
                for r in figures
            )
        ):
            out.append(g)
            continue
        short = next(
            (
                m
                for m in members
                if m.box[2] < x1 - CAPTION_SHORT * m.size
                or min(m.box[0] - x0, x1 - m.box[2]) >= CAPTION_CENTRED * m.size
            ),
            None,
        )
        bottom = short.box[3] - 0.3 * short.size if short is not None else None
        caption = [m for m in members if bottom is not None and m.box[1] < bottom]
        rest = [m for m in members if bottom is None or m.box[1] >= bottom]
        if not caption or len({round(m.box[1]) for m in rest}) < CAPTION_REST:
            out.append(g)
            continue
        parts = []
        for part in (caption, rest):
            box = (
                min(m.box[0] for m in part),
                min(m.box[1] for m in part),
                max(m.box[2] for m in part),
                max(m.box[3] for m in part),
            )
            parts.append((part, box))
        cap, body = _blocks_of(parts, rot)
        cap.block.id, body.block.id = next_id, g.block.id
        next_id += 1
        cap.block.region = "float"
        out += [cap, body]
    return out


# PyMuPDF's span flag for a font whose descriptor says it is fixed-pitch (monospaced).
FIXED_PITCH_FLAG = 8


def _mark_fixed_pitch(groups: list[_Group], info: dict) -> None:
    """Set ``Block.fixed`` where most of a block's characters are in a fixed-pitch font."""
    spans: dict[tuple[int, int], list] = {}
    for b in info.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            spans[(b["number"], ln)] = [
                s["bbox"]
                for s in line["spans"]
                if s["flags"] & FIXED_PITCH_FLAG and s["text"].strip()
            ]
    if not any(spans.values()):
        return  # no fixed-pitch text on the page (most pages)
    for g in groups:
        fixed = total = 0
        for seg in g.segments:
            for u in seg.units:
                cx = (u.rect[0] + u.rect[2]) / 2
                total += len(u.text)
                if any(r[0] <= cx <= r[2] for r in spans.get((u.block, u.line), ())):
                    fixed += len(u.text)
        g.block.fixed = 2 * fixed > total


def _first_line(g: _Group) -> str:
    return " ".join(u.text for u in g.segments[0].units)


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


def _lines_with_scripts(info: dict) -> set[tuple[int, int]]:
    """(block, line) of the lines holding a smaller span raised or lowered off the baseline."""
    out = set()
    for b in info.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            spans = [sp for sp in line["spans"] if sp["text"].strip()]
            if len(spans) < 2:
                continue
            big = max(spans, key=lambda sp: sp["size"])
            y, size = big["origin"][1], big["size"]
            if any(
                sp["size"] < 0.9 * size and abs(sp["origin"][1] - y) > 0.12 * sp["size"]
                for sp in spans
            ):
                out.add((b["number"], ln))
    return out


def _write_scripts(units: list[_Unit], raw: dict, lines: set[tuple[int, int]]) -> None:
    """Rewrite the words of those lines with their sub- and superscripts (``d_k``)."""
    chars: dict[tuple[int, int], list] = {}
    for b in raw.get("blocks", []):
        for ln, line in enumerate(b.get("lines", [])):
            if (b["number"], ln) in lines:
                chars[(b["number"], ln)] = [
                    (c["c"], sp["size"], c["origin"][1], (c["bbox"][0] + c["bbox"][2]) / 2)
                    for sp in line["spans"]
                    for c in sp["chars"]
                    if not c["c"].isspace()
                ]
    for u in units:
        here = chars.get((u.block, u.line))
        if not here:
            continue
        mine = [c for c in here if u.rect[0] - 0.5 <= c[3] <= u.rect[2] + 0.5]
        if "".join(c[0] for c in mine) == u.text:  # the same characters, only marked
            u.text = script_text([c[:3] for c in mine])


def _units_from_rawdict(raw: dict) -> list[_Unit]:
    """Words split at spaces, with every CJK character its own unit (glued to its neighbours)."""
    units: list[_Unit] = []
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
                units.append(_Unit((x0, y0, x1, y1), text, b["number"], ln, glued))
    return units
