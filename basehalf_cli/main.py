"""``basehalf``: the folder model from the command line. Its JSON shapes are a contract.

Exit status: 0 on success, 1 for a refusal or bad input (one line on stderr naming the file
and why), 2 for a usage error.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable

from basehalf_core.folder.fsio import FolderError, WriteRefused
from basehalf_core.folder.operations import OperationRefused, connect, disconnect, move, relink
from basehalf_core.folder.upstream import StoreUnreadable
from basehalf_core.folder.workspace import UnknownNode, Workspace

# Rooms that add their own subcommands through ``add_commands(subparsers)``.
COMMAND_MODULES: tuple[str, ...] = (
    "basehalf_cli.canvas",
    "basehalf_cli.documents",
    "basehalf_cli.grading",
    "basehalf_cli.sessions",
)


class CommandFailed(Exception):
    """A command could not do what was asked; the message is the one stderr line."""


def _graph(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    out = {
        "nodes": [{"path": p, "kind": ws.nodes[p].kind} for p in sorted(ws.nodes)],
        "edges": [{"from": a, "to": b} for a, b in sorted(ws.graph.edges)],
        "issues": [i.as_dict() for i in ws.issues()],
    }
    if args.json:
        _print_json(out)
    else:
        for e in out["edges"]:
            print(f"{e['from']} -> {e['to']}")
        for i in out["issues"]:
            print(f"{i['problem']}: {i['path']}: {i['entry']!r}: {i['reason']}")
    return 0


def _connect(args: argparse.Namespace) -> int:
    connect(Workspace.open(args.folder), args.upstream, args.downstream)
    return 0


def _disconnect(args: argparse.Namespace) -> int:
    disconnect(Workspace.open(args.folder), args.upstream, args.downstream)
    return 0


def _mv(args: argparse.Namespace) -> int:
    _print_json(move(Workspace.open(args.folder), args.old, args.new).as_dict())
    return 0


def _relink(args: argparse.Namespace) -> int:
    _print_json(relink(Workspace.open(args.folder), args.old, args.new).as_dict())
    return 0


def _path(args: argparse.Namespace) -> int:
    for p in Workspace.open(args.folder).learning_path():
        print(p)
    return 0


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def build_parser() -> argparse.ArgumentParser:
    """The argument parser, with every room's subcommands."""
    parser = argparse.ArgumentParser(prog="basehalf", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    def command(name: str, func: Callable, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.set_defaults(func=func)
        p.add_argument("folder", help="the study folder")
        return p

    command("graph", _graph, "nodes, edges and issues").add_argument("--json", action="store_true")
    for name, func, verb in (("connect", _connect, "add"), ("disconnect", _disconnect, "remove")):
        p = command(name, func, f"{verb} the link UPSTREAM -> DOWNSTREAM")
        p.add_argument("upstream")
        p.add_argument("downstream")
    p = command("mv", _mv, "move/rename a node and rewrite every entry naming it")
    p.add_argument("old")
    p.add_argument("new")
    p = command("relink", _relink, "point every dangling entry OLD at the existing NEW")
    p.add_argument("old")
    p.add_argument("new")
    command("path", _path, "the learning path, one node a line")
    for module in COMMAND_MODULES:
        importlib.import_module(module).add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``basehalf`` console script."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except (OperationRefused, WriteRefused, StoreUnreadable, FolderError, CommandFailed) as exc:
        print(f"basehalf {args.command}: {exc}", file=sys.stderr)
    except UnknownNode as exc:
        print(f"basehalf {args.command}: {exc}", file=sys.stderr)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's exit flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    return 1


if __name__ == "__main__":
    # Run as ``python -m basehalf_cli.main``: use the imported module, so the exception classes
    # the rooms raise are the same objects main() catches.
    from basehalf_cli.main import main as _main

    sys.exit(_main())
