"""``basehalf links FOLDER [path|wikilink]``: the form new upstream entries are written in."""

from __future__ import annotations

import argparse

from basehalf_cli.common import CommandFailed
from basehalf_core.folder import settings
from basehalf_core.folder.paths import LINK_FORMS
from basehalf_core.folder.workspace import Workspace


def _links(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    if args.form is None:
        if ws.settings_problem:
            raise CommandFailed(ws.settings_problem)
        print(ws.link_form)
        return 0
    settings.write_link_form(ws.root, args.form)
    print(f"{settings.SETTINGS_PATH}: links: {args.form}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``links`` on the ``basehalf`` parser."""
    p = subparsers.add_parser(
        "links",
        help="show or set how new upstream entries are written: path (default) or "
        'wikilink ("[[x]]", for Obsidian vaults)',
    )
    p.set_defaults(func=_links)
    p.add_argument("folder", help="the study folder")
    p.add_argument("form", nargs="?", choices=LINK_FORMS, help="set this form")
