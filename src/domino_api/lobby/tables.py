"""Public tables: a host lists a waiting table in the lobby under a public id, anyone joins it
by that id, and the lobby's sweep keeps the list and its events true to the tables.

Every change is stored as lobby events in the transaction that makes it (store/lobby_repo.py)
and published after the commit (`Publish`: realtime/lobby_feed.py). A table changes through
routes that know nothing of the lobby (a join by number, a start, a host leaving), so the
sweep (`reconcile`) compares each listed table's free seats with those last announced and
announces the difference: `seats_changed`, or `table_closed` once it is full, started, over or
gone. A listing never shows a game number or a match id: the lobby is read by outsiders.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

import msgspec

from domino_api.engine.clock_text import iso
from domino_api.engine.errors import MatchFull, MatchInProgress, NotHost
from domino_api.engine.view_types import ViewOut
from domino_api.errors import MatchNotFound, TableNotListed
from domino_api.jsontext import dumps
from domino_api.lobby.events import LobbyEvent, LobbyTable, SeatsChanged, TableClosed, TableOpened
from domino_api.lobby.models import LobbyPage, LobbyTableOut, PublicState
from domino_api.matches import creation
from domino_api.matches.listing import decode_cursor, encode_cursor
from domino_api.matches.unit import Core
from domino_api.store import lobby_repo
from domino_api.store.lobby_repo import TableRow
from domino_api.store.models import Player
from domino_api.web.ratelimit import Limits

# Called after a commit that stored lobby events: wakes this process's lobby sockets and tells
# the other processes (realtime/lobby_feed.py).
Publish = Callable[[], None]
# Listed tables the sweep looks at per pass.
SWEEP_BATCH = 200


def stored(event: LobbyEvent, seek_id: str | None = None) -> tuple[str, str | None, str]:
    """An event as lobby_repo.append_events stores it."""
    return event.ruleset, seek_id, dumps(event)


def shown(row: TableRow) -> LobbyTable:
    return LobbyTable(
        id=row.public_id,
        ruleset=row.ruleset,
        host=row.host,
        host_rating=row.host_rating,
        seats=row.seats,
        free_seats=row.free_seats,
        created_at=iso(row.created_at) or "",
    )


def out(row: TableRow) -> LobbyTableOut:
    """The listing an answer carries: the same table the lobby's events show."""
    return LobbyTableOut.model_validate(msgspec.to_builtins(shown(row)))


async def make_public(core: Core, player: Player, match_id: str, publish: Publish) -> LobbyTableOut:
    """Host only: list a waiting table with a free seat (again: the listing as it is)."""
    async with core.pool.acquire() as connection, connection.transaction():
        facts = await lobby_repo.match_facts(connection, match_id)
        if facts is None:
            raise MatchNotFound(f"No match {match_id}.")
        if facts.host_player_id != player.id:
            raise NotHost("Only the host may make the table public.")
        if facts.status != "waiting":
            raise MatchInProgress("Only a table waiting for players is listed in the lobby.")
        if facts.free_seats == 0:
            raise MatchFull("The table has no free seat to offer in the lobby.")
        public_id = secrets.token_urlsafe(12)
        now = core.clock.now()
        added = await lobby_repo.list_table(
            connection, public_id, match_id, facts.ruleset, facts.free_seats, now
        )
        row = await lobby_repo.table_by(connection, match_id=match_id)
        assert row is not None
        if added:
            opened = TableOpened(ruleset=row.ruleset, table=shown(row))
            await lobby_repo.append_events(connection, [stored(opened)])
    if added:
        publish()
    return out(row)


async def listing_of(core: Core, player: Player, match_id: str) -> PublicState:
    """Host only: whether the table is in the lobby, and its listing while it is."""
    async with core.pool.acquire() as connection:
        facts = await lobby_repo.match_facts(connection, match_id)
        row = await lobby_repo.table_by(connection, match_id=match_id)
    if facts is None:
        raise MatchNotFound(f"No match {match_id}.")
    if facts.host_player_id != player.id:
        raise NotHost("Only the host may ask whether the table is in the lobby.")
    listed = row is not None and row.open
    return PublicState(listed=listed, table=out(row) if row is not None and listed else None)


async def make_private(core: Core, player: Player, match_id: str, publish: Publish) -> None:
    """Host only: take the table out of the lobby (nothing to do if it is not listed)."""
    async with core.pool.acquire() as connection, connection.transaction():
        facts = await lobby_repo.match_facts(connection, match_id)
        if facts is None:
            raise MatchNotFound(f"No match {match_id}.")
        if facts.host_player_id != player.id:
            raise NotHost("Only the host may take the table out of the lobby.")
        row = await lobby_repo.table_by(connection, match_id=match_id)
        if row is None:
            return
        await lobby_repo.unlist(connection, [row.public_id])
        closed = TableClosed(ruleset=row.ruleset, id=row.public_id)
        await lobby_repo.append_events(connection, [stored(closed)])
    publish()


async def page(core: Core, ruleset: str, cursor: str | None, limit: int) -> LobbyPage:
    after = decode_cursor(cursor) if cursor is not None else None
    async with core.pool.acquire() as connection:
        rows = await lobby_repo.open_tables(connection, ruleset, after, limit + 1)
    shown_rows = rows[:limit]
    more = len(rows) > limit
    last = shown_rows[-1] if more else None
    next_cursor = None if last is None else encode_cursor(last.created_at, last.public_id)
    return LobbyPage(tables=[out(row) for row in shown_rows], next_cursor=next_cursor)


async def join(
    core: Core,
    limits: Limits,
    player: Player,
    public_id: str,
    name: str | None,
    address: str,
    publish: Publish,
) -> ViewOut:
    """Take a free seat of a listed table by its public id; the lobby hears of it at once."""
    await limits.hit_from("join", address, f"player:{player.id}")
    async with core.pool.acquire() as connection:
        row = await lobby_repo.table_by(connection, public_id=public_id)
    if row is None or not row.open or row.code is None:
        raise TableNotListed("No open table in the lobby has this id.")
    match_id, _ = await creation.find(core, row.code, player)
    view = await creation.join(core, player, row.code, name, match_id)
    await reconcile(core, publish)
    return view


async def reconcile(core: Core, publish: Publish) -> int:
    """One pass of the sweep: announce what changed at listed tables; returns how many."""
    async with core.pool.acquire() as connection, connection.transaction():
        rows = await lobby_repo.drifted(connection, SWEEP_BATCH)
        if not rows:
            return 0
        events: list[LobbyEvent] = []
        for row in rows:
            if row.open:
                await lobby_repo.set_announced(connection, row.public_id, row.free_seats)
                events.append(SeatsChanged(ruleset=row.ruleset, table=shown(row)))
            else:
                events.append(TableClosed(ruleset=row.ruleset, id=row.public_id))
        gone = [row.public_id for row in rows if not row.open]
        if gone:
            await lobby_repo.unlist(connection, gone)
        await lobby_repo.append_events(connection, [stored(e) for e in events])
    publish()
    return len(rows)
