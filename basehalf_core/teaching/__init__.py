"""The teaching floor: courses (hand-outs, progress) and grading a class.

Modules are imported by name (``from basehalf_core.teaching import X``); importing the floor
itself imports none of them, so the command line stays fast.
"""

__all__ = [
    "classroom",
    "course",
]
