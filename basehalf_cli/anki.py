"""``basehalf anki FOLDER -o deck.apkg``: the practice questions as an Anki deck."""

from __future__ import annotations

import argparse

from basehalf_cli.common import CommandFailed
from basehalf_core.views import anki


def _anki(args: argparse.Namespace) -> int:
    try:
        out, collected = anki.export(args.folder, args.output)
    except anki.AnkiExportError as exc:
        raise CommandFailed(str(exc)) from None
    cards = len({i.card for i in collected.items})
    print(f"{out}: {len(collected.items)} question(s) from {cards} practice card(s)")
    for path, reason in collected.skipped:
        print(f"skipped {path}: {reason}")
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``anki`` on the ``basehalf`` parser."""
    p = subparsers.add_parser(
        "anki", help="the practice questions as an Anki deck (.apkg); re-export updates it"
    )
    p.set_defaults(func=_anki)
    p.add_argument("folder", help="the study folder")
    p.add_argument("-o", "--output", required=True, help="the deck to write, NAME.apkg")
