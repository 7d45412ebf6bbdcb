"""The teaching floor: courses (hand-outs, progress) and grading a class."""

__all__ = [
    "auth",
    "budget",
    "classroom",
    "classview",
    "course",
    "gitout",
    "roster",
    "traffic",
]
