"""The host's hold on a table's seats: lock claims by name, and release a seat (issue 16).

Each is a step of the write core, the rule the table reducer's (engine/table/seating.py)."""

from __future__ import annotations

from domino_api.engine import table as tables
from domino_api.engine.view_types import ViewOut
from domino_api.matches.service import view_for
from domino_api.matches.unit import Core, Stage
from domino_api.store.models import Player


async def set_lock(core: Core, player: Player, match_id: str, on: bool) -> ViewOut:
    def step(stage: Stage) -> ViewOut:
        return view_for(stage.do(tables.Lock(player.id, on)), player, core)

    return await core.run(match_id, step, player_id=player.id)


async def release(core: Core, player: Player, match_id: str, seat: int) -> ViewOut:
    """The host frees another's human seat once its holder has been away for the lease
    (`core.lease_s`): the next join by number takes it (even on a locked or started table),
    and the old holder's sockets close (4409 `seat_claimed`). The lease counts only time the
    service could see (`core.witness`, engine/table/witness.py)."""
    command = tables.Release(player.id, seat, core.lease_s, await core.witness())

    def step(stage: Stage) -> ViewOut:
        return view_for(stage.do(command), player, core)

    return await core.run(match_id, step, player_id=player.id)
