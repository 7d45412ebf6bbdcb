"""The in-memory index of a study folder: nodes, their upstream stores, issues, the graph.

The folder is the truth. :class:`Workspace` reads it once, then keeps itself current two
ways: :mod:`basehalf_core.folder.operations` hands it the bytes it just saved (no rescan), and
:meth:`Workspace.refresh` re-reads only files whose size or mtime changed on disk.
"""

from __future__ import annotations

import dataclasses
import heapq
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

import frontmatter
import networkx as nx

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import settings
from basehalf_core.folder import upstream as up
from basehalf_core.folder.fsio import inside, is_within, open_folder
from basehalf_core.folder.paths import (
    MIRROR_FILE,
    MIRROR_ROOT,
    is_markdown,
    kind_for,
    mirror_store,
    nfc,
    posix_name,
)

_HEADING = re.compile(r"^#[ \t]+(.+?)[ \t#]*$", re.M)
_SCAN_BYTES = up.FENCE_LIMIT + 4096


class UnknownNode(BasehalfError, KeyError):
    """No node has that path."""

    def __init__(self, path: str):
        super().__init__(path, "no such file in the folder")

    def __str__(self) -> str:  # KeyError would quote the message
        return f"{self.path}: {self.reason}"


@dataclass
class Node:
    """A file or folder of the study folder."""

    path: str
    kind: str
    title: str
    store: up.Store
    stamp: tuple[int, int] = (0, 0)  # (mtime_ns, size) of the file holding the store
    outside_link: bool = False


@dataclass(frozen=True)
class Issue:
    """A problem with one store or entry, as ``basehalf graph --json`` reports it."""

    path: str
    entry: str
    problem: str  # dangling | invalid | unreadable
    reason: str

    def as_dict(self) -> dict[str, str]:
        return {
            "path": self.path,
            "entry": self.entry,
            "problem": self.problem,
            "reason": self.reason,
        }


@dataclass
class _Listing:
    files: dict[str, tuple[bool, tuple[int, int], bool]] = field(default_factory=dict)
    mirrors: dict[str, tuple[int, int]] = field(default_factory=dict)
    links: set[str] = field(default_factory=set)


class Workspace:
    """Index of one study folder. Build it with :meth:`open`."""

    def __init__(self, root: Path):
        self.root = root
        self.nodes: dict[str, Node] = {}
        self.graph = nx.DiGraph()
        self._by_nfc: dict[str, str] = {}
        # target (NFC) -> nodes whose store lists it: resolves dangling entries when files appear.
        self._wanted: dict[str, set[str]] = {}
        self._mirror_stamps: dict[str, tuple[int, int]] = {}
        self.revision = 0
        self._root_str = str(root)
        self._links: set[str] = set()
        # Obsidian wikilinks: file name (NFC) -> node paths; holder -> the last segments its
        # wikilinks name, and the reverse (which holders to re-resolve when a name comes/goes).
        self._by_name: dict[str, set[str]] = {}
        self._wiki: dict[str, set[str]] = {}
        self._wiki_by_tail: dict[str, set[str]] = {}
        self.link_form = "path"
        self.settings_problem = ""

    @classmethod
    def open(cls, root: str | os.PathLike) -> Workspace:
        """Scan ``root`` and return its index. Raises ``FolderError`` for a bad folder."""
        ws = cls(open_folder(root))
        ws._load(ws._list())
        ws.load_settings()
        return ws

    def load_settings(self) -> None:
        """Read ``.bh/settings.yaml``: ``links: wikilink`` makes new entries Obsidian links.

        An unusable file is reported in :attr:`settings_problem` and means the defaults.
        """
        self.link_form, self.settings_problem = settings.read_link_form(self.root)

    # --- reading the folder -------------------------------------------------------------

    def _list(self) -> _Listing:
        listing = _Listing()
        root = str(self.root)
        stack = [""]
        while stack:
            rel_dir = stack.pop()
            try:
                it = os.scandir(os.path.join(root, rel_dir) if rel_dir else root)
            except OSError:
                continue
            with it:
                for entry in it:
                    name = entry.name
                    rel = f"{rel_dir}/{name}" if rel_dir else name
                    if name.startswith("."):
                        if rel == ".bh":
                            self._list_mirrors(listing)
                        continue
                    link = entry.is_symlink()
                    outside = link and not is_within(self.root, entry.path)
                    is_dir = not outside and entry.is_dir(follow_symlinks=False)
                    stamp = (0, 0)
                    if not is_dir and not outside and is_markdown(name):
                        try:
                            st = entry.stat()
                            stamp = (st.st_mtime_ns, st.st_size)
                        except OSError:
                            pass
                    listing.files[rel] = (is_dir, stamp, outside)
                    if link and not outside:
                        listing.links.add(rel)
                    if is_dir:
                        stack.append(rel)
        return listing

    def _list_mirrors(self, listing: _Listing) -> None:
        base = os.path.join(str(self.root), *MIRROR_ROOT.split("/"))
        if not os.path.isdir(base) or not is_within(self.root, base):
            return
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not os.path.islink(os.path.join(dirpath, d))]
            if MIRROR_FILE in filenames:
                full = os.path.join(dirpath, MIRROR_FILE)
                node = os.path.relpath(dirpath, base).replace(os.sep, "/")
                if os.path.islink(full) or node == ".":
                    continue
                st = os.stat(full)
                listing.mirrors[node] = (st.st_mtime_ns, st.st_size)

    def _load(self, listing: _Listing) -> None:
        # A cold load builds the graph in two bulk calls: per-edge inserts cost more than parsing.
        self._links = listing.links
        nodes = [
            self._make(rel, is_dir, stamp, outside, listing.mirrors.get(rel))
            for rel, (is_dir, stamp, outside) in listing.files.items()
        ]
        for node in nodes:
            self.nodes[node.path] = node
            self._by_nfc[nfc(node.path)] = node.path
            self._by_name.setdefault(nfc(posix_name(node.path)), set()).add(node.path)
        for node in nodes:
            if self._note_links(node):
                self.resolve_links(node.store)
            for target in node.store.paths:
                self._wanted.setdefault(target, set()).add(node.path)
        self.graph.add_nodes_from(self.nodes)
        by_nfc = self._by_nfc
        self.graph.add_edges_from(
            (by_nfc[t], node.path) for node in nodes for t in node.store.paths if t in by_nfc
        )
        self.revision += 1

    def _put(self, *args) -> None:
        self._index(self._make(*args))

    def _make(
        self,
        rel: str,
        is_dir: bool,
        stamp: tuple[int, int],
        outside: bool,
        mirror_stamp: tuple[int, int] | None,
    ) -> Node:
        if outside:
            store = up.Store(
                owner=rel, unreadable="symlink to a place outside the folder; not followed"
            )
            node = Node(rel, kind_for(rel), posix_name(rel), store, outside_link=True)
        elif is_markdown(rel) and not is_dir:
            try:
                store = up.read_note(self._read_head(rel), rel)
            except OSError as exc:
                store = up.Store(owner=rel, unreadable=f"cannot be read ({exc.strerror})")
            declared = store.fields.get("kind")
            node = Node(rel, kind_for(rel, declared=declared), _title(rel, store), store, stamp)
        else:
            try:
                store = up.read_mirror(self._read_mirror(rel) if mirror_stamp else None, rel)
            except OSError as exc:
                store = up.Store(owner=rel, unreadable=f"store cannot be read ({exc.strerror})")
            node = Node(
                rel, kind_for(rel, is_dir=is_dir), posix_name(rel), store, mirror_stamp or (0, 0)
            )
        return node

    def _read_head(self, rel: str) -> bytes:
        # Only the frontmatter region matters for the index; a 50 MB note costs 68 KiB here.
        # The listing walked the tree without following links, so a plain file is opened
        # with O_NOFOLLOW (a file swapped for a link since then is refused, not followed).
        if rel in self._links:
            path, flags = str(inside(self.root, rel)), os.O_RDONLY
        else:
            path, flags = os.path.join(self._root_str, rel), os.O_RDONLY | os.O_NOFOLLOW
        fd = os.open(path, flags)
        try:
            return os.read(fd, _SCAN_BYTES)
        finally:
            os.close(fd)

    def _read_mirror(self, rel: str) -> bytes | None:
        try:
            return inside(self.root, mirror_store(rel)).read_bytes()
        except FileNotFoundError:
            return None

    # --- the index ---------------------------------------------------------------------

    def _index(self, node: Node) -> None:
        if self._note_links(node):
            self.resolve_links(node.store)
        old = self.nodes.get(node.path)
        if old is None:
            self._by_nfc[nfc(node.path)] = node.path
            self._by_name.setdefault(nfc(posix_name(node.path)), set()).add(node.path)
            self.graph.add_node(node.path)
            for down in self._wanted.get(nfc(node.path), ()):
                self.graph.add_edge(node.path, down)
        else:
            self._unwant(old)
            self.graph.remove_edges_from(list(self.graph.in_edges(node.path)))
        self.nodes[node.path] = node
        for target in node.store.paths:
            self._wanted.setdefault(target, set()).add(node.path)
            real = self._by_nfc.get(target)
            if real is not None:
                self.graph.add_edge(real, node.path)
        if old is None:
            self._relink(node.path)

    def _unwant(self, node: Node) -> None:
        for target in node.store.paths:
            holders = self._wanted.get(target)
            if holders is not None:
                holders.discard(node.path)
                if not holders:
                    del self._wanted[target]

    def _forget(self, path: str) -> None:
        node = self.nodes.pop(path, None)
        if node is not None:
            self._unwant(node)
        self._by_nfc.pop(nfc(path), None)
        self._by_name.get(nfc(posix_name(path)), set()).discard(path)
        self._forget_links(path)
        if self.graph.has_node(path):
            self.graph.remove_node(path)
        self._relink(path)

    # --- Obsidian wikilinks ------------------------------------------------------------

    def link_target(self, link: str, owner: str = "") -> str | None:
        """The node an Obsidian link target names, as Obsidian resolves it inside the folder.

        In order: the exact path; the path plus ``.md`` (Obsidian leaves it out for notes);
        else the shortest-path name: any node whose path ends in ``/<link>`` (or
        ``/<link>.md``), preferring one in ``owner``'s own folder, then fewer folders, then
        the name. ``None`` when nothing matches.
        """
        key = nfc(link)
        for name in (key, key + ".md"):
            if name in self._by_nfc:
                return self._by_nfc[name]
        tail = key.rsplit("/", 1)[-1]
        here = posixpath.dirname(owner)
        found = [
            p
            for name in (tail, tail + ".md")
            for p in self._by_name.get(name, ())
            if nfc(p).endswith(("/" + key, "/" + key + ".md"))
        ]
        if not found:
            return None
        return min(found, key=lambda p: (posixpath.dirname(p) != here, p.count("/"), p))

    def wikilink_holders(self) -> list[str]:
        """The nodes whose store holds an Obsidian wikilink entry, sorted."""
        return sorted(self._wiki)

    def resolve_links(self, store: up.Store) -> bool:
        """Resolve ``store``'s wikilink entries against the folder as indexed now."""
        return up.resolve_links(store, lambda link: self.link_target(link, store.owner))

    def _note_links(self, node: Node) -> bool:
        """Index which names ``node``'s wikilinks end in; True if it has any."""
        self._forget_links(node.path)
        tails = {nfc(e.link).rsplit("/", 1)[-1] for e in node.store.entries if e.link}
        if not tails:
            return False
        self._wiki[node.path] = tails
        for tail in tails:
            self._wiki_by_tail.setdefault(tail, set()).add(node.path)
        return True

    def _forget_links(self, path: str) -> None:
        for tail in self._wiki.pop(path, ()):
            holders = self._wiki_by_tail.get(tail)
            if holders is not None:
                holders.discard(path)
                if not holders:
                    del self._wiki_by_tail[tail]

    def _relink(self, changed: str) -> None:
        """``changed`` came or went: a short wikilink naming it may now mean another node."""
        name = nfc(posix_name(changed))
        tails = {name, name[:-3]} if name.endswith(".md") else {name}
        holders = set().union(*(self._wiki_by_tail.get(t, ()) for t in tails))
        for path in sorted(holders):
            node = self.nodes.get(path)
            if node is None:
                continue
            store = dataclasses.replace(
                node.store, entries=[dataclasses.replace(e) for e in node.store.entries]
            )
            if self.resolve_links(store):
                self._index(dataclasses.replace(node, store=store))

    def resolve(self, path: str) -> str | None:
        """The on-disk node path a (possibly non-NFC, trailing-slash) name refers to."""
        key = nfc(path[:-1] if path.endswith("/") else path)
        return self._by_nfc.get(key)

    def node(self, path: str) -> Node:
        """The node at ``path`` or :class:`UnknownNode`."""
        real = self.resolve(path)
        if real is None:
            raise UnknownNode(path)
        return self.nodes[real]

    def upstream(self, path: str) -> list[str]:
        """Existing nodes ``path`` flows from, in the store's order."""
        node = self.node(path)
        return [self._by_nfc[p] for p in node.store.paths if p in self._by_nfc]

    def downstream(self, path: str) -> list[str]:
        """Nodes that list ``path`` upstream (derived; nothing stores it), sorted."""
        return sorted(self.graph.successors(self.node(path).path))

    def issues(self) -> list[Issue]:
        """Every dangling, invalid or unreadable entry, sorted by path."""
        found: list[Issue] = []
        for path in sorted(self.nodes):
            store = self.nodes[path].store
            if store.unreadable:
                found.append(Issue(path, "", "unreadable", store.unreadable))
                continue
            for e in store.entries:
                if e.path is None:
                    found.append(Issue(path, e.raw, "invalid", e.reason))
                elif e.path not in self._by_nfc:
                    found.append(Issue(path, e.raw, "dangling", "names no file in the folder"))
        return found

    def learning_path(self) -> list[str]:
        """由浅入深: a topological order, cycles broken deterministically, ties by file name."""
        nodes = [p for p, n in self.nodes.items() if n.kind != "folder" or self.graph.degree(p)]
        wanted = set(nodes)
        indeg = {p: sum(1 for u in self.graph.predecessors(p) if u in wanted) for p in nodes}

        def key(p: str) -> tuple[str, str]:
            return (posix_name(p), p)

        ready = [key(p) for p in nodes if indeg[p] == 0]
        heapq.heapify(ready)
        order: list[str] = []
        done: set[str] = set()
        while len(order) < len(nodes):
            if not ready:
                # A cycle: enter it at the node with fewest open inputs, then by name.
                rest = [p for p in nodes if p not in done]
                pick = min(rest, key=lambda p: (indeg[p], *key(p)))
                indeg[pick] = 0
                heapq.heappush(ready, key(pick))
            _, p = heapq.heappop(ready)
            if p in done:
                continue
            done.add(p)
            order.append(p)
            for v in self.graph.successors(p):
                if v in wanted and v not in done:
                    indeg[v] -= 1
                    if indeg[v] == 0:
                        heapq.heappush(ready, key(v))
        return order

    # --- contents ----------------------------------------------------------------------

    def read_bytes(self, path: str) -> bytes:
        """All bytes of a node's file."""
        return inside(self.root, self.node(path).path).read_bytes()

    def read_text(self, path: str) -> str:
        """A note's whole text (BOM dropped; undecodable bytes shown as U+FFFD)."""
        return self.read_bytes(path).decode("utf-8-sig", errors="replace")

    def frontmatter(self, path: str) -> dict:
        """A note's frontmatter as data ({} when there is none or it is unreadable)."""
        node = self.node(path)
        store = node.store
        if store.yaml_start < 0 or not store.fenced:
            return {}
        text = self.read_text(path)
        try:
            post = frontmatter.loads(text)
        except Exception:  # malformed YAML is reported through issues(); here it is just empty
            return {}
        return dict(post.metadata)

    def body(self, path: str) -> str:
        """A note's text after its frontmatter."""
        text = self.read_text(path)
        store = up.read_note(text.encode("utf-8"), path)
        if store.yaml_start < 0:
            return text
        close = up._line_end(text, store.yaml_end)
        return text[close:]

    # --- keeping current ---------------------------------------------------------------

    def saved(self, path: str, data: bytes | None) -> None:
        """Record bytes an operation just wrote to ``path`` (a note or a mirror store).

        ``data=None`` means the store file was removed.
        """
        full = inside(self.root, path)
        if path.startswith(MIRROR_ROOT + "/"):
            node_path = path[len(MIRROR_ROOT) + 1 : -len(MIRROR_FILE) - 1]
            node = self.node(node_path)
            node.store = up.read_mirror(data, node.path)
            node.stamp = _stamp(full) if data is not None else (0, 0)
            self._index(node)
        else:
            store = up.read_note(data or b"", path)
            declared = store.fields.get("kind")
            node = Node(
                path, kind_for(path, declared=declared), _title(path, store), store, _stamp(full)
            )
            self._index(node)
        self.revision += 1

    def added(self, path: str) -> None:
        """Record a file or folder an operation just created (no mirror store yet)."""
        full = inside(self.root, path)
        if full.is_dir():
            self._put(path, True, (0, 0), False, None)
            for child in sorted(full.rglob("*")):
                rel = child.relative_to(self.root).as_posix()
                if not any(p.startswith(".") for p in rel.split("/")):
                    self._put(rel, child.is_dir(), _stamp(child), False, _mirror_stamp(self, rel))
        else:
            self._put(path, False, _stamp(full), False, _mirror_stamp(self, path))
        self.revision += 1

    def removed(self, path: str) -> None:
        """Record that ``path`` (and, for a folder, everything under it) is gone."""
        prefix = path + "/"
        for p in [p for p in self.nodes if p == path or p.startswith(prefix)]:
            self._forget(p)
        self.revision += 1

    def refresh(self) -> set[str]:
        """Pick up changes made outside basehalf; re-read only what changed.

        Returns:
            The node paths that were added, removed or re-read.
        """
        listing = self._list()
        self._links = listing.links
        self.load_settings()  # `basehalf links` may have changed the link form meanwhile
        changed: set[str] = set()
        for gone in [p for p in self.nodes if p not in listing.files]:
            self._forget(gone)
            changed.add(gone)
        for rel, (is_dir, stamp, outside) in listing.files.items():
            node = self.nodes.get(rel)
            if node is not None and node.outside_link == outside:
                note = is_markdown(rel) and not is_dir and not outside
                seen = stamp if note else (listing.mirrors.get(rel) or (0, 0))
                if node.stamp == seen and (node.kind == "folder") == is_dir:
                    continue
            self._put(rel, is_dir, stamp, outside, listing.mirrors.get(rel))
            changed.add(rel)
        if changed:
            self.revision += 1
        return changed


def _title(path: str, store: up.Store) -> str:
    title = store.fields.get("title")
    if isinstance(title, str) and title.strip():
        return title.strip()
    if store.text:
        start = 0
        if store.yaml_start >= 0:
            start = up._line_end(store.text, store.yaml_end)
        m = _HEADING.search(store.text, start)
        if m:
            return m.group(1).strip()
    name = posix_name(path)
    return name.rsplit(".", 1)[0] if "." in name else name


def _stamp(full: Path) -> tuple[int, int]:
    try:
        st = full.stat()
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


def _mirror_stamp(ws: Workspace, rel: str) -> tuple[int, int] | None:
    full = ws.root / mirror_store(rel)
    return _stamp(full) if full.is_file() else None
