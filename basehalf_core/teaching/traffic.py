"""A class's model traffic: a litellm Router over the course's deployments, and the budget.

``course.yaml`` may hold a ``models`` section::

    models:
      calls_per_day: 40            # per learner; enforced before a call leaves the server
      routing_strategy: usage-based-routing-v2   # rpm/tpm as hard limits (default simple-shuffle)
      retries: 2                   # the Router's retries of a failed call
      deployments:                 # one model group, several deployments
        - model: openai/gpt-4o-mini
          api_base: http://127.0.0.1:4000/v1      # a LiteLLM Proxy is just another api_base
          api_key_env: OPENAI_API_KEY             # the NAME of a variable, never a key
          rpm: 60
          tpm: 100000
      fallbacks: [openai/gpt-4.1-nano]            # tried when every deployment failed

A key never appears in the course: ``api_key_env`` names the server's environment variable,
which litellm reads as ``os.environ/NAME`` when it sends the call.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import yaml

from basehalf_core.study import llm
from basehalf_core.teaching import budget as budgets
from basehalf_core.teaching import course

GROUP = "class-model"  # the Router's model group every learner call goes to
FALLBACK_GROUP = "class-fallback"
DEFAULT_CALLS_PER_DAY = 50
_STRATEGIES = ("simple-shuffle", "usage-based-routing-v2", "least-busy", "latency-based-routing")


class TrafficError(course.CourseError):
    """The ``models`` section cannot be used; the message names the file and why."""


@dataclass
class Traffic:
    """The parsed ``models`` section."""

    calls_per_day: int = DEFAULT_CALLS_PER_DAY
    deployments: list[dict] = field(default_factory=list)
    fallbacks: list[str] = field(default_factory=list)
    routing_strategy: str = "simple-shuffle"
    retries: int = 2

    def model_list(self) -> list[dict]:
        """The Router's ``model_list``: the class group, then the fallback group."""
        out = [{"model_name": GROUP, "litellm_params": _params(d)} for d in self.deployments]
        out += [
            {"model_name": FALLBACK_GROUP, "litellm_params": {"model": m}} for m in self.fallbacks
        ]
        return out


def _params(d: dict) -> dict:
    params = {"model": d["model"]}
    for k in ("api_base", "rpm", "tpm", "timeout"):
        if d.get(k) is not None:
            params[k] = d[k]
    if d.get("api_key_env"):
        params["api_key"] = f"os.environ/{d['api_key_env']}"  # litellm reads it at call time
    elif d.get("api_base"):
        params["api_key"] = llm.PLACEHOLDER_KEY  # a local server needs none; the client wants one
    return params


def load(course_folder: str | os.PathLike) -> Traffic:
    """The course's ``models`` section (defaults when there is none).

    Raises:
        TrafficError: a key written into the course, an unknown strategy, a bad number.
    """
    c = course.load(course_folder)
    where = c.root / course.COURSE_FILE
    data = (yaml.safe_load(where.read_text("utf-8-sig")) or {}).get("models") or {}
    if not isinstance(data, dict):
        raise TrafficError(f"{where}: 'models' must be a mapping")
    deployments = data.get("deployments") or []
    if not isinstance(deployments, list):
        raise TrafficError(f"{where}: models.deployments must be a list")
    for d in deployments:
        if not isinstance(d, dict) or not isinstance(d.get("model"), str):
            raise TrafficError(f"{where}: deployment {d!r} needs a 'model' string")
        if "api_key" in d:
            raise TrafficError(
                f"{where}: a deployment holds 'api_key'; keys stay in the server's environment: "
                "write api_key_env: NAME_OF_THE_VARIABLE instead"
            )
        for k in ("rpm", "tpm"):
            if d.get(k) is not None and (not isinstance(d[k], int) or d[k] <= 0):
                raise TrafficError(
                    f"{where}: deployment {d['model']}: {k} must be a positive whole number"
                )
    strategy = str(data.get("routing_strategy") or "simple-shuffle")
    if strategy not in _STRATEGIES:
        raise TrafficError(f"{where}: routing_strategy {strategy!r} is not one of {_STRATEGIES}")
    try:
        calls = int(data.get("calls_per_day", DEFAULT_CALLS_PER_DAY))
        retries = int(data.get("retries", 2))
    except (TypeError, ValueError):
        raise TrafficError(f"{where}: calls_per_day and retries must be whole numbers") from None
    fallbacks = [str(f) for f in data.get("fallbacks") or []]
    for d in deployments:
        if d.get("api_key_env"):
            llm.secret_variable(str(d["api_key_env"]))  # kept out of errors and replies
    return Traffic(calls, deployments, fallbacks, strategy, retries)


def make_router(traffic: Traffic):
    """A litellm Router over the deployments, or ``None`` when there are none."""
    if not traffic.deployments:
        return None
    from litellm import Router

    llm._lib()  # litellm's own settings (quiet, drop unknown params) before the Router starts
    return Router(
        model_list=traffic.model_list(),
        routing_strategy=traffic.routing_strategy,
        num_retries=traffic.retries,
        fallbacks=[{GROUP: [FALLBACK_GROUP]}] if traffic.fallbacks else [],
        retry_after=0,
    )


def _server_base(args: dict) -> dict:
    """``args`` with the API base the server was started with in place of any other."""
    base = (os.environ.get("BASEHALF_API_BASE") or "").strip() or None
    if args.get("api_base") == base:
        return args
    args = {k: v for k, v in args.items() if k != "api_base"}  # api_key: only the placeholder
    if base:
        args["api_base"] = base
    return args


def transport(router, budget: budgets.Budget | None):
    """A :func:`basehalf_core.study.llm.set_transport` function: budget first, then the Router.

    Every learner call is counted (and refused once the day's calls are spent) before it
    leaves; with a Router, whatever model the learner typed, the call goes to the class group:
    a learner cannot point the server's keys at another model or server. Without a Router the
    call goes to the server's own API base (``BASEHALF_API_BASE``, else the provider's), never
    to one a learner typed: litellm sends the server's key to whatever base it is given.
    """

    def send(**args):
        learner = budgets.current()
        if budget is not None and learner is not None:
            budget.spend(learner)
        if router is None:
            return llm._lib().completion(**_server_base(args))
        for k in ("api_base", "api_key", "num_retries"):
            args.pop(k, None)
        args["model"] = GROUP
        return router.completion(**args)

    return send
