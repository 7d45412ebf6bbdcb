"""Which of the words a drag sweeps up a passage keeps: running text, not what sits beside it.

A drag across a column break passes a footnote, a margin stamp, a caption, a table or a
permission block in reading order; the learner means the sentence. These rules look only at
the words' roles and styles (see :mod:`.pages`), so they are pure Python.
"""

from __future__ import annotations

import re
from itertools import pairwise

from basehalf_core.documents.headings import SECTION_NUMBER
from basehalf_core.documents.labels import CAPTION_LABEL
from basehalf_core.documents.pages import Word
from basehalf_core.documents.reading_order import FLOW_ROLES
from basehalf_core.documents.text import (
    Run,
    is_cjk,
    is_doi,
    small_print_sizes,
    style_family,
    style_size,
)
from basehalf_core.documents.text_blocks import (
    FOOTNOTE_SIZE_RATIO,
    HEADING_LINES,
    HEADING_RATIO,
    heading_lines,
)


def drop_inner_marginalia(
    words: list[Word], chosen: list[int], note: int | None = None
) -> list[int]:
    """A selection that holds running text keeps only running text (and the block ``note``:
    see :func:`note_at_end`).

    A drag (or a rectangle) across a column break, a footnote or a margin stamp is about
    the sentence; a selection made wholly inside a footnote or a stamp keeps it.
    """
    body = [k for k in chosen if words[k].role in FLOW_ROLES]
    if not body:
        return chosen
    return [k for k in chosen if words[k].role in FLOW_ROLES or words[k].block == note]


# A note a drag starts or ends in holds at least this many words (a page's number, a
# footnote's marker alone, is none).
NOTE_WORDS = 2


def note_at_end(words: list[Word], a: int, b: int) -> int | None:
    """The block of marginalia (a footnote, a running head, a stamp) that one end of a drag
    is in, the other end in running text, or None.

    A learner who starts a drag inside a note ("USA, 14 pages. https://doi.org/…" at the
    foot of an ACM paper's reference format) and ends it in the text means the note from
    there, as a drag from a caption reads the caption; the notes between are still left
    out. Only between a note of :data:`NOTE_WORDS` words or more and running text (role
    ``body``): each such pair is one run of the page (:func:`.runs.make_runs`), so the
    passage is found again word for word.
    """
    ends = (words[a], words[b])
    notes = [w for w in ends if w.role not in FLOW_ROLES]
    if len(notes) != 1 or not any(w.role == "body" for w in ends):
        return None
    block = notes[0].block
    return block if sum(w.block == block for w in words) >= NOTE_WORDS else None


def floats_between(words: list[Word], chosen: list[int], start: int, end: int) -> list[int]:
    """Leave out the floats (figure and table contents, captions) a drag passes between its ends.

    Both ends in running text: no float is read, nor a boxed sidebar. One end in running text
    and the other in a caption (its block opens with a caption's label): the caption is read
    with the text, the figure's labels and a table's cells between the two are not. Anything
    else (a drag inside a table, from a caption into the figure) keeps what it sweeps up.
    """
    ends = (words[start], words[end])
    if ends[0].role == ends[1].role == "body":
        return [k for k in chosen if words[k].role == "body"]
    if any(w.role == "body" for w in ends):
        captions = {w.block for w in ends} & caption_blocks(words)
        if captions:
            return [k for k in chosen if words[k].role == "body" or words[k].block in captions]
    return chosen


def caption_blocks(words: list[Word]) -> set[int]:
    """The floats whose first line opens with a caption's label ("Figure 3:", "表 2")."""
    first: dict[int, list[str]] = {}
    for w in words:
        if w.role == "float" and w.line == 0:
            first.setdefault(w.block, []).append(w.text)
    return {b for b, texts in first.items() if CAPTION_LABEL.match(" ".join(texts))}


def contiguous(run: Run, chosen: list[int]) -> bool:
    a, b = run.words.index(chosen[0]), run.words.index(chosen[-1])
    return run.words[a : b + 1] == chosen


def headings_between(words: list[Word], chosen: list[int], size: float) -> set[int]:
    """The blocks among ``chosen`` that are headings set larger than a drag's ends.

    A résumé's "AWARDS" or a brochure's "Join R-Ladies Freiburg!" is set larger and in
    another face than the text, outside any column of running text the heading rules know,
    and a drag from one item into the next kept only text set like its ends. A block of the
    running text's flow of at most :func:`.text_blocks.heading_lines` lines (a newspaper's
    short headline takes three), set at least :data:`HEADING_RATIO` times the ends' size,
    with a word of two letters or more (not a figure's panel letter), is read; so is its
    number, where a font of its own makes it a block of its own on the title's line, and a
    line centred right under it (:func:`_lines_under`).
    """
    lines: dict[int, set[int]] = {}
    texts: dict[int, list[Word]] = {}
    for k in chosen:
        w = words[k]
        if w.role not in ("body", "box") or style_size(w.style) < HEADING_RATIO * size or size <= 0:
            continue
        lines.setdefault(w.block, set()).add(w.line)
        texts.setdefault(w.block, []).append(w)
    short = {
        b
        for b, found in lines.items()
        if len(found)
        <= heading_lines(sum(len(w.text) for w in texts[b]), style_size(texts[b][0].style) / size)
    }
    heads = {
        b
        for b in short
        if any(_lettered(w.text) for w in texts[b])
        or sum(is_cjk(w.text) for w in texts[b]) >= 2  # CJK: a character a word
    }
    # A heading's number set in another font is a block of its own, on the title's line.
    heads |= {
        b
        for b in short - heads
        if all(SECTION_NUMBER.fullmatch(w.text) for w in texts[b])  # not an icon's glyph
        and any(_joins(w, t, size) for w in texts[b] for h in heads for t in texts[h])
    }
    return heads | _lines_under(words, chosen, {h: texts[h] for h in heads})


# A line centred under a heading stands at most this many of the heading's sizes under it.
UNDER_HEADING_GAP = 2.0


def _lines_under(words: list[Word], chosen: list[int], heads: dict[int, list[Word]]) -> set[int]:
    """One-line blocks among ``chosen`` right under a heading read (a newspaper's byline
    "By ROY MCROYSTON" centred under its headline, a deck; a newsletter's "June 2014 – Tony
    Falletta" flush with its heading's left edge): read with it, in any size.

    Centred on the heading within its size or flush with its left edge within half of it,
    at most :data:`UNDER_HEADING_GAP` of its sizes under its last line, in the running
    text's flow.
    """
    blocks: dict[int, list[Word]] = {}
    for k in chosen:
        if words[k].role in ("body", "box") and words[k].block not in heads:
            blocks.setdefault(words[k].block, []).append(words[k])
    out = set()
    for b, ws in blocks.items():
        if len({w.line for w in ws}) != 1:
            continue
        x0, y0, x1 = (
            min(w.rect[0] for w in ws),
            min(w.rect[1] for w in ws),
            max(w.rect[2] for w in ws),
        )
        for head in heads.values():
            size = style_size(head[0].style)
            hx0, hx1 = min(w.rect[0] for w in head), max(w.rect[2] for w in head)
            bottom = max(w.rect[3] for w in head)
            if (
                abs((x0 + x1) - (hx0 + hx1)) / 2 <= size or abs(x0 - hx0) <= 0.5 * size
            ) and 0 <= y0 - bottom <= UNDER_HEADING_GAP * size:
                out.add(b)
    return out


def keep_running_text(words: list[Word], chosen: list[int]) -> list[int]:
    """A drag keeps the text set like its two ends: what is set otherwise is not running text.

    Between the two ends of a drag across a column break sit a permission block, a caption,
    a table, a pull quote or line numbers; they are set in another size or family than the
    sentence the learner means. Only a drag whose two ends share a style is narrowed: one
    that starts in a caption (or a title) and ends in running text keeps all between, but
    for print set smaller than both its ends (a DOI and subject line between an abstract
    and the text, a footnote): what is smaller than everything the drag means to read is a
    note beside it. A line of keywords there is read (:func:`_labelled`), and so is a
    byline right under the heading the drag starts in (:func:`_lines_under`).
    """
    style = words[chosen[0]].style
    if style != words[chosen[-1]].style:
        ends = [style_size(words[k].style) for k in (chosen[0], chosen[-1])]
        low, high = small_print_sizes(words)
        body_ends = all(words[k].role in ("body", "box") for k in (chosen[0], chosen[-1]))
        if not (body_ends and low <= min(ends) <= high):
            return chosen
        small = FOOTNOTE_SIZE_RATIO * min(ends)
        smaller = [k for k in chosen if 0 < style_size(words[k].style) < small]
        left_out = set(smaller) - set(_labelled(words, chosen, smaller))
        left_out -= set(_capital_heads(words, chosen, smaller))
        # A drag from a heading keeps the byline right under it ("June 2014 – Tony
        # Falletta", set smaller than the text under it).
        first = words[chosen[0]].block
        head = [w for w in words if w.block == first]
        if ends[0] > ends[1] and len({w.line for w in head}) <= heading_lines(
            sum(len(w.text) for w in head)
        ):
            under = _lines_under(words, chosen, {first: head})
            left_out = {k for k in left_out if words[k].block not in under}
        return [k for k in chosen if k not in left_out]
    heads = headings_between(words, chosen, style_size(style))
    kept = {k for k in chosen if words[k].style == style or words[k].block in heads}
    kept |= _paragraphs_in_another_face(words, chosen, kept)
    kept |= run_ins(words, chosen, kept, style_size(style))
    kept |= list_lines(words, chosen, kept, style_size(style))
    kept -= _heads_of_boxes_left_out(words, chosen, kept, heads)
    # A caption set like the text between the ends (a drag from a boxed aside into the text
    # under a table's caption) goes with its float; a drag that starts or ends in it reads it.
    ends = {words[chosen[0]].block, words[chosen[-1]].block}
    captions = caption_blocks(words) - ends
    return [k for k in chosen if k in kept and words[k].block not in captions]


def _heads_of_boxes_left_out(
    words: list[Word], chosen: list[int], kept: set[int], heads: set[int]
) -> set[int]:
    """The words of a box's heading read as a heading whose box is left out.

    A textbook sets an exercise box ("LET'S WORK THESE OUT", its questions smaller) across
    its column between two paragraphs: a drag from one paragraph into the next left the
    questions out and read the box's head, set larger. A heading in a box goes with what it
    heads: the first block under it in its column (overlapping it across) that the drag
    takes; where that is left out, so is the head.
    """
    spans = _block_spans(words, chosen)
    out: set[int] = set()
    for head in heads:
        own = [k for k in chosen if words[k].block == head]
        if not own or words[own[0]].role != "box":
            continue
        x0, x1 = spans[head]
        after = next(
            (
                k
                for k in chosen
                if k > own[-1]
                and words[k].block != head
                and spans[words[k].block][0] < x1
                and x0 < spans[words[k].block][1]
            ),
            None,
        )
        if after is not None and after not in kept:
            out.update(own)
    return out


def _block_spans(words: list[Word], indices) -> dict[int, tuple[float, float]]:
    """Each block's left and right edge over the words ``indices`` names."""
    spans: dict[int, tuple[float, float]] = {}
    for k in indices:
        w = words[k]
        x0, x1 = spans.get(w.block, (w.rect[0], w.rect[2]))
        spans[w.block] = (min(x0, w.rect[0]), max(x1, w.rect[2]))
    return spans


# A subheading in capitals stands at most this many of its sizes over the text it heads.
CAPITAL_HEAD_GAP = 2.5


def _capital_heads(words: list[Word], chosen: list[int], smaller: list[int]) -> list[int]:
    """The words of ``smaller`` in a one-line block of capitals right over running text the
    drag reads further on: a subheading set in small capitals ("DEFINING THE
    METAPOPULATION PORTFOLIO", 7-point Arial over 8-point text), not a note."""
    blocks: dict[int, list[Word]] = {}
    for k in smaller:
        blocks.setdefault(words[k].block, []).append(words[k])
    small = set(smaller)
    later = [words[k] for k in chosen if k not in small]
    kept = set()
    for b, ws in blocks.items():
        lettered = [w for w in ws if sum(c.isalpha() for c in w.text) >= 2]
        if len({w.line for w in ws}) != 1 or len(lettered) < 2:
            continue
        if not all(w.text.isupper() for w in lettered):
            continue
        bottom = max(w.rect[3] for w in ws)
        size = style_size(ws[0].style)
        x0 = min(w.rect[0] for w in ws)
        if any(
            w.index > ws[-1].index
            and 0 <= w.rect[1] - bottom <= CAPITAL_HEAD_GAP * size
            and abs(w.rect[0] - x0) <= size
            for w in later
        ):
            kept.add(b)
    return [k for k in smaller if words[k].block in kept]


# A paragraph in another face holds at least this many lines, as wide as the column.
FACE_PARAGRAPH_LINES = 3
SLANTED = ("italic", "oblique", "mono", "courier", "code")


def _paragraphs_in_another_face(words: list[Word], chosen: list[int], kept: set[int]) -> set[int]:
    """The words of paragraphs between a drag's ends set in the ends' size but another
    upright family, across the width of a column the kept text fills: a club newsletter's
    paragraph pasted in Times among paragraphs in Calibri is the text all the same. A
    caption or a table's cells are set smaller or in short lines, a pull quote larger or
    slanted, a listing in a fixed-pitch face."""
    if not kept:
        return set()
    size = style_size(words[chosen[0]].style)
    spans = _block_spans(words, kept)
    blocks: dict[int, list[Word]] = {}
    for k in chosen:
        if k not in kept and words[k].role == "body":
            blocks.setdefault(words[k].block, []).append(words[k])
    out = set()
    for ws in blocks.values():
        family = style_family(ws[0].style).lower()
        if any(f in family for f in SLANTED) or abs(style_size(ws[0].style) - size) > 0.05 * size:
            continue
        if len({w.line for w in ws}) < FACE_PARAGRAPH_LINES:
            continue
        x0, x1 = min(w.rect[0] for w in ws), max(w.rect[2] for w in ws)
        if any(abs(x0 - a) <= size and x1 >= b1 - 2 * size for a, b1 in spans.values()):
            out |= {w.index for w in ws}
    return out


# A label ends in a colon or a dash ("Keywords:", "Palabras clave—", "Index Terms—").
LABEL_END = (":", "\u2014", "\u2013")


def _labelled(words: list[Word], chosen: list[int], smaller: list[int]) -> list[int]:
    """The words of ``smaller`` (print set smaller than a drag's ends) in blocks that open
    with a label and a word: a lettered word ending in a colon or a dash among their first
    three words, the word after it with no digit (not "DOI: 10.1103/…", "Received: 12
    March"), alone on its line (not a row of metadata, "DOI: …" beside "Subject Areas: …"),
    naming no DOI (not a citation block, "Citation: Chan M, … doi:10.1371/…").
    """
    blocks: dict[int, list[Word]] = {}
    for k in smaller:
        blocks.setdefault(words[k].block, []).append(words[k])
    kept = {
        b
        for b, ws in blocks.items()
        if ws[0].line == 0
        and any(
            w.text.endswith(LABEL_END)
            and _lettered(w.text)
            and not any(c.isdigit() for c in nxt.text)
            for w, nxt in pairwise(ws[:4])
        )
        # Beside it on its line, another block set as small (wherever the drag took it: a
        # DOI left out as a notice): a row of metadata.
        and not any(
            w.block != b
            and _same_line(ws[0], w)
            and 0 < style_size(w.style) <= style_size(ws[0].style)
            for w in words
        )
        # A citation block names its DOI ("Citation: Chan M, … doi:10.1371/…"): metadata.
        and not any(is_doi(w.text) for w in ws)
    }
    return [k for k in smaller if words[k].block in kept]


# A list item's mark: a letter, a roman or an arabic number, closed by a point or a
# bracket ("d.", "(b)", "iv)"); a line's number has none.
ITEM_MARK = re.compile(r"\(?(?:[a-zA-Z]|[ivxlc]{1,5}|\d{1,2})[.)]")
# A run-in heading stands at most this many of the text's sizes from the text it opens.
RUN_IN_GAP = 1.5
# A heading's number in a font of its own is set at least this share of its title's size (a
# line's number is smaller).
NUMBER_RATIO = 0.85


def _same_line(a: Word, b: Word) -> bool:
    """Two words on one printed line: their boxes overlap by half the shorter's height."""
    top, bottom = max(a.rect[1], b.rect[1]), min(a.rect[3], b.rect[3])
    return bottom - top >= 0.5 * min(a.rect[3] - a.rect[1], b.rect[3] - b.rect[1])


def _lettered(text: str) -> bool:
    """A word of two letters or more: not a panel's letter, not a line's number."""
    return sum(c.isalpha() for c in text) >= 2


def run_ins(words: list[Word], chosen: list[int], kept: set[int], size: float) -> set[int]:
    """Words set otherwise that open or close a printed line of the kept text.

    PNAS sets a paragraph's run-in heading ("Appendices.") in a smaller sans face, on the
    line of the text it opens; a drag through it left it out as if it were a caption.
    A run of such words, all on one line, with a word of two letters or more (not a line
    number), that the kept word after it (or before it) goes on from on that same line
    within :data:`RUN_IN_GAP` sizes, is read. So is a heading's number set in a font of its
    own before its title ("2." in 9 points before "METHODOLOGY"): a run of section numbers
    in about the title's size (:data:`NUMBER_RATIO`) opening a line of a block of at most
    :data:`HEADING_LINES` lines (a line's number stands beside a paragraph, smaller). So is
    a list item's mark set in a font of its own before the item's first word
    (:data:`ITEM_MARK`: "d." in bold).
    """
    out: set[int] = set()
    for k, j in _runs_left_out(chosen, kept):
        run = [words[i] for i in chosen[k:j]]
        lettered = any(_lettered(w.text) for w in run)
        one_line = all(_same_line(a, b) for a, b in pairwise(run))
        after = words[chosen[j]] if j < len(chosen) else None
        before = words[chosen[k - 1]] if k > 0 else None
        # A piece set larger stands off by its own size's space (a number on a square).
        gap = max(size, style_size(run[-1].style))
        opens = after is not None and _joins(run[-1], after, gap)
        closes = before is not None and _joins(before, run[0], size)
        # A heading's number in a font of its own ("2." before small capitals' "METHODOLOGY").
        numbered = (
            opens
            and all(SECTION_NUMBER.fullmatch(w.text) for w in run)
            and all(style_size(w.style) >= NUMBER_RATIO * style_size(after.style) for w in run)
            and _heading_line(words, after)
        )
        # A list item's mark in a font of its own ("d." in bold before "Disconnect").
        marked = opens and len(run) == 1 and ITEM_MARK.fullmatch(run[0].text) is not None
        if (lettered or numbered or marked) and one_line and (opens or closes):
            out.update(chosen[k:j])
    return out


def _heading_line(words: list[Word], word: Word) -> bool:
    """Is ``word`` in a block of at most :data:`HEADING_LINES` lines (a heading, not a
    paragraph a line's number stands beside)?"""
    return all(w.line < HEADING_LINES for w in words if w.block == word.block)


def _joins(left: Word, right: Word, size: float) -> bool:
    """``right`` goes on from ``left`` on the same printed line, a word space or so on."""
    gap = right.rect[0] - left.rect[2]
    return _same_line(left, right) and -0.5 * size <= gap <= RUN_IN_GAP * size


# A list's line set otherwise is set at least this share of the kept text's size, at most
# LIST_LINE_LARGER times it (a note is smaller, a display head larger: headings_between).
LIST_LINE_SMALLER = 0.85
LIST_LINE_LARGER = 1.3
# Lines of a list stand at most this many of the kept text's sizes apart, top to bottom (a
# line set apart further is a note or a head: headings_between, text_blocks).
LIST_LINE_GAP = 1.5
# An hour has a digit and is no bare number (a line's or a page's number, a section's).
BARE_NUMBER = re.compile(r"\d+[.)]?")


def list_lines(words: list[Word], chosen: list[int], kept: set[int], size: float) -> set[int]:
    """Short lines set otherwise, stacked in the kept text's column between two kept lines.

    A conference programme sets each entry in three faces: the speaker in bold, the title in
    the text's face, "followed by discussion" in italics, then "Coffee break" and a panel's
    head a little larger, each beside an hour ("11:30") in a column of its own. A drag from
    one title to another kept the titles alone. A run of words between two kept ones is read
    when it is made of one-line blocks in about the text's size (:data:`LIST_LINE_SMALLER`,
    :data:`LIST_LINE_LARGER`), each either flush with the start of a kept line within half
    a size (with a word of two letters: not a lone digit or a row of them) or a label level
    with the first line of the block after it and left of it, with a digit and no bare
    number (the hour; not a line's number or an icon's glyph), stacked from the kept line
    over them to the kept line under them at most :data:`LIST_LINE_GAP` sizes apart, as a
    list's lines stand. A caption, a note or a table stands further off, a paragraph in
    another face (:func:`_paragraphs_in_another_face`) is longer.
    """
    if size <= 0 or not kept:
        return set()
    starts: dict[tuple[int, int], float] = {}
    for k in kept:
        w = words[k]
        starts[w.block, w.line] = min(starts.get((w.block, w.line), w.rect[0]), w.rect[0])
    lefts = list(starts.values())
    out: set[int] = set()
    for n, m in _runs_left_out(chosen, kept):
        if n > 0 and m < len(chosen):
            run = chosen[n:m]
            if _stacked(words, run, words[chosen[n - 1]], words[chosen[m]], lefts, size):
                out.update(run)
    return out


def _runs_left_out(chosen: list[int], kept: set[int]):
    """The stretches ``chosen[k:j]`` of words not kept, between kept ones or the ends."""
    k = 0
    while k < len(chosen):
        if chosen[k] in kept:
            k += 1
            continue
        j = k
        while j < len(chosen) and chosen[j] not in kept:
            j += 1
        yield k, j
        k = j


def _stacked(words: list[Word], run: list[int], over: Word, under: Word, lefts, size) -> bool:
    """Is ``run`` a stack of list lines between the kept words ``over`` and ``under``?"""
    blocks: dict[int, list[Word]] = {}
    for k in run:
        blocks.setdefault(words[k].block, []).append(words[k])
    stack = list(blocks.values())
    for j, ws in enumerate(stack):
        if any(w.role not in FLOW_ROLES for w in ws) or len({w.line for w in ws}) > 1:
            return False
        if not LIST_LINE_SMALLER * size <= style_size(ws[0].style) <= LIST_LINE_LARGER * size:
            return False
        x0 = min(w.rect[0] for w in ws)
        flush = any(_lettered(w.text) for w in ws) and any(abs(x - x0) <= 0.5 * size for x in lefts)
        nxt = stack[j + 1][0] if j + 1 < len(stack) else under
        label = (
            any(c.isdigit() for w in ws for c in w.text)
            and not BARE_NUMBER.fullmatch(" ".join(w.text for w in ws))
            and nxt.line == 0  # beside an entry's first line, not a line's number
            and _same_line(ws[-1], nxt)
            and max(w.rect[2] for w in ws) < nxt.rect[0]
        )
        if not (flush or label):
            return False
    # Top to bottom, from the kept line over the run to the kept line under it (an hour may
    # stand a little lower than its entry's line).
    inner = [(min(w.rect[1] for w in ws), max(w.rect[3] for w in ws)) for ws in stack]
    if any(top < over.rect[1] or bottom > under.rect[3] + 0.5 * size for top, bottom in inner):
        return False
    spans = sorted([(over.rect[1], over.rect[3]), *inner, (under.rect[1], under.rect[3])])
    return all(b[0] - a[1] <= LIST_LINE_GAP * size for a, b in pairwise(spans))
