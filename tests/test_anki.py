"""``basehalf anki``: the deck read back as Anki reads it (a zip holding an SQLite collection)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import zipfile
from pathlib import Path

import pytest
from conftest import ROOT

from basehalf_cli.main import main
from basehalf_core.folder import operations
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.practice import parse_card
from basehalf_core.study.verdicts import latest
from basehalf_core.views import anki

SESSIONS = ROOT / "sessions"
FIELDS = list(anki.FIELDS)


@pytest.fixture
def attention(tmp_path: Path) -> Path:
    dest = tmp_path / "attention-is-all-you-need"
    shutil.copytree(SESSIONS / "attention-is-all-you-need", dest)
    return dest


def read_deck(apkg: Path, tmp_path: Path) -> dict[str, dict]:
    """GUID → {fields by name, tags, model name} of every note in the package."""
    with zipfile.ZipFile(apkg) as zf:
        assert set(zf.namelist()) == {"collection.anki2", "media"}
        db = tmp_path / f"{apkg.stem}-collection.anki2"
        db.write_bytes(zf.read("collection.anki2"))
    conn = sqlite3.connect(db)
    try:
        notes = conn.execute("SELECT guid, flds, tags, mid FROM notes").fetchall()
        cards = conn.execute("SELECT COUNT(*) FROM cards").fetchone()[0]
    finally:
        conn.close()
    assert cards == len(notes)  # one card per note: question → answer
    out = {}
    for guid, flds, tags, mid in notes:
        assert mid == anki.MODEL_ID
        out[guid] = {"fields": dict(zip(FIELDS, flds.split("\x1f"), strict=True)), "tags": tags}
    return out


def test_one_note_per_question_with_answer_quote_page_and_links(attention, tmp_path):
    out = tmp_path / "deck.apkg"
    assert main(["anki", str(attention), "-o", str(out)]) == 0
    deck = read_deck(out, tmp_path)
    card = parse_card("06-qkv-practice.md", (attention / "06-qkv-practice.md").read_text())
    assert len(deck) == len(card.questions) == 4
    by_q = {n["fields"]["Question"]: n for n in deck.values()}
    q1 = by_q["In scaled dot-product attention, what does a query stand for?"]
    assert q1["fields"]["Answer"].startswith("A query encodes what the current position")
    # The quote of the grown note upstream that fits the question, with its page and a link.
    assert q1["fields"]["Quote"].startswith("We call our particular attention &quot;Scaled")
    assert q1["fields"]["Quote"].endswith("(p. 4)")
    pdf_uri = (attention / "attention-is-all-you-need.pdf").resolve().as_uri()
    assert f'href="{pdf_uri}#page=4"' in q1["fields"]["Source"]
    card_uri = (attention / "06-qkv-practice.md").resolve().as_uri()
    assert f'href="{card_uri}"' in q1["fields"]["Card"]
    q4 = by_q["In encoder-decoder attention, where do Q, K and V come from?"]
    assert "encoder-decoder attention" in q4["fields"]["Quote"]
    assert q4["fields"]["Quote"].endswith("(p. 5)")
    assert q1["fields"]["Verdict"] == ""  # this folder was never graded
    for note in deck.values():
        assert note["tags"].split() == [
            "attention-is-all-you-need",
            "attention-is-all-you-need::06-qkv-practice",
        ]


def test_reexport_keeps_guids_and_updates_the_answer(attention, tmp_path):
    first = tmp_path / "first.apkg"
    anki.export(attention, first)
    ws = Workspace.open(attention)
    old = "A key is what each position offers to be matched by queries"
    operations.edit(
        ws, "06-qkv-practice.md", lambda t: t.replace(old, "A key is the label a position shows")
    )
    second = tmp_path / "second.apkg"
    anki.export(attention, second)
    a, b = read_deck(first, tmp_path), read_deck(second, tmp_path)
    assert set(a) == set(b) and len(a) == 4  # same notes: Anki updates, never duplicates
    changed = [g for g in a if a[g]["fields"] != b[g]["fields"]]
    assert len(changed) == 1
    assert b[changed[0]]["fields"]["Answer"].startswith("A key is the label a position shows")
    assert a[changed[0]]["fields"]["Question"] == b[changed[0]]["fields"]["Question"]
    # A copy of the folder under another name is another deck: other GUIDs.
    other = tmp_path / "copy" / "another-name"
    shutil.copytree(attention, other)
    third = tmp_path / "third.apkg"
    anki.export(other, third)
    assert not set(read_deck(third, tmp_path)) & set(a)


def test_verdicts_in_force_are_on_the_notes(tmp_path):
    folder = tmp_path / "longeval-human-evaluation"
    shutil.copytree(SESSIONS / "longeval-human-evaluation", folder)
    out = tmp_path / "longeval.apkg"
    _, collected = anki.export(folder, out)
    deck = read_deck(out, tmp_path)
    verdicts = latest(Workspace.open(folder), "06-longeval-practice.md")
    assert len(deck) == 6 and len(verdicts) == 6
    for item in collected.items:
        v = verdicts[item.number]
        assert deck[item.guid]["fields"]["Verdict"] == f"{v.verdict} ({v.model})"
        assert deck[item.guid]["fields"]["Source"].count("#page=") == 1


def test_markup_in_a_card_stays_text(attention, tmp_path):
    ws = Workspace.open(attention)
    operations.edit(
        ws,
        "06-qkv-practice.md",
        lambda t: t.replace("What is a key for?", 'What is a <script>alert("x")</script> key for?'),
    )
    out = tmp_path / "deck.apkg"
    anki.export(attention, out)
    fields = [n["fields"]["Question"] for n in read_deck(out, tmp_path).values()]
    assert "What is a &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; key for?" in fields
    assert not any("<script" in f for f in fields)


def _symlink_out(tmp_path: Path) -> Path:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "deck.apkg"
    link.symlink_to(victim)
    return link


def _fifo(tmp_path: Path) -> Path:
    path = tmp_path / "deck.apkg"
    os.mkfifo(path)
    return path


def _folder(tmp_path: Path) -> Path:
    path = tmp_path / "deck.apkg"
    path.mkdir()
    return path


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda t: t / "deck.zip", "must end in .apkg"),
        (lambda t: t / "no-such-folder" / "deck.apkg", "folder does not exist"),
        (_folder, "is a folder"),
        (_fifo, "not a regular file"),
        (_symlink_out, "is a symlink"),
    ],
)
def test_bad_targets_are_refused_and_nothing_is_written(attention, tmp_path, make, message):
    target = make(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(anki.AnkiExportError, match=message):
        anki.export(attention, target)
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    if message == "is a symlink":
        assert (tmp_path / "victim.txt").read_text() == "keep me"


def test_cli_names_the_problem_in_one_line(attention, tmp_path, capsys):
    (attention / "06-qkv-practice.md").unlink()
    code = main(["anki", str(attention), "-o", str(tmp_path / "deck.apkg")])
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1 and "no practice questions to export" in err
    assert not (tmp_path / "deck.apkg").exists()


def test_an_existing_deck_is_replaced(attention, tmp_path):
    out = tmp_path / "deck.apkg"
    out.write_bytes(b"an older deck")
    anki.export(attention, out)
    assert len(read_deck(out, tmp_path)) == 4
