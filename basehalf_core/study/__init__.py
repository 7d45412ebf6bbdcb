"""The study floor: growing notes from passages, practice cards, the grading context, model calls,
grading (offline and through a model), asking, and the review schedule.
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
    "zotero",
]
