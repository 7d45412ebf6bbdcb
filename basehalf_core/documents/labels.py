"""Caption labels ("Figure 3:", "Table II", "图 2", "(그림 1)") in the languages the reader meets.

Below every floor that reads lines: the line builder (:mod:`.lines`) keeps a hanging
caption's label on its title's line, and :mod:`.captions` tells captions by them.
"""

from __future__ import annotations

import re

# A caption opens with its label and number, then punctuation, the end of its line or its
# capitalised title: "Figure 3:", "Fig. 2.", "Table 1 |", "TABLE II", "Table 1 Summary of ...",
# "(그림 1)".
# "Table 1 summarises ..." is running text.
# A CJK label's title after a space opens with a kanji or katakana ("図2 学習に伴う"), or a
# Korean word of two syllables or more, and its line holds no sentence's comma or stop:
# running text goes on with a particle ("図 2 に示す") or runs into a sentence ("图 2 给出了
# 喷雾锥角随…，").
_CJK_TITLE = r"\s+([\u4e00-\u9fff\u30a0-\u30ff]|[\uac00-\ud7a3]{2})[^，。、；]*$"
# Labels in English and the other languages the reader meets (Indonesian "Gambar", German
# "Abbildung", Spanish "Cuadro", Russian "Рисунок", Turkish "Şekil", Polish "Rysunek", …).
_LABEL = (
    r"(fig(ure|ura|uur)?|tab(le|la|ela|ella|elle|leau|el|lo)?|chart|plate|exhibit|listing"
    r"|algorithm|scheme|gambar|abb(ildung)?|cuadro|quadro|gr[aá]fico|şekil|rys(unek)?"
    r"|рис(унок)?|табл(ица)?|图|図|表|그림|표)"
)
_CJK_LABEL = r"(图|図|表|그림|표)"
CAPTION_LABEL = re.compile(
    # Chinese 图/表, Japanese 図/表, Korean 그림/표 label captions too; Korean papers may
    # bracket the label ("(그림 1) 초음파 센서"), its title not in lower case after it.
    # A hyphen stands for the dash with a space on each side ("Figure 3 - An AABB"), never in
    # a range ("Figures 3-5 show").
    rf"^{_LABEL}\.?\s*[0-9IVXivx]+[a-z]?(\s*[.:：|—–]|\s+-\s|$|\s+(?-i:[A-Z][A-Za-z])|{_CJK_TITLE})"
    rf"|^[(（<〈\[]{_LABEL}\.?\s*[0-9IVXivx]+[a-z]?[)）>〉\]]\s*($|(?-i:[^a-z\s]))"
    # In square brackets, a title may open with a lower-case word ("[그림 3] epoch별 …").
    rf"|^\[{_CJK_LABEL}\s*[0-9]+\]\s+\S",
    re.IGNORECASE,
)
# A line's first words that are a label and its number alone ("Figure 2:", "Table 1."): a
# hanging caption sets its title apart from them, the width of an indent.
LABEL_ALONE = re.compile(rf"^{_LABEL}\.?\s*[0-9IVXivx]+[a-z]?\s*[.:：|—–]?$", re.IGNORECASE)
