"""``basehalf canvas FOLDER -o NAME.canvas``: export the canvas as JSON Canvas 1.0."""

from __future__ import annotations

import argparse
import sys

from basehalf_cli.common import CommandFailed
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views.jsoncanvas import BadCanvasTarget, dumps, export, write


def _canvas(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    if args.output == "-":
        sys.stdout.buffer.write(dumps(export(ws)))
        return 0
    try:
        rel = write(ws, args.output, replace=args.replace)
    except BadCanvasTarget as exc:
        raise CommandFailed(str(exc)) from None
    print(rel)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register ``canvas`` on the ``basehalf`` parser."""
    p = sub.add_parser("canvas", help="export the canvas as JSON Canvas 1.0 (.canvas)")
    p.set_defaults(func=_canvas)
    p.add_argument("folder", help="the study folder")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="NAME.canvas inside the folder (relative to it), or - for stdout",
    )
    p.add_argument("--replace", action="store_true", help="overwrite an existing export")
