"""The folder floor: the entry grammar, safe file I/O, upstream stores, the workspace index and
the one write path (operations). Nothing here knows about documents, study or views.
"""

__all__ = [
    "fsio",
    "index_cache",
    "listing",
    "notes",
    "operations",
    "paths",
    "plainyaml",
    "settings",
    "upstream",
    "workspace",
]
