"""The invariants a table keeps after every step (test_table_properties.py drives random tables
through them): what a seat, the clocks and the events may and may not show."""

from __future__ import annotations

from datetime import datetime, timedelta
from itertools import pairwise

import msgspec

from domino_api.engine import table as tables
from domino_api.engine.table import (
    Command,
    Staged,
    Stepped,
    Table,
    Tick,
)


def moments_to_check(table: Table, now: datetime) -> list[datetime]:
    """Every moment at which something may fall due, just before and after it, and later."""
    match = table.match
    marks: list[datetime | None] = [
        now,
        match.turn_deadline,
        match.next_hand_at,
        match.check_in_deadline,
        match.due_at,
        match.created_at + tables.WAITING_EXPIRES,
        match.outage_grace_until,
    ]
    for row in table.seats:
        marks.append(tables.away_deadline(table, row.seat))
        present = tables.seat_present_until(row, table)
        marks.append(present and present + tables.abandon_after(table))
        marks.append(row.connected_until)
    tiny = timedelta(microseconds=1)
    found = [m for m in marks if m is not None]
    around = [m + d for m in found for d in (-tiny, timedelta(0), tiny)]
    return sorted(set(around)) + [now + timedelta(days=400)]


def check_table(table: Table, now: datetime) -> None:
    match = table.match
    # due_at may be early, never late: whenever something is due, due_at has come.
    for moment in moments_to_check(table, now):
        due = tables.next_due(table, moment)
        if due is not None:
            assert match.due_at is not None, (due, moment)
            assert match.due_at <= moment, (due, moment, match.due_at)
    if table.over:
        assert match.finished_at is not None
        assert match.turn_deadline is None
        assert match.next_hand_at is None
        assert match.due_at is None
    if not tables.needs_number(table):
        assert match.code is None
    if table.state.status in ("playing", "hand_over"):
        assert match.started_at is not None
    clock = table.state.ruleset.turn_clock
    turn = table.state.turn
    if (
        clock is not None
        and not match.solo
        and table.state.status == "playing"
        and turn is not None
        and not table.is_computer(turn)
    ):
        assert match.turn_deadline is not None
    else:
        assert match.turn_deadline is None


def check_step(before: Table, out: Stepped, now: datetime, command: Command) -> None:
    after = out.table
    first = before.state.seq + 1
    assert [e.seq for e in out.events] == list(range(first, first + len(out.events)))
    assert after.state.seq == before.state.seq + len(out.events)
    for event in out.events:
        msgspec.json.encode(event.data)  # stored as JSON
        assert isinstance(event, Staged)
    if out.events:
        assert out.events[0].action is not None  # what replays the first transition
    if before.match.code is None:
        assert after.match.code is None  # a freed number never comes back
    # A seat's `connected` flag changes only with its event, so a view never contradicts the
    # stream (a lapse on a table already over is not announced).
    # A step may record both (a claim by name: the old holder's lapse, then the joiner).
    kinds = ("seat_connected", "seat_disconnected")
    for row, was in zip(after.seats, before.seats, strict=True):
        told = [e.type for e in out.events if e.type in kinds and e.data.seat == row.seat]
        flags = [was.connected] + [kind == "seat_connected" for kind in told]
        assert all(a != b for a, b in pairwise(flags))  # each a change
        if not before.over or told:
            assert flags[-1] == row.connected
    # The chooser answered every computer that had to move.
    assert not tables.computers_due(after)
    if isinstance(command, Tick):
        assert after.over or tables.next_due(after, now) is None  # everything due was done
        # ... and the sweep's index points past now, or the sweep would find it due again.
        assert after.match.due_at is None or after.match.due_at > now
    check_table(after, now)
