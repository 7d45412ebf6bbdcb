"""The folder floor: the entry grammar, safe file I/O (fsio, writing), upstream stores (read,
and edited by upstream_edit), the workspace index and the one write path (operations, and
multifile for move, relink and delete). Nothing here knows about documents, study or views.
"""

__all__ = [
    "fsio",
    "index_cache",
    "listing",
    "multifile",
    "notes",
    "operations",
    "paths",
    "plainyaml",
    "settings",
    "upstream",
    "upstream_edit",
    "workspace",
    "writing",
]
