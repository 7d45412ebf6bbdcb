"""What a notebook needs to know when ``basehalf serve`` serves it to a class.

``basehalf serve`` sets ``BASEHALF_SERVE_COURSE`` in its own process before any notebook
runs, and signs every request in with a verified identity (``scope["user"]``, which marimo
hands to the notebook as ``mo.app_meta().request.user``). These helpers turn that identity
into a folder. They never take a folder from the URL, a query parameter, a header or a widget:
only from the roster, by the name the server verified.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from basehalf_core.documents.search_helper import SERVED_ENV
from basehalf_core.folder.fsio import FolderError
from basehalf_core.teaching import budget, roster

# One name: defined on the lowest floor that reads it (the search helper stays off in a class
# server's kernels), so the server that sets it and the kernels that read it cannot drift apart.
ENV = SERVED_ENV
CALLS_ENV = "BASEHALF_SERVE_CALLS_PER_DAY"


def course() -> Path | None:
    """The served course folder, or ``None`` when not run by ``basehalf serve``."""
    value = os.environ.get(ENV, "")
    return Path(value) if value else None


def signed_in(request) -> str | None:
    """The server-verified user name of a marimo request (``None`` if there is none)."""
    user = getattr(request, "user", None) if request is not None else None
    if not isinstance(user, dict) or not user.get("is_authenticated"):
        return None
    name = user.get("username")
    return name if isinstance(name, str) and name else None


def folder_for(request, default: str) -> str:
    """The folder the workbench opens: ``default`` normally; in ``basehalf serve``, the
    signed-in learner's own folder from the roster, and this kernel's model calls are
    counted against that learner.

    Raises:
        FolderError: served, but the request has no verified learner (or the teacher).
    """
    root = course()
    if root is None:
        return default
    name = signed_in(request)
    if name is None or name == roster.TEACHER:
        raise FolderError("sign in as a learner to open your folder")
    try:
        folder = roster.folder_of(root, name)
    except roster.RosterError:
        raise FolderError(f"no folder for {name}: ask your teacher") from None
    budget.act_as(name)
    return str(folder)


def teacher_course(request) -> Path:
    """The served course, when the request is the teacher's.

    Raises:
        PermissionError: not served, or not signed in as the teacher.
    """
    root = course()
    if root is None or signed_in(request) != roster.TEACHER:
        raise PermissionError("the Teacher view is for the teacher signed in to basehalf serve")
    return root


def calls_per_day() -> int:
    """The served course's per-learner daily model-call budget."""
    try:
        return int(os.environ.get(CALLS_ENV, "0"))
    except ValueError:
        return 0


def status_html(request) -> str:
    """A one-line banner: who is signed in, model calls left today, a sign-out link."""
    root = course()
    name = signed_in(request)
    if root is None or name is None:
        return ""
    left = budget.Budget(root, calls_per_day()).left(name)
    return (
        f'<div data-testid="served-status" data-learner="{html.escape(name)}" '
        f'data-calls-left="{left}">Signed in as <b>{html.escape(name)}</b> · model calls left '
        f'today: {left} of {calls_per_day()} · <a href="/logout">Sign out</a></div>'
    )
