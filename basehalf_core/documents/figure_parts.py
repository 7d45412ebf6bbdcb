"""The parts of a figure its drawings leave out: the labels set round it in its own font, a
second cluster of its drawings, and a drawing too low to be a figure but for its caption;
and a numbered listing, a figure drawn with no drawing at all.

:mod:`.regions` clusters a page's drawings into figure regions; these rules grow and join
those regions, each from what stands at its edge (unrotated points throughout).
"""

from __future__ import annotations

from basehalf_core.documents.captions import CAPTION_LABEL, caption_beside, first_line
from basehalf_core.documents.grouping import Group
from basehalf_core.documents.text import style_family

__all__ = ["captioned", "join_parts", "numbered_listings", "take_in_labels"]


# A figure's label is set smaller than the text, at most this share of its size (a line of
# display math beside a figure is set in the text's size).
LABEL_SIZE = 0.95


def captioned(r, labelled: list[Group], groups: list[Group], em: float) -> bool:
    """Does one of the caption-labelled blocks ``labelled`` stand right above or under the
    region ``r`` (within :data:`.captions.CAPTION_NEAR` ems)?"""
    return any(caption_beside(g, r, groups, em, False) for g in labelled)


def _label(g: Group, own: set[str], em: float) -> bool:
    """A figure's label: at most two lines, smaller than the text, in one of ``own``'s font
    families, no caption."""
    return (
        g.block.lines <= 2
        and g.block.size <= LABEL_SIZE * em
        and style_family(g.block.style) in own
        and not CAPTION_LABEL.match(first_line(g))
    )


def take_in_labels(figures: list, groups: list[Group], em: float, inside, paragraph) -> list:
    """Figure regions grown by the labels set right under or over them in the figure's own
    font: a chart's legend, a row of short lines under its plot, whose markers are too thin
    to be drawn into its region.

    A label is a block of at most two lines, smaller than the text (:data:`LABEL_SIZE`), at
    most an em from the
    region and across some of its width, set in a font family that some block inside the
    region is set in and no paragraph of running text is (Calibri's legend under an Excel
    chart in a Times paper). Then the caption under the legend stands beside the figure.
    """
    text = {
        style_family(g.block.style)
        for g in groups
        if paragraph(g) and not any(inside(g, r) for r in figures)
    }
    grown = list(figures)
    for k, r in enumerate(grown):
        own = {style_family(g.block.style) for g in groups if inside(g, r)} - text
        changed = bool(own)
        while changed:
            changed = False
            for g in groups:
                x0, y0, x1, y1 = g.box
                near = -1 <= y0 - r[3] <= em or -1 <= r[1] - y1 <= em
                if (
                    near
                    and min(x1, r[2]) > max(x0, r[0])
                    and not inside(g, r)
                    and _label(g, own, em)
                ):
                    wider = (min(r[0], x0), min(r[1], y0), max(r[2], x1), max(r[3], y1))
                    if any(
                        inside(o, wider) and not inside(o, r) and not _label(o, own, em)
                        for o in groups
                    ):
                        continue  # it would take in more than labels
                    r = wider
                    changed = True
        grown[k] = r
    return grown


# Two parts of one figure stand at most this many ems apart, one over the other.
PART_GAP = 2.0
# A label of two lines between two parts holds at most this many characters a line.
PART_LABEL_CHARS = 12


def _not_label(g: Group) -> bool:
    """Is ``g`` more than a line, or two short lines ("K − O" over "Key Space"), of text?"""
    return g.block.lines > 2 or (g.block.lines == 2 and g.block.chars > 2 * PART_LABEL_CHARS)


def join_parts(figures: list, groups: list[Group], em: float, inside, rules=()) -> list:
    """Figure regions with the parts of one figure joined: two regions one right over the
    other (at most :data:`PART_GAP` ems apart, across the same width) with only single lines
    between them, none a caption, are one figure and those lines its contents, unless the box
    round both takes in any other text (a table over one column's plot takes in the other
    column's paragraphs; a running head's band over a figure, the column beside it).

    A paper draws a sentence as a figure, three lines of words with arrows between them: the
    arrows under the first line and those round the other two cluster apart, and the middle
    line, between the two, was read as running text.

    A rule right under a figure is a part of it too (Warp's key space: a row of servers'
    icons, a label under each, an axis drawn as a rule under the labels), never a figure on
    its own: ``rules`` join a figure, not each other.
    """
    rules = [r for r in rules if r not in figures]
    figures = list(figures)
    joined = True
    while joined:
        joined = False
        for a in figures:
            for b in figures + rules:
                if a is b or not 0 <= b[1] - a[3] <= PART_GAP * em:
                    continue
                if min(a[2], b[2]) - max(a[0], b[0]) < 0.5 * min(a[2] - a[0], b[2] - b[0]):
                    continue
                between = [
                    g
                    for g in groups
                    if a[3] - 1 <= (g.box[1] + g.box[3]) / 2 <= b[1] + 1
                    and min(g.box[2], a[2], b[2]) > max(g.box[0], a[0], b[0])
                ]
                if any(_not_label(g) or CAPTION_LABEL.match(first_line(g)) for g in between):
                    continue
                union = (min(a[0], b[0]), a[1], max(a[2], b[2]), max(a[3], b[3]))
                if any(
                    inside(g, union) and not inside(g, a) and not inside(g, b) and g not in between
                    for g in groups
                ):
                    continue
                figures = [r for r in figures if r is not a and r is not b] + [union]
                rules = [r for r in rules if r is not b]
                joined = True
                break
            if joined:
                break
    return figures


# A numbered listing has at least this many line numbers, each at most this many ems under
# the one before; lines set at most LISTING_LEAD ems above its first line are its head
# (an algorithm's Input and Output).
LISTING_NUMBERS = 5
LISTING_STEP = 3.0
LISTING_LEAD = 0.5
# Its lines start at most this many ems right of its numbers (deeper lines reach as far).
LISTING_INDENT = 4.0


def numbered_listings(
    groups: list[Group], em: float, labelled: list[Group], figures: list = ()
) -> list:
    """Regions of captioned listings whose lines are numbered: pseudocode or code set as text.

    An algorithm (algorithm2e's, with no rules) or a code listing numbers its lines in a
    small size down its left edge, "1" to "17", and stands over its caption ("Fig. 6:
    Configuration search algorithm."): nothing is drawn, so no figure region held it and
    its lines set in the text's face were read as running text. A run of at least
    :data:`LISTING_NUMBERS` numbers counting up by one, each opening its line, set smaller
    than the text, their right edges aligned, makes a region from the numbers to the right
    end of the lines beside them, grown up over the lines set close above (its Input and
    Output); it is a float when a caption stands right under or over it that is no caption
    of one of ``figures`` already (a review copy numbers its lines in the margin, and the
    column under a figure's caption is no listing of that caption's).
    """
    # The captions no figure has already: the ones a listing may have.
    free = [
        g for g in labelled if not any(caption_beside(g, f, groups, em, False) for f in figures)
    ]
    numbers = sorted(
        (
            (int(m.units[0].text), m.units[0].rect)
            for g in groups
            for m in g.segments
            if m.units
            and m.units[0].text.isascii()
            and m.units[0].text.isdigit()
            and len(m.units[0].text) <= 3
            and m.size < LABEL_SIZE * em
        ),
        key=lambda n: n[1][1],
    )
    runs: list[list] = []
    for value, rect in numbers:
        for run in runs:
            last, at = run[-1]
            if (
                value == last + 1
                and abs(rect[2] - at[2]) <= 2
                and 0 < rect[1] - at[1] <= LISTING_STEP * em
            ):
                run.append((value, rect))
                break
        else:
            runs.append([(value, rect)])
    out = []
    for run in runs:
        if len(run) < LISTING_NUMBERS:
            continue
        x0, y0, y1 = min(r[0] for _v, r in run), run[0][1][1], run[-1][1][3]
        beside = [
            g
            for g in groups
            if g.box[1] < y1 and g.box[3] > y0 and x0 - 1 <= g.box[0] <= x0 + LISTING_INDENT * em
        ]
        x1 = max(g.box[2] for g in beside)
        grown = True
        while grown:  # y0 only rises, so this ends
            grown = False
            for g in groups:
                if (
                    g.box[1] < y0
                    and g.box[0] < x1
                    and g.box[2] > x0
                    and 0 <= y0 - g.box[3] <= LISTING_LEAD * em
                ):
                    y0, x1, grown = g.box[1], max(x1, g.box[2]), True
        r = (x0, y0, x1, y1)
        if captioned(r, free, groups, em):
            out.append(r)
    return out
