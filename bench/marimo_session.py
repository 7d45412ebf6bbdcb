"""A learner without a browser: marimo 0.25's session protocol, as its front end speaks it.

What a Chromium page of the served workbench sends and receives (recorded with Playwright's
``page.on("request")`` / ``page.on("websocket")``), and so what this client does:

- ``POST /login`` (the Gate's form) → the session cookie; ``GET /`` → the page, which carries
  marimo's skew-protection token (every ``POST /api/...`` must send it as
  ``Marimo-Server-Token``).
- A websocket ``/ws?session_id=s_xxxxxx`` (the id is made up by the client): the kernel
  starts, ``kernel-ready`` arrives, then the notebook's run streams as ``cell-op`` (cell outputs,
  HTML with ``<marimo-ui-element object-id=...>``), ``model-lifecycle`` (anywidget models:
  ``open`` with the full state and ``_anywidget_id``, then ``update`` with changed traits)
  and ``completed-run``. Nothing is sent on the websocket.
- Widget traits go up as ``POST /api/kernel/set_model_value`` ``{"modelId", "message":
  {"method": "update", "state": {...}, "bufferPaths": []}, "buffers": []}``; marimo UI
  elements as ``POST /api/kernel/set_ui_element_value`` ``{"objectIds": [...], "values":
  [...]}``; ``mo.ui.chat`` asks ``POST /api/kernel/function_call`` for its history. Each
  carries the ``Marimo-Session-Id`` header.
- The page's ``mo.ui.refresh`` ("Watch folder", 2 s) sends ``"2s (N)"`` every 2 s; the reader
  sends its zoom and read-ahead once shown. This client sends the same, so the server does the
  same work as for a browser.
"""

from __future__ import annotations

import asyncio
import html
import json
import random
import re
import string
import time
from collections.abc import Callable

import httpx
import websockets

TOKEN = re.compile(r'"?server[_-]?[tT]oken"?\s*[:=]\s*"([^"]+)"')
UI_ELEMENT = re.compile(r"<marimo-ui-element object-id='([^']+)'[^>]*><marimo-([a-z-]+) ([^>]*)>")
LABEL = re.compile(r"data-label='([^']*)'")


class ProtocolError(RuntimeError):
    """The server did not answer as a browser's front end expects."""


class MarimoSession:
    """One signed-in learner's marimo session over HTTP and a websocket.

    Args:
        base: the server's URL (``http://127.0.0.1:PORT``).
        name: the learner's sign-in name.
        password: their password.
        timeout: seconds any one wait may take before :class:`ProtocolError`.
    """

    def __init__(self, base: str, name: str, password: str, timeout: float = 300):
        self.base, self.name, self.password, self.timeout = base, name, password, timeout
        self.http = httpx.AsyncClient(base_url=base, timeout=timeout, follow_redirects=False)
        alphabet = string.ascii_lowercase + string.digits
        self.session_id = "s_" + "".join(random.choices(alphabet, k=6))
        self.token = ""
        self.cells: dict[str, str] = {}  # cell name -> cell id (from kernel-ready)
        self.models: dict[str, dict] = {}  # model id -> its synced state
        self.kinds: dict[str, str] = {}  # anywidget id ("basehalf_widgets.canvas.Canvas") -> model
        self.outputs: dict[str, str] = {}  # cell id -> its last HTML output
        self.runs = 0  # completed runs seen
        self._changed = asyncio.Condition()
        self._ws = None
        self._tasks: list[asyncio.Task] = []
        self._ticks = 0

    # -- connection -------------------------------------------------------------------------

    async def open(self) -> None:
        """Sign in, load the page, open the websocket, and wait for the first run to finish."""
        r = await self.http.post("/login", data={"name": self.name, "password": self.password})
        if r.status_code != 303 or "basehalf_session" not in r.cookies:
            raise ProtocolError(f"{self.name}: sign-in answered {r.status_code}")
        page = await self.http.get("/")
        if page.status_code != 200:
            raise ProtocolError(f"{self.name}: GET / answered {page.status_code}")
        found = TOKEN.search(page.text)
        if found is None:
            raise ProtocolError(f"{self.name}: no server token in the page")
        self.token = found.group(1)
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = self.base.replace("http", "ws", 1) + f"/ws?session_id={self.session_id}"
        self._ws = await websockets.connect(
            url, additional_headers={"Cookie": cookie}, max_size=None, open_timeout=self.timeout
        )
        self._tasks.append(asyncio.create_task(self._receive()))
        await self.wait(lambda: self.cells and self.runs >= 1, "the first run")

    async def close(self) -> None:
        """Close the websocket (the session ends as when a tab closes) and the HTTP client."""
        for task in self._tasks:
            task.cancel()
        if self._ws is not None:
            await self._ws.close()
        await self.http.aclose()

    async def _receive(self) -> None:
        async for frame in self._ws:
            msg = json.loads(frame)
            op, data = msg.get("op"), msg.get("data") or {}
            if op == "kernel-ready":
                self.cells = dict(zip(data["names"], data["cell_ids"], strict=True))
            elif op == "model-lifecycle":
                self._model(data["model_id"], data["message"])
            elif op == "cell-op":
                out = data.get("output") or {}
                if out.get("mimetype") == "text/html":
                    self.outputs[data["cell_id"]] = out.get("data", "")
            elif op == "completed-run":
                self.runs += 1
            else:
                continue
            async with self._changed:
                self._changed.notify_all()

    def _model(self, model_id: str, message: dict) -> None:
        method = message.get("method")
        if method == "open":
            self.models[model_id] = dict(message.get("state") or {})
            kind = self.models[model_id].get("_anywidget_id")
            if kind:
                self.kinds[kind] = model_id
        elif method == "update" and model_id in self.models:
            self.models[model_id].update(message.get("state") or {})
        elif method == "close":
            self.models.pop(model_id, None)

    async def wait(self, ready: Callable[[], object], what: str) -> float:
        """Wait until ``ready()`` is true; the time it took (seconds)."""
        t = time.perf_counter()
        async with self._changed:
            try:
                await asyncio.wait_for(self._changed.wait_for(ready), self.timeout)
            except TimeoutError:
                raise ProtocolError(f"{self.name}: no {what} after {self.timeout:.0f} s") from None
        return time.perf_counter() - t

    # -- what the front end sends ------------------------------------------------------------

    async def _post(self, path: str, body: dict) -> None:
        r = await self.http.post(
            path,
            json=body,
            headers={"Marimo-Session-Id": self.session_id, "Marimo-Server-Token": self.token},
        )
        if r.status_code != 200:
            raise ProtocolError(f"{self.name}: {path} answered {r.status_code}: {r.text[:200]}")

    async def set_model(self, model_id: str, state: dict) -> None:
        """A widget trait set in the browser (``model.set(...); model.save_changes()``)."""
        message = {"method": "update", "state": state, "bufferPaths": []}
        await self._post(
            "/api/kernel/set_model_value", {"modelId": model_id, "message": message, "buffers": []}
        )

    async def set_ui(self, object_id: str, value) -> None:
        """A marimo UI element's new value (a click, a typed box, a refresh tick)."""
        await self._post(
            "/api/kernel/set_ui_element_value", {"objectIds": [object_id], "values": [value]}
        )

    async def function_call(self, namespace: str, function: str, args: dict) -> None:
        """An RPC a UI element makes (``mo.ui.chat``'s history)."""
        body = {
            "functionCallId": f"{self.session_id}-{time.monotonic_ns()}",
            "args": args,
            "functionName": function,
            "namespace": namespace,
        }
        await self._post("/api/kernel/function_call", body)

    def model(self, kind: str) -> tuple[str, dict]:
        """(model id, state) of the anywidget whose ``_anywidget_id`` ends with ``kind``."""
        for anywidget_id, model_id in self.kinds.items():
            if anywidget_id.endswith(kind) and model_id in self.models:
                return model_id, self.models[model_id]
        raise ProtocolError(f"{self.name}: no {kind} widget on the page")

    def elements(self) -> list[tuple[str, str, str]]:
        """Every UI element on the page now: (object id, element kind, label text)."""
        found = []
        for out in self.outputs.values():
            for object_id, kind, attrs in UI_ELEMENT.findall(out):
                label = LABEL.search(attrs)  # a JSON string of HTML, in an HTML attribute
                text = json.loads(html.unescape(label.group(1))) if label else ""
                found.append((object_id, kind, re.sub(r"<[^>]+>", "", text or "").strip()))
        return found

    def element(self, kind: str, label: str) -> str:
        """The object id of the ``marimo-KIND`` element labelled ``label``."""
        for object_id, k, text in self.elements():
            if k == kind and text == label:
                return object_id
        raise ProtocolError(f"{self.name}: no {kind} labelled {label!r} on the page")

    def html_has(self, pattern: str) -> bool:
        """Whether any cell's HTML output matches the regex ``pattern``."""
        return any(re.search(pattern, out) for out in self.outputs.values())

    async def start_like_a_browser(self) -> None:
        """What the page sends once shown: reader zoom and read-ahead, the chat's history, and
        from then on the Watch-folder refresh every 2 s."""
        reader, _ = self.model("reader.Reader")
        await self.set_model(reader, {"zoom": 0.75})
        watcher = self.element("refresh", "Watch folder")
        await self.set_ui(watcher, "2s (0)")
        await self.set_model(reader, {"ahead": 1})
        chat = next((oid for oid, k, _ in self.elements() if k == "chatbot"), None)
        if chat is not None:
            await self.function_call(chat, "get_chat_history", {})
        self._tasks.append(asyncio.create_task(self._watch(watcher)))

    async def _watch(self, watcher: str) -> None:
        while True:
            await asyncio.sleep(2)
            self._ticks += 1
            try:
                await self.set_ui(watcher, f"2s ({self._ticks})")
            except (ProtocolError, httpx.HTTPError):
                return
