"""The one door to a language model: litellm, imported lazily, with clear named failures.

The model string comes from the caller, else ``BASEHALF_MODEL``; the API base from the caller,
else ``BASEHALF_API_BASE``. Keys are only ever read from the environment by litellm itself
(``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY`` ...); this module never stores or prints one. An
OpenAI-compatible server at an ``api_base`` often needs no key: a fixed placeholder (not a
secret) is sent then, because the OpenAI client refuses to start without one.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from basehalf_core.errors import BasehalfError

# litellm fetches its cost map from the internet on import unless told not to (DESIGN §6).
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

PLACEHOLDER_KEY = "basehalf-no-key"  # sent only to an api_base when no key variable is set

_KEY_VARIABLES = {
    "openai": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "groq": "GROQ_API_KEY",
    "deepseek": "DEEPSEEK_API_KEY",
    "openrouter": "OPENROUTER_API_KEY",
    "together_ai": "TOGETHERAI_API_KEY",
    "azure": "AZURE_API_KEY",
    "cohere": "COHERE_API_KEY",
    "xai": "XAI_API_KEY",
}
_KEYLESS = {"ollama", "ollama_chat", "lm_studio", "vllm", "hosted_vllm", "llamafile"}


class ModelError(BasehalfError):
    """A model call failed; the message says what to do and never holds a key."""


class NoModel(ModelError):
    """No model is configured (neither passed in nor ``BASEHALF_MODEL``)."""

    def __init__(self) -> None:
        super().__init__("no model configured: set BASEHALF_MODEL (e.g. openai/gpt-4o-mini)")


class ModelTimeout(ModelError):
    """The model did not answer within the timeout."""


class ModelAuthError(ModelError):
    """The provider refused the credentials; the message names the variable to set."""


class ModelRateLimited(ModelError):
    """Still rate-limited after the bounded retries."""


class ModelBadAnswer(ModelError):
    """The model answered, but not in the shape asked for (after one repair attempt)."""


class ModelUnavailable(ModelError):
    """The model could not be reached or returned a server error."""


@dataclass(frozen=True)
class ModelConfig:
    """How to call one model.

    Attributes:
        model: litellm model string (``openai/gpt-4o-mini``, ``ollama/llama3`` ...).
        api_base: an OpenAI-compatible base URL, or ``None`` for the provider's own.
        timeout: seconds for one request.
        retries: extra attempts after a rate limit or a transient server error.
        backoff: first wait in seconds; doubled per retry, capped at 8 s.
        json_schema: force (True/False) structured output; ``None`` asks litellm.
    """

    model: str
    api_base: str | None = None
    timeout: float = 60.0
    retries: int = 3
    backoff: float = 0.5
    json_schema: bool | None = None

    @property
    def provider(self) -> str:
        """The litellm provider prefix (``openai`` for ``openai/gpt-4o``)."""
        return self.model.split("/", 1)[0] if "/" in self.model else "openai"


def resolve(
    model: str | None = None, api_base: str | None = None, **options: object
) -> ModelConfig | None:
    """The configured model, or ``None`` when there is none (the caller goes offline).

    ``model="offline"`` also means no model.
    """
    name = (model or os.environ.get("BASEHALF_MODEL") or "").strip()
    if not name or name == "offline":
        return None
    base = (api_base or os.environ.get("BASEHALF_API_BASE") or "").strip() or None
    return ModelConfig(name, base, **options)  # type: ignore[arg-type]


def key_variable(cfg: ModelConfig) -> str:
    """The environment variable that holds the key for ``cfg``'s provider."""
    return _KEY_VARIABLES.get(cfg.provider, f"{cfg.provider.upper()}_API_KEY")


_litellm = None
_import_lock = threading.Lock()
# A server may route every call elsewhere (a litellm Router, a budget check): see set_transport.
_transport: Callable[..., object] | None = None


def set_transport(fn: Callable[..., object] | None) -> None:
    """Send every model call through ``fn(**litellm_completion_args)`` (``None``: litellm).

    ``fn`` answers like ``litellm.completion`` and may raise a :class:`ModelError` (a spent
    budget), which reaches the caller as it is.
    """
    global _transport
    _transport = fn


def _completion(lib, **args):
    return (_transport or lib.completion)(**args)


def _lib():
    """litellm, imported on first use (the import takes seconds)."""
    global _litellm
    if _litellm is None:
        with _import_lock:
            if _litellm is None:
                import litellm

                litellm.suppress_debug_info = True
                litellm.drop_params = True
                _litellm = litellm
    return _litellm


WARM_UP_BASE = "http://127.0.0.1:9/v1"  # loopback discard port: refused at once, never sent


# Imported by litellm's success logging on the first call that gets a reply (a background
# thread, so the refused warm-up call below never walks it); optional in SDK-only installs.
_FIRST_REPLY_IMPORTS = ("litellm.proxy.spend_tracking.savings",)


def _warm() -> None:
    lib = _lib()
    for name in _FIRST_REPLY_IMPORTS:
        with contextlib.suppress(Exception):
            importlib.import_module(name)
    # litellm and its HTTP stack import more on the first call (~0.5 s); a call that is
    # refused on the loopback discard port walks the same path without reaching anything.
    with contextlib.suppress(Exception):  # refused, as intended
        lib.completion(
            model="openai/basehalf-warm-up",
            messages=[{"role": "user", "content": "."}],
            api_base=WARM_UP_BASE,
            api_key=PLACEHOLDER_KEY,
            timeout=2,
            num_retries=0,
        )


_warming: threading.Thread | None = None
_warming_lock = threading.Lock()


def warm_up() -> threading.Thread:
    """Import litellm in a background thread, so the learner's first model call does not pay
    for it (the import takes seconds). Idempotent: every call after the first returns the
    thread the first one started (the daemon thread, running or done)."""
    global _warming
    with _warming_lock:
        if _warming is None:
            _warming = threading.Thread(target=_warm, name="basehalf-litellm-warm-up", daemon=True)
            _warming.start()
        return _warming


def warm_up_for(model: str | None) -> threading.Thread | None:
    """Start the warm-up when ``model`` names a model (the Model box's ``on_change``: a model
    typed there, not only one in ``BASEHALF_MODEL``, is warmed before the first click).

    Returns immediately (the import runs in the warm-up thread); ``None`` when ``model`` and
    the environment name no model.
    """
    return warm_up() if resolve(model) is not None else None


_JSON_MODE_ONLY = {"ollama", "ollama_chat"}  # Ollama's plain JSON mode: format "json"


def json_mode_only(cfg: ModelConfig) -> bool:
    """Whether the model takes JSON mode (any JSON object) but is not sent a schema."""
    return cfg.json_schema is None and cfg.provider in _JSON_MODE_ONLY


def supports_json_schema(cfg: ModelConfig) -> bool:
    """Whether to send ``response_format`` as a JSON schema for this model."""
    if cfg.json_schema is not None:
        return cfg.json_schema
    if cfg.provider in _JSON_MODE_ONLY:
        return False
    lib = _lib()
    try:
        return bool(lib.supports_response_schema(model=cfg.model))
    except Exception:  # unknown models raise; a strict parse of plain text is the fallback
        return False


def _call_args(cfg: ModelConfig) -> dict:
    args: dict = {"model": cfg.model, "timeout": cfg.timeout, "num_retries": 0}
    if cfg.api_base:
        args["api_base"] = cfg.api_base
        if cfg.provider not in _KEYLESS and not os.environ.get(key_variable(cfg)):
            args["api_key"] = PLACEHOLDER_KEY
    return args


# Environment variables whose values are treated as secrets: any name that says so, the
# provider's key variable, and every variable a course names as a key (api_key_env).
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|CRED|AUTH", re.IGNORECASE)
_secret_variables: set[str] = set()
_SHORTEST_SECRET = 8  # shorter values are too likely to be ordinary words


def secret_variable(name: str) -> None:
    """Treat the value of environment variable ``name`` as a secret from now on (a course's
    ``api_key_env`` may be called anything)."""
    _secret_variables.add(name)


def _secrets(cfg: ModelConfig | None = None) -> list[str]:
    names = {n for n in os.environ if _SECRET_NAME.search(n)} | _secret_variables
    if cfg is not None:
        names.add(key_variable(cfg))
    values = {os.environ.get(n) or "" for n in names}
    return sorted((v for v in values if len(v) >= _SHORTEST_SECRET), key=len, reverse=True)


def scrub(text: str, cfg: ModelConfig | None = None) -> str:
    """``text`` with every secret value of the environment replaced by ``***``.

    Everything that comes back from a model call passes here before anyone sees or writes
    it: an error, and a reply too (a proxy or server that echoes the request's key into its
    answer would otherwise put it into a grading file, ``.bh/asks.jsonl`` or the page).
    """
    return _hide(text, _secrets(cfg))


def _hide(text: str, secrets: list[str]) -> str:
    for value in secrets:
        text = text.replace(value, "***")
    return text


def _scrubbed(deltas: Iterator[str], cfg: ModelConfig) -> Iterator[str]:
    """:func:`scrub` over a stream: a secret split across deltas is caught too, so text that
    could be the start of one waits for the next delta (any other text passes at once)."""
    secrets = _secrets(cfg)  # once per stream: the environment is not read again per delta
    held = ""
    for delta in deltas:
        held = _hide(held + delta, secrets)
        wait = max((_started(held, v) for v in secrets), default=0)
        if len(held) > wait:
            yield held[: len(held) - wait]
            held = held[len(held) - wait :]
    if held:
        yield _hide(held, secrets)


def _started(text: str, secret: str) -> int:
    """The length of the longest end of ``text`` that ``secret`` begins with (0: none)."""
    for k in range(min(len(secret) - 1, len(text)), 0, -1):
        if text.endswith(secret[:k]):
            return k
    return 0


def _translate(cfg: ModelConfig, exc: Exception) -> ModelError:
    lib = _lib()
    where = f"{cfg.model}" + (f" at {cfg.api_base}" if cfg.api_base else "")
    if isinstance(exc, lib.Timeout):
        return ModelTimeout(f"{where}: no answer within {cfg.timeout:g} s")
    if isinstance(exc, lib.AuthenticationError | lib.PermissionDeniedError):
        # The provider's own message can quote part of the key: never pass it on.
        return ModelAuthError(
            f"{where}: the provider refused the credentials; set {key_variable(cfg)} "
            "in the environment to a valid key"
        )
    if isinstance(exc, lib.RateLimitError):
        return ModelRateLimited(f"{where}: rate-limited after {cfg.retries + 1} attempts")
    status = getattr(exc, "status_code", None)
    detail = scrub(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, cfg)[:300]
    return ModelUnavailable(f"{where}: {detail}" + (f" (HTTP {status})" if status else ""))


def _retryable(exc: Exception) -> bool:
    lib = _lib()
    if isinstance(exc, lib.RateLimitError):
        return True
    status = getattr(exc, "status_code", None)
    return isinstance(exc, lib.ServiceUnavailableError | lib.InternalServerError) or status in (
        500,
        502,
        503,
        504,
    )


def complete(
    cfg: ModelConfig,
    messages: list[dict],
    *,
    response_format: dict | None = None,
    temperature: float = 0.0,
) -> str:
    """One chat completion; returns the answer text.

    Rate limits and transient server errors are retried ``cfg.retries`` times with doubling
    waits; everything else fails at once with a named :class:`ModelError`.
    """
    lib = _lib()
    args = _call_args(cfg)
    if response_format is not None:
        args["response_format"] = response_format
    wait = cfg.backoff
    for attempt in range(cfg.retries + 1):
        try:
            resp = _completion(lib, messages=messages, temperature=temperature, **args)
            text = resp.choices[0].message.content
            if text is None:
                raise ModelBadAnswer(f"{cfg.model}: the answer has no text")
            return scrub(text, cfg)
        except ModelError:
            raise
        except Exception as exc:
            if attempt < cfg.retries and _retryable(exc):
                time.sleep(min(wait, 8.0))
                wait *= 2
                continue
            raise _translate(cfg, exc) from None
    raise AssertionError("unreachable")


def stream(
    cfg: ModelConfig,
    messages: list[dict],
    *,
    temperature: float = 0.0,
    response_format: dict | None = None,
) -> Iterator[str]:
    """Yield the answer as text deltas (what ``mo.ui.chat`` expects)."""
    lib = _lib()
    args = _call_args(cfg)
    if response_format is not None:
        args["response_format"] = response_format
    wait = cfg.backoff
    sent = False
    for attempt in range(cfg.retries + 1):
        try:
            chunks = _completion(
                lib, messages=messages, temperature=temperature, stream=True, **args
            )
            deltas = (c.choices[0].delta.content for c in chunks if c.choices)
            for delta in _scrubbed((d for d in deltas if d), cfg):
                sent = True
                yield delta
            return
        except ModelError:
            raise
        except Exception as exc:
            # Once text has gone out, a retry would repeat it: fail instead.
            if not sent and attempt < cfg.retries and _retryable(exc):
                time.sleep(min(wait, 8.0))
                wait *= 2
                continue
            raise _translate(cfg, exc) from None
