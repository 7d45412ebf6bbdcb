"""A drag across a column break in a real browser, on a page from outside ../shared/corpus.

The page is the generated ACM first page of tests/reading_order (see SOURCES.md there): the
foot of its left column holds the ACM permission block, which a drag from the last sentence of
that column to the top of the right one used to sweep in.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from test_browser_reader import drag, open_reader, reader_app, shown_passage  # noqa: F401

from basehalf_core.documents.document import open_document

sys.path.insert(0, str(Path(__file__).parent / "reading_order"))

import evalset

pytestmark = pytest.mark.browser


def test_drag_across_columns_leaves_out_the_permission_block(reader_app, browser_page, tmp_path):  # noqa: F811
    case = next(c for c in evalset.cases() if c["id"] == "acm-p1-1")
    path = tmp_path / "chi-paper.pdf"
    shutil.copy(evalset.path_of(case), path)
    words = open_document(path).words(case["page"] - 1)
    first = evalset._hit(words, case["start"]["at"])
    last = evalset._hit(words, case["end"]["at"])
    assert any("Permission" in w.text for w in words[first:last])  # it lies between the ends

    page = browser_page
    open_reader(page, reader_app(path))
    drag(page, first, last)
    shown = shown_passage(page)
    assert shown == f"{case['expected']} (p. 1)"
    assert "Permission" not in shown and not page.dialogs
