"""The teaching floor: courses (hand-outs, progress) and grading a class."""

__all__ = [
    "classroom",
    "course",
]
