"""The folder floor: the entry grammar, safe file I/O, upstream stores, the workspace index and
the one write path (operations). Nothing here knows about documents, study or views.

Modules are imported by name (``from basehalf_core.folder import X``); importing the floor
itself imports none of them, so the command line stays fast.
"""

__all__ = [
    "fsio",
    "operations",
    "paths",
    "plainyaml",
    "upstream",
    "workspace",
]
