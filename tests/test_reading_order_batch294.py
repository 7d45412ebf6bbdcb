"""Rules found in the session of batches 294 onwards (the helpers' ro294 and later).

A Chinese two-column template (batch 281) sets its headings ("4 实验") larger than the
text and runs the text on under them. Lines of text without spaces were joined without
one, also where a heading ended and its text began: "4 实验Suspendisse", "第二段3 方法". A
line break between two blocks set in different sizes is no wrap inside a paragraph: it
reads as a space. A paragraph going on in the next block in its own size (the next column)
still joins without one.
"""

from __future__ import annotations

from conftest import drag
from pagedraw import one_page

CJK = "china-s"


def _chinese_heading(heading_size: float):
    def draw(page) -> None:
        page.insert_text((60, 100), "这是第二段。", fontsize=10.5, fontname=CJK)
        page.insert_text((60, 130), "3", fontsize=heading_size, fontname="hebo")
        page.insert_text((60 + heading_size, 130), "方法", fontsize=heading_size, fontname=CJK)
        page.insert_text((60, 155), "本文采用可视化试验方法。", fontsize=10.5, fontname=CJK)
        page.insert_text((60, 180), "Quisque ullamcorper placerat.", fontsize=10.5)

    return draw


def test_a_larger_chinese_heading_is_parted_from_its_text_by_a_space(tmp_path):
    doc = one_page(tmp_path, _chinese_heading(14.0))
    assert drag(doc, 0, "段", "文") == "段。 3 方法 本文"


def test_text_without_spaces_goes_on_in_the_next_column_without_one(tmp_path):
    def draw(page) -> None:
        for x, line in ((60, "喷雾锥角的测量结果是"), (320, "本文采用可视化试验法")):
            for k in range(6):
                page.insert_text((x, 100 + 14 * k), line * 2, fontsize=10.5, fontname=CJK)

    doc = one_page(tmp_path, draw)
    got = drag(doc, 0, "是", "本")
    assert " " not in got and got.startswith("是") and got.endswith("本"), got
