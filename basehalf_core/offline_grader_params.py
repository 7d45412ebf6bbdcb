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
    0.371664,
    0.418191,
    0.358045,
    0.427168,
    0.659471,
    0.487524,
    0.205163,
    0.026824,
    1.685846,
    0.072840,
    0.381046,
    0.215152,
)
SCALES = (
    0.321679,
    0.330819,
    0.374331,
    0.313608,
    0.264512,
    0.155031,
    0.403820,
    0.161568,
    0.526212,
    0.259873,
    0.333200,
    0.410927,
)
WEIGHTS = (
    (
        -0.040675,
        -0.452915,
        -0.082133,
        0.391813,
        -0.134506,
        0.225074,
        0.282795,
        0.010068,
        0.039176,
        0.125345,
        0.097668,
        0.177050,
        -0.230518,
    ),
    (
        0.023642,
        0.339467,
        -0.167573,
        -0.361462,
        0.154224,
        -0.100443,
        -0.005665,
        -0.052676,
        -0.110347,
        -0.159893,
        -0.112530,
        0.291402,
        0.309609,
    ),
    (
        0.017033,
        0.113447,
        0.249707,
        -0.030351,
        -0.019717,
        -0.124631,
        -0.277130,
        0.042608,
        0.071171,
        0.034548,
        0.014862,
        -0.468452,
        -0.079091,
    ),
)
