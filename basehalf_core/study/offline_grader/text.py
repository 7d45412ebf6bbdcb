"""Text rules of the offline grader: tokens, a light stemmer, content words, sentences."""

from __future__ import annotations

import re
from collections.abc import Iterable

from basehalf_core.study.offline_grader.lexicon import IRREGULAR, NEGATIONS, STOP

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)?", re.UNICODE)
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_SUFFIXES = (
    ("ational", "ate"),
    ("ation", "ate"),
    ("ness", ""),
    ("ments", ""),
    ("ment", ""),
    ("ingly", ""),
    ("edly", ""),
    ("ing", ""),
    ("ies", "y"),
    ("ied", "y"),
    ("sses", "ss"),
    ("ed", ""),
    ("es", ""),
    ("ly", ""),
    ("s", ""),
)


def stem(word: str) -> str:
    """A light suffix stripper (plural, -ing, -ed, -ly, -ation) good enough for short answers."""
    w = word.lower().replace("'", "")
    if w in IRREGULAR:
        return _drop_e(IRREGULAR[w])
    if len(w) <= 3 or CJK.search(w):
        return w
    for suffix, repl in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith(("ss", "us", "is")):
                return w
            base = w[: len(w) - len(suffix)] + repl
            # "stopped" -> "stopp" -> "stop": collapse a doubled final consonant.
            if (
                suffix in ("ing", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] not in "lsz"
            ):
                base = base[:-1]
            if suffix == "es" and not w.endswith(("ches", "shes", "xes", "sses", "zes")):
                base = w[:-1]
            return _drop_e(base)
    return _drop_e(w)


def _drop_e(w: str) -> str:
    # decrease / decreased / decreasing all meet at "decreas".
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


def tokens(text: str) -> list[str]:
    """Lower-cased word tokens; each CJK character counts as one token (no spaces to split on)."""
    out: list[str] = []
    for m in _WORD.finditer(text.lower()):
        w = m.group(0)
        if CJK.search(w):
            out.extend(ch for ch in w if not ch.isspace())
        else:
            out.append(w)
    return out


def content(toks: Iterable[str]) -> list[str]:
    """Stems of the tokens that carry content (no stop words, no negation cues)."""
    return [stem(t) for t in toks if t not in STOP and t.replace("'", "") not in NEGATIONS]


def neg_count(toks: Iterable[str]) -> int:
    """How many negation cues the tokens hold."""
    return sum(1 for t in toks if t.replace("'", "") in NEGATIONS or t.endswith("n't"))


# A sentence may wrap across lines, but a blank line, a heading, a list item or a quote line
# starts a new one.
_SENTENCE = re.compile(r"(?:[^.!?。！？\n]|\n(?!\s*\n|\s*[-*>#]|\s*\d+[.)]))+[.!?。！？]?")


def sentences(text: str, *, min_words: int = 3, limit: int = 400) -> list[str]:
    """Verbatim sentence slices of ``text`` with at least ``min_words`` tokens."""
    out = []
    for m in _SENTENCE.finditer(text):
        s = m.group(0).strip()
        if len(tokens(s)) >= min_words:
            out.append(s)
            if len(out) >= limit:
                break
    return out
