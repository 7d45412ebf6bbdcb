"""The in-memory index of a study folder: nodes, their upstream stores, issues, the graph.

The folder is the truth. :class:`Workspace` reads it once (the walk is
:func:`basehalf_core.folder.listing.list_folder`), then keeps itself current two ways:
:mod:`basehalf_core.folder.operations` hands it the bytes it just saved (no rescan), and
:meth:`Workspace.refresh` re-reads only files whose size or mtime changed on disk.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import gc
import heapq
import os
import posixpath
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from basehalf_core.errors import BasehalfError
from basehalf_core.folder import fsio, index_cache, notes, settings, writing
from basehalf_core.folder import upstream as up
from basehalf_core.folder.fsio import inside, open_folder
from basehalf_core.folder.listing import FOLDER, PLAIN, Dir, Listing, list_folder
from basehalf_core.folder.paths import (
    JOURNAL,
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
OUTSIDE = "symlink that points outside the folder; not followed"


class UnknownNode(BasehalfError, KeyError):
    """No node has that path."""

    def __init__(self, path: str):
        super().__init__(path, "no such file in the folder")

    def __str__(self) -> str:  # KeyError would quote the message
        return f"{self.path}: {self.reason}"


@dataclass(slots=True)
class Node:
    """A file or folder of the study folder."""

    path: str
    kind: str
    title: str
    store: up.Store
    stamp: tuple[int, ...] = (0, 0)  # (mtime_ns, size, inode) of the file holding the store
    outside_link: bool = False
    special: bool = False  # a FIFO, socket or device: listed, never opened


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
        self._special: dict[str, str] = {}
        self._cache: dict[str, list] = {}  # the persistent index cache, during a cold load
        self._cache_misses = 0
        self._dirs: dict[str, Dir] = {}  # the last listing's folders, for refresh() to reuse
        self.journal_problem = ""  # why a killed multi-file operation could not be finished
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
        with _gc_paused():
            listing = list_folder(ws.root)
            ws._dirs = listing.dirs
            ws._load(listing)
        ws.load_settings()
        for temp in listing.temps:
            writing.remove_stale_temp(ws.root, temp)
        if os.path.lexists(os.path.join(ws._root_str, *JOURNAL.split("/"))):
            # A multi-file operation was killed half way: finish or undo it now.
            from basehalf_core.folder import multifile

            try:
                multifile.recover(ws)
            except (OSError, BasehalfError) as exc:  # e.g. a read-only folder: open it anyway
                ws.journal_problem = f"{JOURNAL}: an interrupted move was not finished ({exc})"
        return ws

    def load_settings(self) -> None:
        """Read ``.bh/settings.yaml``: ``links: wikilink`` makes new entries Obsidian links.

        An unusable file is reported in :attr:`settings_problem` and means the defaults.
        """
        self.link_form, self.settings_problem = settings.read_link_form(self.root)

    # --- reading the folder -------------------------------------------------------------

    def _load(self, listing: Listing) -> None:
        # Cold load: one pass per index, and the graph filled in bulk (networkx's per-edge
        # checks cost more than everything else here for 30,000 edges).
        self._links = listing.links
        self._special = listing.special
        big = len(listing.files) >= index_cache.MIN_NODES
        self._cache = index_cache.load(self.root) if big else {}
        mirrors = listing.mirrors
        make = self._make
        nodes = [
            make(rel, is_dir, stamp, outside, mirrors.get(rel))
            for rel, (is_dir, stamp, outside) in listing.files.items()
        ]
        if big and self._cache_misses:
            index_cache.save(self.root, nodes)
        self._cache, self._cache_misses = {}, 0
        by_path, by_nfc, by_name = self.nodes, self._by_nfc, self._by_name
        for node in nodes:
            path = node.path
            by_path[path] = node
            key = nfc(path)
            by_nfc[key] = path
            # NFC keeps "/" a boundary, so the name of the NFC path is the NFC of the name.
            name = key.rsplit("/", 1)[-1]
            holders = by_name.get(name)
            if holders is None:
                by_name[name] = {path}
            else:
                holders.add(path)
        wanted = self._wanted
        pairs = []
        for node in nodes:
            store = node.store
            if any(e.link for e in store.entries) and self._note_links(node):
                self.resolve_links(store)
            path = node.path
            for target in store.paths:
                holders = wanted.get(target)
                if holders is None:
                    wanted[target] = {path}
                else:
                    holders.add(path)
                real = by_nfc.get(target)
                if real is not None:
                    pairs.append((real, path))
        _fill_graph(self.graph, self.nodes, pairs)
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
            # Kind "other", not "pdf": no reader (app, CLI, export) takes it for a document.
            store = up.Store(owner=rel, unreadable=OUTSIDE)
            node = Node(rel, "other", posix_name(rel), store, outside_link=True)
        elif rel in self._special:
            what = self._special[rel]
            store = up.Store(owner=rel, unreadable=f"{what}, not a regular file; never opened")
            node = Node(rel, "other", posix_name(rel), store, stamp, special=True)
        elif is_markdown(rel) and not is_dir:
            rec = self._cache.get(rel)
            hit = index_cache.store(rec, stamp) if rec is not None else None
            if hit is not None:
                title, store = hit
                declared = store.fields.get("kind")
                return Node(rel, kind_for(rel, declared=declared), title, store, stamp)
            self._cache_misses += 1
            try:
                head = self._read_head(rel)
                cut = len(head) == _SCAN_BYTES
                store = up.read_note(head, rel, head=cut)
                if cut and store.yaml_start < 0 and not store.unreadable and head[:3] == b"---":
                    # Opens a block that does not close in the window: a rule, or frontmatter
                    # that runs past 64 KiB. Only the whole file can tell (rare, so affordable).
                    store = up.read_note(fsio.read_node(self.root, rel), rel)
            except OSError as exc:
                store = up.Store(owner=rel, unreadable=f"cannot be read ({exc.strerror})")
            except fsio.WriteRefused as exc:
                store = up.Store(owner=rel, unreadable=exc.reason)
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
        # O_NONBLOCK: a file swapped for a FIFO since the listing must not hang the scan.
        if rel in self._links:
            path, flags = str(inside(self.root, rel)), os.O_RDONLY
        else:
            path, flags = os.path.join(self._root_str, rel), os.O_RDONLY | os.O_NOFOLLOW
        fd = os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(errno.EINVAL, "not a regular file")
            return os.read(fd, _SCAN_BYTES)
        finally:
            os.close(fd)

    def _read_mirror(self, rel: str) -> bytes | None:
        try:
            return fsio.read_node(self.root, mirror_store(rel))
        except FileNotFoundError:
            return None
        except fsio.WriteRefused as exc:
            raise OSError(errno.EINVAL, exc.reason) from None

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
        """The on-disk node path a (possibly non-NFC, trailing-slash) name refers to.

        An exact name wins: with NFC/NFD twins on disk (``café.md`` twice), each spelling
        names its own file.
        """
        path = path[:-1] if path.endswith("/") else path
        if path in self.nodes:
            return path
        return self._by_nfc.get(nfc(path))

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
        """All bytes of a node's file, through the one containment check.

        Raises:
            OutsideFolder: a symlink pointing outside the folder (never followed).
            NotRegularFile: a FIFO, device or other special file (never opened).
        """
        return fsio.read_node(self.root, self.node(path).path)

    def full_path(self, path: str) -> Path:
        """The real path of a node for a reader that opens it itself (a PDF, an EPUB).

        The same containment check as every read: a symlink out of the folder or a special
        file is refused with :class:`~basehalf_core.folder.fsio.WriteRefused`, never opened.
        """
        node = self.node(path)
        full = inside(self.root, node.path)
        if node.outside_link:
            raise fsio.OutsideFolder(node.path, OUTSIDE)
        if node.special:
            raise fsio.NotRegularFile(node.path, node.store.unreadable)
        return full

    def read_text(self, path: str) -> str:
        """A note's whole text (BOM dropped; undecodable bytes shown as U+FFFD)."""
        return self.read_bytes(path).decode("utf-8-sig", errors="replace")

    def frontmatter(self, path: str) -> dict:
        """A note's frontmatter as data ({} when there is none or it is unreadable).

        Read by :func:`basehalf_core.folder.notes.split_frontmatter`, the one reader.
        """
        node = self.node(path)
        if not node.store.fenced or node.outside_link or node.special:
            return {}  # not a note (its upstream lives in a mirror store), or never opened
        return notes.split_frontmatter(self.read_text(path))[0]

    def body(self, path: str) -> str:
        """A note's text after its frontmatter (the whole text when it has none).

        A symlink out of the folder or a special file has no body here: it is never opened.
        """
        node = self.node(path)
        if node.outside_link or node.special:
            return ""
        return notes.split_frontmatter(self.read_text(path))[1]

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
        with _gc_paused():
            listing = list_folder(self.root, self._dirs)
        self._dirs = listing.dirs
        self._links = listing.links
        self._special = listing.special
        self.load_settings()  # `basehalf links` may have changed the link form meanwhile
        changed: set[str] = set()
        for gone in [p for p in self.nodes if p not in listing.files]:
            self._forget(gone)
            changed.add(gone)
        nodes, mirrors = self.nodes, listing.mirrors
        for rel, spec in listing.files.items():
            node = nodes.get(rel)
            is_dir, stamp, outside = spec
            if node is not None and node.outside_link == outside:
                if spec is PLAIN or spec is FOLDER:  # most files: no is_markdown() call
                    seen = mirrors.get(rel) or (0, 0)
                elif is_markdown(rel) and not is_dir and not outside:
                    seen = stamp
                else:
                    seen = mirrors.get(rel) or (0, 0)
                if node.stamp == seen and (node.kind == "folder") == is_dir:
                    continue
            self._put(rel, is_dir, stamp, outside, mirrors.get(rel))
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
            start = notes.line_end(store.text, store.yaml_end)
        m = _HEADING.search(store.text, start)
        if m:
            return m.group(1).strip()
    name = posix_name(path)
    return name.rsplit(".", 1)[0] if "." in name else name


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """No cyclic garbage collection while the index is built.

    A cold open allocates ~100,000 containers (nodes, stores, entries, sets, graph dicts) that
    all live on; each collection the allocations trigger walks all of them again, which took a
    third of a cached open of 10,000 notes. Nothing built here is garbage, so nothing is lost
    by collecting afterwards instead (the collector runs again at its next threshold).
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _fill_graph(graph: nx.DiGraph, nodes, pairs: list[tuple[str, str]]) -> None:
    """Add ``nodes`` and the edges ``pairs`` to an empty ``graph``, as ``add_edges_from`` would.

    Writes networkx's documented adjacency dicts (``_succ``/``_pred``: one shared, empty
    attribute dict per edge) directly: ``add_edges_from`` re-checks both ends of every edge
    and took ~40% of a cached open of 10,000 notes. Any other graph type takes the public path.
    """
    graph.add_nodes_from(nodes)
    if type(graph) is not nx.DiGraph or graph.number_of_edges():
        graph.add_edges_from(pairs)
        return
    succ, pred = graph._succ, graph._pred
    for u, v in pairs:
        d = {}
        succ[u][v] = d
        pred[v][u] = d
    nx._clear_cache(graph)


def _stamp(full: Path) -> tuple[int, ...]:
    try:
        st = full.stat()
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def _mirror_stamp(ws: Workspace, rel: str) -> tuple[int, int] | None:
    full = ws.root / mirror_store(rel)
    return _stamp(full) if full.is_file() else None
