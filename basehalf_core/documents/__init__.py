"""The documents floor: PDFs and EPUBs through PyMuPDF (open, render, words, passages), reading
order, passage anchors and fetching a paper.
"""

__all__ = [
    "anchors",
    "citation",
    "document",
    "fetch",
    "reading_order",
]
