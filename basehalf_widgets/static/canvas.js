// The canvas view. `vis` (vis-network from the pyvis package) is defined above this file by
// basehalf_widgets/canvas.py. Labels are drawn on a <canvas>; tooltips are plain strings,
// which vis-network 9 inserts with innerText: nothing from a file name or note is parsed as HTML.
//
// The view shows and reports; it never changes the folder. A click, a double-click, a drag
// from card to card (Link mode) and Delete on a selected link only set traits; Python decides.

// Fields whose change must not move a card the learner has dragged.
const POSITION = ["x", "y"];
// Ghost cards (dangling entries) have ids under this prefix; network.GHOST_PREFIX in Python.
const GHOST = "//missing/";
// The card font is 18 canvas px (network.FONT_SIZE): at this scale it is 12 CSS px.
const READABLE = 12 / 18;
// A folder up to this size always opens fitted, whatever the scale.
const SMALL = 30;
// Over this many cards, a folder that opens on part of itself draws that part first.
const PROGRESSIVE = 200;
// The largest card, in canvas px (layout.CARD_W / CARD_H in Python).
const CARD = { w: 220, h: 74 };

// Items are flat dicts but for a colour object now and then: compare values, and JSON only
// for those objects (stringifying every item of a 1,000-card folder cost more than the rest).
function sameItem(a, b) {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = a[key];
    const y = b[key];
    if (x === y) continue;
    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

function diff(previous, items, keepPlace) {
  const next = new Map();
  const add = [];
  const update = [];
  for (const item of items) {
    const old = previous.get(item.id);
    next.set(item.id, item);
    if (!old) {
      add.push(item);
      continue;
    }
    if (sameItem(old, item)) continue;
    const patch = { ...item };
    // A key the new item no longer has goes back to its default (null resets in vis-network).
    for (const key of Object.keys(old)) if (!(key in item)) patch[key] = null;
    if (keepPlace && old.x === item.x && old.y === item.y) {
      for (const key of POSITION) delete patch[key];
    }
    update.push(patch);
  }
  const remove = [];
  for (const id of previous.keys()) if (!next.has(id)) remove.push(id);
  return { next, add, update, remove };
}

// A missing file's own path, from its ghost card's id (what an upstream entry would name).
const entryOf = (id) => (id.startsWith(GHOST) ? id.slice(GHOST.length) : id);

// Python leaves edge ids out of the payload: the id is the JSON of [from, to] (edge_id).
const withId = (e) => (e.id ? e : { ...e, id: JSON.stringify([e.from, e.to]) });

// Where a folder too big to read when fitted opens: the top of its learning path (the roots)
// at a readable scale instead of a cloud of dots. Worked out from the card positions alone,
// before vis-network has built anything. null: the whole folder fits readably (or is small).
function topView(items, box) {
  if (items.length <= SMALL) return null;
  const xs = items.map((n) => n.x);
  const ys = items.map((n) => n.y);
  const width = Math.max(...xs) - Math.min(...xs) + CARD.w;
  const height = Math.max(...ys) - Math.min(...ys) + CARD.h;
  if (Math.min(box.clientWidth / width, box.clientHeight / height) >= READABLE) return null;
  // Cards come in learning-path order (ghosts last): the first one sits on the top row.
  const top = items[0].y;
  const row = items.filter((n) => n.y === top && n.group !== "dangling").map((n) => n.x);
  const x = row.reduce((a, b) => a + b, 0) / row.length;
  const half = box.clientHeight / 2 / READABLE;
  return { position: { x, y: top - 60 + half }, scale: READABLE };
}

// The ids of the cards inside the view, or one card's size outside it.
function nearView(items, view, box) {
  const w = box.clientWidth / 2 / view.scale + CARD.w;
  const h = box.clientHeight / 2 / view.scale + CARD.h;
  const { x, y } = view.position;
  const near = new Set();
  for (const n of items) if (Math.abs(n.x - x) <= w && Math.abs(n.y - y) <= h) near.add(n.id);
  return near;
}

function button(label, testid, title) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.title = title;
  b.dataset.testid = testid;
  b.className = "bh-canvas-button";
  return b;
}

function render({ model, el }) {
  const times = { start: performance.now() };
  const bar = document.createElement("div");
  bar.className = "bh-canvas-bar";
  const fitButton = button("Fit all", "canvas-fit", "Show every card");
  const linkButton = button(
    "Link",
    "canvas-link",
    "Link mode: drag from an upstream card to the card that builds on it",
  );
  linkButton.setAttribute("aria-pressed", "false");
  const unlinkButton = button("Unlink", "canvas-unlink", "Remove the selected link (or press Delete)");
  unlinkButton.disabled = true;
  const hint = document.createElement("span");
  hint.className = "bh-canvas-hint";
  hint.textContent = "Click the canvas (or hold Ctrl) to zoom with the wheel";
  bar.append(fitButton, linkButton, unlinkButton, hint);

  const box = document.createElement("div");
  box.className = "bh-canvas";
  box.dataset.testid = "canvas";
  box.tabIndex = 0;
  box.setAttribute("role", "application");
  box.setAttribute("aria-label", "Canvas of the study folder");
  box.style.height = model.get("height") || "640px";
  const message = document.createElement("div");
  message.className = "bh-canvas-message";
  message.dataset.testid = "canvas-message";
  message.setAttribute("role", "status");
  message.setAttribute("aria-live", "polite");
  const status = document.createElement("div");
  status.className = "bh-canvas-status";
  status.dataset.testid = "canvas-status";
  el.append(bar, box, message, status);

  let shownNodes = new Map();
  let shownEdges = new Map();
  let pins = model.get("positions") || {};
  const pinned = (item) => {
    const p = pins[item.id];
    return p ? { ...item, x: p[0], y: p[1] } : item;
  };

  // A fresh page: fill the DataSets before the network exists, so vis-network takes all
  // cards in one setData (one label measurement, one draw) instead of an add event each
  // for nodes and edges, each drawing the whole canvas synchronously.
  const first = diff(shownNodes, model.get("nodes") || [], true);
  const firstEdges = diff(shownEdges, (model.get("edges") || []).map(withId), false);
  shownNodes = first.next;
  shownEdges = firstEdges.next;
  const allNodes = first.add.map(pinned);
  // A big folder opens on the top of its learning path: only the cards in (or next to) that
  // view are built for the first picture; the rest follow once it is on screen, so vis-network
  // does not build and measure a thousand cards nobody sees yet before drawing anything.
  const startView = topView(allNodes, box);
  let rest = null;
  let firstNodes = allNodes;
  let firstLinks = firstEdges.add;
  if (startView && allNodes.length > PROGRESSIVE) {
    const near = nearView(allNodes, startView, box);
    const inNear = (e) => near.has(e.from) && near.has(e.to);
    firstNodes = allNodes.filter((n) => near.has(n.id));
    firstLinks = firstEdges.add.filter(inNear);
    rest = {
      nodes: allNodes.filter((n) => !near.has(n.id)),
      edges: firstEdges.add.filter((e) => !inNear(e)),
    };
  }
  const nodes = new vis.DataSet(firstNodes);
  const edges = new vis.DataSet(firstLinks);
  times.data = performance.now();

  let linking = false;
  const report = (name, from, to) => {
    const n = ((model.get(name) || {}).n || 0) + 1;
    model.set(name, { from: entryOf(from), to: entryOf(to), n });
    model.save_changes();
  };
  const withHandlers = (options) => ({
    ...options,
    manipulation: {
      enabled: false,
      // Link mode: the drag is reported, never drawn here; the edge appears when Python has
      // written the upstream entry and syncs.
      addEdge: (data, callback) => {
        callback(null);
        report("link", data.from, data.to);
        if (linking) network.addEdgeMode();
      },
    },
  });
  const network = new vis.Network(box, { nodes, edges }, withHandlers(model.get("options") || {}));
  const emitter = network.body.emitter;
  times.network = performance.now();

  const count = () => {
    box.dataset.nodeCount = String(nodes.length);
    box.dataset.edgeCount = String(edges.length);
  };

  // New cards, for bringing them into view (ghosts excepted: they sit above their holder).
  const applyNodes = () => {
    pins = model.get("positions") || {};
    const d = diff(shownNodes, model.get("nodes") || [], true);
    if (d.remove.length) nodes.remove(d.remove);
    if (d.add.length) nodes.add(d.add.map(pinned));
    if (d.update.length) nodes.update(d.update);
    shownNodes = d.next;
    return d.add.filter((n) => !n.id.startsWith(GHOST)).map((n) => n.id);
  };

  const applyEdges = () => {
    const d = diff(shownEdges, (model.get("edges") || []).map(withId), false);
    if (d.remove.length) edges.remove(d.remove);
    if (d.add.length) edges.add(d.add);
    if (d.update.length) edges.update(d.update);
    shownEdges = d.next;
  };

  const applyPositions = () => {
    const next = model.get("positions") || {};
    const moves = [];
    for (const [id, p] of Object.entries(next)) {
      const old = pins[id];
      if ((!old || old[0] !== p[0] || old[1] !== p[1]) && nodes.get(id)) {
        moves.push({ id, x: p[0], y: p[1] });
      }
    }
    pins = next;
    if (moves.length) nodes.update(moves);
  };

  // What is highlighted: the multi-selection (shift-click), else the selected card.
  const applySelected = () => {
    const id = model.get("selected") || "";
    const many = (model.get("selection") || []).filter((p) => nodes.get(p));
    const ids = many.length ? many : id && nodes.get(id) ? [id] : [];
    network.setSelection({ nodes: ids, edges: [] }, { unselectAll: true, highlightEdges: false });
    box.dataset.selected = id;
    box.dataset.selection = JSON.stringify(many);
    unlinkButton.disabled = true;
  };

  const paintStatus = () => {
    status.textContent = model.get("status") || "";
    status.hidden = !status.textContent;
  };
  const paintMessage = () => {
    message.textContent = model.get("message") || "";
    message.hidden = !message.textContent;
  };

  // Is the card drawn inside the visible part of the canvas (its centre, with a margin)?
  const inView = (id) => {
    const p = network.canvasToDOM(network.getPosition(id));
    const m = 30;
    return p.x > m && p.y > m && p.x < box.clientWidth - m && p.y < box.clientHeight - m;
  };
  const bringIntoView = (id) => {
    if (!nodes.get(id) || inView(id)) return;
    const scale = Math.max(network.getScale(), READABLE / 2);
    network.moveTo({ position: network.getPosition(id), scale, animation: false });
  };

  // Python's choice of card (`focus`): select it and bring it into view. It may name a card
  // that arrives with the same sync; then it waits for it.
  let wantFocus = "";
  const applyFocus = () => {
    if (!wantFocus || !nodes.get(wantFocus)) return;
    const id = wantFocus;
    wantFocus = "";
    applySelected();
    network.selectNodes([id], false);
    bringIntoView(id);
  };

  // Every card in view with a thin margin (vis-network's own fit leaves 10% of the pane
  // empty, which costs a small folder its readable size). No zooming in past 1.2.
  const FIT_MARGIN = 12;
  const fitAll = () => {
    if (!nodes.length) return;
    emitter.emit("_resizeNodes"); // cards added since the last draw get their size
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const id of nodes.getIds()) {
      const b = network.getBoundingBox(id);
      if (!b) continue;
      left = Math.min(left, b.left);
      top = Math.min(top, b.top);
      right = Math.max(right, b.right);
      bottom = Math.max(bottom, b.bottom);
    }
    const w = Math.max(box.clientWidth - 2 * FIT_MARGIN, 1);
    const h = Math.max(box.clientHeight - 2 * FIT_MARGIN, 1);
    const scale = Math.min(1.2, w / Math.max(right - left, 1), h / Math.max(bottom - top, 1));
    const position = { x: (left + right) / 2, y: (top + bottom) / 2 };
    network.moveTo({ position, scale, animation: false });
  };

  // Open on the whole folder, or on the top of a big one (topView).
  const openView = () => {
    if (!nodes.length) return;
    if (startView) network.moveTo({ ...startView, animation: false });
    else fitAll();
  };

  // The cards held back from the first picture; any update or focus brings them in first.
  const finishLoading = () => {
    if (!rest) return;
    const held = rest;
    rest = null;
    emitter.emit("_blockRedraw");
    try {
      nodes.add(held.nodes);
      edges.add(held.edges);
      count();
      applySelected();
      applyFocus();
    } finally {
      emitter.emit("_allowRedraw");
      network.redraw();
    }
    times.all = performance.now();
  };

  wantFocus = model.get("focus") || "";
  applySelected();
  paintStatus();
  paintMessage();
  count();
  openView();
  applyFocus();
  // setData asked for one draw on the next frame; the view and selection set since then only
  // ask again (no synchronous draw), so the first picture is drawn once.
  times.ready = performance.now();
  requestAnimationFrame(() => {
    times.drawn = performance.now();
    if (rest) setTimeout(finishLoading, 0);
    else times.all = times.drawn;
  });
  // Bench hook: when this view started, filled its data, built the network, was drawn and
  // had every card in.
  box.bhTimes = times;

  // --- reports: click, double-click, shift-click, drags, links -----------------------------

  const pathOf = (id) => {
    const item = nodes.get(id);
    // A ghost card has no file: it stands for the note that lists it, where a relink is offered.
    return item ? item.path || item.id : "";
  };

  network.on("click", (params) => {
    const shift = params.event && params.event.srcEvent && params.event.srcEvent.shiftKey;
    if (params.nodes.length === 1) {
      const path = pathOf(params.nodes[0]);
      if (!path) return;
      let many = [];
      if (shift) {
        const had = model.get("selection") || [];
        const start = had.length ? had : [model.get("selected")].filter((p) => p && nodes.get(p));
        many = start.includes(path) ? start.filter((p) => p !== path) : [...start, path];
      }
      model.set("selection", many.length ? many : [path]);
      model.set("selected", path);
      model.save_changes();
      applySelected();
      return;
    }
    if (params.edges.length === 1) {
      // A link is selected: Delete or Unlink removes it.
      unlinkButton.disabled = false;
      box.dataset.selectedEdge = params.edges[0];
      return;
    }
    // A click on empty canvas: the card Card Detail shows stays highlighted.
    if ((model.get("selection") || []).length > 1) {
      model.set("selection", [model.get("selected")].filter(Boolean));
      model.save_changes();
    }
    applySelected();
  });

  network.on("doubleClick", (params) => {
    if (params.nodes.length !== 1) return;
    const path = pathOf(params.nodes[0]);
    if (!path) return;
    // A counter, so double-clicking the same card twice opens it twice.
    const n = ((model.get("opened") || {}).n || 0) + 1;
    model.set("selected", path);
    model.set("selection", [path]);
    model.set("opened", { path, n });
    model.save_changes();
    applySelected();
  });

  const unlinkSelected = () => {
    const edge = network.getSelectedEdges()[0];
    if (!edge || !edges.get(edge)) return;
    const { from, to } = edges.get(edge);
    report("unlink", from, to);
  };
  unlinkButton.addEventListener("click", unlinkSelected);

  const setLinking = (on) => {
    linking = on;
    linkButton.setAttribute("aria-pressed", on ? "true" : "false");
    linkButton.classList.toggle("bh-on", on);
    box.dataset.mode = on ? "link" : "";
    if (on) network.addEdgeMode();
    else network.disableEditMode();
  };
  linkButton.addEventListener("click", () => setLinking(!linking));
  fitButton.addEventListener("click", () => {
    finishLoading();
    fitAll();
  });

  box.addEventListener("keydown", (event) => {
    if ((event.key === "Delete" || event.key === "Backspace") && !unlinkButton.disabled) {
      event.preventDefault();
      unlinkSelected();
    } else if (event.key === "Escape" && linking) {
      setLinking(false);
    }
  });

  // Clicking the canvas gives it the keyboard (Delete) and the wheel (zoom).
  box.addEventListener("pointerdown", () => box.focus({ preventScroll: true }));

  // The wheel zooms only when the canvas has focus (clicked) or with Ctrl/⌘ held (a trackpad
  // pinch sends Ctrl+wheel); otherwise it scrolls the page as anywhere else.
  const interaction = network.interactionHandler;
  box.addEventListener(
    "wheel",
    (event) => {
      // :focus-within, not document.activeElement: inside marimo the view is in a shadow root.
      const zoom = event.ctrlKey || event.metaKey || box.matches(":focus-within");
      if (interaction && interaction.options) interaction.options.zoomView = zoom;
    },
    { capture: true, passive: true },
  );

  // vis-network hides a tooltip on the next mouse move over the canvas: a pointer that leaves
  // in one jump would leave it standing (and a pending one would still open).
  box.addEventListener("pointerleave", () => {
    if (!interaction) return;
    clearTimeout(interaction.popupTimer);
    interaction.popupTimer = undefined;
    if (interaction.popup && !interaction.popup.hidden) {
      interaction.popupObj = undefined;
      interaction.popup.hide();
    }
  });

  network.on("dragEnd", (params) => {
    if (!params.nodes.length || linking) return;
    const at = network.getPositions(params.nodes);
    const next = { ...(model.get("positions") || {}) };
    for (const id of params.nodes) next[id] = [Math.round(at[id].x), Math.round(at[id].y)];
    pins = next;
    model.set("positions", next);
    model.save_changes();
  });

  // Test and accessibility hooks: where a card is drawn, in CSS pixels of this element.
  box.bhCardCenter = (id) => {
    if (!nodes.get(id)) return null;
    const p = network.canvasToDOM(network.getPosition(id));
    return { x: p.x, y: p.y };
  };
  box.bhPosition = (id) => (nodes.get(id) ? network.getPosition(id) : null);
  box.bhFocus = (id, scale = 1) => {
    if (nodes.get(id)) network.focus(id, { scale, animation: false });
  };
  box.bhScale = () => network.getScale();
  // vis-network's edit mode ("addEdge" while Link mode waits for a drag), for tests.
  box.bhEditMode = () => (network.manipulation && network.manipulation.inMode) || "";
  box.bhOpened = () => (model.get("opened") || {}).n || 0;
  // A card's label and its box in CSS pixels of this element (for readability checks).
  box.bhCard = (id) => {
    const node = network.body.nodes[id];
    if (!node) return null;
    const b = network.getBoundingBox(id);
    const tl = network.canvasToDOM({ x: b.left, y: b.top });
    const br = network.canvasToDOM({ x: b.right, y: b.bottom });
    const font = node.options.font.size * network.getScale();
    // The lines vis-network drew (it would add some if a line did not fit the card).
    const drawnLines = node.labelModule.lineCount;
    const label = node.options.label;
    return { label, left: tl.x, top: tl.y, right: br.x, bottom: br.y, font, drawnLines };
  };
  box.bhCards = () => Object.fromEntries(nodes.getIds().map((id) => [id, box.bhCard(id)]));
  // A point on a link, off every card, where a click selects the link.
  box.bhEdgePoint = (id) => {
    const edge = network.body.edges[id];
    if (!edge) return null;
    const a = network.canvasToDOM({ x: edge.from.x, y: edge.from.y });
    const b = network.canvasToDOM({ x: edge.to.x, y: edge.to.y });
    for (let k = 1; k < 20; k += 1) {
      const t = k % 2 ? 0.5 + k / 40 : 0.5 - k / 40;
      const p = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
      if (network.getNodeAt(p) === undefined && network.getEdgeAt(p) === id) return p;
    }
    return null;
  };

  // One sync brings nodes and edges in one message: apply both in one step. vis-network
  // redraws synchronously on every DataSet change while physics is off, so redraws are held
  // (its own _blockRedraw/_allowRedraw events) until both are in, then drawn once.
  let pending = null;
  const flush = () => {
    const { nodesChanged, edgesChanged } = pending;
    pending = null;
    const t = performance.now();
    let added = [];
    finishLoading();
    emitter.emit("_blockRedraw");
    try {
      if (nodesChanged) added = applyNodes();
      if (edgesChanged) applyEdges();
      count();
      if (nodesChanged) applySelected();
      // A grown card that lands outside the view is brought into it; Python's focus wins.
      if (added.length && !wantFocus) bringIntoView(added[added.length - 1]);
      applyFocus();
      // vis-network leaves its edit modes on any data change: stay in Link mode.
      if (linking) network.addEdgeMode();
    } finally {
      emitter.emit("_allowRedraw");
      network.redraw();
    }
    // Bench hook: when the last update arrived and how long applying it took.
    box.bhLastNodes = { at: t, ms: performance.now() - t };
  };
  const schedule = (what) => {
    if (!pending) {
      pending = { nodesChanged: false, edgesChanged: false };
      queueMicrotask(flush);
    }
    pending[what] = true;
  };
  const onNodes = () => schedule("nodesChanged");
  const onEdges = () => schedule("edgesChanged");
  const onOptions = () => network.setOptions(withHandlers(model.get("options") || {}));
  const onHeight = () => {
    box.style.height = model.get("height") || "640px";
  };
  const onFocus = () => {
    wantFocus = model.get("focus") || "";
    if (pending) return; // applied after the update that may bring the card
    finishLoading();
    applyFocus();
  };
  const handlers = {
    "change:nodes": onNodes,
    "change:edges": onEdges,
    "change:positions": applyPositions,
    "change:selected": applySelected,
    "change:selection": applySelected,
    "change:focus": onFocus,
    "change:status": paintStatus,
    "change:message": paintMessage,
    "change:options": onOptions,
    "change:height": onHeight,
  };
  for (const [name, fn] of Object.entries(handlers)) model.on(name, fn);

  return () => {
    for (const [name, fn] of Object.entries(handlers)) model.off(name, fn);
    network.destroy();
  };
}

export default { render };
