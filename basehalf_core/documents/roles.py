"""Roles of a page's text blocks: which are running text, and which are not.

Roles: ``body`` (running text, read column by column), ``header`` / ``footer`` (running heads,
page numbers, conference lines), ``footnote`` (small print at the foot of a column) and
``margin`` (text at an angle to the page's text, such as arXiv's vertical stamp), and two roles
read in the flow of the running text but left out of a drag whose two ends are running text:
``float`` (a figure's or table's contents and its caption) and ``box`` (a sidebar in a filled
rectangle). The caller finds those from the page's drawings and puts them in ``Block.region``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from basehalf_core.documents.line_pieces import SENTENCE_END
from basehalf_core.documents.page_edges import (
    SENTENCE_ENDS,
    is_footer,
    is_running_head,
    nearest_above,
    page_number_edge,
)
from basehalf_core.documents.text import is_doi
from basehalf_core.documents.text_blocks import (
    FOOTNOTE_SIZE_RATIO,
    TINY_RATIO,
    Block,
    dir_key,
    text_size,
    x_overlap,
)

FOOTNOTE_MARKERS = "*∗†‡§¶#0123456789⁰¹²³⁴⁵⁶⁷⁸⁹"
# Unmarked small print is a foot block (permission, copyright, "received" lines) when it starts
# below this fraction of the page, is at most this tall, and sits this many body sizes below the
# running text above it in its column.
FOOT_BLOCK_TOP = 0.6
FOOT_BLOCK_HEIGHT = 0.25
FOOT_BLOCK_GAP = 1.0


def assign_roles(
    blocks: list[Block], page_height: float, drawn: Sequence[tuple] = ()
) -> dict[object, str]:
    """Decide each block's role; see the module docstring for the roles. ``drawn``: the
    figures' and boxes' rectangles (displayed space), which stand between blocks too."""
    if not blocks:
        return {}
    dirs: Counter = Counter()
    for b in blocks:
        dirs[dir_key(b.direction)] += b.chars
    dominant = dirs.most_common(1)[0][0]
    roles: dict[object, str] = {}
    for b in blocks:
        roles[b.id] = "body" if dir_key(b.direction) == dominant else "margin"
    if dominant != (1, 0):
        # Vertical or right-to-left page flow: keep file order, flag only the odd directions.
        return roles
    # Print far smaller than the text (the pages of a document shown inside a figure, the
    # labels of a dense chart) is a figure's contents, never running text, however much of it.
    tiny = TINY_RATIO * text_size(b for b in blocks if roles[b.id] == "body")
    for b in blocks:
        if roles[b.id] == "body" and b.size < tiny:
            roles[b.id] = "float"
    body_size = text_size(b for b in blocks if roles[b.id] == "body")
    for b in blocks:
        if roles[b.id] != "body":
            continue
        if b.running:
            roles[b.id] = "header" if b.bbox[1] < 0.5 * page_height else "footer"
        elif is_running_head(b, blocks, roles, body_size, page_height, drawn):
            roles[b.id] = "header"
        elif is_footer(b, blocks, roles, body_size, page_height, drawn):
            roles[b.id] = "footer"
        elif edge := page_number_edge(b, blocks, roles):
            roles[b.id] = edge
    for b in blocks:
        if roles[b.id] == "body" and not b.region and _copyright_line(b):
            roles[b.id] = "footnote"
    # Footnotes: small print in the lower half, starting with a marker (or continuing one),
    # with no running text below it in its column.
    # Notes set in the text's own size are told by the footnote rule over them (``ruled``);
    # a piece of one of their lines set otherwise (small capitals) lies inside their box.
    ruled = [b for b in blocks if b.ruled and roles[b.id] == "body"]

    def under_rule(b: Block) -> bool:
        return any(
            r is b or (x_overlap(r, b) and r.bbox[1] < b.bbox[1] and b.bbox[3] <= r.bbox[3] + 1)
            for r in ruled
        )

    candidates = sorted(
        (
            b
            for b in blocks
            if roles[b.id] == "body"
            and (b.size <= FOOTNOTE_SIZE_RATIO * body_size or under_rule(b))
        ),
        key=lambda b: b.bbox[1],
    )
    footnotes: list[Block] = []
    for b in candidates:
        if b.bbox[1] < 0.5 * page_height:
            continue
        # The marker may come out a block of its own, raised, just left of the note's text.
        marked = (b.first_char in FOOTNOTE_MARKERS and not _numbered_heading(b)) or any(
            abs(f.bbox[1] - b.bbox[1]) <= b.size
            and -0.5 * b.size <= b.bbox[0] - f.bbox[2] <= b.size
            for f in footnotes
        )
        continues = any(x_overlap(b, f) and f.bbox[1] < b.bbox[1] for f in footnotes)
        # Right under a footnote rule, a note needs no marker (an author's affiliation).
        if not (
            marked
            or continues
            or (b.ruled and b.size <= FOOTNOTE_SIZE_RATIO * body_size)
            or _set_apart_below(b, blocks, roles, body_size, page_height)
        ):
            continue
        below = [
            o
            for o in blocks
            if roles[o.id] == "body"
            and o is not b
            and o.bbox[1] > (b.bbox[3] - 1 if b.ruled else b.bbox[1])
            and x_overlap(o, b)
            and o.size > FOOTNOTE_SIZE_RATIO * body_size
        ]
        if not below:
            footnotes.append(b)
    for b in _headed(footnotes, blocks, roles, body_size):
        footnotes.remove(b)
    for b in footnotes:
        roles[b.id] = "footnote"
    # A filled box behind all of the page's running text (a white paper's interview set on a
    # tint) is the page's background, not a sidebar beside the text: its text stays running
    # text, read column by column.
    body = [b for b in blocks if roles[b.id] == "body"]
    background = all(b.region for b in body) and any(b.region == "box" for b in body)
    for b in body:
        if b.region and not (background and b.region == "box"):
            roles[b.id] = b.region
    return roles


# A section's heading takes at most this many lines.
NUMBERED_HEADING_LINES = 2


def _numbered_heading(b: Block) -> bool:
    """Is ``b`` a section's numbered heading, its number no note's marker?

    MNRAS sets "1 INTRODUCTION" in 9-point bold over a column in 9 points, under an abstract
    in 10 that makes the page's text size: the heading and its column read as notes at the
    page's foot. A heading opens with a section's number, is set in bold or italic or ends in
    capitals, takes a line or two and ends no sentence; a note says something.
    """
    return (
        0 < b.lines <= NUMBERED_HEADING_LINES
        and b.numbered >= 1
        and (b.emphasis or (b.last_word.isupper() and sum(c.isalpha() for c in b.last_word) > 1))
        and not b.last_word.endswith(SENTENCE_END)
    )


# A story's heading is set at least this many times the text's size; notes have none.
STORY_HEADING_RATIO = 1.3


def _headed(notes: list[Block], blocks: list[Block], roles: dict, body_size: float) -> list[Block]:
    """The notes that are a story's text under its heading, not footnotes.

    A newspaper sets a last story across the foot of the page under a rule, its text smaller
    than the columns' and under a heading set large ("BEHIND THE MOTIVE"): taken for
    footnotes, the story was left out of a drag inside it. Footnotes have no heading. When a
    block of running text set :data:`STORY_HEADING_RATIO` times the text's size or larger
    stands in the band of the notes (its foot below the highest note's top, its top above
    the lowest note's foot), every note at or under that heading's top is the story's.
    """
    if not notes:
        return []
    top = min(n.bbox[1] for n in notes)
    foot = max(n.bbox[3] for n in notes)
    heads = [
        h
        for h in blocks
        if roles[h.id] == "body"
        and h not in notes
        and h.size >= STORY_HEADING_RATIO * body_size
        and top < h.bbox[3]
        and h.bbox[1] < foot
    ]
    if not heads:
        return []
    start = min(h.bbox[1] for h in heads) - body_size
    return [n for n in notes if n.bbox[1] >= start]


# A copyright notice takes at most this many lines.
COPYRIGHT_LINES = 2


def _copyright_line(b: Block) -> bool:
    """A copyright notice set in the text's own face and size: a line or two opening with
    the copyright sign or the word, not in bold or ending in the formula ("Copyright © 2020
    Elsevier Ltd. All rights reserved.", bold, closing The Lancet's summary). A copyright
    block is left out of a drag wherever it stands, not only as small print at a column's
    foot; so is a line holding only a DOI."""
    word = b.first_word.lower().rstrip(":")
    # A heading "Copyright" (set bold, a section of a book's front matter) is read; a bold
    # line that goes on to the formula's "All rights reserved." is the notice all the same.
    formula = b.last_word.lower().rstrip(".") == "reserved"
    notice = b.first_char == "©" or (word == "copyright" and (formula or not b.emphasis))
    # A DOI on a line of its own under the abstract (Physical Review's "DOI: 10.1103/…") is
    # the article's address, not text: left out the same way.
    doi = is_doi(b.first_word) and b.lines == 1
    return b.lines <= COPYRIGHT_LINES and (notice or doi)


def _set_apart_below(
    b: Block, blocks: list[Block], roles: dict, body_size: float, page_height: float
) -> bool:
    """Small print without a marker at a column's foot, below a gap after the running text.

    A permission or copyright block, a corresponding-author note or a received/accepted line
    is set smaller than the text, low on the page, and separated from the running text above
    it in its column by more than a line's spacing (often by a rule too). A figure's or
    table's small print is not this: it belongs to its region.

    Nor is a column's text (two lines or more) level with the text of the column beside it,
    in its style, which follows its heading or text (Journal of Applied Ecology opens its
    Introduction in 9 points low on its first page under a Summary in 10 across both
    columns: the right column's text, under the Summary's gap, was taken for a note).
    """
    if not _apart_below(b, blocks, roles, body_size, page_height):
        return False
    if b.lines < 2:
        return True
    return not any(
        o is not b
        and roles[o.id] == "body"
        and o.lines >= 2
        and o.style == b.style
        and not x_overlap(o, b)
        and min(o.bbox[3], b.bbox[3]) > max(o.bbox[1], b.bbox[1])
        and o.first_char not in FOOTNOTE_MARKERS
        and not _apart_below(o, blocks, roles, body_size, page_height)
        for o in blocks
    )


def _apart_below(
    b: Block, blocks: list[Block], roles: dict, body_size: float, page_height: float
) -> bool:
    """Small print low on the page, a gap under the running text above it in its column."""
    if b.region or b.bbox[1] < FOOT_BLOCK_TOP * page_height:
        return False
    if b.bbox[3] - b.bbox[1] > FOOT_BLOCK_HEIGHT * page_height:
        return False
    nearest = nearest_above(b, blocks, lambda o: roles[o.id] == "body" and not o.region)
    return (
        nearest is not None
        and nearest.size > FOOTNOTE_SIZE_RATIO * body_size
        and b.bbox[1] - nearest.bbox[3] >= FOOT_BLOCK_GAP * body_size
        and not _heading_like(nearest, body_size)
    )


def _heading_like(b: Block, body_size: float) -> bool:
    """A line or two set larger than the text, ending without a sentence's end: a heading,
    which the print under it opens (Methods in Ecology and Evolution sets its "Materials
    and methods" section in smaller type under the heading), not the running text a note
    is set apart from (a line of keywords over ACM's permission block is set as the text)."""
    return (
        b.lines <= 2
        and b.size >= HEADING_SIZE * body_size
        and not b.last_word.endswith(tuple(SENTENCE_ENDS))
    )


# A heading is set at least this share larger than the text.
HEADING_SIZE = 1.05
