// The canvas view. `vis` (vis-network from the pyvis package) is defined above this file by
// basehalf_widgets/canvas.py. Labels are drawn on a <canvas>; tooltips are plain strings,
// which vis-network 9 inserts with innerText: nothing from a file name or note is parsed as HTML.

// Fields whose change must not move a card the learner has dragged.
const POSITION = ["x", "y"];

function diff(dataset, previous, items, keepPlace) {
  const next = new Map();
  const add = [];
  const update = [];
  for (const item of items) {
    const json = JSON.stringify(item);
    const old = previous.get(item.id);
    next.set(item.id, { json, item });
    if (!old) {
      add.push(item);
      continue;
    }
    if (old.json === json) continue;
    const patch = { ...item };
    // A key the new item no longer has goes back to its default (null resets in vis-network).
    for (const key of Object.keys(old.item)) if (!(key in item)) patch[key] = null;
    if (keepPlace && old.item.x === item.x && old.item.y === item.y) {
      for (const key of POSITION) delete patch[key];
    }
    update.push(patch);
  }
  const remove = [];
  for (const id of previous.keys()) if (!next.has(id)) remove.push(id);
  return { next, add, update, remove };
}

function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "bh-canvas";
  box.dataset.testid = "canvas";
  box.setAttribute("role", "application");
  box.setAttribute("aria-label", "Canvas of the study folder");
  box.style.height = model.get("height") || "640px";
  const status = document.createElement("div");
  status.className = "bh-canvas-status";
  status.dataset.testid = "canvas-status";
  el.append(box, status);

  const nodes = new vis.DataSet();
  const edges = new vis.DataSet();
  const network = new vis.Network(box, { nodes, edges }, model.get("options") || {});
  let shownNodes = new Map();
  let shownEdges = new Map();
  let pins = {};

  const count = () => {
    box.dataset.nodeCount = String(nodes.length);
    box.dataset.edgeCount = String(edges.length);
  };

  const pinned = (item) => {
    const p = pins[item.id];
    return p ? { ...item, x: p[0], y: p[1] } : item;
  };

  const applyNodes = () => {
    pins = model.get("positions") || {};
    const d = diff(nodes, shownNodes, model.get("nodes") || [], true);
    if (d.remove.length) nodes.remove(d.remove);
    if (d.add.length) nodes.add(d.add.map(pinned));
    if (d.update.length) nodes.update(d.update);
    shownNodes = d.next;
  };

  // Python leaves edge ids out of the payload: the id is the JSON of [from, to] (edge_id).
  const withId = (e) => (e.id ? e : { ...e, id: JSON.stringify([e.from, e.to]) });

  const applyEdges = () => {
    const d = diff(edges, shownEdges, (model.get("edges") || []).map(withId), false);
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

  const applySelected = () => {
    const id = model.get("selected");
    if (id && nodes.get(id)) network.selectNodes([id], false);
    else network.unselectAll();
    box.dataset.selected = id || "";
  };

  const paintStatus = () => {
    status.textContent = model.get("status") || "";
    status.hidden = !status.textContent;
  };

  applyNodes();
  applyEdges();
  applySelected();
  paintStatus();
  count();
  // Open on the whole folder if it can be read at that size; a big folder opens on the top
  // of its learning path (the roots) at a readable scale instead of a cloud of dots.
  const READABLE = 0.55;
  if (nodes.length) {
    network.fit({ animation: false });
    if (network.getScale() < READABLE) {
      // Cards come in learning-path order (ghosts last): the first one sits on the top row.
      const items = nodes.get();
      const top = items[0].y;
      const row = items.filter((n) => n.y === top && n.group !== "dangling").map((n) => n.x);
      const x = row.reduce((a, b) => a + b, 0) / row.length;
      const half = box.clientHeight / 2 / READABLE;
      network.moveTo({ position: { x, y: top - 60 + half }, scale: READABLE, animation: false });
    }
  }

  network.on("click", (params) => {
    if (params.nodes.length !== 1) return;
    const item = nodes.get(params.nodes[0]);
    if (!item) return;
    // A ghost card has no file: it opens the note that lists it, where a relink is offered.
    const path = item.path || item.id;
    box.dataset.selected = path;
    model.set("selected", path);
    model.save_changes();
  });

  network.on("dragEnd", (params) => {
    if (!params.nodes.length) return;
    const at = network.getPositions(params.nodes);
    const next = { ...(model.get("positions") || {}) };
    for (const id of params.nodes) next[id] = [Math.round(at[id].x), Math.round(at[id].y)];
    pins = next;
    model.set("positions", next);
    model.save_changes();
  });

  // Test and accessibility hook: where a card is drawn, in CSS pixels of this element.
  box.bhCardCenter = (id) => {
    if (!nodes.get(id)) return null;
    const p = network.canvasToDOM(network.getPosition(id));
    return { x: p.x, y: p.y };
  };
  box.bhPosition = (id) => (nodes.get(id) ? network.getPosition(id) : null);
  box.bhFocus = (id, scale = 1) => {
    if (nodes.get(id)) network.focus(id, { scale, animation: false });
  };

  // One sync brings nodes and edges in one message: apply both in one step. vis-network
  // redraws synchronously on every DataSet change while physics is off, so redraws are held
  // (its own _blockRedraw/_allowRedraw events) until both are in, then drawn once.
  let pending = null;
  const flush = () => {
    const { nodesChanged, edgesChanged } = pending;
    pending = null;
    const t = performance.now();
    const emitter = network.body && network.body.emitter;
    if (emitter) emitter.emit("_blockRedraw");
    try {
      if (nodesChanged) applyNodes();
      if (edgesChanged) applyEdges();
    } finally {
      if (emitter) emitter.emit("_allowRedraw");
      network.redraw();
    }
    count();
    if (nodesChanged) applySelected();
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
  const onOptions = () => network.setOptions(model.get("options") || {});
  const onHeight = () => {
    box.style.height = model.get("height") || "640px";
  };
  model.on("change:nodes", onNodes);
  model.on("change:edges", onEdges);
  model.on("change:positions", applyPositions);
  // Python chose a card (a link in Card Detail, the learning path): select it, and bring it
  // into view if it is off screen, keeping the zoom.
  const onSelected = () => {
    applySelected();
    const id = model.get("selected");
    if (!id || !nodes.get(id)) return;
    const p = network.canvasToDOM(network.getPosition(id));
    if (p.x < 0 || p.y < 0 || p.x > box.clientWidth || p.y > box.clientHeight) {
      network.moveTo({ position: network.getPosition(id), animation: false });
    }
  };
  model.on("change:selected", onSelected);
  model.on("change:status", paintStatus);
  model.on("change:options", onOptions);
  model.on("change:height", onHeight);

  return () => {
    model.off("change:nodes", onNodes);
    model.off("change:edges", onEdges);
    model.off("change:positions", applyPositions);
    model.off("change:selected", onSelected);
    model.off("change:status", paintStatus);
    model.off("change:options", onOptions);
    model.off("change:height", onHeight);
    network.destroy();
  };
}

export default { render };
