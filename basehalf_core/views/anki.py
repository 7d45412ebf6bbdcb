"""``basehalf anki``: the folder's practice questions as an Anki deck (``.apkg``, via genanki).

One Anki note per practice question: the question, the learner's answer, the passage it grew
from (the grown note upstream of the card whose quote fits the question best, with its page),
the verdict in force, and links back to the card and to the page of the document.

Anki matches an imported note to one it has by its GUID, so the GUID is a hash of the folder's
name, the card's path and the question's number only: exporting again after the learner
edited an answer updates that note instead of adding a second one. The note type's and the
deck's ids are fixed for the same reason. Every field is HTML-escaped text; a note or PDF
cannot inject markup into the deck.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import re
import sqlite3
import stat
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from rapidfuzz import fuzz

from basehalf_core.errors import BasehalfError
from basehalf_core.folder.paths import posix_name
from basehalf_core.folder.workspace import Workspace
from basehalf_core.folder.writing import write_output
from basehalf_core.study.context import upstream_chain
from basehalf_core.study.grading import in_force
from basehalf_core.study.practice import PracticeError, parse_card

SUFFIX = ".apkg"
# Fixed ids: Anki keys note types and decks by id, so a re-import reuses them.
MODEL_ID = 1_733_150_807
FIELDS = ("Question", "Answer", "Quote", "Source", "Card", "Verdict")
_FRONT = '<div class="bh-q">{{Question}}</div>'
_BACK = (
    "{{FrontSide}}<hr id=answer>"
    '<div class="bh-a">{{Answer}}</div>'
    '{{#Verdict}}<div class="bh-v">{{Verdict}}</div>{{/Verdict}}'
    '{{#Quote}}<blockquote class="bh-quote">{{Quote}}</blockquote>{{/Quote}}'
    '<div class="bh-links">{{Source}} · {{Card}}</div>'
)
_CSS = (
    ".card{font-family:sans-serif;font-size:18px;text-align:left;max-width:40em;margin:auto}"
    ".bh-quote{color:#444;border-left:3px solid #bbb;padding-left:.6em}"
    ".bh-links{font-size:13px;color:#666}.bh-v{font-weight:bold}"
)


class AnkiExportError(BasehalfError):
    """The deck could not be written; the message names the file and why."""


@dataclass(frozen=True)
class Item:
    """One practice question as it goes into the deck (plain text; HTML is made on output)."""

    card: str
    number: int
    question: str
    answer: str
    quote: str = ""
    quote_file: str = ""
    quote_page: int | None = None
    verdict: str = ""
    tags: tuple[str, ...] = ()
    guid: str = ""


@dataclass
class Collected:
    """The questions found, and the practice cards that could not be read (path, reason)."""

    items: list[Item] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def tag(text: str) -> str:
    """An Anki tag from a name: no spaces (Anki splits tags on them), never empty."""
    out = re.sub(r"\s+", "_", text.strip())
    out = out.replace('"', "")
    return out or "untitled"


def guid(folder_name: str, card: str, number: int) -> str:
    """The note's stable GUID: the same folder, card and question number give the same one."""
    digest = hashlib.sha256(f"basehalf\x1f{folder_name}\x1f{card}\x1f{number}".encode())
    return digest.hexdigest()[:20]


def _quotes(ws: Workspace, card: str) -> list[tuple[int, str, str, int | None]]:
    """(distance, quote, file, page) of every grown note upstream of the card, nearest first."""
    out = []
    for note, distance in upstream_chain(ws, card):
        if ws.nodes[note].kind not in ("note", "practice"):
            continue
        grown = ws.frontmatter(note).get("grown_from")
        if not isinstance(grown, dict) or not str(grown.get("quote") or "").strip():
            continue
        page = grown.get("page")
        page = page if isinstance(page, int) and not isinstance(page, bool) else None
        out.append((distance, " ".join(str(grown["quote"]).split()), str(grown["file"]), page))
    return out


def _best_quote(quotes, question: str, answer: str):
    """The quote the question most plausibly grew from: word overlap first, nearness second."""
    if not quotes:
        return None
    asked = f"{question} {answer}".lower()
    return max(
        enumerate(quotes),
        key=lambda iq: (fuzz.token_set_ratio(asked, iq[1][1].lower()), -iq[1][0], -iq[0]),
    )[1]


def collect(ws: Workspace) -> Collected:
    """Every practice question of the folder, in learning-path order."""
    found = Collected()
    folder_tag = tag(ws.root.name)
    for path in ws.learning_path():
        if ws.nodes[path].kind != "practice":
            continue
        try:
            card = parse_card(path, ws.read_text(path))
        except (PracticeError, OSError) as exc:
            found.skipped.append((path, str(exc)))
            continue
        quotes = _quotes(ws, path)
        verdicts = in_force(ws, path)
        stem = posix_name(path).rsplit(".", 1)[0]
        tags = (folder_tag, f"{folder_tag}::{tag(stem)}")
        for q in card.questions:
            best = _best_quote(quotes, q.text, q.answer or "")
            v = verdicts.get(q.number)
            found.items.append(
                Item(
                    card=path,
                    number=q.number,
                    question=q.text,
                    answer=q.answer or "",
                    quote=best[1] if best else "",
                    quote_file=best[2] if best else "",
                    quote_page=best[3] if best else None,
                    verdict=f"{v.verdict} ({v.model})" if v else "",
                    tags=tags,
                    guid=guid(ws.root.name, path, q.number),
                )
            )
    return found


def _link(root: Path, rel: str, label: str, page: int | None = None) -> str:
    uri = (root / rel).as_uri() + (f"#page={page}" if page else "")
    return f'<a href="{escape(uri)}">{escape(label)}</a>'


def fields_for(root: Path, item: Item) -> list[str]:
    """The note's fields, in :data:`FIELDS` order, as HTML."""
    quote = escape(item.quote)
    source = ""
    if item.quote_file:
        where = f"{item.quote_file}, p. {item.quote_page}" if item.quote_page else item.quote_file
        quote += f" (p. {item.quote_page})" if item.quote_page else ""
        source = _link(root, item.quote_file, where, item.quote_page)
    answer = escape(item.answer) if item.answer else "<i>No answer yet.</i>"
    card = _link(root, item.card, f"{item.card} #{item.number}")
    return [escape(item.question), answer, quote, source, card, escape(item.verdict)]


def deck_id(name: str) -> int:
    """A stable deck id in the range Anki's own ids use (the folder's name decides it)."""
    return (1 << 30) + int(hashlib.sha256(name.encode()).hexdigest(), 16) % (1 << 30)


def package_bytes(ws: Workspace, collected: Collected, *, timestamp: float | None = None) -> bytes:
    """The ``.apkg`` file: a zip holding ``collection.anki2`` (SQLite) and an empty media map."""
    import genanki  # lazily: only this command needs it

    model = genanki.Model(
        MODEL_ID,
        "basehalf practice question",
        fields=[{"name": f} for f in FIELDS],
        templates=[{"name": "Question → answer", "qfmt": _FRONT, "afmt": _BACK}],
        css=_CSS,
    )
    name = ws.root.name
    deck = genanki.Deck(deck_id(name), f"basehalf::{name}")
    for item in collected.items:
        deck.add_note(
            genanki.Note(
                model=model, fields=fields_for(ws.root, item), tags=list(item.tags), guid=item.guid
            )
        )
    stamp = time.time() if timestamp is None else timestamp
    # genanki's write_to_file leaves its SQLite temp file behind; build it in a folder we remove.
    with tempfile.TemporaryDirectory(prefix="basehalf-anki-") as tmp:
        db = os.path.join(tmp, "collection.anki2")
        conn = sqlite3.connect(db)
        try:
            genanki.Package(deck).write_to_db(
                conn.cursor(), stamp, itertools.count(int(stamp * 1e3))
            )
            conn.commit()
        finally:
            conn.close()
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            zf.write(db, "collection.anki2")
            zf.writestr("media", "{}")
    return buf.getvalue()


def check_target(out: str | os.PathLike) -> Path:
    """The output path, or :class:`AnkiExportError` naming what is wrong with it.

    Like ``basehalf export``: the name must end in ``.apkg``, its folder must exist, and an
    existing target must be a regular file (not a folder, a device or a FIFO) and not a
    symlink: the deck is never written through one.
    """
    target = Path(out).expanduser()
    if not target.name.lower().endswith(SUFFIX):
        raise AnkiExportError(f"{target}: the deck's file name must end in {SUFFIX}")
    if target.is_symlink():
        raise AnkiExportError(f"{target}: is a symlink; basehalf never writes through one")
    if not target.parent.is_dir():
        raise AnkiExportError(f"{target.parent}: folder does not exist")
    try:
        mode = target.lstat().st_mode
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise AnkiExportError(f"{target}: is {what}; give a file name such as deck.apkg")
    return target


def export(folder: str | os.PathLike, out: str | os.PathLike) -> tuple[Path, Collected]:
    """Write the folder's deck to ``out`` (replacing an earlier deck there).

    Returns:
        The path written and what went into it.

    Raises:
        AnkiExportError: a bad target (see :func:`check_target`) or no practice question.
    """
    target = check_target(out)
    ws = Workspace.open(folder)
    collected = collect(ws)
    if not collected.items:
        why = "; ".join(f"{p}: {r}" for p, r in collected.skipped)
        raise AnkiExportError(
            f"{ws.root}: no practice questions to export" + (f" ({why})" if why else "")
        )
    data = package_bytes(ws, collected)
    # The one writer of a file the user named: refuses a symlink that appeared since the
    # check, never half-writes, and a refusal by the system is one line.
    write_output(target, data)
    return target, collected
