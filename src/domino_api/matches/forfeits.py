"""Forfeits and abandonment (RULES 9 and 10): the steps a resignation, a clock, an absence or
a tournament's check-in end in. Pure on a table in memory, like every step."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from domino_api import engine
from domino_api.errors import SeatForfeited
from domino_api.matches.table import Table, apply


def forfeit(table: Table, now: datetime, seat: int, cause: str) -> list[dict[str, Any]]:
    """RULES 9: two seats -> the other wins; more -> the computer takes the seat for good."""
    if table.state.status == "waiting":
        if table.match.tournament_id is not None and len(table.seats) == 2:
            # Leaving a tournament match during check-in is a forfeit loss, not a no-show.
            return forfeit_before_start(table, now, seat)
        return abandon(table, now, "abandoned")
    if table.seats[seat].forfeited:
        raise SeatForfeited(f"Seat {seat} has already forfeited.")
    table.seats[seat].forfeited = True
    if len(table.seats) > 2 and not table.humans_in_play():
        # The last human seat leaving abandons the match: no winner, no records.
        return abandon(table, now, "abandoned")
    return apply(table, now, None, engine.Forfeit(seat, cause))


def forfeit_before_start(table: Table, now: datetime, seat: int) -> list[dict[str, Any]]:
    """Check-in closed with one seat ready: the absent seat forfeits before any deal, so the
    match has an ordinary result and the ready player advances (seed 004). Nothing is dealt:
    a hand that never started has no `hand_ended` and reveals no tiles."""
    table.seats[seat].forfeited = True
    return apply(table, now, None, engine.Forfeit(seat, "check_in"))


def abandon(table: Table, now: datetime, reason: str) -> list[dict[str, Any]]:
    if table.over:
        return []
    return apply(table, now, None, engine.Abandon(reason))


def check_in_expired(table: Table, now: datetime) -> list[dict[str, Any]]:
    """Seed 004: one ready player advances by forfeit; none ready cancels the match (and its
    tournament, through the tournament's end hook)."""
    ready = [row.seat for row in table.seats if row.ready]
    table.match.check_in_deadline = None
    if len(ready) == 1:
        return forfeit_before_start(table, now, 1 - ready[0])
    return abandon(table, now, "cancelled")


def start_if_checked_in(table: Table, now: datetime) -> None:
    """A tournament match starts by itself (server-picked cut) once both seats are ready."""
    if table.match.tournament_id is None or table.state.status != "waiting":
        return
    if all(row.ready for row in table.seats):
        cut = secrets.token_hex(8)
        table.match.cut = cut
        table.match.check_in_deadline = None
        apply(table, now, None, engine.Start(cut))
