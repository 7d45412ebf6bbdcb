// Puts the stage ("reader" or "detail") on <html data-bh-stage>, where the workbench's
// stylesheet reads it, and reports the width of the pane it sits in (the reader's) and the
// screen's pixel ratio. No text from Python is ever inserted into the page. Being on the page
// for good, it also keeps Tab moving the focus out of the Ask box (see `untrap`).
function render({ model, el }) {
  const root = document.documentElement;
  const apply = () => {
    root.dataset.bhStage = model.get("shown") === "reader" ? "reader" : "detail";
  };
  el.dataset.testid = "stage";
  const measure = () => {
    const width = Math.round(el.getBoundingClientRect().width);
    const ratio = window.devicePixelRatio || 1;
    if (width > 0 && (width !== model.get("width") || ratio !== model.get("ratio"))) {
      model.set("width", width);
      model.set("ratio", ratio);
      model.save_changes();
    }
  };
  const resize = new ResizeObserver(measure);
  resize.observe(el);
  model.on("change:shown", apply);
  apply();
  // The Ask box (marimo's chat, a CodeMirror editor) takes Tab and Shift+Tab to indent: a
  // keyboard trap, with nothing after it (the tabs below) or before it reachable. There they
  // move the focus as everywhere else: the key is kept from the editor, and the browser's own
  // focus move happens (nothing is prevented). A question never needs a tab character.
  const untrap = (e) => {
    if (e.key !== "Tab" || e.ctrlKey || e.altKey || e.metaKey) return;
    const path = e.composedPath();
    const inEditor = path.some((n) => n.classList && n.classList.contains("cm-content"));
    const inAsk = path.some((n) => n.dataset && n.dataset.testid === "ask");
    if (inEditor && inAsk) e.stopImmediatePropagation();
  };
  window.addEventListener("keydown", untrap, true);
  // After a reload (or back in a folder) the note this tab still holds unsaved words for is
  // opened again, so the words are in sight (note_editor.js keeps them; same key format).
  const reopen = () => {
    const prefix = `bh-unsaved:${model.get("folder")}\u0000`;
    if (!model.get("folder")) return;
    let best = null;
    try {
      for (const key of Object.keys(sessionStorage)) {
        if (!key.startsWith(prefix)) continue;
        const t = (JSON.parse(sessionStorage.getItem(key)) || {}).t || 0;
        if (best === null || t > best.t) best = { path: key.slice(prefix.length), t };
      }
    } catch (e) {
      return;
    }
    if (best !== null) {
      model.set("reopen", { path: best.path, n: Date.now() });
      model.save_changes();
    }
  };
  model.on("change:folder", reopen);
  reopen();
  return () => {
    model.off("change:folder", reopen);
    resize.disconnect();
    model.off("change:shown", apply);
    window.removeEventListener("keydown", untrap, true);
  };
}

export default { render };
