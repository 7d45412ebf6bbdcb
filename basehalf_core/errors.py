"""The one root of every error basehalf raises on purpose.

Every refusal names what it refused (``path``: a file, a folder, a model name; empty when there
is none) and says why in words (``reason``), so the CLI, the app and the tests show the same
one line. Rooms subclass it with small named exceptions; callers catch the room's class or this.
"""

from __future__ import annotations

import os

__all__ = ["BasehalfError"]


class BasehalfError(Exception):
    """A refusal with the path it concerns and the reason.

    Args:
        path_or_reason: The path the error is about; or, when ``reason`` is not given, the whole
            message (for errors that concern no single file).
        reason: Why, in words a learner can act on.
    """

    def __init__(self, path_or_reason: str | os.PathLike = "", reason: str | None = None):
        if reason is None:
            self.path, self.reason = "", str(path_or_reason)
        else:
            self.path, self.reason = str(path_or_reason), reason
        super().__init__(f"{self.path}: {self.reason}" if self.path else self.reason)
