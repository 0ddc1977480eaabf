"""The lobby's fan-out: every lobby event reaches every process's lobby sockets.

The lobby's events are rows of `lobby_events`, numbered by `seq` (store/lobby_repo.py), as a
match's events are rows of `match_events`; the feed of each process reads what follows its
cursor and hands each of its sockets the events it may see (`LobbySubscriber.wants`): a
preset's public events to the sockets watching that preset, a seek's `seek_paired` to the
sockets holding that seek alone, a player's `your_turn` to that player's sockets. As for
matches (docs/ARCHITECTURE.md, "Fan-out"), the write that stored events announces after its
commit (the announcer's lobby topic: NATS subject `LOBBY_SUBJECT` or PostgreSQL channel
`LOBBY_CHANNEL`; this process's feed is also woken at once, `wake`), and every feed reads what
follows its cursor. A hint is only a hint: a lost one is repaired by the next, and by the read
every `POLL_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from nats.aio.client import Client as Nats
from nats.aio.msg import Msg

from domino_api.config import Settings
from domino_api.realtime.announce import LOBBY_CHANNEL, LOBBY_SUBJECT
from domino_api.realtime.nats_link import close_quietly, connect
from domino_api.realtime.outbox import Frame, Outbox
from domino_api.store import lobby_repo, notify
from domino_api.store.connect import Connector
from domino_api.store.db import Pool, to_plain_url

log = logging.getLogger(__name__)

# The repair read, and how long a backend that cannot be reached is waited for again.
POLL_S = 1.0
RETRY_S = 2.0
READ_BATCH = 500
# A hole in the seqs read (a transaction that took a seq has not committed yet, while a later
# one has) is waited for this long before it is taken for a rollback and passed over: read
# past at once, a pairing committed a moment late was never told (issue 47: 6 of 400).
HOLE_WAIT_S = 2.0
HOLE_RETRY_S = 0.02


class LobbySubscriber(Outbox):
    """One lobby socket: the preset it watches (None: none), the seeks it holds, its holder
    (whose own events it is sent: social/events.py), its outbox (realtime/outbox.py; each
    frame written as it comes)."""

    def __init__(
        self,
        ruleset: str | None,
        seeks: set[str],
        queue_size: int,
        limit_bytes: int,
        player_id: str = "",
    ) -> None:
        super().__init__(queue_size, limit_bytes)
        self.ruleset = ruleset
        self.seeks = seeks
        self.player_id = player_id
        self._told: set[str] = set()  # seeks whose pairing was sent (once, whichever way)

    def wants(self, ruleset: str, seek_id: str | None, player_id: str | None = None) -> bool:
        if player_id is not None:
            return player_id == self.player_id
        return seek_id in self.seeks if seek_id is not None else ruleset == self.ruleset

    def deliver(self, seek_id: str | None, frame: Frame) -> None:
        """An event of the feed; a seek's pairing only if it was not told already."""
        if seek_id is not None:
            if seek_id in self._told:
                return
            self._told.add(seek_id)
        self.send(frame)

    def tell_paired(self, seek_id: str, body: str) -> None:
        """A pairing the socket read itself (made before it subscribed), sent once."""
        self.deliver(seek_id, Frame.of_text(body))


class LobbyFeed:
    """This process's lobby sockets, its cursor in `lobby_events` and its backend's hints."""

    def __init__(self, pool: Pool, settings: Settings, database_url: str) -> None:
        self._pool = pool
        self._settings = settings
        self._url = to_plain_url(database_url)
        self._subscribers: set[LobbySubscriber] = set()
        self._cursor = 0
        self._hole_since: float | None = None  # when the hole after the cursor was first seen
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._nc: Nats | None = None
        self._lock = asyncio.Lock()
        self._started = False

    async def start(self) -> None:
        if self._started:
            return
        async with self._lock:
            if self._started:
                return
            async with self._pool.acquire() as connection:
                self._cursor = await lobby_repo.last_seq(connection)
            loop = asyncio.get_running_loop()
            self._tasks.append(loop.create_task(self._pump(), name="lobby-feed"))
            self._tasks.append(loop.create_task(self._hear(), name="lobby-hints"))
            self._started = True

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks.clear()
        if self._nc is not None:
            nc, self._nc = self._nc, None
            await close_quietly(nc)
        self._started = False

    def subscribe(self, subscriber: LobbySubscriber) -> None:
        self._subscribers.add(subscriber)

    def unsubscribe(self, subscriber: LobbySubscriber) -> None:
        self._subscribers.discard(subscriber)

    def players(self) -> set[str]:
        """The players whose lobby sockets this process holds (social/presence.py)."""
        return {s.player_id for s in self._subscribers if s.player_id}

    def wake(self) -> None:
        """Lobby events were stored by this process: read them now."""
        self._wake.set()

    async def _pump(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), POLL_S)
            self._wake.clear()
            try:
                await self._read()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database away: the next pass reads it
                log.warning("lobby feed read failed (%s)", exc)

    async def _read(self) -> None:
        """Hand out the events after the cursor, in seq order, never past a hole younger than
        `HOLE_WAIT_S` (its event may still commit): the pump reads again soon."""
        while True:
            async with self._pool.acquire() as connection:
                rows = await lobby_repo.events_after(connection, self._cursor, READ_BATCH)
            for seq, ruleset, seek_id, player_id, body in rows:
                if seq != self._cursor + 1 and not self._hole_passed():
                    asyncio.get_running_loop().call_later(HOLE_RETRY_S, self._wake.set)
                    return
                self._cursor, self._hole_since = seq, None
                frame = Frame.of_text(body)  # encoded once for every socket
                for subscriber in list(self._subscribers):
                    if subscriber.wants(ruleset, seek_id, player_id):
                        subscriber.deliver(seek_id, frame)
            if len(rows) < READ_BATCH:
                return

    def _hole_passed(self) -> bool:
        now = time.monotonic()
        if self._hole_since is None:
            self._hole_since = now
        return now - self._hole_since >= HOLE_WAIT_S

    async def _hear(self) -> None:
        """Wake the pump on the other processes' hints, for as long as the process runs."""
        listen: Callable[[], Awaitable[None]] = (
            self._hear_nats if self._settings.announce_backend == "nats" else self._hear_pg
        )
        while True:
            try:
                await listen()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("lobby hints lost (%s); again in %.0f s", exc, RETRY_S)
            await asyncio.sleep(RETRY_S)

    async def _hear_nats(self) -> None:
        if self._nc is None:
            self._nc = await connect(self._settings.nats_servers, "domino-lobby")

        async def on_hint(_: Msg) -> None:
            self._wake.set()

        await self._nc.subscribe(LOBBY_SUBJECT, cb=on_hint)
        await asyncio.Event().wait()  # the connection reconnects by itself

    async def _hear_pg(self) -> None:
        connection = await Connector(self._settings).connect_url(self._url)
        lost = asyncio.Event()
        try:
            connection.add_termination_listener(lambda _: lost.set())
            await connection.add_listener(LOBBY_CHANNEL, lambda *_: self._wake.set())
            while not lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(lost.wait(), 15.0)
                if not lost.is_set():
                    await asyncio.wait_for(notify.ping(connection), 10.0)
        finally:
            if not connection.is_closed():
                await connection.close()
