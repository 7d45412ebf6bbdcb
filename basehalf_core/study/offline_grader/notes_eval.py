"""Measuring grading from notes alone (no answer key) on SemEval rows, with simulated notes.

Used by ``bench/grading.py --notes``; the cross-validation it builds on is :mod:`.evaluate`'s.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from basehalf_core.study.offline_grader.evaluate import (
    LEXICAL,
    UNSEEN_QUESTIONS,
    Outcome,
    baseline_verdict,
    choose_l2,
    group_folds,
    is_correct,
    make_fitter,
    overlap_score,
    row_match,
    select_policy,
)
from basehalf_core.study.offline_grader.model import notes_match
from basehalf_core.study.offline_grader.text import sentences

# --- Grading from notes alone (no answer key) -----------------------------------------------
# SemEval has no notes, only reference answers. A learner's notes on a lesson hold many
# sentences, a few of which answer a given card; so a row's notes are simulated as the reference
# answers of every question of its lesson, one paragraph each. A lesson is the source file's
# name up to its first "-": a SciEntsBank module ("EM-inv1-45b.xml": EM, 12 lessons of 2-45
# questions) or a Beetle tutoring unit ("FaultFinding-BULB_….xml", 3 lessons of 9-19).


def lesson_of(row: dict) -> str:
    """The lesson a SemEval row's question belongs to (see above)."""
    name = row.get("source_file", "").rsplit("/", 1)[-1]
    return name.split("-", 1)[0] if "-" in name else row["question_id"]


def lesson_notes(rows: Sequence[dict], own: bool = True) -> list[str]:
    """Each row's simulated notes: its lesson's reference answers, one paragraph each.

    Args:
        rows: SemEval rows.
        own: keep the row's own question's references among the notes; ``False`` gives notes
            that hold the lesson but not this card's answer (nothing in them can make an
            answer Correct).
    """
    refs: dict[str, dict[str, list[str]]] = {}
    for r in rows:
        by_q = refs.setdefault(lesson_of(r), {})
        by_q.setdefault(r["question_id"], r.get("reference_answers_all") or [r["reference_answer"]])
    out = []
    for r in rows:
        paras = [
            ref
            for q, texts in sorted(refs[lesson_of(r)].items())
            if own or q != r["question_id"]
            for ref in texts
        ]
        out.append("\n\n".join(paras))
    return out


def notes_policy(
    train: Sequence[int],
    rows: Sequence[dict],
    data: Any,
    gold: Sequence[bool],
    notes_data: Any,
    blocked: Sequence[bool],
    l2: float,
    inner_k: int,
    group: str,
) -> float | None:
    """The lowest P(correct) whose Correct verdicts against notes reach the precision target.

    Chosen on ``train`` alone: each inner fold's answers are scored against their notes by a
    model fit (with the key, as shipped) on the other inner folds; ``blocked`` answers (no note
    about the question, or a contradiction) are never Correct.
    """
    sub = [rows[i] for i in train]
    scores: dict[int, float] = {}
    for fold in group_folds(sub, inner_k, seed=11, group=group):
        held = set(fold)
        fit_on = [train[j] for j in range(len(train)) if j not in held]
        model = LEXICAL.fit(LEXICAL.take(data, fit_on), [gold[i] for i in fit_on], l2)
        for j in fold:
            scores[train[j]] = model.probability(notes_data[train[j]])
    pol = select_policy(
        [scores[i] for i in train], [gold[i] for i in train], [blocked[i] for i in train]
    )
    return pol.t_correct


NOTES_RULES = ("shipped", "key threshold", "notes threshold")


def notes_validate(
    rows: Sequence[dict],
    k: int = 5,
    inner_k: int = 3,
    group: str = UNSEEN_QUESTIONS,
    seed: int = 7,
    own: bool = True,
) -> dict[str, dict[str, Any]]:
    """Grouped CV of grading with notes and no key, beside a word-overlap baseline.

    Each outer training part fits the model and chooses its key thresholds exactly as
    :func:`cross_validate` does; the held-out answers are then graded by :func:`.model.grade`
    against their notes only (``own`` says whether the notes hold the card's reference), as
    the product does when a card has no key, under each of :data:`NOTES_RULES`: ``shipped``
    (Correct never comes from notes), ``key threshold`` (Correct at the key's threshold, the
    rule before) and ``notes threshold`` (a threshold of its own from :func:`notes_policy`,
    chosen on notes that hold each training answer's reference). The baseline is the share
    of the closest note sentence's distinct words found in the answer, its thresholds chosen
    on the training part's notes the same way.

    Returns:
        ``{"overlap": report, rule: report, ...}`` as :meth:`Outcome.report` gives them, each
        with its ``verdicts``; the notes threshold's report also lists the chosen thresholds.
    """
    from basehalf_core.study.offline_grader.model import grade

    texts = lesson_notes(rows, own)
    notes = [sentences(t) for t in texts]
    fit_notes = notes if own else [sentences(t) for t in lesson_notes(rows, True)]
    matches = [row_match(r) for r in rows]
    data = LEXICAL.prepare([m.values for m in matches])
    gold = [is_correct(r) for r in rows]
    flips = [m.flipped for m in matches]
    fitter = make_fitter(LEXICAL, data, gold)
    by_notes = [
        notes_match(r["question"], r["student_answer"], n)
        for r, n in zip(rows, fit_notes, strict=True)
    ]
    notes_data = [m.values for m, _ in by_notes]
    blocked = [not on or m.flipped or m.confused for m, on in by_notes]

    def closest(texts: list[list[str]]) -> list[float]:
        return [
            overlap_score({"student_answer": r["student_answer"], "reference_answers_all": n})
            for r, n in zip(rows, texts, strict=True)
        ]

    base, fit_base = closest(notes), closest(fit_notes)
    names = ("overlap", *NOTES_RULES)
    verdicts = {name: [""] * len(rows) for name in names}
    chosen = []
    for fold in group_folds(rows, k, seed=seed, group=group):
        held = set(fold)
        train = [i for i in range(len(rows)) if i not in held]
        l2, inner = choose_l2(train, rows, gold, fitter, LEXICAL, inner_k, group)
        pol = select_policy(
            [inner[i] for i in train], [gold[i] for i in train], [flips[i] for i in train]
        )
        t_notes = notes_policy(train, rows, data, gold, notes_data, blocked, l2, inner_k, group)
        chosen.append(t_notes)
        model = LEXICAL.fit(LEXICAL.take(data, train), [gold[i] for i in train], l2)
        rules = dict(zip(NOTES_RULES, (None, pol.t_correct, t_notes), strict=True))
        bpol = select_policy([fit_base[i] for i in train], [gold[i] for i in train])
        for i in fold:
            r = rows[i]
            for name, t in rules.items():
                rule = dataclasses.replace(pol, t_correct_notes=t)
                got = grade(r["question"], r["student_answer"], context=texts[i], model=model,
                            policy=rule)  # fmt: skip
                verdicts[name][i] = got.verdict
            verdicts["overlap"][i] = baseline_verdict(base[i], bpol)
    # Notes give no full-coverage decision: the 2-way column is "said Correct" against the rest.
    out = {
        name: Outcome(verdicts[name], [v == "Correct" for v in verdicts[name]]).report(gold)
        | {"verdicts": verdicts[name]}
        for name in names
    }
    out["notes threshold"]["t_correct_notes"] = chosen
    return out
