"""Computer seats, solo matches and seats on autopilot never time out (RULES 10)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import create_match, first_legal, new_player, view
from tests.jobs.factory import BLITZ, events, leave, parse, two_seat_match


async def _solo(client: httpx.AsyncClient, ruleset: str, seats: list[dict[str, Any]]) -> Any:
    ana = await new_player(client, "Ana")
    # The preset's own clock is off at a solo table; one given explicitly is refused (422, see
    # test_solo_refuses_an_explicit_clock), never dropped in silence.
    created = await create_match(client, ana, ruleset, seats)
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"]
    )
    assert started.status_code == 200, started.text
    return ana, started.json()


async def test_solo_matches_run_no_clock_and_no_away_forfeit(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, versus_bot = await _solo(
        client, "classic", [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    )
    host, hot_seat = await _solo(
        client, "all-fives", [{"type": "human"}, {"type": "human", "holder": "host"}]
    )
    assert versus_bot["ruleset"]["turn_clock"] is None
    assert hot_seat["ruleset"]["away_forfeit_s"] is None
    assert versus_bot["turn"] is None or versus_bot["turn"]["deadline"] is None
    clock.set(start + timedelta(hours=24) - timedelta(microseconds=1))
    assert (await sweep_pass(core)).outcomes == []
    for player, match in ((ana, versus_bot), (host, hot_seat)):  # each its own host's
        seen = await view(client, player, match["id"])
        assert seen["status"] in ("playing", "hand_over")
        assert "forfeit" not in [e["type"] for e in await events(client, player, match["id"])]


async def test_solo_refuses_an_explicit_clock(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    body = {"ruleset": "classic", "seats": SOLO_SEATS, "options": BLITZ}
    refused = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert refused.status_code == 422 and refused.json()["code"] == "option_not_allowed"


SOLO_SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def test_a_seat_on_autopilot_never_times_out(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    start = clock.now()
    ana, _, v = await two_seat_match(client, "all-fives", options={"away_forfeit_s": 30})
    await leave(maker, v["id"], 1, start - timedelta(minutes=1))  # autopilot: only once gone
    on = await client.put(f"/v1/matches/{v['id']}/seats/1/autopilot", headers=ana["headers"])
    assert on.status_code == 200, on.text
    for step in range(1, 26):  # Ana looks in every 20 s for 500 s; Bob is never seen again
        clock.set(start + timedelta(seconds=20 * step))
        await view(client, ana, v["id"])
        report = await sweep_pass(core)
        assert [o.action for o in report.outcomes if o.action != "none"] == []
    assert (await view(client, ana, v["id"]))["status"] in ("playing", "hand_over")


async def test_only_the_human_on_turn_has_a_clock(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    ana, _, v = await two_seat_match(client, "classic", options=BLITZ)
    await leave(maker, v["id"], 1, clock.now() - timedelta(minutes=1))
    on = await client.put(f"/v1/matches/{v['id']}/seats/1/autopilot", headers=ana["headers"])
    assert on.status_code == 200, on.text
    mine = await view(client, ana, v["id"])
    if mine["status"] == "playing" and mine["turn"]["seat"] == 0:
        body = {**first_legal(mine), "seq": mine["seq"], "seat": 0}
        moved = await client.post(f"/v1/matches/{v['id']}/moves", json=body, headers=ana["headers"])
        assert moved.status_code == 200, moved.text
        mine = moved.json()["view"]
    # The computer answers at once for seat 1, so the turn is Ana's whenever play goes on.
    stream = await events(client, ana, v["id"])
    since = next(e["seq"] for e in stream if e["type"] == "autopilot_on")
    turns = [e for e in stream if e["type"] == "turn" and e["seq"] > since]
    assert all(e["data"]["deadline"] is None for e in turns if e["data"]["seat"] == 1)
    if mine["status"] == "playing":
        assert mine["turn"]["seat"] == 0
        clock.set(parse(mine["turn"]["deadline"]) + timedelta(days=2))
        report = await sweep_pass(core)
        assert [(o.action, o.seat) for o in report.outcomes] == [("forfeit", 0)]
