"""What a grader or the Ask chat is given to read: the card, its upstream chain, passages.

Everything taken from files is *data*. Each piece sits between an opening line
``<<<KIND key=value ...>>>`` and ``<<<END KIND>>>``; any ``<<<``/``>>>`` inside the data is
replaced by look-alike brackets first, so a note cannot close its block early and pose as an
instruction. The system prompts say that instructions inside data are to be ignored.

Upstream notes come nearest first (breadth-first over the upstream links, in each note's own
order) until a character budget is spent; what did not fit is listed in
:attr:`Context.trimmed`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.practice import PracticeCard, split_frontmatter

DEFAULT_BUDGET = 12_000
_MIN_PIECE = 200  # a truncated note shorter than this says too little to be worth sending


def neutralise(text: str) -> str:
    """Make delimiter look-alikes inside data harmless (``<<<`` → ``‹‹‹``, ``>>>`` → ``›››``)."""
    return re.sub(r"<{3,}", lambda m: "‹" * len(m.group(0)), re.sub(r">{3,}", _close, text))


def _close(m: re.Match) -> str:
    return "›" * len(m.group(0))


def _attr(value: object) -> str:
    # Attribute values are quoted; quotes and newlines inside cannot break out of the header.
    text = neutralise(str(value)).replace('"', "'").replace("\n", " ")
    return f'"{text}"'


@dataclass(frozen=True)
class Block:
    """One delimited piece of data."""

    kind: str  # CARD, QUESTION, ANSWER, KEY, NOTE, PASSAGE, SELECTION
    attrs: dict[str, object]
    text: str  # already neutralised

    def render(self) -> str:
        """The block with its delimiters."""
        head = " ".join([self.kind] + [f"{k}={_attr(v)}" for k, v in self.attrs.items()])
        return f"<<<{head}>>>\n{self.text.strip()}\n<<<END {self.kind}>>>"


@dataclass
class Context:
    """The data for one grading or ask, in order."""

    blocks: list[Block] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # upstream notes included, nearest first
    trimmed: list[str] = field(default_factory=list)  # upstream notes cut or left out
    budget: int = DEFAULT_BUDGET

    def render(self) -> str:
        """All blocks, delimited, as sent to the model."""
        return "\n\n".join(b.render() for b in self.blocks)

    def reference_text(self) -> str:
        """Text of the notes, passages and selection (not the learner's answers)."""
        keep = ("NOTE", "PASSAGE", "SELECTION")
        return "\n".join(b.text for b in self.blocks if b.kind in keep)

    def contains(self, snippet: str) -> bool:
        """True if ``snippet`` occurs verbatim (whitespace runs compared as one space)."""
        want = " ".join(snippet.split())
        if not want:
            return False
        return any(want in " ".join(b.text.split()) for b in self.blocks)


def upstream_chain(ws: Workspace, path: str) -> list[tuple[str, int]]:
    """Every node upstream of ``path`` with its distance, nearest first (breadth-first)."""
    seen = {path}
    out: list[tuple[str, int]] = []
    frontier = [path]
    distance = 0
    while frontier:
        distance += 1
        nxt = []
        for node in frontier:
            for up in ws.upstream(node):
                if up in seen or up not in ws.nodes:
                    continue
                seen.add(up)
                out.append((up, distance))
                nxt.append(up)
        frontier = nxt
    return out


def passages(ws: Workspace, note: str) -> list[Block]:
    """The document passage a note was grown from (its ``grown_from`` quote), if any."""
    meta = ws.frontmatter(note)
    grown = meta.get("grown_from")
    items = grown if isinstance(grown, list) else [grown]
    out = []
    for g in items:
        if not isinstance(g, dict) or not str(g.get("quote") or "").strip():
            continue
        attrs: dict[str, object] = {"file": g.get("file", ""), "for_note": note}
        if g.get("page") is not None:
            attrs["page"] = g.get("page")
        out.append(Block("PASSAGE", attrs, neutralise(str(g["quote"]))))
    return out


def note_text(ws: Workspace, note: str) -> str:
    """A note's body without frontmatter, neutralised."""
    _, body = split_frontmatter(ws.read_text(note))
    return neutralise(body.strip())


def card_blocks(card: PracticeCard) -> list[Block]:
    """The questions, the learner's answers and any answer key, as blocks."""
    out = []
    for q in card.questions:
        out.append(Block("QUESTION", {"number": q.number, "card": card.path}, neutralise(q.text)))
        if q.answer:
            out.append(Block("ANSWER", {"number": q.number}, neutralise(q.answer)))
        if q.number in card.answer_key:
            out.append(Block("KEY", {"number": q.number}, neutralise(card.answer_key[q.number])))
    return out


def add_upstream(ctx: Context, ws: Workspace, start: str, budget: int) -> None:
    """Append the notes (and their passages) upstream of ``start`` until ``budget`` is spent."""
    left = budget
    for node, distance in upstream_chain(ws, start):
        if ws.nodes[node].kind not in ("note", "practice"):
            continue
        pieces = [Block("NOTE", {"path": node, "distance": distance}, note_text(ws, node))]
        pieces += passages(ws, node)
        size = sum(len(p.text) for p in pieces)
        if size <= left:
            ctx.blocks.extend(pieces)
            ctx.notes.append(node)
            left -= size
            continue
        if left >= _MIN_PIECE:
            first = pieces[0]
            head = first.text[:left]
            cut = head.rsplit(" ", 1)[0] if " " in head else head
            ctx.blocks.append(Block("NOTE", dict(first.attrs, truncated="yes"), cut))
            ctx.notes.append(node)
            left = 0
        ctx.trimmed.append(node)


def build(
    ws: Workspace,
    card: PracticeCard | None = None,
    *,
    start: str | None = None,
    budget: int = DEFAULT_BUDGET,
) -> Context:
    """The context for grading ``card`` (or asking about ``start``).

    Args:
        ws: the workspace.
        card: a parsed practice card; its questions and answers come first.
        start: the node whose upstream chain to include (default: the card's path).
        budget: characters allowed for upstream notes and passages.
    """
    ctx = Context(budget=budget)
    if card is not None:
        ctx.blocks.extend(card_blocks(card))
    origin = start or (card.path if card else None)
    if origin and origin in ws.nodes:
        add_upstream(ctx, ws, origin, budget)
    return ctx
