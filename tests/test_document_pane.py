"""The workbench's one reader (DocumentPane) on a real study folder: which card opens
what, the page each document was left at, passwords, broken files, grow and highlight clicks,
and the Stage that says whether the reader or Card Detail is up.

The same wiring in a real browser is tested in tests/test_browser_walkthrough.py and
tests/test_browser_reader.py.
"""

from __future__ import annotations

import shutil

import pytest
from conftest import corpus

from basehalf_core.documents import document as documents
from basehalf_core.folder.workspace import Workspace
from basehalf_widgets import cells
from basehalf_widgets.document_pane import DocumentPane
from basehalf_widgets.stage import DETAIL, READER, fit_zoom

A, B = "attention.pdf", "multicolumn.pdf"
FILES = {
    A: "attention-1706.03762.pdf",
    B: "sf_multicolumn.pdf",
    "locked.pdf": "sf_libreoffice-writer-password.pdf",
    "broken.pdf": "ocr_invalid.pdf",
    "book.epub": "epubcheck_epubsample001.epub",
}
NOTE = "note.md"


class App:
    """What the workbench's states do with the pane's calls, recorded (see cells.wiring)."""

    def __init__(self):
        self.open, self.reports, self.bumps, self.hook_order = "", [], 0, []

    def set_open(self, path):
        self.hook_order.append(("set_open", path))
        self.open = path

    def set_rev(self, _fn):
        self.bumps += 1

    def wiring(self):
        return cells.wiring(self.set_rev, lambda: self.open, self.set_open, self.reports.append)


def make_folder(root):
    root.mkdir()
    for name, source in FILES.items():
        shutil.copy(corpus(source), root / name)
    (root / NOTE).write_text("# A note\n\nMy words.\n", encoding="utf-8")
    return root


@pytest.fixture
def folder(tmp_path):
    return make_folder(tmp_path / "study")


@pytest.fixture
def app():
    return App()


@pytest.fixture
def pane(folder, app):
    documents_pane = DocumentPane(app.wiring())
    documents_pane.use(Workspace.open(folder))
    return documents_pane


def texts(words: list) -> list[str]:
    return [w[4] for w in words]


def painted(reader) -> None:
    """What the browser does once it has painted a quick image: say so (the sharp image, and
    the words if they wait for that paint, then come)."""
    reader.painted = reader.image_key


def test_a_document_card_opens_in_the_one_reader_and_puts_it_up(pane):
    reader = pane.reader
    assert pane.follow(NOTE) is None
    assert pane.stage.shown == DETAIL and reader.doc is None and reader.image == b""
    assert pane.follow(A) == A
    assert pane.reader is reader  # the same widget: nothing new is mounted
    assert pane.stage.shown == READER
    assert (reader.file, reader.page_count, reader.page) == (A, 15, 0)
    assert reader.image[:3] == b"\xff\xd8\xff" and reader.image_page == 0
    assert pane.follow(NOTE) is None and pane.stage.shown == DETAIL
    assert reader.file == A  # hidden, not closed: back to it costs nothing
    assert pane.follow("no-such-card.md") is None and pane.stage.shown == DETAIL


def test_back_to_a_document_opens_at_the_page_left(pane, folder):
    reader = pane.reader
    pane.follow(A)
    reader.show(4)
    pane.follow(B)
    assert (reader.file, reader.page, reader.image_page, reader.page_count) == (B, 0, 0, 3)
    reader.show(1)
    pane.follow(NOTE)
    pane.follow(A)
    painted(reader)
    assert (reader.file, reader.page, reader.image_page, reader.words_page) == (A, 4, 4, 4)
    # A's own words of page 5, not B's page 2.
    a_words = [w.text for w in documents.open_document(folder / A).words(4)]
    assert texts(reader.words) == a_words
    assert "#3" in reader.image_key  # the third document opened: a late B image is refused
    pane.follow(B)
    assert (reader.file, reader.page) == (B, 1)
    assert pane.pages == {A: 4, B: 1}


def test_the_card_already_shown_is_not_opened_again(pane):
    pane.follow(A)
    pane.reader.show(2)
    key = pane.reader.image_key
    pane.follow(A)
    assert pane.reader.image_key == key and pane.reader.page == 2


def test_a_source_link_opens_its_document_at_its_page(pane):
    pane.follow(B)
    pane.open_at(A, 3)
    assert (pane.reader.file, pane.reader.page) == (A, 3)
    pane.follow(A)  # then open_card: the same document, still at that page
    assert pane.reader.page == 3 and pane.stage.shown == READER
    pane.open_at(A, 6)  # already shown: a page turn
    assert pane.reader.page == 6
    pane.open_at(A, 99)  # past the end: the last page
    assert pane.reader.page == 14
    pane.open_at(NOTE, 2)  # not a document: nothing happens
    assert pane.reader.file == A


def test_another_folder_forgets_the_pages_left(pane, tmp_path):
    pane.follow(A)
    pane.reader.show(5)
    pane.use(Workspace.open(make_folder(tmp_path / "other")))
    assert pane.pages == {}
    pane.follow(A)  # the same name in the other folder: opened afresh, at its first page
    assert pane.reader.page == 0 and str(pane.reader.path).startswith(str(tmp_path / "other"))


def test_a_password_opens_the_document_again_without_asking(pane):
    reader = pane.reader
    pane.follow("locked.pdf")
    assert pane.stage.shown == READER  # the prompt is in the reader
    assert reader.needs_password and reader.message.startswith("locked.pdf is encrypted")
    reader.password = "wrong"
    assert reader.needs_password
    reader.password = "openpassword"
    assert not reader.needs_password and reader.page_count == 1
    pane.follow(A)
    pane.follow("locked.pdf")
    assert not reader.needs_password and reader.page_count == 1 and reader.image
    assert reader.password == ""  # never kept in a trait


def test_a_broken_pdf_says_why_in_the_reader(pane):
    pane.follow(A)
    pane.follow("broken.pdf")
    reader = pane.reader
    assert pane.stage.shown == READER
    assert reader.message.startswith("broken.pdf cannot be shown:")
    assert reader.image == b"" and reader.page_count == 0  # nothing of A left on screen
    pane.follow(A)
    assert reader.message == "" and reader.page_count == 15


def test_an_epub_opens_in_the_reader(pane):
    assert pane.follow("book.epub") == "book.epub"
    assert pane.reader.page_count == 3 and pane.reader.image


def test_grow_writes_the_note_and_a_highlight_click_opens_it(pane, app, folder):
    pane.follow(A)
    passage = pane.reader.select(0, 0, 5)
    assert pane.form.passage == passage.quote
    pane.form.press("The title words")
    note = "the-title-words.md"
    assert (folder / note).exists()
    assert pane.form.status == f"Grown: {note}"
    assert app.open == note and app.reports[-1] == f"Grown: {note}" and app.bumps == 1
    pane.refresh()  # the app's reader_sync cell, after the bump
    assert [h["id"] for h in pane.reader.highlights] == [note]
    app.open = A
    pane.reader.clicked = {"id": note, "page": 0, "n": 1}
    assert app.open == note


def test_the_same_selection_reported_again_keeps_a_typed_title(pane, folder):
    # A drag's selection can reach Python again after the learner typed a title (a late or
    # repeated message); a fresh suggestion then became the title the next Grow wrote.
    pane.follow(A)
    pane.reader.select(0, 0, 5)
    pane.form.title = "The title words"
    pane.reader.selection = {**pane.reader.selection, "covered": [[0, 0, 1, 1]]}
    assert pane.form.title == "The title words"
    pane.form.press()
    assert (folder / "the-title-words.md").exists()
    # A different passage is offered with its own suggestion.
    pane.reader.select(0, 2, 7)
    assert pane.form.title not in ("", "The title words")


def test_grow_writes_the_title_in_the_box_though_a_suggestion_passed_it(pane, folder):
    # CI, loaded: the suggestion and the learner's keystrokes crossed on the wire, so Python's
    # copy of the title was the suggestion when the click arrived, and the note took its name.
    pane.follow(A)
    pane.reader.select(0, 0, 5)
    suggestion = pane.form.title
    assert suggestion
    pane.form.press("The title words")  # Python's own title is still the suggestion
    assert (folder / "the-title-words.md").exists()
    assert not (folder / f"{suggestion}.md").exists()


def test_a_click_on_a_passage_no_longer_selected_grows_nothing(pane, folder):
    pane.follow(A)
    pane.reader.select(0, 0, 5)
    shown = (pane.form.passage, pane.form.page)
    pane.reader.select(0, 2, 7)  # a newer selection reaches Python before the click does
    before = sorted(p.name for p in folder.iterdir())
    pane.form.request = {"n": 1, "title": "Old words", "passage": shown[0], "page": shown[1]}
    assert sorted(p.name for p in folder.iterdir()) == before
    assert pane.form.status == "The selection changed: check the passage and click Grow again."
    pane.form.press("New words")  # what the form now shows grows
    assert (folder / "new-words.md").exists()


def test_open_card_opens_the_document_before_the_cells_re_run(folder, app):
    wiring = app.wiring()
    pane = DocumentPane(wiring)
    wiring.opening.append(pane.follow)
    pane.reader.observe(lambda c: app.hook_order.append(("page_count", c["new"])), ["page_count"])
    pane.use(Workspace.open(folder))
    wiring.open_card(A)
    assert app.hook_order[-1] == ("set_open", A)
    assert ("page_count", 15) in app.hook_order[:-1]  # opened in the handler, before set_open
    wiring.open_card(A)  # the open card: nothing to do
    assert app.hook_order.count(("set_open", A)) == 1


def test_a_hook_that_fails_still_opens_the_card(app):
    wiring = app.wiring()

    def broken(_path):
        raise RuntimeError("a hook failed")

    wiring.opening.append(broken)
    with pytest.raises(RuntimeError):
        wiring.open_card(NOTE)
    assert app.open == NOTE


def test_a_document_is_first_rendered_at_the_scale_fit_width_picks(pane, folder):
    pane.stage.width, pane.stage.ratio = 500, 2.0
    pane.follow(A)
    width = documents.open_document(folder / A).page_size(0)[0]
    assert pane.reader.zoom == fit_zoom(500, 2.0, width) == 1.75
    assert pane.reader.image_key.startswith("0@1.75#")
    pane.reader.fit = False  # the learner zoomed: their scale is kept
    pane.reader.zoom = 3.0
    pane.follow(B)
    assert pane.reader.zoom == 3.0


@pytest.mark.parametrize(
    ("width", "ratio", "page_width", "zoom"),
    [
        (500, 1.0, 612, 0.75),  # 0.82 → the nearest quarter
        (500, 2.0, 612, 1.75),
        (1000, 1.0, 400, 2.5),
        (612, 0, 612, 1.0),  # no ratio reported: 1
        (10, 1.0, 612, 0.25),  # clamped as the reader clamps
        (100_000, 1.0, 612, 6.0),
        (0, 1.0, 612, None),  # the pane not measured yet
        (500, 1.0, 0, None),
    ],
)
def test_fit_zoom(width, ratio, page_width, zoom):
    assert fit_zoom(width, ratio, page_width) == zoom
