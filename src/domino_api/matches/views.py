"""The per-seat view and event copies: every byte a client gets passes through here."""

from __future__ import annotations

from datetime import datetime

from msgspec.structs import replace

from domino_api import engine
from domino_api.engine.clock_text import iso
from domino_api.engine.event_types import AnyEvent, MessageEvent
from domino_api.engine.events import Event
from domino_api.engine.rulesets import Ruleset
from domino_api.engine.table import Staged, Table, away_deadline, seat_present_until, shown_name
from domino_api.engine.view import SeatCount
from domino_api.engine.view_types import SeatOut, ViewOut, YouOut
from domino_api.players.tile_backs import DEFAULT_TILE_BACK
from domino_api.store.models import MatchEvent


def is_connected(table: Table, seat: int) -> bool:
    """The seat's presence as its events say (`seat_connected`, `seat_disconnected`): a view
    never contradicts the stream a client keeps it up to date with (matches/presence.py)."""
    row = table.seats[seat]
    return row.type == "bot" or bool(row.connected)


def _seat_out(table: Table, count: SeatCount, now: datetime) -> SeatOut:
    row = table.seats[count.seat]
    connected = is_connected(table, row.seat)
    away_since = None
    if row.type == "human" and not connected and table.state.status in ("playing", "hand_over"):
        # The moment its lease ran out (recorded with `seat_disconnected`), not its last sighting.
        away_since = iso(row.away_since or seat_present_until(row, table))
    return SeatOut(
        seat=count.seat,
        name=shown_name(table, row),
        type=row.type,
        strategy=row.strategy,
        connected=connected,
        away_since=away_since,
        # When this seat forfeits if it is not seen again (None: the away rule does not apply).
        away_deadline=iso(away_deadline(table, row.seat)) if row.type == "human" else None,
        autopilot=row.autopilot,
        forfeited=row.forfeited or count.forfeited,
        ready=row.ready,
        score=count.score,
        hands_won=count.hands_won,
        tiles=count.tiles,
        tile_back=table.tile_backs.get(row.player_id or "", DEFAULT_TILE_BACK),
    )


def build_view(table: Table, seat: int | None, my_seats: list[int], now: datetime) -> ViewOut:
    """The caller's view: the engine's projection for `seat` plus the table's public facts."""
    core = engine.view(table.state, seat)
    match = table.match
    turn = core.turn
    if turn is not None:
        turn = replace(turn, deadline=iso(match.turn_deadline))
    return ViewOut(
        id=match.id,
        # The number joins the table: a spectator (no seat) never sees it (docs/API.md).
        code=match.code if my_seats else None,
        status=core.status,
        ruleset=_shown_ruleset(table, core.ruleset),
        seq=core.seq,
        now=iso(now),
        hand_number=core.hand_number,
        commitment=match.commitment,
        host_seat=0 if match.host_player_id else None,
        tournament=match.tournament_id,
        check_in_deadline=iso(match.check_in_deadline),
        next_hand_at=iso(match.next_hand_at),
        seats=tuple(_seat_out(table, count, now) for count in core.seats),
        you=None
        if seat is None
        else YouOut(seat=seat, seats=tuple(my_seats), hand=core.you_hand or ()),
        board=core.board,
        stock=core.stock,
        stock_back=DEFAULT_TILE_BACK,  # the house mark always backs the boneyard
        turn=turn,
        legal=core.legal if seat is not None else (),
        last_hand=core.last_hand,
        result=core.result,
        teams=core.teams,
        rematch_match_id=match.rematch_match_id,
        claims_locked=match.claims_locked,
        talk_off=match.talk_off,
        talk_etiquette=match.talk_etiquette,
        per_move_s=match.per_move_s,
    )


def _shown_ruleset(table: Table, ruleset: Ruleset) -> Ruleset:
    # A solo match runs no clock (docs/API.md): its ruleset shows none.
    # A correspondence table runs its time per move instead (`per_move_s`), and no away rule.
    if table.match.solo or table.match.per_move_s is not None:
        return replace(ruleset, turn_clock=None, away_forfeit_s=None)
    return ruleset


def event_for(row: Staged | MatchEvent, seat: int | None) -> AnyEvent:
    """One event as `seat` may see it: public data plus that seat's private part only. `row`
    is one a step just made (`Staged`, stamped) or a stored row."""
    if isinstance(row, Staged):
        return row.for_seat(seat)
    stored = Event.stored(row.seq, row.type, iso(row.at), row.data, row.private or {})
    return stored.for_seat(seat)


def mark_muted(events: list[AnyEvent], muted: list[int]) -> list[AnyEvent]:
    """The events with each muted seat's message marked `data.muted` (matches/civil.py)."""
    return [
        replace(e, data=replace(e.data, muted=True))
        if isinstance(e, MessageEvent) and e.data.seat in muted
        else e
        for e in events
    ]
