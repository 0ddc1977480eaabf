"""Public tables: a host lists a waiting table in the lobby under a public id, anyone joins it
by that id; the lobby follows the tables' committed steps (lobby/follower.py).

The host's checks and the free seats come from the table's own state, read by a step of the
write core; the listing row keeps only the public id and what the lobby was last told. A
listing never shows a game number or a match id: the lobby is read by outsiders.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from domino_api.engine.clock_text import iso
from domino_api.engine.errors import MatchFull, MatchInProgress, NotHost
from domino_api.engine.table import Table
from domino_api.engine.view_types import ViewOut
from domino_api.errors import TableNotListed
from domino_api.jsontext import dumps
from domino_api.lobby.events import LobbyEvent, LobbyTable, TableClosed, TableOpened
from domino_api.lobby.models import LobbyPage, PublicState
from domino_api.matches import creation
from domino_api.matches.listing import decode_cursor, encode_cursor
from domino_api.matches.unit import Core, Stage
from domino_api.matches.views import is_connected
from domino_api.store import lobby_repo
from domino_api.store.lobby_repo import TableRow
from domino_api.store.models import Player
from domino_api.web.ratelimit import Limits

# Called after a commit that stored lobby events: every process's lobby sockets read them
# (the announcer's lobby topic: realtime/lobby_feed.py).
Publish = Callable[[], Awaitable[None]]


def stored(event: LobbyEvent, seek_id: str | None = None) -> tuple[str, str | None, str]:
    """An event as lobby_repo.append_events stores it."""
    return event.ruleset, seek_id, dumps(event)


def free_seats(table: Table) -> int:
    """Open human seats: what a join by number or public id may take."""
    return sum(1 for row in table.seats if row.type == "human" and row.player_id is None)


def host_present(table: Table) -> bool:
    """The host's seat (seat 0) as its presence events last said (matches/presence.py)."""
    return bool(table.seats) and is_connected(table, 0)


def shown(row: TableRow, free: int | None = None) -> LobbyTable:
    return LobbyTable(
        id=row.public_id,
        ruleset=row.ruleset,
        host=row.host,
        host_rating=row.host_rating,
        host_connected=row.host_connected if free is None else True,
        seats=row.seats,
        free_seats=row.free_seats if free is None else free,
        created_at=iso(row.created_at) or "",
    )


def _hosted(stage: Stage, player: Player, doing: str) -> Table:
    table = stage.table
    if table.match.host_player_id != player.id:
        raise NotHost(f"Only the host may {doing}.")
    return table


async def _table_of(core: Core, player: Player, match_id: str, doing: str) -> Table:
    return await core.run(
        match_id, lambda stage: _hosted(stage, player, doing), player_id=player.id, fresh=True
    )


async def make_public(core: Core, player: Player, match_id: str, publish: Publish) -> LobbyTable:
    """Host only: list a waiting table with a free seat (again: the listing as it is)."""
    table = await _table_of(core, player, match_id, "make the table public")
    if table.state.status != "waiting":
        raise MatchInProgress("Only a table waiting for players is listed in the lobby.")
    free = free_seats(table)
    if free == 0:
        raise MatchFull("The table has no free seat to offer in the lobby.")
    async with core.pool.acquire() as connection, connection.transaction():
        added = await lobby_repo.list_table(
            connection,
            secrets.token_urlsafe(12),
            match_id,
            table.state.ruleset.name,
            free,
            table.state.seq,
            core.clock.now(),
        )
        row = await lobby_repo.table_by(connection, match_id=match_id)
        assert row is not None
        if added:
            opened = TableOpened(ruleset=row.ruleset, table=shown(row))
            await lobby_repo.append_events(connection, [stored(opened)])
    if added:
        await publish()
    return shown(row)


async def listing_of(core: Core, player: Player, match_id: str) -> PublicState:
    """Host only: whether the table is in the lobby, and its listing while it is."""
    await _table_of(core, player, match_id, "ask whether the table is in the lobby")
    async with core.pool.acquire() as connection:
        row = await lobby_repo.table_by(connection, match_id=match_id)
    listed = row is not None and row.open
    return PublicState(listed=listed, table=shown(row) if row is not None and listed else None)


async def make_private(core: Core, player: Player, match_id: str, publish: Publish) -> None:
    """Host only: take the table out of the lobby (nothing to do if it is not listed)."""
    await _table_of(core, player, match_id, "take the table out of the lobby")
    async with core.pool.acquire() as connection, connection.transaction():
        row = await lobby_repo.table_by(connection, match_id=match_id)
        if row is None:
            return
        await lobby_repo.unlist(connection, [row.public_id])
        closed = TableClosed(ruleset=row.ruleset, id=row.public_id)
        await lobby_repo.append_events(connection, [stored(closed)])
    await publish()


async def page(core: Core, ruleset: str, cursor: str | None, limit: int) -> LobbyPage:
    after = decode_cursor(cursor) if cursor is not None else None
    async with core.pool.acquire() as connection:
        rows = await lobby_repo.open_tables(connection, ruleset, after, limit + 1)
    shown_rows = rows[:limit]
    more = len(rows) > limit
    last = shown_rows[-1] if more else None
    next_cursor = None if last is None else encode_cursor(last.created_at, last.public_id)
    return LobbyPage(tables=tuple(shown(row) for row in shown_rows), next_cursor=next_cursor)


async def join(
    core: Core,
    limits: Limits,
    player: Player,
    public_id: str,
    name: str | None,
    address: str,
) -> ViewOut:
    """Take a free seat of a listed table by its public id (the lobby follows the join's step).
    A table whose host is away is not listed: `404 table_not_listed`."""
    await limits.hit_from("join", address, f"player:{player.id}")
    async with core.pool.acquire() as connection:
        row = await lobby_repo.table_by(connection, public_id=public_id)
    if row is None or not row.open or row.code is None:
        raise TableNotListed("No open table in the lobby has this id.")
    match_id, _ = await creation.find(core, row.code, player)
    return await creation.join(core, player, row.code, name, match_id)
