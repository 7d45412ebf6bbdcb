"""Pure text rules for passages (DESIGN §3): normalise, fold, ligatures, line-end hyphens.

No PyMuPDF here: these rules work on strings and on anything shaped like a word (``text``,
``block``, ``line``, ``glue``, ``role``), so they are testable without a PDF and shared by the
page extraction (:mod:`.pages`), passages (:mod:`.document`) and re-anchoring (:mod:`.anchors`).
"""

from __future__ import annotations

import functools
import gzip
import importlib.resources
import json
import re
import threading
import unicodedata
from collections import Counter
from dataclasses import dataclass

LIGATURES = {
    "ﬀ": "ff",
    "ﬁ": "fi",
    "ﬂ": "fl",
    "ﬃ": "ffi",
    "ﬄ": "ffl",
    "ﬅ": "st",
    "ﬆ": "st",
}
_LIG_RE = re.compile("[" + "".join(LIGATURES) + "]")
# A non-breaking hyphen (U+2011) at a line's end is the typesetter's break all the same
# (Typst and some Word templates set their hyphenation with it); the soft hyphen is last: it
# never prints inside a line.
HYPHENS = ("-", "\u2010", "\u2011", "\u00ad")
# The en and em dash: kept at a line's end, and no space after them there.
DASHES = ("\u2013", "\u2014")
_PRINTED_HYPHENS = HYPHENS[:3]
_WS_RE = re.compile(r"\s+")
# Scripts written without spaces: each character is its own selection unit.
_CJK_RE = re.compile(
    "[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff"
    "\uf900-\ufaff\uff00-\uffef\U00020000-\U0002fa1f]"
)
# Hangul syllables and jamo: Korean spaces its words, but breaks lines inside them too.
_HANGUL_RE = re.compile("[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff]")
_LETTERS_RE = re.compile(r"[^\W\d_]+")
# Marks that may open a word before its first letter ("(see", "“Multi").
_OPENERS = "\"'(“‘["
# ... and that may close one after its last letter.
_CLOSERS = "\"')”’]"
# A compound hyphenated inside a line: both parts letters, the tail a word of three or more
# (a line-end break leaves at least that much; "state-of-the-art" gives its pairs in turn).
_COMPOUND_RE = re.compile(r"([^\W\d_]+)[-\u2010\u2011](?=([^\W\d_]{3,}))")
_FOLD = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-"})
# Spaces, hyphens and the marks of sub- and superscripts (``d_k``, ``10000^(2i/d_model)``):
# the page's plain text holds none of the marks, so ruling pages out must not need them.
_SQUASH_RE = re.compile(r"[\s\-\u2010\u00ad^_()]+")
_SCRIPT_MARKS = "^_()"


@dataclass
class Run:
    """Normalised text of the body ("body") or of the marginalia ("aside"), with word spans."""

    role: str
    text: str
    words: list[int]
    spans: list[tuple[int, int]]


def is_icon(text: str) -> bool:
    """Is ``text`` only characters of Unicode's private use area (U+E000–U+F8FF), a symbol
    font's glyph with no text behind it (a datasheet's square bullet, U+F0A7)?"""
    return bool(text) and all("\ue000" <= ch <= "\uf8ff" for ch in text)


def normalise(text: str) -> str:
    """Ligatures expanded, whitespace collapsed, NFC (DESIGN §3); hyphens are left alone."""
    text = _LIG_RE.sub(lambda m: LIGATURES[m.group()], text)
    return unicodedata.normalize("NFC", _WS_RE.sub(" ", text).strip())


def fold(text: str) -> str:
    """Fold case, curly quotes and dashes without changing the length (offsets stay valid)."""
    text = text.translate(_FOLD)
    low = text.lower()
    if len(low) == len(text):
        return low
    out = []  # a character such as "İ" lower-cases to two: keep those as they are
    for ch in text:
        low = ch.lower()
        out.append(low if len(low) == 1 else ch)
    return "".join(out)


def squash(text: str) -> str:
    """Normalised and folded, with every space and hyphen removed: for ruling pages out."""
    return _SQUASH_RE.sub("", fold(normalise(text)))


@functools.lru_cache(maxsize=256)
def tokens(text: str) -> frozenset[str]:
    """The squashed pieces of ``text`` between spaces and hyphens."""
    return frozenset(t for t in (squash(p) for p in _SQUASH_RE.split(normalise(text))) if t)


# Not whitespace, so :func:`squash` keeps it: where a line of a page's text ended.
LINE_END = "\x00"


def squash_lines(text: str) -> str:
    """:func:`squash` of each line of ``text`` (lines split at ``\\n``), joined by
    :data:`LINE_END`: ruling pages out knowing where words may be broken in two."""
    return squash(text.replace("\n", LINE_END))


def present(token: str, page: str) -> bool:
    """Can a squashed ``token`` be on a page whose squashed text is ``page``?

    A word may be broken in two on the page (hyphenated across lines, or across a column
    break with a footnote between), so two parts of ``token`` on the page are enough. When
    ``page`` keeps its line ends (:func:`squash_lines`) the break must be at one: the first
    part ending a line, the second starting one. Without them (the text scan's squash), the
    parts may be anywhere, a looser test that lets through many more pages (a typo such as
    "refrence" is then "ref" + "rence" on most pages of a book).
    """
    lined = LINE_END in page
    flat = page.replace(LINE_END, "") if lined else page
    if token in flat:
        return True
    if _CJK_RE.search(token):
        # Text without spaces runs on across lines and blocks in reading order, so only
        # its characters are sure to be on the page.
        return all(ch in flat for ch in set(token))
    if len(token) < 4:
        return False
    if lined:
        edged = f"{LINE_END}{page}{LINE_END}"
        return any(
            f"{token[:k]}{LINE_END}" in edged and f"{LINE_END}{token[k:]}" in edged
            for k in range(2, len(token) - 1)
        )
    return any(token[:k] in page and token[k:] in page for k in range(2, len(token) - 1))


def is_cjk(ch: str) -> bool:
    """True for characters of scripts written without spaces between words."""
    return bool(_CJK_RE.match(ch))


def has_hangul(text: str) -> bool:
    """True when ``text`` holds a Hangul syllable or jamo."""
    return bool(_HANGUL_RE.search(text))


def full_width(text: str) -> int:
    """How many characters of ``text`` are set full width (CJK, Hangul): each as wide as two
    Latin ones."""
    return sum(bool(_CJK_RE.match(c) or _HANGUL_RE.match(c)) for c in text)


def is_doi(word: str) -> bool:
    """Does ``word`` name a DOI ("DOI", "DOI:", "doi:10.1371/…", "https://doi.org/10.1016/…")?
    A notice's or a citation's mark, never running text."""
    low = word.lower()
    return low.rstrip(":") == "doi" or low.startswith("doi:") or "doi.org/" in low


def has_cjk(text: str) -> bool:
    """True when ``text`` holds any character of a script written without spaces."""
    return bool(_CJK_RE.search(text))


def line_vocabulary(lines: list[str]) -> set[str]:
    """Lower-cased words of these lines, leaving out the two halves of a line-end hyphen.

    A compound hyphenated inside a line (``higher-privileged``) also adds itself and its
    second part marked with a leading hyphen (``-privileged``): :func:`hyphen_joins` takes
    them as the document's evidence that a word is written as such a compound's tail.
    """
    vocab: set[str] = set()
    skip_first = False
    for line in lines:
        low = normalise(line).lower()
        found = _LETTERS_RE.findall(low)
        broken = line.rstrip().endswith(HYPHENS)
        start = 1 if skip_first else 0
        end = len(found) - 1 if broken else len(found)
        vocab.update(found[start:end])
        for head, tail in _COMPOUND_RE.findall(low):
            vocab.update((f"{head}-{tail}", f"-{tail}"))
        # A line without words between the two halves (a review copy's line number, "037",
        # printed between a line's end and the next line) does not end the wait.
        skip_first = broken or (skip_first and not found)
    return vocab


def trim_left(text: str, cut: bool) -> str:
    """``text`` without its first (partial) word when ``cut``, and without leading space."""
    if cut and " " in text:
        text = text[text.index(" ") + 1 :]
    return text.lstrip()


def trim_right(text: str, cut: bool) -> str:
    """``text`` without its last (partial) word when ``cut``, and without trailing space."""
    if cut and " " in text:
        text = text[: text.rindex(" ")]
    return text.rstrip()


# English words that open closed words only, never a hyphenated compound.
CLOSED_HEADS = frozenset(
    [
        "an",
        "any",
        "be",
        "every",
        "him",
        "how",
        "it",
        "some",
        "them",
        "there",
        "when",
        "where",
        "with",
    ]
)


def hyphen_joins(head: str, tail: str, vocabulary) -> bool:
    """Does a line-end hyphen between ``head`` and ``tail`` split one word?

    ``al-``/``ternative`` joins (``alternative``); ``English-``/``to-German`` keeps its
    hyphen. The test is the document's own words: the joined form being one of them joins;
    two parts that are both words of the document (``model-``/``generated``), a tail that
    starts with a capital or digit, or a tail that holds another hyphen keep the hyphen. A
    tail opening with a capital (``GRO-``/``BID``, ``Style-``/``GAN2``, ``Pocket-``/
    ``Sniffer``) joins only when the document spells the joined word elsewhere (``Grobid``,
    ``StyleGAN2``, ``PocketSniffer``): there, the break alone cannot tell.
    """
    h = _LETTERS_RE.findall(head.lower())
    t = _LETTERS_RE.findall(tail.lower())
    if not h or not t or not head.rstrip()[-2:-1].isalpha():
        return False
    core_tail = tail.lstrip(_OPENERS)
    if not core_tail or not core_tail[0].isalpha():
        return False
    vocab = vocabulary() if callable(vocabulary) else vocabulary
    joined = h[-1] + t[0]
    if core_tail[0].isupper():
        # "Anglo-"/"Saxon", "Multi-"/"News": a capital after the break starts a word of its
        # own. A name broken off ("GRO-"/"BID", "Style-"/"GAN2", "Pocket-"/"Sniffer") joins
        # where the document spells the joined word whole ("Grobid", "StyleGAN2",
        # "PocketSniffer") and never the compound.
        return (
            joined in vocab
            and f"{h[-1]}-{t[0]}" not in vocab
            and not any(c in core_tail for c in _PRINTED_HYPHENS)
        )
    # The document writes this very compound inside a line ("pre-copy", 33 times beside one
    # "precopy"): after a prefix's few letters too, the break is the compound's own hyphen.
    if f"{h[-1]}-{t[0]}" in vocab:
        return False
    # An acronym before a word in lower case ("ANN-"/"enhanced", "AGN-"/"dominated") is a
    # compound: no word is spelled in capitals and goes on in small letters.
    letters = _LETTERS_RE.findall(head)[-1]
    if len(letters) > 1 and letters.isupper():
        return False
    if joined in vocab:
        return True
    # Where an English document does not write the word, English does: a word it knows whole
    # ("incomplete", "industrial", "preventable") was broken in two, though both halves are
    # words ("in", "complete"), a half follows a compound's hyphen ("pre-in-"/"dustrial") or
    # a capital opens it ("Prevent-"/"able", not a name beside "prevent").
    english = is_english(vocab)
    if english and joined in english_words():
        return True
    # A compound broken at its own hyphen after another ("works-in-"/"progress",
    # "state-of-the-"/"art"): typesetters break a hyphenated word only at its hyphens.
    if len(h) > 1 and "-" in head.rstrip("".join(HYPHENS)) and h[-1] in vocab:
        return False
    # English writes its self- compounds with a hyphen ("self-"/"selectively"), and closes the
    # words an article, a form of "be", a pronoun or a quantifier opens ("an-"/"other",
    # "be-"/"cause", "with-"/"out", "it-"/"self"): no hyphenated compound starts with one,
    # though both halves are words.
    if h[-1] == "self":
        return False
    if h[-1] in CLOSED_HEADS:
        return True
    if any(c in core_tail for c in _PRINTED_HYPHENS):
        return False
    # The document writes this tail after a hyphen inside a line ("higher-privileged"), so
    # "lower-"/"privileged" is the same kind of compound, though "lower" is in it nowhere else.
    # Not after a head of three letters or fewer: "re-"/"search" beside "beam-search" is a
    # prefix's word broken in two.
    if f"-{t[0]}" in vocab and len(h[-1]) > 3:
        return False
    # A name the document writes on its own ("Springer") before a word in lower case
    # ("Springer-"/"enhanced"): a compound; a capitalised word broken in two ("Uni-"/"versity")
    # has no such head.
    if head.lstrip(_OPENERS)[:1].isupper() and len(h[-1]) > 5 and h[-1] in vocab:
        return False
    # Two words English knows that make no word together ("high-"/"quality",
    # "egg-"/"producing", "optimization-"/"friendly") are a compound. Not after a capital: a
    # name broken in two is made of any syllables ("Cur-"/"ran", "Pan-"/"war").
    if (
        english
        and not head.lstrip(_OPENERS)[:1].isupper()
        and h[-1] in english_words()
        and t[0] in english_words()
    ):
        return False
    return not (h[-1] in vocab and t[0] in vocab)


# A document is in English when at least this share of its words are English words (English
# papers, flyers and newsletters 0.75-0.98, German, French, Chinese and Japanese ones and
# lorem ipsum 0.1-0.35, over the 60 documents of the scan pool).
ENGLISH_SHARE = 0.6


# The last few vocabularies asked about, each kept with its size and answer: a book's
# vocabulary of 20 000 words takes 2.4 ms to count, once per line-end hyphen otherwise.
_ENGLISH_ASKED: dict[int, tuple[object, int, bool]] = {}
_ENGLISH_KEPT = 8
_ENGLISH_LOCK = threading.Lock()


def is_english(vocabulary) -> bool:
    """Is a document with these words (its vocabulary, as :func:`line_vocabulary` makes it)
    written in English?

    The answer is kept for the same set at the same size: a document's vocabulary only grows
    (as its pages are read), and a set that grew is counted again.
    """
    with _ENGLISH_LOCK:  # the reader's thread and a search's may ask at once
        asked = _ENGLISH_ASKED.get(id(vocabulary))
    if asked is not None and asked[0] is vocabulary and asked[1] == len(vocabulary):
        return asked[2]
    words = english_words()
    plain = [w for w in vocabulary if "-" not in w]
    english = sum(w in words for w in plain) >= ENGLISH_SHARE * len(plain) > 0
    with _ENGLISH_LOCK:
        if len(_ENGLISH_ASKED) >= _ENGLISH_KEPT:
            _ENGLISH_ASKED.pop(next(iter(_ENGLISH_ASKED)))
        # The set itself is kept with its answer: its id cannot go to another set meanwhile.
        _ENGLISH_ASKED[id(vocabulary)] = (vocabulary, len(vocabulary), english)
    return english


@functools.cache
def english_words() -> dict[str, int]:
    """English words with their counts in a large corpus, lower-cased (pyspellchecker's list).

    Read once, on the first line-end hyphen the document's own words cannot decide (0.1 s).
    """
    data = importlib.resources.files("spellchecker") / "resources" / "en.json.gz"
    return json.loads(gzip.decompress(data.read_bytes()))


# A gap of at least this share of the line's height between two pieces standing level is a
# space a reader sees.
LEVEL_GAP = 0.3


def _spaced_level(a, b) -> bool:
    """Does box ``b`` stand on the same line as box ``a``, right of it, a visible gap on?"""
    height = max(a[3] - a[1], b[3] - b[1], 1e-6)
    level = abs((a[1] + a[3]) - (b[1] + b[3])) / 2 <= 0.5 * height
    return level and b[0] - a[2] >= LEVEL_GAP * height


# Two lines whose characters' heights differ by more than this ratio are set in two sizes.
LINE_SIZE_RATIO = 1.25


def _same_size(a, b) -> bool:
    """Are words ``a`` and ``b`` set in about one size (their boxes' heights)?"""
    ha, hb = a.rect[3] - a.rect[1], b.rect[3] - b.rect[1]
    return max(ha, hb) <= LINE_SIZE_RATIO * max(min(ha, hb), 1e-6)


def _single_cjk(w) -> bool:
    return len(w.text) == 1 and is_cjk(w.text)


def _letter_spaced(words: list, k: int) -> bool:
    """Do ``words[k - 1]`` and ``words[k]`` stand in a letter-spaced run of CJK characters?

    A flyer's banded heading sets "日 程 ・ 会 場" a wide gap apart, each character a word of its
    own on one line: tracking, not spaces. Three single characters at least, their gaps
    alike (within a third), make a run, none glued to a character set tight beside it; a
    name's one space ("林 洋介") does not, nor the gaps between names padded to one width
    ("柴若楠 郜 帅 兰江雨": only "郜 帅" is one name, "郜帅").
    """
    if k < 1 or not (_single_cjk(words[k - 1]) and _single_cjk(words[k])):
        return False
    # Neither glued to its other neighbour: the end of a word set tight ("柴若楠" before a
    # name padded to its width, "郜 帅") is a word's end, and the gap after it a space.
    after = words[k + 1] if k + 1 < len(words) else None
    if words[k - 1].glue or (after is not None and after.glue and after.line == words[k].line):
        return False

    def gap(i: int) -> float | None:
        a, b = words[i - 1], words[i]
        if not (_single_cjk(a) and _single_cjk(b)):
            return None
        if (a.block, a.line) != (b.block, b.line):
            return None
        return b.rect[0] - a.rect[2]

    here = gap(k)
    for other in (gap(k - 1) if k >= 2 else None, gap(k + 1) if k + 1 < len(words) else None):
        if here is not None and other is not None and abs(other - here) <= max(here, other) / 3:
            return True
    return False


def join_words(words: list, vocabulary) -> str:
    """Join words in reading order into normalised text (DESIGN §3)."""
    return join(words, vocabulary)[0]


def join(words: list, vocabulary) -> tuple[str, list[tuple[int, int]]]:
    """The joined text of words in reading order and each word's (start, end) in it."""
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    pos = 0
    glue_next = False
    for k, w in enumerate(words):
        raw = normalise(w.text)
        if k:
            prev = words[k - 1]
            same_line = (prev.block, prev.line) == (w.block, w.line)
            # Text without spaces breaks its lines anywhere, also between its own characters
            # and digits or Latin letters ("2023" / "年"): no space where either side is CJK.
            # A digit or Latin piece and a CJK one standing level, a gap between (a heading's
            # number set an em before its title, "4  结论"), are no line break: the gap reads
            # as a space. Between two CJK characters a gap is tracking (a letter-spaced
            # running head, "西 安 交 通"), not a space. Nor is one written between CJK
            # characters where a heading ends and its text begins. Between a CJK character
            # and a Latin or digit piece a line break joins only inside a paragraph or where
            # it goes on in another block set in the same size (the next column): a heading
            # ends where the text under it begins ("3 方法" / "Quisque"), and a reader sees
            # that break as a space. The heading's characters stand taller than the text's (a
            # block's style does not tell: a heading read with the text takes the text's).
            ends = is_cjk(prev.text[-1:]), is_cjk(raw[:1])
            cjk_wrap = (
                not same_line
                and any(ends)
                and (
                    all(ends)
                    or (
                        (prev.block == w.block or _same_size(prev, w))
                        and not _spaced_level(prev.rect, w.rect)
                    )
                )
            )
            # Korean breaks a line inside a word where the line ran out of room without a
            # space character (``Word.broken``): "개" / "정된" is one word, "개정된". Only
            # in its paragraph or where it goes on in another block set alike (the next
            # column): a title's last line runs into no author's name.
            # A particle goes on from a bracket too: "(1~4)" / "에" is "(1~4)에".
            hangul_wrap = (
                not same_line
                and prev.broken
                and (prev.block == w.block or prev.style == w.style)
                and bool(_HANGUL_RE.match(prev.text[-1:]) or prev.text[-1:] in _CLOSERS)
                and bool(_HANGUL_RE.match(raw[:1]))
            )
            tracked = same_line and _letter_spaced(words, k)
            if not (glue_next or (same_line and w.glue) or cjk_wrap or hangul_wrap or tracked):
                out.append(" ")
                pos += 1
        nxt = words[k + 1] if k + 1 < len(words) else None
        # A piece of the same printed line set otherwise ("Documents" bold, "- From" not)
        # may be a line of its own to PyMuPDF: standing level, a gap on, it is no line end.
        line_end = (
            nxt is not None
            and (nxt.block, nxt.line) != (w.block, w.line)
            and not _spaced_level(w.rect, nxt.rect)
        )
        glue_next = False
        if line_end and raw.endswith("\u00ad") and raw[:-1].endswith(_PRINTED_HYPHENS):
            # A soft hyphen after a compound's own ("science-" and U+00AD, InDesign's break
            # at the compound's hyphen): the hyphen stays, and the word goes on.
            glue_next = True
        elif line_end and raw.endswith(HYPHENS) and raw[-2:-1].isalnum():
            # Either way the word goes on: no space after a line-end hyphen.
            glue_next = True
            if raw.endswith("\u00ad") or hyphen_joins(raw, normalise(nxt.text), vocabulary):
                raw = raw.rstrip("".join(HYPHENS))
        elif line_end and raw.endswith(DASHES) and raw[-2:-1].isalnum():
            # A dash set close to its word at a line's end ("log–"/"log", "1990–"/"2000",
            # "fact—"/"which") goes on to the next line's word as closely; a spaced dash is a
            # word of its own.
            glue_next = True
        raw = raw.replace("\u00ad", "")
        out.append(raw)
        spans.append((pos, pos + len(raw)))
        pos += len(raw)
    return "".join(out), spans


def run_key(word) -> str:
    """``body`` for running text, ``aside`` for every kind of marginalia.

    Marginalia of every kind read as one stream, so a selection from a footnote into the
    footer below it is still one piece of text.
    """
    return "body" if word.role == "body" else "aside"


def style_family(style: str) -> str:
    """The font family in a word's or block's style (``Times@10.0`` -> ``Times``)."""
    return style.rpartition("@")[0]


def style_size(style: str) -> float:
    """The size in a word's style (``Times@10.0`` -> 10.0); 0 when it has none."""
    _family, _, size = style.rpartition("@")
    try:
        return float(size)
    except ValueError:
        return 0.0


# A drag's smaller end must be set at least this share of the page's text size for print
# smaller than both its ends to be left out (a drag from a figure's labels keeps all between).
SMALL_PRINT_FLOOR = 0.75


# The roles whose words count as the page's running text for the sizes of small print.
SMALL_PRINT_ROLES = ("body", "box")


def small_print_sizes(words: list) -> tuple[float, float]:
    """The sizes a drag's smaller end may have for small print between its ends to be left
    out: from :data:`SMALL_PRINT_FLOOR` times the size most of the page's running text is
    set in up to that size (an abstract's end, a caption's; not a figure's labels, and not a
    title or heading on both ends). The running text is the page's ``body`` words and its
    boxed ones (PLOS ONE's abstract in its box: without it, the page's 7-point citation,
    dates and funding outweighed the 9-point text under them)."""
    sizes = Counter(style_size(w.style) for w in words if w.style and w.role in SMALL_PRINT_ROLES)
    sizes.pop(0.0, None)
    if not sizes:
        return (float("inf"), 0.0)
    text = sizes.most_common(1)[0][0]
    return (SMALL_PRINT_FLOOR * text, text)


def script_text(chars: list[tuple[str, float, float]]) -> str:
    """The text of one word with its sub- and superscripts written out.

    Args:
        chars: ``(character, font size, baseline y)`` in reading order, y down.

    Returns:
        ``10000^(2i/d_model)`` for "10000" with a raised smaller "2i/d" whose "model" sits
        lower still, ``d_k`` for a "d" with a lowered smaller "k". A group of one character
        or of letters and digits only is written without parentheses after ``_``; after
        ``^`` only a single character goes without them. Characters on a baseline of their
        own that is not smaller than the text around it (small capitals) are not scripts,
        nor is a raised mark that starts the word (a footnote's own number).
    """
    if not chars:
        return ""
    base = max(chars, key=lambda c: c[1])
    # Each level: [baseline, size, kind, parts]; level 0 is the word's own line.
    stack: list[list] = [[base[2], base[1], "", []]]
    for ch, size, y in chars:
        depth = None
        for k in range(len(stack) - 1, -1, -1):
            lb, ls = stack[k][0], stack[k][1]
            if abs(y - lb) <= 0.12 * ls and abs(size - ls) <= 0.15 * ls:
                depth = k
                break
        if depth is not None:
            while len(stack) > depth + 1:
                _close(stack)
        else:
            top = stack[-1]
            dy = top[0] - y
            if abs(dy) > 0.12 * top[1] and size < 0.9 * top[1]:
                stack.append([y, size, "^" if dy > 0 else "_", []])
        stack[-1][3].append(ch)
    while len(stack) > 1:
        _close(stack)
    return "".join(stack[0][3])


def _close(stack: list[list]) -> None:
    _y, _size, kind, parts = stack.pop()
    inner = "".join(parts)
    bare = len(inner) == 1 or (kind == "_" and inner.isalnum())
    bare = bare or (inner[:1], inner[-1:]) == ("(", ")")  # PE_(pos,2i), not PE_((pos,2i))
    if len(stack) == 1 and not stack[0][3]:
        # Raised before anything it could belong to: a footnote's own marker ("1https://").
        stack[0][3].append(inner)
        return
    stack[-1][3].append(f"{kind}{inner}" if bare else f"{kind}({inner})")


def strip_scripts(text: str) -> tuple[str, list[int]]:
    """``text`` without the marks of sub- and superscripts, and each kept character's offset.

    For finding a quote stored before scripts were written out (``dk`` for ``d_k``); the
    real parentheses go as well, on both sides of the comparison alike.
    """
    kept = [k for k, ch in enumerate(text) if ch not in _SCRIPT_MARKS]
    return "".join(text[k] for k in kept), kept
