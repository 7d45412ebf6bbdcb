"""A page's selection units and their line segments: one baseline, one style, no wide gap.

Units are PyMuPDF's words (every CJK character a unit of its own), their sub- and superscripts
marked; segments cut MuPDF's lines again at wide gaps, column gutters and changes of style.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import replace
from itertools import pairwise

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.labels import LABEL_ALONE
from basehalf_core.documents.line_pieces import BULLETS, SCRIPT_SIZE
from basehalf_core.documents.raw_text import (
    _ocr_line_sizes,
    _Segment,
    _span_styles,
    _style_of,
    _Unit,
)
from basehalf_core.documents.text import is_cjk, script_text

# A gap wider than this many font sizes between two units of a line separates them: word
# spaces, even stretched by justification, stay well under it; gutters and margins do not.
SPLIT_GAP = 1.5
# On an OCR text layer a line splits only at a gap this wide (or at a gutter).
OCR_SPLIT_GAP = 3.0
# A justified line's word space reaches at most this many sizes; the words of the lines
# within this many sizes above and below it run across it.
JUSTIFIED_GAP = 3.0
JUSTIFIED_REACH = 3.5
# A change of style splits a line at a narrower gap (a line number set close to the text).
STYLE_GAP = 0.6
# Characters of CJK text that count as one word of a line's style (see grouping._carries).
CJK_WORD = 3


def segments(units: list[_Unit], info: dict) -> list[_Segment]:
    styles = _span_styles(info)
    segs: list[_Segment] = []
    cur: _Segment | None = None
    key = None
    gutters = _Gutters(units)
    # An OCR layer's word boxes take their widths from the invisible font, not from the ink,
    # so the space between two words of a line can come out two sizes wide; the gutter test
    # below still splits a line across a column gutter.
    split_gap = OCR_SPLIT_GAP if _ocr_line_sizes(info) else SPLIT_GAP
    # Each unit's own style: a segment takes its first unit's, but a run-in heading's line
    # is restyled by the style the rest of it is set in (_restyle_run_in_headings).
    own: dict[int, tuple[str, float]] = {}
    for u in units:
        entry = styles.get((u.block, u.line)) or [((0, 0, 0, 0), "", 0.0, 0), (1.0, 0.0)]
        spans, direction = entry[:-1], (round(entry[-1][0], 3), round(entry[-1][1], 3))
        family, size = _style_of(u, spans)
        size = size or (u.rect[3] - u.rect[1])
        own[id(u)] = (family, size)
        if (
            cur is not None
            and (
                _continues(cur, u, family, size, direction, key, split_gap)
                or _justified_space(cur, u, family, size, direction, gutters)
            )
            and not (
                direction == (1.0, 0.0)
                and not _label_alone(cur)
                and (
                    _narrow_gutter(cur, u, size, gutters)
                    or gutters.column_edge(cur.units[-1], u, size)
                )
            )
        ):
            cur.units.append(u)
            cur.chars += len(u.text)
            continue
        new = _Segment([u], family, size, direction, len(u.text))
        if (
            cur is not None
            and direction == (1.0, 0.0) == cur.direction
            and _continues(cur, u, cur.family, cur.size, direction, key, split_gap)
            and not _narrow_gutter(cur, u, size, gutters)
            and not gutters.column_edge(cur.units[-1], u, size)
        ):
            new.after = cur  # the same line, set otherwise from here on
        cur = new
        key = (u.block, u.line)
        segs.append(cur)
    for seg in segs:
        seg.close()
        cjk: dict[tuple[str, float], int] = {}
        for u in seg.units:
            style = own[id(u)]
            if sum(c.isalpha() for c in u.text) >= 3:
                seg.words_in[style] = seg.words_in.get(style, 0) + 1
            elif is_cjk(u.text):
                cjk[style] = cjk.get(style, 0) + 1
        for style, n in cjk.items():
            # CJK is written without spaces, a character a unit: a word's worth of them.
            seg.words_in[style] = seg.words_in.get(style, 0) + n // CJK_WORD
    _restyle_run_in_headings(segs, own)
    segs = _fold_inset_pieces(segs)
    _link_scripts(segs)
    return segs


# A gutter is at least this many times as wide as the widest word space of its line's part
# before it.
GUTTER_SPACES = 1.3


def _narrow_gutter(cur: _Segment, u: _Unit, size: float, gutters: _Gutters) -> bool:
    """Does a narrow gutter part ``u`` from the line's part ``cur`` before it
    (:meth:`_Gutters.between`), wider than the word spaces of that part?

    A brochure sets a justified paragraph in a letter-spaced face, its word spaces 0.6 of
    its size: down four lines, the spaces after "Route" and "nur" stood one under the other,
    a white stripe no word crossed, and the paragraph was cut into two columns. A gutter
    between ragged columns is wider than the spaces of the line it parts.
    """
    if not gutters.between(cur.units[-1], u, size):
        return False
    spaces = [b.rect[0] - a.rect[2] for a, b in pairwise(cur.units)]
    return not spaces or u.rect[0] - cur.units[-1].rect[2] > GUTTER_SPACES * max(spaces)


def _label_alone(seg: _Segment) -> bool:
    """Is ``seg`` a caption's label and number alone ("Figure 2:")?

    A hanging caption sets its title an indent after the label, its next lines under the
    title: over a figure, whose words are its labels, that stripe looks like a narrow
    gutter, and the label was read apart from its caption.
    """
    return len(seg.units) <= 3 and bool(LABEL_ALONE.match(" ".join(u.text for u in seg.units)))


# A run-in heading ("Oleic Acid Oxidation. The oleate ...") has at most this many words.
RUN_IN_WORDS = 6


def _heading_words(texts: list[str]) -> bool:
    """Are these the words of a run-in heading?

    A capitalised word of two letters or more first, words of letters and digits (with a
    hyphen or an apostrophe) only, the last ending in a full stop or colon. A math symbol
    ending a sentence carried to the next line ("W.", "N_S.", "L/k.") or the second half of
    a hyphenated word ("havior.") set in another font is not one. A section's number may
    open it (ACM's "2.1.1 The Biology.").
    """
    if len(texts) > 1 and SECTION_NUMBER.fullmatch(texts[0]):
        texts = texts[1:]
    if (
        not texts[-1].endswith((".", ":"))
        or not texts[0][:2].isalpha()
        or not texts[0][0].isupper()
    ):
        return False
    return all(
        t.rstrip(".:,").replace("-", "").replace("’", "").replace("'", "").isalnum() for t in texts
    )


def _restyle_run_in_headings(segs: list[_Segment], own: dict[int, tuple[str, float]]) -> None:
    """Give a line opening with a run-in heading in another font the style of its text.

    PNAS sets a paragraph's run-in heading ("Oleic Acid Oxidation.") in a smaller bold sans
    and goes on in the text's serif after a word space; the line is one segment styled by
    its first word, so its text, set like the page's running text, was read as other print
    (a drag from running text to running text left the line out, and a column's first line
    was taken for a running head). A segment whose first words, up to its one change of
    style, are a short phrase (at most :data:`RUN_IN_WORDS` words) ending in a full stop or
    colon, the rest of it (more characters than the heading) all in the style most of the
    page's characters are set in, takes that style; so does one opening with a bullet in
    another font (TeX sets "•" in its math symbols, smaller than the item's text).
    Restyling every segment of two styles by the majority of its characters would restyle
    lines opening in italics, math or a label as well; a run-in heading opens its line and
    ends in a stop before the text resumes.
    """
    chars: dict[tuple[str, float], int] = {}
    for seg in segs:
        for u in seg.units:
            chars[own[id(u)]] = chars.get(own[id(u)], 0) + len(u.text)
    if not chars:
        return
    text = max(chars, key=lambda k: chars[k])
    for seg in segs:
        if seg.direction != (1.0, 0.0) or seg.after is not None or (seg.family, seg.size) == text:
            continue
        k = next((k for k, u in enumerate(seg.units) if own[id(u)] != own[id(seg.units[0])]), 0)
        # A list item's bullet set in a symbol font (TeX's CMSY) opens its line the same way.
        bullet = k == 1 and seg.units[0].text in BULLETS
        if not bullet and (
            not 0 < k <= RUN_IN_WORDS or not _heading_words([u.text for u in seg.units[:k]])
        ):
            continue
        rest = seg.units[k:]
        if any(own[id(u)] != text for u in rest):
            continue
        if sum(len(u.text) for u in rest) <= sum(len(u.text) for u in seg.units[:k]):
            continue
        seg.family, seg.size = text


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
# A word starts a column's head when at least this many lines right under it start where it
# starts, within this many of its sizes under it.
EDGE_LINES = 3
EDGE_REACH = 4.0
# Those lines are set smaller: a head's box is at least this many times as tall as theirs
# (a table's rows line up under its header row in the same print).
EDGE_HEAD_RATIO = 1.25


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

    def crossed(self, last: _Unit, u: _Unit, size: float) -> bool:
        """Do words of the lines just above and below run across the gap from ``last`` to
        ``u``: a word space a justified line stretched, not a gutter?

        LaTeX justifies a list item's heading of three words across its column ("Sequence-
        to-sequence  text  generation."), two sizes between them: split there, the last
        two words were a block of their own, read at the column's foot.
        """
        x = (last.rect[2] + u.rect[0]) / 2
        y = (u.rect[1] + u.rect[3]) / 2
        lo = bisect_left(self.tops, y - JUSTIFIED_REACH * size)
        hi = bisect_right(self.tops, y + JUSTIFIED_REACH * size)
        above = below = False
        for r in self.units[lo:hi]:
            if r[0] < x < r[2]:
                middle = (r[1] + r[3]) / 2
                above |= middle < y - 0.5 * size
                below |= middle > y + 0.5 * size
        return above and below

    def column_edge(self, last: _Unit, u: _Unit, size: float) -> bool:
        """Does ``u`` stand at the left edge of a column whose text starts right under it?

        A report sets its columns' heads ("Insight", "Challenge", "Strategy") large, on one
        baseline, each at its own column's left edge: a head as wide as most of its column
        leaves less than :data:`SPLIT_GAP` of its sizes to the next, and a paragraph across
        the page above them crosses the gutters :meth:`between` looks for. Under the heads
        the gutter is plain: at least :data:`EDGE_LINES` lines within :data:`EDGE_REACH` of
        its sizes under ``u`` start where it starts, set smaller than it (its box at least
        :data:`EDGE_HEAD_RATIO` times as tall as theirs), text under the line's part before
        it ends short of the gutter, and no word there crosses it. Words of a justified
        paragraph do not line up down a white stripe like that; a table's rows do, under a
        header row in their own print, and are left as they were.
        """
        gap = u.rect[0] - last.rect[2]
        if gap < GUTTER_GAP * size:
            return False
        x = u.rect[0] - min(1.5, gap / 2)
        tall = u.rect[3] - u.rect[1]
        below = (u.rect[1] + u.rect[3]) / 2
        lo = bisect_right(self.tops, below)
        hi = bisect_right(self.tops, u.rect[3] + EDGE_REACH * size)
        starts: set[int] = set()
        left = False
        for r in self.units[lo:hi]:
            if r[0] < x < r[2]:
                return False
            if abs(r[0] - u.rect[0]) <= 1 and EDGE_HEAD_RATIO * (r[3] - r[1]) <= tall:
                starts.add(round(r[3]))
            elif last.rect[0] <= r[2] <= x:
                left = True
        return left and len(starts) >= EDGE_LINES


def _justified_space(cur: _Segment, u: _Unit, family: str, size: float, direction, gutters) -> bool:
    """Is the wide gap before ``u`` a word space a justified line stretched: the same style
    on the same baseline, at most :data:`JUSTIFIED_GAP` sizes, words above and below
    running across it (:meth:`_Gutters.crossed`)?"""
    if (
        direction != (1.0, 0.0)
        or cur.direction != direction
        or (family, size)
        != (
            cur.family,
            cur.size,
        )
    ):
        return False
    last = cur.units[-1]
    em = max(size, 1.0)
    gap = u.rect[0] - last.rect[2]
    return (
        abs(u.rect[3] - last.rect[3]) <= 0.3 * em
        and 0 < gap <= JUSTIFIED_GAP * em
        and gutters.crossed(last, u, size)
    )


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
    # On one baseline the bottoms agree; a single glyph of the same size whose box reaches far
    # under it (a math symbol font's "E", 7 points under the line) agrees at the top instead.
    if abs(u.rect[3] - last.rect[3]) > 0.3 * em:
        tall = max((u, last), key=lambda t: t.rect[3] - t.rect[1])
        symbol = abs(size - cur.size) <= 0.1 * em and len(tall.text.strip()) <= 2
        if not (symbol and abs(u.rect[1] - last.rect[1]) <= 0.15 * em):
            return False
    gap = u.rect[0] - last.rect[2]
    if gap > split_gap * em or u.rect[2] < last.rect[0]:
        return False
    return (family, size) == (cur.family, cur.size) or gap <= STYLE_GAP * em


# A formula's raised or lowered piece (set at most SCRIPT_SIZE of its line's size) stands off
# the line's baseline by more than this share of its size.
SCRIPT_SHIFT = 0.1


def _link_scripts(segs: list[_Segment]) -> None:
    """Mark the pieces of a line that step up or down to a formula's smaller raised or
    lowered piece, or back from it, as going on from the piece left of them (``after``).

    "where W^{l+1}_k = 1, and" comes out as "where W", "l+1" above the baseline, "k" under
    it and "= 1, and" on it: off the baseline, no piece went on from the one before, and the
    formula's pieces were read after their paragraph. A piece with nothing marked before
    it goes on from the nearest piece ending left of it within a style's gap
    (:data:`STYLE_GAP`), their boxes overlapping for half the smaller's height, one set at
    most :data:`SCRIPT_SIZE` of the other's size and off its baseline (:data:`SCRIPT_SHIFT`).
    """
    # Only the pieces ending just left of a piece are looked at: by their right edges.
    horizontal = sorted((s for s in segs if s.direction == (1.0, 0.0)), key=lambda s: s.box[2])
    ends = [s.box[2] for s in horizontal]
    reach = STYLE_GAP * max((s.size for s in horizontal), default=0.0)
    for s in horizontal:
        if s.after is not None:
            continue
        best = None
        lo, hi = bisect_left(ends, s.box[0] - reach), bisect_right(ends, s.box[0] + 0.5)
        for t in horizontal[lo:hi]:
            if t is s:
                continue
            small, large = sorted((s.size, t.size))
            if large <= 0 or small > SCRIPT_SIZE * large:
                continue
            gap = s.box[0] - t.box[2]
            if not -0.5 <= gap <= STYLE_GAP * large:
                continue
            overlap = min(s.box[3], t.box[3]) - max(s.box[1], t.box[1])
            if overlap < 0.5 * min(s.box[3] - s.box[1], t.box[3] - t.box[1]):
                continue
            if abs(s.box[3] - t.box[3]) <= SCRIPT_SHIFT * large:
                continue  # on one baseline: a smaller number or label, not a script
            if best is None or gap < best[0]:
                best = (gap, t)
        if best is not None:
            s.after = best[1]


def lines_with_scripts(info: dict) -> set[tuple[int, int]]:
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


def write_scripts(units: list[_Unit], raw: dict, lines: set[tuple[int, int]]) -> None:
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


def units_from_rawdict(raw: dict) -> list[_Unit]:
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
