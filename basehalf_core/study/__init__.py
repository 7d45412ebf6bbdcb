"""The study floor: growing notes from passages, practice cards, the grading context, model calls,
grading (offline and through a model), asking, and the review schedule.
"""

__all__ = [
    "answer_key",
    "ask",
    "branch",
    "context",
    "grading",
    "llm",
    "offline_grader",
    "practice",
    "review",
    "zotero",
]
