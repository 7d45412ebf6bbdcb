"""The documents floor: PDFs and EPUBs through PyMuPDF (open, render, words, passages), reading
order, passage anchors (with search and highlights) and fetching a paper.

``text`` holds the pure text rules (no PyMuPDF), ``pages`` the extraction of one page's words.
"""

__all__ = [
    "anchors",
    "citation",
    "document",
    "fetch",
    "pages",
    "reading_order",
    "text",
    "web",
]
