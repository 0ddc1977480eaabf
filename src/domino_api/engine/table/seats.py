"""Who holds, takes and acts for which seat, and who is at the table (issue 16, issue 25).

- A seat is connected while one of its sockets or a request about the match was seen within the
  presence lease; the `connected` flag changes only with a `seat_connected` or
  `seat_disconnected` event, so a view never contradicts the stream that keeps it up to date.
- A seat is claimable by name only once its holder has been gone for the lease; a present
  holder keeps it. No refusal names a holder: to a caller not seated there a started table it
  cannot claim answers exactly as an unknown number does, with the lease as `retry_after`.
- Host rights go with seat 0: whoever claims it is the host from then on.
- The host may lock claims by name, and release another's seat for the next join by number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Protocol

from domino_api.engine.errors import (
    CodeNotFound,
    MatchFull,
    NotSeated,
    NotYourSeat,
    SeatInUse,
)
from domino_api.engine.event_types import SeatJoinedData, SeatJoinedEvent
from domino_api.engine.table.model import Seat, Table
from domino_api.engine.table.witness import ALWAYS, Witness

LEASE_S = 30.0
COMPUTER_NAMES = {"plain": "Plain", "planner": "Planner", "random": "Random"}


def seat_name(table: Table, row: Seat) -> str | None:
    """The name a human seat goes by at this table: its own, else its holder's profile name."""
    if row.name:
        return row.name
    return table.names.get(row.player_id) if row.player_id else None


class SeatKind(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def type(self) -> str: ...
    @property
    def strategy(self) -> str | None: ...


def computer_name(seats: Iterable[SeatKind], row: SeatKind) -> str:
    """A computer seat's name, by its strategy; the second of one strategy at a table is
    "Planner 2", and so on, so two computers never share a name."""
    base = COMPUTER_NAMES.get(row.strategy or "", "Computer")
    before = sum(
        1
        for other in seats
        if other.type == "bot" and other.seat < row.seat and other.strategy == row.strategy
    )
    return f"{base} {before + 1}" if before else base


def shown_name(table: Table, row: Seat) -> str | None:
    """The seat's name as every view and event shows it (a computer's by its strategy)."""
    if row.type == "bot":
        return computer_name(table.seats, row)
    return seat_name(table, row)


def joined_data(table: Table, row: Seat) -> SeatJoinedData:
    """The public data of a `seat_joined` event (and of the ledger's seat summaries)."""
    name = shown_name(table, row)
    if row.type == "bot" and row.strategy not in ("plain", "planner"):
        name = "Computer"
    return SeatJoinedData(seat=row.seat, name=name, type=row.type, strategy=row.strategy)


def joined(table: Table, row: Seat) -> SeatJoinedEvent:
    """`seat_joined` for `row` as it is now, to be numbered by `record`."""
    return SeatJoinedEvent(seq=0, data=joined_data(table, row))


def needs_number(table: Table) -> bool:
    """Whether the table needs its game number: only while a remote human can join or rejoin
    it, that is while it is not over and has an open human seat or one held by someone other
    than the host and not forfeited. A table against computers only, a hot-seat table, or one
    whose guests have all resigned needs none: its number is freed."""
    if table.over:
        return False
    host = table.match.host_player_id
    return any(
        row.type == "human"
        and not row.forfeited
        and (row.player_id is None or row.player_id != host)
        for row in table.seats
    )


def pick_seat(table: Table, player_id: str, seat: int | None, prefer_turn: bool = False) -> int:
    """Which of the caller's seats acts: the named one, else the one on turn, else the lowest."""
    mine = table.seats_of(player_id)
    if not mine:
        raise NotSeated("You hold no seat at this match.")
    if seat is not None:
        if seat not in mine:
            raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
        return seat
    if prefer_turn and table.state.turn in mine:
        return int(table.state.turn)
    return mine[0]


def viewable_seats(table: Table, mine: list[int]) -> list[int]:
    """The caller's seats whose private data it may see: while a match runs, a forfeited or
    resigned seat (now the computer's) shows its holder nothing private any more."""
    if table.over:
        return mine
    forfeited = table.state.forfeited
    return [s for s in mine if not table.seats[s].forfeited and not forfeited[s]]


def viewer_seat(table: Table, mine: list[int], seat: int | None) -> int | None:
    """The seat whose private data the caller sees, in the view, the events and on a socket."""
    visible = viewable_seats(table, mine)
    if seat is not None:
        return seat if seat in visible else None
    return visible[0] if visible else None


# ---------------------------------------------------------------- presence


def holder_present(row: Seat, now: datetime, lease_s: float, witness: Witness = ALWAYS) -> bool:
    """The seat's holder was seen (a socket's lease, or any request) within the lease, counting
    only time the service could see (engine/table/witness.py): a lease never runs out while
    its process could not renew it. A lapse once recorded stands until the holder is seen
    again (a sighting connects the seat): a watch that starts again renews only the sightings
    whose lapse was not recorded yet, so a seat the dots show away never turns present alone."""
    if recorded_away(row):
        return False
    if witness.socket_held(row.connected_until, now):
        return True
    if row.last_seen_at is None:
        return False
    return now - witness.watched_since(row.last_seen_at) < timedelta(seconds=lease_s)


def recorded_away(row: Seat) -> bool:
    """The seat's lapse was recorded (`seat_disconnected`, which sets `away_since`) and its
    holder has not been seen since (every sighting connects the seat)."""
    return not row.connected and row.away_since is not None


def lapsed(row: Seat, now: datetime, lease_s: float, witness: Witness = ALWAYS) -> bool:
    return row.connected and not holder_present(row, now, lease_s, witness)


def lease_end(row: Seat, lease_s: float) -> datetime | None:
    """When the seat's last sighting (a socket's lease, a request's) ran out."""
    seen = row.last_seen_at and row.last_seen_at + timedelta(seconds=lease_s)
    ends = [m for m in (row.connected_until, seen) if m is not None]
    return max(ends) if ends else None


def may_take(
    row: Seat, caller_id: str, now: datetime, lease_s: float, witness: Witness = ALWAYS
) -> bool:
    """The one rule for acting on another's seat (issue 41): the host's autopilot, the host's
    release, a claim by name. A seat that is open, or the caller's own, may be taken; another's
    only once its holder has gone: no socket and no request about the match within the
    presence lease, as the service witnessed it. A present holder keeps its seat, whoever
    asks."""
    if row.player_id is None or row.player_id == caller_id:
        return True
    return not holder_present(row, now, lease_s, witness)


def held_for(lease_s: float) -> SeatInUse:
    """The refusal of an act on a seat whose holder is at the table (it names nobody)."""
    lease = math.ceil(lease_s)
    return SeatInUse(
        f"The seat's holder is at the table; it can be handed on only once they have been"
        f" away {lease} s.",
        retry_after=lease,
    )


# ---------------------------------------------------------------- joins by number


def unknown_number(code: str, lease_s: float) -> CodeNotFound:
    """The one refusal of a number the caller may not enter: unknown, over, or started with
    no seat for it. A rejoin from a new device while the old one still holds the seat gets
    this answer too: it tells how long a seat stays held, and `retry_after` is that lease
    whatever the number, so nothing in it says whether a table or a holder exists."""
    lease = math.ceil(lease_s)
    return CodeNotFound(
        f"No open match with the number {code} has a seat for you now. If it is your own seat"
        f" on another device, it stays held until that device has been away {lease} s: close"
        " the match there, or try again then.",
        retry_after=lease,
    )


def same_name(table: Table, player_id: str, wanted: str) -> list[Seat]:
    """The seats of others that go by `wanted` at this table: a join under that name is a
    rejoin (its holder's own, or a claim once the holder has gone), never a guess."""
    return [
        row
        for row in table.seats
        if row.type == "human"
        and row.player_id
        and row.player_id != player_id
        and not row.forfeited
        and seat_name(table, row) == wanted
    ]


def seat_for(
    table: Table,
    player_id: str,
    wanted: str,
    code: str,
    now: datetime,
    lease_s: float,
    witness: Witness = ALWAYS,
) -> tuple[Seat, bool]:
    """The seat a caller not seated at `table` gets by its number: (seat, claimed by name).
    `wanted` is the name the caller joins under, matched against the name each seat goes by
    at this table. Raises the refusal otherwise (none names a holder)."""
    started = table.state.status != "waiting"
    for row in same_name(table, player_id, wanted):
        if not table.match.claims_locked and may_take(row, player_id, now, lease_s, witness):
            return row, True
        if started:
            raise unknown_number(code, lease_s)
        raise SeatInUse(
            "A player of that name holds a seat at this table; pick another name, or, if it is"
            f" your own seat on another device, try again once that device has been away"
            f" {math.ceil(lease_s)} s.",
            retry_after=math.ceil(lease_s),
        )
    # A free human seat: a waiting table's open seat, or one the host released.
    free = [row for row in table.seats if row.type == "human" and row.player_id is None]
    if started and not free:
        raise unknown_number(code, lease_s)
    if not free:
        raise MatchFull("Every seat at this table is taken.")
    return free[0], False
