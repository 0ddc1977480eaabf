"""The per-process hub: hands each match's events to local sockets.

A step this process committed comes with its events (`hand_over`, from the write driver
through the announcer: matches/writes.py): each subscriber whose cursor is just before them is
handed them at once, projected for its seat by `views.event_for` (once per seat), and nothing
is read back. Everything else is read from the `match_events` table, by `seq`: another
process's announcement (realtime/announce.py) says only "match M reached seq S", and a
subscriber that lacks earlier events (a gap: commits handed over out of order, a lost
announcement), joins late or resumes with `after=N` is caught up by one pump task per match,
which reads the events after the lowest cursor and hands every subscriber the ones after its
own. Each subscriber is only ever handed the event right after its cursor, so it sees every
event in `seq` order without gaps or repeats, whichever path brought it.

Who sees an event as what is decided here, once per event (realtime/visibility.py, as lila's
`visibleBy`): the seat's projection, and a table talk message marked `muted` for the players who
muted its seat. The feed of a match holds those mutes (read once, when the feed starts, and again
when a mute or an unmute is announced: `visibility_changed`), so a socket only sends.

Each event is encoded once per audience (a seat's copy, the spectators' copy, a muted mark)
into a whole WebSocket frame, and a step's frames reach each socket in one write straight to
its transport: the seated sockets at once, the spectators in slices, one per turn of the loop,
so a mover's ack never waits behind them (realtime/outbox.py). A slow socket never stalls the
pump or the others: one whose kernel buffer or outbox overflows is told to close (`too_slow`)
and resumes with `after=N`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from domino_api.engine.table import Staged
from domino_api.errors import database_state
from domino_api.jsontext import dump_bytes
from domino_api.matches.ports import Committed
from domino_api.matches.presence import HeldSeat
from domino_api.realtime.frames import EventFrame
from domino_api.realtime.outbox import Flusher, Frame, Outbox, flush_all
from domino_api.realtime.visibility import NO_MUTES, Mutes, MutesReader, copy_for, muted_by
from domino_api.store import civil_repo, match_reads
from domino_api.store.db import transaction
from domino_api.store.models import MatchEvent

log = logging.getLogger(__name__)

READ_BATCH = 500
# Concurrent event reads across matches: leaves the pool to the request handlers.
READ_SLOTS = 8
# Bytes a socket's kernel has not taken before it is closed `too_slow` (a default for tests).
LIMIT_BYTES = 1 << 20

# A step's own events (`hand_over`) or rows read back: each is projected per seat by `event_for`.
Row = Staged | MatchEvent
Reader = Callable[[str, int, int], Awaitable[Sequence[Row]]]
# Called with a match id when its first local subscriber arrives and when its last one leaves:
# the NATS listener subscribes to just those matches.
Watcher = Callable[[str], None]


class Subscriber(Outbox):
    """One socket's place in the hub: its seat, its cursor and its outbox (realtime/outbox.py):
    a frame handed to it is sent at its next flush, in order."""

    def __init__(
        self,
        match_id: str,
        seat: int | None,
        cursor: int,
        queue_size: int,
        player_id: str | None = None,
        limit_bytes: int = LIMIT_BYTES,
    ) -> None:
        super().__init__(queue_size, limit_bytes)
        self.match_id = match_id
        self.seat = seat
        self.player_id = player_id  # whose mutes apply to what it is sent (None: nobody's)
        self.cursor = cursor

    def offer(self, frame: Frame) -> bool:
        """Hand one event's frame; False when the socket fell too far behind."""
        return self.put(frame)


@dataclass
class MatchFeed:
    match_id: str
    subscribers: set[Subscriber] = field(default_factory=set)
    dirty: bool = False  # read again, whatever was read before (a poke)
    # The highest seq every live subscriber has been handed (or had before it came): an
    # announcement of a seq at or below it needs no read. The local hand-over and then the
    # broker bring each commit of this process twice; only the first is read.
    read_to: int = 0
    wanted: int = 0  # the highest seq announced and not yet read by a pass
    task: asyncio.Task[None] | None = None
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    # Who muted which seat at this match; None: to be read by the pump before it delivers.
    mutes: Mutes | None = None


class Hub:
    def __init__(
        self,
        maker: async_sessionmaker[AsyncSession] | None,
        reader: Reader | None = None,
        mutes_reader: MutesReader | None = None,
    ) -> None:
        self._maker = maker
        self._reader = reader or self._read_events
        self._mutes_reader = mutes_reader or self._read_mutes
        self._feeds: dict[str, MatchFeed] = {}
        self._slots = asyncio.Semaphore(READ_SLOTS)
        self._presence: dict[HeldSeat, int] = {}  # sockets per held seat
        self.flusher = Flusher()
        self.reads = 0
        self.mute_reads = 0
        self.on_watch: Watcher | None = None
        self.on_unwatch: Watcher | None = None

    # ------------------------------------------------------------ subscribers

    def subscribe(self, subscriber: Subscriber) -> None:
        """Add a subscriber whose queue already holds what must come first (the snapshot)."""
        feed = self._feeds.get(subscriber.match_id)
        new = feed is None
        if feed is None:
            feed = self._feeds[subscriber.match_id] = MatchFeed(subscriber.match_id)
            if self.on_watch is not None:
                self.on_watch(subscriber.match_id)
        feed.subscribers.add(subscriber)
        # A read brings what was committed after the subscriber's snapshot, unless the match
        # is already followed up to it: then every later commit is announced and delivered to
        # it too (a crowd of spectators opening costs no read each, bench/socket_opens.py).
        # A pass under way may have counted its sockets without this one: it passes again.
        if new or subscriber.cursor < feed.read_to or (feed.task and not feed.task.done()):
            self.poke(subscriber.match_id)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        feed = self._feeds.get(subscriber.match_id)
        if feed is None:
            return
        feed.subscribers.discard(subscriber)
        if not feed.subscribers:
            # A pump still running on this feed has nobody to deliver to and ends by itself;
            # a new subscriber gets a new feed (and pump) meanwhile.
            self._drop(feed)

    def watches(self, match_id: str) -> bool:
        return match_id in self._feeds

    def _drop(self, feed: MatchFeed) -> None:
        if self._feeds.get(feed.match_id) is feed:
            del self._feeds[feed.match_id]
            if self.on_unwatch is not None:
                self.on_unwatch(feed.match_id)

    def subscribers(self) -> list[Subscriber]:
        return [s for feed in self._feeds.values() for s in feed.subscribers]

    def match_ids(self) -> list[str]:
        return list(self._feeds)

    # ------------------------------------------------------------ presence bookkeeping

    def hold_seats(self, match_id: str, seats: list[int], player_id: str) -> None:
        for seat in seats:
            key = (match_id, seat, player_id)
            self._presence[key] = self._presence.get(key, 0) + 1

    def drop_seats(self, match_id: str, seats: list[int], player_id: str) -> list[int]:
        """Forget one socket's seats; returns the seats no local socket holds any more."""
        freed = []
        for seat in seats:
            key = (match_id, seat, player_id)
            left = self._presence.get(key, 0) - 1
            if left <= 0:
                self._presence.pop(key, None)
                freed.append(seat)
            else:
                self._presence[key] = left
        return freed

    def held_seats(self) -> list[HeldSeat]:
        return list(self._presence)

    # ------------------------------------------------------------ notifications

    def hand_over(self, step: Committed) -> None:
        """A step this process committed, with its events: handed to the local subscribers as
        they are; one that lacks earlier events has them read (and these with them)."""
        feed = self._feeds.get(step.match_id)
        if feed is None or step.seq <= feed.read_to:
            return
        if not step.events or feed.mutes is None:  # only its seq is known, or not who muted
            self.notify(step.match_id, step.seq)
            return
        live = [s for s in feed.subscribers if not s.too_slow.is_set()]
        self._offer(step.events, live, feed.mutes)
        if all(s.cursor >= step.seq for s in live):
            feed.read_to = max(feed.read_to, step.seq)
        else:
            self.notify(step.match_id, step.seq)

    def notify(self, match_id: str, seq: int | None = None) -> None:
        """An announcement arrived (this process's own commit, or one from the broker): only
        matches with local subscribers are read, and only if `seq` has not been read yet."""
        feed = self._feeds.get(match_id)
        if feed is None:
            return
        if seq is None:
            self.poke(match_id)
        elif seq > feed.read_to:
            feed.wanted = max(feed.wanted, seq)
            self._run(feed)

    def visibility_changed(self, match_id: str) -> None:
        """A mute or an unmute at the match was announced: its feed reads who muted whom once
        more before it delivers again (one read per match and process, never per socket)."""
        feed = self._feeds.get(match_id)
        if feed is not None:
            feed.mutes = None
            self.poke(match_id)

    def poke_all(self) -> None:
        """After a lost listening connection (announcements may have been missed)."""
        for match_id in list(self._feeds):
            self.poke(match_id)

    def catch_up(self, stored: dict[str, int]) -> list[str]:
        """Poke every watched match whose stored seq is past a local cursor (an announcement
        was lost); returns the ids poked. A match read up to its stored seq (`read_to`) is
        passed without walking its sockets: an idle process's pass costs one read, not a look
        at each of its sockets (bench/sockets.py)."""
        behind = []
        for match_id, seq in stored.items():
            feed = self._feeds.get(match_id)
            if feed is None or seq <= feed.read_to:
                continue
            live = [s.cursor for s in feed.subscribers if not s.too_slow.is_set()]
            if live and seq > min(live):
                behind.append(match_id)
        for match_id in behind:
            self.poke(match_id)
        return behind

    def poke(self, match_id: str) -> None:
        feed = self._feeds.get(match_id)
        if feed is None:
            return
        feed.dirty = True
        self._run(feed)

    def _run(self, feed: MatchFeed) -> None:
        if feed.task is None or feed.task.done():
            feed.task = asyncio.get_running_loop().create_task(self._pump(feed))

    async def sync(self, match_id: str) -> None:
        """Deliver every committed event of the match to local subscribers, then return."""
        feed = self._feeds.get(match_id)
        if feed is None:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        feed.waiters.append(waiter)
        self.poke(match_id)
        await waiter

    # ------------------------------------------------------------ the pump

    async def _pump(self, feed: MatchFeed) -> None:
        failures = 0
        while feed.dirty or feed.wanted > feed.read_to:
            feed.dirty = False
            asked = feed.wanted
            waiters, feed.waiters = feed.waiters, []
            try:
                await self._pass(feed)
                failures = 0
                if feed.wanted == asked:  # committed before this pass read, so it was read
                    feed.wanted = 0
            except Exception as exc:
                failures += 1
                if database_state(exc) is not None:  # a restart, a failover: wait it out
                    log.warning("reading match %s waits for the database", feed.match_id)
                else:
                    log.exception("reading events of match %s failed", feed.match_id)
                # At most a second: the socket reads on soon after the database is back.
                await asyncio.sleep(min(1.0, 0.1 * 2**failures))
                feed.dirty = bool(feed.subscribers)
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)
        if not feed.subscribers:
            self._drop(feed)

    async def _pass(self, feed: MatchFeed) -> None:
        while True:
            live = [s for s in feed.subscribers if not s.too_slow.is_set()]
            if not live:
                return
            if feed.mutes is None:
                async with self._slots:
                    self.mute_reads += 1
                    feed.mutes = await self._mutes_reader(feed.match_id)
            low = min(s.cursor for s in live)
            async with self._slots:
                self.reads += 1
                rows = await self._reader(feed.match_id, low, READ_BATCH)
            if not rows or not self._deliver(rows, low, live, feed.mutes or NO_MUTES):
                feed.read_to = max(feed.read_to, low)
                return
            feed.read_to = max(feed.read_to, _seq(rows[-1]))
            if len(rows) < READ_BATCH:
                return

    def _deliver(
        self, rows: Sequence[Row], low: int, subscribers: list[Subscriber], mutes: Mutes
    ) -> bool:
        """Hand each subscriber the rows after its cursor; False at a hole in the seqs."""
        for index, row in enumerate(rows):
            if _seq(row) != low + 1 + index:
                # Never skip: a hole means a later read fills it (cannot happen under the lock).
                log.warning("gap in match %s at seq %s", subscribers[0].match_id, _seq(row))
                return False
        self._offer(rows, subscribers, mutes)
        return True

    def _offer(self, rows: Sequence[Row], subscribers: list[Subscriber], mutes: Mutes) -> None:
        """Hand each subscriber the events (consecutive seqs) that follow its cursor, then
        flush: the seated sockets at once, the spectators in the flusher's slices (a mover's
        ack never waits behind them). Each event's visibility is decided once (`muted_by`: who
        muted its speaker), and each copy encoded once per seat and mark (a step's events and
        stored rows each carry their `at`): every socket of an audience is written the same
        bytes, a step's events in one write."""
        copies: dict[tuple[int, int | None, bool], Frame] = {}
        first = _seq(rows[0])
        muting = [muted_by(row, mutes) for row in rows]
        handed: list[Outbox] = []
        for subscriber in subscribers:
            start = subscriber.cursor + 1 - first
            if not 0 <= start < len(rows):
                continue
            handed.append(subscriber)
            for index in range(start, len(rows)):
                key = (index, subscriber.seat, subscriber.player_id in muting[index])
                frame = copies.get(key)
                if frame is None:
                    event = copy_for(rows[index], subscriber.seat, key[2])
                    frame = copies[key] = Frame(dump_bytes(EventFrame(event=event)), event)
                if not subscriber.offer(frame):
                    break
                subscriber.cursor = first + index
        flush_all(handed, _seated, self.flusher)

    async def _read_events(self, match_id: str, after: int, limit: int) -> list[MatchEvent]:
        assert self._maker is not None
        async with transaction(self._maker) as session:
            return await match_reads.events_after(session, match_id, after, limit)

    async def _read_mutes(self, match_id: str) -> Mutes:
        if self._maker is None:
            return NO_MUTES
        async with transaction(self._maker) as session:
            return await civil_repo.mutes_of_match(session, match_id)


def _seq(row: Row) -> int:
    return row.seq


def _seated(outbox: Outbox) -> bool:
    return isinstance(outbox, Subscriber) and outbox.seat is not None
