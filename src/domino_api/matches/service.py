"""Match operations: each is one step through the write core (matches/unit.py).

Every operation here is a pure step on a table in memory (`*_step`), run by `Core.run`, which
reads the match, applies what is due first, marks the caller present, runs the step and saves
it guarded by the row version. Creation and seats are in matches/creation.py.
"""

from __future__ import annotations

import secrets
from functools import partial
from typing import Any

from domino_api import engine
from domino_api.errors import (
    LedgerSealedError,
    MatchInProgressError,
    NotHost,
    NotSeated,
    NotYourSeat,
    SeatForfeited,
    SeatInUse,
    SeatNotFound,
    SeatsEmpty,
    SeatUnavailable,
    StaleSeq,
    ValidationFailed,
)
from domino_api.matches import access, claims, forfeits
from domino_api.matches.schemas import MoveBody
from domino_api.matches.table import OVER, Table, apply, joined_data, record
from domino_api.matches.unit import Core, Later
from domino_api.matches.views import build_view, event_for
from domino_api.store import match_reads
from domino_api.store.db import transaction
from domino_api.store.models import Player


def pick_seat(table: Table, player: Player, seat: int | None, prefer_turn: bool = False) -> int:
    """Which of the caller's seats acts: the named one, else the one on turn, else the lowest."""
    mine = table.seats_of(player.id)
    if not mine:
        raise NotSeated("You hold no seat at this match.")
    if seat is not None:
        if seat not in mine:
            raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
        return seat
    if prefer_turn and table.state.turn in mine:
        return int(table.state.turn)
    return mine[0]


def view_for(table: Table, player: Player, core: Core, seat: int | None = None) -> dict[str, Any]:
    mine = table.seats_of(player.id)
    if seat is not None and seat not in mine:
        raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
    return build_view(table, viewer_seat(table, mine, seat), mine, core.clock.now())


def view_later(player: Player, core: Core, seat: int | None = None) -> Later[dict[str, Any]]:
    """The caller's view once the computers the step woke have replied."""
    return Later(lambda table: view_for(table, player, core, seat))


def viewer_seat(table: Table, mine: list[int], seat: int | None) -> int | None:
    """The seat whose private data the caller sees, in the view, the events and on a socket:
    never one it has forfeited or resigned while the match runs (the computer plays it now;
    matches/claims.py)."""
    visible = claims.viewable_seats(table, mine)
    if seat is not None:
        return seat if seat in visible else None
    return visible[0] if visible else None


def _require_host(table: Table, player: Player) -> None:
    if table.match.host_player_id != player.id:
        raise NotHost("Only the host may do this.")


# ---------------------------------------------------------------- the game


async def start(
    core: Core, player: Player, match_id: str, cut: str | None, fill_with_bots: bool
) -> dict[str, Any]:
    def step(table: Table) -> Later[dict[str, Any]]:
        """The host starts: empty seats to the computer if asked, then the deal."""
        _require_host(table, player)
        if table.state.status != "waiting":
            raise MatchInProgressError("The match has already started.")
        empty = [s for s in table.seats if s.type == "human" and s.player_id is None]
        if empty and not fill_with_bots:
            raise SeatsEmpty(f"Seats {[s.seat for s in empty]} are empty; or fill_with_bots.")
        now = core.clock.now()
        for row in empty:
            row.type, row.strategy = "bot", "planner"
            record(table, now, "seat_joined", joined_data(table, row))
        table.match.solo = not any(
            s.type == "human" and s.player_id != table.match.host_player_id for s in table.seats
        )
        chosen_cut = cut if cut is not None else secrets.token_hex(8)
        table.match.cut = chosen_cut
        apply(table, now, None, engine.Start(chosen_cut))
        return view_later(player, core)

    return await core.run(match_id, step, player_id=player.id, action="start")


def _move_action(body: MoveBody) -> Any:
    if body.action == "play":
        if body.tile is None:
            raise ValidationFailed("tile: a play names its tile, e.g. [3, 5].")
        return engine.Play(engine.canonical(body.tile), body.end)
    if body.tile is not None or body.end is not None:
        raise ValidationFailed(f"A {body.action} takes no tile or end.")
    return engine.Draw() if body.action == "draw" else engine.Pass()


def move_step(table: Table, core: Core, player: Player, body: MoveBody) -> Later[dict[str, Any]]:
    """A move: the caller's seat acts, the computers reply; the answer with its events."""
    seat = pick_seat(table, player, body.seat, prefer_turn=True)
    action = _move_action(body)
    if table.over:
        raise engine.MatchOver("The match is over.")
    if table.state.status == "waiting":  # before the seq: no seq is current before the deal
        raise engine.MatchNotStarted("The match has not started; the host starts it.")
    if engine.is_stale(table.state, body.seq):
        raise StaleSeq(
            f"seq {body.seq} is stale; the match is at {table.state.seq}.", seq=table.state.seq
        )
    apply(table, core.clock.now(), seat, action)

    def answer(table: Table) -> dict[str, Any]:
        # What the step staged: the move and the computers' replies to it.
        events = [event_for(row, seat) for row in table.staged]
        return {"view": view_for(table, player, core, seat), "events": events}

    return Later(answer)


async def move(
    core: Core, player: Player, match_id: str, body: MoveBody, key: str | None = None
) -> dict[str, Any]:
    step = partial(move_step, core=core, player=player, body=body)
    return await core.run(match_id, step, player_id=player.id, action="move", key=key)


async def next_hand(core: Core, player: Player, match_id: str, seat: int | None) -> dict[str, Any]:
    def step(table: Table) -> Later[dict[str, Any]]:
        """The next hand (nothing once it has started); the caller's view."""
        chosen = pick_seat(table, player, seat)
        if table.state.status == "hand_over":
            apply(table, core.clock.now(), None, engine.NextHand())
        elif table.state.status == "waiting":
            raise engine.MatchNotStarted("The match has not started.")
        elif table.over:
            raise engine.MatchOver("The match is over.")
        return view_later(player, core, chosen)

    return await core.run(match_id, step, player_id=player.id, action="next_hand")


async def set_autopilot(
    core: Core, player: Player, match_id: str, seat: int, on: bool
) -> dict[str, Any]:
    def step(table: Table) -> Later[dict[str, Any]]:
        if not 0 <= seat < len(table.seats):
            raise SeatNotFound(f"The match has no seat {seat}.")
        row = table.seats[seat]
        is_host = table.match.host_player_id == player.id
        if on and not is_host:
            raise NotHost("Only the host may hand a seat to the computer.")
        if not on and not is_host and row.player_id != player.id:
            raise NotYourSeat("Only the seat's holder or the host may take it back.")
        if row.type != "human":
            raise SeatUnavailable(f"Seat {seat} is a computer seat.")
        if table.over:
            raise engine.MatchOver("The match is over.")
        if not on and row.forfeited:
            raise SeatForfeited(f"Seat {seat} has forfeited; it stays with the computer.")
        now = core.clock.now()
        if on and not claims.autopilot_allowed(table, row, player.id, now, core.lease_s):
            raise SeatInUse("The seat's holder is connected; autopilot waits until they leave.")
        if row.autopilot != on:
            row.autopilot = on
            record(table, now, "autopilot_on" if on else "autopilot_off", {"seat": seat})
        return view_later(player, core)

    return await core.run(match_id, step, player_id=player.id)


async def message(
    core: Core, player: Player, match_id: str, text: str, seat: int | None
) -> dict[str, Any]:
    def step(table: Table) -> dict[str, Any]:
        chosen = pick_seat(table, player, seat)
        # The name the seat goes by at this table (a join's or hot-seat name), not the profile's.
        data = {"seat": chosen, "name": access.seat_name(table, table.seats[chosen]), "text": text}
        return event_for(record(table, core.clock.now(), "message", data)[0], chosen)

    return await core.run(match_id, step, player_id=player.id)


async def resign(core: Core, player: Player, match_id: str, seat: int | None) -> dict[str, Any]:
    def step(table: Table) -> Later[dict[str, Any]]:
        chosen = pick_seat(table, player, seat)
        if table.over:
            raise engine.MatchOver("The match is over.")
        forfeits.forfeit(table, core.clock.now(), chosen, "resign")
        return view_later(player, core, chosen)

    return await core.run(match_id, step, player_id=player.id)


async def ready(core: Core, player: Player, match_id: str, seat: int | None) -> dict[str, Any]:
    def step(table: Table) -> Later[dict[str, Any]]:
        chosen = pick_seat(table, player, seat)
        if table.state.status != "waiting":
            raise MatchInProgressError("Check-in is over: the match has started.")
        row = table.seats[chosen]
        if not row.ready:
            now = core.clock.now()
            row.ready = True
            record(table, now, "ready", {"seat": chosen})
            forfeits.start_if_checked_in(table, now)
        return view_later(player, core, chosen)

    return await core.run(match_id, step, player_id=player.id)


# ---------------------------------------------------------------- reading


async def get_view(core: Core, player: Player, match_id: str, seat: int | None) -> dict[str, Any]:
    def step(table: Table) -> tuple[str | None, dict[str, Any]]:
        return access.watch_check(table, player), view_for(table, player, core, seat)

    pending, view = await core.run(match_id, step, player_id=player.id, fresh=True)
    await access.require_member_in(core.maker, pending, player.id)
    return view


async def events(
    core: Core, player: Player, match_id: str, after: int, seat: int | None, limit: int = 1000
) -> list[dict[str, Any]]:
    def viewer(table: Table) -> tuple[str | None, int | None]:
        mine = table.seats_of(player.id)
        if seat is not None and seat not in mine:
            raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
        pending = access.watch_check(table, player)
        return pending, viewer_seat(table, mine, seat)

    pending, chosen = await core.run(match_id, viewer, player_id=player.id, fresh=True)
    await access.require_member_in(core.maker, pending, player.id)
    async with transaction(core.maker) as session:
        rows = await match_reads.events_after(session, match_id, after, limit)
    return [event_for(row, chosen) for row in rows]


async def ledger(core: Core, player: Player, match_id: str) -> dict[str, Any]:
    def step(table: Table) -> dict[str, Any]:
        if table.state.status not in OVER:
            raise LedgerSealedError("The ledger opens once the match is finished or abandoned.")
        return engine.ledger(table.state, seat_summaries(table), match_id=table.match.id)

    return await core.run(match_id, step, player_id=player.id, fresh=True)


def seat_summaries(table: Table) -> list[dict[str, Any]]:
    out = []
    for row in table.seats:
        summary = joined_data(table, row)
        summary["forfeited"] = bool(row.forfeited or table.state.forfeited[row.seat])
        out.append(summary)
    return out


async def announce_tile_back(core: Core, player: Player) -> None:
    async with transaction(core.maker) as session:
        match_ids = await match_reads.matches_of_player(session, player.id)

    def step(table: Table) -> None:
        table.tile_backs[player.id] = player.tile_back
        for number in table.seats_of(player.id):
            data = {"seat": number, "tile_back": player.tile_back}
            record(table, core.clock.now(), "tile_back_changed", data)

    for match_id in match_ids:
        await core.run(match_id, step)
