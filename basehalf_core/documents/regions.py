"""Figures, tables and boxes from a page's drawings: the blocks read as floats and boxes.

Besides the regions themselves, the page's rules and boxes are found here and the blocks
they run through split (:mod:`basehalf_core.documents.rule_splits`: a footnote under a short
rule, a table's top rule, a head on a box's top edge); what stands beside a region and
belongs to it (captions, titles, labels) is told in :mod:`basehalf_core.documents.captions`
and :mod:`basehalf_core.documents.figure_labels`.
"""

from __future__ import annotations

from typing import NamedTuple

import pymupdf

from basehalf_core.documents.captions import (
    CAPTION_LABEL,
    caption_beside,
    caption_by_face,
    caption_groups,
    caption_tails,
    captions_of_text_figures,
    credit_under,
    first_line,
    split_fused_captions,
    title_over,
)
from basehalf_core.documents.figure_labels import near, panel_labels
from basehalf_core.documents.figure_parts import (
    captioned,
    join_parts,
    numbered_listings,
    take_in_labels,
)
from basehalf_core.documents.grouping import Group, segment_text
from basehalf_core.documents.line_pieces import SENTENCE_END
from basehalf_core.documents.outlines import (
    FRAME_LINE_CHARS,
    frames_of,
    headed_table,
    joined_rules,
    mark_frames,
    rule_pairs,
    ruled_tables,
    ruled_top,
    same_rect,
    with_head_row,
    with_tail_rows,
    within,
)
from basehalf_core.documents.page_log import read_log
from basehalf_core.documents.raw_text import PYMUPDF_LOCK, _invisible
from basehalf_core.documents.rule_splits import (
    COLUMN_RULE_EMS,
    RULE_EM,
    RULE_THICKNESS,
    mark_footnote_rules,
    split_at_box_tops,
    split_at_rule,
)
from basehalf_core.documents.runaround import (
    interleave,
    merge_runaround,
    runaround_pairs,
    straddled_pairs,
)
from basehalf_core.documents.text import full_width
from basehalf_core.documents.text_blocks import HEADING_LINES, TINY_RATIO, text_size

# Page marks that draw something (text, clips and the like are left out).
GRAPHIC_KINDS = ("fill-path", "stroke-path", "fill-image", "fill-imgmask", "fill-shade")
# More drawings than this on a page (a plot of thousands of points) and regions are not sought.
MAX_GRAPHICS = 4000
# A figure's region holding a paragraph (this many lines, :data:`.outlines.FRAME_LINE_CHARS`
# characters a line on average) is a frame or column rules around running text.
FRAME_LINES = 4
# A card's paragraph is set in the text's size, give or take this share of it.
CARD_SIZE_SLACK = 0.05


def _cluster(rects: list, gap: float) -> list[list[float]]:
    """Rectangles merged while any two lie within ``gap`` of each other."""
    out: list[list[float]] = []
    for r in sorted(rects, key=lambda r: r[1]):
        r = list(r)
        merged = True
        while merged:
            merged = False
            for k, c in enumerate(out):
                if near(r, c, gap):
                    r = [min(r[0], c[0]), min(r[1], c[1]), max(r[2], c[2]), max(r[3], c[3])]
                    out.pop(k)
                    merged = True
                    break
        out.append(r)
    return out


def _graphics(
    page: pymupdf.Page, em: float, captions: list, text: list = ()
) -> tuple[list, list, list, list, list, list, list]:
    """Figure regions (images and drawings grouped), drawings too low to be figures unless
    captioned, filled boxes, rules and frames (see :func:`.outlines.frames_of`), upright
    rules and pictures (images drawn), unrotated points. ``captions``: the boxes of the blocks
    opening with a caption's label (they part ruled tables, see
    :func:`.outlines.ruled_tables`).

    Regions smaller than two ems either way are rules and underlines; larger than half the
    page, a background or a page frame. A box is a filled rectangle of a colour other than
    white; colours are read only when such a rectangle is drawn. A rule is a mark at most
    :data:`RULE_THICKNESS` points thick (:data:`RULE_EM` of an em on a poster set large)
    and at least two ems long; a column rule, as thin, stands upright at least
    :data:`COLUMN_RULE_EMS` ems tall. Such a rule with ``text`` (the blocks' boxes) or
    pictures beside it on both sides, along most of its length, parts two columns: it groups
    no figure (a magazine's rule between its columns ran from a photo in one to a photo in
    the other, and the whole page was read as one figure).
    """
    with PYMUPDF_LOCK:
        mb = page.mediabox
    log = read_log(page, text)
    half = 0.5 * mb.width * mb.height
    marks = [tuple(r) for kind, r in log if kind in GRAPHIC_KINDS]
    marks = [r for r in marks if (r[2] - r[0]) * (r[3] - r[1]) < half]
    if not marks or len(marks) > MAX_GRAPHICS:
        return [], [], [], [], [], [], []
    thin = max(RULE_THICKNESS, RULE_EM * em)
    joined, joints = joined_rules([r for r in marks if r[3] - r[1] <= thin])
    rules = [r for r in joined if r[2] - r[0] >= 2 * em]
    posts = [r for r in marks if r[2] - r[0] <= thin and r[3] - r[1] >= COLUMN_RULE_EMS * em]

    def sized(r, w: float, h: float) -> bool:
        return r[2] - r[0] >= w * em and r[3] - r[1] >= h * em

    boxes, frames = [], []
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
            if "s" in d.get("type", "") and sized(r, 1, 1) and small:
                frames.append(r)
        unseen += _text_backgrounds(white, marks, inked, unseen)
        if unseen:
            marks = [r for r in marks if not any(same_rect(r, q) for q in unseen)]
    # A column holds pictures too: a photo beside the rule is a column's as text is.
    pictures = [tuple(r) for kind, r in log if kind == "fill-image"]
    gutters = [r for r in posts if _between_columns(r, [*text, *pictures], em)]
    # A bar drawn across the page (a newsletter's footer band) is no part of a figure: it
    # joined a photo standing on it, and their box took in a photo in the column above.
    bars = [
        tuple(r)
        for kind, r in log
        if kind == "fill-path"
        and r[2] - r[0] >= BACKGROUND_WIDTH * mb.width
        and em <= r[3] - r[1] <= BAR_HEIGHT * em
    ]
    clusters = _cluster([r for r in marks if r not in gutters and r not in bars], 0.5 * em)
    figures = [r for r in clusters if sized(r, 2, 2)]
    # Lower than two ems, a drawing is a figure only with a caption beside it (a line of
    # text boxed by four rules: LaTeX's \fbox; a bar half an em tall between its labels, a
    # search space drawn as a line), which mark_regions looks for.
    small = [r for r in clusters if not sized(r, 2, 2) and sized(r, 2, SMALL_FIGURE_EMS)]
    figures += ruled_tables(rules, em, captions, joints)
    return figures, small, boxes, rules, frames_of(frames, em), posts, pictures


# An item's number in a box: at most this many characters, in a box at most this many of
# its sizes wide, its heading starting at most ITEM_GAP of them right of the box.
ITEM_CHARS = 3
ITEM_BOX = 3.0
ITEM_GAP = 2.0


def _number_square(box, groups: list[Group], em: float, inside) -> bool:
    """Is ``box`` a small square holding only an item's number ("2" on a coloured square)
    with the item's heading starting right of it, level with it?"""
    inner = [g for g in groups if inside(g, box)]
    if len(inner) != 1 or inner[0].block.chars > ITEM_CHARS or inner[0].block.lines != 1:
        return False
    size = inner[0].block.size
    if box[2] - box[0] > ITEM_BOX * size:
        return False
    return any(
        g is not inner[0]
        and 0 <= g.box[0] - box[2] <= ITEM_GAP * size
        and min(g.box[3], box[3]) - max(g.box[1], box[1]) > 0.3 * size
        for g in groups
    )


# A drawing lower than two ems but at least this many tall may be a figure by its caption.
SMALL_FIGURE_EMS = 0.5
# A filled box at least this share of the page's width is its background.
BACKGROUND_WIDTH = 0.9
# A fill as wide, an em to this many ems tall, is a bar across the page (a thinner one is a
# rule: a page's frame).
BAR_HEIGHT = 6.0

# A column rule has text beside it on each side within this many ems, along at least
# COLUMN_RULE_SHARE of its length.
COLUMN_RULE_REACH = 2.0
COLUMN_RULE_SHARE = 0.5


def _between_columns(post, text: list, em: float) -> bool:
    """Does an upright rule stand between text on its left and text on its right along at
    least :data:`COLUMN_RULE_SHARE` of its length?"""
    x = (post[0] + post[2]) / 2
    length = post[3] - post[1]

    def along(side) -> float:
        spans = sorted(
            (max(b[1], post[1]), min(b[3], post[3]))
            for b in text
            if side(b) and min(b[3], post[3]) > max(b[1], post[1])
        )
        covered, end = 0.0, post[1]
        for lo, hi in spans:
            lo = max(lo, end)
            if hi > lo:
                covered += hi - lo
                end = hi
        return covered

    reach = COLUMN_RULE_REACH * em
    left = along(lambda b: b[2] <= x and x - b[2] <= reach)
    right = along(lambda b: b[0] >= x and b[0] - x <= reach)
    return min(left, right) >= COLUMN_RULE_SHARE * length


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
    drawn = [r for r in marks if not any(same_rect(r, q) for q in white + unseen)] + inked
    centres = [((r[0] + r[2]) / 2, (r[1] + r[3]) / 2) for r in drawn]
    return [
        w for w in white if not any(w[0] <= x <= w[2] and w[1] <= y <= w[3] for x, y in centres)
    ]


class Drawn(NamedTuple):
    """What the page draws that the reading order looks at, in displayed space (y down)."""

    regions: list[tuple]  # figures and boxes, also those holding no text
    column_rules: list[tuple]  # upright rules between columns
    cross_rules: list[tuple]  # rules drawn across: one may part a page's columns


def _holds_chars(g: Group, wide: int) -> bool:
    """Does ``g`` hold ``wide`` characters at least, a CJK or Hangul character counting as
    two Latin ones (a Korean column's lines hold about thirty)? Its characters are counted
    by width only where the plain count falls short."""
    return g.block.chars >= wide or (
        g.block.chars + sum(full_width(segment_text(m)) for m in g.segments) >= wide
    )


def _card(held: list[Group], em: float, floor: float = 1 - CARD_SIZE_SLACK) -> bool:
    """Do ``held``, the groups inside a drawn shape, make a card: a short paragraph under
    at most one head?

    A slide's card (a tinted title bar over two lines of text, in a rounded frame) holds
    fewer lines than a paragraph, but its text is running text: sentences in the text's size
    (``floor`` of it at least), its lines as full as a paragraph's (a CJK character counting
    as two Latin ones). A figure's labels or a table's cells are many groups, or short, or
    set smaller.
    """
    prose = [
        g
        for g in held
        if g.block.lines >= 2
        and floor * em <= g.block.size <= (1 + CARD_SIZE_SLACK) * em
        and _holds_chars(g, FRAME_LINE_CHARS * g.block.lines)
        and g.block.last_word.endswith(SENTENCE_END)
    ]
    if len(prose) != 1 or len(held) > 2:
        return False
    # Its head, if any, stands over it (a flyer's links under a paragraph make no card).
    return all(g.box[3] <= prose[0].box[1] for g in held if g is not prose[0])


# Cards in frames of their own may set their text this share of the page's text size (a
# flyer's four cards in 8.5 points under a lead in 10.5).
GRID_CARD_SIZE = 0.75


def _framed_cards(held: list[Group], em: float) -> bool:
    """Do ``held``, the groups inside a figure's region, make cards drawn round: frames
    each holding a card of its own (a short paragraph under at most one head, set smaller
    than the text down to :data:`GRID_CARD_SIZE` of it), and most of the region's groups in
    them?

    A flyer draws four cards two by two, each a head over three lines in 8.5 points in its
    own rounded frame, its accent bar beside it, under a lead in 10.5: their drawings cluster
    into one region, which holds no paragraph of four lines, and the cards' text was left out
    as a figure's.
    """
    frames: dict[tuple, list[Group]] = {}
    for g in held:
        if g.block.frame:
            frames.setdefault(g.block.frame, []).append(g)
    return (
        bool(frames)
        and 2 * sum(map(len, frames.values())) >= len(held)
        and all(_card(inner, em, GRID_CARD_SIZE) for inner in frames.values())
    )


def mark_regions(groups: list[Group], page: pymupdf.Page) -> Drawn:
    """Set ``Block.region``: ``box`` inside a filled box, ``float`` for figure and table
    contents (inside a figure region) and for a caption beside one.

    A region holding a paragraph (a frame or column rules around running text) is no figure.

    Returns:
        The figures' and boxes' rectangles (also those holding no text at all, a chessboard
        drawn with rules: what stands between blocks) and the upright rules.
    """
    em = max(text_size(g.block for g in groups) or 10.0, 4.0)
    labelled = [g for g in groups if CAPTION_LABEL.match(first_line(g))]
    rot = tuple(page.rotation_matrix)
    figures, small, boxes, rules, frames, posts, pictures = _graphics(
        page, em, [g.box for g in labelled], [g.box for g in groups]
    )
    # A frame's sides part what it holds from what stands beside it, as a column rule does.
    posts += [
        (x, f[1], x, f[3])
        for f in frames
        if f[3] - f[1] >= COLUMN_RULE_EMS * em
        for x in (f[0], f[2])
    ]
    turn = pymupdf.Matrix(rot)
    column_rules = [tuple(pymupdf.Rect(r) * turn) for r in posts]
    cross_rules = [tuple(pymupdf.Rect(r) * turn) for r in rules]
    figures += [r for r in small if captioned(r, labelled, groups, em)]

    def paragraph(g: Group, lines: int = FRAME_LINES) -> bool:
        # In the text's size: a document's page shown small inside a figure holds paragraphs.
        return (
            g.block.lines >= lines
            and g.block.size >= TINY_RATIO * em
            and _holds_chars(g, FRAME_LINE_CHARS * g.block.lines)
        )

    captions_of_text_figures(labelled, groups, em, paragraph)
    # A code listing under (or over) its caption ("Listing 1: DAG definition example") is a
    # float like a figure, though nothing is drawn: a captioned block in a typewriter face,
    # or the lines beside a run of line numbers (with their head). Listings hold no running
    # text, however long their lines (see holds_text below).
    listings = [g.box for g in groups if g.block.fixed and captioned(g.box, labelled, groups, em)]
    listings += numbered_listings(groups, em, labelled, figures)
    for r in figures + listings:
        if ruled_top(r, rules):
            while split_at_rule(groups, (r[0], r[1], r[2], r[1]), rot, table=em):
                pass
    tables = rule_pairs(rules, em)
    figures += [t for t in (headed_table(r, labelled, groups, em) for r in tables) if t]
    if not figures and not boxes and not tables and not listings:
        if rules:
            mark_footnote_rules(groups, rules, page.rect.height, rot)
        return Drawn([], column_rules, cross_rules)

    def inside(g: Group, r) -> bool:
        cx, cy = (g.box[0] + g.box[2]) / 2, (g.box[1] + g.box[3]) / 2
        return r[0] - 1 <= cx <= r[2] + 1 and r[1] - 1 <= cy <= r[3] + 1

    mark_frames(groups, frames, page, paragraph)

    captions = caption_groups(labelled, groups)

    def holds_text(r) -> bool:
        # A caption the figure's loose box takes in (a graph's curved arrows reach past it)
        # is no paragraph that makes the region running text: it is the figure's.
        held = [g for g in groups if inside(g, r) and id(g) not in captions]
        return any(paragraph(g) for g in held) or _card(held, em) or _framed_cards(held, em)

    figures = [r for r in figures if not holds_text(r)] + listings
    figures = join_parts(figures, groups, em, inside, rules)
    figures = [with_head_row(r, groups, rules, em, inside) for r in figures]
    figures = [with_tail_rows(r, groups, rules, em, inside) for r in figures]
    # A banner is drawn as a filled box, and its fill is a mark that makes a figure too. Its
    # heading is read in the flow: no title or caption of the figure under it either.
    regions = boxes + figures
    sheet = (0, 0, page.mediabox.width, page.mediabox.height)  # unrotated, as the boxes are
    banners = [
        r
        for r in regions
        if _banner(r, [g for g in groups if inside(g, r)], em, sheet)
        # A poster's section or a table has its own band: that heading is the region's. A
        # band at a region's foot heads what lies under it (a newsletter's band right under
        # a photo, which the photo's cluster took in).
        and not any(within(r, q) and r[3] < q[3] - 1 for q in regions)
    ]
    figures = [r for r in figures if r not in banners]
    boxes = [r for r in boxes if r not in banners]
    # An item's number set in a small box of its own beside its heading is the heading's.
    boxes = [r for r in boxes if not _number_square(r, groups, em, inside)]
    figures = [r for r in figures if not _number_square(r, groups, em, inside)]
    # A tint across the page's whole width is the page's background, not a sidebar: what is
    # printed on it is read as if on white (a magazine's article opening on a blue ground),
    # a box drawn on it is a box.
    width = page.rect.width
    boxes = [r for r in boxes if r[2] - r[0] < BACKGROUND_WIDTH * width]
    if figures:
        groups[:] = split_fused_captions(groups, figures, em, rot, paragraph)
        figures = take_in_labels(figures, groups, em, inside, paragraph)
    split_at_box_tops(groups, boxes, rot)
    _boxes_as_frames(groups, boxes, turn, inside)
    headings = [(g, r) for g in groups for r in banners if inside(g, r)]
    # A drawn table's own rule (its bottom rule, a paragraph right under it) is no footnote
    # rule; the pairs of rules that only place captions are not looked at (a footnote rule
    # pairs with the rule over a permission block).
    notes_rules = [r for r in rules if not any(within(r, q, 2.0) for q in figures)]
    if notes_rules:
        mark_footnote_rules(groups, notes_rules, page.rect.height, rot)
    wrapped = runaround_pairs(groups, pictures)  # pieces of lines a picture breaks
    straddling = straddled_pairs(groups, pictures)  # a paragraph run round both its sides
    for g in groups:
        if any(g is h for h, _r in headings):
            continue
        if any(inside(g, r) for r in boxes):
            g.block.region = "box"
        elif any(inside(g, r) for r in figures) and id(g) not in wrapped:
            g.block.region = "float"
        elif CAPTION_LABEL.match(first_line(g)):
            # A long caption holds as many lines as a paragraph: it is one only right beside
            # its figure, not across white space.
            far = not paragraph(g)
            if any(caption_beside(g, r, groups, em, far) for r in figures + tables):
                g.block.region = "float"
        elif (
            title_over(g, groups, figures, em)
            or credit_under(g, figures, em)
            or caption_by_face(g, groups, figures, em)
        ):
            g.block.region = "float"
    caption_tails(groups)
    merge_runaround(groups, wrapped.values(), rot)
    interleave(groups, straddling, rot)
    for g, band in headings:
        g.block.region = _region_under(g, groups, em)
        g.block.banner = True
        # The band, not its words, is what stands across the page: no column is cut through
        # it (a poster's full-width "References" band was read between two columns above it).
        x0, y0, x1, y1 = pymupdf.Rect(band[0], g.box[1], band[2], g.box[3]) * turn
        g.block.bbox = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    if figures:
        panel_labels(groups, figures, em)
    regions = [tuple(pymupdf.Rect(r) * turn) for r in figures + boxes]
    return Drawn(regions, column_rules, cross_rules)


def _boxes_as_frames(groups: list[Group], boxes: list, turn: pymupdf.Matrix, inside) -> None:
    """Read each of a row of boxed cards as one, as what a frame holds (``Block.frame``).

    A slide sets three cards side by side, each a tinted box holding a head over a line or
    two: the heads stand level across the boxes and were read as a row, before every card's
    text. Boxes standing level, each holding a head of one line (set larger or in bold or
    italic) over at most :data:`BOXED_CARD_BLOCKS` blocks under it, none in a frame already,
    are cards: each is read whole.
    """
    cards = []
    for r in boxes:
        inner = sorted((g for g in groups if inside(g, r)), key=lambda g: g.box[1])
        if _boxed_card(inner) and not any(g.block.frame for g in inner):
            cards.append((r, inner))
    for r, inner in cards:
        level = [q for q, _ in cards if q is not r and abs(q[1] - r[1]) <= inner[0].block.size]
        if not level:
            continue
        x0, y0, x1, y1 = pymupdf.Rect(r) * turn
        for g in inner:
            g.block.frame = (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


# A boxed card holds at most this many blocks under its head.
BOXED_CARD_BLOCKS = 2


def _boxed_card(inner: list[Group]) -> bool:
    """Do ``inner``, what a box holds from the top down, make a card: a head of one line,
    set larger than what is under it or in bold or italic, over one or two blocks?"""
    if not 2 <= len(inner) <= BOXED_CARD_BLOCKS + 1:
        return False
    head, under = inner[0], inner[1:]
    return (
        head.block.lines == 1
        and (head.block.emphasis or head.block.size > max(g.block.size for g in under))
        and all(g.box[1] >= head.box[3] - 1 for g in under)
    )


def _region_under(head: Group, groups: list[Group], em: float) -> str:
    """The region of the text a banner heads: the nearest block under it, across its width.

    A poster's column head sits on its own band over the column's box, a table's over the
    table: the heading is read with what it heads, in the flow or in the box.
    """
    x0, _y0, x1, y1 = head.box
    under = [
        g
        for g in groups
        if g is not head
        and g.box[1] >= y1 - 0.5 * em
        and g.box[1] - y1 <= BANNER_REACH * em
        and g.box[0] < x1
        and x0 < g.box[2]
    ]
    return min(under, key=lambda g: g.box[1]).block.region if under else ""


# A banner's heading is at most ``HEADING_LINES`` lines, as a heading between a drag's ends
# is, in the text's size or larger. The band is at most this many times the heading's height
# (a placeholder image with one word in it is much taller; a Canva heading box pads its
# 30-point line with 18 points above and below).
BANNER_HEIGHT = 2.5
# ... and at least this many times as wide as it is tall (a logo's button is not a band),
# half that for a heading at least BANNER_DISPLAY times the text's size.
BANNER_SHAPE = 4.0
BANNER_DISPLAY = 2.0
# A banner's heading takes three lines set at display size, or this many times the text's
# size and not ending as a quotation or a sentence with a full stop does.
BANNER_LINES = 3
BANNER_HEAD_RATIO = 1.3
QUOTE_ENDS = (".", '"', "”", "’", "»", "…")
# The text a banner heads starts at most this many ems under it.
BANNER_REACH = 4.0


def _banner(box, inner: list[Group], em: float, sheet) -> bool:
    """A filled box holding only a heading is a banner the heading sits on, not a sidebar.

    A newsletter's "NEWS" or a flyer's "Join R-Ladies Freiburg!" is set on a coloured band in
    the flow of the text; read as a boxed sidebar, a drag from the paragraph above it to the
    one below left it out. A sidebar holds text of its own; a banner holds one block of at most
    :data:`HEADING_LINES` lines set in the text's size or larger, on a band at most
    :data:`BANNER_HEIGHT` times its height and at least :data:`BANNER_SHAPE` times as wide as
    tall (a title at :data:`BANNER_DISPLAY` times the text's size or more, or a heading at
    :data:`BANNER_HEAD_RATIO` times it that ends no quotation: three lines, half as wide), the
    band measured as far as it shows on ``sheet`` (unrotated points). The band makes it a
    heading, not its size: a rulebook sets "1.2 Inspirations" in 12 points over 11-point text,
    under the ratio a heading between a drag's ends needs.
    """
    if len(inner) != 1:
        return False
    head = inner[0]
    # What shows of the band: one bled off the sheet's edge is as tall as it looks.
    box = (
        max(box[0], sheet[0]),
        max(box[1], sheet[1]),
        min(box[2], sheet[2]),
        min(box[3], sheet[3]),
    )
    height = box[3] - box[1]
    # A page's title set at display size takes three lines on a band half as wide (a
    # brochure's "Which therapies are effective to improve arm and hand function?").
    display = head.block.size >= BANNER_DISPLAY * em
    # A question set large on a grey band in three lines (a tri-fold's "What if you don't /
    # recover from your injury / as planned?" at 16 points over 11) is a heading as well; a
    # boxed pull quote, as large, ends its sentence with a full stop or a closing quote.
    asked = head.block.size >= BANNER_HEAD_RATIO * em and not head.block.last_word.endswith(
        QUOTE_ENDS
    )
    tall = head.block.lines > HEADING_LINES
    return (
        height <= BANNER_HEIGHT * (head.box[3] - head.box[1])
        and box[2] - box[0] >= BANNER_SHAPE * height / (2 if display or tall else 1)
        and head.block.lines <= (BANNER_LINES if display or asked else HEADING_LINES)
        and head.block.size >= em
    )
