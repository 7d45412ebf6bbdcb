"""A widget's script under a stable, content-named URL, so the browser fetches and compiles it once.

marimo serves an anywidget's ``_esm`` source as a virtual file named at random for every page
(``/@file/<size>-<thread>-<random>.js``), so a returning learner's browser fetches and
compiles the canvas's 480 KiB (vis-network) again on every page, although the file is sent
with ``Cache-Control: max-age=86400``. marimo passes an ``_esm`` that is already a virtual-file
URL (``./@file/<size>-<name>``) through unchanged. :class:`CachedScript` puts the widget's
own script, and nothing else, into marimo's in-process virtual-file store under a name made
from its content (``bh-<class>-<sha256 prefix>.js``) and hands marimo that URL: every page
asks for the same URL, which the browser serves from its HTTP cache (and V8 from its code
cache). A changed script has a new name, so no stale copy is ever used.

This works when the kernel runs in the server's process (``marimo run``, ``basehalf serve``):
the store is then one dict the server reads. Anywhere else (``marimo edit``'s kernel process,
a plain Python session, a marimo that moved these internals) the widget keeps marimo's own
behaviour: the source itself.
"""

from __future__ import annotations

import hashlib
import html
import os

_PREFIX = "bh-"
# "off": marimo's own random names, as before (bench/startup.py compares the two in one run).
SWITCH = "BASEHALF_WIDGET_SCRIPT_CACHE"
_urls: dict[type, tuple[str, bytes, str, str]] = {}  # class -> (source, bytes, key, url)


def _store():
    """marimo's in-process virtual-file store, or ``None`` when the page is not served from it."""
    try:
        from marimo._runtime.context import get_context
        from marimo._runtime.virtual_file.storage import (
            InMemoryStorage,
            VirtualFileStorageManager,
        )

        ctx = get_context()
    except Exception:  # no kernel (plain Python, a test) or another marimo: keep the source
        return None
    if not getattr(ctx, "virtual_files_supported", False):
        return None
    storage = VirtualFileStorageManager().storage
    # Only the in-process store: in `marimo edit` the kernel is another process, and a
    # shared-memory block named here would outlive every session.
    return storage if isinstance(storage, InMemoryStorage) else None


def served_url(cls: type, source: str) -> str:
    """The URL to give marimo for ``cls``'s script ``source``; ``source`` itself when not served.

    Args:
        cls: the widget class (names the file).
        source: the widget's ES module text (only a class's own static script is ever passed).

    Returns:
        ``./@file/<size>-bh-<class>-<hash>.js`` stored in marimo's in-process virtual-file
        store, or ``source`` unchanged.
    """
    store = None if os.environ.get(SWITCH) == "off" else _store()
    if store is None:
        return source
    known = _urls.get(cls)
    if known is None or known[0] != source:
        data = source.encode("utf-8")
        known = (source, data, *_name(cls, data))
        _urls[cls] = known
    _source, data, key, url = known
    if not store.has(key):  # first widget of this process (or the store was cleared)
        store.store(key, data)
    return url


def _name(cls: type, data: bytes) -> tuple[str, str]:
    """The store key and the URL of ``cls``'s script ``data``."""
    key = f"{_PREFIX}{cls.__name__.lower()}-{hashlib.sha256(data).hexdigest()[:16]}.js"
    return key, f"./@file/{len(data)}-{key}"


def url_of(cls: type) -> str:
    """The URL :func:`served_url` gives ``cls``'s script (for the start-up bench)."""
    return _name(cls, str(cls._esm).encode("utf-8"))[1]


def preload(*classes: type) -> str:
    """``<link rel="modulepreload">`` tags for these widget classes' scripts.

    An app that makes a widget only when the learner asks (a reader made when "Open" is
    pressed) shows these tags from an earlier cell: the browser fetches and compiles the
    script while the learner is still looking, so the widget's view is mounted as soon as
    its cell's output arrives instead of after a fetch that competes with the kernel for
    the server's process. The browser keeps one module per URL, so the widget's own import
    finds the preloaded one.

    Args:
        classes: widget classes mixing in :class:`CachedScript`.

    Returns:
        One tag per class whose script is served from marimo's store (see
        :func:`served_url`); an empty string where it is not (the source is then sent with
        the widget and there is nothing to fetch).
    """
    tags = []
    for cls in classes:
        source = str(cls._esm)
        url = served_url(cls, source)
        if url != source:
            tags.append(f'<link rel="modulepreload" href="{html.escape(url)}">')
    return "".join(tags)


class CachedScript:
    """Mix in before ``anywidget.AnyWidget``: the class's ``_esm`` is served under a stable URL.

    The class keeps ``_esm`` as its source (tests and benches read it); each instance gets the
    URL (see the module docstring).
    """

    def __init__(self, *args, **kwargs):
        if "_esm" not in kwargs:
            kwargs["_esm"] = served_url(type(self), str(type(self)._esm))
        super().__init__(*args, **kwargs)
