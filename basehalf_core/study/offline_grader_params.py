"""Weights of the offline grader, fitted by ``bench/grading.py --write-params``.

Derived numbers (feature means, scales, logistic-regression weights), not data.
They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and
Beetle), licensed CC BY-SA 3.0:
see LICENSE.offline_grader_params.CC-BY-SA-3.0.txt beside this file.
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
LABELS = ("correct", "contradictory", "incorrect")
TRAINED_ON = 8910
MEANS = (
    0.375645,
    0.424317,
    0.363364,
    0.421412,
    0.661588,
    0.487565,
    0.204714,
    0.027048,
    1.685846,
    0.072840,
    0.385101,
    0.214927,
)
SCALES = (
    0.321579,
    0.331753,
    0.374841,
    0.313324,
    0.266251,
    0.155064,
    0.403492,
    0.162224,
    0.526212,
    0.259873,
    0.333068,
    0.410772,
)
FLIP_RECALL = 0.6
WEIGHTS = (
    (
        -0.044244,
        -0.378415,
        -0.051374,
        0.450590,
        -0.133230,
        0.256609,
        0.311447,
        -0.001062,
        0.057147,
        0.129552,
        0.073968,
        0.181160,
        -0.249225,
    ),
    (
        0.059179,
        0.266194,
        -0.151519,
        -0.411199,
        0.111384,
        -0.108474,
        -0.031923,
        -0.055614,
        -0.044712,
        -0.173023,
        -0.099472,
        0.290881,
        0.332039,
    ),
    (
        -0.014936,
        0.112221,
        0.202893,
        -0.039390,
        0.021846,
        -0.148135,
        -0.279524,
        0.056676,
        -0.012435,
        0.043471,
        0.025504,
        -0.472041,
        -0.082814,
    ),
)
