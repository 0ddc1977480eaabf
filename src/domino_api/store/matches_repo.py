"""All SQL about matches, seats, their events and idempotency keys (the write core's store).

Writes run on an asyncpg connection: a pool connection for a step that writes only the match
(one statement, atomic on its own), or the connection of a transaction for anything more
(matches/unit.py). Rows come and go as `Row`s, the write path's one change tracker. Every
write of a match, its seats and events is here; store/match_reads.py holds the read-only
queries of the routes and the hub (events, codes), on the ORM session.

A step is saved guarded by the row version it was computed from (`xmin`): a writer that got
there first has moved it, nothing matches, and `WriteConflict` sends the unit of work back to
read and compute again. No statement here sends a NOTIFY: announcements follow the commit
(realtime/announce.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

import asyncpg
from sqlalchemy import JSON, Table
from sqlalchemy.dialects import postgresql

from domino_api import jsontext
from domino_api.errors import MatchFull
from domino_api.realtime.announce import CHANNEL as CHANNEL  # the listener's channel
from domino_api.store import match_codes
from domino_api.store.match_reads import events_after as events_after  # the hub reads here
from domino_api.store.models import Match, MatchEvent, Seat
from domino_api.store.rows import Row

MATCHES = cast(Table, Match.__table__)
SEATS = cast(Table, Seat.__table__)
EVENTS = cast(Table, MatchEvent.__table__)

# Every column the write path reads, the snapshot aside: the parsed state is usually cached
# (matches/unit.py), and the snapshot is read only when it is not.
MATCH_COLUMNS = tuple(c.name for c in MATCHES.columns if c.name != "snapshot")
SEAT_COLUMNS = tuple(c.name for c in SEATS.columns)
EVENT_COLUMNS = ("match_id", "seq", "type", "at", "data", "private", "action")
_JSON = {
    t.name: frozenset(c.name for c in t.columns if isinstance(c.type, JSON))
    for t in (MATCHES, SEATS, EVENTS)
}
# Column types as PostgreSQL spells them, for the arrays of the batched updates.
_TYPES = {
    t.name: {c.name: c.type.compile(dialect=postgresql.dialect()) for c in t.columns}  # type: ignore[no-untyped-call]
    for t in (MATCHES, SEATS)
}

_MATCH_FIELDS = ", ".join(f"m.{name}" for name in MATCH_COLUMNS)
_SEAT_FIELDS = ", ".join(f"s.{name}" for name in SEAT_COLUMNS)
# The row, its version and its seats with their holders in one statement: one snapshot.
MATCH_WITH_SEATS = (
    f"SELECT {_MATCH_FIELDS}, m.xmin AS version, {_SEAT_FIELDS}, p.name, p.tile_back "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id "
    "LEFT JOIN players p ON p.id = s.player_id WHERE m.id = $1"
)
SNAPSHOT = "SELECT snapshot FROM matches WHERE id = $1 AND xmin = $2::xid"
# The recovery job's claim: the most overdue matches nobody holds, locked, snapshot included.
CLAIM_DUE = (
    f"SELECT {_MATCH_FIELDS}, m.xmin AS version, m.snapshot FROM matches m "
    "WHERE m.due_at <= $1 ORDER BY m.due_at LIMIT $2 FOR UPDATE SKIP LOCKED"
)
SEATS_OF = (
    f"SELECT {_SEAT_FIELDS}, p.name, p.tile_back FROM seats s "
    "LEFT JOIN players p ON p.id = s.player_id WHERE s.match_id = ANY($1::text[]) "
    "ORDER BY s.match_id, s.seat"
)
# A presence mark: the holder is checked because a copy may be older than a change of holder.
TOUCH = (
    "UPDATE seats SET last_seen_at = $3, away_since = NULL "
    "WHERE match_id = $1 AND seat = ANY($2::int[]) AND player_id = $4"
)


class WriteConflict(Exception):
    """A guarded write found its row changed since it was read: nothing was written."""


Holder = tuple[Row, str | None, str | None]  # a seat, its holder's name and tile back


@dataclass(frozen=True, slots=True)
class Read:
    """A match row as read, with its version and its seats (each with its holder)."""

    match: Row
    seats: list[Holder]
    version: int
    snapshot: dict[str, Any] | None = None


def _seat_rows(rows: Iterable[Sequence[Any]]) -> list[Holder]:
    found = [
        (Row(dict(zip(SEAT_COLUMNS, row, strict=False))), row[-2], row[-1])
        for row in rows
        if row[1] is not None  # a match without seats comes back as one row of nulls
    ]
    return sorted(found, key=lambda seat: cast(int, seat[0].seat))


async def read(connection: asyncpg.Connection, match_id: str) -> Read | None:
    rows = await connection.fetch(MATCH_WITH_SEATS, match_id)
    if not rows:
        return None
    width = len(MATCH_COLUMNS)
    match = Row(dict(zip(MATCH_COLUMNS, rows[0], strict=False)))
    seats = _seat_rows(row[width + 1 :] for row in rows)
    return Read(match, seats, int(rows[0]["version"]))


async def snapshot(connection: asyncpg.Connection, match_id: str, version: int) -> Any:
    """The snapshot of the version read, or None once the row has moved on."""
    return await connection.fetchval(SNAPSHOT, match_id, version)


async def claim_due(connection: asyncpg.Connection, now: datetime, limit: int) -> list[Read]:
    """Up to `limit` due matches nobody holds, locked until the caller's transaction ends.

    SKIP LOCKED: a match held by another sweeper is left to it. A step computed elsewhere
    without a lock is saved guarded by the version, so it cannot overwrite a claimed match:
    it waits for the claim's commit, finds the row moved and is computed again.
    """
    found = await connection.fetch(CLAIM_DUE, now, limit)
    width = len(MATCH_COLUMNS)
    seats: dict[str, list[Sequence[Any]]] = {}
    if found:
        ids = [row["id"] for row in found]
        for row in await connection.fetch(SEATS_OF, ids):
            seats.setdefault(row["match_id"], []).append(row)
    return [
        Read(
            Row(dict(zip(MATCH_COLUMNS, row, strict=False))),
            _seat_rows(seats.get(row["id"], [])),
            int(row[width]),
            row[width + 1],
        )
        for row in found
    ]


async def touch(
    connection: asyncpg.Connection, match_id: str, seats: list[int], now: datetime, holder: str
) -> None:
    await connection.execute(TOUCH, match_id, seats, now, holder)


# ---------------------------------------------------------------- saving a step


def _value(table: str, key: str, value: Any) -> Any:
    # The pool's (and SQLAlchemy's) codec takes JSON as text already encoded.
    if value is not None and key in _JSON[table]:
        return jsontext.dumps(value)
    return value


def _event_arrays(events: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """The events as one array per column (after match_id), for `unnest`."""
    return [[_value("match_events", key, row[key]) for row in events] for key in EVENT_COLUMNS[1:]]


_EVENT_KINDS = ("int", "text", "timestamptz", "text", "text", "text")
_SAVES: dict[tuple[tuple[str, ...], bool], str] = {}


def _save_sql(keys: tuple[str, ...], with_events: bool) -> str:
    """UPDATE the row where it is still the version read, and INSERT its events, in one
    statement that returns the new version (or no row: the guard failed).

    $1 the id, then the values in `keys` order, then the version, then the event arrays. The
    INSERT reads the UPDATE's one row (`FROM step`), so no event is stored for a refused step.
    """
    sql = _SAVES.get((keys, with_events))
    if sql is None:
        sets = ", ".join(f"{key} = ${n}" for n, key in enumerate(keys, start=2)) or "id = id"
        guard = len(keys) + 2
        sql = f"UPDATE matches SET {sets} WHERE id = $1 AND xmin = ${guard}::xid RETURNING xmin"
        if with_events:
            arrays = ", ".join(f"${guard + 1 + n}::{k}[]" for n, k in enumerate(_EVENT_KINDS))
            sql = (
                f"WITH step AS ({sql}) INSERT INTO match_events ({', '.join(EVENT_COLUMNS)}) "
                "SELECT $1, e.seq, e.type, e.at, e.data::jsonb, e.private::jsonb, e.action::jsonb "
                f"FROM step, unnest({arrays}) AS e(seq, type, at, data, private, action) "
                "RETURNING xmin"
            )
        _SAVES[(keys, with_events)] = sql
    return sql


async def save(
    connection: asyncpg.Connection, match: Row, version: int, events: Sequence[dict[str, Any]]
) -> int:
    """Write the row's changes and its events if the row is still `version`; the new version.

    Raises `WriteConflict` when another writer moved the row first (nothing is written).
    """
    changes = match.changes()
    keys = tuple(sorted(changes))
    values = [_value("matches", key, changes[key]) for key in keys]
    arrays = _event_arrays(events) if events else []
    sql = _save_sql(keys, bool(events))
    written = await connection.fetchval(sql, match.id, *values, version, *arrays)
    if written is None:
        raise WriteConflict(f"match {match.id} changed since it was read")
    match.mark_written(changes)
    return int(written)


async def save_seats(connection: asyncpg.Connection, seats: Iterable[Row]) -> None:
    """Write the changed columns of seat rows (in the transaction of their match's step)."""
    await _update_many(connection, "seats", ("match_id", "seat"), list(seats))


async def save_many(
    connection: asyncpg.Connection, matches: Sequence[Row], events: Sequence[dict[str, Any]]
) -> None:
    """A batch of claimed (locked) match rows and their events: one statement per set of
    changed columns, one for every event. The rows are locked by the claim, so their version
    cannot move before the commit: no guard is needed."""
    await _update_many(connection, "matches", ("id",), list(matches))
    await insert_events(connection, events)


async def _update_many(
    connection: asyncpg.Connection, table: str, keys_of: tuple[str, ...], rows: list[Row]
) -> None:
    groups: dict[tuple[str, ...], list[tuple[Row, dict[str, Any]]]] = {}
    for row in rows:
        changes = row.changes()
        if changes:
            groups.setdefault(tuple(sorted(changes)), []).append((row, changes))
    types = _TYPES[table]
    for keys, group in groups.items():
        names = [*keys_of, *keys]
        arrays = [[row.__dict__[k] for row, _ in group] for k in keys_of]
        arrays += [[_value(table, k, changes[k]) for _, changes in group] for k in keys]
        given = ", ".join(
            f"${n}::{_array_type(types[name])}" for n, name in enumerate(names, start=1)
        )
        sets = ", ".join(f"{k} = g.{k}{_cast(types[k])}" for k in keys)
        match = " AND ".join(f"t.{k} = g.{k}" for k in keys_of)
        sql = (
            f"UPDATE {table} AS t SET {sets} FROM unnest({given}) AS g({', '.join(names)}) "
            f"WHERE {match}"
        )
        await connection.execute(sql, *arrays)
        for row, changes in group:
            row.mark_written(changes)


def _cast(kind: str) -> str:
    return f"::{kind.lower()}" if kind in ("JSON", "JSONB") else ""


def _array_type(kind: str) -> str:
    # JSON travels as text (see `_value`); PostgreSQL casts the text array on assignment.
    return "text[]" if kind in ("JSON", "JSONB") else f"{kind}[]"


async def insert_events(connection: asyncpg.Connection, events: Sequence[dict[str, Any]]) -> None:
    if not events:
        return
    arrays = ", ".join(f"${n}::{k}[]" for n, k in enumerate(("text", *_EVENT_KINDS), start=1))
    await connection.execute(
        f"INSERT INTO match_events ({', '.join(EVENT_COLUMNS)}) "
        "SELECT e.match_id, e.seq, e.type, e.at, e.data::jsonb, e.private::jsonb, "
        f"e.action::jsonb FROM unnest({arrays}) AS e({', '.join(EVENT_COLUMNS)})",
        [row["match_id"] for row in events],
        *_event_arrays(events),
    )


async def insert_match(
    connection: asyncpg.Connection,
    match: Row,
    seats: Sequence[Row],
    events: Sequence[dict[str, Any]],
) -> int:
    """A new match with its seats and first events, in the caller's transaction; returns the
    row's version. A match with a game number gets another one if two creators drew the same
    number at once (the live number is `match_codes`'s)."""
    for attempt in range(5):
        if match.code is None or await match_codes.take(connection, match.code, match.id):
            break
        if attempt == 4:
            raise MatchFull("No free game number was found; try again.")
        match.code = await match_codes.free_code(connection)
    version = await _insert_row(connection, "matches", match.columns())
    match.mark_written()
    for seat in seats:
        await _insert_row(connection, "seats", seat.columns())
        seat.mark_written()
    await insert_events(connection, events)
    return version


async def _insert_row(connection: asyncpg.Connection, table: str, columns: dict[str, Any]) -> int:
    names = list(columns)
    values = [_value(table, name, columns[name]) for name in names]
    placeholders = ", ".join(f"${n}" for n in range(1, len(names) + 1))
    sql = f"INSERT INTO {table} ({', '.join(names)}) VALUES ({placeholders}) RETURNING xmin"
    return int(await connection.fetchval(sql, *values))


async def retry_later(connection: asyncpg.Connection, match_id: str, at: datetime) -> None:
    """The recovery job leaves a match whose handling failed alone until `at`."""
    await connection.execute("UPDATE matches SET due_at = $2 WHERE id = $1", match_id, at)


# ---------------------------------------------------------------- idempotency keys


async def idempotent_answer(
    connection: asyncpg.Connection, player_id: str, match_id: str, key: str
) -> tuple[int, dict[str, Any]] | None:
    """The stored answer to this player's key on this match (keys are scoped per match)."""
    row = await connection.fetchrow(
        "SELECT status_code, body FROM idempotency_keys "
        "WHERE player_id = $1 AND match_id = $2 AND key = $3",
        player_id,
        match_id,
        key,
    )
    if row is None:
        return None
    body = row["body"]
    return int(row["status_code"]), body if isinstance(body, dict) else jsontext.loads(body)


async def store_answer(
    connection: asyncpg.Connection,
    player_id: str,
    match_id: str,
    key: str,
    body: dict[str, Any],
    now: datetime,
) -> None:
    """In the step's transaction: a retry of the same key finds this answer, never a 500."""
    await connection.execute(
        "INSERT INTO idempotency_keys (player_id, match_id, key, status_code, body, created_at) "
        "VALUES ($1, $2, $3, 200, $4, $5) ON CONFLICT DO NOTHING",
        player_id,
        match_id,
        key,
        jsontext.dumps(body),
        now,
    )
