"""The one write path: a locked table, an engine transition, stored events, computer replies."""

from __future__ import annotations

import dataclasses
import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, cast

from sqlalchemy.ext.asyncio import AsyncSession

from domino_api import engine
from domino_api.bots import get_strategy
from domino_api.clock import Clock
from domino_api.errors import MatchNotFound
from domino_api.players import records
from domino_api.store import matches_repo
from domino_api.store.models import Match, Seat

OVER = ("finished", "abandoned", "cancelled")
# API.md: a match that waits this long without a start, or that no human seat has been
# connected to for this long, is abandoned by the recovery job.
ABANDON_AFTER = timedelta(hours=24)
# A computer streak is bounded so a rules bug can never spin a transaction forever.
MAX_COMPUTER_MOVES = 2_000


@dataclass
class Table:
    """One match as loaded for an action: the row (locked when writing), seats, engine state."""

    match: Match
    seats: list[Seat]
    state: engine.MatchState
    names: dict[str, str] = field(default_factory=dict)
    tile_backs: dict[str, str] = field(default_factory=dict)
    # Transitions applied to the row in memory but not yet written (see `persist`/`flush`).
    staged: list[dict[str, Any]] = field(default_factory=list)
    dirty: bool = False

    @property
    def over(self) -> bool:
        return self.state.status in OVER

    def is_computer(self, seat: int) -> bool:
        row = self.seats[seat]
        return row.type == "bot" or row.autopilot or row.forfeited

    def humans_in_play(self) -> list[int]:
        return [s.seat for s in self.seats if s.type == "human" and not self.is_computer(s.seat)]

    def seats_of(self, player_id: str) -> list[int]:
        return [s.seat for s in self.seats if s.player_id == player_id]


def new_match_row(
    match_id: str, ruleset: engine.Ruleset, now: datetime, **columns: Any
) -> tuple[Match, engine.MatchState]:
    """A match row before its first deal: a fresh secret, its commitment, the waiting state.

    `columns` are what the creator decides (code, host, solo, tournament, deadlines)."""
    secret = secrets.token_bytes(32)
    state = engine.new_match(ruleset, secret)
    match = Match(
        id=match_id,
        status=state.status,
        ruleset=ruleset.name,
        snapshot=engine.to_json(state),
        seq=0,
        game_seq=0,
        secret=secret,
        commitment=engine.commitment(secret),
        created_at=now,
        updated_at=now,
        **columns,
    )
    return match, state


async def load(session: AsyncSession, match_id: str, *, for_update: bool) -> Table:
    if len(match_id) > 36 or "\x00" in match_id:  # no id is longer, or holds a NUL
        raise MatchNotFound(f"No match {match_id[:40]!r}.")
    getter = matches_repo.lock if for_update else matches_repo.get
    match = await getter(session, match_id)
    if match is None:
        raise MatchNotFound(f"No match {match_id!r}.")
    return await table_of(session, match)


async def table_of(session: AsyncSession, match: Match) -> Table:
    """The table around a match row already read (and locked, when writing)."""
    rows = await matches_repo.seats_with_holders(session, match.id)
    state = cached_state(match)
    if state is None:
        state = engine.from_json(await matches_repo.snapshot_of(session, match))
        remember_state(match, state)
    return assemble(match, rows, state)


def assemble(
    match: Match, rows: Iterable[tuple[Seat, str | None, str | None]], state: engine.MatchState
) -> Table:
    """The table of a match row, its seats with their holders' names and tile backs, a state."""
    rows = list(rows)
    table = Table(match=match, seats=[seat for seat, _, _ in rows], state=state)
    for seat, name, tile_back in rows:
        if seat.player_id and name is not None:
            table.names[seat.player_id] = name
            table.tile_backs[seat.player_id] = tile_back or "moon"
    return table


# Parsed snapshots by match id, keyed by (seq, updated_at): states are immutable, so a parsed
# one is shared until the match moves on. updated_at is in the key because a transaction that
# rolled back may have remembered a state with the seq another process then committed.
_STATES: dict[str, tuple[tuple[int, datetime], engine.MatchState]] = {}


def cached_state(match: Match) -> engine.MatchState | None:
    cached = _STATES.get(match.id)
    if cached is not None and cached[0] == (match.seq, match.updated_at):
        return cached[1]
    return None


def remember_state(match: Match, state: engine.MatchState) -> None:
    if state.status in OVER:
        # An ended match is rarely read again: keeping it would only grow the heap, and a heap
        # that keeps growing brings full garbage collections (tens of ms) into the move path.
        _STATES.pop(match.id, None)
        return
    if len(_STATES) >= 10_000:
        _STATES.clear()
    _STATES[match.id] = ((state.seq, match.updated_at), state)


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
        return table.match.turn_deadline
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


async def persist(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    transition: engine.Transition,
    action: dict[str, Any],
    next_hand_delay_s: float = 30.0,
) -> list[dict[str, Any]]:
    """Stage one transition: status and deadlines on the row, its events on the table.

    Nothing is written here: `flush` writes the snapshot, the events and the NOTIFY once for
    all the transitions of a step (an action and the computer replies). A match that newly
    ends is flushed at once, before the records and tournament hooks run.
    """
    now = clock.now()
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
    newly_over = table.over and match.finished_at is None
    if newly_over:
        match.finished_at = now
        match.turn_deadline = None
        match.next_hand_at = None
    match.due_at = due_at(table)
    table.staged += rows
    table.dirty = True
    if newly_over:
        await flush(session, table)
        await session.flush()  # seats too: the hooks below read and write around them
        await records.on_match_finished(session, table, now)
        # --- tournaments: a tournament match ended; record it and advance (tournaments/hooks)
        if match.tournament_id is not None:
            from domino_api.tournaments import hooks

            await hooks.on_match_over(session, clock, table)
    return rows


async def flush(session: AsyncSession, table: Table) -> None:
    """Write what `persist` staged: the row with its snapshot, the events, a NOTIFY on commit.

    Every caller of `persist` flushes before returning, so the transaction never commits (or
    reads events back) with staged transitions left over.
    """
    if not table.dirty:
        return
    rows, table.staged, table.dirty = table.staged, [], False
    table.match.snapshot = engine.to_json(table.state)
    await matches_repo.write_step(session, table.match, table.state.seq if rows else None, rows)
    # Only a state whose write went through is shared: on the driver path a step that lost
    # the race to another writer raised above, and its state must never stand for the row.
    remember_state(table.match, table.state)


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
            moments.append(match.created_at + ABANDON_AFTER)
        return min(moments) if moments else None
    marks = []
    for seat in table.humans_in_play():
        moment = away_deadline(table, seat)
        if moment is not None:
            moments.append(moment)
        marks.append(seat_present_until(table.seats[seat], match))
    if marks and all(m is not None for m in marks):
        # API.md: no human seat connected for 24 h abandons the match.
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


def seat_present_until(seat: Seat, match: Match) -> datetime | None:
    """The last moment the seat was known to be at the table while the match was in play."""
    marks = [m for m in (seat.last_seen_at, seat.connected_until, match.started_at) if m]
    return max(marks) if marks else None


async def apply(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    seat: int | None,
    action: Any,
    next_hand_delay_s: float = 30.0,
) -> list[dict[str, Any]]:
    """Apply one action, then let computer seats that get the turn reply in the same transaction."""
    transition = engine.apply(table.state, seat, action)
    note = {"seat": seat, "action": engine.action_to_json(action)}
    rows = await persist(session, clock, table, transition, note, next_hand_delay_s)
    rows += await run_computers(session, clock, table, next_hand_delay_s)  # flushes
    return rows


async def record(
    session: AsyncSession,
    clock: Clock,
    table: Table,
    event_type: str,
    data: dict[str, Any],
    private: dict[int, dict[str, Any]] | None = None,
    *,
    write: bool = True,
) -> list[dict[str, Any]]:
    """A service event (chat, presence, seats): bumps seq through the engine, stored alike.

    `write=False` only stages it, for several events written as one step (`flush`)."""
    transition = engine.record(table.state, event_type, data, private)
    rows = await persist(session, clock, table, transition, {"record": event_type})
    if write:
        await flush(session, table)
    return rows


def _computer_rng(table: Table) -> random.Random:
    # Seeded by match and seq so a replayed decision is the same decision.
    return random.Random(f"{table.match.id}:{table.state.seq}")


async def run_computers(
    session: AsyncSession, clock: Clock, table: Table, next_hand_delay_s: float = 30.0
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    note: dict[str, Any]
    for _ in range(MAX_COMPUTER_MOVES):
        state = table.state
        if state.status == "hand_over" and not table.humans_in_play():
            transition = engine.apply(state, None, engine.NextHand())
            note = {"seat": None, "action": engine.action_to_json(engine.NextHand())}
        elif state.status == "playing" and state.turn is not None and table.is_computer(state.turn):
            seat_row = table.seats[state.turn]
            name = seat_row.strategy if seat_row.type == "bot" and seat_row.strategy else "planner"
            view = engine.seat_view(state, state.turn)
            action, reason = get_strategy(name).choose(view, _computer_rng(table))
            if hasattr(action, "reason") and reason:
                action = dataclasses.replace(cast(Any, action), reason=reason)
            transition = engine.apply(state, state.turn, action)
            note = {"seat": state.turn, "action": engine.action_to_json(action)}
        else:
            break
        rows += await persist(session, clock, table, transition, note, next_hand_delay_s)
    await flush(session, table)
    return rows


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
