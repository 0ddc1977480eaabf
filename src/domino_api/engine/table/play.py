"""The table's game steps: the start, moves, next hands, resignations, forfeits, check-in and
everything due (RULES 9 and 10)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from domino_api.engine import actions
from domino_api.engine.clock_text import iso
from domino_api.engine.errors import (
    MatchInProgress,
    MatchNotStarted,
    MatchOver,
    NotHost,
    SeatForfeited,
    SeatsEmpty,
    StaleSeq,
)
from domino_api.engine.event_types import DeadlineMovedData, DeadlineMovedEvent
from domino_api.engine.kinds import ForfeitCause
from domino_api.engine.rules import is_stale
from domino_api.engine.table import clocks, commands
from domino_api.engine.table.clocks import Due
from domino_api.engine.table.model import Stepped, Table, with_info, with_seat
from domino_api.engine.table.seats import joined, pick_seat
from domino_api.engine.table.transitions import Steps, act, record

# A few steps can fall due at once (a next hand, then ...); bounded so a bug cannot spin.
MAX_DUE_STEPS = 20


def require_host(table: Table, player_id: str) -> None:
    if table.match.host_player_id != player_id:
        raise NotHost("Only the host may do this.")


def start(table: Table, command: commands.Start, now: datetime) -> Stepped:
    """The host starts: empty seats to the computer if asked, then the deal."""
    require_host(table, command.by)
    if table.state.status != "waiting":
        raise MatchInProgress("The match has already started.")
    empty = [s.seat for s in table.seats if s.type == "human" and s.player_id is None]
    if empty and not command.fill_with_bots:
        raise SeatsEmpty(f"Seats {empty} are empty; or fill_with_bots.")
    steps = Steps(table)
    for number in empty:
        filled = steps.change(with_seat(steps.table, number, type="bot", strategy="planner"))
        steps.add(record(filled, now, joined(filled, filled.seats[number])))
    host = table.match.host_player_id
    solo = not any(s.type == "human" and s.player_id != host for s in steps.table.seats)
    steps.change(with_info(steps.table, solo=solo, cut=command.cut))
    steps.add(act(steps.table, now, None, actions.Start(command.cut)))
    return steps.result()


def move(table: Table, command: commands.Move, now: datetime) -> Stepped:
    seat = pick_seat(table, command.by, command.seat, prefer_turn=True)
    if table.over:
        raise MatchOver("The match is over.")
    if table.state.status == "waiting":  # before the seq: no seq is current before the deal
        raise MatchNotStarted("The match has not started; the host starts it.")
    if table.seats[seat].forfeited:
        raise SeatForfeited(f"Seat {seat} has forfeited; the computer plays it for good.")
    if is_stale(table.state, command.seq):
        seq = table.state.seq
        raise StaleSeq(f"seq {command.seq} is stale; the match is at {seq}.", seq=seq)
    if not table.seats[seat].moved:  # a rated match needs each holder's own move (ratings/)
        table = with_seat(table, seat, moved=True)
    return act(table, now, seat, command.action)


def next_hand(table: Table, command: commands.NextHand, now: datetime) -> Stepped:
    """The next hand (nothing once it has started)."""
    pick_seat(table, command.by, command.seat)
    if table.state.status == "hand_over":
        return act(table, now, None, actions.NextHand())
    if table.state.status == "waiting":
        raise MatchNotStarted("The match has not started.")
    if table.over:
        raise MatchOver("The match is over.")
    return Stepped(table)


def resign(table: Table, command: commands.Resign, now: datetime) -> Stepped:
    seat = pick_seat(table, command.by, command.seat)
    if table.over:
        raise MatchOver("The match is over.")
    return forfeit(table, now, seat, "resign", command.cut)


def computer_move(table: Table, command: commands.ComputerMove, now: datetime) -> Stepped:
    action = actions.with_reason(command.action, command.reason or None)
    return act(table, now, command.seat, action)


def forfeit(table: Table, now: datetime, seat: int, cause: ForfeitCause, cut: str = "") -> Stepped:
    """RULES 9: two seats -> the other wins; more -> the computer takes the seat for good. At a
    tournament's four-seat table that holds during check-in too (the partner plays on with a
    computer partner), and the match starts once every seat left is ready (`cut` the server's)."""
    waiting = table.state.status == "waiting"
    if waiting and table.match.tournament_id is None:
        return abandon(table, now, "abandoned")
    if waiting and len(table.seats) == 2:
        # Leaving a tournament match during check-in is a forfeit loss, not a no-show.
        return forfeit_before_start(table, now, seat)
    if table.seats[seat].forfeited:
        raise SeatForfeited(f"Seat {seat} has already forfeited.")
    table = with_seat(table, seat, forfeited=True)
    if len(table.seats) > 2 and not table.humans_in_play():
        # The last human seat leaving abandons the match: no winner, no records. (A tournament
        # reads who left last from this seat: forfeited at the table, not in the engine's state.)
        return abandon(table, now, "abandoned")
    stepped = act(table, now, None, actions.Forfeit(seat, cause))
    if waiting:
        return stepped.then(start_if_checked_in(stepped.table, now, cut))
    return stepped


def forfeit_before_start(table: Table, now: datetime, seat: int) -> Stepped:
    """Check-in closed with one seat ready: the absent seat forfeits before any deal, so the
    match has an ordinary result and the ready player advances (seed 004). Nothing is dealt:
    a hand that never started has no `hand_ended` and reveals no tiles."""
    table = with_seat(table, seat, forfeited=True)
    return act(table, now, None, actions.Forfeit(seat, "check_in"))


def abandon(table: Table, now: datetime, reason: actions.AbandonReason) -> Stepped:
    if table.over:
        return Stepped(table)
    return act(table, now, None, actions.Abandon(reason))


def check_in_expired(table: Table, now: datetime, cut: str) -> Stepped:
    """Seed 004: one ready player advances by forfeit; none ready cancels the match (and its
    tournament, through the tournament's end hook). At four seats (a tournament of pairs) every
    seat not ready goes to the computer, as a resigning one would, and the match starts."""
    ready = [row.seat for row in table.seats if row.ready]
    table = with_info(table, check_in_deadline=None)
    if not ready:
        return abandon(table, now, "cancelled")
    if len(table.seats) == 2:
        return forfeit_before_start(table, now, 1 - ready[0])
    steps = Steps(table)
    for row in table.seats:
        if not row.ready and not row.forfeited:
            steps.add(forfeit_before_start(steps.table, now, row.seat))
    steps.add(start_if_checked_in(steps.table, now, cut))
    return steps.result()


def start_if_checked_in(table: Table, now: datetime, cut: str) -> Stepped:
    """A tournament match starts by itself (the server's cut) once every seat is ready or,
    at four seats, handed to the computer."""
    if table.match.tournament_id is None or table.state.status != "waiting":
        return Stepped(table)
    if not all(row.ready or row.forfeited for row in table.seats):
        return Stepped(table)
    table = with_info(table, cut=cut, check_in_deadline=None)
    return act(table, now, None, actions.Start(cut))


# ---------------------------------------------------------------- what is due


def tick(table: Table, command: commands.Tick, now: datetime) -> Stepped:
    """Apply every due timeout; then store the recomputed due moment, so the sweep skips this
    match until then (it may have been early: presence moves on without updating it)."""
    if table.over or not clocks.is_due(table, now):
        return Stepped(table)
    steps = Steps(table)
    for _ in range(MAX_DUE_STEPS):
        due = clocks.next_due(steps.table, now)
        if due is None:
            break
        steps.add(_carry_out(steps.table, now, due, command))
        if steps.table.over:
            break
    steps.change(with_info(steps.table, due_at=clocks.due_at(steps.table)))
    return steps.result()


def _carry_out(table: Table, now: datetime, due: Due, command: commands.Tick) -> Stepped:
    if due.kind in clocks.FORGIVABLE:
        moved = _forgive_outage(table, now, due, command.outages)
        if moved is not None:
            return moved
    if due.kind == "check_in":
        return check_in_expired(table, now, command.cut)
    if due.kind in ("abandon_waiting", "abandon_absent", "away_tie"):
        return abandon(table, now, "abandoned")
    if due.kind == "clock" or due.kind == "away":
        assert due.seat is not None
        return forfeit(table, now, due.seat, due.kind)
    if due.kind == "next_hand":
        return act(table, now, None, actions.NextHand())
    raise AssertionError(f"unknown due kind {due.kind!r}")


def _forgive_outage(
    table: Table, now: datetime, due: Due, outages: clocks.Outages
) -> Stepped | None:
    """Move a deadline that passed while no process was alive, with a `deadline_moved` event
    per seat whose deadline moved (the `turn` event still says the old one); None: not moved."""
    extended = clocks.outage_extension(table, due, outages)
    if extended is None or extended <= due.moment:
        return None
    if due.kind == "clock":
        assert due.seat is not None
        table = with_info(table, turn_deadline=extended)
        moved = {due.seat: extended}
    else:
        before = {seat: clocks.away_deadline(table, seat) for seat in table.humans_in_play()}
        table = with_info(table, outage_grace_until=extended)
        after = {seat: clocks.away_deadline(table, seat) for seat in before}
        moved = {seat: at for seat, at in after.items() if at is not None and at != before[seat]}
    steps = Steps(with_info(table, due_at=clocks.due_at(table)))
    kind: Literal["turn", "away"] = "turn" if due.kind == "clock" else "away"
    for seat, at in sorted(moved.items()):
        data = DeadlineMovedData(seat=seat, clock=kind, deadline=iso(at) or "")
        steps.add(record(steps.table, now, DeadlineMovedEvent(seq=0, data=data)))
    return steps.result()
