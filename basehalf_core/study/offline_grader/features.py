"""Features of one answer against its best reference, and the question-focus test.

Per answer, against the best-matching reference: stemmed content-word recall and precision with
words copied from the question weighted down, recall of the reference's *new* words (those not
in the question), extra words, two rapidfuzz similarities, negation parity and antonym (or role)
conflicts, answer length, and whether a negation or an antonym flips the reference's polarity.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz import fuzz

from basehalf_core.study.offline_grader.lexicon import ANTONYM_PAIRS, QUESTION_WORDS, ROLE_PAIRS
from basehalf_core.study.offline_grader.text import CJK, content, neg_count, stem, tokens

FEATURES = (
    "recall",
    "precision",
    "recall_new",
    "extra",
    "token_set",
    "ratio",
    "negation_mismatch",
    "antonym_conflict",
    "log_length",
    "short",
    "best_recall_any",
    "polarity_flip",
)
RECALL, PRECISION = FEATURES.index("recall"), FEATURES.index("precision")
NEGATION, FLIP = FEATURES.index("negation_mismatch"), FEATURES.index("polarity_flip")
SWAP_GAIN = 0.2  # how much closer an exchange of two words must bring the answer
QUESTION_WEIGHT = 0.35  # words the question already holds say little about what is known

ROLES = [(stem(a), stem(b)) for a, b in ROLE_PAIRS] + [(stem(b), stem(a)) for a, b in ROLE_PAIRS]
ANTONYMS: dict[str, set[str]] = {}
for _a, _b in ANTONYM_PAIRS:
    ANTONYMS.setdefault(stem(_a), set()).add(stem(_b))
    ANTONYMS.setdefault(stem(_b), set()).add(stem(_a))


@dataclass(frozen=True)
class Match:
    """The features of an answer against its best reference, plus what a reason needs."""

    reference: str
    values: list[float]
    shared: list[str]
    missing: list[str]
    conflict: tuple[str, str] | None
    swap: tuple[str, str] | None = None  # two words of the reference exchanged in the answer
    substitution: tuple[str, str] | None = None  # a role named where the reference has another

    @property
    def confused(self) -> tuple[str, str] | None:
        """The two terms the answer mixes up (a swap or a role substitution), if any."""
        return self.swap or self.substitution

    @property
    def flipped(self) -> bool:
        """True when a negation or an antonym turns the reference's claim around."""
        return bool(self.values[FLIP])


def focus(question: str) -> set[str]:
    """Stems naming what the question is about (its content words less asking words).

    Single letters are left out: "Q, K and V" would otherwise match the "k" of any "d_k".
    """
    asking = {stem(w) for w in QUESTION_WORDS}
    return {s for s in content(tokens(question)) if (s not in asking and len(s) > 1) or _cjk(s)}


def _cjk(s: str) -> bool:
    return bool(CJK.search(s))


_WH = frozenset(["what", "where", "which", "who", "whom", "whose", "how", "why", "when"])


def subject(question: str) -> str | None:
    """The stem of what a wh-question asks about: the first focus word after its wh-word.

    "In scaled dot-product attention, what does a query stand for?" → ``query``: the setting
    before the wh-word is context, the word after it is the thing to explain.
    """
    toks = tokens(question)
    wanted = focus(question)
    for i, t in enumerate(toks):
        if t in _WH:
            for later in toks[i + 1 :]:
                s = stem(later)
                if s in wanted:
                    return s
            return None
    return None


def _weighted(stems: Sequence[str] | set[str], q_stems: set[str]) -> dict[str, float]:
    return {s: (QUESTION_WEIGHT if s in q_stems else 1.0) for s in stems}


def _recall_precision(a_set: set[str], r_list: list[str], q_stems: set[str]) -> tuple[float, float]:
    w = _weighted(r_list, q_stems)
    aw = _weighted(sorted(a_set), q_stems)  # a fixed order: float sums do not depend on hashing
    rec = sum(v for s, v in w.items() if s in a_set) / (sum(w.values()) or 1.0)
    prec = sum(v for s, v in aw.items() if s in w) / (sum(aw.values()) or 1.0)
    return rec, prec


def _f1(pair: tuple[float, float]) -> float:
    rec, prec = pair
    return 2 * rec * prec / (rec + prec) if rec + prec else 0.0


def _conflict(a_set: set[str], r_set: set[str], q_stems: set[str]) -> tuple[str, str] | None:
    for s in sorted(a_set):
        for opp in sorted(ANTONYMS.get(s, ())):
            # "increase" copied from the question is no conflict unless the reference's own
            # new words hold the opposite ("... the current decreases").
            if opp in r_set and opp not in a_set and (s not in r_set or opp not in q_stems):
                return (s, opp)
    return None


def find_swap(answer: list[str], reference: list[str]) -> tuple[str, str] | None:
    """Two words the answer exchanges while otherwise following the reference.

    "When the current increases, the resistance decreases" against "When the resistance
    increases, the current decreases": the same words, so overlap cannot tell; but putting
    ``current`` and ``resist`` back in each other's place makes the answer follow the
    reference far more closely. Only words found once on each side, and not next to each
    other, are tried.
    """
    once = [w for w in dict.fromkeys(answer) if answer.count(w) == 1 and reference.count(w) == 1]
    if len(once) < 2:
        return None
    before = SequenceMatcher(None, answer, reference, autojunk=False).ratio()
    best, found = before, None
    for i, x in enumerate(once):
        for y in once[i + 1 :]:
            # Neighbours trade places in any paraphrase ("light bulb" / "bulb will light");
            # a swap of roles moves words that stand apart on both sides.
            if abs(answer.index(x) - answer.index(y)) < 2:
                continue
            if abs(reference.index(x) - reference.index(y)) < 2:
                continue
            swapped = [y if w == x else x if w == y else w for w in answer]
            after = SequenceMatcher(None, swapped, reference, autojunk=False).ratio()
            if after > best:
                best, found = after, (x, y)
    return found if found and best >= 0.75 and best - before >= SWAP_GAIN else None


def find_substitution(a_set: set[str], r_set: set[str]) -> tuple[str, str] | None:
    """A role term the answer uses where the reference, never naming it, has its partner."""
    for x, y in ROLES:
        if x in a_set and x not in r_set and y in r_set and y not in a_set:
            return (x, y)
    return None


def match(question: str, answer: str, references: Sequence[str]) -> Match:
    """Compute the features of ``answer`` against the reference it overlaps most.

    Args:
        question: the question text (its words are weighted down).
        answer: the learner's answer.
        references: one or more reference texts; at least one.
    """
    q_stems = set(content(tokens(question)))
    a_toks = tokens(answer)
    a_list = content(a_toks)
    a_set = set(a_list)
    refs = [r for r in references if r and r.strip()] or [""]
    scored = []
    for r in refs:
        r_list = list(dict.fromkeys(content(tokens(r))))
        scored.append((_recall_precision(a_set, r_list, q_stems), r, r_list))
    best_recall_any = max(rp[0] for rp, _, _ in scored)
    (recall, precision), ref, r_list = max(scored, key=lambda x: _f1(x[0]))
    r_set = set(r_list)
    new = [s for s in r_list if s not in q_stems]
    recall_new = (sum(1 for s in new if s in a_set) / len(new)) if new else recall
    extra = len([s for s in a_set if s not in r_set and s not in q_stems]) / (len(a_set) or 1)
    token_set = fuzz.token_set_ratio(" ".join(a_list), " ".join(r_list)) / 100.0
    ratio = fuzz.ratio(answer.lower(), ref.lower()) / 100.0
    neg_mismatch = float((neg_count(a_toks) % 2) != (neg_count(tokens(ref)) % 2))
    conflict = _conflict(a_set, r_set, q_stems)
    values = [
        recall,
        precision,
        recall_new,
        extra,
        token_set,
        ratio,
        neg_mismatch,
        float(conflict is not None),
        math.log1p(len(a_list)),
        float(len(a_list) <= 1),
        best_recall_any,
        # "not connected to the positive terminal" == "connected to the negative terminal":
        # a negation and an antonym cancel out.
        float((int(neg_mismatch) + int(conflict is not None)) % 2),
    ]
    shared = [s for s in r_list if s in a_set]
    missing = [s for s in new if s not in a_set]
    swap = find_swap(a_list, content(tokens(ref)))
    return Match(ref, values, shared, missing, conflict, swap, find_substitution(a_set, r_set))
