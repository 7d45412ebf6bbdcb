"""A served class's parts without a server: roster, accounts, tokens, slow-down, budget, Router,
git hand-out, and the served workbench's choice of folder."""
# ruff: noqa: F811  (pytest fixtures imported from openai_server are redefined as arguments)

from __future__ import annotations

import json
import subprocess
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from class_server import make_class
from openai_server import grading_reply, no_model_env, openai_server  # noqa: F401

from basehalf_cli import served
from basehalf_cli.main import main
from basehalf_core.errors import BasehalfError
from basehalf_core.folder import multifile, operations
from basehalf_core.folder.fsio import FolderError, OutsideFolder
from basehalf_core.folder.workspace import UnknownNode, Workspace
from basehalf_core.study import grading, llm
from basehalf_core.teaching import auth, budget, classroom, classview, roster, traffic
from basehalf_core.views import card as card_detail
from basehalf_widgets.canvas import Canvas

pytestmark = pytest.mark.usefixtures("no_model_env")

CARD = "attention-is-all-you-need/06-qkv-practice.md"


def request_of(name: str | None, **query) -> SimpleNamespace:
    """What marimo hands a notebook: the server-verified user, and what the client sent."""
    user = {"username": name, "is_authenticated": True} if name else {}
    return SimpleNamespace(user=user, query_params={k: [v] for k, v in query.items()})


# --- roster ----------------------------------------------------------------------------------


def test_add_learner_lists_them_and_hands_out_their_folder(tmp_path):
    root = make_class(tmp_path, "alice", "bob")
    before = (root / "course.yaml").read_text()
    assert before.startswith("title: Reading Transformers\nsessions:\n")  # other lines kept
    assert roster.load(root) == {
        "alice": roster.Learner("alice", "learners/alice"),
        "bob": roster.Learner("bob", "learners/bob"),
    }
    alice = roster.folder_of(root, "alice")
    assert (alice / CARD).is_file()
    # The hand-out: no key file, no answer text anywhere in the learner's folder.
    text = "\n".join(p.read_text(errors="replace") for p in alice.rglob("*") if p.is_file())
    assert "walrus-striped" not in text and not (alice / "answers").exists()
    assert "Answer: What the current position" not in text


@pytest.mark.parametrize(
    "name, why",
    [
        ("teacher", "reserved"),
        ("../bob", "1-32 characters"),
        ("Alice", "1-32 characters"),
        ("a/b", "1-32 characters"),
        ("", "1-32 characters"),
        ("x" * 33, "1-32 characters"),
    ],
)
def test_bad_learner_names_are_refused(tmp_path, name, why):
    root = make_class(tmp_path)
    with pytest.raises(roster.RosterError, match=why):
        roster.add(root, name)
    assert "learners" not in (root / "course.yaml").read_text()


@pytest.mark.parametrize(
    "entry, why",
    [
        ("{name: eve, folder: attention-is-all-you-need}", "must be learners/"),
        ("{name: eve, folder: learners/../answers}", "must be learners/"),
        ("{name: eve, folder: learners/a/b}", "must be learners/"),
        ("{name: eve}", "must be learners/"),
        ("eve", "needs a name"),
    ],
)
def test_a_roster_folder_is_one_name_under_learners(tmp_path, entry, why):
    root = make_class(tmp_path)
    with open(root / "course.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"learners:\n  - {entry}\n")
    with pytest.raises(roster.RosterError, match=why):
        roster.load(root)


def test_a_symlinked_learner_folder_is_refused(tmp_path):
    root = make_class(tmp_path, "alice")
    (tmp_path / "elsewhere").mkdir()
    roster.add(root, "mallory")
    (root / "learners" / "mallory").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(roster.RosterError, match="not a plain folder"):
        roster.folder_of(root, "mallory")


# --- accounts, tokens, slow-down -------------------------------------------------------------


def test_passwords_are_stored_as_salted_hashes_only(tmp_path):
    root = make_class(tmp_path, "alice", "bob")
    auth.set_password(root, "alice", "correct horse")
    auth.set_password(root, "bob", "correct horse")
    auth.set_password(root, "teacher", "teacher pass", role="teacher")
    raw = (root / auth.ACCOUNTS).read_text()
    assert "correct horse" not in raw and "teacher pass" not in raw
    hashes = json.loads(raw)["accounts"]
    assert hashes["alice"]["hash"] != hashes["bob"]["hash"]  # salted: same password, new hash
    assert (root / auth.ACCOUNTS).stat().st_mode & 0o077 == 0
    assert auth.verify(root, "alice", "correct horse") == "learner"
    assert auth.verify(root, "teacher", "teacher pass") == "teacher"
    for name, password in [("alice", "correct horsE"), ("carol", "correct horse"), ("alice", "")]:
        assert auth.verify(root, name, password) is None


@pytest.mark.parametrize(
    "name, password, role, why",
    [
        ("carol", "long enough", "learner", "no learner named"),
        ("alice", "short", "learner", "shorter than"),
        ("alice", "long enough", "teacher", "teacher's account is named"),
        ("teacher", "long enough", "learner", "teacher's account is named"),
        ("alice", "long enough", "admin", "a role is one of"),
    ],
)
def test_bad_accounts_are_refused(tmp_path, name, password, role, why):
    root = make_class(tmp_path, "alice")
    with pytest.raises(auth.AuthError, match=why):
        auth.set_password(root, name, password, role)
    assert not (root / auth.ACCOUNTS).exists()


def test_a_learner_taken_off_the_roster_cannot_sign_in(tmp_path):
    root = make_class(tmp_path, "alice")
    auth.set_password(root, "alice", "correct horse")
    text = (root / "course.yaml").read_text()
    (root / "course.yaml").write_text(text.split("learners:")[0])
    assert auth.verify(root, "alice", "correct horse") is None


def test_session_tokens_are_signed_and_expire(tmp_path):
    secret = auth.server_secret(make_class(tmp_path))
    token = auth.make_token(secret, "alice", "learner", now=1000)
    assert auth.read_token(secret, token, 60, now=1030) == ("alice", "learner")
    assert auth.read_token(secret, token, 60, now=1061) is None  # too old
    body, sig = token.split(".")
    forged = auth._b64(json.dumps(["teacher", "teacher", 1000]).encode())
    for bad in [f"{forged}.{sig}", f"{body}.{sig[:-2]}AA", body, "", "a.b.c"]:
        assert auth.read_token(secret, bad, 60, now=1030) is None
    assert auth.read_token(b"x" * 32, token, 60, now=1030) is None  # another server's secret


def test_repeated_failures_must_wait_longer_and_longer():
    now = [0.0]
    throttle = auth.Throttle(free=3, base=1.0, cap=8.0, clock=lambda: now[0])
    for _ in range(3):
        assert throttle.wait("name:alice", "client:1") == 0
        throttle.failed("name:alice", "client:1")
    waits = []
    for _ in range(5):
        waits.append(throttle.wait("name:alice"))
        throttle.failed("name:alice", "client:1")
    assert waits == [1.0, 2.0, 4.0, 8.0, 8.0]  # doubling, capped
    assert throttle.wait("client:1") == 8.0  # the address is slowed too (many names tried)
    now[0] += 8.0
    assert throttle.wait("name:alice", "client:1") == 0
    throttle.succeeded("name:alice")
    assert throttle.wait("name:alice") == 0


# --- the served workbench's folder -----------------------------------------------------------


def test_served_folder_comes_only_from_the_verified_learner(tmp_path, monkeypatch):
    root = make_class(tmp_path, "alice", "bob")
    assert served.folder_for(request_of("alice"), "default") == "default"  # not served
    monkeypatch.setenv(served.ENV, str(root))
    bob = str(roster.folder_of(root, "bob"))
    # A folder (or another name) asked for in the URL changes nothing: the identity decides.
    got = served.folder_for(request_of("alice", folder=bob, user="bob"), "default")
    assert got == str(roster.folder_of(root, "alice"))
    assert budget.current() == "alice"
    budget.act_as(None)
    for request in [request_of(None), None, request_of("teacher"), request_of("carol")]:
        with pytest.raises(FolderError):
            served.folder_for(request, bob)
    unverified = SimpleNamespace(user={"username": "bob", "is_authenticated": False})
    with pytest.raises(FolderError):
        served.folder_for(unverified, bob)
    with pytest.raises(PermissionError):
        served.teacher_course(request_of("alice"))
    assert served.teacher_course(request_of("teacher")) == root


def test_a_learner_cannot_reach_outside_their_folder(tmp_path):
    """Crafted paths and symlinks, through what the workbench calls with a widget's trait."""
    root = make_class(tmp_path, "alice", "bob")
    alice, bob = roster.folder_of(root, "alice"), roster.folder_of(root, "bob")
    (bob / "bob-secret.md").write_text("# Bob\n\nbob-only-marker\n", encoding="utf-8")
    (alice / "to-bob.md").symlink_to(bob / "bob-secret.md")
    (alice / "bob-folder").symlink_to(bob)
    (alice / "key").symlink_to(root / "answers")
    ws = Workspace.open(alice)
    # The canvas's `selected` trait, set from devtools to a crafted path: nothing resolves.
    canvas = Canvas.for_workspace(ws)
    crafted = [
        "../bob/bob-secret.md",
        str(bob / "bob-secret.md"),
        "bob-folder/bob-secret.md",
        "key/key.md",
        "../../answers/key.md",
        "..",
    ]
    for path in crafted:
        canvas.selected = path
        assert ws.resolve(canvas.selected) is None
        with pytest.raises(UnknownNode):
            card_detail.card_detail(ws, canvas.selected)
    # The links are seen, not followed: opening one is refused; no byte of Bob's is read.
    for link in ("to-bob.md", "bob-folder", "key"):
        with pytest.raises((OutsideFolder, UnknownNode, OSError)):
            ws.read_bytes(link)
    seen = "".join(card_detail.card_detail(ws, p).body_html for p in ws.nodes)
    assert "bob-only-marker" not in seen and "walrus-striped" not in seen
    # The workbench's Rename box and Connect dropdown with crafted paths: refused, nothing
    # written anywhere but Alice's folder.
    note = "attention-is-all-you-need/01-transformer-claim.md"
    bob_before = sorted(p.relative_to(bob).as_posix() for p in bob.rglob("*"))
    for target in ["../bob/stolen.md", "bob-folder/stolen.md", "/tmp/stolen.md", "key/x.md"]:
        with pytest.raises(BasehalfError):
            multifile.move(ws, note, target)
        with pytest.raises(BasehalfError):
            operations.connect(ws, target, note)
    assert sorted(p.relative_to(bob).as_posix() for p in bob.rglob("*")) == bob_before
    assert (alice / note).is_file() and not (root / "answers" / "x.md").exists()


# --- budget and model traffic ----------------------------------------------------------------


def test_budget_counts_a_learners_calls_and_refuses_past_the_limit(tmp_path):
    root = make_class(tmp_path, "alice")
    day = [datetime(2026, 12, 3, 9, tzinfo=UTC)]
    b = budget.Budget(root, 2, clock=lambda: day[0])
    assert [b.spend("alice"), b.spend("alice")] == [1, 0]
    with pytest.raises(budget.BudgetExceeded, match="used today's 2 model calls"):
        b.spend("alice")
    assert (b.used("alice"), b.left("alice"), b.left("bob")) == (2, 0, 2)
    day[0] += timedelta(days=1)
    assert b.left("alice") == 2


def _course_with_models(root: Path, models: str) -> None:
    with open(root / "course.yaml", "a", encoding="utf-8") as fh:
        fh.write(models)


def test_learner_calls_go_through_the_router_within_the_budget(tmp_path, openai_server):
    root = make_class(tmp_path, "alice")
    openai_server.default = grading_reply("Correct", evidence="what does a query stand for")
    base = openai_server.base_url
    _course_with_models(
        root,
        "models:\n  calls_per_day: 2\n  deployments:\n"
        f"    - {{model: openai/first, api_base: '{base}', rpm: 600}}\n"
        f"    - {{model: openai/second, api_base: '{base}', rpm: 600}}\n",
    )
    plan = traffic.load(root)
    assert plan.calls_per_day == 2 and len(plan.model_list()) == 2
    b = budget.Budget(root, plan.calls_per_day)
    llm.set_transport(traffic.transport(traffic.make_router(plan), b))
    ws = Workspace.open(roster.folder_of(root, "alice"))
    text = ws.read_text(CARD).replace("Answer:\n", "Answer: a query\n", 1)
    (ws.root / CARD).write_text(text, encoding="utf-8")
    ws = Workspace.open(ws.root)
    # A learner who types another model and server still reaches only the class's deployments.
    cfg = llm.ModelConfig("openai/gpt-4o", api_base="http://127.0.0.1:9/v1", retries=0)
    try:
        out: dict = {}

        def learner_session():
            budget.act_as("alice")  # what served.folder_for does in the learner's kernel
            out["run"] = grading.grade_card(ws, CARD, config=cfg)
            try:
                grading.grade_card(ws, CARD, config=cfg)
                grading.grade_card(ws, CARD, config=cfg)
            except llm.ModelError as exc:
                out["refused"] = str(exc)

        t = threading.Thread(target=learner_session)
        t.start()
        t.join(120)
        # The teacher's thread is nobody's: not counted.
        assert budget.current() is None
        grading.grade_card(ws, CARD, config=cfg)
    finally:
        llm.set_transport(None)
    assert out["run"].grades
    assert "used today's 2 model calls" in out["refused"]
    assert b.used("alice") == 2
    assert {r.body["model"] for r in openai_server.requests} <= {"first", "second"}
    assert len(openai_server.requests) == 3  # two for alice, one for the teacher; none refused


@pytest.mark.parametrize(
    "models, why",
    [
        ("models:\n  deployments:\n    - {model: openai/x, api_key: sk-123}\n", "api_key_env"),
        ("models:\n  deployments:\n    - {api_base: 'http://x'}\n", "needs a 'model'"),
        ("models:\n  deployments:\n    - {model: openai/x, rpm: -1}\n", "positive whole"),
        ("models:\n  routing_strategy: cheapest\n", "not one of"),
        ("models:\n  calls_per_day: many\n", "whole numbers"),
        ("models: [1]\n", "must be a mapping"),
    ],
)
def test_bad_models_sections_are_refused(tmp_path, models, why):
    root = make_class(tmp_path)
    _course_with_models(root, models)
    with pytest.raises(traffic.TrafficError, match=why):
        traffic.load(root)


# --- git hand-out and the teacher's numbers --------------------------------------------------


def _git(*args: str, cwd: Path) -> str:
    env_args = ["-c", "user.name=Learner", "-c", "user.email=learner@example.org"]
    done = subprocess.run(["git", *env_args, *args], cwd=cwd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_git_handout_goes_out_and_work_comes_back(tmp_path):
    """The README's commands: the teacher hands out, the learner clones, answers, pushes;
    the teacher pulls and grades the class."""
    root = make_class(tmp_path)
    assert main(["course", "add-learner", str(root), "alice", "--git"]) == 0
    folder = roster.folder_of(root, "alice")
    assert _git("status", "--porcelain", cwd=folder) == ""  # everything committed
    remote = tmp_path / "remotes" / "alice.git"
    _git("clone", "-q", "--bare", str(folder), str(remote), cwd=tmp_path)
    _git("remote", "add", "origin", str(remote), cwd=folder)
    laptop = tmp_path / "laptop"
    _git("clone", "-q", str(remote), str(laptop), cwd=tmp_path)
    card = laptop / CARD
    card.write_text(
        card.read_text().replace("Answer:\n", "Answer: What the current position is after.\n", 1)
    )
    _git("commit", "-qam", "My answers", cwd=laptop)
    _git("push", "-q", "origin", "main", cwd=laptop)
    _git("pull", "-q", "origin", "main", cwd=folder)
    report = classroom.grade_class(root / "learners", CARD, model="offline")
    assert [r.learner for r in report.results] == ["alice"] and not report.failures
    rows = classview.learner_rows(root)
    assert rows[0]["answered"] == 1 and rows[0]["graded"] >= 1


def test_handout_git_flag_makes_a_repository(tmp_path, capsys):
    root = make_class(tmp_path)
    out = tmp_path / "handout"
    assert main(["course", "handout", str(root), "-o", str(out), "--git"]) == 0
    assert _git("log", "--format=%s", cwd=out).strip() == "Hand-out"
    assert ".bh/locks/" in (out / ".gitignore").read_text()
    assert "walrus-striped" not in _git("grep", "-h", "-e", ".", "HEAD", cwd=out)


def test_most_wrong_orders_questions_and_keeps_reasons():
    book = [
        {"learner": "a", "question": "1", "verdict": "Wrong", "reason": "Missed the query."},
        {"learner": "b", "question": "1", "verdict": "Wrong", "reason": "Missed the query."},
        {"learner": "c", "question": "1", "verdict": "Correct", "reason": ""},
        {"learner": "a", "question": "2", "verdict": "Wrong", "reason": "No scaling."},
        {"learner": "b", "question": "10", "verdict": "Correct", "reason": ""},
        {"learner": "z", "question": "", "verdict": "not graded", "reason": "boom"},
    ]
    got = classview.most_wrong(book)
    assert [(r["question"], r["wrong"], r["graded"]) for r in got] == [
        ("1", 2, 3),
        ("2", 1, 1),
        ("10", 0, 1),
    ]
    assert got[0]["reasons"] == "Missed the query. (×2)"


def test_secrets_are_never_on_disk_readable_by_others_not_even_for_a_moment(tmp_path, monkeypatch):
    """The signing secret and the password hashes appear under their names already 0600:
    a file published 0644 and narrowed afterwards can be read in between."""
    import os as _os

    published: dict[str, int] = {}
    real_link, real_replace = _os.link, _os.replace

    def seen(src, dst):
        published[_os.path.basename(dst)] = _os.stat(src).st_mode & 0o777

    def link(src, dst, *a, **k):
        seen(src, dst)
        return real_link(src, dst, *a, **k)

    def replace(src, dst, *a, **k):
        seen(src, dst)
        return real_replace(src, dst, *a, **k)

    root = make_class(tmp_path, "alice")
    monkeypatch.setattr(_os, "link", link)
    monkeypatch.setattr(_os, "replace", replace)
    auth.server_secret(root)
    auth.set_password(root, "alice", "correct horse")
    assert published["server-secret"] == 0o600
    assert published["accounts.json"] == 0o600
