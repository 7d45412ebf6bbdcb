"""Sign-in for a served course: salted password hashes, signed session tokens, a slow-down.

Everything lives in the course's ``.bh/`` (never in a learner folder, never copied by a
handout):

- ``.bh/accounts.json`` — ``{"accounts": {name: {"role": ..., "hash": "scrypt$..."}}}``; the
  hash is ``hashlib.scrypt`` with a random 16-byte salt. No password is ever stored.
- ``.bh/server-secret`` — 32 random bytes (mode 0600) that sign session tokens (HMAC-SHA256).

A wrong name and a wrong password are the same refusal, and an unknown name costs one scrypt
too, so neither the answer nor its timing says which part was wrong.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from basehalf_core.folder import fsio
from basehalf_core.folder.fsio import open_folder, read_bytes
from basehalf_core.folder.writing import atomic_write
from basehalf_core.teaching import roster

ACCOUNTS = ".bh/accounts.json"
SECRET = ".bh/server-secret"
ROLES = ("learner", "teacher")
MIN_PASSWORD = 8
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}  # ~16 MiB and ~50 ms a check: slow to guess offline


class AuthError(roster.RosterError):
    """An account cannot be set; the message names the file and why."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str, salt: bytes | None = None) -> str:
    """``scrypt$n$r$p$salt$hash`` for ``password`` with a fresh random salt."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${_b64(salt)}${_b64(digest)}"


def check_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches a stored hash (constant-time compare)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(
            password.encode("utf-8"), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, _unb64(digest))


# An unknown name is checked against this, so it costs as long as a known one.
_DUMMY = hash_password("basehalf-no-such-account", salt=b"\0" * 16)


def _accounts(root: Path) -> tuple[dict, bytes | None]:
    raw = read_bytes(root / ACCOUNTS)
    if raw is None:
        return {"accounts": {}}, None
    try:
        data = json.loads(raw)
        if not isinstance(data.get("accounts"), dict):
            raise ValueError("no 'accounts' mapping")
    except (ValueError, AttributeError) as exc:
        raise AuthError(f"{root / ACCOUNTS}: not a basehalf accounts file ({exc})") from None
    return data, raw


def set_password(
    course_folder: str | os.PathLike, name: str, password: str, role: str = "learner"
) -> None:
    """Store a salted hash of ``password`` for ``name`` (a roster learner or ``teacher``).

    Raises:
        AuthError: the name is not on the roster, the role is wrong, or the password is short.
    """
    root = open_folder(course_folder)
    if role not in ROLES:
        raise AuthError(f"{role!r}: a role is one of {', '.join(ROLES)}")
    if (role == "teacher") != (name == roster.TEACHER):
        raise AuthError(f"{name!r}: the teacher's account is named {roster.TEACHER!r}")
    if role == "learner" and name not in roster.load(root):
        raise AuthError(f"{root / 'course.yaml'}: no learner named {name!r}; add them first")
    if len(password) < MIN_PASSWORD:
        raise AuthError(f"the password for {name!r} is shorter than {MIN_PASSWORD} characters")
    # The file's lock (threads and processes: two set-password runs at once lose nothing).
    with fsio.locked(root, ACCOUNTS):
        data, raw = _accounts(root)
        data["accounts"][name] = {"role": role, "hash": hash_password(password)}
        body = json.dumps(data, indent=1, sort_keys=True).encode("utf-8")
        atomic_write(root / ACCOUNTS, body, expected=raw, mode=0o600)


def verify(course_folder: str | os.PathLike, name: str, password: str) -> str | None:
    """The account's role when ``name`` and ``password`` match, else ``None`` (no detail)."""
    root = open_folder(course_folder)
    account = _accounts(root)[0]["accounts"].get(name) if isinstance(name, str) else None
    stored = account.get("hash", "") if isinstance(account, dict) else ""
    ok = check_password(password or "", stored or _DUMMY)
    if not ok or not stored or account.get("role") not in ROLES:
        return None
    if account["role"] == "learner" and name not in roster.load(root):
        return None  # taken off the roster: the old password no longer signs in
    return account["role"]


# --- session tokens -----------------------------------------------------------------------


def server_secret(course_folder: str | os.PathLike) -> bytes:
    """The course's token-signing secret, made (create-only, mode 0600) on first use."""
    root = open_folder(course_folder)
    path = root / SECRET
    with fsio.locked(root, SECRET):  # two servers starting at once make one secret
        data = read_bytes(path)
        if data is None:
            data = secrets.token_bytes(32)
            atomic_write(path, data, expected=None, mode=0o600)
    if len(data) < 32:
        raise AuthError(f"{path}: too short to be a signing secret; delete it to make a new one")
    return data


def make_token(secret: bytes, name: str, role: str, now: float | None = None) -> str:
    """A signed ``name.role.issued.signature`` token for a session cookie."""
    body = _b64(json.dumps([name, role, int(now or time.time())]).encode("utf-8"))
    sig = _b64(hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest())
    return f"{body}.{sig}"


def read_token(
    secret: bytes, token: str, max_age: float, now: float | None = None
) -> tuple[str, str] | None:
    """``(name, role)`` from a token this server signed and that is not older than
    ``max_age`` seconds; ``None`` for anything else."""
    try:
        body, sig = token.split(".")
        want = hmac.new(secret, body.encode("ascii"), hashlib.sha256).digest()
        if not hmac.compare_digest(want, _unb64(sig)):
            return None
        name, role, issued = json.loads(_unb64(body))
    except (ValueError, TypeError, UnicodeError):
        return None
    age = (now or time.time()) - issued
    if not isinstance(name, str) or role not in ROLES or age < 0 or age > max_age:
        return None
    return name, role


# --- slowing down repeated failures ------------------------------------------------------


@dataclass
class Throttle:
    """Counts failed sign-ins per key (a name, a client address) and makes them wait.

    After ``free`` failures, the key must wait ``base * 2**(extra failures)`` seconds (at
    most ``cap``) before its next attempt is even checked; a success clears the name's count.
    """

    free: int = 3
    base: float = 1.0
    cap: float = 300.0
    clock: Callable[[], float] = time.monotonic
    _fails: dict[str, tuple[int, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def wait(self, *keys: str) -> float:
        """Seconds until any of ``keys`` may try again (0 when it may now)."""
        now = self.clock()
        with self._lock:
            return max([0.0, *(self._until(k) - now for k in keys)])

    def _until(self, key: str) -> float:
        count, last = self._fails.get(key, (0, 0.0))
        if count < self.free:
            return 0.0
        return last + min(self.cap, self.base * 2 ** (count - self.free))

    def failed(self, *keys: str) -> None:
        """Record one failure against each key."""
        now = self.clock()
        with self._lock:
            for k in keys:
                count, _ = self._fails.get(k, (0, 0.0))
                self._fails[k] = (count + 1, now)

    def succeeded(self, key: str) -> None:
        """Forget ``key``'s failures."""
        with self._lock:
            self._fails.pop(key, None)
