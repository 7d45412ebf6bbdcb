"""Markdown to HTML that no note can turn into script.

Raw HTML in a note is shown as text (Python-Markdown's HTML passes are removed), link targets
are kept only for relative paths, ``#anchors``, ``http(s):`` and ``mailto:`` (checked after
entity decoding, so ``&#106;avascript:`` does not slip through), and images become their alt
text: an offline page must not fetch anything, and a note's image could be a tracking pixel.
"""

from __future__ import annotations

import html
import re
import threading
import xml.etree.ElementTree as ET

import markdown
from markdown.treeprocessors import Treeprocessor

_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
# Browsers drop these anywhere in a URL before reading the scheme ("java\tscript:").
_IGNORED_IN_URL = re.compile(r"[\x00-\x20\x7f]+")


def safe_href(url: str) -> str | None:
    """The link target if it is harmless, else ``None``."""
    plain = _IGNORED_IN_URL.sub("", html.unescape(html.unescape(url)))
    m = _SCHEME.match(plain)
    if m is None:
        return url if not plain.startswith("//") else None
    return url if m.group(1).lower() in _SAFE_SCHEMES else None


class _Sanitise(Treeprocessor):
    def __init__(self, md: markdown.Markdown, shift: int):
        super().__init__(md)
        self.shift = shift

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            for i, el in enumerate(list(parent)):
                if el.tag == "img":
                    alt = el.get("alt") or "image"
                    span = ET.Element("span", {"class": "bh-image"})
                    span.text = f"[image: {alt}]"
                    span.tail = el.tail
                    parent[i] = span
                    continue
                if el.tag == "a":
                    href = safe_href(el.get("href", ""))
                    for attr in list(el.attrib):
                        if attr not in ("href", "title"):
                            del el.attrib[attr]
                    if href is None:
                        el.attrib.pop("href", None)
                        el.set("class", "bh-unsafe-link")
                if re.fullmatch(r"h[1-6]", el.tag) and self.shift:
                    el.tag = f"h{min(6, int(el.tag[1]) + self.shift)}"


def _converter(shift: int) -> markdown.Markdown:
    md = markdown.Markdown(extensions=["tables", "fenced_code"], output_format="html")
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    md.treeprocessors.register(_Sanitise(md, shift), "bh-sanitise", 0)
    return md


# Building a converter costs more than converting a note; keep one per heading shift and
# thread (a Markdown instance holds per-document state, so threads must not share one).
_local = threading.local()


def render(text: str, *, heading_shift: int = 0) -> str:
    """Render Markdown safely.

    Args:
        text: Markdown source from a note (untrusted).
        heading_shift: levels to add to every heading (a note's ``#`` inside a page section).

    Returns:
        HTML with no raw markup from ``text``, no script-capable link and no image fetch.
    """
    cache = _local.__dict__.setdefault("converters", {})
    md = cache.get(heading_shift)
    if md is None:
        md = cache[heading_shift] = _converter(heading_shift)
    try:
        return md.convert(text)
    finally:
        md.reset()
