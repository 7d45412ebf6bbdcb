"""``basehalf canvas``: export the canvas as JSON Canvas 1.0, or import a ``.canvas``'s positions.

``basehalf canvas FOLDER -o NAME.canvas`` exports; ``basehalf canvas import FOLDER FILE.canvas``
takes the card positions of a JSON Canvas file (e.g. one arranged in Obsidian) into
``.bh/canvas.json``.
"""

from __future__ import annotations

import argparse
import json
import sys

from basehalf_cli.common import CommandFailed
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.jsoncanvas import (
    BadCanvasFile,
    BadCanvasTarget,
    dumps,
    export,
    import_positions,
    write,
)


def _canvas(args: argparse.Namespace) -> int:
    words = args.words
    if words[0] == "import" and len(words) == 3:
        return _import(words[1], words[2])
    if len(words) != 1:
        raise CommandFailed(
            "usage: basehalf canvas FOLDER -o NAME.canvas | basehalf canvas import FOLDER FILE"
        )
    if args.output is None:
        raise CommandFailed("give the export file with -o NAME.canvas (or - for stdout)")
    ws = Workspace.open(words[0])
    if args.output == "-":
        sys.stdout.buffer.write(dumps(export(ws)))
        return 0
    try:
        rel = write(ws, args.output, replace=args.replace)
    except BadCanvasTarget as exc:
        raise CommandFailed(str(exc)) from None
    print(rel)
    return 0


def _import(folder: str, file: str) -> int:
    ws = Workspace.open(folder)
    try:
        done = import_positions(ws, file)
    except BadCanvasFile as exc:
        raise CommandFailed(str(exc)) from None
    print(json.dumps(done.as_dict(), ensure_ascii=False, indent=2))
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``canvas`` on the ``basehalf`` parser."""
    p = sub.add_parser(
        "canvas",
        help="export the canvas as JSON Canvas 1.0 (.canvas), or `canvas import FOLDER FILE` "
        "to take a .canvas file's card positions",
    )
    p.set_defaults(func=_canvas)
    p.add_argument(
        "words", nargs="+", metavar="FOLDER | import FOLDER FILE.canvas", help="the study folder"
    )
    p.add_argument(
        "-o",
        "--output",
        default=None,
        help="export: NAME.canvas inside the folder (relative to it), or - for stdout",
    )
    p.add_argument("--replace", action="store_true", help="overwrite an existing export")
