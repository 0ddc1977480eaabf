"""A seat the dots show away stays away when the service's watch starts again (the flaky
/play test of a seat taken back on a new device, tests/web/test_reclaim.py).

A presence pass that comes more than two refreshes after the last (a loaded machine) starts
the service's watch again (jobs/witness.py), and a request's sighting counts only the watched
time after it, so every sighting got a fresh lease from the new start. That was meant for
holders whose lapse nobody had recorded; it also revived a holder whose lapse had been
recorded and acted on: the host put the seat on autopilot, then the holder's join from a new
device was refused as if the old device still held the seat (404 `code_not_found`)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from domino_api.clock import FakeClock
from domino_api.jobs import liveness
from domino_api.jobs.witness import GAP_PASSES, record_pass, witness_of
from domino_api.matches import presence
from domino_api.store.db import transaction
from tests.api.helpers import create_match, new_player, view

HUMANS = [{"type": "human"}, {"type": "human"}]


class Passes:
    """One API process's presence passes as it records them (its sockets hold no seat here)."""

    def __init__(self, app: Any, clock: FakeClock) -> None:
        self.maker, self.clock = app.state.sessionmaker, clock
        self.refresh_s: float = app.state.settings.presence_refresh_s
        self.row_id = 0

    async def start(self) -> None:
        async with transaction(self.maker) as session:
            self.row_id = await liveness.record_start(session, self.clock.now())
        await self.one()

    async def one(self) -> None:
        async with transaction(self.maker) as session:
            await record_pass(session, self.row_id, self.clock.now(), self.refresh_s, False)

    async def for_(self, seconds: float) -> None:
        """Passes every refresh for `seconds`: an unbroken watch."""
        for _ in range(int(seconds // self.refresh_s)):
            self.clock.advance(self.refresh_s)
            await self.one()


async def test_a_seat_recorded_away_is_taken_back_after_the_watch_starts_again(
    client: httpx.AsyncClient, clock: FakeClock, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = app.state.core
    passes = Passes(app, clock)
    # The service's witness as the processes record it, as in a server with presence passes.
    monkeypatch.setattr(core, "witness", witness_of(passes.maker, clock, passes.refresh_s))
    await passes.start()
    ana, ben = await new_player(client, "Ana"), await new_player(client, "Ben")
    created = await create_match(client, ana, "draw", HUMANS)
    mid, code = created["id"], created["code"]
    joined = await client.post("/v1/matches/join", json={"code": code}, headers=ben["headers"])
    assert joined.status_code == 200, joined.text
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert started.status_code == 200, started.text
    # Ben's socket closes: its seat stays his for one more lease (realtime/socket.py).
    await presence.connect_seats(core, mid, [1], core.lease_s, by=ben["id"])

    await passes.for_(core.lease_s + 2 * passes.refresh_s)  # Ben is quiet, Ana's tab too
    autopilot = await client.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=ana["headers"])
    assert autopilot.status_code == 200, autopilot.text
    seats = (await view(client, ana, mid))["seats"]
    assert [s["connected"] for s in seats] == [True, False]  # Ana's requests; Ben's lapse

    # The next pass is late (the process was slow): the watch starts again from it.
    clock.advance((GAP_PASSES + 1) * passes.refresh_s)
    await passes.one()
    assert (await core.witness()).since == clock.now()

    again = await new_player(client, "Ben")  # Ben on a new device: same number, same name
    taken = await client.post(
        "/v1/matches/join", json={"code": code, "name": "Ben"}, headers=again["headers"]
    )
    assert taken.status_code == 200, taken.text
    mine = await view(client, again, mid)
    assert mine["you"]["seat"] == 1
    assert mine["seats"][1]["autopilot"] is True  # his to take back, as the page offers
