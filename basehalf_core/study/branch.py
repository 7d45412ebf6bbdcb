"""Grow a branch from a passage: a new note whose ``grown_from`` anchors it in a PDF or EPUB.

The note's format is DESIGN §3. Writing goes through :func:`basehalf_core.folder.operations.grow`,
which names the file after the title (Chinese titles keep Chinese names) and never overwrites.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from dataclasses import replace

from basehalf_core.documents.anchors import Highlight, find_quote
from basehalf_core.documents.anchors import highlights as anchor_highlights
from basehalf_core.documents.document import (
    DocumentError,
    Passage,
    is_cjk,
    normalise,
    open_document,
)
from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace

TITLE_WORDS = 6
TITLE_CHARS = 14  # for scripts without spaces
_CJK_STOPS = "，。；：！？、（）「」『』《》"
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s")
_EDGE_PUNCT = " \t,.;:!?-–—\"'“”‘’()[]{}"


class QuoteNotFound(BasehalfError):
    """The quote is not on the page; the message names the file, the page and the quote."""

    def __init__(self, file: str, page: int, quote: str):
        self.file, self.page, self.quote = file, page, quote
        short = quote if len(quote) <= 80 else quote[:77] + "..."
        super().__init__(f"{file}: page {page} does not contain the quote {short!r}")


class NotADocumentNode(BasehalfError):
    """The file to grow from is not a PDF or EPUB of the folder; the message names it."""


def _link_target(file: str) -> str:
    # Markdown link targets break on spaces, parentheses and angle brackets.
    return re.sub(r"[ ()<>]", lambda m: f"%{ord(m.group()):02X}", file)


def _body_safe(text: str) -> str:
    # The quote is data: keep it from becoming HTML or a Markdown block marker in the body.
    text = text.replace("<", "&lt;")
    return re.sub(r"^([#>+*-]|\d+[.)])", r"\\\1", text)


def passage_note(passage: Passage, title: str, note_folder: str = "") -> tuple[dict, str]:
    """Frontmatter fields and body for a note grown from ``passage`` (DESIGN §3).

    Args:
        passage: the passage, with ``file`` filled in (folder-relative).
        title: the note's title (only checked here; the heading is written by ``grow``).
        note_folder: the folder-relative folder the note goes in ("" = the root); the
            Source link is relative to it, as Markdown links are to their file.

    Returns:
        ``({"grown_from": {...}}, body)``; ``upstream`` is added by ``operations.grow``.
    """
    if not passage.file:
        raise ValueError("passage.file is empty: set the folder-relative document path first")
    anchor: dict = {
        "file": passage.file,
        "page": passage.page,
        "quote": passage.quote,
        "prefix": passage.prefix,
        "suffix": passage.suffix,
        "rects": [[round(float(v), 1) for v in r] for r in passage.rects],
        "fingerprint": passage.fingerprint,
    }
    if passage.file.lower().endswith(".epub") and passage.chapter:
        anchor["chapter"] = passage.chapter
    n = passage.page
    target = posixpath.relpath(passage.file, note_folder or ".")
    body = (
        f"> {_body_safe(passage.quote)} (p. {n})\n\n"
        f"Source: [{passage.file}, p. {n}]({_link_target(target)}#page={n})\n\n"
        "Own words: …\n"
    )
    return {"grown_from": anchor}, body


# Words that never name an idea: function words, and the verbs and fillers of academic prose
# ("we propose", "is based on", "different ways"). A title is built from the words between them.
_STOP = frozenset(
    word
    for line in (
        "a about above across after again against all also although among an and any are as at be",
        "been being below between both but by can could did do does doing done down due during",
        "each either else even ever every few for from further had has have having here how",
        "however if in into is it its itself just less many may might more most much must near",
        "neither no nor not of off often on once one only onto or other others our ours out over",
        "own per rather same several shall should since so some such than that the their theirs",
        "them then there these they this those though through thus to too toward towards under",
        "until up upon us very via was we were what when where whether which while who whom whose",
        "why will with within without would yet you your i he she his her him me my mine along",
        "across around behind beyond beside inside outside throughout except like unlike whereas",
        "hence therefore corresponds precludes computes inhibits limits depends enables ensures",
        "generates improves increases reduces produces outperforms represents remains relies",
        "denotes means implies leads compute computed correspond attend attends factor factors",
        "mimics allow allows allowed achieve achieves achieved apply applies applied based become",
        "becomes call calls called come comes consider considers consist consists contain",
        "contains describe described employ employs find finds found follow follows following",
        "give gives given call include includes including introduce introduces introduced know",
        "known let lets make makes made need needs perform performs performed present presents",
        "presented propose proposes proposed provide provides provided refer refers require",
        "requires required see seen seem seems show shows shown suggest suggests take takes taken",
        "use uses used using yield yields well new different various certain particular similar",
        "simple first second third two three four way ways case cases example examples figure",
        "table section paper work approach result results respectively namely instead entirely",
        "solely typically usually generally mostly significantly simultaneously",
    )
    for word in line.split()
)
_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d[\w.]*|[^\w\s]", re.UNICODE)
_QUOTED = re.compile(r"[\"“„«]([^\"“”„«»]{3,60})[\"”»]")
_MAX_TITLE_WORDS = 5


_NOT_ADVERBS = frozenset({"family", "assembly", "supply", "anomaly", "reply", "poly", "italy"})


def _content(word: str) -> bool:
    low = word.lower()
    if not word or not word[0].isalpha() or low in _STOP or (len(word) == 1 and not word.isupper()):
        return False
    # An adverb ("inherently", "jointly") is not part of a name.
    return not (low.endswith("ly") and len(low) > 4 and low not in _NOT_ADVERBS)


def _phrases(text: str) -> list[list[str]]:
    """Runs of content words, broken at stop words, numbers and punctuation (RAKE's split)."""
    runs: list[list[str]] = [[]]
    for token in _TOKEN.findall(text):
        word = token.strip("'’-")
        if not _content(word):
            if runs[-1]:
                runs.append([])
            continue
        runs[-1].append(word)
    return [r for r in runs if r]


def _key_phrase(text: str) -> str:
    """The phrase of the passage's key terms: RAKE-scored runs of content words.

    A word's score is how many content words it stands with (its degree) over how often it
    appears, plus its frequency, so a term the passage repeats and builds phrases with ranks
    high; a phrase scores the mean of its words, longer phrases a little more, earlier ones a
    little more (the first sentence usually names the topic).
    """
    phrases = _phrases(text)
    if not phrases:
        return ""
    freq: dict[str, int] = {}
    degree: dict[str, int] = {}
    for phrase in phrases:
        for word in phrase:
            key = word.lower()
            freq[key] = freq.get(key, 0) + 1
            degree[key] = degree.get(key, 0) + min(len(phrase), _MAX_TITLE_WORDS) - 1
    best, best_score = phrases[0], -1.0
    for i, phrase in enumerate(phrases):
        phrase = phrase[:_MAX_TITLE_WORDS]
        words = [w.lower() for w in phrase]
        mean = sum((degree[w] + freq[w]) / freq[w] + freq[w] for w in words) / len(words)
        score = mean * (1 + 0.25 * min(len(phrase), 4)) * (1 + 0.5 / (1 + i))
        if score > best_score:
            best, best_score = phrase, score
    return " ".join(best[:_MAX_TITLE_WORDS])


def default_title(passage: Passage | str) -> str:
    """A short noun phrase naming the passage's idea, for the learner to edit.

    A term the passage puts in quotes ("We call our particular attention \"Scaled Dot-Product
    Attention\"") is the name it defines and is taken as it is. Otherwise the key phrase of
    the passage's content words (see :func:`_key_phrase`), never just its first words.
    Chinese or Japanese text (no spaces to find words by) gives its first characters up to
    the first punctuation (at most :data:`TITLE_CHARS`).
    """
    quote = normalise(passage.quote if isinstance(passage, Passage) else passage)
    if not quote:
        return "Untitled"
    cjk = sum(1 for c in quote if is_cjk(c))
    letters = sum(1 for c in quote if c.isalpha())
    if cjk and cjk * 2 >= letters:
        out = []
        for ch in quote:
            if ch in _CJK_STOPS and out:
                break
            if not ch.isspace():
                out.append(ch)
            if len(out) >= TITLE_CHARS:
                break
        return "".join(out).strip(_EDGE_PUNCT + _CJK_STOPS) or "Untitled"
    named = [
        m.strip(_EDGE_PUNCT)
        for m in _QUOTED.findall(quote)
        if 1 <= len(m.split()) <= TITLE_WORDS and any(c.isalpha() for c in m)
    ]
    title = named[0] if named else _key_phrase(quote)
    if not title:
        return "Untitled"
    # Keep a term's own capitals (BLEU, Transformer); start with one.
    return title[0].upper() + title[1:]


def grow_from_passage(ws: Workspace, passage: Passage, title: str | None = None) -> str:
    """Create the note for ``passage`` next to its document; returns the note's path.

    Raises:
        ValueError: ``passage.file`` is empty.
        basehalf_core.folder.operations.OperationRefused: the document is not a node of the folder.
    """
    title = (title or "").strip() or default_title(passage)
    folder = posixpath.dirname(passage.file)
    fields, body = passage_note(passage, title, folder)
    return operations.grow(
        ws, title, upstream=[passage.file], fields=fields, body=body, folder=folder
    )


def _document_node(ws: Workspace, file: str, password: str | None = None):
    rel = ws.resolve(file)
    if rel is None or ws.nodes[rel].kind not in ("pdf", "epub"):
        what = "no such file" if rel is None else f"a {ws.nodes[rel].kind}, not a PDF or EPUB"
        raise NotADocumentNode(f"{file}: {what} in {ws.root}")
    try:
        return rel, open_document(ws.full_path(rel), password=password)
    except DocumentError as exc:
        # Name the file as the learner knows it (folder-relative), not by its full path.
        raise type(exc)(rel, exc.reason) from None


def open_node_document(ws: Workspace, file: str, password: str | None = None):
    """``(folder-relative path, opened document)`` of a PDF/EPUB node of the folder.

    Raises:
        NotADocumentNode, DocumentError: as for :func:`passage_from_quote`.
    """
    return _document_node(ws, file, password)


def body_safe(text: str) -> str:
    """Text from a document or another tool, made safe to stand in a note's body."""
    return _body_safe(text)


def passage_from_quote(
    ws: Workspace, file: str, page: int, quote: str, password: str | None = None
) -> Passage:
    """The passage holding ``quote`` on 1-based ``page`` of ``file`` (``password`` if encrypted).

    Raises:
        NotADocumentNode: ``file`` is not a PDF/EPUB of the folder.
        DocumentError: the document cannot be opened (broken, encrypted, ...).
        QuoteNotFound: the page does not hold the quote.
    """
    rel, doc = _document_node(ws, file, password)
    if not normalise(quote):
        raise QuoteNotFound(rel, page, quote)
    if not 1 <= page <= doc.page_count:
        raise DocumentError(rel, f"has no page {page} (pages 1..{doc.page_count})")
    matches = find_quote(doc, quote, page)
    if not matches:
        raise QuoteNotFound(rel, page, normalise(quote))
    found = doc.passage(page - 1, matches[0].word_indices)
    return replace(found, file=rel)


def grow_from_quote(
    ws: Workspace,
    file: str,
    page: int,
    quote: str,
    title: str | None = None,
    password: str | None = None,
) -> str:
    """Grow a note from a quote typed (or pasted) by the learner; returns the note's path.

    See :func:`passage_from_quote` for the errors.
    """
    return grow_from_passage(ws, passage_from_quote(ws, file, page, quote, password), title)


def highlight_items(ws: Workspace, file: str) -> list[dict]:
    """The ``grown_from`` anchors of every note grown from ``file``, with ``id`` and ``label``.

    These are what :func:`basehalf_core.documents.anchors.highlights` re-anchors and a reader
    draws. A note whose frontmatter cannot be read has no item (the workspace reports it).
    """
    items = []
    for path in ws.downstream(file):
        node = ws.nodes.get(path)
        if node is None or node.kind not in ("note", "practice"):
            continue
        try:
            grown = ws.frontmatter(path).get("grown_from")
        except Exception:  # an unreadable note: reported by the workspace as an issue
            continue
        if isinstance(grown, Mapping) and grown.get("file") == file:
            items.append({**grown, "id": path, "label": node.title})
    return items


def highlights(ws: Workspace, file: str) -> list[Highlight]:
    """Re-anchor every note grown from ``file`` (its downstream notes with ``grown_from``).

    A note whose anchor cannot be read or found is an orphan with the reason, never dropped.

    Raises:
        NotADocumentNode, DocumentError: as for :func:`passage_from_quote`.
    """
    rel, doc = _document_node(ws, file)
    return anchor_highlights(doc, highlight_items(ws, rel))
