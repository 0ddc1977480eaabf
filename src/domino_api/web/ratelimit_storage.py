"""Where budgets are counted: process memory at a cost per hit that does not grow with the
number of keys, and Redis (shared) with per-process memory standing in while it is unreachable.

`limits`' own memory storage expires keys by scanning every key it holds, on a task scheduled by
each hit: with 150k addresses in a window that was over 20 ms of event loop per request.
`WindowMemory` keeps the same counters but finds what has expired through a heap ordered by
expiry, and drops at most a few keys per hit, so a hit costs O(log n) and memory stays bounded
by the keys of the last two windows (each hit adds at most one key and removes up to two
expired ones).

`Failover` puts a short timeout on every call to the shared storage (`limits`' `stream_timeout`
and `connect_timeout` for coredis, and an outer bound on the whole call). The first failure
switches the process to its own memory, logs once, sets the `domino_rate_limit_fallback`
gauge and `/readyz`'s `rate_limits`; a background `PING` (`Storage.check`) at most every
`retry_s` switches back when Redis answers again.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError
from limits.storage import storage_from_string

from domino_api import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")
Limiter = SlidingWindowCounterRateLimiter
# Expired keys dropped per hit at most: more than the one a hit can add, so a backlog shrinks.
EXPIRED_PER_HIT = 2


class WindowMemory(MemoryStorage):
    """`limits`' memory storage for the sliding-window counter, with expiry by a heap."""

    def __init__(self) -> None:
        super().__init__("async+memory://")
        self._due: list[tuple[float, str]] = []

    async def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        self._expire(now)
        self._drop_if_expired(key, now)
        count = self.storage[key] + amount
        self.storage[key] = count
        if count == amount:  # a new key: no await above, so no other hit came in between
            self.expirations[key] = now + expiry
            heapq.heappush(self._due, (now + expiry, key))
        return count

    async def decr(self, key: str, amount: int = 1) -> int:
        self._drop_if_expired(key, time.time())
        if key in self.storage:
            self.storage[key] = max(self.storage[key] - amount, 0)
        return self.storage.get(key, 0)

    async def get(self, key: str) -> int:
        # Every hit reads its counters, refused or not: each sweeps a few expired keys.
        now = time.time()
        self._expire(now)
        self._drop_if_expired(key, now)
        return self.storage.get(key, 0)

    def _drop_if_expired(self, key: str, now: float) -> None:
        if key in self.storage and self.expirations.get(key, 0) <= now:
            self._drop(key)

    def _drop(self, key: str) -> None:
        self.storage.pop(key, None)
        self.expirations.pop(key, None)
        self.locks.pop(key, None)

    def _expire(self, now: float) -> None:
        for _ in range(EXPIRED_PER_HIT):
            if not self._due or self._due[0][0] > now:
                return
            due, key = heapq.heappop(self._due)
            # A key dropped on read and counted again has a newer entry: this one is stale.
            if self.expirations.get(key) == due:
                self._drop(key)


class Failover:
    """Budgets on a shared storage, falling back to this process's memory while it is down."""

    def __init__(self, uri: str, prefix: str, timeout_s: float, retry_s: float) -> None:
        self.timeout_s = timeout_s
        self.retry_s = retry_s
        shared = storage_from_string(
            uri,
            key_prefix=prefix,
            wrap_exceptions=True,
            stream_timeout=timeout_s,
            connect_timeout=timeout_s,
        )
        assert isinstance(shared, Storage)  # an async+ URI (ratelimit.storage_uri)
        self.shared = shared
        self._shared = Limiter(self.shared)
        self._local = Limiter(WindowMemory())
        self.down_since: float | None = None
        self._next_probe = 0.0
        self._probe: asyncio.Task[None] | None = None

    def status(self) -> str:
        """Where budgets are counted: "shared", or "fallback" while the shared storage is
        unreachable (a probe is started when one is due)."""
        if self.down_since is not None:
            self._probe_when_due()
        return "shared" if self.down_since is None else "fallback"

    async def call(self, operation: Callable[[Limiter], Awaitable[T]]) -> T:
        if self.down_since is None:
            try:
                async with asyncio.timeout(self.timeout_s * 2):
                    return await operation(self._shared)
            except (StorageError, TimeoutError, OSError) as exc:
                self._went_down(exc)
        else:
            self._probe_when_due()
        return await operation(self._local)

    def _went_down(self, exc: Exception) -> None:
        if self.down_since is not None:
            return
        self.down_since = time.monotonic()
        self._next_probe = self.down_since + self.retry_s
        metrics.rate_limit_fallback(True)
        # Once per outage, without a traceback: every request would otherwise log one.
        log.error(
            "rate-limit storage unreachable (%s); budgets are per process until it answers",
            type(getattr(exc, "storage_error", exc)).__name__,
        )

    def _probe_when_due(self) -> None:
        now = time.monotonic()
        if now < self._next_probe or (self._probe is not None and not self._probe.done()):
            return
        self._next_probe = now + self.retry_s
        self._probe = asyncio.get_running_loop().create_task(self._check())

    async def _check(self) -> None:
        try:
            async with asyncio.timeout(self.timeout_s * 2):
                answered = await self.shared.check()
        except (StorageError, TimeoutError, OSError):
            answered = False
        if answered and self.down_since is not None:
            outage = time.monotonic() - self.down_since
            self.down_since = None
            metrics.rate_limit_fallback(False)
            log.warning("rate-limit storage answers again after %.1f s; budgets shared", outage)
