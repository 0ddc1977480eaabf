"""Match operations: each is one step through the write core (matches/unit.py).

Every operation here turns a request into commands of the table reducer (engine/table), run on
the unit's stage by `Core.run`, which loads the match, applies what is due first, marks the
caller seen, runs the step and saves it guarded by the row version. Creation and seats are in
matches/creation.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Literal, TypeVar

from fastapi import Request

from domino_api import engine
from domino_api.engine import table as tables
from domino_api.engine.errors import LedgerSealed, NotYourSeat
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.move_types import MoveBody, move_request, to_action
from domino_api.engine.shapes import LedgerOut
from domino_api.engine.table import Table
from domino_api.engine.view_types import ViewOut
from domino_api.matches import access
from domino_api.matches.answers import MoveOut
from domino_api.matches.unit import Core, Later, Stage
from domino_api.matches.views import build_view, event_for, mark_muted
from domino_api.store import civil_repo, idempotency, match_reads
from domino_api.store.db import transaction
from domino_api.store.models import Player

T = TypeVar("T")


def core_of(request: Request) -> Core:
    """The process's write core, made by the app's lifespan (app/api.py): read off the app, not
    resolved per request (web/deps.py)."""
    core: Core = request.app.state.core
    return core


def view_for(table: Table, player: Player, core: Core, seat: int | None = None) -> ViewOut:
    mine = table.seats_of(player.id)
    if seat is not None and seat not in mine:
        raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
    return build_view(table, tables.viewer_seat(table, mine, seat), mine, core.clock.now())


def view_later(player: Player, core: Core, seat: int | None = None) -> Later[ViewOut]:
    """The caller's view once the computers the step woke have replied."""
    return Later(lambda stage: view_for(stage.table, player, core, seat))


# ---------------------------------------------------------------- the game


async def start(
    core: Core, player: Player, match_id: str, cut: str | None, fill_with_bots: bool
) -> ViewOut:
    chosen_cut = cut if cut is not None else secrets.token_hex(8)
    command = tables.Start(player.id, chosen_cut, fill_with_bots)

    def step(stage: Stage) -> Later[ViewOut]:
        stage.do(command)
        return view_later(player, core)

    return await core.run(match_id, step, player_id=player.id, action="start")


async def move(
    core: Core, player: Player, match_id: str, body: MoveBody, key: str | None = None
) -> MoveOut:
    """A move: the caller's seat acts, the computers reply; the answer with its events."""

    def step(stage: Stage) -> Later[MoveOut]:
        seat = tables.pick_seat(stage.table, player.id, body.seat, prefer_turn=True)
        first = len(stage.events)
        stage.do(tables.Move(player.id, to_action(body), body.seq, body.seat))

        def answer(stage: Stage) -> MoveOut:
            # What the step made: the move and the computers' replies to it.
            events = [event_for(e, seat) for e in stage.events[first:]]
            return MoveOut(view=view_for(stage.table, player, core, seat), events=events)

        return Later(answer)

    keyed = None
    if key is not None:
        keyed = idempotency.Keyed(idempotency.key_for(key, move_request(body)), MoveOut)
    return await core.run(match_id, step, player_id=player.id, action="move", key=keyed)


async def move_on_socket(core: Core, player: Player, match_id: str, body: MoveBody) -> int:
    """A move on the socket: the seq it (and the computers' replies) reached. Its events reach
    the socket from the step itself (realtime/hub.py), so no view is built for it."""

    def step(stage: Stage) -> Later[int]:
        stage.do(tables.Move(player.id, to_action(body), body.seq, body.seat))
        return Later(lambda stage: stage.table.state.seq)

    return await core.run(match_id, step, player_id=player.id, action="move")


async def next_hand(core: Core, player: Player, match_id: str, seat: int | None) -> ViewOut:
    return await seat_step(core, player, match_id, "next_hand", seat, _viewer(player, core))


async def set_autopilot(core: Core, player: Player, match_id: str, seat: int, on: bool) -> ViewOut:
    command = tables.Autopilot(player.id, seat, on, core.lease_s, await core.witness())

    def step(stage: Stage) -> Later[ViewOut]:
        stage.do(command)
        return view_later(player, core)

    return await core.run(match_id, step, player_id=player.id)


async def message(
    core: Core, player: Player, match_id: str, text: str, seat: int | None
) -> AnyEvent:
    def step(stage: Stage) -> AnyEvent:
        chosen = tables.pick_seat(stage.table, player.id, seat)
        stage.do(tables.Chat(player.id, text, seat))
        return event_for(stage.events[-1], chosen)

    return await core.run(match_id, step, player_id=player.id)


async def resign(core: Core, player: Player, match_id: str, seat: int | None) -> ViewOut:
    return await seat_step(core, player, match_id, "resign", seat, _viewer(player, core))


async def ready(core: Core, player: Player, match_id: str, seat: int | None) -> ViewOut:
    return await seat_step(core, player, match_id, "ready", seat, _viewer(player, core))


SeatStep = Literal["next_hand", "resign", "ready"]
# What a step answers, read once the computers it woke have replied: the caller's view (REST),
# or only the match's seq (the socket, whose events came from the step itself).
Reader = Callable[[Stage, int | None], T]


def _viewer(player: Player, core: Core) -> Reader[ViewOut]:
    return lambda stage, seat: view_for(stage.table, player, core, seat)


def seq_of(stage: Stage, seat: int | None) -> int:
    return stage.table.state.seq


async def seat_step(
    core: Core, player: Player, match_id: str, kind: SeatStep, seat: int | None, read: Reader[T]
) -> T:
    """Next hand, resign or check in (a tournament's `ready`, the server's cut) for a seat."""
    command: tables.Command
    if kind == "next_hand":
        command = tables.NextHand(player.id, seat)
    elif kind == "resign":
        command = tables.Resign(player.id, seat, secrets.token_hex(8))
    else:
        command = tables.Ready(player.id, secrets.token_hex(8), seat)

    def step(stage: Stage) -> Later[T]:
        # Picked before the step: a seat that resigns is still the one whose view is read.
        chosen = tables.pick_seat(stage.table, player.id, seat)
        stage.do(command)
        return Later(lambda stage: read(stage, chosen))

    action = "next_hand" if kind == "next_hand" else "other"
    return await core.run(match_id, step, player_id=player.id, action=action)


# ---------------------------------------------------------------- reading


async def get_view(core: Core, player: Player, match_id: str, seat: int | None) -> ViewOut:
    def step(stage: Stage) -> tuple[str | None, ViewOut]:
        table = stage.table
        return access.watch_check(table, player), view_for(table, player, core, seat)

    pending, view = await core.run(match_id, step, player_id=player.id, fresh=True)
    await access.require_member_in(core.maker, pending, player.id)
    return view


async def events(
    core: Core, player: Player, match_id: str, after: int, seat: int | None, limit: int = 1000
) -> list[AnyEvent]:
    def viewer(stage: Stage) -> tuple[str | None, int | None]:
        table = stage.table
        mine = table.seats_of(player.id)
        if seat is not None and seat not in mine:
            raise NotYourSeat(f"Seat {seat} is not yours; yours: {mine}.")
        pending = access.watch_check(table, player)
        return pending, tables.viewer_seat(table, mine, seat)

    pending, chosen = await core.run(match_id, viewer, player_id=player.id, fresh=True)
    await access.require_member_in(core.maker, pending, player.id)
    async with transaction(core.maker) as session:
        rows = await match_reads.events_after(session, match_id, after, limit)
        talk = any(row.type == "message" for row in rows)
        muted = await civil_repo.muted_seats(session, player.id, match_id) if talk else []
    # The caller's mutes (matches/civil.py): its muted seats' talk comes marked.
    return mark_muted([event_for(row, chosen) for row in rows], muted)


async def ledger(core: Core, player: Player, match_id: str) -> LedgerOut:
    def step(stage: Stage) -> LedgerOut:
        table = stage.table
        if not table.over:
            raise LedgerSealed("The ledger opens once the match is finished or abandoned.")
        seats = [tables.joined_data(table, row) for row in table.seats]
        return engine.ledger(table.state, seats, match_id=table.match.id)

    return await core.run(match_id, step, player_id=player.id, fresh=True)


async def announce_tile_back(core: Core, player: Player) -> None:
    async with transaction(core.maker) as session:
        match_ids = await match_reads.matches_of_player(session, player.id)
    command = tables.TileBack(player.id, player.tile_back)

    def step(stage: Stage) -> None:
        stage.do(command)

    for match_id in match_ids:
        await core.run(match_id, step)
