"""A tournament match whose check-in closes with one seat ready (issue 25): the absent seat
forfeits before any deal, so no hand starts or ends and no tile is revealed."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import new_player, view
from tests.jobs.factory import events


async def test_a_check_in_forfeit_deals_and_reveals_nothing(
    client: httpx.AsyncClient, clock: FakeClock, core: Any
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    body = {
        "name": "Cup",
        "format": "single_elimination",
        "match": {"best_of": 1},
        "max_entrants": 2,
    }
    t = (await client.post("/v1/tournaments", json=body, headers=ana["headers"])).json()
    for player in (ana, bob):
        entered = await client.post(
            f"/v1/tournaments/{t['id']}/entrants", headers=player["headers"]
        )
        assert entered.status_code == 200, entered.text
    started = await client.post(f"/v1/tournaments/{t['id']}/start", headers=ana["headers"])
    (match,) = started.json()["rounds"][0]["matches"]
    by_id = {ana["id"]: ana, bob["id"]: bob}
    ready = by_id[match["players"][0]]
    assert (
        await client.post(f"/v1/matches/{match['id']}/ready", headers=ready["headers"])
    ).is_success
    clock.advance(301)
    report = await sweep_pass(core)
    assert [o.action for o in report.outcomes] == ["check_in"]
    seen = await events(client, ready, match["id"])
    types = [e["type"] for e in seen]
    assert "forfeit" in types and types[-1] == "match_ended", types
    assert not {"match_started", "hand_started", "hand_ended", "turn"} & set(types), types
    forfeit = next(e["data"] for e in seen if e["type"] == "forfeit")
    assert forfeit == {"seat": 1, "cause": "check_in"}
    end = await view(client, ready, match["id"])
    assert end["status"] == "finished" and end["result"]["winner"] == 0
    assert end["result"]["reason"] == "forfeit" and end["last_hand"] is None
    ledger = await client.get(f"/v1/matches/{match['id']}/ledger", headers=ready["headers"])
    assert ledger.status_code == 200 and ledger.json()["hands"] == []
