"""A table: one match with its seats, their holders and its deadlines, as one immutable value.

The match row's own facts (`Info`), its seats (`Seat`) and the engine's `MatchState` travel
together; `engine.table.step` turns a table and a command into the next table and its events.
Nothing here is changed in place: a step builds new values with `msgspec.structs.replace`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from msgspec import Struct, field
from msgspec.structs import replace

from domino_api.engine.actions import Note
from domino_api.engine.event_types import AnyData, AnyEvent, Private
from domino_api.engine.events import Event
from domino_api.engine.kinds import SeatKind, Strategy
from domino_api.engine.state import MatchState


class Seat(Struct, frozen=True, kw_only=True):
    """One seat: who holds it, who plays it, and the presence marks of its holder."""

    seat: int
    type: SeatKind
    strategy: Strategy | None = None  # a computer seat's strategy
    player_id: str | None = None  # a human seat's holder (None: open)
    name: str | None = None  # the name the seat goes by at this table (None: the profile's)
    autopilot: bool = False
    forfeited: bool = False
    ready: bool = False  # a tournament seat has checked in
    rematch: bool = False  # the holder offered a rematch
    moved: bool = False  # the holder made a move of its own (not the computer's, nor the clock's)
    connected: bool = False  # as the presence events say
    connected_until: datetime | None = None  # a socket's lease
    last_seen_at: datetime | None = None  # a request's sighting
    away_since: datetime | None = None


class Info(Struct, frozen=True, kw_only=True):
    """The table's own facts: who hosts it, how it is found, and its deadlines."""

    id: str
    ruleset: str
    secret: bytes
    commitment: str
    created_at: datetime
    updated_at: datetime
    cut: str | None = None
    solo: bool = False
    spectators: bool = False
    code: str | None = None  # the game number, while a remote human can join by it
    host_player_id: str | None = None
    host_address: str | None = None
    tournament_id: str | None = None
    claims_locked: bool = False
    talk_off: bool = False  # the host turned table talk off (engine/table/seating.py)
    # `options.talk: "etiquette"` (partnership only): no talk while a hand is in play.
    talk_etiquette: bool = False
    rated: bool = False  # its finish moves its players' ratings (domino_api/ratings/rules.py)
    # A correspondence table's time per move (engine/table/clocks.py): no away rule then.
    per_move_s: int | None = None
    rematch_match_id: str | None = None
    turn_deadline: datetime | None = None
    next_hand_at: datetime | None = None
    check_in_deadline: datetime | None = None
    due_at: datetime | None = None  # the earliest moment something must happen (the sweep's)
    outage_grace_until: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None


class Table(Struct, frozen=True, kw_only=True):
    """A match as one value: its facts, seats, engine state, and the holders' public names."""

    match: Info
    seats: tuple[Seat, ...]
    state: MatchState
    names: Mapping[str, str] = field(default_factory=dict)  # holder -> profile name
    tile_backs: Mapping[str, str] = field(default_factory=dict)  # holder -> tile back

    @property
    def over(self) -> bool:
        return self.state.over

    def is_computer(self, seat: int) -> bool:
        """A computer plays the seat: a computer seat, or a human's on autopilot or forfeited."""
        row = self.seats[seat]
        return row.type == "bot" or row.autopilot or row.forfeited

    def strategy_of(self, seat: int) -> str:
        """The strategy that plays `seat` for now (a human's seat on autopilot: the Planner)."""
        row = self.seats[seat]
        return row.strategy if row.type == "bot" and row.strategy else "planner"

    def humans_in_play(self) -> list[int]:
        return [s.seat for s in self.seats if s.type == "human" and not self.is_computer(s.seat)]

    def seats_of(self, player_id: str) -> list[int]:
        return [s.seat for s in self.seats if s.player_id == player_id]


class Staged(Struct, frozen=True, kw_only=True):
    """One event a step made, stamped with its moment, as it is sent and stored: `action`
    replays it (`replay`), on its first event only."""

    event: Event
    action: Note | None = None

    @property
    def seq(self) -> int:
        return self.event.seq

    @property
    def type(self) -> str:
        return self.event.type

    @property
    def data(self) -> AnyData:
        return self.event.data

    @property
    def private(self) -> Mapping[int, Private]:
        return self.event.private

    def for_seat(self, seat: int | None) -> AnyEvent:
        return self.event.for_seat(seat)


class Stepped(Struct, frozen=True):
    """A step's result: the next table and the events it made, in order."""

    table: Table
    events: tuple[Staged, ...] = ()

    def then(self, other: Stepped) -> Stepped:
        return Stepped(other.table, self.events + other.events)


def with_seat(table: Table, number: int, **changes: object) -> Table:
    """The table with one seat changed."""
    seats = list(table.seats)
    seats[number] = replace(seats[number], **changes)
    return replace(table, seats=tuple(seats))


def with_info(table: Table, **changes: object) -> Table:
    return replace(table, match=replace(table.match, **changes))
