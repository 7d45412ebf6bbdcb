"""``basehalf``: the folder model from the command line. Its JSON shapes are a contract.

Exit status: 0 on success, 1 for a refusal or bad input (one line on stderr naming the file
and why), 2 for a usage error.

Only the module of the command being run is imported: ``basehalf --help`` names every command
from the table below without loading the folder model, documents or litellm.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable

# Every command: the module that registers it (through ``add_commands``) and its one-line help.
COMMANDS: dict[str, tuple[str, str]] = {
    "graph": ("basehalf_cli.folder", "nodes, edges and issues"),
    "connect": ("basehalf_cli.folder", "add the link UPSTREAM -> DOWNSTREAM"),
    "disconnect": ("basehalf_cli.folder", "remove the link UPSTREAM -> DOWNSTREAM"),
    "mv": ("basehalf_cli.folder", "move/rename a node and rewrite every entry naming it"),
    "relink": ("basehalf_cli.folder", "point every dangling entry OLD at the existing NEW"),
    "path": ("basehalf_cli.folder", "the learning path, one node a line"),
    "links": (
        "basehalf_cli.obsidian",
        'show or set how new entries are written: path, or wikilink ("[[x]]", Obsidian)',
    ),
    "grow": ("basehalf_cli.documents", "grow a note from a quote on a page of a PDF/EPUB"),
    "grade": ("basehalf_cli.grading", "grade a practice card; appends a run to CARD.grading.md"),
    "answer-key": ("basehalf_cli.grading", "draft a card's answer key with a model, or approve it"),
    "grade-jsonl": ("basehalf_cli.grading", "grade question/reference/answer lines from a file"),
    "grade-class": ("basehalf_cli.grading", "grade one card in every learner folder of a course"),
    "canvas": (
        "basehalf_cli.canvas",
        "export the canvas as JSON Canvas 1.0 (.canvas); `canvas import FOLDER FILE` reads one",
    ),
    "anki": ("basehalf_cli.anki", "the practice questions as an Anki deck (.apkg)"),
    "zotero": ("basehalf_cli.zotero", "import Zotero highlights of a PDF as grown notes"),
    "export": ("basehalf_cli.sessions", "one self-contained offline HTML page of a folder"),
    "course": ("basehalf_cli.sessions", "courses: a folder of sessions plus course.yaml"),
    "review": ("basehalf_cli.sessions", "spaced repetition: practice questions and when due"),
    "fetch-arxiv": ("basehalf_cli.sessions", "download an arXiv PDF into a study folder"),
    "serve": ("basehalf_cli.serve", "serve the workbench to a class, each learner in their folder"),
}


def build_parser(load: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser.

    Args:
        load: Command names whose modules are imported and fully registered; every other
            command is listed by name and help only. ``None`` loads every module.
    """
    parser = argparse.ArgumentParser(
        prog="basehalf", description="The study folder model from the command line."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    names = COMMANDS if load is None else [n for n in load if n in COMMANDS]
    modules = dict.fromkeys(COMMANDS[n][0] for n in names)
    for name, (module, help) in COMMANDS.items():
        if module not in modules:
            sub.add_parser(name, help=help)
    for module in modules:
        importlib.import_module(module).add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``basehalf`` console script."""
    from basehalf_core.errors import BasehalfError

    argv = sys.argv[1:] if argv is None else argv
    wanted = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(load=[wanted] if wanted else []).parse_args(argv)
    try:
        return args.func(args)
    except BasehalfError as exc:
        print(f"basehalf {args.command}: {exc}", file=sys.stderr)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's exit flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        # The last resort: the system refused something no room turned into a refusal of its
        # own (a read-only mount, a full disk). One line naming the file, like any refusal.
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"basehalf {args.command}: {where}{exc.strerror or exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    # Run as ``python -m basehalf_cli.main``: use the imported module, so the exception classes
    # the rooms raise are the same objects main() catches.
    from basehalf_cli.main import main as _main

    sys.exit(_main())
