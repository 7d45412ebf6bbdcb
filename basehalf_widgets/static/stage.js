// Puts the stage ("reader" or "detail") on <html data-bh-stage>, where the workbench's
// stylesheet reads it. Nothing else: no text from Python is ever inserted into the page.
function render({ model, el }) {
  const root = document.documentElement;
  const apply = () => {
    root.dataset.bhStage = model.get("shown") === "reader" ? "reader" : "detail";
  };
  el.dataset.testid = "stage";
  model.on("change:shown", apply);
  apply();
  return () => model.off("change:shown", apply);
}

export default { render };
