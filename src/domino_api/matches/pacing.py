"""Answers that run computers take at least a fixed time per computer decision.

Without this the answer to a human's move told the computer's number of options: one legal
play was answered in about 3 ms, a searched choice in about 11 ms (issue 16, attack 7), and a
threshold at 8 ms was right 79% of the time. The planner stops its search at its wall-clock
budget (`bots.planner.TIME_BUDGET_S`), so a floor a little above that budget per decision makes
every answer end at the floor: a decision with one option and one with twenty look alike.

The write path chooses through `choose` (synchronous, inside the step), which counts the
decisions of the request in progress; `paced` (around a request: `PacingMiddleware` for REST,
the socket for its frames) holds the answer until `decisions x floor` has passed since the
request began. The wait is `asyncio.sleep`, so other requests run meanwhile. `configure` sets
the floor from `DOMINO_COMPUTER_THINK_S` (0: no floor, for simulations and functional tests).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domino_api.bots import get_strategy
from domino_api.bots.planner import TIME_BUDGET_S
from domino_api.config import Settings
from domino_api.engine import Action, SeatView

# The planner's budget plus room for the one deal it may start just before its deadline.
DEFAULT_FLOOR_S = TIME_BUDGET_S + 0.015
# How long before the deadline the sleep ends (see `until`).
SPIN_S = 0.002
_floor_s = DEFAULT_FLOOR_S
# The decisions made for the request in progress (a list, so steps run in a copied context,
# as `asyncio.to_thread` does, still count into it).
_decisions: ContextVar[list[int] | None] = ContextVar("computer_decisions", default=None)


def configure(settings: Settings) -> None:
    global _floor_s
    _floor_s = max(0.0, settings.computer_think_s)


def floor_s() -> float:
    return _floor_s


def choose(name: str, view: SeatView, rng: random.Random) -> tuple[Action, str]:
    """`get_strategy(name).choose(view, rng)`, counted for the request in progress."""
    counter = _decisions.get()
    if counter is not None:
        counter[0] += 1
    return get_strategy(name).choose(view, rng)


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
            await until(started + counter[0] * _floor_s)


async def until(deadline: float) -> None:
    """Return at `deadline` (perf_counter), to a few microseconds.

    `asyncio.sleep` alone wakes 1-3 ms late, and later after a long search than after a quick
    choice (measured), which a classifier could still see; so it sleeps to SPIN_S before the
    deadline and waits out the rest on the clock (at most SPIN_S of CPU per answer)."""
    left = deadline - time.perf_counter()
    if left > SPIN_S:
        await asyncio.sleep(left - SPIN_S)
    while time.perf_counter() < deadline:
        pass


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
                await until(started + counter[0] * _floor_s)
            await send(message)

        try:
            await self.app(scope, receive, send_paced)
        finally:
            _decisions.reset(token)
