"""``basehalf serve`` over real HTTP: sign-in, who may go where, refusals logged, no key leaks.

One server for the module (it takes seconds to start); the tests run in file order and the
slow-down test comes last, because every failed sign-in here comes from the same address.
"""

from __future__ import annotations

import pytest
from class_server import ClassServer, make_class

from basehalf_core.teaching import roster

SECRET_KEY = "sk-basehalf-never-shown-4242"
BOB_MARKER = "bob-only-marker-7731"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("served")
    root = make_class(tmp, "alice", "bob", passwords=True)
    bob = roster.folder_of(root, "bob")
    (bob / "bob-secret.md").write_text(f"# Bob\n\n{BOB_MARKER}\n", encoding="utf-8")
    s = ClassServer(root, tmp / "serve.log", env={"OPENAI_API_KEY": SECRET_KEY})
    s.cookies = {n: s.login(n)[1] for n in ("alice", "bob", "teacher")}
    yield s
    s.stop()


def test_right_passwords_sign_in_to_the_right_place(server):
    for name, to in [("alice", "/"), ("bob", "/"), ("teacher", "/teacher/")]:
        form = f"name={name}&password=correct+horse+{name}"
        status, headers, _ = server.request("POST", "/login", body=form)
        assert (status, headers["location"]) == (303, to)
        assert headers["set-cookie"].startswith("basehalf_session=")
        assert "HttpOnly" in headers["set-cookie"] and "SameSite=Strict" in headers["set-cookie"]
    status, headers, _ = server.request("GET", "/", cookie=server.cookies["teacher"])
    assert (status, headers["location"]) == (303, "/teacher/")
    status, _, page = server.request("GET", "/", cookie=server.cookies["alice"])
    assert status == 200 and "<html" in page


def test_a_refusal_says_nothing_about_which_part_was_wrong(server):
    # Two failures (three are free per address): the slow-down is tested at the end.
    wrong_password = server.request("POST", "/login", body="name=alice&password=nope-nope")
    unknown_name = server.request("POST", "/login", body="name=carol&password=nope-nope")
    assert wrong_password[0] == unknown_name[0] == 401
    assert wrong_password[2] == unknown_name[2]
    assert "Sign-in refused." in wrong_password[2]
    assert any("user=carol POST /login" in line for line in server.refusals())


@pytest.mark.parametrize(
    "cookie",
    ["", "basehalf_session=", "basehalf_session=abc.def", "basehalf_session=e30.e30", "x=1"],
)
def test_without_a_valid_session_nothing_but_the_login_page(server, cookie):
    assert server.request("GET", "/", cookie=cookie)[:2][0] == 303
    for path in ["/api/status", "/teacher/", "/@file/x.txt", "/assets/index.js"]:
        status, _, body = server.request("GET", path, cookie=cookie)
        assert status == 401 and BOB_MARKER not in body
    assert any("reason=not signed in" in line for line in server.refusals())


def test_a_tampered_cookie_is_no_session(server):
    name, value = server.cookies["alice"].split("=", 1)
    body, sig = value.split(".")
    forged = server.cookies["teacher"].split("=", 1)[1].split(".")[0] + "." + sig
    for bad in [f"{name}={body}.{sig[::-1]}", f"{name}={forged}"]:
        assert server.request("GET", "/teacher/", cookie=bad)[0] == 401


def test_a_learner_is_kept_out_of_the_teacher_view(server):
    for path in ["/teacher/", "/teacher", "/teacher/api/status"]:
        assert server.request("GET", path, cookie=server.cookies["alice"])[0] == 403
    assert any(
        "user=alice GET /teacher/" in ln and "teacher view" in ln for ln in server.refusals()
    )


def test_another_learners_marimo_session_is_refused(server):
    alice, bob = server.cookies["alice"], server.cookies["bob"]
    mine = {"Marimo-Session-Id": "s_alice_session"}
    assert server.request("GET", "/api/status", cookie=alice, headers=mine)[0] != 403
    # Bob drives Alice's kernel with her session id: refused, whatever the endpoint.
    for path in ["/api/kernel/set_ui_element_value", "/api/kernel/run"]:
        assert server.request("POST", path, cookie=bob, headers=mine)[0] == 403
    assert server.request("GET", "/ws?session_id=s_alice_session", cookie=bob)[0] == 403
    assert server.request("GET", "/ws?session_id=s_x&kiosk=true", cookie=bob)[0] == 403
    assert any("user=bob" in ln and "another user's session" in ln for ln in server.refusals())


@pytest.mark.parametrize(
    "path",
    [
        "/learners/bob/bob-secret.md",
        "/../learners/bob/bob-secret.md",
        "/%2e%2e/learners/bob/bob-secret.md",
        "/@file/../../learners/bob/bob-secret.md",
        "/files/bob-secret.md",
        "/api/files/file_details?path=../bob/bob-secret.md",
        "/?folder=../bob&file=bob-secret.md",
        "/answers/key.md",
        "/.bh/accounts.json",
    ],
)
def test_crafted_urls_never_reach_another_learner_or_the_key(server, path):
    body = server.request("GET", path, cookie=server.cookies["alice"])[2]
    assert BOB_MARKER not in body
    assert "walrus-striped" not in body and "scrypt$" not in body


def test_api_keys_stay_in_the_servers_environment(server):
    pages = [
        server.request("GET", "/login")[2],
        server.request("GET", "/", cookie=server.cookies["alice"])[2],
        server.request("GET", "/teacher/", cookie=server.cookies["teacher"])[2],
        server.request("GET", "/api/status", cookie=server.cookies["alice"])[2],
        server.request("POST", "/login", body="name=teacher&password=" + "x" * 5000)[2],
    ]
    assert all(SECRET_KEY not in p for p in pages)
    assert SECRET_KEY not in server.log.read_text(errors="replace")


def test_repeated_failures_are_slowed_down(server):
    """Last: after the failures above, even the right password must wait."""
    # The third failure from this address (allowed at once, or already made to wait).
    assert server.request("POST", "/login", body="name=bob&password=wrong-again")[0] in (401, 429)
    status, cookie = server.login("bob")
    assert (status, cookie) == (429, "")
    assert any("throttled" in line for line in server.refusals())
