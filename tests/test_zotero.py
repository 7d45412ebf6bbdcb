"""``basehalf zotero``: Zotero 7 highlight exports of the real attention paper, grown as notes.

The exports are written here by hand in Zotero's shapes, from real passages of the PDF: one
exact, one with the ligatures pdf.js keeps (ﬁ), one on another page than Zotero said, one
reworded (fuzzy), one that is in no edition of the paper (an orphan), and an image.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import corpus

from basehalf_cli.main import main
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import branch, zotero

SELECT = "zotero://select/library/items/QW8E2RTY"
PASSAGES = [
    # (annotation key, Zotero's text, Zotero's page, comment)
    (
        "AB12CD34",
        "This inherently sequential nature precludes parallelization within training "
        "examples, which becomes critical at longer sequence lengths",
        2,
        "Why recurrence is slow to train.",
    ),
    (
        "EF56GH78",
        "signiﬁcant improvements in computational efﬁciency through factorization tricks",
        2,
        "",
    ),
    ("IJ90KL12", "The encoder is composed of a stack of N = 6 identical layers.", 4, "Six."),
    (
        "MN34OP56",
        "We chose this function because we hypothesized it would let the model easily learn "
        "to attend by relative positions",
        6,
        "",
    ),
    (
        "QR78ST90",
        "Transformers were first invented for protein folding in 1995 by a team in Geneva",
        2,
        "",
    ),
]


def markdown_export() -> str:
    """What Zotero 7 writes for "Add Note from Annotations", exported as Markdown."""
    paras = ["# Annotations  \n(12/3/2026, 9:14:02 AM)"]
    for key, text, page, comment in PASSAGES:
        link = f"zotero://open-pdf/library/items/PL5K9D2A?page={page}&annotation={key}"
        cite = f"([Vaswani et al., 2017, p. {page}]({SELECT}))"
        paras.append(f"“{text}” {cite} ([pdf]({link})) {comment}".rstrip())
    paras.append(
        "![image](attachments/UV12WX34.png)\n"
        "([pdf](zotero://open-pdf/library/items/PL5K9D2A?page=3&annotation=UV12WX34))"
    )
    paras.append("My own paragraph, not an annotation.")
    return "\n\n".join(paras) + "\n"


def api_export() -> list[dict]:
    """The same highlights as the Zotero web API returns annotation items."""
    items = [
        {
            "key": key,
            "data": {
                "key": key,
                "itemType": "annotation",
                "parentItem": "PL5K9D2A",
                "annotationType": "highlight",
                "annotationText": text,
                "annotationComment": comment,
                "annotationColor": "#ffd400",
                "annotationPageLabel": str(page),
                "annotationPosition": json.dumps({"pageIndex": page - 1, "rects": [[0, 0, 1, 1]]}),
            },
        }
        for key, text, page, comment in PASSAGES
    ]
    items.append({"key": "UV12WX34", "data": {"annotationType": "image", "annotationText": ""}})
    return items


def reader_export() -> list[dict]:
    """The reader's own annotation objects (``type``, ``text``, ``position.pageIndex``)."""
    out = [
        {
            "id": key,
            "type": "highlight",
            "text": text,
            "comment": comment,
            "pageLabel": str(page),
            "position": {"pageIndex": page - 1, "rects": [[0, 0, 1, 1]]},
        }
        for key, text, page, comment in PASSAGES
    ]
    return [*out, {"id": "UV12WX34", "type": "image", "position": {"pageIndex": 2}}]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    dest = tmp_path / "study"
    dest.mkdir()
    shutil.copy(corpus("attention-1706.03762.pdf"), dest / "paper.pdf")
    return dest


def _write_export(tmp_path: Path, shape: str) -> Path:
    if shape == "markdown":
        path = tmp_path / "Annotations.md"
        path.write_text(markdown_export(), encoding="utf-8")
    else:
        path = tmp_path / f"{shape}.json"
        data = api_export() if shape == "api" else reader_export()
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("shape", ["markdown", "api", "reader"])
def test_highlights_become_notes_anchored_in_the_pdf(folder, tmp_path, capsys, shape):
    export = _write_export(tmp_path, shape)
    assert main(["zotero", str(folder), str(export), "--pdf", "paper.pdf"]) == 0
    report = json.loads(capsys.readouterr().out)

    grown = {g["annotation"]: g for g in report["grown"]}
    assert list(grown) == ["AB12CD34", "EF56GH78", "IJ90KL12", "MN34OP56"]
    assert [grown[k]["status"] for k in grown] == ["found", "found", "moved", "fuzzy"]
    assert grown["IJ90KL12"]["found_page"] == 3  # Zotero said 4; the text is on page 3
    assert [o["annotation"] for o in report["orphans"]] == ["QR78ST90"]
    assert "no longer in paper.pdf" in report["orphans"][0]["reason"]
    assert [s["annotation"] for s in report["skipped"]] == ["UV12WX34"]
    assert not (folder / "transformers-were-first-invented-for-protein.md").exists()

    ws = Workspace.open(folder)
    assert ws.issues() == []
    notes = sorted(g["note"] for g in report["grown"])
    assert ws.downstream("paper.pdf") == notes
    first = ws.frontmatter(grown["AB12CD34"]["note"])
    anchor = first["grown_from"]
    assert anchor["file"] == "paper.pdf" and anchor["page"] == 2
    assert anchor["quote"].startswith("This inherently sequential nature precludes")
    assert anchor["fingerprint"].startswith("sha256:") and anchor["rects"]
    assert first["zotero_annotation"] == "AB12CD34"
    assert "Own words: Why recurrence is slow to train." in ws.body(grown["AB12CD34"]["note"])
    # The ligature highlight is stored as the document reads: expanded.
    lig = ws.frontmatter(grown["EF56GH78"]["note"])["grown_from"]["quote"]
    assert "significant improvements in computational efficiency" in lig
    # The fuzzy one is stored as the document has it, not as Zotero's text.
    fuzzy = ws.frontmatter(grown["MN34OP56"]["note"])["grown_from"]["quote"]
    assert "would allow the model to easily learn" in fuzzy
    # Opened in the reader, every grown note sits exactly where it was grown.
    marks = branch.highlights(ws, "paper.pdf")
    assert sorted(m.note for m in marks) == notes
    assert {m.status for m in marks} == {"exact"}


def test_importing_again_adds_nothing(folder, tmp_path):
    export = _write_export(tmp_path, "markdown")
    highlights, _ = zotero.read_export(export.read_bytes(), str(export))
    first = zotero.import_highlights(Workspace.open(folder), "paper.pdf", highlights)
    before = sorted(p.name for p in folder.iterdir())
    again = zotero.import_highlights(Workspace.open(folder), "paper.pdf", highlights)
    assert again.grown == [] and len(again.already) == len(first.grown) == 4
    assert sorted(p.name for p in folder.iterdir()) == before
    # The JSON export of the same highlights is the same passages: nothing new either.
    api, _ = zotero.parse_json(api_export())
    assert zotero.import_highlights(Workspace.open(folder), "paper.pdf", api).grown == []


def test_a_comment_cannot_inject_markup(folder):
    h = zotero.Highlight(PASSAGES[0][1], 2, '<script>alert("x")</script>', "K1")
    result = zotero.import_highlights(Workspace.open(folder), "paper.pdf", [h])
    body = (folder / result.grown[0]["note"]).read_text()
    assert "<script" not in body and "Own words: &lt;script>" in body


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"[{broken", "not JSON"),
        (b'{"items": 3}', "expected a list of annotations"),
        (b"[]", "no highlights found"),
        (b"# Annotations\n\nNothing from Zotero here.\n", "no highlights found"),
        (json.dumps([{"type": "note", "comment": "x"}]).encode(), "no highlights found"),
    ],
)
def test_bad_exports_are_refused_naming_the_file(folder, tmp_path, capsys, data, reason):
    export = tmp_path / "export.txt"
    export.write_bytes(data)
    assert main(["zotero", str(folder), str(export), "--pdf", "paper.pdf"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{export}: " in err and reason in err
    assert sorted(p.name for p in folder.iterdir()) == ["paper.pdf"]


@pytest.mark.parametrize(
    ("pdf", "reason"), [("missing.pdf", "no such file"), ("notes.md", "not a PDF or EPUB")]
)
def test_the_pdf_must_be_a_document_of_the_folder(folder, tmp_path, capsys, pdf, reason):
    (folder / "notes.md").write_text("# Notes\n")
    export = _write_export(tmp_path, "markdown")
    assert main(["zotero", str(folder), str(export), "--pdf", pdf]) == 1
    assert reason in capsys.readouterr().err
