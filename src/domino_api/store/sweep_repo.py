"""SQL of the recovery job's batches: claim due matches together, write their rows together.

The statements are those of the one write path (store/matches_repo.py) widened to many matches:
the same columns, the same `pg_notify` channel and payload, issued once per batch.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, Text, Update, any_, bindparam, func, select, update
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.ext.asyncio import AsyncSession

from domino_api.store.matches_repo import CHANNEL, MATCHES
from domino_api.store.models import Match, Seat

SEATS = cast(Table, Seat.__table__)


async def claim_due(session: AsyncSession, now: datetime, limit: int) -> list[Match]:
    """Up to `limit` of the most overdue matches nobody holds, locked for this transaction.

    SKIP LOCKED: a match held by another sweeper, or by a move while it writes, is left to its
    holder. A match that moved on after the statement's snapshot is re-checked on its locked
    row by PostgreSQL, and the write path re-checks its deadlines again before acting. A move
    on the driver path holds no lock while it is computed: if a forfeit claimed here commits
    first, the move's guarded write finds the row moved and the move is judged again on the
    new state (matches/fast.py), so the move wins only if it commits first.
    """
    stmt = (
        select(Match)
        .where(Match.due_at <= now)
        .order_by(Match.due_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    return list((await session.execute(stmt)).scalars())


async def claim(session: AsyncSession, match_id: str, now: datetime) -> Match | None:
    """One given match, if it is still due and nobody holds it, locked for this transaction."""
    stmt = (
        select(Match)
        .where(Match.id == match_id, Match.due_at <= now)
        .with_for_update(skip_locked=True)
    )
    return (await session.execute(stmt)).scalar_one_or_none()


async def matches_by_ids(session: AsyncSession, match_ids: Sequence[str]) -> list[Match]:
    """Many match rows in one query, in the order given (no lock: for reading)."""
    stmt = select(Match).where(Match.id == any_(_texts(match_ids)))
    found = {match.id: match for match in (await session.execute(stmt)).scalars()}
    return [found[match_id] for match_id in match_ids if match_id in found]


def _texts(values: Sequence[str]) -> Any:
    return bindparam("ids", list(values), type_=ARRAY(Text()))


async def seats_of(session: AsyncSession, match_ids: Sequence[str]) -> dict[str, list[Seat]]:
    """The seats of many matches in one query, each match's in seat order."""
    stmt = (
        select(Seat)
        .where(Seat.match_id == any_(_texts(match_ids)))
        .order_by(Seat.match_id, Seat.seat)
    )
    found: dict[str, list[Seat]] = defaultdict(list)
    for seat in (await session.execute(stmt)).scalars():
        found[seat.match_id].append(seat)
    return found


async def write_matches(
    session: AsyncSession, rows: Sequence[tuple[str, dict[str, Any], str | None]]
) -> None:
    """Write many match rows: (id, changed columns, NOTIFY payload or None) each.

    One `UPDATE ... FROM unnest(...)` per set of changed columns (a batch of forfeits shares
    one), with `pg_notify` per row in its RETURNING as matches_repo.write_step does for one.
    """
    await _write_rows(session, MATCHES, [((match_id,), c, n) for match_id, c, n in rows])


async def write_seats(
    session: AsyncSession, rows: Sequence[tuple[str, int, dict[str, Any]]]
) -> None:
    """Write many seat rows: (match id, seat number, changed columns) each."""
    await _write_rows(session, SEATS, [((match_id, n), c, None) for match_id, n, c in rows])


Row = tuple[tuple[Any, ...], dict[str, Any], str | None]


async def _write_rows(session: AsyncSession, table: Table, rows: Sequence[Row]) -> None:
    groups: dict[tuple[tuple[str, ...], bool], list[Row]] = defaultdict(list)
    for row in rows:
        if row[1]:
            groups[(tuple(sorted(row[1])), row[2] is not None)].append(row)
    keys_of = [column.name for column in table.primary_key.columns]
    for (keys, notifying), group in groups.items():
        params: dict[str, Any] = {}
        for n, key in enumerate(keys_of):
            params[f"k_{key}"] = [row[0][n] for row in group]
        for key in keys:
            params[f"v_{key}"] = [row[1][key] for row in group]
        if notifying:
            params["n_channel"] = CHANNEL
            params["n_payloads"] = [row[2] for row in group]
        await session.execute(_batch_update(table, keys, notifying), params)


# Built once per table and set of changed columns, as matches_repo does for its one-row UPDATE.
_BATCH_UPDATES: dict[tuple[str, tuple[str, ...], bool], Update] = {}


def _batch_update(table: Table, keys: tuple[str, ...], notifying: bool) -> Update:
    """UPDATE table SET k = given.k ... FROM unnest(<arrays>) AS given(...) WHERE <key> = ..."""
    stmt = _BATCH_UPDATES.get((table.name, keys, notifying))
    if stmt is None:
        primary = list(table.primary_key.columns)
        arrays = [bindparam(f"k_{c.name}", type_=ARRAY(c.type)) for c in primary]
        arrays += [bindparam(f"v_{key}", type_=ARRAY(table.c[key].type)) for key in keys]
        names = [f"k_{c.name}" for c in primary] + [f"v_{key}" for key in keys]
        if notifying:
            arrays.append(bindparam("n_payloads", type_=ARRAY(Text())))
            names.append("n_payload")
        given = func.unnest(*arrays).table_valued(*names).render_derived()
        stmt = (
            update(table)
            .where(*(c == given.c[f"k_{c.name}"] for c in primary))
            .values({key: given.c[f"v_{key}"] for key in keys})
        )
        if notifying:
            stmt = stmt.returning(
                func.pg_notify(bindparam("n_channel", type_=Text()), given.c.n_payload)
            )
        _BATCH_UPDATES[(table.name, keys, notifying)] = stmt
    return stmt
