"""What goes with a figure or table without being inside it: captions and titles.

A figure's region comes from the page's drawings (:mod:`basehalf_core.documents.regions`);
the text beside it that belongs to it is told here: a caption opening with its label, a
one-line title right over it, a caption grouped with the paragraph under it (split off),
a caption's lines grouped apart, and the caption of a figure set as text. Panel letters,
axis titles and rows of labels over drawings are :mod:`.figure_labels`'.
"""

from __future__ import annotations

from basehalf_core.documents.grouping import Group, next_block_id, segment_text, split_group
from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.labels import CAPTION_LABEL
from basehalf_core.documents.text import style_family
from basehalf_core.documents.text_blocks import FOOTNOTE_SIZE_RATIO, text_style

# A caption standing by itself lies at most this many ems above or under its region, or
# farther, up to this share of the region's height, with no other text between the two.
CAPTION_NEAR = 4.0
CAPTION_FAR_SHARE = 0.5


def caption_beside(g: Group, r, groups: list[Group], em: float, far_off: bool = True) -> bool:
    """Does the caption-labelled block ``g`` stand above or under the region ``r``?

    It lies across some of the region's width, at most :data:`CAPTION_NEAR` ems from it, or
    (``far_off``) up to :data:`CAPTION_FAR_SHARE` of the region's height when no other block
    lies in the space between the two: a picture placed with white space under it (IEEE
    Access's "FIGURE 1: System overview." 41 pt under its image, set in the text's font and
    size) keeps its caption, and a short line of running text with a label is not taken for
    one across a paragraph.
    """
    x0, y0, x1, y1 = g.box
    if min(x1, r[2]) <= max(x0, r[0]):
        return False
    far = max(CAPTION_NEAR * em, CAPTION_FAR_SHARE * (r[3] - r[1]) if far_off else 0.0)
    # A figure's drawn background may reach into its caption's lines (a ring diagram's
    # white box over the caption's first line): up to half the caption may lie inside.
    overlap = max(em, 0.5 * (y1 - y0))
    for top, bottom in ((r[3], y0), (y1, r[1])):  # under the region, above it
        gap = bottom - top
        if not -overlap <= gap <= far:
            continue
        if gap <= CAPTION_NEAR * em:
            return True
        between = any(
            o is not g
            and min(x1, o.box[2]) > max(x0, o.box[0])
            and top < (o.box[1] + o.box[3]) / 2 < bottom
            for o in groups
        )
        if not between:
            return True
    return False


# A region's title line sits at most this many of its sizes above the region's top.
TITLE_REACH = 1.0
# A title line ends without a sentence's closing mark (running text above a table does not).
TITLE_OPEN_ENDS = ".:;,!?。．："
# A title line holds at least this many letters (a piece of a formula holds a few symbols).
TITLE_LETTERS = 4


# A picture's credit ("Reuters", "Photo: J. Doe") under it: one line of at most this many
# characters, at most this many ems under the picture, centred on it within an em.
CREDIT_CHARS = 30
CREDIT_REACH = 1.5


def credit_under(g: Group, figures: list, em: float) -> bool:
    """Is ``g`` the credit line set centred right under a picture?

    A newspaper sets a photo's credit in the text's own font and size, a short line
    centred under the photo: read as running text, it came into a drag from the story
    above the photo to the one under it. One line of at most :data:`CREDIT_CHARS`
    characters, no wider than half the picture, centred on it within an em and at most
    :data:`CREDIT_REACH` ems under it, is the picture's: read like a caption.
    """
    if g.block.lines != 1 or g.block.chars > CREDIT_CHARS:
        return False
    x0, y0, x1, _y1 = g.box
    return any(
        0 <= y0 - r[3] <= CREDIT_REACH * em
        and x1 - x0 <= 0.5 * (r[2] - r[0])
        and abs((x0 + x1) - (r[0] + r[2])) / 2 <= em
        for r in figures
    )


# A caption set off by its face alone holds at most this many lines and starts at most this
# many ems under its picture.
FACE_CAPTION_LINES = 4
FACE_CAPTION_REACH = 1.5
# ... or this many when its lines are centred under the picture (within the slack, in ems).
CENTRED_CAPTION_REACH = 3.0
CENTRED_CAPTION_SLACK = 1.5


def caption_by_face(g: Group, groups: list[Group], figures: list, em: float) -> bool:
    """Is ``g`` a picture's caption set off only by its face, with no label?

    A magazine sets a photo's caption right under it in the text's own family and size, in
    bold ("Competition for limited nesting sites ..."): read as running text, it came into
    a drag from the column above the photo to the one beside it. A block set in a bold or
    italic face throughout (``Block.emphasis``), of at most :data:`FACE_CAPTION_LINES` lines
    and no larger than the text, starting at most :data:`FACE_CAPTION_REACH` ems under a
    figure (:data:`CENTRED_CAPTION_REACH` when centred under it: a newsletter's italic
    caption two ems under its photo) and within its width, and nearer to it than to
    anything under it in its column, is the picture's. A heading under a picture stands
    closer to the text it heads.
    """
    b = g.block
    if not b.emphasis or b.lines > FACE_CAPTION_LINES or b.size > em + 0.5:
        return False
    x0, y0, x1, y1 = g.box
    below = [
        o.box[1] - y1
        for o in groups
        if o is not g and o.box[1] >= y1 - 1 and min(o.box[2], x1) > max(o.box[0], x0)
    ]
    for r in figures:
        gap = y0 - r[3]
        centred = abs((x0 + x1) - (r[0] + r[2])) / 2 <= CENTRED_CAPTION_SLACK * em
        reach = CENTRED_CAPTION_REACH if centred else FACE_CAPTION_REACH
        if (
            -1 <= gap <= reach * em
            and r[0] - em <= x0
            and x1 <= r[2] + em
            and (not below or min(below) > gap)
        ):
            return True
    return False


# A caption's next lines follow its first at most this many of its sizes under it, set in
# its size to this share (a line holding a smaller sign comes out a point smaller).
TAIL_GAP = 0.6
TAIL_SIZE = 0.15
# ... and hold at most this many lines (a paragraph of the text grouped with them is none;
# SOSP's "Figure 1." runs on for seven lines under its first).
TAIL_LINES = 10
SENTENCE_ENDS = (".", "!", "?", ":")


def _one_family(a: str, b: str) -> bool:
    """Two families of one typeface: equal, or one the other's name with a weight's letters
    after it (Linux Libertine's bold "LinLibertineTB" beside "LinLibertineT")."""
    return bool(a) and bool(b) and (a.startswith(b) or b.startswith(a))


def caption_tails(groups: list[Group]) -> None:
    """Mark the rest of a caption whose first line was grouped apart (``float`` too).

    The RTAS paper sets "TABLE I: Round-trip socket and timer notification" over two more
    lines of the caption; the first line, grouped on its own, was the table's caption, the
    lines under it running text, read between the column above and the text under them.
    A block of a few lines (:data:`TAIL_LINES`) right under a caption's block (labelled, a
    float), in its family and size, from its left edge, at a line's spacing
    (:data:`TAIL_GAP`, :data:`TAIL_SIZE`), that goes on the caption's sentence (the
    caption's last line ends without closing it and the block opens in lower case or with a
    number) is the caption's; so is one going on the caption's single line after a word's
    space. Repeated down a chain of such blocks. (Running text carried on from another
    column opens in lower case too, under a caption that ends its sentence.)
    """
    captions = [
        g for g in groups if g.block.region == "float" and CAPTION_LABEL.match(first_line(g))
    ]
    while captions:
        cap = captions.pop()
        b = cap.block
        for g in groups:
            o = g.block
            if (
                not o.region
                and o.lines <= TAIL_LINES
                and abs(o.size - b.size) <= TAIL_SIZE * b.size
                and (_under(g, cap) or _on_its_line(g, cap))
            ):
                o.region = "float"
                captions.append(g)


def _under(g: Group, cap: Group) -> bool:
    """``g`` right under ``cap`` from its left edge, in one of its typefaces, going on its
    unfinished sentence in lower case.

    Any face of the caption's own lines counts: GENETICS sets "Figure 1" in a bold sans and
    the caption's words in the text's serif, and the block takes the label's style.
    """
    b = cap.block
    family = style_family(g.block.style)
    faces = {m.family for m in cap.segments} | {f for m in cap.segments for f, _ in m.words_in}
    return (
        any(_one_family(family, f) for f in faces | {style_family(b.style)})
        and abs(g.box[0] - cap.box[0]) <= b.size
        and -0.3 * b.size <= g.box[1] - cap.box[3] <= TAIL_GAP * b.size
        and not b.last_word.endswith(SENTENCE_ENDS)
        # In lower case or a number, no new sentence ("13B parameters on NVIDIA A100").
        and (g.block.first_word[:1].islower() or g.block.first_word[:1].isdigit())
    )


def _on_its_line(g: Group, cap: Group) -> bool:
    """``g`` going on ``cap``'s one line after a word's space, in any face (LAGraph's
    "Listing 1: LAGraph_Graph data structure and methods.", split at the fixed-pitch name,
    which gave the rest its style)."""
    b = cap.block
    level = min(g.box[3], cap.box[3]) - max(g.box[1], cap.box[1])
    return b.lines == 1 and level >= 0.5 * b.size and 0 <= g.box[0] - cap.box[2] <= b.size


def title_over(g: Group, groups: list[Group], figures: list, em: float) -> bool:
    """Is ``g`` the title line set right above a figure or table region?

    A Korean report's "[표 1] 감염병예방법 ... 비교" sits a line's spacing over its table's
    header row, set like a heading but no larger than the text: its style alone does not
    tell it from a heading read with the text, its place does. A block of one horizontal
    line, alone on its line across the region, holding at least :data:`TITLE_LETTERS`
    letters and ending without a sentence's closing mark, no larger than the page's text,
    whose bottom is at most :data:`TITLE_REACH` of its size above a region's top and which
    lies within the region's width, is that region's title: read like a caption. The label
    ("Table", "표") is not needed; the geometry is the evidence. A section heading over a
    figure is set larger or numbered (kept as a heading); a line of display math over one
    is in pieces, or too few letters.
    """
    head = g.segments[0]
    size = g.block.size
    if g.block.lines != 1 or head.direction != (1.0, 0.0) or size > em + 0.5:
        return False
    text = " ".join(u.text for seg in g.segments for u in seg.units).strip()
    if text.endswith(tuple(TITLE_OPEN_ENDS)) or sum(ch.isalpha() for ch in text) < TITLE_LETTERS:
        return False
    if SECTION_NUMBER.fullmatch(g.block.first_word):
        return False  # a numbered heading over a figure ("2-1 프로세스 설계") opens a section
    x0, y0, x1, y1 = g.box
    for r in figures:
        if not (-0.3 * size <= r[1] - y1 <= TITLE_REACH * size):
            continue
        if not (r[0] - size <= x0 and x1 <= r[2] + size):
            continue
        beside = any(
            o is not g
            and min(y1, o.box[3]) - max(y0, o.box[1]) > 0.5 * min(y1 - y0, o.box[3] - o.box[1])
            and min(r[2], o.box[2]) > max(r[0], o.box[0])
            for o in groups
        )
        if not beside:
            return True
    return False


# A caption sits at most this many ems under its figure (the same reach as beside one).
CAPTION_REACH = CAPTION_NEAR
# A caption's paragraph ends at its first line that stops this many sizes short of the block's
# right edge (a centred or ragged last line; justified running text reaches the edge).
CAPTION_SHORT = 1.0
# A centred line (in this many sizes from both edges) ends its caption too, unless the lines
# under it go on centred (see _caption_end).
CAPTION_CENTRED = 0.5
# At least this many lines of running text are left under a caption split off.
CAPTION_REST = 2


def split_fused_captions(
    groups: list[Group], figures: list, em: float, rot: tuple, paragraph
) -> list[Group]:
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
    read as one already. A block that is all caption (its first short line is its last) is
    read as one whole.

    Args:
        groups: the page's blocks.
        figures: the figure regions (unrotated points).
        em: the page's text size.
        rot: the page's rotation matrix.
        paragraph: tells whether a block holds a paragraph of running text.
    """
    out: list[Group] = []
    next_id = next_block_id(groups)
    for g in groups:
        if g.block.region or g.segments[0].direction != (1.0, 0.0):
            out.append(g)
            continue
        parts = _caption_under(g, figures, em, rot, next_id, paragraph)
        next_id += len(parts) - 1
        body = parts[-1]
        k = _caption_over(body, figures, em) if not body.block.region else None
        if k is not None:
            members = body.segments
            body, cap = split_group(body, members[:k], members[k:], rot, next_id, 1)
            next_id += 1
            cap.block.region = "float"
            parts = [*parts[:-1], body, cap]
        out += parts
    return out


def _caption_under(g: Group, figures: list, em: float, rot, next_id: int, paragraph) -> list:
    """``g``, or the caption it opens under a figure and the paragraph after it (the
    caption first, ``float``, with ``next_id``); see :func:`split_fused_captions`."""
    members = g.segments
    head = members[0]
    x0, _y0, x1, _y1 = g.box
    if (
        len(members) < 2
        or not paragraph(g)
        or not CAPTION_LABEL.match(first_line(g))
        or not any(
            min(x1, r[2]) > max(x0, r[0]) and -em <= head.box[1] - r[3] <= CAPTION_REACH * em
            for r in figures
        )
    ):
        return [g]
    short = _caption_end(members, x0, x1)
    bottom = short.box[3] - 0.3 * short.size if short is not None else None
    caption = [m for m in members if bottom is not None and m.box[1] < bottom]
    rest = [m for m in members if bottom is None or m.box[1] >= bottom]
    if caption and not rest:
        # The whole block is the caption, ending in its short line: a long caption
        # (ACL's "Table 1: ... HMM-T outperforms N-GRAMS ...") measures like a paragraph.
        g.block.region = "float"
        return [g]
    if caption and all(m.size < FOOTNOTE_SIZE_RATIO * em for m in rest):
        # Set smaller than the text, the lines under the caption's title are its legend
        # ("Figure 6 Binding of ..." over "(A) Residues of ..."), not the text resuming.
        g.block.region = "float"
        return [g]
    if not caption or len({round(m.box[1]) for m in rest}) < CAPTION_REST:
        return [g]
    cap, body = split_group(g, caption, rest, rot, next_id, 0)
    cap.block.region = "float"
    return [cap, body]


# A sentence ends a paragraph's line with one of these before a caption's line under it.
_SENTENCE_END = (".", "。", "．", ":", "：", "!", "?")


def _caption_over(g: Group, figures: list, em: float) -> int | None:
    """Where a caption set over its table or figure starts in the paragraph above it.

    Korean papers title a table over it ("[표 4] 모델의 크기와 …", centred), in the text's
    font and size, a line's spacing under the paragraph before: the caption's lines group
    with that paragraph, and with the table's cells under it. A line that opens with a
    caption's label, after a line that ends a sentence, over a figure or table that starts
    under it (before the block's foot, or within :data:`CAPTION_REACH` ems of it, across
    the same width), starts the caption: it and the lines under it are read like one.
    Returns the index of its first line, or None.
    """
    x0, _y0, x1, y1 = g.box
    members = g.segments
    for k in range(1, len(members)):
        m, prev = members[k], members[k - 1]
        if (
            m.box[1] > prev.box[3] - 0.3 * m.size  # the first piece of a line of its own
            and segment_text(prev).rstrip().endswith(_SENTENCE_END)
            and CAPTION_LABEL.match(segment_text(m))
            and any(
                min(x1, r[2]) > max(x0, r[0]) and m.box[3] <= r[1] <= y1 + CAPTION_REACH * em
                for r in figures
            )
        ):
            return k
    return None


def _caption_end(members: list, x0: float, x1: float):
    """The last line of the caption a block opens with, or None.

    The caption ends at its first line that stops short of the block's right edge, or is
    centred in it. A caption set centred line by line (REVTeX's "FIG. 2: Time evolution of
    the Gaussian wave" over lines centred under it, and a full one among them) goes on past
    a centred line while the lines under it are centred or full, to the last centred one:
    running text set under a caption is justified, so its lines are full until one ends
    short at the left edge, and that line is not centred.
    """

    def centred(m) -> bool:
        return min(m.box[0] - x0, x1 - m.box[2]) >= CAPTION_CENTRED * m.size

    end = None
    for m in members:
        if end is None:
            if m.box[2] < x1 - CAPTION_SHORT * m.size or centred(m):
                end = m
                if not centred(m):
                    return end
        elif centred(m):
            end = m
        elif m.box[2] < x1 - CAPTION_SHORT * m.size:
            return end
    return end


def first_line(g: Group) -> str:
    """The words of ``g``'s first line piece, one space apart."""
    return segment_text(g.segments[0])


def caption_groups(labelled: list[Group], groups: list[Group]) -> set[int]:
    """The ``id`` of each caption's block: those opening with a label, and the blocks that go
    on from one right under it in its size (Nature sets "Figure 2" and its title in bold, a
    block of their own, and the caption's five lines in roman under them: taken for a
    paragraph, they made the chart above a frame round text, and it was read)."""
    found = {id(g) for g in labelled}
    chain = list(labelled)
    while chain:
        c = chain.pop()
        for g in groups:
            if id(g) in found or g.block.direction != c.block.direction:
                continue
            gap = g.box[1] - c.box[3]
            if (
                -1 <= gap <= 0.5 * c.block.size
                and abs(g.block.size - c.block.size) <= 0.1 * c.block.size
                and g.box[0] >= c.box[0] - 1
                and g.box[2] <= c.box[2] + c.block.size
            ):
                found.add(id(g))
                chain.append(g)
    return found


# A figure set as text stacks at least this many lines over its caption.
TEXT_FIGURE_LINES = 4


def captions_of_text_figures(
    labelled: list[Group], groups: list[Group], em: float, paragraph
) -> None:
    """Read as a float the caption of a figure drawn with no drawing, set as text in faces
    other than the text's.

    A student's paper sets its program in bold keywords and italic names over "Figure 1:
    Program described in [8]" (algorithmic's style, no rules, no line numbers): nothing is
    drawn, so no figure region holds it, and its caption, set in the text's face, was read
    in a drag past it (the program's own lines, in other faces, were left out). A block of
    ``labelled`` (opening with a caption's label) of at most three lines is a float when the
    blocks stacked right
    over it, each at most :data:`CAPTION_NEAR` ems over the next and across some of its
    width, hold :data:`TEXT_FIGURE_LINES` lines or more, none set in the text's style (the
    style covering most of the page, :func:`.text_blocks.text_style`), none larger than the
    text (a title or a heading) and none a paragraph (``paragraph``).
    """
    if not labelled:
        return
    text = text_style(g.block for g in groups)
    for cap in labelled:
        if cap.block.region or cap.block.lines > 3:
            continue
        x0, y0, x1 = cap.box[0], cap.box[1], cap.box[2]
        lines = 0
        while lines < TEXT_FIGURE_LINES:
            over = [
                g
                for g in groups
                if g is not cap
                and -1 <= y0 - g.box[3] <= CAPTION_NEAR * em
                and g.box[1] < y0
                and min(g.box[2], x1) > max(g.box[0], x0)
            ]
            if not over:
                break
            g = max(over, key=lambda o: o.box[3])
            b = g.block
            if b.style == text or b.size > em + 0.5 or b.region or paragraph(g):
                break
            lines += b.lines
            y0 = g.box[1]
        if lines >= TEXT_FIGURE_LINES:
            cap.block.region = "float"
