"""``basehalf zotero FOLDER EXPORT --pdf FILE``: Zotero highlights as notes grown from the PDF."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from basehalf_cli.common import CommandFailed
from basehalf_core.documents.document import DocumentError
from basehalf_core.folder.workspace import Workspace
from basehalf_core.study import zotero
from basehalf_core.study.branch import NotADocumentNode


def _zotero(args: argparse.Namespace) -> int:
    path = Path(args.export).expanduser()
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CommandFailed(f"{path}: cannot be read ({exc.strerror or exc})") from None
    ws = Workspace.open(args.folder)
    try:
        highlights, skipped = zotero.read_export(data, str(path))
        result = zotero.import_highlights(ws, args.pdf, highlights)
    except (zotero.ZoteroImportError, NotADocumentNode, DocumentError) as exc:
        raise CommandFailed(str(exc)) from None
    result.skipped[:0] = skipped
    print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
    return 0


def add_commands(subparsers: argparse._SubParsersAction) -> None:
    """Register ``zotero`` on the ``basehalf`` parser."""
    p = subparsers.add_parser(
        "zotero",
        help="import a Zotero 7 annotation export (Markdown note or JSON) as notes grown "
        "from the PDF; orphans are reported",
    )
    p.set_defaults(func=_zotero)
    p.add_argument("folder", help="the study folder")
    p.add_argument("export", help="the export: a Markdown note from annotations, or JSON")
    p.add_argument("--pdf", required=True, help="the annotated PDF, relative to the folder")
