"""Weights of the offline grader, fitted by ``bench/grading.py --write-params``.

Derived numbers (feature means, scales, logistic-regression weights, thresholds), not
data. They were fitted on the SemEval-2013 Task 7 training splits (SciEntsBank and
Beetle), licensed CC BY-SA 3.0: see LICENSE.params.CC-BY-SA-3.0.txt beside this file.
The thresholds come from out-of-fold probabilities (folds grouped by question).
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
    0.661493,
    0.487346,
    0.204602,
    0.027048,
    1.685846,
    0.072840,
    0.385101,
    0.214815,
)
SCALES = (
    0.321583,
    0.331747,
    0.374841,
    0.313324,
    0.266173,
    0.154779,
    0.403410,
    0.162224,
    0.526212,
    0.259873,
    0.333068,
    0.410694,
)
# bias first, then one weight per feature
WEIGHTS = (
    -0.446802,
    -0.556921,
    -0.124150,
    0.579435,
    -0.157440,
    0.334406,
    0.493542,
    -0.033158,
    0.082770,
    0.229442,
    0.079966,
    0.363291,
    -0.294607,
)
T_CORRECT = 0.7799629552128983
T_WRONG = 0.12510157175501277
T_2WAY = 0.4640675454776937
