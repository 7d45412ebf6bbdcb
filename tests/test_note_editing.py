"""Writing in the app: saving a note's body keeps its frontmatter byte for byte, safely."""

from __future__ import annotations

import pytest

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import operations as ops
from basehalf_core.folder.fsio import ChangedOnDisk
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import note_edit

HEADS = [
    # plain, CRLF, BOM + comment, unreadable YAML (tab, unclosed flow), `...` closing fence
    b"---\nupstream:\n  - a.pdf\ntags: [x]  # mine\n---\n",
    b"---\r\nupstream:\r\n  - a.pdf\r\n---\r\n",
    b"\xef\xbb\xbf---\n# a comment\nupstream: [a.pdf]\n---\n",
    b"---\nupstream: [a.pdf\n\tbad: : yaml\n---\n",
    b"---\nupstream:\n  - a.pdf\n...\n",
    b"",
]


@pytest.fixture
def ws(tmp_path):
    (tmp_path / "a.pdf").write_bytes(b"%PDF-1.4\n")
    return tmp_path


@pytest.mark.parametrize("head", HEADS)
def test_save_body_keeps_the_frontmatter_bytes(ws, head):
    (ws / "n.md").write_bytes(head + b"# Title\n\nOld words.\n")
    w = Workspace.open(ws)
    opened = note_edit.open_note(w, "n.md")
    assert opened.readonly == ""
    assert opened.body == "# Title\n\nOld words.\n"
    written = ops.save_body(w, "n.md", "# Title\n\nMy own words.\n", opened.data)
    assert (ws / "n.md").read_bytes() == head + b"# Title\n\nMy own words.\n" == written


# Heads the one reader (folder/notes.py) does not treat as frontmatter: the editor must show
# the same body Card Detail and export show, and a Save must keep every byte before it.
ODD_HEADS = [
    b"+++\ntitle = 'toml'\n+++\n",
    b'{\n  "upstream": []\n}\n',
    b"---\n" + b"k: v\n" * 14000 + b"---\n",  # closing fence past 64 KiB
    b"  ---\nnot: frontmatter\n---\n",
    b"---\nno closing fence at all\n",
]


@pytest.mark.parametrize("head", HEADS + ODD_HEADS)
def test_the_editor_body_is_the_body_every_reader_sees(ws, head):
    (ws / "n.md").write_bytes(head + b"# Title\n\nOld words.\n")
    w = Workspace.open(ws)
    opened = note_edit.open_note(w, "n.md")
    assert opened.body == w.body("n.md")
    written = ops.save_body(w, "n.md", opened.body + "More.\n", opened.data)
    assert written == head + b"# Title\n\nOld words.\nMore.\n" == (ws / "n.md").read_bytes()


def test_save_body_refuses_a_file_changed_since_it_was_opened(ws):
    (ws / "n.md").write_text("---\nupstream: [a.pdf]\n---\nfirst\n", encoding="utf-8")
    w = Workspace.open(ws)
    opened = note_edit.open_note(w, "n.md")
    (ws / "n.md").write_text("---\nupstream: [a.pdf]\n---\ntheirs\n", encoding="utf-8")
    with pytest.raises(ChangedOnDisk, match="n.md.*changed on disk"):
        ops.save_body(w, "n.md", "mine\n", opened.data)
    assert (ws / "n.md").read_text(encoding="utf-8").endswith("theirs\n")


def test_save_body_updates_the_index_title(ws):
    (ws / "n.md").write_text("# Old\n", encoding="utf-8")
    w = Workspace.open(ws)
    ops.save_body(w, "n.md", note_edit.with_title("# Old\n", "New title"), b"# Old\n")
    assert w.nodes["n.md"].title == "New title"


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"---\nupstream: []\n---\ncaf\xe9\n", "not UTF-8"),
        (b"x" * (2 * 1024 * 1024 + 1), "over 2 MB"),
    ],
)
def test_bad_notes_open_read_only_with_a_reason(ws, data, reason):
    (ws / "n.md").write_bytes(data)
    opened = note_edit.open_note(Workspace.open(ws), "n.md")
    assert reason in opened.readonly and "n.md" in opened.readonly


def test_a_non_utf8_note_is_refused_by_save(ws):
    data = b"caf\xe9\n"
    (ws / "n.md").write_bytes(data)
    with pytest.raises(ops.OperationRefused, match="not UTF-8"):
        ops.save_body(Workspace.open(ws), "n.md", "x", data)
    assert (ws / "n.md").read_bytes() == data


def test_create_note_never_overwrites(ws):
    (ws / "n.md").write_text("mine\n", encoding="utf-8")
    w = Workspace.open(ws)
    assert ops.create_note(w, "n.md", "copy\n") == "n-2.md"
    assert (ws / "n.md").read_text(encoding="utf-8") == "mine\n"
    assert (ws / "n-2.md").read_text(encoding="utf-8") == "copy\n"
    with pytest.raises(ops.OperationRefused, match="not a usable note name"):
        ops.create_note(w, "../x.md", "x")


@pytest.mark.parametrize(
    ("body", "title", "expected"),
    [
        ("# Old\n\ntext\n", "New", "# New\n\ntext\n"),
        ("intro\n# Old #\nrest\n", "New", "intro\n# New\nrest\n"),
        ("no heading\n", "Added", "# Added\n\nno heading\n"),
        ("", "Only", "# Only\n"),
        ("# Same\n", "Same", "# Same\n"),
        ("# Keep\n", "  ", "# Keep\n"),
    ],
)
def test_title_is_the_first_heading(body, title, expected):
    assert note_edit.with_title(body, title) == expected
    if title.strip():
        assert note_edit.title_of(expected) == title.strip()


def _outside_edit(ws, text):
    (ws / "n.md").write_text(f"---\nupstream: [a.pdf]\n---\n{text}", encoding="utf-8")


def test_drafts_survive_switching_cards(ws):
    _outside_edit(ws, "# T\n\nfirst\n")
    (ws / "m.md").write_text("other\n", encoding="utf-8")
    w = Workspace.open(ws)
    drafts = note_edit.Drafts()
    drafts.open(w, "n.md")
    drafts.edit("n.md", text="# T\n\nunsaved words\n")
    drafts.open(w, "m.md")
    assert drafts.open(w, "n.md").text == "# T\n\nunsaved words\n"
    assert drafts.unsaved() == ["n.md"]


def _mine_against_theirs(ws):
    """A note opened at "first", edited to "mine", while "theirs" lands on disk."""
    _outside_edit(ws, "# T\n\nfirst\n")
    w = Workspace.open(ws)
    drafts = note_edit.Drafts()
    drafts.open(w, "n.md")
    drafts.edit("n.md", text="# T\n\nmine\n")
    _outside_edit(ws, "# T\n\ntheirs\n")
    return w, drafts


@pytest.mark.parametrize("choice", ["keep", "take", "copy"])
def test_a_conflict_loses_nothing(ws, choice):
    w, drafts = _mine_against_theirs(ws)
    result = drafts.save(w, "n.md")
    assert not result.saved and result.theirs == "# T\n\ntheirs\n"
    if choice == "keep":
        assert drafts.save(w, "n.md", force=True).saved
        assert (ws / "n.md").read_text(encoding="utf-8").endswith("mine\n")
    elif choice == "take":
        assert drafts.take_theirs(w, "n.md").text == "# T\n\ntheirs\n"
        assert (ws / "n.md").read_text(encoding="utf-8").endswith("theirs\n")
    else:
        copied = drafts.copy_mine(w, "n.md")
        assert copied.new_path == "n-mine.md"
        assert (ws / "n-mine.md").read_text(encoding="utf-8") == (
            "---\nupstream: [a.pdf]\n---\n# T\n\nmine\n"
        )
        assert (ws / "n.md").read_text(encoding="utf-8").endswith("theirs\n")


@pytest.mark.parametrize(
    ("old", "typed", "new", "warns"),
    [
        ("05-x.md", "05-x", "05-x.md", False),
        ("05-x.md", " 05-y.md ", "05-y.md", False),
        ("05-x.md", "05-x.txt", "05-x.txt", True),
        ("paper.pdf", "paper.md", "paper.md", True),
        ("paper.pdf", "sub/paper", "sub/paper.pdf", False),
        ("05-x.md", "05-x.md", "", False),
        ("05-x.md", "  ", "", False),
    ],
)
def test_rename_keeps_the_extension_and_warns_on_kind_change(old, typed, new, warns):
    from basehalf_core.views import rename

    got, warning = rename.target(old, typed)
    assert got == new
    assert bool(warning) == warns


@pytest.mark.parametrize(
    ("note", "href", "expected"),
    [
        ("n.md", "a.pdf#page=4", ("a.pdf", 4)),
        ("n.md", "a%2Epdf", ("a.pdf", None)),
        ("n.md", "#page=2", ("n.md", 2)),
        ("n.md", "missing.pdf#page=1", (None, 1)),
        ("n.md", "../outside.pdf", (None, None)),
    ],
)
def test_a_source_link_names_a_card_and_page(ws, note, href, expected):
    (ws / "n.md").write_text("x\n", encoding="utf-8")
    assert note_edit.link_target(Workspace.open(ws), note, href) == expected


class FakeView:
    """The attributes the editor controller reads and writes (the widget's traits)."""

    def __init__(self):
        self.path = self.status = self.preview = self.text = self.title = ""
        self.dirty = False
        self.conflict = {}

    def show(self, draft, kind, heading, status="", *, fresh=True):
        self.path, self.text, self.title, self.status = draft.path, draft.text, heading, status


def typed(path, text, title="", save=False):
    return {"new": {"path": path, "text": text, "title": title, "save": save}}


def test_words_typed_just_before_a_switch_stay_with_their_note(ws):
    (ws / "n.md").write_text("# N\n", encoding="utf-8")
    (ws / "m.md").write_text("# M\n", encoding="utf-8")
    w = Workspace.open(ws)
    view = FakeView()
    ctl = note_edit.EditorController(view, w, lambda: None)
    ctl.open("n.md")
    ctl.open("m.md")  # the learner clicked another card before the typed text arrived
    ctl.on_typed(typed("n.md", "# N\n\nlate words\n", "N", save=True))
    assert ctl.drafts.unsaved() == ["n.md"]
    assert (ws / "m.md").read_text(encoding="utf-8") == "# M\n"  # nothing saved into m.md
    assert "no longer open" in view.status
    ctl.open("n.md")
    assert view.text == "# N\n\nlate words\n"
    ctl.on_typed(typed("n.md", view.text, "N", save=True))
    assert (ws / "n.md").read_text(encoding="utf-8") == "# N\n\nlate words\n"


def test_a_changed_title_box_rewrites_the_heading_an_unchanged_one_does_not(ws):
    (ws / "n.md").write_text("# Old\n\nbody\n", encoding="utf-8")
    w = Workspace.open(ws)
    view = FakeView()
    ctl = note_edit.EditorController(view, w, lambda: None)
    ctl.open("n.md")
    ctl.on_typed(typed("n.md", "# Typed heading\n\nbody\n", "Old", save=True))
    assert (ws / "n.md").read_text(encoding="utf-8") == "# Typed heading\n\nbody\n"
    ctl.on_typed(typed("n.md", view.text, "From the box", save=True))
    assert (ws / "n.md").read_text(encoding="utf-8") == "# From the box\n\nbody\n"
    assert w.nodes["n.md"].title == "From the box"


SWAPS = {
    "fifo": lambda p: (p.unlink(), __import__("os").mkfifo(p)),
    "link-out": lambda p: (p.unlink(), p.symlink_to("/etc/hostname")),
    "folder": lambda p: (p.unlink(), p.mkdir()),
}


@pytest.mark.parametrize(
    ("swap", "words"),
    [("fifo", "FIFO"), ("link-out", "outside the folder"), ("folder", "a folder")],
    ids=list(SWAPS),
)
def test_a_note_swapped_for_something_unreadable_opens_with_the_reason(ws, swap, words):
    """Between two looks at the folder, a note became a FIFO, a link out or a folder: the
    card opens read-only with the reason, and nothing is read through it."""
    from basehalf_core.views.card import card_detail

    (ws / "n.md").write_text("# N\n\nbody\n")
    folder = Workspace.open(ws)
    SWAPS[swap](ws / "n.md")
    opened = note_edit.open_note(folder, "n.md")
    assert words in opened.readonly and opened.body == ""
    detail = card_detail(folder, "n.md")
    assert words in detail.problem and detail.body == ""
    with pytest.raises(BasehalfError):
        ops.save_body(folder, "n.md", "mine\n", opened.data)


def test_keep_mine_never_writes_over_a_change_made_after_the_conflict_was_shown(ws):
    # The learner saw "theirs" and chose Keep mine; a third version landed on disk in between.
    w, drafts = _mine_against_theirs(ws)
    assert drafts.save(w, "n.md").theirs == "# T\n\ntheirs\n"  # shown to the learner
    _outside_edit(ws, "# T\n\nlater, never shown\n")
    again = drafts.save(w, "n.md", force=True)
    assert not again.saved and again.theirs == "# T\n\nlater, never shown\n"
    assert (ws / "n.md").read_text(encoding="utf-8").endswith("later, never shown\n")
    # Having now seen that version too, Keep mine writes.
    assert drafts.save(w, "n.md", force=True).saved
    assert (ws / "n.md").read_text(encoding="utf-8").endswith("mine\n")


@pytest.mark.parametrize(
    ("mine", "theirs", "mine_changed", "theirs_changed"),
    [
        ("a\nb\nmine\n", "a\nb\ntheirs\n", [2], [2]),
        ("a\nb\n", "a\nb\nadded\n", [], [2]),
        ("x\na\nb\n", "a\nb\n", [0], []),
        ("same\n", "same\n", [], []),
    ],
)
def test_a_conflict_marks_the_lines_that_differ(mine, theirs, mine_changed, theirs_changed):
    shown = note_edit.conflict(mine, theirs)
    assert (shown["mine_changed"], shown["theirs_changed"]) == (mine_changed, theirs_changed)
    assert (shown["mine"], shown["theirs"]) == (mine, theirs)


@pytest.mark.parametrize("changed_since", [False, True])
def test_text_kept_through_a_reload_is_a_draft_again_and_never_hides_a_change(ws, changed_since):
    _outside_edit(ws, "# T\n\nfirst\n")
    if changed_since:  # another tab saved after this tab's text was typed
        _outside_edit(ws, "# T\n\ntheirs\n")
    w = Workspace.open(ws)
    view = FakeView()
    ctl = note_edit.EditorController(view, w, lambda: None)
    ctl.open("n.md")
    restored = {**typed("n.md", "# T\n\nfirst\n\nkept\n", "T")["new"], "restored": "# T\n\nfirst\n"}
    ctl.on_typed({"new": restored})
    assert ctl.drafts.unsaved() == ["n.md"]
    assert bool(view.conflict) == changed_since
    if changed_since:
        assert view.conflict["theirs"] == "# T\n\ntheirs\n"
        ctl.on_resolve({"new": {"choice": "keep"}})
    else:
        assert "from before the reload is back" in view.status
        ctl.save()
    assert (ws / "n.md").read_text(encoding="utf-8").endswith("first\n\nkept\n")


@pytest.mark.parametrize("how", ["deleted", "renamed"])
def test_unsaved_words_in_a_note_that_left_the_folder_stay_and_go_to_a_new_file(ws, how):
    (ws / "n.md").write_text("---\nupstream: [a.pdf]\n---\n# N\n\nfirst\n", encoding="utf-8")
    w = Workspace.open(ws)
    view, opened = FakeView(), []
    ctl = note_edit.EditorController(view, w, lambda: None, opened.append)
    ctl.open("n.md")
    ctl.on_typed(typed("n.md", "# N\n\nfirst\n\nunsaved words\n", "N"))
    if how == "deleted":
        (ws / "n.md").unlink()
    else:
        (ws / "n.md").rename(ws / "elsewhere.md")
    w.refresh()
    ctl.open("n.md")  # Card Detail re-runs after the folder changed
    assert view.conflict.get("gone") and "unsaved words" in view.conflict["mine"]
    assert "no longer in the folder" in view.status
    assert not ctl.save().saved  # Save says the same, writes nothing
    ctl.on_resolve({"new": {"choice": "copy"}})
    assert (ws / "n-mine.md").read_text(encoding="utf-8").endswith("first\n\nunsaved words\n")
    assert opened == ["n-mine.md"] and ctl.drafts.unsaved() == []
