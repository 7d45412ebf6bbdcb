"""The grading commands, run as the real ``basehalf`` console entry point in a subprocess."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GRADING_DATA
from openai_server import grading_reply, openai_server, practice_folder  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
DATA = GRADING_DATA
SECRET = "sk-test-CLI-SECRET-0042aa"
VERDICTS = {"Correct", "Partial", "Wrong", "Unsure"}  # Unsure: offline only


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in ("BASEHALF_MODEL", "OPENAI_API_KEY")}
    base["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"
    return subprocess.run(
        # What the ``basehalf`` console script runs (``-m`` would load cli.py twice).
        [
            sys.executable,
            "-c",
            "import sys; from basehalf_cli.main import main; sys.exit(main())",
            *args,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=base | env,
        timeout=120,
    )


def study(tmp_path: Path) -> Path:
    return practice_folder(
        tmp_path / "study",
        ("notes.md", "# Circuits\n\nA bulb lights when it is in a closed path with the battery.\n"),
        "1. When does a bulb light?\n   Answer: When it is in a closed path with the battery.\n"
        "2. What is a short circuit?\n"
        "\n## Answer key\n\n1. A bulb lights when it is in a closed path with the battery.\n",
        "card.md",
    )


def test_grade_prints_verdicts_and_writes_the_grading_file(tmp_path):
    folder = study(tmp_path)
    out = run("grade", str(folder), "card.md")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "card.grading.md: run r1 (offline grader)"
    assert lines[1].startswith("1\tCorrect\tOffline grader:")
    assert lines[2] == "2\tnot answered"
    assert (folder / "card.grading.md").exists()
    js = run("grade", str(folder), "card.md", "--json")
    data = json.loads(js.stdout)
    assert data["run"] == "r2" and data["model"] == "offline" and data["not_answered"] == [2]


def test_grade_missing_card_fails_with_one_line_naming_it(tmp_path):
    out = run("grade", str(study(tmp_path)), "nope.md")
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        "basehalf grade: nope.md: no such file in the folder"
    ]


def test_grade_through_a_model_server_and_a_refused_key(tmp_path, openai_server):
    folder = study(tmp_path)
    openai_server.default = grading_reply("Partial")
    args = (
        "grade",
        str(folder),
        "card.md",
        "--model",
        "openai/m",
        "--api-base",
        openai_server.base_url,
    )
    out = run(*args)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0] == "card.grading.md: run r1 (openai/m)"
    assert out.stdout.splitlines()[1].startswith("1\tPartial\t")
    openai_server.default = {"status": 401, "error": f"Incorrect API key provided: {SECRET}"}
    bad = run(*args, OPENAI_API_KEY=SECRET)
    assert bad.returncode == 1
    assert "OPENAI_API_KEY" in bad.stderr and SECRET not in bad.stderr + bad.stdout
    assert len(bad.stderr.strip().splitlines()) == 1


def test_grade_jsonl_on_real_rows(tmp_path):
    rows = [json.loads(line) for line in (DATA / "beetle_3way_train.jsonl").open()][:6]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    dest = tmp_path / "out.jsonl"
    out = run("grade-jsonl", str(src), "-o", str(dest))
    assert out.returncode == 0, out.stderr
    results = [json.loads(line) for line in dest.read_text().splitlines()]
    assert [r["id"] for r in results] == [r["id"] for r in rows]
    assert all(r["verdict"] in VERDICTS and r["model"] == "offline" for r in results)
    assert all(0 <= r["confidence"] <= 1 for r in results)
    assert all(r["reason"].startswith("Offline grader:") for r in results)
    stdout = run("grade-jsonl", str(src))
    assert [json.loads(x) for x in stdout.stdout.splitlines()] == results


def test_grade_jsonl_through_the_model(tmp_path, openai_server):
    src = tmp_path / "in.jsonl"
    src.write_text(
        json.dumps(
            {
                "question": "Q?",
                "reference_answer": "The gap separates them.",
                "student_answer": "They are separated by a gap.",
            }
        )
        + "\n"
    )
    openai_server.default = grading_reply("Correct")
    out = run("grade-jsonl", str(src), "--model", "openai/m", "--api-base", openai_server.base_url)
    assert out.returncode == 0, out.stderr
    line = json.loads(out.stdout)
    assert line["verdict"] == "Correct" and line["model"] == "openai/m"
    assert line["evidence"] == "The gap separates them."


@pytest.mark.parametrize(
    ("content", "match"),
    [
        (
            '{"question": "q", "reference_answer": "r", "student_answer": "s"}\nnot json\n',
            "in.jsonl:2: not JSON",
        ),
        (
            '{"question": "q", "student_answer": "s"}\n',
            "in.jsonl:1: missing text field 'reference_answer'",
        ),
        (
            '{"question": "q", "reference_answer": "r"}\n',
            "in.jsonl:1: missing text field 'student_answer'",
        ),
        ("[1, 2]\n", "in.jsonl:1: expected an object, got list"),
        ("\n\n", "in.jsonl: no lines to grade"),
    ],
)
def test_grade_jsonl_bad_input_names_the_line_and_writes_nothing(tmp_path, content, match):
    src = tmp_path / "in.jsonl"
    src.write_text(content)
    dest = tmp_path / "out.jsonl"
    out = run("grade-jsonl", str(src), "-o", str(dest))
    assert out.returncode == 1
    assert match in out.stderr
    assert not dest.exists()


def test_grade_class_shows_progress_and_writes_csvs(tmp_path):
    course = tmp_path / "course"
    for name in ("ann", "bob"):
        (course / name).mkdir(parents=True)
        study(course / name)
        for f in ("notes.md", "card.md"):
            (course / name / "study" / f).rename(course / name / f)
        (course / name / "study").rmdir()
    out = run("grade-class", str(course), "--card", "card.md", "--concurrency", "2")
    assert out.returncode == 0, out.stderr
    assert "2/2" in out.stderr and "[" in out.stderr
    assert out.stdout.splitlines()[0] == "graded 2 of 2 learners (offline grader)"
    assert (course / "card.gradebook.csv").read_text().startswith("learner,question,verdict")
    assert (course / "card.summary.csv").exists()
    missing = run("grade-class", str(course), "--card", "other.md")
    assert missing.returncode == 1 and "no learner folder holds other.md" in missing.stderr


def test_answer_key_draft_then_approve_then_offline_grading_uses_it(tmp_path, openai_server):
    folder = study(tmp_path)
    key = "A bulb lights when it is in a closed path with the battery."
    openai_server.default = {
        "content": json.dumps({"key": [{"number": 1, "answer": key}, {"number": 2, "answer": "x"}]})
    }
    out = run(
        "answer-key", "draft", str(folder), "card.md",
        "--model", "openai/m", "--api-base", openai_server.base_url,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "drafted 2 answers" in out.stdout
    assert "## Answer key (draft)" in (folder / "card.md").read_text()
    out = run("answer-key", "approve", str(folder), "card.md")
    assert out.returncode == 0, out.stderr
    assert f"## Answer key\n\n1. {key}\n" in (folder / "card.md").read_text()
    graded = run("grade", str(folder), "card.md", "--json")
    assert json.loads(graded.stdout)["grades"][0]["evidence"] == key  # the key, not the notes


def test_answer_key_draft_without_a_model_fails_plainly(tmp_path):
    out = run("answer-key", "draft", str(study(tmp_path)), "card.md")
    assert out.returncode != 0 and "needs a model" in out.stderr
