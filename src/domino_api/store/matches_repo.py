"""The one repository of a match: load, claim what is due, insert, and the one guarded save.

A match travels as the engine's immutable `Table` (engine/table). `save_many` is every writer's
save, one match or a sweep's batch alike: one statement writes each match's changed columns
(its derived ones too: status, seq, game_seq, snapshot), its changed seats and its events,
each match guarded by the row version it was read at (`xmin`). A match whose version moved
is not written at all, nor its seats or events, and `WriteConflict` names it: the unit of work
reads it again and computes again. A change of seats' lease marks only (a socket's renewal, a
request seen) is checked against the version under a share lock and leaves the row and its
version as they were: moving it every few seconds would only make other writers' reads stale.
No statement here sends a NOTIFY: announcements follow the commit (realtime/announce.py)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import asyncpg
from msgspec import structs

from domino_api import engine
from domino_api.engine.errors import MatchFull
from domino_api.engine.shapes import Snapshot, decode_snapshot
from domino_api.engine.table import Info, Seat, Staged, Table, with_info
from domino_api.store import match_codes
from domino_api.store.guarded_save import Columns, Statement, guarded, value

INFO_COLUMNS = tuple(f.name for f in structs.fields(Info))
SEAT_COLUMNS = tuple(f.name for f in structs.fields(Seat))
DERIVED = ("status", "seq", "game_seq")  # the engine state's, written beside the snapshot
# A seat's presence marks: no rule reads them but through `Lapse`, `Seen` and `Connect`.
LEASE_MARKS = frozenset({"connected_until", "last_seen_at", "away_since"})
# A match's engine state as storage keeps it; None: the row has moved on.
Stored = Snapshot | None
_INFO_FIELDS = ", ".join(f"m.{name}" for name in INFO_COLUMNS)
_SEAT_FIELDS = ", ".join(f"s.{name}" for name in SEAT_COLUMNS)
# The rows, their versions and seats with their holders in one statement: one snapshot. One
# match by `=`: under ANY a generic plan guesses ten keys and scans all the seats.
_WITH_SEATS = (
    f"SELECT {_INFO_FIELDS}, m.xmin AS version, {_SEAT_FIELDS}, p.name, p.tile_back "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id "
    "LEFT JOIN players p ON p.id = s.player_id WHERE m.id "
)
MATCH_WITH_SEATS, MATCHES_WITH_SEATS = _WITH_SEATS + "= $1", _WITH_SEATS + "= ANY($1::text[])"
SNAPSHOT = "SELECT snapshot::text FROM matches WHERE id = $1 AND xmin = $2::xid"
# The recovery job's claim: the most overdue matches nobody holds, locked, with snapshots.
CLAIM_DUE = (
    "SELECT id, snapshot::text AS snapshot FROM matches WHERE due_at <= $1 "
    "ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED"
)
# Whether a claim could find anything: the first entry of the due_at index, no lock taken.
EARLIEST_DUE = "SELECT min(due_at) FROM matches"


class WriteConflict(Exception):
    """A guarded write found its row changed since it was read: nothing was written."""


@dataclass(frozen=True, slots=True)
class Read:
    """A match as read: its facts, seats and holders, its version, and the snapshot if read."""

    info: Info
    seats: tuple[Seat, ...]
    names: dict[str, str]
    tile_backs: dict[str, str]
    version: int
    snapshot: Stored = None

    def table(self, state: engine.MatchState) -> Table:
        return Table(
            match=self.info,
            seats=self.seats,
            state=state,
            names=self.names,
            tile_backs=self.tile_backs,
        )


def _seats(
    rows: Iterable[asyncpg.Record], offset: int
) -> tuple[tuple[Seat, ...], dict[str, str], dict[str, str]]:
    seats: list[Seat] = []
    names: dict[str, str] = {}
    backs: dict[str, str] = {}
    width = len(SEAT_COLUMNS)
    for row in rows:
        if row[offset] is None:
            continue  # a match without seats comes back as one row of nulls
        seat = Seat(**dict(zip(SEAT_COLUMNS, row[offset : offset + width], strict=True)))
        seats.append(seat)
        name, back = row[offset + width], row[offset + width + 1]
        if seat.player_id and name is not None:
            names[seat.player_id] = name
            backs[seat.player_id] = back or "moon"
    seats.sort(key=lambda s: s.seat)
    return tuple(seats), names, backs


async def read(connection: asyncpg.Connection, match_id: str) -> Read | None:
    return (await read_many(connection, [match_id])).get(match_id)


async def read_many(connection: asyncpg.Connection, match_ids: list[str]) -> dict[str, Read]:
    """The matches found among `match_ids`, by id (snapshots not read: see `snapshot`)."""
    one = len(match_ids) == 1
    sql, keys = (MATCH_WITH_SEATS, match_ids[0]) if one else (MATCHES_WITH_SEATS, match_ids)
    rows: dict[str, list[asyncpg.Record]] = {}
    for row in await connection.fetch(sql, keys):
        rows.setdefault(row["id"], []).append(row)
    width = len(INFO_COLUMNS)
    reads = {}
    for match_id, found in rows.items():
        seats, names, backs = _seats(found, width + 1)
        info = Info(**dict(zip(INFO_COLUMNS, found[0], strict=False)))
        reads[match_id] = Read(info, seats, names, backs, int(found[0]["version"]))
    return reads


async def snapshot(connection: asyncpg.Connection, match_id: str, version: int) -> Stored:
    """The snapshot of the version read, or None once the row has moved on."""
    text = await connection.fetchval(SNAPSHOT, match_id, version)
    return None if text is None else decode_snapshot(text)


async def claim_due(connection: asyncpg.Connection, now: datetime, limit: int) -> list[Read]:
    """Up to `limit` due matches nobody holds, locked until the caller's transaction ends.

    SKIP LOCKED: a match held by another sweeper is left to it. A step computed elsewhere
    without a lock is saved guarded by the version, so it cannot overwrite a claimed match:
    it waits for the claim's commit, finds the row moved and is computed again.
    """
    found = await connection.fetch(CLAIM_DUE, now, limit)
    reads = await read_many(connection, [row["id"] for row in found]) if found else {}
    return [replace(reads[row["id"]], snapshot=decode_snapshot(row["snapshot"])) for row in found]


async def earliest_due(connection: asyncpg.Connection) -> datetime | None:
    """The earliest moment any match may have something due (None: none has)."""
    moment: datetime | None = await connection.fetchval(EARLIEST_DUE)
    return moment


# ---------------------------------------------------------------- the guarded save


@dataclass(slots=True)
class Change:
    """One match to save: the table as read (`before`) and as it is now, the version it was
    read at, and the events made since, stored `at`."""

    before: Table
    after: Table
    version: int
    events: Sequence[Staged]
    at: datetime
    _columns: Columns | None = None

    @property
    def id(self) -> str:
        return self.after.match.id

    def columns(self) -> Columns:
        """The match's changed columns, derived ones included (computed once)."""
        if self._columns is None:
            self._columns = self._changed_columns()
        return self._columns

    def _changed_columns(self) -> Columns:
        before, after = self.before, self.after
        changed = {
            name: getattr(after.match, name)
            for name in INFO_COLUMNS
            if getattr(after.match, name) != getattr(before.match, name)
        }
        if after.state is not before.state:
            changed |= {name: getattr(after.state, name) for name in DERIVED}
            changed["snapshot"] = engine.to_json(after.state)
        return changed

    def seats(self) -> list[tuple[int, Columns]]:
        """(seat, changed columns) of every seat that changed."""
        out = []
        for old, new in zip(self.before.seats, self.after.seats, strict=True):
            if old != new:
                fields = {name: getattr(new, name) for name in SEAT_COLUMNS}
                out.append((new.seat, {k: v for k, v in fields.items() if getattr(old, k) != v}))
        return out

    def changed(self) -> bool:
        return bool(self.events) or self.after != self.before

    def marks_only(self) -> bool:
        """Only seats' lease marks changed: the match row stays, its version too."""
        if self.events or self.columns() or self.after.state is not self.before.state:
            return False
        return all(columns.keys() <= LEASE_MARKS for _, columns in self.seats())


async def save_many(connection: asyncpg.Connection, changes: Sequence[Change]) -> dict[str, int]:
    """Save every change in one statement, each match guarded by its version; returns each
    match's new version. Raises `WriteConflict` when any match moved: none of it is written
    (its seats and events join on the saved rows), and a batch's caller rolls back the rest
    of its transaction (jobs/sweeper.py then handles its matches one by one)."""
    saved = await save_each(connection, changes)
    missing = [c.id for c in changes if c.id not in saved]
    if missing:
        raise WriteConflict(f"matches {missing[:3]} changed since they were read")
    return saved


async def save_each(connection: asyncpg.Connection, changes: Sequence[Change]) -> dict[str, int]:
    """`save_many` that names the matches saved (id: new version) instead of raising: outside a
    transaction the statement commits those whose version held, and only those."""
    if not changes:
        return {}
    sql, values = guarded(changes)
    rows = await connection.fetch(sql, *values)
    return {row["id"]: int(row["xmin"]) for row in rows}


async def save(connection: asyncpg.Connection, change: Change) -> int:
    """One match's save (`save_many` of one); its new version."""
    return (await save_many(connection, [change]))[change.id]


# ---------------------------------------------------------------- a new match


async def insert(
    connection: asyncpg.Connection, table: Table, events: Sequence[Staged], at: datetime
) -> Table:
    """A new match with its seats and first events, in the caller's transaction; returns the
    table as inserted. A match with a game number gets another one if two creators drew the
    same number at once (the live number is `match_codes`'s)."""
    code = table.match.code
    for attempt in range(5):
        if code is None or await match_codes.take(connection, code, table.match.id):
            break
        if attempt == 4:
            raise MatchFull("No free game number was found; try again.", retry_after=60)
        code = await match_codes.free_code(connection)
    columns = {name: getattr(table.match, name) for name in INFO_COLUMNS} | {"code": code}
    columns |= {name: getattr(table.state, name) for name in DERIVED}
    columns["snapshot"] = engine.to_json(table.state)
    version = await _insert_row(connection, "matches", columns)
    for seat in table.seats:
        row = {name: getattr(seat, name) for name in SEAT_COLUMNS}
        await _insert_row(connection, "seats", {"match_id": table.match.id, **row})
    if events:  # the events join on `saved`, here the row just inserted
        statement = Statement()
        statement.values.append(table.match.id)
        statement.parts.append("saved AS (SELECT $1::text AS id)")
        statement.insert_events([Change(table, table, version, events, at)])
        await connection.execute(f"WITH {', '.join(statement.parts)} SELECT 1", *statement.values)
    return with_info(table, code=code)


async def _insert_row(connection: asyncpg.Connection, table: str, columns: Columns) -> int:
    values = [value(name, column) for name, column in columns.items()]
    placeholders = ", ".join(f"${n}" for n in range(1, len(values) + 1))
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({placeholders}) RETURNING xmin"
    return int(await connection.fetchval(sql, *values))


async def retry_later(
    connection: asyncpg.Connection, match_id: str, version: int, at: datetime
) -> bool:
    """Leave a match whose handling failed alone until `at`, if still at the `version` the
    sweep claimed (it may not load: no table to save); returns whether it did."""
    status: str = await connection.execute(
        "UPDATE matches SET due_at = $3 WHERE id = $1 AND xmin = $2::xid", match_id, version, at
    )
    return status == "UPDATE 1"
