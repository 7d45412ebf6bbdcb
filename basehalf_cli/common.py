"""What every command module shares: the one-line failure and JSON output."""

from __future__ import annotations

import json

from basehalf_core.errors import BasehalfError


class CommandFailed(BasehalfError):
    """A command could not do what was asked; the message is the one stderr line."""


def print_json(data: object) -> None:
    """Print ``data`` as the indented UTF-8 JSON the command line's contract promises."""
    print(json.dumps(data, ensure_ascii=False, indent=2))
