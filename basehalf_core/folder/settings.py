"""Per-folder settings in ``.bh/settings.yaml`` (basehalf's own state, never a node).

One setting so far: ``links``, the form new upstream entries are written in. ``path`` (the
default) is BaseHalf's format; ``wikilink`` writes ``"[[x]]"`` so an Obsidian vault's graph
sees the links. Reading accepts both forms whatever the setting says.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from basehalf_core.folder import writing
from basehalf_core.folder.fsio import WriteRefused, inside, read_bytes
from basehalf_core.folder.paths import LINK_FORMS

SETTINGS_PATH = ".bh/settings.yaml"
_LINKS_LINE = re.compile(r"^links:.*$", re.M)


def read_link_form(root: Path) -> tuple[str, str]:
    """``(form, problem)``: the folder's link form, and why the file was not usable ("" if it was).

    A missing file means ``path``; so does an unusable one, with the problem named.
    """
    try:
        data = read_bytes(inside(root, SETTINGS_PATH))
    except WriteRefused as exc:  # a symlink leading out of the folder, a FIFO
        return "path", f"{SETTINGS_PATH}: not read ({exc.reason})"
    except OSError as exc:
        return "path", f"{SETTINGS_PATH}: not read ({exc.strerror or exc})"
    if data is None:
        return "path", ""
    try:
        doc = yaml.safe_load(data.decode("utf-8")) or {}
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        return "path", f"{SETTINGS_PATH}: not YAML ({str(exc).splitlines()[0]})"
    form = doc.get("links", "path") if isinstance(doc, dict) else None
    if form not in LINK_FORMS:
        allowed = ", ".join(LINK_FORMS)
        return "path", f"{SETTINGS_PATH}: 'links' must be one of {allowed}, got {form!r}"
    return form, ""


def write_link_form(root: Path, form: str) -> bool:
    """Set ``links: FORM``, keeping every other line of the file. True if it changed.

    Raises:
        ValueError: ``form`` is not one of :data:`LINK_FORMS`.
        basehalf_core.folder.fsio.WriteRefused: the file changed meanwhile, or is a symlink.
    """
    if form not in LINK_FORMS:
        raise ValueError(f"links must be one of {', '.join(LINK_FORMS)}, got {form!r}")
    line = f"links: {form}"

    def plan(before: bytes | None) -> bytes | None:
        text = before.decode("utf-8", errors="replace") if before is not None else ""
        if _LINKS_LINE.search(text):
            new = _LINKS_LINE.sub(line, text, count=1)
        else:
            new = text + ("" if text.endswith("\n") or not text else "\n") + line + "\n"
        return None if new == text else new.encode("utf-8")

    # The one write path: under the file's lock, compare-and-swap.
    return writing.update(root, SETTINGS_PATH, plan) is not None
