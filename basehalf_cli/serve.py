"""``basehalf serve COURSE``: one workbench server for a class, and the roster commands.

marimo's ASGI app (``marimo.create_asgi_app``) serves two notebooks — ``workbench.py`` at ``/``
for learners, ``basehalf_cli/teacher_app.py`` at ``/teacher/`` for the teacher — behind
:class:`Gate`, a small ASGI layer that signs people in and checks every request:

- ``/login`` checks a name and password against the course's salted hashes; a signed,
  HttpOnly session cookie follows. A refusal never says which part was wrong, and repeated
  failures (per name and per client address) must wait longer and longer.
- Every other request needs that cookie. The verified name goes into ``scope["user"]``, which
  marimo passes to the notebook (``mo.app_meta().request.user``); the workbench opens that
  learner's roster folder and nothing else (:mod:`basehalf_cli.served`).
- A learner may not enter ``/teacher/``; the teacher may not enter a learner workbench.
- A marimo session id belongs to the user who first used it: a request naming another
  user's session (to drive their kernel) is refused, and so is marimo's kiosk mode.
- Every refusal is logged to ``COURSE/.bh/serve.log`` (time, address, user, path, reason).

uvicorn runs it (an ASGI server is needed; marimo's own ``marimo run`` takes one notebook and
one folder for everyone).
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import html
import logging
import os
import shutil
import sys
import tempfile
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs

from basehalf_cli import served
from basehalf_cli.common import CommandFailed
from basehalf_cli.marimo_tuning import cache_marimo_plugins, cache_notebook_parse, serialise_compile
from basehalf_core.folder.fsio import FolderError, open_folder
from basehalf_core.study import llm
from basehalf_core.teaching import auth, budget, course, gitout, roster, traffic

COOKIE = "basehalf_session"
MAX_AGE = 12 * 3600
TEACHER_PREFIX = "/teacher"
ROOT = Path(__file__).resolve().parent
WORKBENCH = ROOT.parent / "workbench.py"
TEACHER_APP = ROOT / "teacher_app.py"
REFUSED = "Sign-in refused."

LOGIN_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>basehalf · sign in</title>
<style>body{{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto}}
label{{display:block;margin:.6rem 0}}input{{width:100%;padding:.3rem}}</style></head>
<body><h1>{title}</h1><p data-testid="login-message">{message}</p>
<form method="post" action="/login"><label>Name <input name="name" autocomplete="username"></label>
<label>Password <input name="password" type="password" autocomplete="current-password"></label>
<button type="submit">Sign in</button></form></body></html>"""


def _logger(course_root: Path) -> logging.Logger:
    log = logging.getLogger(f"basehalf.serve.{course_root}")
    if not log.handlers:
        (course_root / ".bh").mkdir(exist_ok=True)
        handler = logging.FileHandler(course_root / ".bh" / "serve.log", encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.INFO)
        log.propagate = False
    return log


class Gate:
    """The ASGI layer in front of marimo: sign-in, the session cookie, and who may go where."""

    def __init__(self, app, course_root: Path, *, throttle: auth.Throttle | None = None):
        self.app = app
        self.root = course_root
        self.title = course.load(course_root).title
        self.secret = auth.server_secret(course_root)
        self.throttle = throttle or auth.Throttle()
        self.log = _logger(course_root)
        self.sessions: dict[str, str] = {}  # marimo session id -> the user who opened it
        self._roster: tuple[tuple, frozenset[str]] | None = None  # (course.yaml stat, names)

    def on_roster(self, name: str) -> bool:
        """Whether ``name`` is on the roster now.

        Every request asks, so the parsed roster is kept while ``course.yaml`` is unchanged
        (same inode, size, mtime and ctime): parsing the YAML on each request was the largest
        cost of a request in a 30-learner class. An edit (a learner taken off) is seen at once.
        """
        st = (self.root / course.COURSE_FILE).stat()
        stamp = (st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        if self._roster is None or self._roster[0] != stamp:
            self._roster = (stamp, frozenset(roster.load(self.root)))
        return name in self._roster[1]

    # -- plumbing ---------------------------------------------------------------------------

    async def _send(self, send, status: int, body: str, headers: list | None = None) -> None:
        data = body.encode("utf-8")
        head = [
            (b"content-type", b"text/html; charset=utf-8"),
            (b"content-length", str(len(data)).encode()),
            (b"cache-control", b"no-store"),
            *(headers or []),
        ]
        await send({"type": "http.response.start", "status": status, "headers": head})
        await send({"type": "http.response.body", "body": data})

    async def _redirect(self, send, to: str, headers: list | None = None) -> None:
        await self._send(send, 303, "", [(b"location", to.encode()), *(headers or [])])

    def refuse_log(self, scope, user: str, reason: str) -> None:
        """One line per refused request: address, user, method, path, query, reason."""
        client = (scope.get("client") or ("?", 0))[0]
        query = scope.get("query_string", b"").decode("latin-1")[:200]
        method = scope.get("method", "WS")
        self.log.info(
            "refused client=%s user=%s %s %s?%s reason=%s",
            client,
            user or "-",
            method,
            scope.get("path", ""),
            query,
            reason,
        )

    async def _refuse(self, scope, receive, send, user: str, status: int, reason: str) -> None:
        self.refuse_log(scope, user, reason)
        if scope["type"] == "websocket":
            await receive()  # the connect message, then refuse the handshake
            await send({"type": "websocket.close", "code": 1008})
        else:
            await self._send(send, status, "Refused.")

    def _who(self, scope) -> tuple[str, str] | None:
        for key, value in scope.get("headers", []):
            if key == b"cookie":
                jar = SimpleCookie()
                try:
                    jar.load(value.decode("latin-1"))
                except Exception:  # a malformed cookie header is no cookie
                    continue
                if COOKIE in jar:
                    return auth.read_token(self.secret, jar[COOKIE].value, MAX_AGE)
        return None

    # -- the gate ---------------------------------------------------------------------------

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        if scope["type"] == "http" and path == "/login":
            await self._login(scope, receive, send)
            return
        if scope["type"] == "http" and path == "/logout":
            expire = f"{COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict".encode()
            await self._redirect(send, "/login", [(b"set-cookie", expire)])
            return
        who = self._who(scope)
        if who is None:
            if scope["type"] == "http" and scope.get("method") == "GET" and path in ("/", ""):
                await self._redirect(send, "/login")
                return
            await self._refuse(scope, receive, send, "", 401, "not signed in")
            return
        name, role = who
        teacher_area = path == TEACHER_PREFIX or path.startswith(TEACHER_PREFIX + "/")
        if role == "teacher" and not teacher_area:
            if scope["type"] == "http" and path in ("/", ""):
                await self._redirect(send, TEACHER_PREFIX + "/")
                return
            await self._refuse(scope, receive, send, name, 403, "teacher outside the teacher view")
            return
        if role == "learner" and teacher_area:
            await self._refuse(scope, receive, send, name, 403, "learner in the teacher view")
            return
        if role == "learner" and not self.on_roster(name):
            await self._refuse(scope, receive, send, name, 403, "no longer on the roster")
            return
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        if "kiosk" in query:
            await self._refuse(scope, receive, send, name, 403, "kiosk mode")
            return
        sids = set(query.get("session_id", []))
        sids |= {
            v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"marimo-session-id"
        }
        for sid in sids:
            owner = self.sessions.setdefault(sid, name)
            if owner != name:
                await self._refuse(scope, receive, send, name, 403, "another user's session")
                return
        from starlette.authentication import SimpleUser

        scope["user"] = SimpleUser(name)
        await self.app(scope, receive, send)

    async def _login(self, scope, receive, send) -> None:

        def page(message: str) -> str:
            return LOGIN_PAGE.format(title=html.escape(self.title), message=message)

        if scope.get("method") != "POST":
            await self._send(send, 200, page("Sign in to your workbench."))
            return
        body = b""
        while True:
            msg = await receive()
            body += msg.get("body", b"")
            if len(body) > 4096:
                await self._refuse(scope, receive, send, "", 413, "sign-in form too large")
                return
            if not msg.get("more_body"):
                break
        form = parse_qs(body.decode("utf-8", errors="replace"))
        name = (form.get("name") or [""])[0].strip()
        password = (form.get("password") or [""])[0]
        client = (scope.get("client") or ("?", 0))[0]
        keys = (f"name:{name}", f"client:{client}")
        if self.throttle.wait(*keys) > 0:
            self.refuse_log(scope, name, "sign-in throttled after repeated failures")
            await self._send(send, 429, page("Too many failed sign-ins: wait, then try again."))
            return
        role = await asyncio.to_thread(auth.verify, self.root, name, password)
        if role is None:
            self.throttle.failed(*keys)
            self.refuse_log(scope, name, "wrong name or password")
            await self._send(send, 401, page(REFUSED))
            return
        self.throttle.succeeded(keys[0])
        self.log.info("signed in client=%s user=%s role=%s", client, name, role)
        token = auth.make_token(self.secret, name, role)
        cookie = f"{COOKIE}={token}; Max-Age={MAX_AGE}; Path=/; HttpOnly; SameSite=Strict"
        to = TEACHER_PREFIX + "/" if role == "teacher" else "/"
        await self._redirect(send, to, [(b"set-cookie", cookie.encode())])


def build_app(course_folder: str | os.PathLike, *, throttle: auth.Throttle | None = None):
    """The whole served class as one ASGI app (marimo's two notebooks behind :class:`Gate`).

    Also routes this process's model calls through the course's Router and budget.
    """
    root = open_folder(course_folder)
    course.load(root)
    roster.load(root)
    if not WORKBENCH.is_file():
        raise FolderError(f"{WORKBENCH}: the workbench notebook is missing beside basehalf_cli")
    plan = traffic.load(root)
    os.environ[served.ENV] = str(root)
    os.environ[served.CALLS_ENV] = str(plan.calls_per_day)
    router = traffic.make_router(plan)
    if router is not None:
        # Learners' Grade and Ask use the class group unless they name another model.
        os.environ.setdefault("BASEHALF_MODEL", f"openai/{traffic.GROUP}")
    llm.set_transport(traffic.transport(router, budget.Budget(root, plan.calls_per_day)))
    serialise_compile()  # many kernels in one process: see there
    cache_marimo_plugins()
    cache_notebook_parse()

    import marimo

    marimo_app = (
        marimo.create_asgi_app(quiet=True)
        .with_app(path=TEACHER_PREFIX, root=str(TEACHER_APP))
        .with_app(path="", root=str(WORKBENCH))
        .build()
    )
    return Gate(marimo_app, root, throttle=throttle)


# --- commands ------------------------------------------------------------------------------


def _serve(args: argparse.Namespace) -> int:
    app = build_app(args.course)
    import uvicorn

    print(f"basehalf serve: http://{args.host}:{args.port}/ (Ctrl-C stops)", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws="websockets-sansio")
    return 0


def _password(args: argparse.Namespace, name: str) -> str:
    if args.password_env:
        value = os.environ.get(args.password_env)
        if not value:
            raise CommandFailed(f"environment variable {args.password_env} is not set")
        return value
    if not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\n")
    return getpass.getpass(f"password for {name}: ")


def _add_learner(args: argparse.Namespace) -> int:
    root = open_folder(args.course)
    learner = roster.add(root, args.name)
    folder = root.joinpath(*learner.folder.split("/"))
    if not folder.exists():
        hand_out(root, folder, git=args.git)
    print(f"{learner.name}\t{folder}")
    return 0


def hand_out(course_root: Path, folder: Path, *, git: bool = False) -> None:
    """Write a learner's hand-out to ``folder`` under the course (made aside, then moved in:
    a hand-out is never written inside the course it is made from)."""
    with tempfile.TemporaryDirectory(prefix="basehalf-handout-") as tmp:
        made = Path(tmp) / folder.name
        course.handout(course_root, made)
        if git:
            gitout.init_repository(made, f"Hand-out of {course.load(course_root).title}")
        folder.parent.mkdir(exist_ok=True)
        shutil.move(made, folder)


def _set_password(args: argparse.Namespace) -> int:
    role = "teacher" if args.name == roster.TEACHER else "learner"
    auth.set_password(args.course, args.name, _password(args, args.name), role)
    print(f"password set for {args.name} (stored as a salted scrypt hash)")
    return 0


def _handout_git(original):
    def run(args: argparse.Namespace) -> int:
        status = original(args)
        if status == 0 and getattr(args, "git", False):
            commit = gitout.init_repository(args.output, "Hand-out")
            print(f"git repository at {args.output} (main, {commit[:12]})", file=sys.stderr)
        return status

    return run


def add_commands(subparsers) -> None:
    """Register ``serve``."""
    p = subparsers.add_parser("serve", help="serve the workbench to a class (each in own folder)")
    p.set_defaults(func=_serve)
    p.add_argument("course", help="the course folder (course.yaml with a learners list)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=2718)


def add_course_commands(sub) -> None:
    """Add ``add-learner`` and ``set-password`` to ``course``, and ``--git`` to its hand-out."""
    q = sub.add_parser("add-learner", help="list a learner and hand their folder out")
    q.set_defaults(func=_add_learner)
    q.add_argument("course")
    q.add_argument("name", help="sign-in name: a-z, 0-9, '-', '_'")
    q.add_argument("--git", action="store_true", help="make the folder a git repository")
    q = sub.add_parser("set-password", help="set a learner's (or 'teacher') password")
    q.set_defaults(func=_set_password)
    q.add_argument("course")
    q.add_argument("name")
    q.add_argument(
        "--password-env", help="read it from this environment variable (else stdin or a prompt)"
    )
    handout = sub.choices["handout"]
    handout.add_argument("--git", action="store_true", help="make the hand-out a git repository")
    handout.set_defaults(func=_handout_git(handout.get_default("func")))
