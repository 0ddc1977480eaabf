"""The table's clocks (docs/RULES.md section 10): turn deadlines, away deadlines, the next hand,
check-in, abandonment, and which of them is due now.

`next_due` is the decision (what is due now, and why); `engine.table.step`'s `Tick` carries it
out until nothing is due, and leaves `due_at` right for the sweep's index. `due_at` may be
early (presence moves later without touching it) but never late.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal, Protocol

from msgspec import Struct

from domino_api.engine.table.model import Seat, Table

# docs/API.md: a match no human seat has been connected to for this long is abandoned by the
# recovery job; a table holding a game number sooner, so that its number is given back while
# the people it was given to may still remember it (issue 43: it was held for a day).
ABANDON_AFTER = timedelta(hours=24)
NUMBERED_ABANDON_AFTER = timedelta(minutes=30)
# A waiting table nobody starts gives its game number back this soon.
WAITING_EXPIRES = timedelta(minutes=30)
NEXT_HAND_DELAY_S = 30.0
# Away forfeits have no grace of their own: an away deadline that fell in an outage moves to
# the restart plus this (the classic preset's grace, RULES 3).
AWAY_OUTAGE_GRACE_S = 120
# A correspondence turn that fell in an outage gets an hour (its players are not watching).
CORRESPONDENCE_OUTAGE_GRACE_S = 3600
FORGIVABLE = ("clock", "away", "away_tie")


class Outages(Protocol):
    """When the service came back after an outage that covers `moment` (None: it was up)."""

    def outage_restart(self, moment: datetime) -> datetime | None: ...


class NoOutages:
    def outage_restart(self, moment: datetime) -> datetime | None:
        return None


DueKind = Literal[
    "check_in", "abandon_waiting", "clock", "away", "away_tie", "next_hand", "abandon_absent"
]


class Due(Struct, frozen=True, gc=False):
    """One thing due for a match now: `kind` names it, `moment` is when it fell due."""

    kind: DueKind
    moment: datetime
    seat: int | None = None

    def describe(self) -> str:
        return {
            "check_in": "check-in expired",
            "abandon_waiting": "abandon (30 min without a start)",
            "clock": f"forfeit seat {self.seat} (clock)",
            "away": f"forfeit seat {self.seat} (away)",
            "away_tie": "abandon (seats left at the same instant)",
            "next_hand": "start the next hand",
            "abandon_absent": "abandon (no human seat connected for 24 h)",
        }[self.kind]


def turn_deadline(
    table: Table, before_turn: tuple[str, int | None, int], now: datetime
) -> datetime | None:
    """RULES 10: a turn starts at a deal or when the turn passes to another seat.
    `before_turn` is (status, turn, hand number) before the step."""
    state, allowance = table.state, turn_allowance_s(table)
    if allowance is None or table.match.solo or state.status != "playing" or state.turn is None:
        return None
    if table.is_computer(state.turn):
        return None
    same_turn = before_turn == ("playing", state.turn, state.hand_number)
    if same_turn and table.match.turn_deadline is not None:
        return table.match.turn_deadline
    return now + timedelta(seconds=allowance)


def turn_allowance_s(table: Table) -> int | None:
    """Seconds a turn lasts, grace included: a correspondence table's time per move, else the
    ruleset's turn clock (None: turns are not timed)."""
    if table.match.per_move_s is not None:
        return table.match.per_move_s
    clock = table.state.ruleset.turn_clock
    return None if clock is None else clock.allowance_s + clock.grace_s


def waiting_expires(table: Table) -> timedelta:
    """How long a table waits for its start: a correspondence table a move's time at least
    (its players are not expected to be present together)."""
    per_move = table.match.per_move_s
    return (
        WAITING_EXPIRES if per_move is None else max(WAITING_EXPIRES, timedelta(seconds=per_move))
    )


def next_hand_at(table: Table, now: datetime) -> datetime | None:
    if table.state.status != "hand_over" or turn_allowance_s(table) is None:
        return None
    if table.match.solo:
        return None
    return table.match.next_hand_at or now + timedelta(seconds=NEXT_HAND_DELAY_S)


def seat_present_until(seat: Seat, table: Table) -> datetime | None:
    """The last moment the seat was known to be at the table while the match was in play."""
    marks = [m for m in (seat.last_seen_at, seat.connected_until, table.match.started_at) if m]
    return max(marks) if marks else None


def away_deadline(table: Table, seat: int) -> datetime | None:
    """RULES 10: when a human seat that stays away from now on forfeits (None: it never does)."""
    limit = table.state.ruleset.away_forfeit_s
    match = table.match
    if (
        not limit
        or match.solo
        or match.per_move_s is not None
        or table.state.status not in ("playing", "hand_over")
    ):
        return None
    if table.is_computer(seat):
        return None
    present = seat_present_until(table.seats[seat], table)
    if present is None:
        return None
    deadline = present + timedelta(seconds=limit)
    if match.outage_grace_until is not None and match.outage_grace_until > deadline:
        deadline = match.outage_grace_until  # the service was down: RULES 10
    return deadline


def due_at(table: Table) -> datetime | None:
    """The earliest moment something must happen to this match (the sweep's index)."""
    match, state = table.match, table.state
    if table.over:
        return None
    moments = [m for m in (match.turn_deadline, match.next_hand_at, match.check_in_deadline) if m]
    if state.status == "waiting":
        if match.tournament_id is None:
            moments.append(match.created_at + waiting_expires(table))
        return min(moments) if moments else None
    marks = []
    for seat in table.humans_in_play():
        moment = away_deadline(table, seat)
        if moment is not None:
            moments.append(moment)
        marks.append(seat_present_until(table.seats[seat], table))
    if marks and all(m is not None for m in marks) and match.per_move_s is None:
        # docs/API.md: no human seat connected for a while abandons the match.
        moments.append(max(m for m in marks if m is not None) + abandon_after(table))
    return min(moments) if moments else None


def is_due(table: Table, now: datetime) -> bool:
    """The cheap check: compare the stored due moment with now."""
    due = table.match.due_at
    return due is not None and due <= now


def _away_overdue(table: Table, now: datetime) -> list[tuple[datetime, int]]:
    """(left at, seat) for every seat past its away deadline, the first to leave first."""
    overdue: list[tuple[datetime, int]] = []
    for seat in table.humans_in_play():
        row = table.seats[seat]
        if row.connected_until is not None and row.connected_until > now:
            continue
        deadline = away_deadline(table, seat)
        if deadline is not None and deadline <= now:
            left = seat_present_until(row, table)
            assert left is not None  # a deadline implies a presence mark
            overdue.append((left, seat))
    overdue.sort()
    return overdue


def next_due(table: Table, now: datetime) -> Due | None:
    """What must happen to this match now, in the order RULES 10 and docs/API.md give; else None."""
    if table.over:
        return None
    match, state = table.match, table.state
    if state.status == "waiting":
        if match.check_in_deadline is not None and match.check_in_deadline <= now:
            return Due("check_in", match.check_in_deadline)
        expires = waiting_expires(table)
        if match.tournament_id is None and now - match.created_at >= expires:
            return Due("abandon_waiting", match.created_at + expires)
        return None
    deadline, turn = match.turn_deadline, state.turn
    if (
        deadline is not None
        and deadline <= now
        and turn is not None
        and not table.is_computer(turn)
    ):
        return Due("clock", deadline, turn)
    overdue = _away_overdue(table, now)
    if overdue:
        left, seat = overdue[0]
        moment = away_deadline(table, seat)
        assert moment is not None
        if len(overdue) > 1 and overdue[1][0] == left:
            return Due("away_tie", moment)
        return Due("away", moment, seat)
    if match.next_hand_at is not None and match.next_hand_at <= now and state.status == "hand_over":
        return Due("next_hand", match.next_hand_at)
    # A correspondence table is played by absent players: its clock alone ends it.
    absent_since = None if match.per_move_s is not None else _all_absent_since(table)
    if absent_since is not None and now - absent_since >= abandon_after(table):
        return Due("abandon_absent", absent_since + abandon_after(table))
    return None


def abandon_after(table: Table) -> timedelta:
    """How long a started match no human seat is connected to lasts: 30 minutes while it holds
    a game number (others may be told it), a day otherwise (solo, hot-seat)."""
    return NUMBERED_ABANDON_AFTER if table.match.code is not None else ABANDON_AFTER


def _all_absent_since(table: Table) -> datetime | None:
    """The last moment any human seat in play was at the table (None: no human seat)."""
    marks = [seat_present_until(table.seats[s], table) for s in table.humans_in_play()]
    if not marks or any(m is None for m in marks):
        return None
    return max(m for m in marks if m is not None)


def outage_extension(table: Table, due: Due, outages: Outages) -> datetime | None:
    """The new deadline when `due` fell inside a service outage, else None."""
    restart = outages.outage_restart(due.moment)
    if restart is None:
        return None
    clock_rule = table.state.ruleset.turn_clock
    grace: int = AWAY_OUTAGE_GRACE_S
    if due.kind == "clock" and table.match.per_move_s is not None:
        grace = CORRESPONDENCE_OUTAGE_GRACE_S
    elif due.kind == "clock" and clock_rule is not None:
        grace = int(clock_rule.grace_s)
    return restart + timedelta(seconds=grace)
