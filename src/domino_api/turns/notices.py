"""Telling a player it is their turn at a correspondence table, after the step committed.

The write driver hands every committed step to its followers (matches/writes.py); this one
keeps the steps of correspondence tables (`per_move_s`) whose turn passed to a human seat in
play: the step's `turn` event for the seat now on turn, whose deadline is a whole move's time
after the event (a turn kept by a draw keeps its deadline, and tells nobody again). For each,
its own task stores, in one transaction, a lobby event `your_turn` for the seat's player
(lobby/events.py; its lobby sockets get it, realtime/lobby_feed.py) and a Web Push notice per
subscription of the player (push/sender.py sends them), then announces the lobby and wakes
this process's sender. The sweep's steps are followed alike, so a turn passed by a timeout is
told too. The payload holds the match, the seat, the game's name and the deadline: nothing a
seat may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import asyncpg
import msgspec

from domino_api.engine.clock_text import iso
from domino_api.engine.event_types import TurnEvent
from domino_api.jsontext import dumps
from domino_api.lobby.events import YourTurn
from domino_api.matches.gathered import Gathered
from domino_api.matches.ports import Announces, Committed
from domino_api.store import lobby_repo, push_repo
from domino_api.store.db import Pool
from domino_api.turns.titles import title_of


class PushPayload(msgspec.Struct, frozen=True, kw_only=True):
    """What a device is pushed (aes128gcm-encrypted to its keys, RFC 8291)."""

    type: str = "your_turn"
    match: str
    seat: int
    title: str
    body: str = "Your turn"
    deadline: str | None
    url: str  # where /play opens the match


@dataclass(frozen=True, slots=True)
class Notice:
    match_id: str
    seq: int
    player_id: str
    seat: int
    ruleset: str
    deadline: datetime | None

    def lobby_event(self) -> YourTurn:
        return YourTurn(
            ruleset=self.ruleset,
            match=self.match_id,
            seat=self.seat,
            title=title_of(self.ruleset),
            deadline=iso(self.deadline),
        )

    def payload(self) -> str:
        return dumps(
            PushPayload(
                match=self.match_id,
                seat=self.seat,
                title=title_of(self.ruleset),
                deadline=iso(self.deadline),
                url=f"/play/#/match/{self.match_id}",
            )
        )


def notice_of(step: Committed) -> Notice | None:
    """The notice a committed step makes: its table is a correspondence one and the step's
    `turn` event started the turn of a human seat in play; else None."""
    table = step.table
    if table is None or table.match.per_move_s is None or table.over:
        return None
    turn = table.state.turn
    if turn is None or table.is_computer(turn):
        return None
    holder = table.seats[turn].player_id
    deadline = table.match.turn_deadline
    if holder is None or deadline is None:
        return None
    started = [
        e.event.public
        for e in step.events
        if isinstance(e.event.public, TurnEvent) and e.event.public.data.seat == turn
    ]
    if not started:
        return None
    at = datetime.fromisoformat(started[-1].at)
    if deadline - at != timedelta(seconds=table.match.per_move_s):
        return None  # the turn went on (a draw): told when it started
    return Notice(step.match_id, step.seq, holder, turn, table.match.ruleset, deadline)


class TurnNotices:
    """Follows every step this process commits; its own task stores and announces
    (matches/gathered.py)."""

    def __init__(self, pool: Pool, announcer: Announces) -> None:
        self._pool = pool
        self._announcer = announcer
        self._gathered: Gathered[Notice] = Gathered("turn-notices", self.store)
        # Called once notices are stored: this process's push sender (app/runtime.py).
        self.on_stored: Callable[[], None] | None = None

    def follow(self, steps: Sequence[Committed]) -> None:
        found = [n for n in (notice_of(step) for step in steps) if n is not None]
        self._gathered.add([((n.match_id, n.seq), n) for n in found])

    async def settled(self) -> None:
        """Wait until every notice followed so far is stored (tests, shutdown)."""
        await self._gathered.settled()

    async def stop(self) -> None:
        await self._gathered.stop()

    async def store(self, notices: Sequence[Notice]) -> int:
        """Store the lobby events and push notices; returns the push notices stored."""
        async with self._pool.acquire() as connection, connection.transaction():
            pushed = await _store(connection, notices)
        await self._announcer.announce_lobby()
        if pushed and self.on_stored is not None:
            self.on_stored()
        return pushed


async def _store(connection: asyncpg.Connection, notices: Sequence[Notice]) -> int:
    events = [(n.player_id, dumps(n.lobby_event())) for n in notices]
    await lobby_repo.append_player_events(connection, events)
    return await push_repo.enqueue(connection, [(n.player_id, n.payload()) for n in notices])
