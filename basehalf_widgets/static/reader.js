// The reader's browser half: page image, a transparent text layer laid exactly over it,
// highlights, search hits, and the learner's drag selection reported back as word indices.
// Text from the document only ever goes in through textContent: nothing is parsed as HTML.

const ZOOM_STEP = 1.25;
const MIN_ZOOM = 0.25; // render scale limits (pixels per point), as Python clamps them
const MAX_ZOOM = 6;
const DRAG_THRESHOLD = 3; // px of movement before a press becomes a drag
// After a page is painted, wait this long before asking Python for the next one: a learner
// jumping through the book does not make Python render pages nobody looks at (the request
// would hold up the page asked for next); one who reads has it before turning the page.
const AHEAD_DELAY_MS = 150;
const LOW = "~low"; // image key suffix of a quick low-resolution paint
// Sharp pages kept decoded in the browser (the page on screen, the one sent ahead, the ones
// just left), with their words: turning to one of them paints from memory. Bounded, so the
// browser's memory stays flat however many pages are read (Python keeps its own bounded cache).
const PAGE_MEMORY = 4;

function bytesOf(value) {
  if (!value) return null;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (typeof value === "string") {
    const raw = atob(value);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  return null;
}

// Page image bytes to an ImageBitmap, decoded off the main thread. WebCodecs' ImageDecoder
// takes the bytes as they are; createImageBitmap(Blob), the fallback, first stores them in the
// browser process's blob registry and reads them back, two trips through a process that is
// also busy carrying marimo's websocket.
function decodeImage(bytes, type) {
  if (typeof ImageDecoder !== "function") return createImageBitmap(new Blob([bytes], { type }));
  const decoder = new ImageDecoder({ data: bytes, type });
  return decoder
    .decode()
    .then(({ image }) => createImageBitmap(image).finally(() => image.close()))
    .finally(() => decoder.close());
}

function make(tag, cls, attrs = {}) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "testid") node.dataset.testid = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  return node;
}

let measureCtx = null;
function textWidth(text, px) {
  if (!measureCtx) measureCtx = document.createElement("canvas").getContext("2d");
  measureCtx.font = `${px}px sans-serif`;
  return measureCtx.measureText(text).width;
}

// "page@zoom#document" without a quick image's suffix: what a page's sharp image is keyed by.
const sharpKey = (key) => (key.endsWith(LOW) ? key.slice(0, -LOW.length) : key);
// The key of page `page` at the zoom and document of `key`.
const keyFor = (key, page) => (key.includes("@") ? `${page}${sharpKey(key).slice(key.indexOf("@"))}` : "");

function render({ model, el }) {
  // Marks for bench/reader_browser.py's first-page breakdown: mounted, image handed to the
  // decoder.
  performance.mark("bh-mount");
  const root = make("div", "bh-reader", { tabindex: "0", testid: "reader" });
  const bar = make("div", "bh-reader-bar");
  const prev = make("button", "", { type: "button", testid: "prev-page", title: "Previous page (←)", text: "‹" });
  const next = make("button", "", { type: "button", testid: "next-page", title: "Next page (→)", text: "›" });
  const goto = make("input", "bh-goto", { type: "number", min: "1", testid: "page-input", "aria-label": "Go to page" });
  const label = make("span", "bh-page-label", { testid: "page-number" });
  const zoomOut = make("button", "", { type: "button", testid: "zoom-out", title: "Zoom out", text: "−" });
  const zoomLabel = make("span", "bh-zoom-label", { testid: "zoom-label" });
  const zoomIn = make("button", "", { type: "button", testid: "zoom-in", title: "Zoom in", text: "+" });
  const fit = make("button", "", { type: "button", testid: "fit-width", title: "Fit width", text: "Fit width" });
  const search = make("input", "bh-search", { type: "search", placeholder: "Search", testid: "reader-search", "aria-label": "Search the document" });
  const hitPrev = make("button", "", { type: "button", testid: "hit-prev", title: "Previous match", text: "▲" });
  const hitNext = make("button", "", { type: "button", testid: "hit-next", title: "Next match", text: "▼" });
  const hitLabel = make("span", "bh-hit-label", { testid: "hit-label" });
  bar.append(prev, goto, label, next, zoomOut, zoomLabel, zoomIn, fit, search, hitPrev, hitNext, hitLabel);

  const lock = make("form", "bh-password", { testid: "password-form" });
  const secret = make("input", "", { type: "password", testid: "reader-password", "aria-label": "Password", placeholder: "Password", autocomplete: "off" });
  const unlock = make("button", "", { type: "submit", testid: "reader-unlock", text: "Open" });
  lock.append(secret, unlock);

  const message = make("div", "bh-reader-message", { testid: "reader-message", role: "status" });
  const viewport = make("div", "bh-viewport");
  const pageBox = make("div", "bh-page", { testid: "page" });
  // The page is drawn on a canvas from an ImageBitmap decoded off the main thread: no image
  // load event to wait for, and a page decoded ahead is drawn at once. Its hooks: data-page
  // (1-based), data-key (the image drawn), data-width / data-height (its pixels).
  const img = make("canvas", "bh-page-image", { testid: "page-image", role: "img", "aria-label": "Page" });
  const marks = make("div", "bh-marks");
  const layer = make("div", "bh-text", { testid: "text-layer" });
  pageBox.append(img, marks, layer);
  viewport.append(pageBox);
  root.append(bar, lock, message, viewport);
  el.append(root);

  // A performance mark per page painted, for bench/reader_browser.py (only the last is kept).
  // After each paint, ask Python for the page the learner will most likely want next.
  // A page not rendered yet comes as a quick low-resolution image (key ending in "~low"); Python
  // renders the sharp one once told the quick one is painted. Marks: "bh-page-shown" at every
  // paint, "bh-page-sharp" at the sharp one.
  function onDrawn() {
    const shown = Number(img.dataset.page);
    const key = shownKey;
    const sharp = !key.endsWith(LOW);
    imageLoaded = true;
    requestAnimationFrame(() => {
      performance.clearMarks("bh-page-shown");
      performance.mark("bh-page-shown", { detail: shown });
      if (sharp) {
        performance.clearMarks("bh-page-sharp");
        performance.mark("bh-page-sharp", { detail: shown });
      }
      // After the frame, not before it: the report is a request to the kernel, and making it
      // held up the frame. In a task of its own, so the request leaves before the words are
      // laid out in the next.
      setTimeout(() => reportPainted(key), 0);
      // The words are laid out once the image is on screen, not before its first frame.
      setTimeout(() => {
        if (deferredSharp) paintFrom(deferredSharp);
        buildPendingWords();
      }, 0);
    });
  }
  // A quick image on screen and nothing sharper in yet: say so, and Python sends the sharp one.
  function reportPainted(key) {
    if (key.endsWith(LOW) && key === shownKey && model.get("image_key") === key && model.get("painted") !== key) {
      model.set("painted", key);
      model.save_changes();
    }
  }

  // Decoded sharp pages: key -> {key, page, size, words, bitmap (a Promise)}, oldest first.
  const memory = new Map();
  let drawing = ""; // the key being decoded for the canvas: never closed under it
  function remember(key, page, size, bytes) {
    let entry = memory.get(key);
    if (entry) memory.delete(key);
    else {
      const type = model.get("image_type") || "image/jpeg";
      entry = { key, page, size, words: null, bitmap: decodeImage(bytes, type) };
      entry.bitmap.catch(() => memory.delete(key));
    }
    memory.set(key, entry); // most recent last
    for (const [old, gone] of memory) {
      if (memory.size <= PAGE_MEMORY) break;
      if (old === key || old === drawing) continue;
      memory.delete(old);
      gone.bitmap.then((b) => b.close()).catch(() => {});
    }
    root.dataset.kept = String(memory.size); // pages held decoded (tests check the bound)
    return entry;
  }
  function forget() {
    for (const entry of memory.values()) {
      if (entry.key !== drawing) entry.bitmap.then((b) => b.close()).catch(() => {});
    }
    memory.clear();
    root.dataset.kept = "0";
  }

  // After the page asked for is on screen, sharp and with its words, ask Python for the next.
  function planAhead() {
    clearTimeout(aheadTimer);
    const shown = shownPage;
    aheadTimer = setTimeout(() => {
      if (shown !== shownPage || shown !== model.get("page") || root.dataset.busy) return;
      const next = shown + 1;
      if (next < pageCount() && model.get("ahead") !== next) {
        model.set("ahead", next);
        model.save_changes();
      }
    }, AHEAD_DELAY_MS);
  }

  let spans = [];
  let shownPage = -1;
  let shownKey = "";
  let wordsShown = -1; // the page whose words are laid over the image
  let wordsWaiting = false; // words are in, waiting for their image's first frame
  let zoomPending = false; // a new zoom was asked for and no image has come since
  let imageLoaded = false;
  let deferredSharp = null; // see paintFrom
  let painting = 0; // counts paints: a decode that finishes after a newer paint is dropped
  // The page sent ahead, decoded as soon as it arrives, so turning to it only draws it.
  function decodeAhead() {
    const key = model.get("ahead_key");
    const bytes = bytesOf(model.get("ahead_image"));
    if (!key || !bytes || memory.has(key)) return;
    remember(key, model.get("ahead_page"), model.get("ahead_size"), bytes).words = model.get("ahead_words");
  }
  let aheadTimer = null;
  let hitCursor = -1;
  // The page on screen: its words and size (from `words`/`page_size`, or from `ahead_*`).
  let current = { words: [], size: [0, 0] };

  const pageCount = () => model.get("page_count");
  const turnTo = (p) => {
    const n = pageCount();
    if (!n) return;
    const target = Math.min(Math.max(p, 0), n - 1);
    if (target === model.get("page")) return;
    clearTimeout(aheadTimer);
    aheadTimer = null;
    model.set("page", target);
    root.dataset.busy = "page";
    // A page the browser holds (sent ahead, or just left) is painted at once; Python's
    // answer then changes nothing.
    const known = memory.get(keyFor(shownKey, target));
    if (known && known.words && !drag) {
      paintFrom({ page: target, key: known.key, words: known.words, size: known.size, entry: known });
    }
    model.save_changes();
    paintBar();
  };

  // -- toolbar ------------------------------------------------------------------------------
  function paintBar() {
    const n = pageCount();
    const p = model.get("page");
    label.textContent = n ? `${p + 1} / ${n}` : "–";
    label.dataset.page = n ? String(p + 1) : "";
    if (document.activeElement !== goto && root.getRootNode().activeElement !== goto) goto.value = n ? String(p + 1) : "";
    goto.max = String(n || 1);
    prev.disabled = !n || p <= 0;
    next.disabled = !n || p >= n - 1;
    zoomLabel.textContent = model.get("fit") ? "fit" : `${Math.round(shownScale() * 100)}%`;
    fit.classList.toggle("bh-on", model.get("fit"));
    const hits = model.get("hits");
    const total = hits.reduce((s, h) => s + (h.count || 1), 0);
    const found = `${total} in ${hits.length} page(s)`;
    const query = model.get("query");
    const state = model.get("search") || {};
    // Until Python says the search is over, no hit yet does not mean no match.
    const running = query && (state.query !== query || !state.done);
    hitLabel.textContent = !query ? "" : running ? `searching… ${hits.length ? found : ""}`.trim() : hits.length ? found : "no match";
    root.dataset.searching = running ? "true" : "false";
    hitPrev.disabled = hitNext.disabled = hits.length === 0;
    lock.hidden = !model.get("needs_password");
    message.textContent = model.get("message");
    message.hidden = !model.get("message");
  }

  prev.addEventListener("click", () => turnTo(model.get("page") - 1));
  next.addEventListener("click", () => turnTo(model.get("page") + 1));
  goto.addEventListener("change", () => {
    const v = parseInt(goto.value, 10);
    if (Number.isFinite(v)) turnTo(v - 1);
  });
  // Steps are relative to the scale the page is shown at (CSS px per point), and the page
  // is rendered at that scale times the screen's pixel ratio: on a HiDPI screen "+" after
  // "fit width" grows the page by one step, not by the pixel ratio as well.
  const pixelRatio = () => window.devicePixelRatio || 1;
  function shownScale() {
    const [pw] = current.size;
    if (model.get("fit") && pw && pageBox.clientWidth) return pageBox.clientWidth / pw;
    return model.get("zoom") / pixelRatio();
  }
  const setZoom = (scale) => {
    const zoom = Math.round(Math.min(Math.max(scale * pixelRatio(), MIN_ZOOM), MAX_ZOOM) * 1000) / 1000;
    model.set("fit", false);
    if (zoom !== model.get("zoom")) {
      model.set("zoom", zoom);
      root.dataset.busy = "zoom";
      zoomPending = true;
    }
    model.save_changes();
  };
  zoomIn.addEventListener("click", () => setZoom(shownScale() * ZOOM_STEP));
  zoomOut.addEventListener("click", () => setZoom(shownScale() / ZOOM_STEP));
  fit.addEventListener("click", () => {
    model.set("fit", !model.get("fit"));
    model.save_changes();
    layout();
  });
  const jumpHit = (step) => {
    const hits = model.get("hits");
    if (!hits.length) return;
    const p = model.get("page");
    let k = hits.findIndex((h) => h.page === p);
    if (k < 0) k = step > 0 ? hits.findIndex((h) => h.page > p) : hits.length - 1 - [...hits].reverse().findIndex((h) => h.page < p);
    else k += step;
    if (k < 0 || k >= hits.length || Number.isNaN(k)) k = (k + hits.length) % hits.length || 0;
    hitCursor = k;
    turnTo(hits[k].page);
  };
  search.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    if (search.value === model.get("query")) jumpHit(e.shiftKey ? -1 : 1);
    else {
      model.set("query", search.value);
      model.save_changes();
    }
  });
  hitPrev.addEventListener("click", () => jumpHit(-1));
  hitNext.addEventListener("click", () => jumpHit(1));
  lock.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!secret.value) return;
    model.set("password", secret.value);
    model.save_changes();
    secret.value = "";
  });
  root.addEventListener("keydown", (e) => {
    const tag = (e.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea") {
      // Escape in the search box (or a page/password box) hands the keys back to the page:
      // Shift+arrows then select from the search hit.
      if (e.key === "Escape" && tag === "input") {
        e.preventDefault();
        root.focus({ preventScroll: true });
      }
      return;
    }
    if (e.shiftKey && keySelect(e.key)) {
      e.preventDefault();
      return;
    }
    if (e.key === "Escape" && Object.keys(model.get("selection") || {}).length) {
      e.preventDefault();
      const sel = docSelection();
      if (sel) sel.removeAllRanges();
      keyed = null;
      model.set("selection", {});
      model.save_changes();
      return;
    }
    const keys = { ArrowLeft: -1, PageUp: -1, ArrowRight: 1, PageDown: 1 };
    if (e.key in keys) {
      e.preventDefault();
      turnTo(model.get("page") + keys[e.key]);
    } else if (e.key === "Home") {
      e.preventDefault();
      turnTo(0);
    } else if (e.key === "End") {
      e.preventDefault();
      turnTo(pageCount() - 1);
    }
  });

  // -- page ---------------------------------------------------------------------------------
  function layout() {
    const [pw, ph] = current.size;
    if (!pw || !ph) return;
    pageBox.style.aspectRatio = `${pw} / ${ph}`;
    if (model.get("fit")) {
      pageBox.style.width = "100%";
      // Render at the resolution the page is shown at (with some slack, to avoid re-renders).
      const want = (pageBox.clientWidth * pixelRatio()) / pw;
      const zoom = model.get("zoom");
      const next = Math.min(Math.max(Math.round(want * 4) / 4, MIN_ZOOM), MAX_ZOOM);
      if (want > 0 && Math.abs(want / zoom - 1) > 0.3 && next !== zoom) {
        model.set("zoom", next);
        root.dataset.busy = "zoom";
        zoomPending = true;
        model.save_changes();
      }
    } else {
      pageBox.style.width = `${(pw * model.get("zoom")) / pixelRatio()}px`;
    }
    paintBar();
  }

  function buildTextLayer() {
    const [pw, ph] = current.size;
    layer.replaceChildren();
    spans = [];
    const words = current.words;
    const frag = document.createDocumentFragment();
    words.forEach((w, i) => {
      const [x0, y0, x1, y1, text] = w;
      const span = document.createElement("span");
      span.textContent = text;
      span.dataset.i = String(i);
      const wf = x1 - x0;
      const hf = y1 - y0;
      span.style.left = `${x0 * 100}%`;
      span.style.top = `${y0 * 100}%`;
      const vertical = hf * ph > 1.5 * wf * pw && text.length > 1;
      if (vertical) {
        span.classList.add("bh-vertical");
        span.style.fontSize = `${wf * 100}cqw`;
        const natural = textWidth(text, wf * pw);
        if (natural > 0) span.style.transform = `scaleY(${(hf * ph) / natural})`;
      } else {
        span.style.fontSize = `${hf * 100}cqh`;
        const natural = textWidth(text, hf * ph);
        if (natural > 0) span.style.transform = `scaleX(${(wf * pw) / natural})`;
      }
      frag.append(span);
      spans.push(span);
    });
    layer.append(frag);
    layer.classList.toggle("bh-no-text", words.length === 0);
  }

  function box(cls, b, extra = {}) {
    const d = make("div", cls, extra);
    d.style.left = `${b[0] * 100}%`;
    d.style.top = `${b[1] * 100}%`;
    d.style.width = `${(b[2] - b[0]) * 100}%`;
    d.style.height = `${(b[3] - b[1]) * 100}%`;
    return d;
  }

  function paintMarks() {
    marks.replaceChildren();
    const p = shownPage;
    for (const h of model.get("highlights")) {
      if (h.page !== p) continue;
      for (const b of h.boxes) {
        const d = box(`bh-highlight bh-${h.status || "exact"}`, b, { testid: "highlight", title: h.label });
        d.dataset.id = h.id;
        marks.append(d);
      }
    }
    for (const h of model.get("hits")) {
      if (h.page !== p) continue;
      for (const b of h.boxes) marks.append(box("bh-hit", b, { testid: "search-hit" }));
    }
    const sel = model.get("selection");
    if (sel && sel.page === p) {
      for (const b of model.get("marked")) marks.append(box("bh-marked", b, { testid: "marked" }));
    }
  }

  // The words of the page on screen, once they are there (they follow its image).
  const wordsFor = (p) => (model.get("words_page") === p ? model.get("words") : null);

  function paintPage() {
    const p = model.get("image_page");
    paintFrom({
      bytes: bytesOf(model.get("image")),
      page: p,
      key: model.get("image_key"),
      words: wordsFor(p),
      size: model.get("page_size"),
    });
  }

  // `data-busy` is set while a page or zoom asked for is not on screen with its words yet
  // (tests wait on it).
  function settleBusy() {
    const settled =
      shownPage === model.get("page") &&
      wordsShown === shownPage &&
      !wordsWaiting &&
      !zoomPending &&
      !shownKey.endsWith(LOW);
    if (settled && root.dataset.busy !== undefined) {
      delete root.dataset.busy;
      planAhead();
    } else if (settled && !aheadTimer) planAhead();
  }

  function paintFrom(next) {
    const { bytes, page: imagePage, key, words, size } = next;
    // A quick image never replaces the sharp one of the same page (painted from memory).
    if (key && key.endsWith(LOW) && imagePage === shownPage && sharpKey(key) === shownKey) {
      if (words && wordsShown !== imagePage) paintWords(words);
      return;
    }
    // The sharp image of the page whose quick one is still decoding waits for it: else the
    // quick one would be dropped unseen and the learner would wait for the sharp one.
    deferredSharp = null;
    if (!imageLoaded && shownKey.endsWith(LOW) && imagePage === shownPage && key && !key.endsWith(LOW)) {
      deferredSharp = next;
      return;
    }
    if (key && key === shownKey && imagePage === shownPage) {
      if (words && wordsShown !== imagePage) paintWords(words);
      paintMarks(); // already on screen (sent ahead): nothing to decode or lay out again
      settleBusy();
      return;
    }
    if ((!bytes && !next.entry) || imagePage < 0) {
      shownKey = "";
      painting++;
      for (const name of ["key", "page", "width", "height"]) delete img.dataset[name];
      layer.replaceChildren();
      spans = [];
      shownPage = wordsShown = -1;
      wordsWaiting = false;
      pageBox.hidden = true;
      return;
    }
    pageBox.hidden = false;
    imageLoaded = false;
    zoomPending = false; // Python answers a zoom with a new image (layout may ask again below)
    draw(next, key || "");
    performance.clearMarks("bh-image-set");
    performance.mark("bh-image-set", { detail: imagePage + 1 });
    img.dataset.page = String(imagePage + 1);
    const samePage = imagePage === shownPage;
    shownPage = imagePage;
    shownKey = key || "";
    current = { words: samePage ? current.words : [], size };
    layout();
    if (words) paintWords(words);
    else if (!samePage) {
      // Another page's words must not lie over this image while its own are on their way.
      if (root.dataset.busy === undefined) root.dataset.busy = "words";
      layer.replaceChildren();
      spans = [];
      wordsShown = -1;
      wordsWaiting = false;
    }
    paintMarks();
    settleBusy();
  }

  // Decode (off the main thread) and draw on the canvas; a newer paint wins.
  function draw(next, key) {
    const mine = ++painting;
    const type = model.get("image_type") || "image/jpeg";
    const entry =
      next.entry ||
      (key && !key.endsWith(LOW)
        ? remember(key, next.page, next.size, next.bytes)
        : { bitmap: decodeImage(next.bytes, type) });
    drawing = key;
    entry.bitmap
      .then((bitmap) => {
        if (mine !== painting) {
          if (!entry.key) bitmap.close();
          return;
        }
        img.width = bitmap.width;
        img.height = bitmap.height;
        img.getContext("2d").drawImage(bitmap, 0, 0);
        if (!entry.key) bitmap.close(); // a quick image is not kept
        Object.assign(img.dataset, { key, width: String(bitmap.width), height: String(bitmap.height) });
        drawing = "";
        onDrawn();
      })
      .catch(() => {
        if (mine !== painting) return;
        drawing = "";
        message.textContent = "This page image could not be decoded.";
        message.hidden = false;
      });
  }

  function paintWords(words) {
    const entry = memory.get(shownKey);
    if (entry) entry.words = words;
    current.words = words;
    wordsShown = shownPage;
    wordsWaiting = true;
    if (imageLoaded) buildPendingWords();
  }

  function buildPendingWords() {
    if (!wordsWaiting) return;
    wordsWaiting = false;
    buildTextLayer();
    paintMarks();
    settleBusy();
  }

  // Traits sent together (image, words, page_size) arrive as separate change events: paint once.
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => {
      pending = false;
      paintPage();
    });
  };

  // -- selection ----------------------------------------------------------------------------
  const shadow = () => {
    const r = el.getRootNode();
    return r instanceof ShadowRoot ? r : null;
  };
  const docSelection = () => {
    const s = shadow();
    return (s && typeof s.getSelection === "function" && s.getSelection()) || document.getSelection();
  };

  function spanIndex(node, offset, atEnd) {
    if (!node) return -1;
    let target = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
    if (target === layer) {
      const child = layer.childNodes[atEnd ? offset - 1 : offset];
      target = child || null;
    }
    const span = target && target.closest ? target.closest("[data-i]") : null;
    if (!span || !layer.contains(span)) return -1;
    const i = parseInt(span.dataset.i, 10);
    // A range ending at offset 0 of a span does not cover that span.
    if (atEnd && node.nodeType === Node.TEXT_NODE && offset === 0 && i > 0) return i - 1;
    return i;
  }

  // The selection's range inside marimo's shadow DOM (DESIGN §6: getComposedRanges in Chromium).
  function currentRange() {
    const sel = document.getSelection();
    if (!sel || sel.rangeCount === 0) return null;
    const s = shadow();
    if (s && typeof sel.getComposedRanges === "function") {
      let ranges = [];
      try {
        ranges = sel.getComposedRanges({ shadowRoots: [s] });
      } catch {
        ranges = sel.getComposedRanges(s);
      }
      if (ranges.length) return ranges[0];
    }
    const inner = docSelection();
    return inner && inner.rangeCount ? inner.getRangeAt(0) : null;
  }

  function report(start, end, text) {
    const lo = Math.min(start, end);
    const hi = Math.max(start, end);
    const covered = [];
    for (let i = lo; i <= hi; i++) covered.push(i);
    model.set("selection", { page: shownPage, start, end, covered, text });
    model.save_changes();
  }

  function reportNativeSelection() {
    const range = currentRange();
    if (!range || range.collapsed) return false;
    const a = spanIndex(range.startContainer, range.startOffset, false);
    const b = spanIndex(range.endContainer, range.endOffset, true);
    if (a < 0 || b < 0 || b < a) return false;
    const sel = model.get("selection");
    if (sel && sel.page === shownPage && sel.start === a && sel.end === b) return true;
    report(a, b, String(docSelection() || ""));
    return true;
  }

  // The word under a point, or the nearest one when the pointer is between lines or columns.
  function wordAt(clientX, clientY) {
    const r = layer.getBoundingClientRect();
    if (!r.width || !spans.length) return -1;
    return nearestWord((clientX - r.left) / r.width, (clientY - r.top) / r.height, r.height / r.width);
  }

  // The same, for a point in page fractions (`aspect`: the page's height over its width).
  function nearestWord(fx, fy, aspect) {
    const words = current.words;
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < words.length; i++) {
      const [x0, y0, x1, y1] = words[i];
      const dx = fx < x0 ? x0 - fx : fx > x1 ? fx - x1 : 0;
      const dy = (fy < y0 ? y0 - fy : fy > y1 ? fy - y1 : 0) * aspect;
      // Rows matter more than columns: a point beside a line belongs to that line.
      const d = dx + 3 * dy;
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  function showRange(a, b) {
    const lo = spans[Math.min(a, b)];
    const hi = spans[Math.max(a, b)];
    if (!lo || !hi) return;
    const sel = docSelection();
    try {
      sel.setBaseAndExtent(lo.firstChild || lo, 0, hi.firstChild || hi, (hi.firstChild || hi).length || 0);
    } catch {
      // A browser that refuses a selection inside a shadow root still gets the marked boxes.
    }
  }

  // Selecting without a mouse (the reader has the keys): Shift+→ / Shift+← move the selection's
  // end a word, Shift+↓ / Shift+↑ a line. It starts at the selection on this page, else at
  // the first search hit on it, else at the page's first word; the passage then goes to
  // Python as a drag's does. Escape clears it.
  let keyed = null; // {page, anchor, focus} of the selection made with keys
  function keyStart() {
    const sel = model.get("selection");
    if (sel && sel.page === shownPage && sel.start >= 0 && sel.start < spans.length) {
      return { page: shownPage, anchor: sel.start, focus: Math.min(sel.end, spans.length - 1) };
    }
    const [pw, ph] = current.size;
    const hit = model.get("hits").find((h) => h.page === shownPage && h.boxes.length);
    let first = 0;
    if (hit && pw && ph) {
      const [x0, y0, x1, y1] = hit.boxes[0];
      // The hit's first word: the one at its left edge (its middle may be a later word).
      first = Math.max(0, nearestWord(x0 + Math.min(0.002, (x1 - x0) / 4), (y0 + y1) / 2, ph / pw));
    }
    return { page: shownPage, anchor: first, focus: first - 1 };
  }
  function lineStep(from, step) {
    // The word of the next (previous) line nearest below (above) the word `from`.
    const words = current.words;
    const [fx0, fy0, , fy1] = words[from];
    let best = -1;
    let bestD = Infinity;
    let lineY = null;
    for (let i = from + step; i >= 0 && i < words.length; i += step) {
      const [x0, y0, , y1] = words[i];
      const off = step > 0 ? y0 >= fy1 - 0.002 : y1 <= fy0 + 0.002;
      if (!off) continue;
      if (lineY === null) lineY = y0;
      if (Math.abs(y0 - lineY) > 0.004) break; // past that line
      const d = Math.abs(x0 - fx0);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }
  function keySelect(key) {
    const steps = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 2, ArrowUp: -2 };
    if (!(key in steps) || !spans.length || spans.length !== current.words.length) return false;
    if (!keyed || keyed.page !== shownPage) keyed = keyStart();
    const step = steps[key];
    let focus = keyed.focus;
    if (Math.abs(step) === 1) focus += step;
    else focus = lineStep(Math.max(focus, keyed.anchor), Math.sign(step));
    if (focus < keyed.anchor) focus = keyed.anchor; // the end never passes the start
    if (focus < 0 || focus >= spans.length) return true;
    keyed.focus = focus;
    showRange(keyed.anchor, focus);
    spans[focus].scrollIntoView({ block: "nearest" });
    report(keyed.anchor, focus, spans.slice(keyed.anchor, focus + 1).map((s) => s.textContent).join(" "));
    return true;
  }

  model.on("change:selection", () => {
    if (!Object.keys(model.get("selection") || {}).length) keyed = null; // grown, or cleared
  });

  let drag = null;
  layer.addEventListener("mousedown", (e) => {
    if (e.button !== 0) return;
    root.focus({ preventScroll: true });
    if (e.detail > 1) return; // double/triple click: the browser's own word/line selection
    e.preventDefault();
    keyed = null;
    drag = { x: e.clientX, y: e.clientY, anchor: wordAt(e.clientX, e.clientY), focus: -1, moved: false };
  });
  const onMove = (e) => {
    if (!drag) return;
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < DRAG_THRESHOLD) return;
    drag.moved = true;
    const f = wordAt(e.clientX, e.clientY);
    if (f >= 0 && f !== drag.focus && drag.anchor >= 0) {
      drag.focus = f;
      showRange(drag.anchor, f);
    }
  };
  const onUp = (e) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.moved) {
      clickAt(e.clientX, e.clientY);
      return;
    }
    if (d.anchor < 0 || d.focus < 0) return;
    const a = Math.min(d.anchor, d.focus);
    const b = Math.max(d.anchor, d.focus);
    report(a, b, spans.slice(a, b + 1).map((s) => s.textContent).join(" "));
  };
  window.addEventListener("mousemove", onMove);
  window.addEventListener("mouseup", onUp);
  // Keyboard or double-click selections: read the native range back into word indices.
  layer.addEventListener("dblclick", () => setTimeout(reportNativeSelection, 0));
  root.addEventListener("keyup", (e) => {
    if (e.shiftKey) reportNativeSelection();
  });

  function clickAt(clientX, clientY) {
    const r = layer.getBoundingClientRect();
    const fx = (clientX - r.left) / r.width;
    const fy = (clientY - r.top) / r.height;
    for (const h of model.get("highlights")) {
      if (h.page !== shownPage) continue;
      if (h.boxes.some((b) => fx >= b[0] && fx <= b[2] && fy >= b[1] && fy <= b[3])) {
        const n = (model.get("clicked").n || 0) + 1;
        model.set("clicked", { id: h.id, page: h.page, n });
        model.save_changes();
        return;
      }
    }
    const sel = docSelection();
    if (sel) sel.removeAllRanges();
    if (Object.keys(model.get("selection") || {}).length) {
      model.set("selection", {});
      model.save_changes();
    }
  }

  // -- wiring -------------------------------------------------------------------------------
  model.on("change:ahead_key", () => queueMicrotask(decodeAhead));
  // Another document (Reader.open_document): its pages are not the last one's.
  model.on("change:page_count", () => {
    forget();
    hitCursor = -1;
  });
  model.on("change:query", () => {
    if (!model.get("query")) search.value = "";
  });
  // The words of a page come in their own message, after its image: the same paint.
  for (const name of ["image", "image_page", "words", "words_page"]) model.on(`change:${name}`, schedule);

  model.on("change:zoom", layout);
  model.on("change:fit", layout);
  for (const name of ["highlights", "hits", "marked", "selection"]) model.on(`change:${name}`, paintMarks);
  // Once Python has the passage, show exactly its words (marginalia left out), not the raw drag.
  model.on("change:marked", () => {
    if (model.get("marked").length && !drag) docSelection()?.removeAllRanges();
  });
  for (const name of ["page", "page_count", "message", "needs_password", "query", "hits", "search"]) {
    model.on(`change:${name}`, paintBar);
  }
  const resize = new ResizeObserver(() => {
    if (model.get("fit")) layout();
  });
  resize.observe(viewport);
  paintBar();
  paintPage();

  return () => {
    clearTimeout(aheadTimer);
    resize.disconnect();
    window.removeEventListener("mousemove", onMove);
    window.removeEventListener("mouseup", onUp);
    painting++;
    drawing = "";
    forget();
  };
}

export default { render };
