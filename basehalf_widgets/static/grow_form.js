// Text arrives through textContent / value only: nothing from a PDF is parsed as HTML.
function render({ model, el }) {
  const box = document.createElement("div");
  box.className = "bh-grow";
  const quote = document.createElement("blockquote");
  quote.className = "bh-grow-passage";
  quote.dataset.testid = "passage";
  const row = document.createElement("div");
  row.className = "bh-grow-row";
  const title = document.createElement("input");
  title.type = "text";
  title.placeholder = "Title of the new note";
  title.dataset.testid = "branch-title";
  title.setAttribute("aria-label", "Branch title");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Grow branch";
  button.dataset.testid = "grow-branch";
  const status = document.createElement("div");
  status.className = "bh-grow-status";
  status.dataset.testid = "grow-status";
  row.append(title, button);
  box.append(quote, row, status);
  el.append(box);

  const paint = () => {
    const text = model.get("passage");
    const page = model.get("page");
    quote.textContent = text ? `${text}${page ? ` (p. ${page})` : ""}` : "Select a passage in the reader to grow a branch from it.";
    quote.classList.toggle("bh-empty", !text);
    if (document.activeElement !== title) title.value = model.get("title");
    button.disabled = !text;
    status.textContent = model.get("status");
  };
  title.addEventListener("input", () => {
    model.set("title", title.value);
    model.save_changes();
  });
  // The request carries what the learner sees now: the box's title and the passage shown.
  // (The synced title may still hold a suggestion on its way here, or be a keystroke behind.)
  const grow = () => {
    if (button.disabled) return;
    const n = (model.get("request").n || 0) + 1;
    model.set("title", title.value);
    model.set("request", { n, title: title.value, passage: model.get("passage"), page: model.get("page") });
    model.save_changes();
  };
  button.addEventListener("click", grow);
  title.addEventListener("keydown", (e) => {
    if (e.key === "Enter") grow();
  });
  for (const name of ["passage", "page", "title", "status"]) model.on(`change:${name}`, paint);
  paint();
}

export default { render };
