"""Rebuild the example sessions from the real documents, through basehalf's own write path.

Run from the project root::

    .venv/bin/python sessions/build.py

Each note is grown from a real passage (``branch.grow_from_quote``: quote, page, rects,
prefix/suffix and fingerprint as the core computes them) in a scratch copy of the folder,
renamed with ``multifile.move``, and given its own words with ``operations.edit``; the
practice card is grown with ``operations.grow``. The attention paper cannot be redistributed,
so only the notes are copied into ``sessions/attention-is-all-you-need/`` (their upstream
names ``attention-is-all-you-need.pdf``, dangling until ``basehalf fetch-arxiv`` puts it
there). The LongEval paper is CC BY 4.0 and is bundled with its session.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.study import branch  # noqa: E402
from basehalf_core.study import grading
from basehalf_core.folder import multifile
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
OWN_WORDS_PLACEHOLDER = "Own words: …"

ATTENTION = {
    "folder": "attention-is-all-you-need",
    "pdf": "attention-is-all-you-need.pdf",
    "source": "attention-1706.03762.pdf",
    "bundle_pdf": False,
    "notes": [
        (
            "01-transformer-claim.md",
            "The Transformer claim",
            1,
            "We propose a new simple network architecture, the Transformer, based solely on "
            "attention mechanisms, dispensing with recurrence and convolutions entirely.",
            "The paper's central bet: a translation model can be built from attention layers "
            "alone, with no recurrent or convolutional layers at all. The abstract backs the "
            "bet with results (28.4 BLEU on English-to-German, 41.8 on English-to-French) and "
            "with cost: the models train in far less time because more of the work runs in "
            "parallel.",
        ),
        (
            "02-why-not-only-recurrence.md",
            "Why not only recurrence",
            2,
            "This inherently sequential nature precludes parallelization within training "
            "examples, which becomes critical at longer sequence lengths, as memory "
            "constraints limit batching across examples.",
            "A recurrent network computes the hidden state for position t from the state at "
            "t-1, so the positions of one sentence have to be processed one after another. "
            "Tricks such as factorization or conditional computation speed each step up, but "
            "the chain of steps stays. Attention relates any two positions directly, which is "
            "what lets the Transformer drop the chain.",
        ),
        (
            "03-scaled-dot-product.md",
            "Scaled dot-product attention",
            4,
            'We call our particular attention "Scaled Dot-Product Attention" (Figure 2). The '
            "input consists of queries and keys of dimension dk, and values of dimension dv.",
            "Each query is compared with every key by a dot product; the scores are divided "
            "by the square root of d_k and passed through a softmax, and the resulting weights "
            "mix the values. The division matters: with large d_k the raw dot products get "
            "big, the softmax saturates and its gradients become tiny. Done for all queries at "
            "once this is one matrix formula, softmax(QK^T / sqrt(d_k)) V, which is fast on "
            "GPUs.",
        ),
        (
            "04-three-attention-uses.md",
            "Three uses of attention",
            5,
            'In "encoder-decoder attention" layers, the queries come from the previous decoder '
            "layer, and the memory keys and values come from the output of the encoder.",
            "The same multi-head attention is used in three places. Between decoder and "
            "encoder, the decoder asks and the encoder's output answers, so every output "
            "position can look at the whole input. Inside the encoder, self-attention lets "
            "every position look at every other one of the layer below. Inside the decoder, "
            "self-attention is masked so that a position sees only itself and earlier "
            "positions: the model may not peek at words it has not generated yet.",
        ),
        (
            "05-positional-encoding.md",
            "Positional encoding",
            6,
            'To this end, we add "positional encodings" to the input embeddings at the bottoms '
            "of the encoder and decoder stacks.",
            "Attention by itself ignores word order: shuffling the inputs shuffles the "
            "outputs the same way. So a vector that depends on the position is added to each "
            "token embedding before the first layer. The paper uses sines and cosines of "
            "geometrically spaced wavelengths, which makes a fixed offset a linear function of "
            "the encoding; learned position embeddings worked about as well, and the sine "
            "version may extend to longer sequences than seen in training.",
        ),
    ],
    "practice": {
        "name": "06-qkv-practice.md",
        "title": "Q, K, V in one sentence each",
        "upstream": [
            "03-scaled-dot-product.md",
            "04-three-attention-uses.md",
            "02-why-not-only-recurrence.md",
        ],
        "questions": [
            (
                "In scaled dot-product attention, what does a query stand for?",
                "A query encodes what the current position is looking for, and it is scored "
                "against every key to decide how much of each value to take.",
            ),
            (
                "What is a key for?",
                "A key is what each position offers to be matched by queries, and the scaled "
                "query-key dot product gives that position's weight.",
            ),
            (
                "What is a value, and what does attention output?",
                "A value is the content a position hands over, and the output is the sum of "
                "the values weighted by the softmax of the scores.",
            ),
            (
                "In encoder-decoder attention, where do Q, K and V come from?",
                "The queries come from the decoder's previous layer while the keys and the "
                "values both come from the encoder's output.",
            ),
        ],
    },
}

LONGEVAL = {
    "folder": "longeval-human-evaluation",
    "pdf": "longeval-2023.eacl-main.121.pdf",
    "source": "papermage_2023.eacl-main.121.pdf",
    "bundle_pdf": True,
    # Show a graded card: one offline run (with notes and no answer key the honest offline
    # grader says Unsure, with the passages to compare), and the author's overrides where
    # checking the paper settled it.
    "grade_offline": True,
    "notes": [
        (
            "01-few-papers-evaluate-humans.md",
            "Few long-form papers ask humans",
            1,
            "We find that 73% of these papers do not perform any human evaluation on "
            "model-generated summaries",
            "The authors read 162 papers on summarising long documents. Almost three in four "
            "never had people check the generated summaries; the rest used setups that "
            "differ a lot and are rarely reproducible. Long summaries make human checking "
            "slow and costly, which is the gap the paper's guidelines address.",
        ),
        (
            "02-what-faithfulness-means.md",
            "What faithfulness means",
            4,
            "Checking the factual errors in the summary, where a factual error is a statement "
            "that contradicts the source document, or is not directly stated, heavily implied, "
            "or logically entailed by the source document",
            "Faithful means the summary claims nothing the source does not support. A "
            "statement is an error both when it contradicts the source and when the source "
            "simply does not say, imply or entail it, so an invented but plausible detail "
            "counts against the summary too.",
        ),
        (
            "03-fine-beats-coarse.md",
            "Fine-grained judgments agree more",
            2,
            "Annotating faithfulness of individual summary clauses and aggregating them leads "
            "to significantly higher inter-annotator agreement",
            "COARSE rating asks for one Likert score for the whole summary; FINE rating splits "
            "the summary into clause-sized units, asks for a yes/no judgment on each, and "
            "averages them. Annotators disagree much less with FINE units: on SQuALITY the "
            "spread between annotators fell from 18.5 to 6.8 points on a 100-point scale.",
        ),
        (
            "04-annotate-a-fraction.md",
            "Annotating a fraction is enough",
            2,
            "Despite annotating a fraction of summary clauses, faithfulness scores under a "
            "reduced workload maintain high correlation with those from a full workload",
            "Because FINE scores are averages over units, a random subset of the units gives "
            "a good estimate: with half the units judged, system rankings still match the "
            "full annotation closely (Kendall's tau 0.89). The price is a bit more "
            "disagreement between annotators as the fraction shrinks.",
        ),
        (
            "05-alignment-helps-sometimes.md",
            "Alignment helps only sometimes",
            2,
            "aligning parts of the summary to source document is only useful when the summary "
            "is highly extractive or mostly correct.",
            "Showing annotators the source sentences that an automatic aligner links to each "
            "summary unit sounds helpful, and earlier work on short summaries recommended it. "
            "For long, abstractive summaries it did not help: the aligner finds the right "
            "sentences mainly when the summary copies the source or is already correct.",
        ),
    ],
    "practice": {
        "name": "06-longeval-practice.md",
        "title": "LongEval in one sentence each",
        "upstream": [
            "03-fine-beats-coarse.md",
            "04-annotate-a-fraction.md",
            "05-alignment-helps-sometimes.md",
            "02-what-faithfulness-means.md",
            "01-few-papers-evaluate-humans.md",
        ],
        "questions": [
            (
                "What did the survey of 162 long-form summarization papers find?",
                "Most of the surveyed papers never had humans evaluate their long generated "
                "summaries at all.",
            ),
            (
                "How does FINE annotation differ from COARSE annotation?",
                "COARSE gives the whole summary one Likert rating, whereas FINE labels every "
                "clause-sized unit as supported or not and averages the labels.",
            ),
            (
                "Why do the guidelines recommend FINE-grained judgments?",
                "Because annotators agree with each other far more when they judge short "
                "units one at a time.",
            ),
            (
                "Can annotators judge just part of a long summary?",
                "Yes, judging about half of the units still ranks systems almost the same as "
                "judging all of them.",
            ),
            (
                "When does automatic alignment of summary units to the source help?",
                "It helps only if the summary copies much of its source or is mostly right.",
            ),
            (
                "When does a summary statement count as a factual error?",
                "When the source contradicts it, and also when the source neither states, "
                "implies nor entails it.",
            ),
        ],
    },
}


def _own_words(ws: Workspace, path: str, words: str) -> None:
    def put(text: str) -> str:
        if OWN_WORDS_PLACEHOLDER not in text:
            raise SystemExit(f"{path}: grown note has no {OWN_WORDS_PLACEHOLDER!r} line")
        return text.replace(OWN_WORDS_PLACEHOLDER, f"Own words: {words}")

    operations.edit(ws, path, put)


def _practice_body(questions: list[tuple[str, str]]) -> str:
    lines = []
    for i, (q, a) in enumerate(questions, start=1):
        lines += [f"{i}. {q}", f"   Answer: {a}", ""]
    return "\n".join(lines)


def build(spec: dict, out_root: Path) -> Path:
    """Grow one session in a scratch folder and copy it to ``out_root/<folder>``."""
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / spec["folder"]
        scratch.mkdir()
        shutil.copyfile(CORPUS / spec["source"], scratch / spec["pdf"])
        ws = Workspace.open(scratch)
        for name, title, page, quote, words in spec["notes"]:
            grown = branch.grow_from_quote(ws, spec["pdf"], page, quote, title)
            if grown != name:
                multifile.move(ws, grown, name)
            _own_words(ws, name, words)
        card = spec["practice"]
        operations.grow(
            ws,
            card["title"],
            upstream=card["upstream"],
            fields={"kind": "practice"},
            body=_practice_body(card["questions"]),
            name=card["name"],
        )
        if spec.get("grade_offline"):
            run = grading.grade_card(ws, card["name"], model="offline")
            for g in run.grades:
                if g.verdict != "Correct":
                    grading.override(
                        ws,
                        run.grading_path,
                        run.run_id,
                        g.number,
                        "Correct",
                        "Checked against the paper by the session's author: the answer "
                        "says what the paper says; with notes and no answer key, the "
                        "offline grader could not settle it.",
                    )
        dest = out_root / spec["folder"]
        dest.mkdir(parents=True, exist_ok=True)
        for p in sorted(scratch.iterdir()):
            if p.suffix == ".md":
                shutil.copyfile(p, dest / p.name)
        ignore = "# A learner's own state (reviews, asks, canvas): not part of the example.\n"
        ignore += ".bh/\n"
        if spec["bundle_pdf"]:
            shutil.copyfile(scratch / spec["pdf"], dest / spec["pdf"])
        else:
            ignore += "# Not redistributable: fetch the paper (see README.md), never commit it.\n"
            ignore += "*.pdf\n"
        (dest / ".gitignore").write_text(ignore)
        return dest


def main() -> None:
    out_root = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "sessions"
    for spec in (ATTENTION, LONGEVAL):
        print(build(spec, out_root))


if __name__ == "__main__":
    main()
