"""A drag across a column break in a real browser, on a page from outside ../shared/corpus.

Two first pages with the ACM permission block at the foot of the left column, which a drag from
the last sentence of that column to the top of the right one used to sweep in: the generated
ACM page of tests/reading_order and a real one (KDD '22, from the fresh batch; see SOURCES.md
there).
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


@pytest.mark.parametrize("case_id", ["acm-p1-1", "kdd22-p1-1"])
def test_drag_across_columns_leaves_out_the_permission_block(
    reader_app,  # noqa: F811
    browser_page,
    tmp_path,
    case_id,
):
    case = next(c for c in evalset.cases() if c["id"] == case_id)
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
