"""Computers decide beside the tables: in worker processes, never on an API event loop.

A Planner's search takes 10-30 ms of CPU (more on a busy machine); run on the event loop it held
every other table of the process for that long, three times per human move at a table of four.
So the write core (matches/unit.py) runs after each step: while a computer seat has the
turn, that seat's view (and nothing else) is sent to a worker process, and the move it chose is
applied and staged like any other, to be saved with the step by the unit's one guarded save.
Each decision is awaited, so other requests run meanwhile.

A decision is seeded by match id and seq (engine/table `computer_seed`), and no strategy reads a
clock, so it is the same in whichever worker, on however busy a machine. The workers are one
set per process (bots/processes.py: spawned processes, one socketpair each, read by the event
loop), a `Computers` made where the process is wired (domino_api/app/wiring.py), whose `choose`
the write core is handed as its `Decide` (matches/ports.py): matches imports nothing of bots.
They start on first use or by `start` when the service starts, and leave when their API process
is gone, even one killed outright.
"""

from __future__ import annotations

import asyncio
import os
import time

from domino_api import engine
from domino_api.bots.processes import Deciders
from domino_api.config import Settings
from domino_api.matches import pacing


class Computers:
    """One process's computer workers: `size` of them (0 meaning one per core)."""

    def __init__(self, size: int = 0) -> None:
        # Worked out once: os.cpu_count() reads /sys on each call (8 us), and every decision asks.
        self.size = size or os.cpu_count() or 1
        self._deciders: Deciders | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> Computers:
        """Sized by `DOMINO_COMPUTER_WORKERS`."""
        return cls(settings.computer_workers)

    def _current(self) -> Deciders:
        if self._deciders is None:
            self._deciders = Deciders(self.size)
        return self._deciders

    def pids(self) -> list[int]:
        """The running workers' process ids (for operators and tests)."""
        return self._deciders.pids() if self._deciders is not None else []

    async def start(self) -> None:
        """Start every worker now, so the first decisions do not wait for them to import."""
        await self._current().start()

    async def stop(self) -> None:
        """Close the workers' channels (on this loop, which reads them) and wait, in a thread,
        for the workers to leave."""
        deciders, self._deciders = self._deciders, None
        if deciders is not None:
            deciders.close()
            await asyncio.to_thread(deciders.join)

    async def choose(
        self, name: str, view: engine.SeatView, seed: str
    ) -> tuple[engine.Action, str]:
        """The strategy's choice, decided in a worker (one that died is replaced)."""
        started = time.perf_counter()
        choice = await self._current().decide(name, view, seed)
        pacing.decided(time.perf_counter() - started)
        return choice
