"""Pieces grouped apart that belong to one block, put back after grouping.

A list's bullets hung left of their items, pieces of a paragraph's lines split off by their
style, and the credit line closing a paragraph (split off it the other way).
"""

from __future__ import annotations

import re

from basehalf_core.documents.raw_text import _Segment, box_of

# A credit line ends at its block's right edge and starts at least this many font sizes in.
CREDIT_INDENT = 4.0
# A closing credit paragraph has at most this many lines; one line alone after a paragraph
# ending full holds at least CREDIT_WORDS words.
CREDIT_LINES = 3
CREDIT_WORDS = 4
SENTENCE_END = (".", "!", "?", "\u3002", "\uff0e")


# A list's bullet, in whatever font and size; it stands at most this many of its line's sizes
# before the line's first word (a handbook hangs its bullets 2.3 sizes left of the items).
BULLETS = frozenset("•◦▪▫‣∙●○■□∗")
BULLET_GAP = 3.0
# A word processor's bullets that come out as letters or signs: Courier New's "o", Wingdings'
# square, arrow, check and diamond read in Latin-1 ("§", "Ø", "ü", "v"), dashes and arrows.
# Only a group made of nothing else, each level with a line's first word, is such a column.
HUNG_MARKS = BULLETS | frozenset("o§Øüv-–·➢►▶◆◇✓✔❖→")
# An ordered list's number hung the same way, in a face of its own: "I.", "iv.", "3." (not
# "C.", more often a sentence's last word or an initial than a hundredth item).
ENUMERATOR = re.compile(r"([0-9]{1,2}|[ivx]{1,5}|[IVX]{1,5})\.")


def hung_mark(text: str) -> bool:
    """A list's mark hung left of its item: a bullet, a sign a word processor sets as one, a
    glyph of a symbol font's private-use range (Symbol's and Wingdings' bullets), or an
    ordered list's number (a programme's movements, "I." set upright before italic "Allegro")."""
    return (
        text in HUNG_MARKS
        or (len(text) == 1 and 0xF000 <= ord(text) <= 0xF0FF)
        or bool(ENUMERATOR.fullmatch(text))
    )


def attach_bullets(
    groups: list[tuple[list[_Segment], tuple]],
) -> list[tuple[list[_Segment], tuple]]:
    """Put a list's bullets into the lines they open.

    LaTeX sets an item's bullet in a symbol font and a smaller size, hung left of the item's
    text: the bullets group on their own, a narrow column of their own, and the XY-cut read
    that column between two lines of the text beside it ("names and • • • • affiliations").
    A group of bullets only (:func:`hung_mark`), each standing level with a line's first
    word of one other group, at most :data:`BULLET_GAP` of that line's sizes before it, is
    put into that group, each bullet right before the word it opens.
    """
    k = len(groups) - 1
    while k >= 0:
        members = groups[k][0]
        if members[0].direction == (1.0, 0.0) and all(
            hung_mark(u.text) for m in members for u in m.units
        ):
            opened = [_opened(m, groups, k) for m in members]
            owners = {j for j, _seg in (o for o in opened if o is not None)}
            if None not in opened and len(owners) == 1:
                j = owners.pop()
                target = list(groups[j][0])
                for m, (_j, seg) in zip(members, opened, strict=True):
                    at = next(n for n, t in enumerate(target) if t is seg)
                    target.insert(at, m)
                groups[j] = (target, box_of(target))
                del groups[k]
        k -= 1
    return groups


def _opened(
    bullet: _Segment, groups: list[tuple[list[_Segment], tuple]], own: int
) -> tuple[int, _Segment] | None:
    """The group and segment of the line ``bullet`` opens: the nearest piece standing level
    right after it, if one does."""
    _bx0, by0, bx1, by1 = bullet.box
    middle = (by0 + by1) / 2
    best = None
    for j, (members, _box) in enumerate(groups):
        if j == own:
            continue
        for seg in members:
            x0, y0, _x1, y1 = seg.box
            gap = x0 - bx1
            level = seg.direction == (1.0, 0.0) and y0 <= middle <= y1
            if level and -0.5 <= gap <= BULLET_GAP * seg.size and (best is None or gap < best[0]):
                best = (gap, j, seg)
    return None if best is None else (best[1], best[2])


# A piece of a line joins its paragraph when set at this share of the paragraph's size or more
# (and at most its inverse): a raised footnote marker or a heading is no piece of a line.
PIECE_SIZE_RATIO = 0.85
# ... or at this share when it goes on from a piece of its line: a formula's raised or
# lowered piece ("W^{l+1}" in "where W^{l+1}_k = 1, and"), set smaller.
SCRIPT_SIZE_RATIO = 0.6
# A formula's raised or lowered piece is set at most this share of its line's size.
SCRIPT_SIZE = 0.85


def join_line_pieces(
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
            # Raised or lowered pieces of a formula go on from a piece of their line.
            low = (
                SCRIPT_SIZE_RATIO if all(m.after is not None for m in members) else PIECE_SIZE_RATIO
            )
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
                    and low * size <= members[0].size <= size / PIECE_SIZE_RATIO
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
        members = [m for line in lines_of(pieces, em) for m in left_to_right(line, em)]
        groups[j] = (members, box_of(members))
        del groups[k]


def lines_of(pieces: list[_Segment], em: float) -> list[list[_Segment]]:
    """``pieces`` in lines, top down: the pieces in the text's size by their bottoms (within
    0.3 of ``em``), then each formula's raised or lowered piece, set smaller, into the line
    whose box holds half its height or more (on a line of its own where none does)."""
    scripts = [m for m in pieces if m.size <= SCRIPT_SIZE * em]
    lines: list[list[_Segment]] = []
    for m in sorted((m for m in pieces if m not in scripts), key=lambda m: m.box[3]):
        if lines and m.box[3] - lines[-1][0].box[3] <= 0.3 * em:
            lines[-1].append(m)
        else:
            lines.append([m])
    for m in scripts:
        height = m.box[3] - m.box[1]
        best = max(lines, key=lambda line: _inside(m, line), default=None)
        if best is not None and height > 0 and _inside(m, best) >= 0.5 * height:
            best.append(m)
        else:
            lines.append([m])
    return sorted(lines, key=lambda line: max(t.box[3] for t in line))


def _inside(m: _Segment, line: list[_Segment]) -> float:
    """How much of ``m``'s height lies inside ``line``'s box."""
    top, bottom = min(t.box[1] for t in line), max(t.box[3] for t in line)
    return min(m.box[3], bottom) - max(m.box[1], top)


def left_to_right(line: list[_Segment], em: float) -> list[_Segment]:
    """A line's pieces left to right; a raised piece before the lowered one standing under
    it (``W^{l+1}_k``: their left edges within 0.3 of ``em``)."""
    out = sorted(line, key=lambda m: m.box[0])
    for n in range(len(out) - 1):
        a, b = out[n], out[n + 1]
        if b.box[0] - a.box[0] <= 0.3 * em and b.box[1] < a.box[1]:
            out[n], out[n + 1] = b, a
    return out


def split_credit_lines(
    groups: list[tuple[list[_Segment], tuple]], segs: list[_Segment]
) -> tuple[list[tuple[list[_Segment], tuple]], list[int]]:
    """Split off a block's closing paragraph whose last line is set flush right.

    A copyright and licence line closing an abstract, or an attribution under a quotation,
    follows the text at its line spacing in its font, so it groups with it; but its last
    line is pushed to the right edge, which the last line of a paragraph of running text
    (left-aligned, justified or ragged) never is. That paragraph, from the line after the
    last one that ends short of the edge, is split off as its own block. The flush-right
    line must stand alone on its line (an equation's number or a table's last cell has
    something to its left) and follow at least two lines of text. Where the paragraph
    before ends on a full line (Elsevier's abstract, justified to its last line), the credit
    is the lines set right-aligned at its end after a sentence's end: two or more, or one of
    :data:`CREDIT_WORDS` words or more (a word pushed right is a list's item wrapped).

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
                # The paragraph before ends on the last line short of the edge, if that is
                # within a credit's few lines of the end (not a paragraph's end far above).
                short = [
                    k
                    for k in range(len(members) - 1)
                    if members[k].box[2] < bx1 - 2 * size and len(members) - (k + 1) <= CREDIT_LINES
                ]
                if short:
                    split = short[-1] + 1
                else:
                    # The paragraph before ends full (Elsevier's abstract): the credit is
                    # two lines or more set right-aligned, each starting well in (one word
                    # pushed right is a list's item wrapped in a sidebar), after a sentence's
                    # end (not a ragged-left epigraph's last line).
                    k = len(members) - 1
                    while k > 0 and members[k - 1].box[0] >= bx0 + CREDIT_INDENT * size:
                        k -= 1
                    ends = members[k - 1].units[-1].text.endswith(SENTENCE_END) if k else False
                    # One line may be the credit when it holds a phrase ("© 2016 Elsevier
                    # B.V. All rights reserved."), not a word pushed right.
                    phrase = len(members[-1].units) >= CREDIT_WORDS
                    split = k if (k < len(members) - 1 or phrase) and ends else None
            if split is not None and len(members) - split > CREDIT_LINES:
                split = None
        if split is None or split < 2:
            out.append((members, box))
            continue
        for part in (members[:split], members[split:]):
            out.append((part, box_of(part)))
        credits.append(len(out) - 1)
    return out, credits
