"""Rules found on batch 56 (cheat sheets, datasheets, a club newsletter; first measured 9/24).

Maxim's DS18B20 datasheet sets its list's square bullets in a symbol font whose glyph has
no text behind it but a private-use code point (U+F0A7): a quote showed a box where the page
shows a bullet. Such a glyph is no word of the page, unless the page's font maps all its text
there (a font that does keeps it: nothing else would be left).
"""

from __future__ import annotations

import pytest

from basehalf_core.documents.text import is_icon


@pytest.mark.parametrize(
    ("text", "icon"),
    [
        ("\uf0a7", True),  # a symbol font's square bullet
        ("\ue001\ue002", True),
        ("•", False),  # a real bullet
        ("café", False),
        ("", False),
        ("a\uf0a7", False),  # text with an icon in it stays a word
    ],
)
def test_a_private_use_glyph_is_an_icon(text, icon):
    assert is_icon(text) is icon
