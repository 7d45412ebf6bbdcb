"""``basehalf graph / connect / disconnect / mv / relink / path``: the folder model's commands."""

from __future__ import annotations

import argparse

from basehalf_cli.common import print_json
from basehalf_core.folder.multifile import move, relink
from basehalf_core.folder.operations import connect, disconnect
from basehalf_core.folder.workspace import Workspace


def _graph(args: argparse.Namespace) -> int:
    ws = Workspace.open(args.folder)
    out = {
        "nodes": [{"path": p, "kind": ws.nodes[p].kind} for p in sorted(ws.nodes)],
        "edges": [{"from": a, "to": b} for a, b in sorted(ws.graph.edges)],
        "issues": [i.as_dict() for i in ws.issues()],
    }
    if args.json:
        print_json(out)
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
    print_json(move(Workspace.open(args.folder), args.old, args.new).as_dict())
    return 0


def _relink(args: argparse.Namespace) -> int:
    print_json(relink(Workspace.open(args.folder), args.old, args.new).as_dict())
    return 0


def _path(args: argparse.Namespace) -> int:
    for p in Workspace.open(args.folder).learning_path():
        print(p)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    """Register the folder commands on the ``basehalf`` parser."""

    def command(name: str, func, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.set_defaults(func=func)
        p.add_argument("folder", help="the study folder")
        return p

    command("graph", _graph, "nodes, edges and issues").add_argument("--json", action="store_true")
    for name, func, verb in (("connect", _connect, "add"), ("disconnect", _disconnect, "remove")):
        p = command(name, func, f"{verb} the link UPSTREAM -> DOWNSTREAM")
        p.add_argument("upstream")
        p.add_argument("downstream")
    for name, func, help in (
        ("mv", _mv, "move/rename a node and rewrite every entry naming it"),
        ("relink", _relink, "point every dangling entry OLD at the existing NEW"),
    ):
        p = command(name, func, help)
        p.add_argument("old")
        p.add_argument("new")
    command("path", _path, "the learning path, one node a line")
