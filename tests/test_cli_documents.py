"""``basehalf grow`` as a learner runs it: a real subprocess, stdout, stderr and exit status."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from basehalf_core.documents.document import open_document
from basehalf_core.folder.paths import slugify
from basehalf_core.study.branch import default_title

ROOT = Path(__file__).resolve().parents[1]


# The console script a learner runs (``python -m basehalf_cli.main`` would load cli.py twice).
BASEHALF = Path(sys.executable).parent / "basehalf"


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(BASEHALF), *args],
        env={**os.environ, **(env or {})},
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def folder(tmp_path, corpus_file):
    shutil.copy(corpus_file("papermage_2023.eacl-main.121.pdf"), tmp_path / "longeval.pdf")
    shutil.copy(corpus_file("sf_libreoffice-writer-password.pdf"), tmp_path / "locked.pdf")
    shutil.copy(corpus_file("ocr_invalid.pdf"), tmp_path / "broken.pdf")
    return tmp_path


def _notes(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.md"))


def test_grow_prints_the_new_note_and_writes_it(folder):
    # The quote runs from the foot of the left column to the top of the right one.
    done = run(
        "grow",
        str(folder),
        "--from",
        "longeval.pdf",
        "--page",
        "1",
        "--quote",
        "evaluating model-generated summaries (Kryscinski et al., 2019;",
        "--title",
        "Human judgments",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "human-judgments.md\n"
    text = (folder / "human-judgments.md").read_text(encoding="utf-8")
    assert text.startswith("---\nupstream:\n  - longeval.pdf\ngrown_from:\n  file: longeval.pdf\n")
    assert '  quote: "evaluating model-generated summaries (Kryscinski et al., 2019;"\n' in text
    assert "> evaluating model-generated summaries (Kryscinski et al., 2019; (p. 1)" in text


def test_grow_without_a_title_names_the_note_from_the_quote(folder):
    done = run("grow", str(folder), "--from", "longeval.pdf", "--page", "1", "--quote",
               "Human judgments are considered the gold standard")  # fmt: skip
    assert done.returncode == 0, done.stderr
    # The name comes from the suggested title: a phrase of the quote itself, not "Untitled".
    title = default_title("Human judgments are considered the gold standard")
    assert title != "Untitled"
    assert title.lower() in "human judgments are considered the gold standard"
    assert done.stdout == f"{slugify(title)}.md\n"
    assert (folder / done.stdout.strip()).is_file()


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (["--from", "longeval.pdf", "--page", "2", "--quote", "gold standard for evaluating"], 1,
         "longeval.pdf: page 2 does not contain the quote 'gold standard for evaluating'"),
        (["--from", "locked.pdf", "--page", "1", "--quote", "x"], 1, "grow: locked.pdf: is en"),
        (["--from", "broken.pdf", "--page", "1", "--quote", "x"], 1, "broken.pdf: is damaged"),
        (["--from", "nowhere.pdf", "--page", "1", "--quote", "x"], 1, "nowhere.pdf: no such file"),
        (["--from", "longeval.pdf", "--page", "40", "--quote", "x"], 1, "has no page 40"),
        (["--from", "longeval.pdf", "--page", "0", "--quote", "x"], 2, "pages are numbered from 1"),
        (["--from", "longeval.pdf", "--page", "one", "--quote", "x"], 2, "'one'"),
        (["--from", "longeval.pdf", "--page", "1"], 2, "--quote"),
    ],
)  # fmt: skip
def test_grow_refuses_with_one_clear_line_and_writes_nothing(folder, args, status, words):
    done = run("grow", str(folder), *args)
    assert done.returncode == status
    assert done.stdout == ""
    assert words in done.stderr
    if status == 1:
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("basehalf grow: ")
    assert _notes(folder) == []


def test_grow_from_a_chinese_quote_gives_a_chinese_note(tmp_path, corpus_file):
    shutil.copy(corpus_file("pymupdf_chinese-tables.pdf"), tmp_path / "募集说明书.pdf")
    # The quote wraps from one table line to the next in the PDF.
    done = run("grow", str(tmp_path), "--from", "募集说明书.pdf", "--page", "1",
               "--quote", "受不利经济环境的影响不大")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == "受不利经济环境的影响不大.md\n"
    text = (tmp_path / "受不利经济环境的影响不大.md").read_text(encoding="utf-8")
    assert "  - 募集说明书.pdf\n" in text
    assert "> 受不利经济环境的影响不大 (p. 1)" in text


def test_an_encrypted_pdf_opens_with_a_password_from_the_environment(folder, monkeypatch):
    monkeypatch.delenv("BH_PDF_PASSWORD", raising=False)
    words = open_document(folder / "locked.pdf", password="openpassword").words(0)
    quote = " ".join(w.text for w in words[:4])
    args = ["grow", str(folder), "--from", "locked.pdf", "--page", "1", "--quote", quote,
            "--password-env", "BH_PDF_PASSWORD"]  # fmt: skip

    done = run(*args, env={"BH_PDF_PASSWORD": "openpassword"})
    assert done.returncode == 0, done.stderr
    note = (folder / done.stdout.strip()).read_text(encoding="utf-8")
    assert f"> {quote} (p. 1)" in note
    assert "openpassword" not in note

    wrong = run(*args, env={"BH_PDF_PASSWORD": "guess"})
    assert wrong.returncode == 1
    assert "locked.pdf: the password given does not open it" in wrong.stderr
    unset = run(*args)
    assert unset.returncode == 1
    assert "environment variable BH_PDF_PASSWORD is not set" in unset.stderr
