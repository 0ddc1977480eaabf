"""The host's hold on a table's seats: lock claims by name, and release a seat (issue 16).

Each is a step of the write core, like every other change to a match."""

from __future__ import annotations

from typing import Any

from domino_api import engine
from domino_api.errors import NotHost, SeatNotFound, SeatUnavailable
from domino_api.matches.service import view_for
from domino_api.matches.table import Table, joined_data, record
from domino_api.matches.unit import Core
from domino_api.store.models import Player


def _host_only(table: Table, player: Player) -> None:
    if table.match.host_player_id != player.id:
        raise NotHost("Only the host may do this.")
    if table.over:
        raise engine.MatchOver("The match is over.")


async def set_lock(core: Core, player: Player, match_id: str, on: bool) -> dict[str, Any]:
    def step(table: Table) -> dict[str, Any]:
        _host_only(table, player)
        if bool(getattr(table.match, "claims_locked", False)) != on:
            table.match.claims_locked = on
        return view_for(table, player, core)

    return await core.run(match_id, step, player_id=player.id)


async def release(core: Core, player: Player, match_id: str, seat: int) -> dict[str, Any]:
    """The host frees another's human seat: the next join by number takes it (even on a
    locked or started table), and the old holder's sockets close (4409 `seat_claimed`)."""

    def step(table: Table) -> dict[str, Any]:
        _host_only(table, player)
        if not 0 <= seat < len(table.seats):
            raise SeatNotFound(f"The match has no seat {seat}.")
        row = table.seats[seat]
        if row.type != "human" or row.forfeited or row.player_id in (None, player.id):
            raise SeatUnavailable(f"Seat {seat} has no other human holder to release.")
        now = core.clock.now()
        row.player_id = None
        row.connected_until = None
        row.last_seen_at = now  # the away clock starts for the seat, not for a ghost
        data = {**joined_data(table, row), "released": True}
        record(table, now, "seat_joined", data)
        return view_for(table, player, core)

    return await core.run(match_id, step, player_id=player.id)
