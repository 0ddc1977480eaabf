"""Answers that run computers take at least a fixed time per computer decision.

Without this the answer to a human's move told the computer's number of options: one legal
play was answered in about 3 ms, a searched choice in about 11 ms (an attack found a threshold
at 8 ms right 79% of the time). A floor above what a decision takes makes every answer end at
the floor: a decision with one option and one with twenty look alike.

Decisions run in worker processes (matches/computers.py), which count each one for the request
in progress (`decided`). The Planner's search is a fixed amount of work, so on a busy enough
machine it takes longer than the configured floor: the floor then grows to half as much again
as the slowest of the last `RECENT_DECISIONS` decisions (room for a machine getting busier),
so that a busy machine answers slowly, never tellingly.
`paced` (around a request: `PacingMiddleware` for REST, the socket for its frames) holds the
answer until `decisions x floor` has passed since the request began, plus a random jitter of a
few milliseconds, so how late the event loop wakes from its sleep tells nothing either. The
wait is `asyncio.sleep`: nothing spins, and other requests run meanwhile. `configure` sets the
floor from `DOMINO_COMPUTER_THINK_S` (0: no floor, for simulations and functional tests).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domino_api.config import Settings

# The default floor (`DOMINO_COMPUTER_THINK_S`): above the 10-30 ms a Planner's search takes.
DEFAULT_FLOOR_S: float = Settings.model_fields["computer_think_s"].default
# The most a paced answer waits past its floor (a uniform draw from 0 to this).
JITTER_S = 0.004
_floor_s = DEFAULT_FLOOR_S
# The decisions made for the request in progress (a list, so steps run in a copied context
# still count into it).
_decisions: ContextVar[list[int] | None] = ContextVar("computer_decisions", default=None)
_jitter = random.SystemRandom()
# How many of the latest decisions' durations the floor keeps in sight.
RECENT_DECISIONS = 64
# The floor's room above the slowest recent decision: a decision slower than every recent one
# (the machine is getting busier) still ends before it, unless it is half as slow again.
RECENT_MARGIN = 1.5
_recent: deque[float] = deque(maxlen=RECENT_DECISIONS)


def configure(settings: Settings) -> None:
    global _floor_s
    _floor_s = max(0.0, settings.computer_think_s)


def floor_s() -> float:
    """The wait per decision: the configured floor, or more if the slowest recent decision
    took longer than the floor allows for (0 when pacing is off)."""
    if _floor_s <= 0:
        return 0.0
    return max(_floor_s, RECENT_MARGIN * max(_recent, default=0.0))


def decided(seconds: float) -> None:
    """A computer decision that took `seconds` was made for the request in progress (if any)."""
    _recent.append(seconds)
    counter = _decisions.get()
    if counter is not None:
        counter[0] += 1


@asynccontextmanager
async def paced() -> AsyncIterator[None]:
    """Hold the end of the block until `floor x decisions made inside it` has passed."""
    started = time.perf_counter()
    counter = [0]
    token = _decisions.set(counter)
    try:
        yield
    finally:
        _decisions.reset(token)
        if counter[0] and _floor_s > 0:
            await until(started + counter[0] * floor_s())


async def until(deadline: float) -> None:
    """Sleep past `deadline` (perf_counter) by a random 0 to JITTER_S: the jitter is larger
    than how late the event loop wakes, so the moment of the answer tells nothing else."""
    left = deadline - time.perf_counter() + _jitter.uniform(0.0, JITTER_S)
    if left > 0:
        await asyncio.sleep(left)


class PacingMiddleware:
    """Every HTTP request is `paced`: its response starts no sooner than its computers' floor."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        counter = [0]
        token = _decisions.set(counter)

        async def send_paced(message: Message) -> None:
            if message["type"] == "http.response.start" and counter[0] and _floor_s > 0:
                await until(started + counter[0] * floor_s())
            await send(message)

        try:
            await self.app(scope, receive, send_paced)
        finally:
            _decisions.reset(token)
