"""What followers of committed steps gather, handed to one background task in batches.

The write driver tells each follower of every committed step (matches/writes.py); a follower
that must write something (the lobby's read model, the turn notices) does not write in the
step's own request: it gathers what the step asks for here, keyed so a later item may replace
an earlier one of the same key, and one task per follower hands everything gathered since its
last pass to the follower's `handle`, one pass at a time. A pass that fails is logged (a
database away: a warning) and its items are dropped: each follower's reads stay true without
them (`GET /v1/lobby`, `GET /v1/turns`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from domino_api.errors import database_state

log = logging.getLogger(__name__)

T = TypeVar("T")


class Gathered(Generic[T]):
    """Items gathered by key, and the one task that hands them on."""

    def __init__(
        self,
        name: str,
        handle: Callable[[list[T]], Awaitable[object]],
        keep: Callable[[T, T], bool] = lambda old, new: True,
    ) -> None:
        self.name = name
        self._handle = handle
        self._keep = keep  # whether `new` replaces `old` of the same key
        self._pending: dict[Hashable, T] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._busy = False

    def add(self, items: list[tuple[Hashable, T]]) -> None:
        for key, item in items:
            old = self._pending.get(key)
            if old is None or self._keep(old, item):
                self._pending[key] = item
        if self._pending:
            if self._task is None or self._task.done():
                loop = asyncio.get_running_loop()
                self._task = loop.create_task(self._run(), name=self.name)
            self._wake.set()

    async def settled(self) -> None:
        """Wait until everything gathered so far is handled (tests, shutdown)."""
        while self._pending or self._wake.is_set() or self._busy:
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            items, self._pending = list(self._pending.values()), {}
            self._busy = True
            try:
                await self._handle(items)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                level = logging.WARNING if database_state(exc) is not None else logging.ERROR
                log.log(level, "%s: %d items were not handled (%s)", self.name, len(items), exc)
            finally:
                self._busy = False
