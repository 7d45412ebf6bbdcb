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
    0.375636,
    0.424328,
    0.363364,
    0.421412,
    0.661461,
    0.487349,
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
    0.266122,
    0.154812,
    0.403574,
    0.162224,
    0.526212,
    0.259873,
    0.333068,
    0.410850,
)
FLIP_RECALL = 0.5
WEIGHTS = (
    (
        -0.044405,
        -0.406308,
        -0.069377,
        0.403627,
        -0.146720,
        0.212093,
        0.261351,
        0.014851,
        0.040862,
        0.130805,
        0.084481,
        0.127815,
        -0.232686,
    ),
    (
        0.025990,
        0.307154,
        -0.177220,
        -0.364930,
        0.162651,
        -0.098850,
        0.007860,
        -0.056162,
        -0.112103,
        -0.163567,
        -0.104297,
        0.318395,
        0.314400,
    ),
    (
        0.018414,
        0.099154,
        0.246596,
        -0.038697,
        -0.015931,
        -0.113243,
        -0.269211,
        0.041312,
        0.071241,
        0.032763,
        0.019816,
        -0.446211,
        -0.081714,
    ),
)
