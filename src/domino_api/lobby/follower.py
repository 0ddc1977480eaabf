"""The lobby as a read model of committed steps (lila's lobby listens to the round's bus).

The write driver tells the follower of every committed step, after its announcement
(matches/writes.py `Writer.committed`), with the table the step left. A step of a waiting
table that takes or frees a seat or sees its host come or go, or one that starts or ends a match,
may change a listing (decided from the step's events, in memory): the follower reads the listed
ones among them (one statement for all it holds; nothing for any other step, a move included) and
tells the lobby, from the table's own state, what changed: `seats_changed` (a seat taken or
freed), `table_closed` (full, started, over, or its host away: matches/presence.py), or
`table_opened` again when the host is back. Each listing keeps the seq it was told at, so a
step followed late never overwrites a newer one. What is told is stored as lobby events and
announced like any lobby event (realtime/lobby_feed.py); nothing polls.
"""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg

from domino_api.engine.table import Table
from domino_api.lobby.events import LobbyEvent, SeatsChanged, TableClosed, TableOpened
from domino_api.lobby.tables import free_seats, host_present, shown, stored
from domino_api.matches.gathered import Gathered
from domino_api.matches.ports import Announces, Committed
from domino_api.store import lobby_repo
from domino_api.store.db import Pool
from domino_api.store.lobby_repo import TableRow

# What a listing shows changes only with these: a seat taken or freed (a release is a
# `seat_joined` too), the host's presence, and the table leaving the waiting state.
_SEATING = frozenset({"seat_joined", "seat_connected", "seat_disconnected"})
_LEAVES_WAITING = frozenset({"match_started", "match_ended"})


def concerns_lobby(step: Committed) -> bool:
    """Whether the step may change a listing, decided from its events in memory: a waiting
    table's seat or host presence changed, or the table started or ended. Any other step (a
    move, a message, a deadline) leaves the database alone."""
    table = step.table
    if table is None:
        return False
    kinds = {staged.type for staged in step.events}
    if not kinds.isdisjoint(_LEAVES_WAITING):
        return True
    return table.state.status == "waiting" and not kinds.isdisjoint(_SEATING)


def told(row: TableRow, table: Table) -> tuple[LobbyEvent | None, int | None]:
    """What the lobby is told of a listed table now, and the free seats to keep as shown
    (None: the table leaves the lobby for good)."""
    free = free_seats(table)
    if table.state.status != "waiting" or free == 0:
        return TableClosed(ruleset=row.ruleset, id=row.public_id), None
    if not host_present(table):
        closed = TableClosed(ruleset=row.ruleset, id=row.public_id)
        return (closed if row.shown_free > 0 else None), 0
    listing = shown(row, free)
    if row.shown_free == 0:  # its host is back
        return TableOpened(ruleset=row.ruleset, table=listing), free
    if row.shown_free != free:
        return SeatsChanged(ruleset=row.ruleset, table=listing), free
    return None, free


class LobbyFollower:
    """Follows every step this process commits; its own task does the lobby's writes
    (matches/gathered.py): of each match, the latest step followed."""

    def __init__(self, pool: Pool, announcer: Announces) -> None:
        self._pool = pool
        self._announcer = announcer
        self._gathered: Gathered[Committed] = Gathered(
            "lobby-follower", self.apply, lambda old, new: new.seq > old.seq
        )

    def follow(self, steps: Sequence[Committed]) -> None:
        self._gathered.add([(step.match_id, step) for step in steps if concerns_lobby(step)])

    async def settled(self) -> None:
        """Wait until every step followed so far is told (tests, shutdown)."""
        await self._gathered.settled()

    async def stop(self) -> None:
        await self._gathered.stop()

    async def apply(self, steps: Sequence[Committed]) -> int:
        """Tell the lobby what these steps changed at listed tables; returns events stored."""
        by_match = {step.match_id: step for step in steps}
        async with self._pool.acquire() as connection, connection.transaction():
            rows = await lobby_repo.listed_for_update(connection, list(by_match))
            events = await _tell(connection, rows, by_match)
        if events:
            await self._announcer.announce_lobby()
        return events


async def _tell(
    connection: asyncpg.Connection, rows: list[TableRow], by_match: dict[str, Committed]
) -> int:
    events: list[LobbyEvent] = []
    gone: list[str] = []
    for row in rows:
        step = by_match[row.match_id]
        if step.table is None or step.seq <= row.seq:  # followed late: a newer step was told
            continue
        event, free = told(row, step.table)
        if event is not None:
            events.append(event)
        if free is None:
            gone.append(row.public_id)
        else:
            await lobby_repo.set_shown(connection, row.public_id, free, step.seq)
    if gone:
        await lobby_repo.unlist(connection, gone)
    if events:
        await lobby_repo.append_events(connection, [stored(e) for e in events])
    return len(events)
