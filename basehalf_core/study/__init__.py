"""The study floor: growing notes from passages, practice cards, the grading context, model calls,
grading (offline and through a model), asking, and the review schedule.

Modules are imported by name (``from basehalf_core.study import X``); importing the floor
itself imports none of them, so the command line stays fast.
"""

__all__ = [
    "ask",
    "branch",
    "context",
    "grading",
    "llm",
    "offline_grader",
    "offline_grader_params",
    "practice",
    "review",
    "verdicts",
]
