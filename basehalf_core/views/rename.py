"""What a rename typed in Card Detail means: the target path, and a warning when the kind changes.

A learner who renames ``05-positional-encoding.md`` to ``05-positional-encoding`` means a new
name, not a new kind: the extension is kept unless another one is typed. When the typed name
does change what the card is (a note becoming a plain file), the app warns before renaming.
"""

from __future__ import annotations

from pathlib import PurePosixPath

from basehalf_core.folder.paths import is_markdown

_KINDS = {".pdf": "pdf", ".epub": "epub"}


def kind_by_name(path: str) -> str:
    """The kind a file name alone gives: ``note``, ``pdf``, ``epub`` or ``other``."""
    if is_markdown(path):
        return "note"
    return _KINDS.get(PurePosixPath(path).suffix.lower(), "other")


def target(old: str, typed: str) -> tuple[str, str]:
    """The path to move ``old`` to, and a warning ("" when the kind stays).

    Args:
        old: the card's folder-relative path.
        typed: what the learner typed in the rename box.

    Returns:
        ``(new_path, warning)``; ``new_path`` is "" when nothing usable was typed.
    """
    typed = typed.strip().strip("/")
    if not typed or typed == old:
        return "", ""
    old_suffix = PurePosixPath(old).suffix
    if old_suffix and not PurePosixPath(typed).suffix:
        typed += old_suffix  # no extension typed: keep the card's own
    before, after = kind_by_name(old), kind_by_name(typed)
    if before != after:
        return typed, (
            f"Renaming {old} to {typed} changes it from {before} to {after}: "
            "its links and how it opens change. Press Rename again to do it."
        )
    return typed, ""
