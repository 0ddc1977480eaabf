"""Answers that run computers take at least a fixed time per computer decision.

Without this the answer to a human's move told the computer's number of options: one legal
play was answered in about 3 ms, a searched choice in about 11 ms (an attack found a threshold
at 8 ms right 79% of the time). A floor above what a decision takes makes every answer end at
the floor: a decision with one option and one with twenty look alike.

Decisions run in worker processes (bots/computers.py), which count each one, with how long
it took, for the request in progress (`decided`: the request's own context holds them). The
Planner's search is a fixed amount of work, so on a busy enough machine it takes longer than
the configured floor: the floor then grows to half as much again as the slowest of the last
`RECENT_DECISIONS` decisions (room for a machine getting busier),
so that a busy machine answers slowly, never tellingly.
`Pacer.paced` (around a request: `PacingMiddleware` for REST, the socket for its frames) holds
the answer until `decisions x floor` has passed since the request began, plus a random jitter
of a few milliseconds, so how late the event loop wakes from its sleep tells nothing either.
The wait is `asyncio.sleep`: nothing spins, and other requests run meanwhile. The app builds
one `Pacer` from `DOMINO_COMPUTER_THINK_S` (0: no floor, for simulations and functional tests)
and hands it to both.
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
# The durations of the decisions made for the request in progress: a key of each request's own
# context (a list, so steps run in a copied context still count into it), never shared state.
_decisions: ContextVar[list[float] | None] = ContextVar("computer_decisions", default=None)
# How many of the latest decisions' durations the floor keeps in sight.
RECENT_DECISIONS = 64
# The floor's room above the slowest recent decision: a decision slower than every recent one
# (the machine is getting busier) still ends before it, unless it is half as slow again.
RECENT_MARGIN = 1.5


def decided(seconds: float) -> None:
    """A computer decision that took `seconds` was made for the request in progress (if any)."""
    durations = _decisions.get()
    if durations is not None:
        durations.append(seconds)


class Pacer:
    """One app's floor and the durations of its latest decisions."""

    def __init__(self, settings: Settings) -> None:
        self.floor = max(0.0, settings.computer_think_s)
        self._recent: deque[float] = deque(maxlen=RECENT_DECISIONS)

    def floor_s(self) -> float:
        """The wait per decision: the configured floor, or more if the slowest recent decision
        took longer than the floor allows for (0 when pacing is off)."""
        if self.floor <= 0:
            return 0.0
        return max(self.floor, RECENT_MARGIN * max(self._recent, default=0.0))

    def holds(self) -> bool:
        """Whether the request in progress will wait for a floor (it made a decision)."""
        return self.floor > 0 and bool(_decisions.get())

    def wait_s(self, durations: list[float]) -> float:
        """How long after its start a request that made these decisions answers."""
        self._recent.extend(durations)
        return len(durations) * self.floor_s() if self.floor > 0 else 0.0

    @asynccontextmanager
    async def paced(self) -> AsyncIterator[None]:
        """Hold the end of the block until `floor x decisions made inside it` has passed."""
        started = time.perf_counter()
        durations: list[float] = []
        token = _decisions.set(durations)
        try:
            yield
        finally:
            _decisions.reset(token)
            wait = self.wait_s(durations)
            if wait > 0:
                await until(started + wait)


async def until(deadline: float) -> None:
    """Sleep past `deadline` (perf_counter) by a random 0 to JITTER_S: the jitter is larger
    than how late the event loop wakes, so the moment of the answer tells nothing else. The
    draw is the system's (SystemRandom keeps no state of its own)."""
    left = deadline - time.perf_counter() + random.SystemRandom().uniform(0.0, JITTER_S)
    if left > 0:
        await asyncio.sleep(left)


class PacingMiddleware:
    """Every HTTP request is paced: its response starts no sooner than its computers' floor."""

    def __init__(self, app: ASGIApp, pacer: Pacer) -> None:
        self.app = app
        self.pacer = pacer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        durations: list[float] = []
        token = _decisions.set(durations)

        async def send_paced(message: Message) -> None:
            if message["type"] == "http.response.start" and durations:
                wait = self.pacer.wait_s(durations)
                if wait > 0:
                    await until(started + wait)
            await send(message)

        try:
            await self.app(scope, receive, send_paced)
        finally:
            _decisions.reset(token)
