"""Weights of the offline grader, fitted by ``bench/grading.py --write-params``.

Derived numbers (feature means, scales, logistic-regression weights, thresholds), not
data. They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and
Beetle), licensed CC BY-SA 3.0: see LICENSE.params.CC-BY-SA-3.0.txt beside this file.
The thresholds come from out-of-fold probabilities (folds grouped by question).
Two models: the word features alone, and ``EMB_``: the same plus the word-vector
features, used when the optional ``wordllama`` is installed.
"""

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
TRAINED_ON = 8910
MEANS = (
    0.375636,
    0.424328,
    0.363364,
    0.421412,
    0.661585,
    0.487594,
    0.204826,
    0.027048,
    1.685846,
    0.072840,
    0.385101,
    0.215039,
)
SCALES = (
    0.321583,
    0.331747,
    0.374841,
    0.313324,
    0.266224,
    0.155110,
    0.403574,
    0.162224,
    0.526212,
    0.259873,
    0.333068,
    0.410850,
)
# bias first, then one weight per feature
WEIGHTS = (
    -0.447031,
    -0.569879,
    -0.128785,
    0.585783,
    -0.157823,
    0.341244,
    0.496611,
    -0.032111,
    0.082638,
    0.229577,
    0.080106,
    0.365988,
    -0.293546,
)
T_CORRECT = 0.7804470656603224
T_WRONG = 0.12499642856559653
T_2WAY = 0.46388294548851194
GATE_2WAY = True

EMB_FEATURES = (
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
    "emb_cosine",
    "emb_cosine_new",
    "emb_align_recall",
    "emb_align_precision",
)
EMB_TRAINED_ON = 8910
EMB_MEANS = (
    0.375636,
    0.424328,
    0.363364,
    0.421412,
    0.661585,
    0.487594,
    0.204826,
    0.027048,
    1.685846,
    0.072840,
    0.385101,
    0.215039,
    0.499951,
    0.416197,
    0.461271,
    0.471937,
)
EMB_SCALES = (
    0.321583,
    0.331747,
    0.374841,
    0.313324,
    0.266224,
    0.155110,
    0.403574,
    0.162224,
    0.526212,
    0.259873,
    0.333068,
    0.410850,
    0.249242,
    0.302153,
    0.315186,
    0.310572,
)
# bias first, then one weight per feature
EMB_WEIGHTS = (
    -0.459918,
    -0.021007,
    -0.140020,
    -0.183448,
    -0.236691,
    0.292236,
    0.441857,
    0.047063,
    0.025618,
    0.158642,
    0.047791,
    -0.414578,
    -0.277847,
    0.072630,
    0.522319,
    0.880488,
    -0.342838,
)
EMB_T_CORRECT = 0.8092696465188042
EMB_T_WRONG = 0.13250542298870083
EMB_T_2WAY = 0.4737420085227063
EMB_GATE_2WAY = False
