// The note editor. Note text only ever goes through .value / textContent; the preview is HTML
// made by basehalf's one sanitiser on the Python side (no raw markup, no script, no fetch).
const PUSH_MS = 250;
// This tab's unsaved text, per folder and note: a reload (or a folder switch) starts a new
// Python session that knows nothing of it, so the browser keeps it until it is saved. The
// key is KEPT + folder + "\u0000" + path (stage.js reads it too, to reopen the note).
const KEPT = "bh-unsaved:";

// The doc each editor (its `doc.editor` id) last loaded on this page, as `doc.n`: a view
// mounted again (Card Detail drawn anew) must not take Python's copy of a note over what was
// typed since. A reload empties it.
const loadedHere = new Map();

function keptKeys() {
  try {
    return Object.keys(sessionStorage).filter((k) => k.startsWith(KEPT));
  } catch (e) {
    return [];
  }
}

function el(tag, cls, attrs = {}) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function render({ model, el: root }) {
  const box = el("div", "bh-ed");
  const row = el("div", "bh-ed-row");
  const title = el("input", "bh-ed-title", { type: "text", "aria-label": "Title", "data-testid": "note-title" });
  const save = el("button", "bh-ed-save", { type: "button", "data-testid": "note-save" });
  save.textContent = "Save";
  const dirty = el("span", "bh-ed-dirty", { "data-testid": "note-dirty" });
  row.append(title, dirty, save);
  const readonly = el("div", "bh-ed-readonly", { "data-testid": "note-readonly" });
  const help = el("div", "bh-ed-help");
  const text = el("textarea", "bh-ed-text", {
    "data-testid": "note-editor", "aria-label": "Note text (Markdown)", spellcheck: "true",
  });
  const status = el("div", "bh-ed-status", { "data-testid": "note-status", role: "status" });
  const conflict = el("div", "bh-ed-conflict", { "data-testid": "save-conflict" });
  const preview = el("div", "bh-ed-preview bh-doc", { "data-testid": "note-preview" });
  // "card-body": the rendered note, the hook Card Detail's tests have always used.
  const body = el("div", "", { "data-testid": "card-body" });
  body.append(preview);
  box.append(row, readonly, help, text, status, conflict, body);
  root.append(box);

  let timer = null;
  let shownPath = "";
  let shownSaved = ""; // the body on disk that the text shown was typed on
  let shownTitle = "";
  const keptKey = (path) => `${KEPT}${model.get("folder")}\u0000${path}`;
  const keep = (path, entry) => {
    try {
      if (entry) sessionStorage.setItem(keptKey(path), JSON.stringify(entry));
      else sessionStorage.removeItem(keptKey(path));
    } catch (e) {
      // Storage full or refused: the warning before leaving still stands.
    }
  };
  const kept = (path) => {
    try {
      return JSON.parse(sessionStorage.getItem(keptKey(path)) || "null");
    } catch (e) {
      return null;
    }
  };
  const remember = () => {
    if (!shownPath || text.readOnly) return;
    const same = text.value === shownSaved && title.value === shownTitle;
    const entry = { saved: shownSaved, text: text.value, title: title.value, t: Date.now() };
    keep(shownPath, same ? null : entry);
  };
  // What was typed goes to Python as ONE value naming its note, so text typed just before a
  // switch can never be taken for the next note's, and Save always saves what is shown.
  const push = (save = false) => {
    clearTimeout(timer);
    timer = null;
    if (!shownPath) return;
    remember();
    model.set("typed", { path: shownPath, text: text.value, title: title.value, save, n: Date.now() });
    model.save_changes();
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(push, PUSH_MS);
    dirty.textContent = "unsaved";
  };
  const requestSave = () => {
    if (model.get("readonly")) return;
    push(true);
  };
  text.addEventListener("input", later);
  title.addEventListener("input", later);
  save.addEventListener("click", requestSave);
  box.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && (e.key === "s" || e.key === "S")) {
      e.preventDefault();
      e.stopPropagation();
      requestSave();
    }
  });

  const choose = (choice) => {
    model.set("resolve", { choice, n: Date.now() });
    model.save_changes();
  };
  const paintConflict = () => {
    const c = model.get("conflict") || {};
    conflict.replaceChildren();
    conflict.hidden = !c.theirs && c.theirs !== "";
    if (conflict.hidden) return;
    const head = el("p");
    const first = Math.min(...(c.mine_changed || []), ...(c.theirs_changed || []));
    head.textContent = c.gone
      ? "This note is no longer in the folder (renamed or deleted outside the app). Nothing was saved, nothing is lost: copy your words to a new file."
      : "This note changed on disk since you opened it. Nothing was saved."
        + (Number.isFinite(first) ? ` They differ from line ${first + 1} (marked).` : "") + " Choose:";
    const sides = el("div", "bh-ed-sides");
    const boxes = [];
    const shown = [["Yours (not saved)", c.mine, "conflict-mine", c.mine_changed]];
    if (!c.gone) shown.push(["On disk now", c.theirs, "conflict-theirs", c.theirs_changed]);
    for (const [label, body, id, changed] of shown) {
      const col = el("div");
      const h = el("b");
      h.textContent = label;
      const pre = el("pre", "", { "data-testid": id });
      // One line per span: the lines the other side lacks are marked, and each box opens at
      // its first difference (two boxes that start alike looked like the same text).
      const marked = new Set(changed || []);
      (body || "").split("\n").forEach((line, i) => {
        const span = el("span", marked.has(i) ? "bh-ed-changed" : "");
        if (marked.has(i)) span.dataset.changed = "1";
        span.textContent = line;
        pre.append(span);
      });
      col.append(h, pre);
      sides.append(col);
      boxes.push(pre);
    }
    const buttons = el("div");
    const choices = c.gone
      ? [["Copy mine to a new file", "copy"]]
      : [["Keep mine", "keep"], ["Take theirs", "take"], ["Copy mine to a new file", "copy"]];
    for (const [label, choice] of choices) {
      const b = el("button", "", { type: "button", "data-testid": `conflict-${choice}` });
      b.textContent = label;
      b.addEventListener("click", () => choose(choice));
      buttons.append(b);
    }
    conflict.append(head, sides, buttons);
    requestAnimationFrame(() => {
      for (const pre of boxes) {
        const mark = pre.querySelector("[data-changed]");
        if (mark) pre.scrollTop = Math.max(0, mark.offsetTop - pre.offsetTop - 24);
      }
    });
  };
  const load = () => {
    // Python replaced the text (a note opened, theirs taken, a save rewrote the heading).
    // One trait carries it all: the keys of one update can arrive in any order.
    // Words still waiting to be sent belong to the note they were typed into: send first.
    if (timer !== null) push();
    const doc = model.get("doc") || {};
    text.value = doc.text || "";
    title.value = doc.title || "";
    shownPath = doc.path || "";
    shownSaved = typeof doc.saved === "string" ? doc.saved : text.value;
    shownTitle = title.value;
    text.dataset.path = shownPath;
    if (!shownPath || doc.readonly) return;
    const again = loadedHere.get(doc.editor) === doc.n;
    loadedHere.set(doc.editor, doc.n);
    if (again) {
      // This view, mounted again: the words typed since are this tab's, and Python has them.
      const since = kept(shownPath);
      if (since) {
        text.value = since.text;
        title.value = since.title;
        dirty.textContent = "unsaved";
      }
      return;
    }
    if (!doc.fresh) {
      keep(shownPath, null); // saved, or the learner chose theirs / a copy: nothing pending
      return;
    }
    // Opened: text this tab kept through a reload comes back, and goes to Python as a draft
    // ("restored": the body it was typed on, so a change on disk since shows both versions).
    const back = kept(shownPath);
    if (back && (back.text !== text.value || back.title !== title.value)) {
      text.value = back.text;
      title.value = back.title;
      dirty.textContent = "unsaved";
      model.set("typed", {
        path: shownPath, text: back.text, title: back.title, save: false, restored: back.saved, n: Date.now(),
      });
      model.save_changes();
    }
  };
  const paint = () => {
    const ro = model.get("readonly");
    readonly.hidden = !ro;
    readonly.textContent = ro ? `Read-only: ${ro}` : "";
    text.readOnly = !!ro;
    title.readOnly = !!ro;
    save.disabled = !!ro;
    help.textContent = model.get("kind") === "practice"
      ? "Practice card: numbered questions, each with an indented `Answer:` line (kind: practice is in the frontmatter)."
      : "";
    help.hidden = !help.textContent;
    if (timer === null) dirty.textContent = model.get("dirty") ? "unsaved" : "";
    status.textContent = model.get("status");
    preview.innerHTML = model.get("preview");
    box.dataset.path = model.get("path");
  };
  preview.addEventListener("click", (e) => {
    const a = e.target.closest ? e.target.closest("a") : null;
    if (!a) return;
    const href = a.getAttribute("href") || "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("//")) {
      a.target = "_blank";
      a.rel = "noopener noreferrer";
      return;
    }
    // A link to a file of the folder (a Source line): the app opens it, the tab stays.
    e.preventDefault();
    model.set("follow", { href, n: Date.now() });
    model.save_changes();
  });
  // Closing the tab would lose what this tab still keeps unsaved: the browser asks first.
  const warn = (e) => {
    if (timer === null && keptKeys().length === 0) return;
    e.preventDefault();
    e.returnValue = "";
  };
  const flush = () => { if (timer !== null) push(); };
  window.addEventListener("beforeunload", warn);
  window.addEventListener("pagehide", flush);
  model.on("change:doc", () => { load(); paint(); });
  for (const name of ["readonly", "dirty", "status", "preview", "kind", "path"]) model.on(`change:${name}`, paint);
  model.on("change:conflict", paintConflict);
  load();
  paint();
  paintConflict();
  return () => {
    window.removeEventListener("beforeunload", warn);
    window.removeEventListener("pagehide", flush);
    if (timer !== null) push();
  };
}

export default { render };
