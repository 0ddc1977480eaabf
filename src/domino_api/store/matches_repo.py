"""SQL about matches, seats, events and idempotency keys."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

import asyncpg
from sqlalchemy import JSON, Table, Text, Update, bindparam, func, inspect, select, text, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstanceState, defer
from sqlalchemy.orm.attributes import set_committed_value

from domino_api import jsontext
from domino_api.store.models import (
    OVER_STATUSES,
    IdempotentAnswer,
    Match,
    MatchEvent,
    Player,
    Seat,
)
from domino_api.store.rows import DriverRow

CHANNEL = "domino_events"
# The Core tables of the hot write statements (no ORM bulk or unit-of-work machinery).
MATCHES = cast(Table, Match.__table__)
EVENTS = cast(Table, MatchEvent.__table__)


async def get(session: AsyncSession, match_id: str) -> Match | None:
    return await session.get(Match, match_id)


# The hot reads are built once: SQLAlchemy memoizes a statement's cache key on the object, so a
# prebuilt statement skips the key generation that costs about as much as running it.
_LOCK = (
    select(Match)
    .where(Match.id == bindparam("match_id"))
    .options(defer(Match.snapshot))
    .with_for_update()
)


async def lock(session: AsyncSession, match_id: str) -> Match | None:
    """The write path's first step: the row lock serialises every action on one match.

    The snapshot (several KB of JSON) is left unloaded: the parsed state is usually cached
    (matches/table.py); `snapshot_of` reads it when it is not.
    """
    return (await session.execute(_LOCK, {"match_id": match_id})).scalar_one_or_none()


async def snapshot_of(session: AsyncSession, match: Match) -> dict[str, Any]:
    """The match's stored snapshot, read now if the row was loaded without it."""
    if "snapshot" not in inspect(match).unloaded:
        return match.snapshot
    stmt = select(Match.snapshot).where(Match.id == match.id)
    snapshot: dict[str, Any] = (await session.execute(stmt)).scalar_one()
    set_committed_value(match, "snapshot", snapshot)
    return snapshot


async def seats(session: AsyncSession, match_id: str) -> list[Seat]:
    stmt = select(Seat).where(Seat.match_id == match_id).order_by(Seat.seat)
    return list((await session.execute(stmt)).scalars())


_SEATS_WITH_HOLDERS = (
    select(Seat, Player.name, Player.tile_back)
    .outerjoin(Player, Player.id == Seat.player_id)
    .where(Seat.match_id == bindparam("match_id"))
    .order_by(Seat.seat)
)


async def seats_with_holders(
    session: AsyncSession, match_id: str
) -> list[tuple[Seat, str | None, str | None]]:
    """Seats and their holders' names and tile backs, in one round trip."""
    result = await session.execute(_SEATS_WITH_HOLDERS, {"match_id": match_id})
    return [(row[0], row[1], row[2]) for row in result.all()]


async def live_by_code(session: AsyncSession, code: str) -> Match | None:
    stmt = select(Match).where(Match.code == code, Match.status.not_in(OVER_STATUSES))
    return (await session.execute(stmt)).scalar_one_or_none()


_CODE_IS_LIVE = (
    select(Match.id)
    .where(Match.code == bindparam("code"), Match.status.not_in(OVER_STATUSES))
    .limit(1)
)


async def code_is_live(session: AsyncSession, code: str) -> bool:
    """One index lookup (uq_matches_live_code): a live match holds this game number."""
    return (await session.execute(_CODE_IS_LIVE, {"code": code})).first() is not None


async def live_codes(session: AsyncSession) -> set[str]:
    stmt = select(Match.code).where(Match.code.is_not(None), Match.status.not_in(OVER_STATUSES))
    return {code for code in (await session.execute(stmt)).scalars() if code}


def add(session: AsyncSession, *rows: Any) -> None:
    session.add_all(rows)


async def write_step(
    session: AsyncSession,
    match: Match | DriverRow,
    notify_seq: int | None,
    events: Sequence[dict[str, Any]],
) -> None:
    """The write path's one write per step: the match row (with its NOTIFY), then its events.

    On the driver, a row already stored and its events go in one statement (one round trip,
    one execution for all the events); otherwise the row, then the events. A stand-in that
    names the row version it read (`SessionStandIn.guard`) gets that statement guarded: it
    writes only if the row is still that version, else raises `WriteConflict`.
    """
    driver = await _driver(session)
    guard = await session.guard(match) if isinstance(session, SessionStandIn) else None
    if guard is not None and driver is not None:
        version = await _write_guarded(driver, cast(DriverRow, match), notify_seq, events, guard)
        cast(SessionStandIn, session).written(version)
        return
    changes = _stored_row_changes(match) if driver is not None and events else None
    if driver is None or not changes:
        await _write_match(session, driver, match, notify_seq)
        await _insert_events(session, driver, events)
        return
    keys = tuple(sorted(changes))
    values = [_raw_value(MATCHES, key, changes[key]) for key in keys]
    if notify_seq is not None:
        values += [CHANNEL, f"{match.id}:{notify_seq}"]
    sql = _raw_step(keys, notify_seq is not None)
    await driver.execute(sql, match.id, *values, *_arrays(events))
    _mark_written(match, changes)


class WriteConflict(Exception):
    """A guarded write found its row changed since it was read: nothing was written."""


async def _write_guarded(
    driver: asyncpg.Connection,
    match: DriverRow,
    notify_seq: int | None,
    events: Sequence[dict[str, Any]],
    guard: int,
) -> int:
    """The row's changes and its events in one statement that runs only on the version read.

    The statement is atomic on its own (outside a transaction it is one), so the driver path
    needs no row lock: a writer that got there first has moved the row's `xmin`, and then
    nothing matches. Returns the row's new version (the writing transaction's id).
    """
    changes = match.changes()
    keys = tuple(sorted(changes))
    values: list[Any] = [_raw_value(MATCHES, key, changes[key]) for key in keys]
    values.append(guard)
    if notify_seq is not None:
        values += [CHANNEL, f"{match.id}:{notify_seq}"]
    sql = _raw_step(keys, notify_seq is not None, guarded=True, with_events=bool(events))
    arrays = _arrays(events) if events else []
    version = await driver.fetchval(sql, match.id, *values, *arrays)
    if version is None:
        raise WriteConflict(f"match {match.id} changed since it was read")
    match.mark_written(changes)
    return int(version)


def _arrays(events: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """The events as one array per column (after match_id), for `unnest`."""
    json_columns = _JSON_COLUMNS[EVENTS.name]
    arrays = []
    for key in EVENT_COLUMNS[1:]:
        values = [row[key] for row in events]
        if key in json_columns:
            values = [None if v is None else jsontext.dumps(v) for v in values]
        arrays.append(values)
    return arrays


def _stored_row_changes(match: Match | DriverRow) -> dict[str, Any] | None:
    """The changed columns of a row already in the table; None for a row the ORM must insert."""
    if isinstance(match, DriverRow):
        return match.changes()
    state = inspect(match)
    return _orm_changes(state) if state.persistent else None


def _mark_written(match: Match | DriverRow, changes: dict[str, Any]) -> None:
    if isinstance(match, DriverRow):
        match.mark_written(changes)
        return
    for key, value in changes.items():
        set_committed_value(match, key, value)


_RAW_STEPS: dict[tuple[tuple[str, ...], bool, bool, bool], str] = {}


def _raw_step(
    keys: tuple[str, ...], notifying: bool, *, guarded: bool = False, with_events: bool = True
) -> str:
    """UPDATE the row (RETURNING its NOTIFY) and INSERT its events from arrays, in one statement.

    The INSERT reads the UPDATE's one row (`FROM step`): that ties the events to the update
    and makes sure its RETURNING, the NOTIFY, is evaluated. JSON goes in as text arrays.
    Guarded: the UPDATE also requires the row version (`xmin`) given after the values, and the
    statement returns the new version (one transaction writes the row and the events, so the
    events' `xmin` is the row's), or no row if the guard failed.
    """
    sql = _RAW_STEPS.get((keys, notifying, guarded, with_events))
    if sql is None:
        update = _raw_match_update(keys, notifying, guarded)
        if not with_events:
            sql = update  # guarded, it returns the new version first
        else:
            if not notifying and not guarded:
                update += " RETURNING 1"
            first = len(keys) + (4 if notifying else 2) + (1 if guarded else 0)
            kinds = ("int", "text", "timestamptz", "text", "text", "text")
            arrays = ", ".join(f"${first + n}::{kind}[]" for n, kind in enumerate(kinds))
            sql = (
                f"WITH step AS ({update}) "
                f"INSERT INTO match_events ({', '.join(EVENT_COLUMNS)}) "
                "SELECT $1, e.seq, e.type, e.at, e.data::jsonb, e.private::jsonb, e.action::jsonb "
                f"FROM step, unnest({arrays}) AS e(seq, type, at, data, private, action)"
            )
            if guarded:
                sql += " RETURNING xmin"
        _RAW_STEPS[(keys, notifying, guarded, with_events)] = sql
    return sql


async def _write_match(
    session: AsyncSession,
    driver: asyncpg.Connection | None,
    match: Match | DriverRow,
    notify_seq: int | None,
) -> None:
    """Write the row's changed columns in one Core UPDATE, with the NOTIFY in the same statement.

    Cheaper than a unit-of-work flush: the changes are taken from the row's attribute history
    and then marked as written, so a later flush does not repeat them. Other pending ORM
    changes (seats, new rows) are flushed as usual, at the next query or at the commit.
    """
    if isinstance(match, DriverRow):
        changes = match.changes()
    else:
        state = inspect(match)
        if not state.persistent:  # not inserted yet: the ORM writes it
            await session.flush()
            if notify_seq is not None:
                await notify(session, match.id, notify_seq)
            return
        changes = _orm_changes(state)
    if not changes:
        if notify_seq is not None:
            await notify(session, match.id, notify_seq)
        return
    keys = tuple(sorted(changes))
    if driver is not None:
        values = [_raw_value(MATCHES, key, changes[key]) for key in keys]
        sql = _raw_match_update(keys, notify_seq is not None)
        if notify_seq is not None:
            values += [CHANNEL, f"{match.id}:{notify_seq}"]
        await driver.execute(sql, match.id, *values)
    else:
        params = {f"v_{key}": value for key, value in changes.items()}
        params["w_id"] = match.id
        if notify_seq is not None:
            params["n_channel"], params["n_payload"] = CHANNEL, f"{match.id}:{notify_seq}"
        await session.execute(_match_update(keys, notify_seq is not None), params)
    _mark_written(match, changes)


def _orm_changes(state: InstanceState[Match]) -> dict[str, Any]:
    """The columns set on an ORM row since it was loaded, from its attribute history."""
    changes: dict[str, Any] = {}
    for key in list(state.committed_state):
        added = state.attrs[key].history.added
        if added:
            changes[key] = added[0]
    return changes


class SessionStandIn:
    """The part of a session `_driver` asks for, for code that takes the session's place in
    the write path (the driver path's and the sweeper's stand-ins): `driver_connection` is the
    asyncpg connection to write on, or None to be sent `execute` calls instead."""

    driver_connection: asyncpg.Connection | None = None

    async def connection(self) -> SessionStandIn:
        return self

    async def get_raw_connection(self) -> SessionStandIn:
        return self

    async def guard(self, match: Match | DriverRow) -> int | None:
        """The row version (`xmin`) a step's write must find, or None to write unguarded;
        called just before the write."""
        return None

    def written(self, version: int) -> None:
        """A guarded write went through; the row is now at `version`."""


async def _driver(session: AsyncSession) -> asyncpg.Connection | None:
    """The asyncpg connection under the session, once its transaction has begun.

    The move path's writes go straight to it: through SQLAlchemy each statement costs several
    times the driver's own work (measured in bench/README.md "Load"). Before the transaction
    has begun (the SQLAlchemy adapter begins it lazily) the caller must use the session, or
    the statement would run outside the transaction. A stand-in's connection is used as it is:
    the stand-in decides whether its writes run in a transaction.
    """
    if isinstance(session, SessionStandIn):
        return session.driver_connection
    connection = await session.connection()
    fairy = await connection.get_raw_connection()
    driver = fairy.driver_connection
    if isinstance(driver, asyncpg.Connection) and driver.is_in_transaction():
        return driver
    return None


# The JSON columns (json or jsonb) of the hot tables, looked up per value written (a column
# lookup per value cost about as much as the value's encoding).
_JSON_COLUMNS = {
    table.name: frozenset(c.name for c in table.columns if isinstance(c.type, JSON))
    for table in (MATCHES, EVENTS)
}


def _raw_value(table: Table, key: str, value: Any) -> Any:
    # The SQLAlchemy-installed codec takes JSON as text; SQLAlchemy would encode it the same way.
    if value is not None and key in _JSON_COLUMNS[table.name]:
        return jsontext.dumps(value)
    return value


_RAW_MATCH_UPDATES: dict[tuple[tuple[str, ...], bool, bool], str] = {}


def _raw_match_update(keys: tuple[str, ...], notifying: bool, guarded: bool = False) -> str:
    """$1 the id, then the values in `keys` order, then the guard (guarded), then the NOTIFY's
    channel and payload (notifying)."""
    sql = _RAW_MATCH_UPDATES.get((keys, notifying, guarded))
    if sql is None:
        sets = ", ".join(f"{key} = ${n}" for n, key in enumerate(keys, start=2))
        sql = f"UPDATE matches SET {sets} WHERE id = $1"
        after, returning = len(keys) + 2, []
        if guarded:
            sql += f" AND xmin = ${after}::xid"
            after, returning = after + 1, ["xmin"]
        if notifying:
            returning.append(f"pg_notify(${after}, ${after + 1})")
        if returning:
            sql += f" RETURNING {', '.join(returning)}"
        _RAW_MATCH_UPDATES[(keys, notifying, guarded)] = sql
    return sql


# Built once per set of changed columns: building a statement costs about as much as running it.
_MATCH_UPDATES: dict[tuple[tuple[str, ...], bool], Update] = {}


def _match_update(keys: tuple[str, ...], notifying: bool) -> Update:
    stmt = _MATCH_UPDATES.get((keys, notifying))
    if stmt is None:
        values = {key: bindparam(f"v_{key}", type_=MATCHES.c[key].type) for key in keys}
        stmt = update(MATCHES).where(MATCHES.c.id == bindparam("w_id")).values(values)
        if notifying:
            stmt = stmt.returning(
                func.pg_notify(
                    bindparam("n_channel", type_=Text()), bindparam("n_payload", type_=Text())
                )
            )
        _MATCH_UPDATES[(keys, notifying)] = stmt
    return stmt


EVENT_COLUMNS = ("match_id", "seq", "type", "at", "data", "private", "action")
INSERT_EVENT = (
    f"INSERT INTO match_events ({', '.join(EVENT_COLUMNS)}) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(EVENT_COLUMNS) + 1))})"
)


async def insert_events(session: AsyncSession, rows: Sequence[dict[str, Any]]) -> None:
    if rows:
        await _insert_events(session, await _driver(session), rows)


async def _insert_events(
    session: AsyncSession, driver: asyncpg.Connection | None, rows: Sequence[dict[str, Any]]
) -> None:
    if not rows:
        return
    if driver is None:
        # The Core table: no ORM bulk machinery (and no autoflush) for a plain multi-row INSERT.
        await session.execute(insert(EVENTS), list(rows))
        return
    records = [tuple(_raw_value(EVENTS, key, row[key]) for key in EVENT_COLUMNS) for row in rows]
    await driver.executemany(INSERT_EVENT, records)


async def notify(session: AsyncSession, match_id: str, seq: int) -> None:
    """Sent by PostgreSQL only when the transaction commits: nothing is announced early."""
    await session.execute(
        text("SELECT pg_notify(:channel, :payload)"),
        {"channel": CHANNEL, "payload": f"{match_id}:{seq}"},
    )


async def events_after(
    session: AsyncSession, match_id: str, after: int, limit: int | None = None
) -> list[MatchEvent]:
    stmt = (
        select(MatchEvent)
        .where(MatchEvent.match_id == match_id, MatchEvent.seq > after)
        .order_by(MatchEvent.seq)
    )
    if limit is not None:
        stmt = stmt.limit(limit)
    return list((await session.execute(stmt)).scalars())


async def idempotent_answer(
    session: AsyncSession, player_id: str, key: str
) -> IdempotentAnswer | None:
    return await session.get(IdempotentAnswer, (player_id, key))


async def matches_of_player(session: AsyncSession, player_id: str) -> list[str]:
    stmt = (
        select(Seat.match_id)
        .join(Match, Match.id == Seat.match_id)
        .where(Seat.player_id == player_id, Match.status.not_in(OVER_STATUSES))
        .distinct()
    )
    return list((await session.execute(stmt)).scalars())


async def touch_seats(
    session: AsyncSession, match_id: str, seat_numbers: Sequence[int], now: datetime
) -> None:
    """Record an authenticated request about the match: the seats are at the table."""
    await session.execute(
        update(Seat)
        .where(Seat.match_id == match_id, Seat.seat.in_(list(seat_numbers)))
        .values(last_seen_at=now, away_since=None)
    )


async def count_events(session: AsyncSession, match_id: str) -> int:
    stmt = select(func.count()).select_from(MatchEvent).where(MatchEvent.match_id == match_id)
    return int((await session.execute(stmt)).scalar_one())
