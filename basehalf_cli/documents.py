"""``basehalf grow``: grow a note from a quote on a page of a PDF or EPUB in the folder."""

from __future__ import annotations

import argparse
import os

from basehalf_cli.common import CommandFailed
from basehalf_core.documents.document import DocumentError
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study.branch import NotADocumentNode, QuoteNotFound, grow_from_quote


def _page(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"page must be a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"pages are numbered from 1, got {n}")
    return n


def _grow(args: argparse.Namespace) -> int:
    password = None
    if args.password_env:
        # Never on the command line (other users see it in ps); only named here.
        password = os.environ.get(args.password_env)
        if password is None:
            raise CommandFailed(f"environment variable {args.password_env} is not set")
    ws = Workspace.open(args.folder)
    try:
        path = grow_from_quote(ws, args.source, args.page, args.quote, args.title, password)
    except (QuoteNotFound, NotADocumentNode, DocumentError) as exc:
        raise CommandFailed(str(exc)) from None
    print(path)
    return 0


def add_commands(subparsers) -> None:
    """Register ``grow`` on the ``basehalf`` parser."""
    p = subparsers.add_parser(
        "grow",
        help="grow a note from a quote on a page of a PDF/EPUB; prints the note's path",
    )
    p.set_defaults(func=_grow)
    p.add_argument("folder", help="the study folder")
    p.add_argument(
        "--from", dest="source", required=True, help="the PDF/EPUB, relative to the folder"
    )
    p.add_argument("--page", type=_page, required=True, help="1-based page number")
    p.add_argument("--quote", required=True, help="the text on that page to quote")
    p.add_argument("--title", default=None, help="the note's title (default: from the quote)")
    p.add_argument(
        "--password-env",
        metavar="VAR",
        default=None,
        help="read an encrypted PDF's password from this environment variable",
    )
