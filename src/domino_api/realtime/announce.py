"""Announcements: after a step commits, "match M reached seq S" goes to every API process
(and, for a tournament's feed, "tournament T reached seq S" to whoever listens for it).

For other processes an announcement is only a hint to go and read the event table by seq
(docs/ARCHITECTURE.md, "Fan-out"); it is sent after the commit and outside any transaction,
because a NOTIFY inside a transaction holds PostgreSQL's database-wide notify lock until that
commit is flushed.

The write driver (matches/writes.py) calls `Announcer.announce_committed` with each committed
step and its events. Local first: the step goes at once to this process's own hub (the hook set
by `deliver_locally`, realtime/lifecycle.py), events and all, so a socket on the process that
committed a step never waits for the broker, nor reads back what was just written; the backend
carries only "match M reached seq S" to the other processes. Neither call
waits for the network: the announcement joins a small queue of this process, one entry per
match (or tournament) holding only its highest seq (a hub reads everything after its cursor,
so an older seq of the same match adds nothing), and one task sends whatever has gathered as
one batch while the requests that committed it have already been answered: woken by the
first, it lets `GATHER_S` pass before it sends, so that under load many steps share one
statement. `close()` sends what is left. A full queue drops the announcement of a
match it does not hold yet; the catch-up repairs it, as it repairs one lost to a crash (a
tournament's is repaired by its next one, or by a read of its feed after the last seq seen).

Backends, chosen by `Settings.announce_backend`: PostgreSQL LISTEN/NOTIFY on channel `CHANNEL`
(the default; a batch is one `pg_notify` statement over arrays, in its own implicit transaction:
store/notify.py) and NATS core subjects, one per match (`subject(match_id)`), at the servers of
`Settings.nats_servers` (a batch is published and then flushed). The receiving side of each is in
`realtime/listener.py`.

A tournament's events (`announce_tournament`) take the same queue and backend, on channel
`TOURNAMENT_CHANNEL` or subject `tournament_subject(tournament_id)`, as `<tournament_id>:<seq>`;
no hub of this process reads them (nothing here keeps a tournament socket), so they are never
handed over locally.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Protocol

from nats.aio.client import Client as Nats

from domino_api import metrics
from domino_api.config import Settings
from domino_api.matches.ports import Committed
from domino_api.realtime.nats_link import close_quietly, connect
from domino_api.store import notify
from domino_api.store.db import Pool

# Named here too, where the backend is: the listener, store/matches_repo.py and tests read them.
from domino_api.store.notify import CHANNEL as CHANNEL
from domino_api.store.notify import LOBBY_CHANNEL as LOBBY_CHANNEL
from domino_api.store.notify import REVOKED_CHANNEL as REVOKED_CHANNEL
from domino_api.store.notify import TOURNAMENT_CHANNEL as TOURNAMENT_CHANNEL

log = logging.getLogger(__name__)

SUBJECT_PREFIX = "domino.match."
TOURNAMENT_SUBJECT_PREFIX = "domino.tournament."
REVOKED_SUBJECT = "domino.revoked"  # every process subscribes: web/revocation.py
LOBBY_SUBJECT = "domino.lobby"
# Matches waiting to be announced, per process. Sending keeps far ahead of committing (one
# statement per batch), so the queue fills only while the backend is unreachable.
QUEUE_MATCHES = 10_000
# Announcements per statement (PostgreSQL) or per flush (NATS).
BATCH = 1_000
# How long the sending task lets announcements gather after the first one wakes it. At
# hundreds of moves a second a send otherwise carried one or two steps (0.7 NOTIFY statements
# per move, each a pool checkout and a round trip); gathered, one statement carries the steps
# of several requests (bench/capacity.md, "Announcements gathered"). Only other processes hear
# of a step this much later: this process's sockets are told at once (`_hand_over`).
GATHER_S = 0.005
# How long close() waits for the last batches before dropping them.
CLOSE_TIMEOUT_S = 10.0
# A NATS flush waits this long for the server's answer (while reconnecting it waits; the
# announcements stay in nats-py's buffer either way).
NATS_FLUSH_TIMEOUT_S = 5


# This process's own hub: called with each committed step (with its events, or none when only
# its seq is known: the hub then reads them) as it is announced; and with a match's id when who
# sees its events as what changed (a mute).
LocalDelivery = Callable[[Committed], None]
LocalVisibility = Callable[[str], None]


def payload(match_id: str, seq: int) -> str:
    return f"{match_id}:{seq}"


def _payload(kind: str, topic_id: str, seq: int) -> str:
    if kind == LOBBY:
        return ""
    return topic_id + VISIBILITY_TAIL if kind == VISIBILITY else payload(topic_id, seq)


def subject(match_id: str) -> str:
    """The NATS subject of one match: a process subscribes to the matches it has sockets for."""
    return SUBJECT_PREFIX + match_id


def lobby_subject(_: str) -> str:
    """The lobby's one subject: every process with lobby sockets listens to it."""
    return LOBBY_SUBJECT


def tournament_subject(tournament_id: str) -> str:
    """The NATS subject of one tournament's feed."""
    return TOURNAMENT_SUBJECT_PREFIX + tournament_id


def revoked_subject(_token_hash: str) -> str:
    """Every revocation goes on one subject, which every process subscribes to."""
    return REVOKED_SUBJECT


# The `at` of a step announced without its events (none are shown).
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

# What is announced: a match's events, a change of who sees them as what (a mute), or a
# tournament's feed, and its id.
MATCH = "match"
VISIBILITY = "visibility"
TOURNAMENT = "tournament"
REVOKED = "revoked"  # a credential's token hash; its seq is always 0
# "The lobby moved": its sockets' feeds read `lobby_events` after their cursors.
LOBBY = "lobby"
Topic = tuple[str, str]
CHANNELS = {
    MATCH: CHANNEL,
    VISIBILITY: CHANNEL,
    TOURNAMENT: TOURNAMENT_CHANNEL,
    LOBBY: LOBBY_CHANNEL,
    REVOKED: REVOKED_CHANNEL,
}
SUBJECTS = {
    MATCH: subject,
    VISIBILITY: subject,
    TOURNAMENT: tournament_subject,
    LOBBY: lobby_subject,
    REVOKED: revoked_subject,
}
# The payload's tail of a visibility announcement (`<match_id>:visibility`), in place of a seq.
VISIBILITY_TAIL = ":visibility"


class Announcer(Protocol):
    async def start(self) -> None:
        """Connect (a backend that needs a connection of its own) and start sending."""

    async def close(self) -> None:
        """Send what is queued, then stop."""

    async def announce(self, match_id: str, seq: int) -> None:
        """Tell every process that `match_id` reached `seq`, soon; returns at once and never
        raises (a lost announcement is repaired by the next one and by the catch-up)."""

    async def announce_many(self, steps: Iterable[tuple[str, int]]) -> None:
        """`announce` for each (match_id, seq) of a batch of committed steps."""

    async def announce_committed(self, steps: Sequence[Committed]) -> None:
        """`announce` for each committed step, handed to this process's hub with its events."""

    async def announce_tournament(self, tournament_id: str, seq: int) -> None:
        """Tell whoever listens that the tournament's feed reached `seq`; as `announce`, but
        never handed to this process's hub."""

    async def announce_revoked(self, token_hash: str) -> None:
        """Tell every process that the credential of `token_hash` was revoked (after its
        commit): each closes the sockets opened with it (web/revocation.py)."""

    async def announce_visibility(self, match_id: str) -> None:
        """After a committed mute or unmute: every process's hub reads the match's mutes
        again (this process's at once)."""

    async def announce_lobby(self) -> None:
        """After a commit that stored lobby events: every process's lobby feed reads them."""

    def deliver_locally(
        self, hook: LocalDelivery | None, visibility: LocalVisibility | None = None
    ) -> None:
        """Hand every announcement to `hook` (and `visibility`) at once, before the backend
        sends it (None: stop); this process's hub then needs no broker for its own commits."""


Batch = list[tuple[Topic, int]]


class QueuedAnnouncer:
    """The queue and its sending task; a backend implements `_send` (and may extend
    `start`/`close` with its connection)."""

    def __init__(self) -> None:
        self._pending: dict[Topic, int] = {}  # topic -> highest seq, by latest arrival (`_put`)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._full = False  # a drop has been logged since the queue was last emptied
        self._local: LocalDelivery | None = None
        self._local_visibility: LocalVisibility | None = None

    async def start(self) -> None:
        if self._task is None:
            self._closing = False
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            self._closing = True
            self._wake.set()
            try:
                await asyncio.wait_for(task, CLOSE_TIMEOUT_S)
            except TimeoutError:
                log.warning("announcements still unsent at close are dropped")
        await self._send_pending()  # never started, or queued after the task ended

    async def announce(self, match_id: str, seq: int) -> None:
        await self.announce_many([(match_id, seq)])

    async def announce_many(self, steps: Iterable[tuple[str, int]]) -> None:
        await self.announce_committed([Committed(m, seq, (), EPOCH) for m, seq in steps])

    async def announce_committed(self, steps: Sequence[Committed]) -> None:
        for step in steps:
            self._hand_over(step)
            self._put((MATCH, step.match_id), step.seq)

    async def announce_tournament(self, tournament_id: str, seq: int) -> None:
        self._put((TOURNAMENT, tournament_id), seq)

    async def announce_revoked(self, token_hash: str) -> None:
        self._put((REVOKED, token_hash), 0)

    async def announce_visibility(self, match_id: str) -> None:
        if self._local_visibility is not None:
            self._local_visibility(match_id)
        self._put((VISIBILITY, match_id), 0)

    async def announce_lobby(self) -> None:
        self._put((LOBBY, LOBBY), 0)

    def deliver_locally(
        self, hook: LocalDelivery | None, visibility: LocalVisibility | None = None
    ) -> None:
        self._local, self._local_visibility = hook, visibility

    def _put(self, topic: Topic, seq: int) -> None:
        # Taken out and put back last: kept in its first place, a match's later step would be
        # sent before a mute announced after that place, and another process would deliver
        # the talk after the mute unmarked.
        known = self._pending.pop(topic, None)
        if known is None and len(self._pending) >= QUEUE_MATCHES:
            metrics.count_announcement_dropped()
            if not self._full:
                self._full = True
                log.warning("announcement queue full (%d matches): dropping", QUEUE_MATCHES)
            return
        self._pending[topic] = seq if known is None else max(known, seq)
        self._wake.set()

    def _hand_over(self, step: Committed) -> None:
        """Local first: this process's sockets get the step whatever the backend is doing."""
        if self._local is not None:
            try:
                self._local(step)
            except Exception:  # the broker and the catch-up still deliver it
                log.exception("local delivery of %s:%s failed", step.match_id, step.seq)

    async def _run(self) -> None:
        while not self._closing:
            await self._wake.wait()
            await asyncio.sleep(GATHER_S)
            self._wake.clear()
            await self._send_pending()

    async def _send_pending(self) -> None:
        """Send everything queued, in batches; what arrives meanwhile waits for the next."""
        pending, self._pending = list(self._pending.items()), {}
        self._full = False
        for start in range(0, len(pending), BATCH):
            batch = pending[start : start + BATCH]
            try:
                await self._send(batch)
            except Exception as exc:  # the event table is the truth; see the module docstring
                (_, first), seq = batch[0]
                log.warning("%d announcements lost, from %s:%s (%s)", len(batch), first, seq, exc)

    async def _send(self, batch: Batch) -> None:
        raise NotImplementedError


class PgAnnouncer(QueuedAnnouncer):
    """NOTIFY on a connection of the process's pool, a batch per statement in its own implicit
    transaction (one sending task: it holds at most one connection, for one statement)."""

    def __init__(self, pool: Pool) -> None:
        super().__init__()
        self._pool = pool

    async def _send(self, batch: Batch) -> None:
        channels = [CHANNELS[kind] for (kind, _), _ in batch]
        payloads = [_payload(kind, topic_id, seq) for (kind, topic_id), seq in batch]
        await notify.notify_batch(self._pool, channels, payloads)


class NatsAnnouncer(QueuedAnnouncer):
    """Publishes on the match's core subject. Core NATS, not JetStream: an announcement that
    finds no subscriber is worthless (nobody watches that match here), and one lost in a
    disconnect is repaired from the event table, so storing announcements would buy nothing."""

    def __init__(self, servers: list[str]) -> None:
        super().__init__()
        self._servers = servers
        self._nc: Nats | None = None

    async def start(self) -> None:
        if self._nc is None:
            self._nc = await connect(self._servers, "domino-announcer")
        await super().start()

    async def close(self) -> None:
        await super().close()
        if self._nc is not None:
            nc, self._nc = self._nc, None
            await close_quietly(nc)

    async def _send(self, batch: Batch) -> None:
        if self._nc is None:
            raise ConnectionError("not started")
        for (kind, topic_id), seq in batch:
            # Buffered while reconnecting (nats-py's pending buffer), sent by its flusher.
            message = _payload(kind, topic_id, seq).encode()
            await self._nc.publish(SUBJECTS[kind](topic_id), message)
        await self._nc.flush(timeout=NATS_FLUSH_TIMEOUT_S)


def make_announcer(settings: Settings, pool: Pool) -> Announcer:
    """The configured backend; the caller awaits `start()` before the first announcement and
    `close()` at shutdown. `pool` is the process's pool of the match database. (The test-only
    fault around it is the wiring's: app/wiring.py, realtime/fault.py.)"""
    if settings.announce_backend == "nats":
        return NatsAnnouncer(settings.nats_servers)
    return PgAnnouncer(pool)
