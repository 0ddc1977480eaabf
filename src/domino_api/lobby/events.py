"""The lobby socket's events: one union tagged by `type`, as engine/event_types.py's are.

`table_opened`, `seats_changed` and `table_closed` go to every socket watching the table's
preset; `seek_paired` only to the sockets holding that seek; `your_turn` only to its
player's. A listed table is named by its public id, never by its game number or match id:
the lobby is read by outsiders (a `your_turn` names its player's own match).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from domino_api.engine.event_types import Moment, SeatNo

Count = Annotated[int, Meta(ge=0, le=8)]


class LobbyTable(Struct, frozen=True, kw_only=True):
    """A public table: its public id (never its game number), preset, host and seats. The one
    shape of a listing, in the lobby's events and in its routes' answers alike."""

    id: Annotated[
        str, Meta(description="The table's public id: join with POST /v1/lobby/tables/{id}/join")
    ]
    ruleset: str
    host: Annotated[str, Meta(description="The host's name")]
    host_rating: Annotated[
        int | None,
        Meta(
            description="The host's rating at this preset (docs/API.md, Ratings); null: not"
            " rated yet"
        ),
    ]
    host_connected: Annotated[
        bool, Meta(description="The host's presence: a table whose host is away is not listed")
    ]
    seats: Count
    free_seats: Count
    created_at: Moment


class _LobbyEvent(Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True):
    ruleset: str


class TableOpened(_LobbyEvent, tag="table_opened", frozen=True):
    """A host made a waiting table public, or its host came back."""

    table: LobbyTable


class SeatsChanged(_LobbyEvent, tag="seats_changed", frozen=True):
    """A public table's free seats changed (a join, a seat released); still open."""

    table: LobbyTable


class TableClosed(_LobbyEvent, tag="table_closed", frozen=True):
    """A public table left the lobby: full, started, over, its host unlisted it, or its host
    is away (`table_opened` again when it is back)."""

    id: str


class SeekPaired(_LobbyEvent, tag="seek_paired", frozen=True):
    """The holder's seek was paired: its seat at the new match (the holder's own token plays
    it)."""

    seek: str
    match: str
    seat: SeatNo


class YourTurn(_LobbyEvent, tag="your_turn", frozen=True):
    """It is the holder's turn at a correspondence table (`options.per_move_s`): sent to each
    of its lobby sockets, whatever preset they watch, after the step that passed it the turn
    committed (turns/notices.py). `deadline`: when the seat forfeits unless it moves."""

    match: str
    seat: SeatNo
    title: str  # the game's name, as a notice shows it ("All Fives")
    deadline: Moment | None


LobbyEvent = TableOpened | SeatsChanged | TableClosed | SeekPaired | YourTurn
