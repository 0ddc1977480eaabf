"""SQL of the lobby: public tables, seeks and the lobby's event feed (migration 0016).

Statements run on asyncpg connections of the process's pool (`Pool.acquire`), or on the
connection of a transaction the caller holds (a pairing claims its seeks in the transaction
that inserts the new match: lobby/seeks.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import asyncpg

# A free seat is an open human seat (engine/table/seats.py, a join's `free`).
_FREE = "(SELECT count(*) FROM seats s WHERE s.match_id = l.match_id AND s.type = 'human'"
_FREE += " AND s.player_id IS NULL)"
_SEATS = "(SELECT count(*) FROM seats s WHERE s.match_id = l.match_id)"
# The host's presence as its seat's events last set it (matches/presence.py): seat 0 is the host's.
_HOST_CONNECTED = "coalesce((SELECT s.connected FROM seats s WHERE s.match_id = l.match_id"
_HOST_CONNECTED += " AND s.seat = 0), false)"
_TABLE_COLUMNS = f"""
l.public_id, l.match_id, l.ruleset, l.created_at, l.seq,
m.status, m.code, m.host_player_id, coalesce(p.name, '') AS host,
round(r.mu)::int AS host_rating, {_HOST_CONNECTED} AS host_connected,
{_SEATS}::int AS seats, {_FREE}::int AS free_seats, l.free_seats AS shown_free
FROM lobby_tables l
LEFT JOIN matches m ON m.id = l.match_id
LEFT JOIN players p ON p.id = m.host_player_id
LEFT JOIN ratings r ON r.player_id = m.host_player_id AND r.preset = l.ruleset
"""


@dataclass(frozen=True, slots=True)
class TableRow:
    public_id: str
    match_id: str
    ruleset: str
    created_at: datetime
    seq: int  # the match's seq the lobby was last told at (lobby/follower.py)
    status: str | None  # None: the match is gone
    code: str | None
    host_player_id: str | None
    host: str
    host_rating: int | None  # at the table's preset (ratings/); None: not rated there yet
    host_connected: bool
    seats: int
    free_seats: int
    shown_free: int  # the free seats the lobby was last told (0: told it is closed)

    @property
    def open(self) -> bool:
        """Shown in the lobby: waiting for players, with a seat free and its host present."""
        return self.status == "waiting" and self.free_seats > 0 and self.host_connected


@dataclass(frozen=True, slots=True)
class SeekRow:
    id: str
    player_id: str
    ruleset: str
    options_key: str
    rated: bool  # asked for a rated game
    status: str
    match_id: str | None
    seat: int | None
    partner_id: str | None  # the player it seeks with as a team (lobby/seek_teams.py)
    lease_until: datetime
    created_at: datetime


def _table(record: asyncpg.Record) -> TableRow:
    return TableRow(**dict(record))


def _seek(record: asyncpg.Record) -> SeekRow:
    return SeekRow(**dict(record))


async def list_table(
    connection: asyncpg.Connection,
    public_id: str,
    match_id: str,
    ruleset: str,
    free: int,
    seq: int,
    at: datetime,
) -> bool:
    """List the match under `public_id`; False if it was listed already."""
    added = await connection.fetchval(
        "INSERT INTO lobby_tables (public_id, match_id, ruleset, free_seats, seq, created_at)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (match_id) DO NOTHING"
        " RETURNING public_id",
        public_id,
        match_id,
        ruleset,
        free,
        seq,
        at,
    )
    return added is not None


async def unlist(connection: asyncpg.Connection, public_ids: list[str]) -> None:
    await connection.execute("DELETE FROM lobby_tables WHERE public_id = ANY($1)", public_ids)


async def set_shown(connection: asyncpg.Connection, public_id: str, free: int, seq: int) -> None:
    """What the lobby was told of the table: its free seats (0: closed) at the match's seq."""
    await connection.execute(
        "UPDATE lobby_tables SET free_seats = $2, seq = $3 WHERE public_id = $1",
        public_id,
        free,
        seq,
    )


async def listed_for_update(connection: asyncpg.Connection, match_ids: list[str]) -> list[TableRow]:
    """The listed tables of these matches, locked for the caller's transaction (two processes
    following steps of one match take turns)."""
    query = f"SELECT {_TABLE_COLUMNS} WHERE l.match_id = ANY($1) FOR UPDATE OF l"
    return [_table(r) for r in await connection.fetch(query, match_ids)]


async def table_by(
    connection: asyncpg.Connection, *, public_id: str | None = None, match_id: str | None = None
) -> TableRow | None:
    by_public = public_id is not None
    column, value = ("l.public_id", public_id) if by_public else ("l.match_id", match_id)
    record = await connection.fetchrow(f"SELECT {_TABLE_COLUMNS} WHERE {column} = $1", value)
    return None if record is None else _table(record)


async def open_tables(
    connection: asyncpg.Connection,
    ruleset: str,
    after: tuple[datetime, str] | None,
    limit: int,
) -> list[TableRow]:
    """Listed tables of a preset that wait with a free seat, newest first, after the keyset."""
    query = f"SELECT {_TABLE_COLUMNS} WHERE l.ruleset = $1 AND m.status = 'waiting'"
    query += f" AND {_FREE} > 0 AND {_HOST_CONNECTED}"
    args: list[object] = [ruleset, limit]
    if after is not None:
        query += " AND (l.created_at, l.public_id) < ($3, $4)"
        args += [after[0], after[1]]
    query += " ORDER BY l.created_at DESC, l.public_id DESC LIMIT $2"
    return [_table(r) for r in await connection.fetch(query, *args)]


# ------------------------------------------------------------------ the feed


async def append_events(
    connection: asyncpg.Connection, rows: list[tuple[str, str | None, str]]
) -> None:
    """Store events as (ruleset, seek id or None, body), in order, stamped by the database's
    clock (the one `prune` reads)."""
    await connection.executemany(
        "INSERT INTO lobby_events (ruleset, seek_id, body, at) VALUES ($1, $2, $3, now())", rows
    )


async def append_player_events(connection: asyncpg.Connection, rows: list[tuple[str, str]]) -> None:
    """Store (player id, body) events, in order, for those players' lobby sockets alone
    (`your_turn`, friends' and challenges' events), whatever preset the sockets watch."""
    await connection.executemany(
        "INSERT INTO lobby_events (ruleset, seek_id, player_id, body, at)"
        " VALUES ('', NULL, $1, $2, now())",
        rows,
    )


async def last_seq(connection: asyncpg.Connection) -> int:
    seq: int = await connection.fetchval("SELECT coalesce(max(seq), 0) FROM lobby_events")
    return seq


async def events_after(
    connection: asyncpg.Connection, seq: int, limit: int
) -> list[tuple[int, str, str | None, str | None, str]]:
    """(seq, ruleset, seek id, player id, body) after `seq`: a player id names the one player
    whose sockets are sent it (social/events.py)."""
    rows = await connection.fetch(
        "SELECT seq, ruleset, seek_id, player_id, body FROM lobby_events WHERE seq > $1"
        " ORDER BY seq LIMIT $2",
        seq,
        limit,
    )
    return [(r["seq"], r["ruleset"], r["seek_id"], r["player_id"], r["body"]) for r in rows]


# ------------------------------------------------------------------ seeks

_SEEK = "id, player_id, ruleset, options_key, rated, status, match_id, seat, partner_id,"
_SEEK += " lease_until, created_at"


async def insert_seek(
    connection: asyncpg.Connection,
    seek_id: str,
    player_id: str,
    ruleset: str,
    options_json: str,
    rated: bool,
    lease_s: float,
    at: datetime,
    partner_id: str | None = None,
) -> SeekRow:
    """A new open seek; the player's other open seeks are cancelled (one at a time)."""
    async with connection.transaction():
        await connection.execute(
            "UPDATE seeks SET status = 'cancelled' WHERE player_id = $1 AND status = 'open'",
            player_id,
        )
        record = await connection.fetchrow(
            "INSERT INTO seeks (id, player_id, ruleset, options, options_key, rated, status,"
            " lease_until, created_at, partner_id) VALUES ($1, $2, $3, $4::jsonb, $4, $5,"
            " 'open', now() + $6 * interval '1 second', $7, $8)"
            f" RETURNING {_SEEK}",
            seek_id,
            player_id,
            ruleset,
            options_json,
            rated,
            lease_s,
            at,
            partner_id,
        )
    return _seek(record)


async def seek_of(connection: asyncpg.Connection, seek_id: str, player_id: str) -> SeekRow | None:
    """The player's seek; an open one past its lease is marked expired first."""
    await connection.execute(
        "UPDATE seeks SET status = 'expired' WHERE id = $1 AND status = 'open'"
        " AND lease_until <= now()",
        seek_id,
    )
    record = await connection.fetchrow(
        f"SELECT {_SEEK} FROM seeks WHERE id = $1 AND player_id = $2", seek_id, player_id
    )
    return None if record is None else _seek(record)


async def renew(
    connection: asyncpg.Connection, seek_ids: list[str], player_id: str, lease_s: float
) -> None:
    """Hold the player's open seeks whose lease has not lapsed for `lease_s` more (the
    database's clock decides every lease, whichever process renews it)."""
    await connection.execute(
        "UPDATE seeks SET lease_until = now() + $3 * interval '1 second'"
        " WHERE id = ANY($1) AND player_id = $2 AND status = 'open' AND lease_until > now()",
        seek_ids,
        player_id,
        lease_s,
    )


async def cancel(connection: asyncpg.Connection, seek_id: str, player_id: str) -> None:
    await connection.execute(
        "UPDATE seeks SET status = 'cancelled' WHERE id = $1 AND player_id = $2"
        " AND status = 'open'",
        seek_id,
        player_id,
    )


async def candidates(
    connection: asyncpg.Connection, ruleset: str, options_key: str, limit: int
) -> list[SeekRow]:
    """Open seeks of one preset and options whose lease holds, oldest first."""
    rows = await connection.fetch(
        f"SELECT {_SEEK} FROM seeks WHERE status = 'open' AND ruleset = $1"
        " AND options_key = $2 AND lease_until > now() ORDER BY created_at, id LIMIT $3",
        ruleset,
        options_key,
        limit,
    )
    return [_seek(r) for r in rows]


async def waiting_keys(connection: asyncpg.Connection) -> list[tuple[str, str]]:
    """Each preset and options with two or more open seeks whose lease holds."""
    rows = await connection.fetch(
        "SELECT ruleset, options_key FROM seeks WHERE status = 'open' AND lease_until > now()"
        " GROUP BY ruleset, options_key HAVING count(*) >= 2 LIMIT 100"
    )
    return [(r["ruleset"], r["options_key"]) for r in rows]


async def claim(connection: asyncpg.Connection, seek_ids: list[str]) -> list[str]:
    """Inside a pairing's transaction: lock these seeks if they are still open and alive; a
    seek another pairing holds is skipped, so two pairings never take the same seeker."""
    rows = await connection.fetch(
        "SELECT id FROM seeks WHERE id = ANY($1) AND status = 'open' AND lease_until > now()"
        " FOR UPDATE SKIP LOCKED",
        seek_ids,
    )
    return [r["id"] for r in rows]


async def mark_paired(
    connection: asyncpg.Connection, match_id: str, seats: list[tuple[str, int]]
) -> None:
    await connection.executemany(
        "UPDATE seeks SET status = 'paired', match_id = $2, seat = $3 WHERE id = $1",
        [(seek_id, match_id, seat) for seek_id, seat in seats],
    )


async def prune(connection: asyncpg.Connection, keep_s: float) -> None:
    """Forget lobby events, and seeks no longer open, older than `keep_s`: a feed reads only
    what follows its cursor, and a seeker polls its seek within a lease."""
    await connection.execute(
        "DELETE FROM lobby_events WHERE at < now() - $1 * interval '1 second'", keep_s
    )
    await connection.execute(
        "DELETE FROM seeks WHERE status <> 'open' AND created_at < now() - $1 * interval"
        " '1 second'",
        keep_s,
    )
