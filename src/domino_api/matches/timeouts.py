"""Timeouts first (RULES 10): whatever is due for a match is applied before anything else.

The same function serves every request that opens a match and the recovery job, so the
result is the same whichever comes first. `next_due` is the pure decision (what is due now,
and why); `enforce` carries it out step by step on the table in memory until nothing is due,
and leaves `matches.due_at` right for the sweeper's index; the write core (matches/unit.py)
or the sweeper's batch (jobs/sweeper.py) saves it like any other step.

`due_at` may be early (presence moves later without touching it) but never late: a visit that
finds nothing due just stores the recomputed moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from domino_api import engine
from domino_api.jobs.liveness import Lifetimes
from domino_api.matches.forfeits import abandon, check_in_expired, forfeit
from domino_api.matches.table import (
    ABANDON_AFTER,
    WAITING_EXPIRES,
    Table,
    apply,
    away_deadline,
    due_at,
    record,
    seat_present_until,
)
from domino_api.matches.views import iso

# A few steps can fall due at once (a next hand, then ...); bounded so a bug cannot spin.
MAX_STEPS = 20
# Away forfeits have no grace of their own: an away deadline that fell in an outage moves to
# the restart plus this (the classic preset's grace, RULES 3).
AWAY_OUTAGE_GRACE_S = 120

__all__ = [
    "ABANDON_AFTER",
    "AWAY_OUTAGE_GRACE_S",
    "Due",
    "away_forfeiter",
    "enforce",
    "is_due",
    "next_due",
]


@dataclass(frozen=True)
class Due:
    """One thing due for a match now: `kind` names it, `moment` is when it fell due."""

    kind: str  # check_in | abandon_waiting | clock | away | away_tie | next_hand | abandon_absent
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


def is_due(table: Table, now: datetime) -> bool:
    """The cheap check: compare the stored due moment with now, no lock needed."""
    due = table.match.due_at
    return due is not None and due <= now


def away_forfeiter(table: Table, now: datetime) -> tuple[int | None, bool]:
    """Which human seat has been away past the limit: (seat, tie). The first to leave forfeits."""
    overdue = _away_overdue(table, now)
    if not overdue:
        return None, False
    tie = len(overdue) > 1 and overdue[0][0] == overdue[1][0]
    return overdue[0][1], tie


def _away_overdue(table: Table, now: datetime) -> list[tuple[datetime, int]]:
    """(left at, seat) for every seat past its away deadline, the first to leave first."""
    overdue: list[tuple[datetime, int]] = []
    for seat in table.humans_in_play():
        row = table.seats[seat]
        if row.connected_until is not None and row.connected_until > now:
            continue
        deadline = away_deadline(table, seat)
        if deadline is not None and deadline <= now:
            left = seat_present_until(row, table.match)
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
        if match.tournament_id is None and now - match.created_at >= WAITING_EXPIRES:
            return Due("abandon_waiting", match.created_at + WAITING_EXPIRES)
        return None
    deadline, turn = match.turn_deadline, state.turn
    on_clock = turn is not None and not table.is_computer(turn)
    if deadline is not None and deadline <= now and on_clock:
        return Due("clock", deadline, turn)
    overdue = _away_overdue(table, now)
    if overdue:
        left, seat = overdue[0]
        moment = away_deadline(table, seat)
        assert moment is not None
        if len(overdue) > 1 and overdue[1][0] == left:
            return Due("away_tie", moment)
        return Due("away", moment, seat)
    next_hand = match.next_hand_at
    if next_hand is not None and next_hand <= now and state.status == "hand_over":
        return Due("next_hand", next_hand)
    absent_since = _all_absent_since(table)
    if absent_since is not None and now - absent_since >= ABANDON_AFTER:
        return Due("abandon_absent", absent_since + ABANDON_AFTER)
    return None


def _all_absent_since(table: Table) -> datetime | None:
    """The last moment any human seat in play was at the table (None: no human seat)."""
    marks = [seat_present_until(table.seats[s], table.match) for s in table.humans_in_play()]
    if not marks or any(m is None for m in marks):
        return None
    return max(m for m in marks if m is not None)


def enforce(table: Table, now: datetime, lifetimes: Lifetimes) -> list[dict[str, Any]]:
    """Apply every due timeout to the table in memory; returns the staged event rows.

    `lifetimes` (service liveness, jobs/liveness.py) decides which deadlines fell in an outage.
    """
    if table.over or not is_due(table, now):
        return []
    rows: list[dict[str, Any]] = []
    for _ in range(MAX_STEPS):
        due = next_due(table, now)
        if due is None:
            break
        rows += _carry_out(table, now, due, lifetimes)
        if table.over:
            break
    # Nothing (more) is due: store the recomputed moment so the sweeper skips this match until
    # then (it may have been early: presence moves on without updating it).
    table.match.due_at = due_at(table)
    return rows


def _carry_out(table: Table, now: datetime, due: Due, lifetimes: Lifetimes) -> list[dict[str, Any]]:
    forgivable = due.kind in ("clock", "away", "away_tie")
    moved = _forgive_outage(table, now, due, lifetimes) if forgivable else None
    if moved is not None:
        return moved
    if due.kind == "check_in":
        return check_in_expired(table, now)
    if due.kind in ("abandon_waiting", "abandon_absent", "away_tie"):
        return abandon(table, now, "abandoned")
    if due.kind in ("clock", "away"):
        assert due.seat is not None
        return forfeit(table, now, due.seat, due.kind)
    if due.kind == "next_hand":
        return apply(table, now, None, engine.NextHand())
    raise AssertionError(f"unknown due kind {due.kind!r}")


def outage_extension(table: Table, due: Due, lifetimes: Lifetimes) -> datetime | None:
    """The new deadline when `due` fell inside a service outage (jobs/liveness.py), else None."""
    restart = lifetimes.outage_restart(due.moment)
    if restart is None:
        return None
    clock_rule = table.state.ruleset.turn_clock
    grace: int = AWAY_OUTAGE_GRACE_S
    if due.kind == "clock" and clock_rule is not None:
        grace = int(clock_rule.grace_s)
    return restart + timedelta(seconds=grace)


def _forgive_outage(
    table: Table, now: datetime, due: Due, lifetimes: Lifetimes
) -> list[dict[str, Any]] | None:
    """Move a deadline that passed while no process was alive, with a `deadline_moved` event
    per seat whose deadline moved (the `turn` event still says the old one); None: not moved."""
    extended = outage_extension(table, due, lifetimes)
    if extended is None or extended <= due.moment:
        return None
    if due.kind == "clock":
        assert due.seat is not None
        table.match.turn_deadline = extended
        moved = {due.seat: extended}
    else:
        before = {seat: away_deadline(table, seat) for seat in table.humans_in_play()}
        table.match.outage_grace_until = extended
        after = {seat: away_deadline(table, seat) for seat in before}
        moved = {seat: at for seat, at in after.items() if at is not None and at != before[seat]}
    table.match.due_at = due_at(table)
    kind = "turn" if due.kind == "clock" else "away"
    rows: list[dict[str, Any]] = []
    for seat, at in sorted(moved.items()):
        data = {"seat": seat, "clock": kind, "deadline": iso(at)}
        rows += record(table, now, "deadline_moved", data)
    return rows
