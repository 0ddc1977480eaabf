"""A match as the write core holds it for one step: its row, seats and engine state, and what
the step staged (events, an end). Everything here is computed in memory; matches/unit.py reads
the table and saves what a step staged."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from domino_api import engine
from domino_api.matches.access import seat_name
from domino_api.store.rows import Row

OVER = ("finished", "abandoned", "cancelled")
# docs/API.md: a match that waits this long without a start, or that no human seat has been
# connected to for this long, is abandoned by the recovery job.
ABANDON_AFTER = timedelta(hours=24)
# A waiting table nobody starts gives its game number back this soon (issue 16: one account
# held every number with tables that waited 24 h).
WAITING_EXPIRES = timedelta(minutes=30)
# A computer streak is bounded so a rules bug can never spin a step forever.
MAX_COMPUTER_MOVES = 2_000
NEXT_HAND_DELAY_S = 30.0


@dataclass
class Table:
    """One match as read for a step: the row, seats, engine state and what the step staged."""

    match: Row
    seats: list[Row]
    state: engine.MatchState
    names: dict[str, str] = field(default_factory=dict)
    tile_backs: dict[str, str] = field(default_factory=dict)
    # Event rows of the transitions applied in memory, for the step's one save.
    staged: list[dict[str, Any]] = field(default_factory=list)
    # The step ended the match: its save also writes the finishes and runs the end hooks.
    ended: bool = False
    # New matches to insert in the step's transaction (a rematch): (row, seats, events).
    created: list[tuple[Row, list[Row], list[dict[str, Any]]]] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.state.status in OVER

    def strategy_of(self, seat: int) -> str:
        """The strategy that plays `seat` for now (a human's seat on autopilot: the Planner)."""
        row = self.seats[seat]
        return str(row.strategy) if row.type == "bot" and row.strategy else "planner"

    def is_computer(self, seat: int) -> bool:
        row = self.seats[seat]
        return bool(row.type == "bot" or row.autopilot or row.forfeited)

    def humans_in_play(self) -> list[int]:
        return [s.seat for s in self.seats if s.type == "human" and not self.is_computer(s.seat)]

    def seats_of(self, player_id: str) -> list[int]:
        return [s.seat for s in self.seats if s.player_id == player_id]

    def seats_changed(self) -> bool:
        return any(seat.changes() for seat in self.seats)


def new_table(
    match_id: str,
    ruleset: engine.Ruleset,
    now: datetime,
    seats: list[dict[str, Any]],
    holders: dict[str, tuple[str, str]],
    **columns: Any,
) -> Table:
    """A match before its first deal (a fresh secret, its commitment, the waiting state) with
    its seats; `columns` are what the creator decides (code, host, solo, tournament, ...).
    Its seats' `seat_joined` events are staged; matches/creation.py inserts it."""
    secret = secrets.token_bytes(32)
    state = engine.new_match(ruleset, secret)
    match = Row(
        {
            "id": match_id,
            "status": state.status,
            "ruleset": ruleset.name,
            "snapshot": None,
            "seq": 0,
            "game_seq": 0,
            "secret": secret,
            "commitment": engine.commitment(secret),
            "cut": None,
            "solo": False,
            "spectators": False,
            "code": None,
            "host_player_id": None,
            "tournament_id": None,
            "turn_deadline": None,
            "next_hand_at": None,
            "check_in_deadline": None,
            "due_at": None,
            "outage_grace_until": None,
            "rematch_match_id": None,
            "claims_locked": False,
            "started_at": None,
            "created_at": now,
            "updated_at": now,
            "finished_at": None,
            **columns,
        },
        new=True,
    )
    defaults = {"strategy": None, "player_id": None, "autopilot": False, "forfeited": False}
    defaults |= {"ready": False, "rematch": False, "connected": False, "connected_until": None}
    defaults |= {"away_since": None, "name": None}
    rows = [
        Row(
            {
                **defaults,
                "last_seen_at": now if spec.get("player_id") else None,
                **spec,
                "match_id": match_id,
                "seat": number,
            },
            new=True,
        )
        for number, spec in enumerate(seats)
    ]
    table = Table(match=match, seats=rows, state=state)
    table.names = {pid: name for pid, (name, _) in holders.items()}
    table.tile_backs = {pid: back for pid, (_, back) in holders.items()}
    for row in rows:
        if row.player_id or row.type == "bot":
            record(table, now, "seat_joined", joined_data(table, row))
    table.match.snapshot = engine.to_json(table.state)
    return table


def joined_data(table: Table, row: Row) -> dict[str, Any]:
    name = seat_name(table, row) if row.type == "human" else None
    if row.type == "bot":
        name = {"plain": "Plain", "planner": "Planner"}.get(row.strategy or "", "Computer")
    return {"seat": row.seat, "name": name, "type": row.type, "strategy": row.strategy}


def assemble(match: Row, rows: Iterable[tuple[Row, str | None, str | None]], state: Any) -> Table:
    """The table of a match row, its seats with their holders' names and tile backs, a state."""
    rows = list(rows)
    table = Table(match=match, seats=[seat for seat, _, _ in rows], state=state)
    for seat, name, tile_back in rows:
        if seat.player_id and name is not None:
            table.names[seat.player_id] = name
            table.tile_backs[seat.player_id] = tile_back or "moon"
    return table


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat().replace("+00:00", "Z") if moment else None


def _turn_deadline(table: Table, before: engine.MatchState, now: datetime) -> datetime | None:
    """RULES 10: a turn starts at a deal or when the turn passes to another seat."""
    state, clock = table.state, table.state.ruleset.turn_clock
    if clock is None or table.match.solo or state.status != "playing" or state.turn is None:
        return None
    if table.is_computer(state.turn):
        return None
    same_turn = (
        before.status == "playing"
        and before.turn == state.turn
        and before.hand_number == state.hand_number
    )
    if same_turn and table.match.turn_deadline is not None:
        kept: datetime = table.match.turn_deadline
        return kept
    return now + timedelta(seconds=clock.allowance_s + clock.grace_s)


def _next_hand_at(table: Table, now: datetime, delay_s: float) -> datetime | None:
    if table.state.status != "hand_over" or table.state.ruleset.turn_clock is None:
        return None
    if table.match.solo:
        return None
    return table.match.next_hand_at or now + timedelta(seconds=delay_s)


def _event_row(table: Table, event: engine.Event, now: datetime) -> dict[str, Any]:
    stored = event.to_json()  # plain JSON: legal actions as objects, tuples as lists
    data = stored["data"]
    if event.type == "turn" and data.get("seat") == table.state.turn:
        data["deadline"] = _iso(table.match.turn_deadline)
    return {
        "match_id": table.match.id,
        "seq": event.seq,
        "type": event.type,
        "at": now,
        "data": data,
        "private": stored["private"],
        "action": None,
    }


def persist(
    table: Table,
    now: datetime,
    transition: engine.Transition,
    action: dict[str, Any],
    next_hand_delay_s: float = NEXT_HAND_DELAY_S,
) -> list[dict[str, Any]]:
    """Stage one transition: status and deadlines on the row, its events for the save.

    A match that newly ends is marked `ended`: its save writes the finishes and runs the end
    hooks (matches/ends.py) in the same transaction.
    """
    before = table.state
    table.state = transition.state
    match = table.match
    match.turn_deadline = _turn_deadline(table, before, now)
    match.next_hand_at = _next_hand_at(table, now, next_hand_delay_s)
    if before.status == "waiting" and table.state.status == "playing":
        match.started_at = now
    rows = [_event_row(table, event, now) for event in transition.events]
    if rows:
        rows[0]["action"] = action
    match.seq = table.state.seq
    match.game_seq = table.state.game_seq
    match.status = table.state.status
    match.updated_at = now
    if table.over and match.finished_at is None:
        match.finished_at = now
        match.turn_deadline = None
        match.next_hand_at = None
        table.ended = True
    match.due_at = due_at(table)
    table.staged += rows
    return rows


def due_at(table: Table) -> datetime | None:
    """The earliest moment something must happen to this match (the sweeper's index).

    It may be early, never late: `timeouts.enforce` recomputes it on every due visit.
    """
    match, state = table.match, table.state
    if table.over:
        return None
    moments = [m for m in (match.turn_deadline, match.next_hand_at, match.check_in_deadline) if m]
    if state.status == "waiting":
        if match.tournament_id is None:
            moments.append(match.created_at + WAITING_EXPIRES)
        return min(moments) if moments else None
    marks = []
    for seat in table.humans_in_play():
        moment = away_deadline(table, seat)
        if moment is not None:
            moments.append(moment)
        marks.append(seat_present_until(table.seats[seat], match))
    if marks and all(m is not None for m in marks):
        # docs/API.md: no human seat connected for 24 h abandons the match.
        moments.append(max(m for m in marks if m is not None) + ABANDON_AFTER)
    return min(moments) if moments else None


def away_deadline(table: Table, seat: int) -> datetime | None:
    """RULES 10: when a human seat that stays away from now on forfeits (None: it never does)."""
    limit = table.state.ruleset.away_forfeit_s
    match = table.match
    if not limit or match.solo or table.state.status not in ("playing", "hand_over"):
        return None
    if table.is_computer(seat):
        return None
    present = seat_present_until(table.seats[seat], match)
    if present is None:
        return None
    deadline = present + timedelta(seconds=limit)
    if match.outage_grace_until is not None and match.outage_grace_until > deadline:
        deadline = match.outage_grace_until  # the service was down: RULES 10 and jobs/liveness
    return deadline


def seat_present_until(seat: Row, match: Row) -> datetime | None:
    """The last moment the seat was known to be at the table while the match was in play."""
    marks = [m for m in (seat.last_seen_at, seat.connected_until, match.started_at) if m]
    return max(marks) if marks else None


def apply(
    table: Table,
    now: datetime,
    seat: int | None,
    action: Any,
    next_hand_delay_s: float = NEXT_HAND_DELAY_S,
) -> list[dict[str, Any]]:
    """Apply one action and stage it. Computer seats that get the turn reply once the step is
    done (matches/computers.py, called by the write core), off the event loop."""
    transition = engine.apply(table.state, seat, action)
    note = {"seat": seat, "action": engine.action_to_json(action)}
    return persist(table, now, transition, note, next_hand_delay_s)


def record(
    table: Table,
    now: datetime,
    event_type: str,
    data: dict[str, Any],
    private: dict[int, dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """A service event (chat, presence, seats): bumps seq through the engine, stored alike."""
    transition = engine.record(table.state, event_type, data, private)
    return persist(table, now, transition, {"record": event_type})


def computer_seed(table: Table) -> str:
    # By match and seq, so a replayed decision (a retried unit) is the same decision.
    return f"{table.match.id}:{table.state.seq}"


def computer_turn(table: Table) -> int | None:
    """The computer seat that must decide now, if any."""
    state = table.state
    if state.status == "playing" and state.turn is not None and table.is_computer(state.turn):
        return state.turn
    return None


def computers_due(table: Table) -> bool:
    """Whether a computer must act before a human can: a decision, or the next hand of a table
    where no human is in play."""
    state = table.state
    between_hands = state.status == "hand_over" and not table.humans_in_play()
    return between_hands or computer_turn(table) is not None


def next_hand_for_computers(
    table: Table, now: datetime, next_hand_delay_s: float = NEXT_HAND_DELAY_S
) -> list[dict[str, Any]]:
    """A hand is over and no human is in play: nobody is there to ask, so the next one starts."""
    if table.state.status != "hand_over" or table.humans_in_play():
        return []
    return apply(table, now, None, engine.NextHand(), next_hand_delay_s)


def computer_move(
    table: Table,
    now: datetime,
    seat: int,
    action: engine.Action,
    reason: str,
    next_hand_delay_s: float = NEXT_HAND_DELAY_S,
) -> list[dict[str, Any]]:
    """Stage the move a computer seat chose, with its reason for the ledger."""
    return apply(table, now, seat, engine.with_reason(action, reason or None), next_hand_delay_s)


def replay(rows: list[Any], initial: engine.MatchState) -> engine.MatchState:
    """Fold stored events back into a state: the snapshot must equal this (a tested property)."""
    state = initial
    for row in rows:
        note = row.action
        if note is None:
            continue
        if "record" in note:
            private = {int(k): v for k, v in (row.private or {}).items()}
            state = engine.record(state, row.type, row.data, private or None).state
        else:
            action = engine.action_from_json(note["action"])
            state = engine.apply(state, note["seat"], action).state
    return state
