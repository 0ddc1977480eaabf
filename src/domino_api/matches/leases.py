"""The table's presence rules (docs/ARCHITECTURE.md, "Presence"): a seat is connected while
any of its sockets, or a request about the match, was seen within the lease; the `connected`
flag changes only with a `seat_connected` or `seat_disconnected` event. Pure steps on a table
in memory: the write core (matches/unit.py) and matches/presence.py, which finds the lapsed
leases in the database, apply them.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from domino_api.matches.claims import holder_present
from domino_api.matches.table import Table, record

LEASE_S = 30.0


def seat_connected(
    table: Table, now: datetime, seats: Iterable[int], lease_s: float = LEASE_S
) -> list[dict[str, Any]]:
    """Extend the seats' leases; announce the ones that were not connected."""
    rows: list[dict[str, Any]] = []
    for number in seats:
        seat = table.seats[number]
        if seat.type != "human":
            continue
        seat.connected_until = max(now + timedelta(seconds=lease_s), seat.connected_until or now)
        seat.last_seen_at = now
        seat.away_since = None
        if not seat.connected and not table.over:
            seat.connected = True
            rows += record(table, now, "seat_connected", {"seat": number})
    return rows


def seen_by_request(table: Table, now: datetime, seats: Iterable[int]) -> list[dict[str, Any]]:
    """A request about the match counts as presence (docs/API.md, "The away rule"): announce
    the caller's seats that were not connected. Their lease is the request's own sighting
    (`last_seen_at`, written by the write core), not a socket's."""
    rows: list[dict[str, Any]] = []
    for number in seats:
        seat = table.seats[number]
        if seat.type == "human" and not seat.connected and not table.over:
            seat.connected = True
            rows += record(table, now, "seat_connected", {"seat": number})
    return rows


def seat_disconnected(
    table: Table, now: datetime, seats: Iterable[int], lease_s: float = LEASE_S
) -> list[dict[str, Any]]:
    """Mark seats whose lease lapsed as gone and announce it (nothing once the match is over)."""
    rows: list[dict[str, Any]] = []
    for number in seats:
        seat = table.seats[number]
        if not lapsed(seat, now, lease_s):
            continue
        seat.connected = False
        seat.away_since = _lease_end(seat, lease_s) or now
        if not table.over:
            rows += record(table, now, "seat_disconnected", {"seat": number})
    return rows


def _lease_end(seat: Any, lease_s: float) -> datetime | None:
    """When the seat's last sighting (a socket's lease, a request's) ran out."""
    seen = seat.last_seen_at and seat.last_seen_at + timedelta(seconds=lease_s)
    ends = [m for m in (seat.connected_until, seen) if m is not None]
    return max(ends) if ends else None


def lapsed(seat: Any, now: datetime, lease_s: float) -> bool:
    return bool(seat.connected) and not holder_present(None, seat, now, lease_s)
