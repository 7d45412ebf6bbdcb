"""What Card Detail shows for one node, as plain data (no UI): links, their state, the body.

- ``upstream``: every entry of the node's store, in order, each ``ok`` | ``dangling`` |
  ``invalid``; an unreadable store gives one ``unreadable`` item with the reason.
- ``downstream``: derived (nothing stores it).
- ``body``: the note's Markdown after its frontmatter, made safe to render with ``mo.md``: no
  raw HTML survives (``<`` outside code is written ``&lt;``) and links may only be http(s),
  mailto or relative. A note is data; nothing in it runs in the app.
- ``body_html``: the same text already rendered, as HTML that is safe to insert as it is
  (:func:`basehalf_core.views.markdown.render`: no raw markup, no script link, no image fetch).
- a dangling entry carries a relink ``suggestion``: the one file of the same name, when
  exactly one exists.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from basehalf_core.folder.fsio import WriteRefused
from basehalf_core.folder.paths import is_markdown, nfc, posix_name
from basehalf_core.folder.workspace import Workspace
from basehalf_core.views import markdown


@dataclass(frozen=True)
class UpstreamItem:
    """One upstream entry as Card Detail lists it.

    Attributes:
        entry: the entry as written in the store ("" for an unreadable store).
        state: ``ok`` | ``dangling`` | ``invalid`` | ``unreadable``.
        path: the node it names, when ``ok``.
        reason: why it is not ``ok`` ("" when it is).
        suggestion: for a dangling entry, the unique file of the same name (else ``None``).
    """

    entry: str
    state: str
    path: str | None = None
    reason: str = ""
    suggestion: str | None = None


@dataclass(frozen=True)
class CardDetail:
    """Everything Card Detail shows for one node."""

    path: str
    kind: str
    title: str
    upstream: list[UpstreamItem] = field(default_factory=list)
    downstream: list[str] = field(default_factory=list)
    body: str = ""
    body_html: str = ""
    problem: str = ""

    def as_dict(self) -> dict:
        """JSON-ready form (for the CLI or a test)."""
        return asdict(self)


# The app never types frontmatter (it keeps it byte for byte), so a learner whose frontmatter
# cannot be read must be told where it can be mended, not only what is wrong with it.
FRONTMATTER_FIX = (
    "Mend the frontmatter (the lines between the --- fences at the top) in a text editor; "
    "the app keeps it byte for byte, and links to and from this note work again once it reads"
)


def card_detail(ws: Workspace, path: str) -> CardDetail:
    """Card Detail data for ``path``.

    Raises:
        UnknownNode: no node has that path.
    """
    node = ws.node(path)
    items: list[UpstreamItem] = []
    problem = node.store.unreadable
    if problem:
        problem = f"{problem}. {FRONTMATTER_FIX}"
        items.append(UpstreamItem("", "unreadable", reason=problem))
    names = None
    for e in node.store.entries:
        if e.path is None:
            items.append(UpstreamItem(e.raw, "invalid", reason=e.reason))
            continue
        real = ws.resolve(e.path)
        if real is not None:
            items.append(UpstreamItem(e.raw, "ok", path=real))
            continue
        if names is None:
            names = _names(ws)
        items.append(
            UpstreamItem(
                e.raw,
                "dangling",
                reason="names no file in the folder",
                suggestion=_suggest(names, e.path, node.path),
            )
        )
    body = body_html = ""
    if is_markdown(node.path) and node.kind != "folder" and not node.outside_link:
        try:
            text = ws.body(node.path)
            body, body_html = markdown.escape(text), markdown.render(text)
        except WriteRefused as exc:  # became a FIFO, a folder or a link out meanwhile
            problem = problem or exc.reason
        except OSError as exc:
            problem = problem or f"cannot be read ({exc.strerror})"
    return CardDetail(
        path=node.path,
        kind=node.kind,
        title=node.title,
        upstream=items,
        downstream=ws.downstream(node.path),
        body=body,
        body_html=body_html,
        problem=problem,
    )


def _names(ws: Workspace) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for p, n in ws.nodes.items():
        if n.kind != "folder":
            out.setdefault(nfc(posix_name(p)), []).append(p)
    return out


def _suggest(names: dict[str, list[str]], entry: str, owner: str) -> str | None:
    found = [p for p in names.get(nfc(posix_name(entry)), []) if p != owner]
    return found[0] if len(found) == 1 else None


def relink_suggestion(ws: Workspace, entry: str, owner: str = "") -> str | None:
    """The unique file named like ``entry``'s last segment (not ``owner``), or ``None``."""
    return _suggest(_names(ws), entry, owner)
