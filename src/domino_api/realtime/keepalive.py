"""Keepalives spread over their interval, and only to quiet sockets.

Every socket (match or lobby) is sent a frame at least every `keepalive_s`, so proxies keep it
open. One keepalive to every socket at once stalled the event loop in proportion to the
sockets (0.29 s at 10,000: bench/sockets.py); here the sockets are dealt into `slots` buckets as
they open, and each tick (`period / slots` apart) visits one bucket: a tick sends at most one
bucket's keepalives, encoded once. A socket written to within the last `quiet` seconds is
skipped: it was sent a frame recently enough. A socket is visited every `period`, so the longest
silence is `period + quiet` (0.9 of `keepalive_s`, plus the loop's lateness).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from domino_api.realtime.outbox import Frame, Outbox

# A tick about this often: a bucket's few writes each time (about 1/80 of the sockets, 2.5 ms
# of CPU at 20,000), never all of them at once; fewer wake-ups of an idle process.
TICK_S = 0.2
# A quiet socket is written once per PERIOD: a keepalive is one `send` system call (about 10
# us), so the longer the period, the less an idle process spends (bench/sockets.py).
PERIOD = 0.8  # of keepalive_s: how often a socket is visited
QUIET = 0.1  # of keepalive_s: a socket written to since then is skipped


class Keepalives:
    """The process's open sockets' outboxes in buckets, and the tick that visits them."""

    def __init__(self, keepalive_s: float, make: Callable[[], Frame]) -> None:
        self.period = max(0.5, keepalive_s * PERIOD)
        self.quiet = keepalive_s * QUIET
        self.slots = max(1, round(self.period / TICK_S))
        self.tick_s = self.period / self.slots
        self._make = make
        self._buckets: list[dict[Outbox, None]] = [{} for _ in range(self.slots)]
        self._where: dict[Outbox, int] = {}
        self._dealt = 0  # the bucket of the next socket that opens
        self._tick = 0  # the bucket the next tick visits
        self.sent = 0

    def add(self, outbox: Outbox) -> None:
        if outbox in self._where:
            return
        slot = self._dealt % self.slots
        self._dealt += 1
        self._where[outbox] = slot
        self._buckets[slot][outbox] = None

    def remove(self, outbox: Outbox) -> None:
        slot = self._where.pop(outbox, None)
        if slot is not None:
            self._buckets[slot].pop(outbox, None)

    def __len__(self) -> int:
        return len(self._where)

    def tick(self, now: float) -> int:
        """Visit the next bucket at loop time `now`: the quiet sockets in it are sent one
        keepalive (the same bytes for all). Returns how many were sent."""
        bucket = self._buckets[self._tick]
        self._tick = (self._tick + 1) % self.slots
        frame: Frame | None = None
        sent = 0
        for outbox in bucket:
            if outbox.last_sent > now - self.quiet:
                continue
            if frame is None:
                frame = self._make()
            outbox.send(frame)
            sent += 1
        self.sent += sent
        return sent

    async def run(self) -> None:
        """Tick for as long as the process serves (a task of realtime/lifecycle.py)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.tick_s)
            if self._where:
                self.tick(loop.time())
