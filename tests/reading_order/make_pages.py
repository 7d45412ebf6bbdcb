"""Make the generated pages of the reading-order set, and their cases (see SOURCES.md).

Each template mimics the layout of a kind of publication (column count and widths, fonts and
sizes, where running heads, page numbers, footnotes, permission blocks, figures, tables, line
numbers and margin stamps sit). The body text is placed line by line by this script, so the
sentence that runs across each column break (or around an obstacle) is known exactly: that is
the case's expected text, and the drag goes from its first word to its last.

The text is made-up academic prose from a fixed vocabulary with a seeded generator: nothing is
copied from anywhere, so the files may sit in the repository.

Run: ``python tests/reading_order/make_pages.py`` (writes ``generated/*.pdf`` and
``generated.json`` beside this file; the output is deterministic).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

HERE = Path(__file__).parent
OUT = HERE / "generated"

WORDS = (  # noqa: SIM905
    "model models attention layer layers encoder decoder sequence sequences training data set "
    "results method methods approach evaluation baseline baselines accuracy error errors task "
    "tasks corpus language languages token tokens representation learning network networks "
    "system systems analysis study studies measure measures sample samples average variance "
    "signal noise feature features parameter parameters weight weights gradient loss function "
    "value values structure order position positions context window column page reader "
    "selection passage sentence word words line lines block blocks margin figure table section "
    "experiment experiments participant participants response condition conditions effect "
    "effects group groups level levels rate rates time period region regions policy rule rules "
    "agency program programs cost costs benefit benefits public comment comments review office "
    "city council street market price prices water river bridge school teacher student students "
    "force energy motion mass velocity field charge current circuit wave frequency"
).split()
VERBS = (  # noqa: SIM905
    "shows improves reduces increases explains predicts requires describes compares follows "
    "supports changes measures affects keeps finds reaches covers limits extends combines "
    "captures separates replaces learns reads marks"
).split()
ADJ = (  # noqa: SIM905
    "large small recent previous standard different similar simple complex robust common "
    "general specific important significant clear strong weak early late local global final "
    "initial careful broad narrow"
).split()
LINK = "and but while because although whereas since so yet".split()  # noqa: SIM905
NAMES = "Smith Chen Garcia Müller Okafor Tanaka Rossi Dubois Kim Novak Silva Andersen".split()  # noqa: SIM905

CJK_CHARS = (
    "我们提出了一种新的方法用于文本阅读顺序的识别在多栏排版的论文中读者需要从左栏底部跨到右栏"
    "顶部实验结果表明该方法在不同出版模板上都能保持较高的准确率模型数据训练评估基线任务语料特征"
    "参数结构位置上下文页面句子词语段落图表章节分析研究测量样本平均误差信号噪声函数权重梯度损失"
)


def sentence(rng: random.Random) -> str:
    """One made-up sentence of 10..24 words, with an occasional citation or number."""
    parts = [rng.choice(ADJ).capitalize(), rng.choice(WORDS), rng.choice(VERBS)]
    n = rng.randint(7, 21)
    while len(parts) < n:
        r = rng.random()
        if r < 0.08:
            parts.append(f"({rng.choice(NAMES)} et al., {rng.randint(1995, 2023)})")
        elif r < 0.14:
            parts.append(f"{rng.randint(2, 98)}.{rng.randint(0, 9)}%")
        elif r < 0.2:
            parts[-1] += ","
            parts.append(rng.choice(LINK))
        elif r < 0.45:
            parts.append(rng.choice(ADJ))
        elif r < 0.55:
            parts.append(rng.choice(VERBS))
        else:
            parts.append(rng.choice([*WORDS, "the", "of", "in", "a", "for", "with", "on", "to"]))
    return " ".join(parts).rstrip(",") + "."


def cjk_sentence(rng: random.Random) -> str:
    """A made-up Chinese sentence of 18..40 characters, ending with 。."""
    n = rng.randint(18, 40)
    out = [rng.choice(CJK_CHARS) for _ in range(n)]
    if n > 24:
        out.insert(rng.randint(8, n - 8), "，")
    return "".join(out) + "。"


@dataclass
class Placed:
    """A body word as placed: text, box (unrotated points), frame and sentence numbers."""

    text: str
    rect: tuple[float, float, float, float]
    frame: int
    sentence: int


@dataclass
class Style:
    """Body text settings of a template."""

    font: str = "tiro"
    size: float = 10.0
    leading: float = 12.0
    indent: float = 10.0
    cjk: bool = False


@dataclass
class PageSpec:
    """One page to build: its body frames and everything that is not body text."""

    width: float = 612.0
    height: float = 792.0
    frames: list[tuple[float, float, float, float]] = field(default_factory=list)
    style: Style = field(default_factory=Style)
    extras: list = field(default_factory=list)  # callables (page) -> None


class Builder:
    """Writes one page: marginalia first (any order), then the body flowing through frames."""

    def __init__(self, doc: pymupdf.Document, spec: PageSpec, rng: random.Random):
        self.page = doc.new_page(width=spec.width, height=spec.height)
        self.spec = spec
        self.rng = rng
        self.fonts: dict[str, pymupdf.Font] = {}
        self.ops: list = []

    def width(self, text: str, font: str, size: float) -> float:
        """Advance of ``text``; MuPDF's built-in CJK fonts set every character one em wide."""
        if font.startswith("china"):
            return len(text) * size
        return self.font(font).text_length(text, size)

    def font(self, name: str) -> pymupdf.Font:
        if name not in self.fonts:
            self.fonts[name] = pymupdf.Font(name)
        return self.fonts[name]

    def line(self, x: float, y: float, text: str, font: str, size: float, rotate: int = 0):
        """One line of text with its baseline at y, written out later in typesetter order.

        A typesetter writes a page column by column, each column's footnotes and floats with
        it (LaTeX: head, column 1 with its footnotes, column 2, ..., foot); the file order of
        these pages follows that, so a reader that keeps file order meets what sits between.
        """
        xs = sorted({round(f[0]) for f in self.spec.frames})
        col = max([k for k, x0 in enumerate(xs) if x0 <= x + 1] or [0])
        args = (x, y, text, font, size, rotate)
        self.ops.append(((col, y), args))

    def finish(self) -> None:
        """Write the recorded lines in typesetter order."""
        for _key, (x, y, text, font, size, rotate) in sorted(self.ops, key=lambda op: op[0]):
            self.page.insert_text((x, y), text, fontname=font, fontsize=size, rotate=rotate)

    def para(self, x0, y0, width, text, font, size, leading) -> float:
        """A wrapped paragraph starting with its first baseline at y0; returns the last baseline."""
        y = y0
        sep = "" if font.startswith("china") else " "
        tokens = list(text) if not sep else text.split(" ")
        for ln in self.wrap(tokens, width, font, size, sep=sep):
            self.line(x0, y, sep.join(ln), font, size)
            y += leading
        return y - leading

    def wrap(self, words, width, font, size, sep=" "):
        lines, cur, avail = [], [], width
        for w in words:
            trial = sep.join([*cur, w])
            if cur and self.width(trial, font, size) > avail:
                lines.append(cur)
                cur, avail = [w], width
            else:
                cur.append(w)
        if cur:
            lines.append(cur)
        return lines

    def flow(self, paragraphs: list[list[str]]) -> list[Placed]:
        """Flow paragraphs (lists of sentences) through the frames; returns the placed words."""
        st = self.spec.style
        units: list[tuple[str, int, bool]] = []  # (word, sentence number, starts a paragraph)
        s_no = 0
        for para in paragraphs:
            first = True
            for sent in para:
                toks = list(sent) if st.cjk else sent.split(" ")
                for t in toks:
                    units.append((t, s_no, first))
                    first = False
                s_no += 1
        placed: list[Placed] = []
        sep = "" if st.cjk else " "
        k = 0
        for fi, (x0, y0, x1, y1) in enumerate(self.spec.frames):
            y = y0 + st.size
            while k < len(units) and y <= y1:
                x = x0 + (st.indent if units[k][2] else 0.0)
                line: list[tuple[str, int]] = []
                while k < len(units):
                    word, sno, starts = units[k]
                    if line and starts:
                        break
                    text = sep.join(w for w, _ in [*line, (word, sno)])
                    if line and x + self.width(text, st.font, st.size) > x1:
                        break
                    line.append((word, sno))
                    k += 1
                cx = x
                for n, (word, sno) in enumerate(line):
                    if n and sep:
                        cx += self.width(sep, st.font, st.size)
                    w = self.width(word, st.font, st.size)
                    rect = (cx, y - 0.8 * st.size, cx + w, y + 0.2 * st.size)
                    placed.append(Placed(word, rect, fi, sno))
                    cx += w
                self.line(x, y, sep.join(w for w, _ in line), st.font, st.size)
                y += st.leading
        return placed


def body_text(rng: random.Random, cjk: bool = False, paras: int = 14) -> list[list[str]]:
    make = cjk_sentence if cjk else sentence
    return [[make(rng) for _ in range(rng.randint(2, 5))] for _ in range(paras)]


def _centre(rect) -> list[float]:
    return [round((rect[0] + rect[2]) / 2, 2), round((rect[1] + rect[3]) / 2, 2)]


def cases_for(placed: list[Placed], cjk: bool, limit: int) -> list[dict]:
    """One case per frame break that the body runs across: the sentence(s) around the break."""
    out = []
    sep = "" if cjk else " "
    for fi in sorted({p.frame for p in placed})[:-1]:
        last = [p for p in placed if p.frame == fi][-1]
        nxt = [p for p in placed if p.frame > fi]
        if not nxt:
            break
        first = nxt[0]
        s_from, s_to = last.sentence, first.sentence
        chosen = [p for p in placed if s_from <= p.sentence <= s_to]
        a, b = chosen[0], chosen[-1]
        out.append(
            {
                "start": {"word": a.text, "at": _centre(a.rect)},
                "end": {"word": b.text, "at": _centre(b.rect)},
                "expected": sep.join(p.text for p in chosen),
            }
        )
        if len(out) >= limit:
            break
    return out


# -- marginalia -----------------------------------------------------------------------------------


def running_head(left: str, right: str, y: float, font="tiro", size=8.0, margin=54.0):
    def draw(b: Builder):
        b.line(margin, y, left, font, size)
        w = b.width(right, font, size)
        b.line(b.spec.width - margin - w, y, right, font, size)

    return draw


def centred(text: str, y: float, font="tiro", size=9.0):
    def draw(b: Builder):
        w = b.width(text, font, size)
        b.line((b.spec.width - w) / 2, y, text, font, size)

    return draw


def small_block(x0, y0, width, text, font="tiro", size=7.0, leading=8.0, rule=False):
    """Small print (footnote, permission block, copyright): optional rule above it."""

    def draw(b: Builder):
        if rule:
            b.page.draw_line((x0, y0 - size - 2), (x0 + 0.4 * width, y0 - size - 2), width=0.4)
        b.para(x0, y0, width, text, font, size, leading)

    return draw


def figure(x0, y0, x1, y1, caption, labels=True, cap_font="helv", cap_size=8.0):
    """A framed figure with axis labels and numbers inside, and a caption under it."""

    def draw(b: Builder):
        b.page.draw_rect((x0, y0, x1, y1 - 22), width=0.6)
        if labels:
            for k in range(4):
                b.line(x0 + 4, y1 - 28 - k * (y1 - y0 - 40) / 4, f"{k * 25}", "helv", 6)
            b.line((x0 + x1) / 2 - 12, y1 - 25, "epoch", "helv", 6)
            b.line(x0 + 30, y0 + 12, "ours  baseline", "helv", 6)
        b.para(x0, y1 - 12, x1 - x0, caption, cap_font, cap_size, cap_size + 1.5)

    return draw


def table(x0, y0, x1, rows, caption, size=7.5):
    """A table with its caption above, numbers in a grid."""

    def draw(b: Builder):
        y = b.para(x0, y0, x1 - x0, caption, "tiro", size + 0.5, size + 2) + 6
        b.page.draw_line((x0, y), (x1, y), width=0.6)
        cols = 4
        for r in range(rows):
            y += size + 3
            for c in range(cols):
                cell = "Method" if c == 0 and r == 0 else f"{(r * 7 + c * 13) % 97}.{c}"
                b.line(x0 + c * (x1 - x0) / cols, y, cell, "helv", size)
        b.page.draw_line((x0, y + 3), (x1, y + 3), width=0.6)

    return draw


def line_numbers(x, y0, count, leading, start, size=6.5):
    def draw(b: Builder):
        for k in range(count):
            b.line(x, y0 + k * leading, f"{start + k:03d}", "helv", size)

    return draw


def stamp(x, y, text, size=14.0):
    """arXiv's vertical stamp in the left margin (reads bottom to top)."""

    def draw(b: Builder):
        b.line(x, y, text, "tiro", size, rotate=90)

    return draw


def boxed(x0, y0, x1, y1, title, text, font="helv", size=8.5):
    """A shaded sidebar or pull quote box with its own text."""

    def draw(b: Builder):
        b.page.draw_rect((x0, y0, x1, y1), color=None, fill=(0.9, 0.9, 0.9))
        b.line(x0 + 6, y0 + size + 5, title, "hebo", size + 1)
        b.para(x0 + 6, y0 + 2 * size + 10, x1 - x0 - 12, text, font, size, size + 2)

    return draw


def vrule(x, y0, y1):
    def draw(b: Builder):
        b.page.draw_line((x, y0), (x, y1), width=0.5)

    return draw


# -- templates ------------------------------------------------------------------------------------

PERMISSION = (
    "Permission to make digital or hard copies of all or part of this work for personal or "
    "classroom use is granted without fee provided that copies are not made or distributed for "
    "profit or commercial advantage and that copies bear this notice and the full citation on "
    "the first page. Copyrights for components of this work owned by others than the author(s) "
    "must be honored. Abstracting with credit is permitted. Request permissions from "
    "permissions@acm.org. CHI '24, May 11-16, 2024, Honolulu, HI, USA © 2024 Copyright held "
    "by the owner/author(s). ACM ISBN 979-8-4007-0330-0/24/05"
)


def two_cols(w, h, top, bottom, margin, gutter):
    cw = (w - 2 * margin - gutter) / 2
    return [(margin, top, margin + cw, bottom), (margin + cw + gutter, top, w - margin, bottom)]


def n_cols(w, top, bottom, margin, gutter, n):
    cw = (w - 2 * margin - gutter * (n - 1)) / n
    return [
        (margin + k * (cw + gutter), top, margin + k * (cw + gutter) + cw, bottom) for k in range(n)
    ]


def acm(page_no: int, rng) -> PageSpec:
    st = Style("tiro", 9.0, 10.8, 9.0)
    cols = two_cols(612, 792, 78, 720, 54, 24)
    extras = []
    if page_no == 0:
        extras += [
            centred("Reading Order Across Columns in Scholarly PDFs", 70, "hebo", 16),
            centred("Anonymous Author(s)", 92, "helv", 10),
        ]
        cols = two_cols(612, 792, 120, 720, 54, 24)
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 610)
        extras.append(small_block(l0[0], 628, l0[2] - l0[0], PERMISSION, "tiro", 6.8, 7.8))
    else:
        extras.append(
            running_head("CHI '24, May 11-16, 2024, Honolulu, HI, USA", "Anon.", 52, "helv", 7)
        )
        if page_no == 2:
            r = cols[1]
            cols[1] = (r[0], 260, r[2], r[3])
            extras.append(
                figure(
                    r[0],
                    82,
                    r[2],
                    250,
                    "Figure 3: Accuracy per template over training epochs, with the baseline "
                    "dashed.",
                )
            )
    return PageSpec(612, 792, cols, st, extras)


def ieee(page_no, rng) -> PageSpec:
    st = Style("tiro", 10.0, 11.5, 10.0)
    cols = two_cols(612, 792, 62, 740, 44, 14)
    extras = [
        running_head(
            "IEEE TRANSACTIONS ON PATTERN ANALYSIS, VOL. 14, NO. 8, AUGUST 2023",
            f"{page_no + 2}",
            40,
            "tiro",
            7.5,
            44,
        )
    ]
    if page_no == 0:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 650)
        extras.append(
            small_block(
                l0[0],
                672,
                l0[2] - l0[0],
                "Manuscript received March 3, 2023; revised June 9, 2023. This work was "
                "supported in part by the National Science Foundation under Grant 2048. The "
                "authors are with the Department of Computer Science, Example University.",
                "tiro",
                8,
                9,
                rule=True,
            )
        )
    if page_no == 1:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 560)
        extras.append(
            figure(
                l0[0],
                575,
                l0[2],
                740,
                "Fig. 4. Error rate against page width for the three readers compared.",
            )
        )
    return PageSpec(612, 792, cols, st, extras)


def acl(page_no, rng) -> PageSpec:
    st = Style("tiro", 11.0, 13.6, 11.0)
    cols = two_cols(595, 842, 72, 770, 70, 20)
    extras = [
        line_numbers(30, 83, 52, 13.6, 100 * page_no, 6.5),
        line_numbers(548, 83, 52, 13.6, 100 * page_no + 50, 6.5),
        centred(f"{page_no + 1}", 800, "tiro", 11),
    ]
    if page_no in (0, 2):
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 700)
        extras.append(
            small_block(
                l0[0],
                725,
                l0[2] - l0[0],
                f"{page_no + 1}Our code and data are released under an open licence at the "
                "project page for review.",
                "tiro",
                9,
                10.5,
                rule=True,
            )
        )
    return PageSpec(595, 842, cols, st, extras)


def lncs(page_no, rng) -> PageSpec:
    st = Style("tiro", 10.0, 12.0, 15.0)
    x0, x1 = 134, 478
    frames = [(x0, 120, x1, 330), (x0, 470, x1, 640)]
    extras = [
        running_head(f"{page_no + 4}", "A. Author and B. Author", 100, "tiro", 9, 134),
        figure(
            x0 + 30,
            345,
            x1 - 30,
            462,
            "Fig. 2. The pipeline: pages in, words in reading order out.",
            cap_font="tiro",
            cap_size=9,
        ),
        small_block(
            x0,
            660,
            x1 - x0,
            "3 The layouts were taken from the publisher's author kit of the year the papers "
            "appeared.",
            "tiro",
            8,
            9.5,
            rule=True,
        ),
    ]
    if page_no % 2:
        extras[0] = running_head(
            "Reading Order That Generalises", f"{page_no + 4}", 100, "tiro", 9, 134
        )
    return PageSpec(612, 792, frames, st, extras)


def elsevier(page_no, rng) -> PageSpec:
    st = Style("tiro", 9.5, 11.2, 9.0)
    cols = two_cols(595, 794, 90, 740, 40, 18)
    extras = [
        running_head("Journal of Document Analysis 58 (2024) 103412", "", 40, "tiro", 7.5, 40),
        running_head("J. Doe et al.", "", 52, "heit", 7.5, 40),
        centred(f"{page_no + 2}", 770, "tiro", 8),
    ]
    if page_no == 0:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 640)
        extras.append(
            small_block(
                l0[0],
                662,
                l0[2] - l0[0],
                "* Corresponding author. E-mail address: jdoe@example.org (J. Doe).",
                "tiro",
                7,
                8,
                rule=True,
            )
        )
        extras.append(
            small_block(
                l0[0],
                690,
                l0[2] - l0[0],
                "https://doi.org/10.1016/j.example.2024.103412 Received 2 May 2023; Accepted 9 "
                "January 2024 0031-3203/© 2024 The Author(s). Published by Elsevier Ltd. This "
                "is an open access article under the CC BY license.",
                "tiro",
                6.5,
                7.5,
            )
        )
    if page_no == 2:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 560)
        extras.append(
            table(
                l0[0],
                580,
                l0[2],
                8,
                "Table 2 Exact-match accuracy on held-out pages (mean of five runs).",
            )
        )
    return PageSpec(595, 794, cols, st, extras)


def arxiv(page_no, rng) -> PageSpec:
    st = Style("tiro", 10.0, 12.0, 10.0)
    cols = two_cols(612, 792, 72, 720, 72, 18)
    extras = [centred(f"{page_no + 1}", 750, "tiro", 10)]
    if page_no == 0:
        extras.append(stamp(32, 560, "arXiv:2403.01234v2  [cs.CL]  12 Mar 2024", 18))
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 650)
        extras.append(
            small_block(
                l0[0],
                670,
                l0[2] - l0[0],
                "∗Equal contribution. †Work done while at Example Labs.",
                "tiro",
                8,
                9,
                rule=True,
            )
        )
    if page_no == 1:
        r = cols[1]
        cols[1] = (r[0], 250, r[2], r[3])
        extras.append(
            table(r[0], 82, r[2], 9, "Table 1: Results on the development set; best in bold.")
        )
    return PageSpec(612, 792, cols, st, extras)


def fedreg(page_no, rng) -> PageSpec:
    st = Style("tiro", 8.0, 9.4, 8.0)
    cols = n_cols(612, 70, 740, 40, 12, 3)
    no = 52060 + page_no
    head = (
        "Federal Register / Vol. 85, No. 172 / Thursday, September 3, 2020 / Rules and Regulations"
    )
    extras = [
        running_head(f"{no}  {head}", "", 50, "hebo", 7.5, 40),
        stamp(
            14,
            700,
            "VerDate Sep<11>2014  16:42 Sep 02, 2020 Jkt 250001 PO 00000 "
            f"Frm 000{36 + page_no} Fmt 4700 Sfmt 4700 E:\\FR\\FM\\03SER1.SGM 03SER1",
            6,
        ),
        vrule((cols[0][2] + cols[1][0]) / 2, 62, 745),
        vrule((cols[1][2] + cols[2][0]) / 2, 62, 745),
    ]
    if page_no == 1:
        c = cols[1]
        cols[1] = (c[0], c[1], c[2], 680)
        extras.append(
            small_block(
                c[0],
                700,
                c[2] - c[0],
                "1 See 40 CFR 52.21 and the notice of proposed rulemaking published at 85 FR 1234.",
                "tiro",
                6.5,
                7.5,
                rule=True,
            )
        )
    return PageSpec(612, 792, cols, st, extras)


def newspaper(page_no, rng) -> PageSpec:
    st = Style("tiro", 8.6, 9.8, 8.0)
    w, h = 792, 1224
    cols = n_cols(w, 170, 1170, 30, 12, 5)
    extras = [
        running_head(
            "THE DAILY EXAMPLE",
            f"MONDAY, MAY {page_no + 6}, 2024  A{page_no + 3}",
            30,
            "hebo",
            9,
            30,
        ),
        centred("Council Approves New Bridge Plan After Long Debate", 80, "tibo", 30),
        centred(
            "Residents split over costs as work is set to begin in the spring", 120, "tiit", 16
        ),
        small_block(30, 150, 300, "By A. REPORTER and B. WRITER", "hebo", 8, 9),
    ]
    for k in range(1, 5):
        extras.append(vrule(cols[k][0] - 6, 165, 1175))
    c = cols[2]
    cols[2] = (c[0], 410, c[2], c[3])
    extras.append(
        figure(
            c[0],
            170,
            cols[3][2],
            400,
            "The old bridge at dusk. Work on the new crossing is planned to start in April. "
            "PHOTO: STAFF",
            labels=False,
            cap_font="helv",
            cap_size=7.5,
        )
    )
    cols[3] = (cols[3][0], 410, cols[3][2], cols[3][3])
    return PageSpec(w, h, cols, st, extras)


def magazine(page_no, rng) -> PageSpec:
    st = Style("tiro", 9.5, 12.0, 0.0)
    cols = n_cols(612, 90, 740, 42, 16, 3)
    extras = [
        running_head(
            "FEATURE", f"EXAMPLE MAGAZINE  |  SPRING 2024  |  {page_no + 40}", 750, "helv", 7, 42
        )
    ]
    c = cols[1]
    frames = [cols[0], (c[0], c[1], c[2], 330), (c[0], 430, c[2], c[3]), cols[2]]
    extras.append(
        boxed(
            c[0],
            340,
            c[2],
            420,
            "",
            "“The order of a page is in its shape, not in its file.”",
            "tiit",
            13,
        )
    )
    return PageSpec(612, 792, frames, st, extras)


def textbook(page_no, rng) -> PageSpec:
    st = Style("tiro", 10.5, 13.0, 14.0)
    extras = [running_head(f"{page_no + 84}", "3 Forces and Motion", 55, "tiro", 9, 72)]
    notes = [
        "Key idea: a force is a push or a pull.",
        "Remember the units: newtons, metres and seconds.",
        "See also Section 2.4 on vectors.",
    ]
    for k, t in enumerate(notes):
        extras.append(small_block(420, 130 + 200 * k, 130, t, "helv", 8, 9.5))
    # Two frames that read as one column: the case is the sentence at y = 340, beside a note.
    frames = [(72, 80, 400, 340), (72, 340, 400, 640)]
    extras.append(
        small_block(
            72,
            672,
            328,
            f"{page_no + 5} The same law holds in any frame that moves at a steady velocity.",
            "tiro",
            8,
            9.5,
            rule=True,
        )
    )
    return PageSpec(612, 792, frames, st, extras)


def cjk(page_no, rng) -> PageSpec:
    st = Style("china-s", 9.0, 14.0, 18.0, cjk=True)
    cols = two_cols(595, 842, 80, 760, 50, 20)
    extras = [
        running_head(
            "计算机学报  第47卷  第3期", f"2024年3月  {page_no + 301}", 55, "china-s", 8, 50
        )
    ]
    if page_no == 0:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 690)
        extras.append(
            small_block(
                l0[0],
                712,
                l0[2] - l0[0],
                "收稿日期：2023-05-02；修回日期：2023-09-11。本课题得到国家自然科学基金资助。",
                "china-s",
                7,
                9,
                rule=True,
            )
        )
    return PageSpec(595, 842, cols, st, extras)


def science(page_no, rng) -> PageSpec:
    st = Style("helv", 8.5, 10.2, 8.0)
    cols = n_cols(612, 70, 740, 48, 12, 3)
    extras = [
        running_head(
            "RESEARCH ARTICLE", f"Example Science 384, {page_no + 1201} (2024)", 50, "hebo", 7, 48
        ),
        centred(f"{page_no + 1}", 765, "helv", 7),
    ]
    if page_no != 1:
        cols[0] = (cols[0][0], 250, cols[0][2], cols[0][3])
        cols[1] = (cols[1][0], 250, cols[1][2], cols[1][3])
        extras.append(
            figure(
                cols[0][0],
                75,
                cols[1][2],
                240,
                "Fig. 1. Reading order on a page of three columns. (A) Blocks. (B) The order a "
                "reader follows.",
                cap_font="tibo",
                cap_size=7.5,
            )
        )
    return PageSpec(612, 792, cols, st, extras)


def springer_journal(page_no, rng) -> PageSpec:
    st = Style("tiro", 10.0, 12.0, 12.0)
    cols = two_cols(595, 791, 85, 730, 50, 22)
    extras = [
        running_head(
            "Int J Doc Anal", f"({page_no + 3}) 2024 27:{page_no + 211}–230", 55, "heit", 8, 50
        ),
        centred(f"{page_no + 211}", 760, "tiro", 8),
    ]
    if page_no != 2:
        l0 = cols[0]
        cols[0] = (l0[0], l0[1], l0[2], 520)
        extras.append(
            table(l0[0], 545, l0[2], 10, "Table 3 Mean exact match per layout family and reader")
        )
    return PageSpec(595, 791, cols, st, extras)


def newsletter(page_no, rng) -> PageSpec:
    st = Style("helv", 9.5, 12.0, 0.0)
    cols = two_cols(612, 792, 80, 730, 50, 30)
    extras = [
        running_head(
            "Community Newsletter",
            f"Issue {page_no + 12}  ·  Page {page_no + 1}",
            50,
            "hebo",
            9,
            50,
        )
    ]
    c = cols[1]
    frames = [cols[0], (c[0], c[1], c[2], 300), (c[0], 420, c[2], c[3])]
    extras.append(
        boxed(
            c[0],
            310,
            c[2],
            410,
            "Did you know?",
            "The library lends tools as well as books: ask at the front desk for the list of "
            "what can be borrowed this month.",
            "tiro",
            8.5,
        )
    )
    return PageSpec(612, 792, frames, st, extras)


def hyphen_acm(page_no, rng) -> PageSpec:
    """A two-column proceedings page in a sans body with a wide gutter and no indents."""
    st = Style("helv", 9.0, 11.0, 0.0)
    cols = two_cols(612, 792, 72, 730, 60, 36)
    extras = [
        running_head(
            f"Proceedings of the Workshop on Reading, pages {page_no + 17}–24",
            "",
            40,
            "tiit",
            8,
            60,
        ),
        centred(f"{page_no + 17}", 760, "helv", 8),
    ]
    return PageSpec(612, 792, cols, st, extras)


TEMPLATES = {
    "acm": (
        acm,
        3,
        "ACM sigconf (CHI) first page with the permission block, running heads, a figure",
    ),
    "ieee": (
        ieee,
        2,
        "IEEE Transactions: manuscript footnote without marker, figure at the foot of a column",
    ),
    "acl": (acl, 3, "ACL review version: line numbers both sides, footnotes with markers"),
    "lncs": (lncs, 2, "Springer LNCS: one column broken by a figure, running heads, footnote"),
    "elsevier": (
        elsevier,
        3,
        "Elsevier journal: corresponding-author footnote, CC BY/doi block, table",
    ),
    "arxiv": (arxiv, 2, "arXiv preprint: vertical margin stamp, footnote with ∗/† markers, table"),
    "fedreg": (
        fedreg,
        3,
        "US Federal Register: three columns with rules, GPO VerDate margin stamp",
    ),
    "newspaper": (newspaper, 2, "Broadsheet newspaper: five columns, headline, photo with caption"),
    "magazine": (magazine, 3, "Magazine feature: three columns with a pull quote inside a column"),
    "textbook": (textbook, 3, "Textbook: side notes in the outer margin, footnote, running head"),
    "cjk": (cjk, 3, "Chinese two-column journal paper with a footnote"),
    "science": (science, 3, "Science-style three columns with a figure across two of them"),
    "springer": (
        springer_journal,
        3,
        "Springer journal two columns with a table in the left column",
    ),
    "newsletter": (newsletter, 2, "Newsletter: two columns with a shaded sidebar box"),
    "proceedings": (hyphen_acm, 3, "Workshop proceedings: sans body, wide gutter"),
}
# Kept out of sight while designing the rule (see SOURCES.md): whole templates, and the last
# page of every other template.
HELDOUT_TEMPLATES = {"magazine", "science", "newsletter"}


def build() -> list[dict]:
    OUT.mkdir(exist_ok=True)
    cases = []
    for name, (make, pages, _desc) in TEMPLATES.items():
        rng = random.Random(name)
        doc = pymupdf.open()
        for p in range(pages):
            spec = make(p, rng)
            b = Builder(doc, spec, rng)
            for draw in spec.extras:
                draw(b)
            placed = b.flow(body_text(rng, spec.style.cjk, paras=30 if name == "newspaper" else 14))
            b.finish()
            heldout = name in HELDOUT_TEMPLATES or p == pages - 1
            for k, case in enumerate(cases_for(placed, spec.style.cjk, limit=2)):
                cases.append(
                    {
                        "id": f"{name}-p{p + 1}-{k + 1}",
                        "file": f"generated/{name}.pdf",
                        "page": p + 1,
                        "source": name,
                        "split": "heldout" if heldout else "dev",
                        **case,
                    }
                )
        doc.set_metadata({"producer": "tests/reading_order/make_pages.py"})  # no dates: same bytes
        doc.save(OUT / f"{name}.pdf", garbage=4, deflate=True, no_new_id=True)
    return cases


if __name__ == "__main__":
    built = build()
    (HERE / "generated.json").write_text(
        json.dumps(built, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"{len(built)} cases")
