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
T_CORRECT = 0.784901339352895
T_WRONG = 0.08620376035893659
T_2WAY = 0.46388294548851194
GATE_2WAY = True
