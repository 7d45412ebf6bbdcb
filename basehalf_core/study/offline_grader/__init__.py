"""The offline grader: deterministic, no network, honest about what word evidence can settle.

It compares a learner's short answer with an answer key when one exists, otherwise with the
sentences of the card's notes, which it never mistakes for a key. Verdicts are Correct,
Partial, Wrong, or **Unsure** when the evidence does not support one; each has a confidence.

Floors inside the package (lower to higher): :mod:`.lexicon` (word lists) < :mod:`.text`
(tokens, stems, sentences) < :mod:`.features` (one answer against its references) <
:mod:`.model` (P(correct), the verdict policy, :func:`grade`) < :mod:`.evaluate` (grouped,
nested cross-validation against a word-overlap baseline; used by ``bench/grading.py``, with
:mod:`.boosted`, numpy boosted trees, below it) < :mod:`.notes_eval` (grading from notes alone,
measured on simulated notes).
:mod:`.vectors` (beside :mod:`.features`) reads word vectors from wordllama's wheel: with
an answer key, :func:`grade` weighs them in a second model (:mod:`.params_vectors`) whose
2-way decision keeps a word-rule verdict only where it agrees (:func:`.model.agree`) and says
which way an Unsure leans. :mod:`.meaning` holds sentence-meaning features from
all-MiniLM-L6-v2 run in numpy, measured by the bench only (its package declares torch).
"""

from basehalf_core.study.offline_grader.features import FEATURES, Match, focus, match
from basehalf_core.study.offline_grader.lexicon import STOP
from basehalf_core.study.offline_grader.model import (
    MODEL_NAME,
    Model,
    OfflineGrade,
    Policy,
    compare_passages,
    grade,
    shipped,
)
from basehalf_core.study.offline_grader.text import sentences, stem, tokens

__all__ = [
    "FEATURES",
    "MODEL_NAME",
    "STOP",
    "Match",
    "Model",
    "OfflineGrade",
    "Policy",
    "compare_passages",
    "focus",
    "grade",
    "match",
    "sentences",
    "shipped",
    "stem",
    "tokens",
]
