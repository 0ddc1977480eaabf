"""Who may take which seat: joins by game number and name, autopilot on another's seat, and
what a seat that has left the game may still see (issue 16, attacks 1, 5 and 8).

Rejoining by number and name from a new device stays (product 001), made safe:
- a seat is claimable by name only once its holder has been gone (no socket, no request) for
  the presence lease (`DOMINO_PRESENCE_LEASE_S`); a present holder keeps it;
- a claim records `seat_claimed` {seat, name}, which every seat sees; the old holder's sockets
  close on it with 4409 `seat_claimed` (realtime/socket.py);
- no refusal names a holder, and to a caller not seated there a started table it cannot
  claim answers exactly as an unknown number does;
- refusals count against the game number's budget of failed claims, all callers together
  (`DOMINO_CLAIM_FAILURES_PER_CODE`, in the join route);
- the host may lock the table (`PUT /v1/matches/{id}/lock`): then no claim by name works, and
  a seat changes hands only through its own token or by the host releasing it
  (`DELETE /v1/matches/{id}/seats/{seat}/holder`), which frees it for the next join by number.

The functions are pure decisions on a table in memory (the write core's step runs them).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from domino_api.errors import CodeNotFound, MatchFull, SeatInUse, ServiceError

CLAIMED_EVENT = "seat_claimed"


def unknown_number(code: str) -> ServiceError:
    """The one refusal of a number the caller may not enter: unknown, over, or started."""
    return CodeNotFound(f"No open match has the number {code}.")


def holder_present(table: Any, row: Any, now: datetime, lease_s: float) -> bool:
    """The seat's holder was seen (a socket's lease, or any request) within the lease."""
    if row.connected_until is not None and row.connected_until > now:
        return True
    return row.last_seen_at is not None and now - row.last_seen_at < timedelta(seconds=lease_s)


def seat_for(
    table: Any, player: Any, code: str, now: datetime, lease_s: float, name: str | None = None
) -> tuple[Any, bool]:
    """The seat a caller not seated at `table` gets by its number: (row, claimed by name).
    `name` is the name the caller joins under (default: its profile's), matched against the
    name each seat goes by at this table (matches/access.py).

    Raises the refusal otherwise (none names a holder)."""
    from domino_api.matches.access import seat_name

    wanted = name or player.name
    locked = bool(getattr(table.match, "claims_locked", False))
    same_name = [
        row
        for row in table.seats
        if row.type == "human"
        and row.player_id
        and row.player_id != player.id
        and not row.forfeited
        and seat_name(table, row) == wanted
    ]
    started = table.state.status != "waiting"
    for row in same_name:
        if not locked and not holder_present(table, row, now, lease_s):
            return row, True
        if started:
            raise unknown_number(code)
        raise SeatInUse("A player of that name holds a seat at this table; pick another name.")
    # A free human seat: a waiting table's open seat, or one the host released.
    free = [row for row in table.seats if row.type == "human" and row.player_id is None]
    if started and not free:
        raise unknown_number(code)
    if not free:
        raise MatchFull("Every seat at this table is taken.")
    return free[0], False


def claimed_data(row: Any, name: str) -> dict[str, Any]:
    return {"seat": row.seat, "name": name}


def autopilot_allowed(table: Any, row: Any, caller_id: str, now: datetime, lease_s: float) -> bool:
    """The host may hand another's seat to the computer only once its holder has gone: no
    socket and no request about the match within the presence lease."""
    if row.player_id is None or row.player_id == caller_id:
        return True
    return not holder_present(table, row, now, lease_s)


def viewable_seats(table: Any, mine: list[int]) -> list[int]:
    """The caller's seats whose private data it may see: while a match runs, a forfeited or
    resigned seat (now the computer's) shows its holder nothing private any more."""
    if table.over:
        return mine
    forfeited = getattr(table.state, "forfeited", None) or ()
    return [
        seat
        for seat in mine
        if not table.seats[seat].forfeited and not (seat < len(forfeited) and forfeited[seat])
    ]
