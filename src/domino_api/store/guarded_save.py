"""The one guarded statement of `matches_repo.save_many`, built for a set of changes.

The statement's text depends only on the changes' shape: which columns of the matches and
seats change, whether a group holds one match or many, whether events come. A match's moves
take a handful of shapes, so each shape's text is built once and kept (`_TEXTS`), and a move
builds only its values; asyncpg's statement cache is keyed by that text, so a kept text is
also a statement already prepared on the connection.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from datetime import datetime
from typing import Protocol

from sqlalchemy import JSON, create_mock_engine

from domino_api import jsontext
from domino_api.engine.shapes import Snapshot
from domino_api.engine.table.model import Staged
from domino_api.store.models import Base, Match, MatchEvent
from domino_api.store.models import Seat as SeatModel

MATCHES, SEATS, EVENTS = (
    Base.metadata.tables[m.__tablename__] for m in (Match, SeatModel, MatchEvent)
)
EVENT_COLUMNS = ("match_id", "seq", "type", "at", "data", "private", "action")
# What one column of a match or seat row holds (Info's, Seat's and the state's fields, and the
# snapshot), and a row's values by column, as asyncpg takes them once JSON is text (`value`).
Column = str | int | bool | bytes | datetime | Snapshot | None
Columns = dict[str, Column]
Values = list[object]  # one column's values, for `unnest`
SeatRow = tuple[str, int, Columns]  # match id, seat, changed columns
_JSON = frozenset(
    c.name for t in (MATCHES, SEATS, EVENTS) for c in t.columns if isinstance(c.type, JSON)
)
_DIALECT = create_mock_engine("postgresql+asyncpg://", None).dialect  # compiles, runs nothing
_TYPES = {c.name: c.type.compile(dialect=_DIALECT) for t in (MATCHES, SEATS) for c in t.columns}
_EVENT_KINDS = ("text[]", "int[]", "text[]", "timestamptz[]", "text[]", "text[]", "text[]")
# Statement texts by shape; a sweep's batches bring more shapes, so the store is bounded.
_TEXTS: dict[Hashable, str] = {}
_TEXTS_KEPT = 512


class Change(Protocol):
    """What the save reads of a match to save (store/matches_repo.py `Change` is the one)."""

    version: int
    events: Sequence[Staged]
    at: datetime

    @property
    def id(self) -> str: ...
    def columns(self) -> Columns: ...
    def seats(self) -> list[tuple[int, Columns]]: ...
    def marks_only(self) -> bool: ...


def value(key: str, column: Column) -> Column:
    # The pool's (and SQLAlchemy's) codec takes JSON as text already encoded.
    return jsontext.dumps(column) if column is not None and key in _JSON else column


def _array(kind: str) -> str:
    # JSON travels as text (see `value`); PostgreSQL casts the text array on assignment.
    return "text[]" if kind in ("JSON", "JSONB") else f"{kind}[]"


def _as_json(kind: str) -> str:
    """The conversion a JSON column's text needs on assignment (none for other kinds)."""
    return f"::{kind.lower()}" if kind in ("JSON", "JSONB") else ""


class Statement:
    """The one guarded statement for a set of changes: its values, and its text's parts when
    `text` (a shape whose text is kept needs only the values)."""

    def __init__(self, text: bool = True) -> None:
        self.text = text
        self.parts: list[str] = []
        self.values: list[object] = []

    def arrays(self, names: Sequence[str], kinds: Sequence[str], columns: list[Values]) -> str:
        start = len(self.values) + 1
        self.values += columns
        if not self.text:
            return ""
        given = ", ".join(f"${start + n}::{kind}" for n, kind in enumerate(kinds))
        return f"unnest({given}) AS g({', '.join(names)})"

    def keys(self, column: str, one: bool) -> str:
        """For one match, its key for the next `arrays`' rows as an equality, so that the plan
        is one primary-key probe: PostgreSQL cannot tell how many rows an `unnest` gives, and
        on a small table it read the whole table for each move (`git log -S 'one index probe'
        -- bench/README.md`). A batch's one scan per statement is left to the planner."""
        return f"t.{column} = (${len(self.values) + 1}::text[])[1] AND " if one else ""

    def update_matches(self, number: int, keys: tuple[str, ...], group: list[Change]) -> None:
        columns: list[Values] = [[c.id for c in group], [c.version for c in group]]
        columns += [[value(k, c.columns()[k]) for c in group] for k in keys]
        found = self.keys("id", _one(c.id for c in group))
        kinds = ("text[]", "xid[]", *(_array(_TYPES[k]) for k in keys)) if self.text else ()
        source = self.arrays(("id", "version", *keys), kinds, columns)
        if self.text:
            sets = ", ".join(f"{k} = g.{k}{_as_json(_TYPES[k])}" for k in keys) or "id = g.id"
            self.parts.append(
                f"m{number} AS (UPDATE matches AS t SET {sets} FROM {source} "
                f"WHERE {found}t.id = g.id AND t.xmin = g.version RETURNING t.id, t.xmin)"
            )

    def check_matches(self, number: int, group: list[Change]) -> None:
        """The version guard without an update: the rows are share-locked, so a writer that
        moves one waits for this statement, and one that moved it first leaves no row here
        (PostgreSQL re-checks the locked row's version)."""
        columns: list[Values] = [[c.id for c in group], [c.version for c in group]]
        found = self.keys("id", _one(c.id for c in group))
        source = self.arrays(("id", "version"), ("text[]", "xid[]"), columns)
        if self.text:
            self.parts.append(
                f"m{number} AS (SELECT t.id, t.xmin FROM matches AS t, {source} "
                f"WHERE {found}t.id = g.id AND t.xmin = g.version FOR SHARE OF t)"
            )

    def update_seats(self, number: int, keys: tuple[str, ...], rows: list[SeatRow]) -> None:
        columns: list[Values] = [[r[0] for r in rows], [r[1] for r in rows]]
        columns += [[value(k, r[2][k]) for r in rows] for k in keys]
        found = self.keys("match_id", _one(r[0] for r in rows))
        kinds = ("text[]", "int[]", *(_array(_TYPES[k]) for k in keys)) if self.text else ()
        source = self.arrays(("match_id", "seat", *keys), kinds, columns)
        if self.text:
            sets = ", ".join(f"{k} = g.{k}{_as_json(_TYPES[k])}" for k in keys)
            self.parts.append(
                f"s{number} AS (UPDATE seats AS t SET {sets} FROM {source} "
                f"JOIN saved ON saved.id = g.match_id "
                f"WHERE {found}t.match_id = g.match_id AND t.seat = g.seat RETURNING 1)"
            )

    def insert_events(self, changes: Sequence[Change]) -> None:
        rows = [(c.id, e, c.at) for c in changes for e in c.events]
        if not rows:
            return
        columns: list[Values] = [
            [r[0] for r in rows],
            [r[1].seq for r in rows],
            [r[1].type for r in rows],
            [r[2] for r in rows],
            [jsontext.dumps(r[1].data) for r in rows],
            [jsontext.dumps(r[1].private) for r in rows],
            [None if r[1].action is None else jsontext.dumps(r[1].action) for r in rows],
        ]
        source = self.arrays(EVENT_COLUMNS, _EVENT_KINDS, columns)
        if self.text:
            self.parts.append(
                f"events AS (INSERT INTO match_events ({', '.join(EVENT_COLUMNS)}) "
                "SELECT g.match_id, g.seq, g.type, g.at, g.data::jsonb, g.private::jsonb, "
                f"g.action::jsonb FROM {source} JOIN saved ON saved.id = g.match_id RETURNING 1)"
            )


def _one(ids: Iterable[str]) -> bool:
    """Whether the rows are one match's."""
    return len(set(ids)) == 1


def guarded(changes: Sequence[Change]) -> tuple[str, list[object]]:
    """The statement saving `changes` (each guarded by its version) and its values; it
    answers each saved match's id and new version."""
    by_keys: dict[tuple[str, ...] | None, list[Change]] = {}  # None: marks only
    for change in changes:
        keys = None if change.marks_only() else tuple(sorted(change.columns()))
        by_keys.setdefault(keys, []).append(change)
    seats: dict[tuple[str, ...], list[SeatRow]] = {}
    for change in changes:
        for seat, columns in change.seats():
            seats.setdefault(tuple(sorted(columns)), []).append((change.id, seat, columns))
    shape = (
        tuple((keys, _one(c.id for c in group)) for keys, group in by_keys.items()),
        tuple((keys, _one(r[0] for r in rows)) for keys, rows in seats.items()),
        any(c.events for c in changes),
    )
    text = _TEXTS.get(shape)
    statement = Statement(text=text is None)
    for number, (keys, group) in enumerate(by_keys.items()):
        if keys is None:
            statement.check_matches(number, group)
        else:
            statement.update_matches(number, keys, group)
    if statement.text:
        saved = " UNION ALL ".join(f"SELECT id, xmin FROM m{n}" for n in range(len(by_keys)))
        statement.parts.append(f"saved AS ({saved})")
    for number, (keys, rows) in enumerate(seats.items()):
        statement.update_seats(number, keys, rows)
    statement.insert_events(changes)
    if text is None:
        text = f"WITH {', '.join(statement.parts)} SELECT id, xmin FROM saved"
        if len(_TEXTS) >= _TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[shape] = text
    return text, statement.values
