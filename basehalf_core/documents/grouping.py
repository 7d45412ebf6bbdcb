"""Line segments grouped into a page's text blocks (``line_pieces`` puts back what groups apart)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.line_pieces import (
    BULLETS,
    PIECE_SIZE_RATIO,
    attach_bullets,
    join_line_pieces,
    split_credit_lines,
)
from basehalf_core.documents.lines import STYLE_GAP
from basehalf_core.documents.raw_text import _Segment, box_of
from basehalf_core.documents.text_blocks import Block, text_size


@dataclass
class Group:
    block: Block
    segments: list[_Segment]
    box: tuple = (0.0, 0.0, 0.0, 0.0)  # unrotated points, as the page's drawings are


# Lines join one block when the space between them is at most this many font sizes.
LINE_GAP = 1.0
# A line whose box reaches more than this many font sizes up into the box of the line above
# stands level with it (a piece of the same line).
LINE_OVERLAP = 0.5
# A born-digital line's box is about this many font sizes tall. Where the page's boxes overlap
# their neighbours' (:func:`_overlapping_lines`), lines are measured middle to middle against
# the same bounds: a line goes on from the one above when its middle lies between
# LINE_HEIGHT - LINE_OVERLAP and LINE_HEIGHT + LINE_GAP sizes lower.
LINE_HEIGHT = 1.2
LINE_PITCH = LINE_HEIGHT - LINE_OVERLAP
# The page's boxes overlap their neighbours' when at least this many pairs of lines, and
# most of them, do.
OVERLAP_LINES = 6
# ... or, for one style, at least this many of its own pairs, and most of them.
OVERLAP_STYLE_LINES = 4


def group(segs: list[_Segment], rot) -> list[Group]:
    """Segments into blocks: same style and direction, overlapping across, one line apart."""
    groups: list[tuple[list[_Segment], tuple]] = []  # (segments, box so far)
    active: list[int] = []  # groups a later segment may still join
    ordered = sorted(segs, key=lambda s: (s.box[1], s.box[0]))
    followed = _followed_on_line(ordered)
    overlapping = _overlapping_lines(ordered)
    display: set[int] = set()  # groups begun by a piece set off from a paragraph
    numbered = {k for k, m in enumerate(ordered) if _EQUATION_NUMBER.fullmatch(segment_text(m))}
    numbers = [ordered[k].box for k in sorted(numbered)]
    body_size = text_size(ordered)
    for n, seg in enumerate(ordered):
        if drawn_with_characters([seg]):
            groups.append(([seg], seg.box))  # a rule: it joins no paragraph, none joins it
            continue
        x0, y0, x1, y1 = seg.box
        # An equation's number goes with its display: no block holding neither takes it.
        its_display = _display_left_of(seg, ordered, n) if n in numbered else []
        best = None
        set_off = False
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
            if (head.family, head.size, head.direction) != (
                seg.family,
                seg.size,
                seg.direction,
            ) and not (_carries(seg, head) and _opens_line(seg, ordered, bx0)):
                continue
            if seg.direction != (1.0, 0.0):
                if members[-1].units[0].block != seg.units[0].block:
                    continue
            elif any(all(o is not m for m in members) for o in its_display):
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
                if (
                    last[2] < bx1 - ENDED * seg.size
                    and x0 > max(bx0, last[0]) + ENDED * seg.size
                    and abs((x0 + x1) - (bx0 + bx1)) / 2 > seg.size
                    and x1 >= bx1 - seg.size
                    and x1 - x0 >= COLUMN_LINE * seg.size
                    and sum(abs(m.box[0] - bx0) <= seg.size for m in members) >= 3
                    and _column_under(seg, ordered)
                ):
                    # After a paragraph's short last line, a line starting far in and not
                    # centred, as long as a column's and reaching the block's right edge,
                    # with lines starting where it starts under it, is another column's
                    # first (Jurnal Infotel's right column under the abstract's keywords
                    # line), not the next paragraph's: a paragraph of three lines or more.
                    # A credit line set flush right is one line: it joins, to be split off
                    # (split_credit_lines); a table's cells are short.
                    continue
                if (
                    x1 > bx1 + PAST_EDGE * seg.size
                    and bx1 - bx0 >= COLUMN_LINE * seg.size  # a column's, not a table's cells
                    and _justified(members, seg.size)
                ):
                    # Far past the right edge its lines are justified to: no line of this
                    # paragraph (IEEE's copyright line, centred across the page's foot under
                    # the left column's footnotes, joined them and closed the gutter).
                    continue
                if x0 >= last[2] and _full_line(last, members, seg.size):
                    # Clear right of a full line of the block's column: the next column's
                    # line, not this paragraph's (an abstract across the page, set one line
                    # over the two columns, spans both, and took in both their lines).
                    continue
                if (
                    seg.size > TITLE_SIZE_RATIO * body_size
                    and min(x1, last[2]) <= max(x0, last[0])
                    and last[0] - bx0 > seg.size
                ):
                    # Set larger than the text and clear of the line above, which is set in
                    # from the block's edge (a centred row of title matter): no paragraph's
                    # next line. USENIX's "Abstract", flush left under the last author's
                    # centred affiliation, joined the authors' block and stretched it down
                    # into the columns. (Text-sized lines keep the block's width: a table's
                    # rows under its caption.)
                    continue
                if numbers and _set_off(seg, members, bx0, bx1, numbers):
                    set_off = True
                    continue
                if k in display and bx0 - x0 > DISPLAY_INDENT * seg.size:
                    continue  # the text goes on under the display, not in it
                if (seg.family, seg.size) in overlapping:
                    pitch = (y0 + y1 - last[1] - last[3]) / 2
                    if not LINE_PITCH <= pitch / seg.size <= LINE_HEIGHT + LINE_GAP:
                        continue
                elif not -LINE_OVERLAP * seg.size <= y0 - last[3] <= LINE_GAP * seg.size:
                    continue
            best = k
        if best is None:
            if set_off:
                display.add(len(groups))
            active.append(len(groups))
            groups.append(([seg], seg.box))
        else:
            members, (bx0, by0, bx1, by1) = groups[best]
            members.append(seg)
            groups[best] = (members, (min(bx0, x0), min(by0, y0), max(bx1, x1), max(by1, y1)))
    groups = attach_bullets(groups)
    groups = join_line_pieces(groups)
    groups, credits = split_credit_lines(groups, ordered)
    out = blocks_of(groups, rot)
    for n in credits:
        # Read in the flow like a caption, left out of a drag between two pieces of text.
        out[n].block.region = "float"
    for g in out:
        if drawn_with_characters(g.segments):
            g.block.region = "float"  # a rule, not text: left out like a figure's lines
    return out


# A magazine's rule drawn with characters above and below a pull quote ("- - - - -", "____"):
# at least this many of one mark, and nothing else.
RULE_MARKS = frozenset("-–—_=*~.·•")
RULE_MIN_MARKS = 8


def _display_left_of(seg: _Segment, ordered: list[_Segment], n: int) -> list[_Segment]:
    """The pieces standing level left of the equation's number ``seg`` (the ``n``-th of
    ``ordered``): its display.

    Acta Acustica sets "r_v = a ρω/η," between two lines of a paragraph with "(4)" at the
    column's right edge: the number joined the paragraph as a line of it, the line under the
    display joined the number, and the display, grouped on its own, was read after the
    whole paragraph. A block holding none of these pieces takes no number; the text goes on
    under both.
    """
    x0, y0, _x1, y1 = seg.box
    height = y1 - y0
    # ``ordered`` goes by top: the pieces level with ``seg`` lie on either side of it.
    near = []
    for step in (-1, 1):
        j = n + step
        while 0 <= j < len(ordered) and abs(ordered[j].box[1] - y0) <= 2 * height:
            near.append(ordered[j])
            j += step
    return [
        o
        for o in near
        if min(o.box[3], y1) - max(o.box[1], y0) >= 0.5 * height
        and o.box[2] <= x0
        and o.direction == seg.direction
    ]


def drawn_with_characters(members: list[_Segment]) -> bool:
    """Whether these lines are a rule set as a row of one mark, with no word in them."""
    marks = "".join(u.text for m in members for u in m.units).replace(" ", "")
    return len(marks) >= RULE_MIN_MARKS and set(marks) <= {marks[0]} and marks[0] in RULE_MARKS


# Title matter is set larger than this share of the text's size.
TITLE_SIZE_RATIO = 1.05


# A paragraph's last line ends at least this many sizes short of its block's right edge; the
# next paragraph starts at most this many sizes in (its indent).
ENDED = 3.0
# A column's line is at least this many sizes long.
COLUMN_LINE = 12.0


def _column_under(seg: _Segment, ordered: list[_Segment]) -> bool:
    """Does a line start where ``seg`` starts, its next line down (a column goes on)?"""
    x0, y0, _x1, y1 = seg.box
    return any(
        o is not seg
        and abs(o.box[0] - x0) <= 0.5 * seg.size
        and o.box[1] > y0 + 0.5 * seg.size
        and o.box[1] - y1 <= LINE_GAP * seg.size
        for o in ordered
    )


# A line reaching this many sizes past a justified block's right edge is not its next line;
# a block is justified when this many lines or more end at one edge.
PAST_EDGE = 4.0
JUSTIFIED_LINES = 3


def _justified(members: list[_Segment], size: float) -> bool:
    """Are the block's lines justified: three or more, and half of them or more, ending at
    its right edge (within half a size)? Ragged lines end where their words do; a block of
    notes ends each of its paragraphs short."""
    right = max(m.box[2] for m in members)
    flush = sum(m.box[2] >= right - 0.5 * size for m in members)
    return flush >= JUSTIFIED_LINES and 2 * flush >= len(members)


def _full_line(last: tuple, members: list[_Segment], size: float) -> bool:
    """Does the block's last line reach its column's right edge: as far as the lines before
    it that start where it starts (at least one), within half a size?"""
    column = [
        m.box[2] for m in members[-4:-1] if abs(m.box[0] - last[0]) <= size and m.box[3] < last[3]
    ]
    return bool(column) and last[2] >= max(column) - 0.5 * size


# A line opening in another style goes on a paragraph when at least this many of its words
# are set in the paragraph's style.
CARRIED_WORDS = 2


def _carries(seg: _Segment, head: _Segment) -> bool:
    """Is ``seg`` a line of ``head``'s paragraph that opens in another style?

    A segment takes its first word's style, so a caption's line opening with inline code
    ("[t] with the sidecaption", the bracket and the command in a fixed-pitch font) stood as
    a block of its own, and the caption's next line, a line gap further down, began another:
    a drag inside the caption lost both. Two words of three letters or more in the
    paragraph's own font and size make it the paragraph's (a display equation's "max" or
    "sin" is one such word, and its gap above sets it off anyway), when it opens in about
    the paragraph's size and not with a bullet (a list's items are attached by
    :func:`attach_bullets`).
    """
    return (
        seg.direction == head.direction == (1.0, 0.0)
        # it opens its line: a piece after another ("= 0.02, and some" after "10^(−4) to
        # β_T") joins its paragraph with the rest of its line (join_line_pieces)
        and seg.after is None
        and seg.units[0].text not in BULLETS  # a bullet opens an item of its own
        # in the paragraph's size: a line opening with a fraction's small denominator is math
        and PIECE_SIZE_RATIO * head.size <= seg.size <= head.size / PIECE_SIZE_RATIO
        and seg.words_in.get((head.family, head.size), 0) >= CARRIED_WORDS
    )


def _opens_line(seg: _Segment, ordered: list[_Segment], left: float) -> bool:
    """Does ``seg`` open its line, nothing level with it between ``left`` and its start?

    A line of math written piece by piece ("0", "≤d_(l−1)", "< d_l. This work considers")
    carries no link from piece to piece; its last piece alone is no line of the paragraph.
    """
    x0, y0, _x1, y1 = seg.box
    size = seg.size
    return not any(
        o is not seg
        # level with it: a subscript drops a piece's box, so overlap, not the same bottom
        and min(y1, o.box[3]) - max(y0, o.box[1]) >= 0.5 * (y1 - y0)
        and left - 0.5 * size <= o.box[2] <= x0 + 0.1 * size
        for o in ordered
    )


# A display's piece (an equation's part set right of the middle) starts this many sizes right
# of a paragraph's left edge, is at most this share of its width, and follows a line that
# stops at least this many sizes short of its right edge (the sentence goes on in the display).
DISPLAY_INDENT = 3.0
DISPLAY_WIDTH = 0.25
DISPLAY_SHORT = 3.0
# A display equation's number, "(5)" or "(2.3a)", set at the column's right edge.
_EQUATION_NUMBER = re.compile(r"\(\d+(?:\.\d+)*[a-z]?\)")
# Signs that only mathematics sets: operators, relations, Greek letters.
_MATH = frozenset("∂∑∏∫√∇∞±×÷=<>≤≥≈∼≡≠∈∝") | frozenset(map(chr, range(0x391, 0x3CA)))


def segment_text(seg: _Segment) -> str:
    """The words of ``seg`` as extracted, one space apart."""
    return " ".join(u.text for u in seg.units)


def _set_off(
    seg: _Segment, members: list[_Segment], left: float, right: float, numbers: list[tuple]
) -> bool:
    """Is ``seg`` a piece of a display equation set into a paragraph's width, not its next line?

    A display equation's pieces (REVTeX's fraction "∂ln f0 / ∂ln q" at the right of its
    line) can come out in the text's font and lie within the paragraph's width, one line
    under its last; joined to it, the paragraph's block enclosed the equation's other pieces
    and was read before them, and so was the paragraph under the equation. A narrow piece
    holding a sign of mathematics, starting far right of the paragraph's left edge, level
    with an equation number at the paragraph's right edge, right under a line that starts at
    the left edge and stops short of the right one without closing its sentence ("... which
    in Fourier space reads"), in a block of two or more lines at the edge, is set off: the
    text under the display goes on in a block of its own.
    """
    size = seg.size
    x0, y0, x1, y1 = seg.box
    last = members[-1].box
    if (
        x0 - left <= DISPLAY_INDENT * size
        or x1 - x0 > DISPLAY_WIDTH * (right - left)
        or last[0] - left > 2 * size
        or right - last[2] < DISPLAY_SHORT * size
        or not _MATH.intersection(segment_text(seg))
        or segment_text(members[-1]).rstrip().endswith((".", "!", "?", ":"))
    ):
        return False
    if not any(
        n[0] >= x1 and abs(n[2] - right) <= size and min(n[3], y1) - max(n[1], y0) > 0
        for n in numbers
    ):
        return False
    return len({round(m.box[1]) for m in members if m.box[0] - left <= 2 * size}) >= 2


def blocks_of(groups: list[tuple[list[_Segment], tuple]], rot) -> list[Group]:
    """Reading-order blocks of grouped segments (each with its box), numbered in this order."""
    out = []
    a, b, c, d, e, f = rot
    for n, (members, box) in enumerate(groups):
        x0, y0, x1, y1 = box
        xa, ya = a * x0 + c * y0 + e, b * x0 + d * y0 + f
        xb, yb = a * x1 + c * y1 + e, b * x1 + d * y1 + f
        dx, dy = members[0].direction
        chars = sum(m.chars for m in members)
        # A paragraph holding pieces of its lines set otherwise (:func:`join_line_pieces`)
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
        word = next((u.text for m in members for u in m.units if u.text.strip()), "")
        last = next(
            (u.text for m in reversed(members) for u in reversed(m.units) if u.text.strip()), ""
        )
        out.append(
            Group(
                Block(
                    id=n,
                    bbox=(min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)),
                    direction=(round(dx * a + dy * c, 3), round(dx * b + dy * d, 3)),
                    size=size,
                    chars=chars,
                    lines=len(members) - pieces,
                    first_char=first,
                    first_word=word,
                    last_word=last,
                    style=f"{family}@{size}",
                    first_line=(min(fxa, fxb), min(fya, fyb), max(fxa, fxb), max(fya, fyb)),
                    ink_right=_ink_right(members) if tuple(rot) == (1, 0, 0, 1, 0, 0) else None,
                    numbered=sum(
                        len(m.units) > 1 and bool(SECTION_NUMBER.fullmatch(m.units[0].text))
                        for m in members
                    ),
                ),
                members,
                box,
            )
        )
    return out


# Full-width punctuation that closes a CJK phrase: set in the left half of its cell.
CJK_CLOSERS = frozenset("，。、；：！？）」』】〉》〕”’")


def _ink_right(members: list[_Segment]) -> float | None:
    """The right edge of these lines' ink, each closing punctuation's blank half left out;
    None when no line ends with one (the box's edge is the ink's)."""
    if not any(m.units[-1].text[-1:] in CJK_CLOSERS for m in members):
        return None
    return max(
        m.box[2] - (0.5 * m.size if m.units[-1].text[-1:] in CJK_CLOSERS else 0.0) for m in members
    )


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


def _overlapping_lines(ordered: list[_Segment]) -> set[tuple]:
    """The styles (family, size) whose line boxes reach into the boxes of the lines under
    them: all of the page's when most of its lines do, else those that do among their own.

    An OCR text layer sets its invisible words in a font whose boxes are half as tall again
    as the line spacing the scan shows, so every line's box overlaps the next one's by more
    than :data:`LINE_OVERLAP` sizes; measured by box edges, each line would stand level
    with the line above, and a column would group as two blocks of every other line, read
    one after the other. Each horizontal line is paired with the nearest line under it in
    its style, overlapping it across, whose middle lies :data:`LINE_PITCH` to two sizes
    lower; the page's boxes overlap when at least :data:`OVERLAP_LINES` pairs, and more
    than half of them, overlap that much; a style's do when at least
    :data:`OVERLAP_STYLE_LINES` of its own pairs, and more than half of them, do. Born-digital
    boxes (about 1.2 sizes tall, the lines at least that far apart) touch at most.
    """
    tops = [s.box[1] for s in ordered]
    pairs = overlaps = 0
    by_style: dict[tuple, list[int]] = {}  # (family, size) -> [pairs, overlaps]
    for seg in ordered:
        if seg.direction != (1.0, 0.0):
            continue
        x0, y0, x1, y1 = seg.box
        em = max(seg.size, 1.0)
        mid = (y0 + y1) / 2
        below = None
        for other in ordered[bisect_left(tops, y0) : bisect_right(tops, y1 + 2 * em)]:
            ox0, oy0, ox1, oy1 = other.box
            pitch = (oy0 + oy1) / 2 - mid
            if (
                other is seg
                or (other.family, other.size, other.direction) != (seg.family, seg.size, (1.0, 0.0))
                or not LINE_PITCH * em <= pitch <= 2 * em
                or min(x1, ox1) - max(x0, ox0) < 0.5 * min(x1 - x0, ox1 - ox0)
            ):
                continue
            if below is None or pitch < (below.box[1] + below.box[3]) / 2 - mid:
                below = other
        if below is None:
            continue
        pairs += 1
        overlap = below.box[1] - y1 < -LINE_OVERLAP * em
        overlaps += overlap
        counts = by_style.setdefault((seg.family, seg.size), [0, 0])
        counts[0] += 1
        counts[1] += overlap
    if pairs >= OVERLAP_LINES and 2 * overlaps > pairs:
        return set(by_style)
    # A font whose boxes are taller than its lines' spacing (Canva's Saira: 15.7-point boxes
    # 9.8 points apart) among others that are not: measured in its own lines.
    return {k for k, (n, o) in by_style.items() if n >= OVERLAP_STYLE_LINES and 2 * o > n}


def split_group(
    g: Group, first: list[_Segment], second: list[_Segment], rot, new_id: int, new_part: int
) -> tuple[Group, Group]:
    """``g`` cut in two, its segments ``first`` and ``second``: the part ``new_part`` (0 or
    1) takes ``new_id``, the other keeps ``g``'s id (a caption split off its paragraph, a
    running head cut off a column's first line)."""
    a, b = blocks_of([(part, box_of(part)) for part in (first, second)], rot)
    ids = [g.block.id, g.block.id]
    ids[new_part] = new_id
    a.block.id, b.block.id = ids
    return a, b


def next_block_id(groups: list[Group]) -> int:
    """An id no block of ``groups`` has."""
    return max((g.block.id for g in groups if isinstance(g.block.id, int)), default=0) + 1
