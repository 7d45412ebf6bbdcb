"""The documents floor: PDFs and EPUBs through PyMuPDF (open, render, words, passages; what can be
wrong with one in ``errors``, a page's pixels in ``raster``), reading order, passage anchors (with
highlights), the whole-document search (``page_search``) and fetching a paper.

``text`` holds the pure text rules (no PyMuPDF) and ``runs`` the page's text that search and
re-anchoring look in, ``pages`` the extraction of one page's words (from the units and line
segments of ``lines``, whose words drawn without spaces ``glued`` cuts, grouped into blocks by
``grouping``, whose bullets, line pieces and credit lines ``line_pieces`` puts right, marked by
``regions`` from the page's drawings (with ``figure_parts`` growing and joining figures,
``figure_labels`` telling the panel letters, tick labels and axis titles set round them,
``outlines`` telling the tables ruled across and the frames drawn around text, ``captions`` what
stands beside a figure or table and belongs to it, and ``labels`` the caption labels of every
language known, ``rule_splits`` the blocks a footnote rule, a table's top rule or a box's top
edge runs through, ``runaround`` the pieces of lines a picture breaks, ``page_log`` the page's
drawings as a reader sees them) and by ``running_heads`` from nearby pages, with the labels hung
left of their lines read with them by ``hanging``; ``vertical`` reads a page set in columns of CJK;
``raw_text`` holds the PyMuPDF lock and the units and styles both read from PyMuPDF's dictionaries;
``search_helper`` is the second process that searches a long PDF from its end while the kernel
searches from its start). ``reading_order`` orders a page's blocks (``text_blocks``), which
``roles`` sorts into running text and the rest (``page_edges`` telling the heads and footers that
do not repeat) and whose headings ``headings`` reads with the running text (and quotations and
closing tags, ``quotations``); ``title_band`` tells the title matter read before the columns from
the columns' own first lines and heads, ``bands`` the rows read on their own across a gutter that
runs down part of the page only; ``sections`` finds the headings that open sections of balanced
columns (a glossary's letters) and the side heads of a margin; ``gutters`` the gutters the plain
gap test misses (under an overhang, beside a sidebar, with a rule drawn in them); ``selection``
decides which words a drag keeps (running text, not the caption or footnote it sweeps past).
"""

__all__ = [
    "anchors",
    "bands",
    "captions",
    "citation",
    "document",
    "errors",
    "fetch",
    "figure_labels",
    "figure_parts",
    "glued",
    "grouping",
    "gutters",
    "hanging",
    "headings",
    "labels",
    "line_pieces",
    "lines",
    "outlines",
    "page_edges",
    "page_log",
    "page_search",
    "pages",
    "quotations",
    "raster",
    "raw_text",
    "reading_order",
    "regions",
    "roles",
    "rule_splits",
    "runaround",
    "running_heads",
    "runs",
    "search_helper",
    "sections",
    "selection",
    "text",
    "text_blocks",
    "title_band",
    "vertical",
    "web",
]
