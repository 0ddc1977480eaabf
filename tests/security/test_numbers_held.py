"""Attack 2's other half and attack 6's idempotency 500: a waiting table gives its number back
after 30 minutes, and one Idempotency-Key sent to two matches is two keys."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from tests.security.conftest import Secured, player

VS_BOT = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def test_a_waiting_table_expires_after_30_minutes(secured: Secured, clock: FakeClock) -> None:
    async with secured(open_tables_per_player=1) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
        first = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        capped = await http.post("/v1/matches", json=body, headers=ana["headers"])
        assert capped.status_code == 429
        clock.advance(29 * 60)
        early = await http.get(f"/v1/matches/{first['id']}", headers=ana["headers"])
        assert early.json()["status"] == "waiting"
        clock.advance(60)
        late = await http.get(f"/v1/matches/{first['id']}", headers=ana["headers"])
        assert late.json()["status"] == "abandoned"
        gone = await http.post(
            "/v1/matches/join", json={"code": first["code"]}, headers=bob["headers"]
        )
        assert gone.status_code == 404 and gone.json()["code"] == "code_not_found"
        again = await http.post("/v1/matches", json=body, headers=ana["headers"])
        assert again.status_code == 201, again.text


async def _playing(http: httpx.AsyncClient, ana: dict[str, Any]) -> dict[str, Any]:
    body = {"ruleset": "draw-50", "seats": VS_BOT}
    made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
    started = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=ana["headers"])
    view: dict[str, Any] = started.json()
    assert view["status"] == "playing" and view["turn"]["seat"] == 0
    return view


async def test_one_idempotency_key_on_two_matches_is_two_keys(client: httpx.AsyncClient) -> None:
    ana = await player(client, "Ana")
    answers = []
    for _ in range(2):
        view = await _playing(client, ana)
        legal = {k: v for k, v in view["legal"][0].items() if k != "points" and v is not None}
        r = await client.post(
            f"/v1/matches/{view['id']}/moves",
            json={**legal, "seq": view["seq"]},
            headers={**ana["headers"], "Idempotency-Key": "same-key"},
        )
        assert r.status_code == 200, r.text
        answers.append(r.json()["view"]["id"])
    assert answers[0] != answers[1]
