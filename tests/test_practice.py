"""Practice cards: both layouts, missing answers, empty cards."""

from __future__ import annotations

import pytest

from basehalf_core.study.practice import EmptyCard, MissingAnswer, parse_card

INLINE = """---
upstream:
  - 03-scaled-dot-product.md
  - 04-three-attention-uses.md
kind: practice
---
# Q, K, V in one sentence each

1. In scaled dot-product attention, what does the Query stand for?
   Answer: What the current position is looking for in the whole sequence.
2. What does the Key stand for?
   Answer: What each position offers to be matched
   against a query.
3. What does the Value stand for?
"""

LISTS = """---
upstream: [01-notes.md]
kind: practice
---
# Circuits

## Questions

1. Why does bulb A light?
2. What happens to the current when resistance increases?
3. What is a short circuit?

## Answers

1. Bulb A is in a closed path with the battery.
3. A path with almost no resistance.
"""


def test_inline_layout_pairs_each_question_with_its_answer():
    card = parse_card("06-qkv.md", INLINE)
    assert card.title == "Q, K, V in one sentence each"
    assert card.upstream == ["03-scaled-dot-product.md", "04-three-attention-uses.md"]
    assert [q.number for q in card.questions] == [1, 2, 3]
    assert card.questions[0].text.startswith("In scaled dot-product attention")
    assert (
        card.questions[0].answer
        == "What the current position is looking for in the whole sequence."
    )
    assert card.questions[1].answer == "What each position offers to be matched against a query."


def test_lists_layout_pairs_by_number_and_reports_missing():
    card = parse_card("c.md", LISTS)
    assert [q.number for q in card.answered] == [1, 3]
    assert card.missing == [2]
    assert card.questions[2].answer == "A path with almost no resistance."
    with pytest.raises(MissingAnswer, match="question 2"):
        card.require_complete()


def test_missing_answers_in_inline_layout_are_listed_not_fatal():
    card = parse_card("06-qkv.md", INLINE)
    assert card.missing == [3]
    assert len(card.answered) == 2


def test_answer_key_section_is_kept_apart_from_the_learners_answers():
    text = LISTS + "\n## Answer key\n\n2. The current decreases.\n"
    card = parse_card("c.md", text)
    assert card.answer_key == {2: "The current decreases."}
    assert card.missing == [2]


def test_chinese_card_parses():
    text = "# 注意力\n\n1. 查询代表什么？\n   答案：当前位置在寻找什么。\n"
    card = parse_card("卡片.md", text)
    assert card.questions[0].answer == "当前位置在寻找什么。"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "---\nkind: practice\n---\n# Empty card\n",
        "# Notes only\n\nSome prose, no numbered questions.\n",
        "# Only answers\n\nAnswer: floating answer\n",
    ],
)
def test_card_without_questions_is_an_empty_card_error_naming_the_file(text):
    with pytest.raises(EmptyCard, match=r"broken\.md"):
        parse_card("broken.md", text)
