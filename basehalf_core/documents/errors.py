"""What can be wrong with a document: one exception per reason, under :class:`DocumentError`."""

from __future__ import annotations

from basehalf_core.errors import BasehalfError

__all__ = [
    "BadSelection",
    "BrokenDocument",
    "DocumentClosed",
    "DocumentError",
    "EmptyFile",
    "NeedsPassword",
    "NoPages",
    "NotADocument",
    "PageOutOfRange",
    "WrongPassword",
]


class DocumentError(BasehalfError):
    """A document cannot be used; ``path`` names the file and ``reason`` says why."""


class NeedsPassword(DocumentError):
    """The PDF is encrypted and no password was given."""


class WrongPassword(DocumentError):
    """The password given does not open the PDF."""


class NoPages(DocumentError):
    """The file opens but has no pages (xref loop, truncation)."""


class BrokenDocument(DocumentError):
    """The file claims to be a PDF or EPUB but is truncated or corrupt."""


class EmptyFile(DocumentError):
    """The file has 0 bytes."""


class NotADocument(DocumentError):
    """The file is not a PDF or EPUB whatever its name says."""


class PageOutOfRange(DocumentError):
    """A page index outside the document."""


class BadSelection(DocumentError):
    """Word indices that are not words of that page."""


class DocumentClosed(DocumentError):
    """The document was closed."""
