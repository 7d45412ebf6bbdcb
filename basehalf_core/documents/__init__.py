"""The documents floor: PDFs and EPUBs through PyMuPDF (open, render, words, passages), reading
order, passage anchors and fetching a paper.

Modules are imported by name (``from basehalf_core.documents import X``); importing the floor
itself imports none of them, so the command line stays fast.
"""

__all__ = [
    "anchors",
    "document",
    "fetch",
    "reading_order",
]
