"""A per-learner budget of model calls per day, kept in the course's ``.bh/budget.json``.

The served workbench runs each learner's session in its own thread; the thread that opened
a learner's folder is marked with :func:`act_as`, and every model call made from it is
counted against that learner (:meth:`Budget.spend`) before it leaves the server. Calls from
unmarked threads (the teacher grading the class, the CLI) are not a learner's and are not
counted.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from basehalf_core.folder.fsio import open_folder, read_bytes
from basehalf_core.folder.writing import update
from basehalf_core.study.llm import ModelError

FILE = ".bh/budget.json"
_current = threading.local()


class BudgetExceeded(ModelError):
    """The learner has used today's model calls; the message says how many and when it resets."""


def act_as(learner: str | None) -> None:
    """Count this thread's model calls against ``learner`` (``None``: against nobody)."""
    _current.learner = learner


def current() -> str | None:
    """The learner this thread acts for, if any."""
    return getattr(_current, "learner", None)


class Budget:
    """``per_day`` model calls per learner per UTC day (``0`` or less: no model calls)."""

    def __init__(
        self,
        course_folder: str | os.PathLike,
        per_day: int,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
    ):
        self.root: Path = open_folder(course_folder)
        self.per_day = per_day
        self.clock = clock

    @staticmethod
    def _parse(raw: bytes | None) -> dict:
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            data = {}  # a damaged counter file starts the day again rather than locking all out
        return data if isinstance(data, dict) else {}

    def used(self, learner: str) -> int:
        """Calls ``learner`` made today."""
        day = self.clock().date().isoformat()
        # The file is only ever replaced whole (atomic rename): a read needs no lock.
        counts = self._parse(read_bytes(self.root / FILE)).get(day, {})
        return int(counts.get(learner, 0)) if isinstance(counts, dict) else 0

    def left(self, learner: str) -> int:
        """Calls ``learner`` may still make today."""
        return max(0, self.per_day - self.used(learner))

    def spend(self, learner: str) -> int:
        """Count one call for ``learner``; returns the calls left after it.

        Raises:
            BudgetExceeded: today's calls are used up (nothing is counted then).
        """
        day = self.clock().date().isoformat()
        left: list[int] = []

        def plan(raw: bytes | None) -> bytes:
            data = self._parse(raw)
            today = data.get(day) if isinstance(data.get(day), dict) else {}
            used = int(today.get(learner, 0))
            if used >= self.per_day:
                raise BudgetExceeded(
                    f"{learner} has used today's {self.per_day} model calls; the budget resets "
                    "at 00:00 UTC (the offline grader still works)"
                )
            today[learner] = used + 1
            left[:] = [self.per_day - used - 1]
            # Only today is kept: yesterday's counts are of no use to anyone.
            return json.dumps({day: today}, sort_keys=True).encode("utf-8")

        # Under the file's lock (writing.update: a thread lock and an flock), so several server
        # processes on one course and the threads of each count one at a time: none overspends.
        update(self.root, FILE, plan)
        return left[0]
