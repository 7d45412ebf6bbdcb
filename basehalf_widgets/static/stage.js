// Puts the stage ("reader" or "detail") on <html data-bh-stage>, where the workbench's
// stylesheet reads it, and reports the width of the pane it sits in (the reader's) and the
// screen's pixel ratio. No text from Python is ever inserted into the page.
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
  return () => {
    resize.disconnect();
    model.off("change:shown", apply);
  };
}

export default { render };
