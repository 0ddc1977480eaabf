"""Mexican Train over REST: an 8-seat table against seven computers, and a hot-seat table of
three, each played to its end, the ledger verified and the players' records kept."""

from __future__ import annotations

import httpx

from domino_api import engine
from tests.api.helpers import create_match, new_player, play_to_end, view


async def test_eight_seats_solo_against_computers_plays_to_the_end(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}] + [{"type": "bot", "strategy": "plain"}] * 7
    created = await create_match(client, ana, "mexican-train", seats, {"rounds": 1})
    assert created["ruleset"]["players"] == 8 and created["ruleset"]["hand_size"] == 10
    mid = created["id"]
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert started.status_code == 200, started.text
    shown = await view(client, ana, mid)
    ends = [end["end"] for end in shown["board"]["ends"]]
    assert ends == [f"train{seat}" for seat in range(8)] + ["mexican"]
    assert shown["board"]["tiles"][0]["tile"] == [12, 12] and shown["board"]["markers"] == []
    final = await play_to_end(client, mid, {0: ana})
    assert final["status"] == "finished" and final["result"]["reason"] == "rounds"
    assert final["last_hand"]["pips"] == final["result"]["scores"]  # one round: its pips
    ledger = (await client.get(f"/v1/matches/{mid}/ledger", headers=ana["headers"])).json()
    assert engine.verify_ledger(ledger) == []
    assert ledger["ruleset"]["rounds"] == 1


async def test_hot_seat_three_players_and_a_bad_option(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    bad = await client.post(
        "/v1/matches",
        json={
            "ruleset": "mexican-train",
            "seats": [{"type": "human"}] * 3,
            "options": {"target": 50},
        },
        headers=ana["headers"],
    )
    assert bad.status_code in (400, 422) and "target" in bad.text
    assert bad.headers["content-type"].startswith("application/problem+json")
    nine = await client.post(
        "/v1/matches",
        json={"ruleset": "mexican-train", "seats": [{"type": "human"}] * 9},
        headers=ana["headers"],
    )
    assert 400 <= nine.status_code < 500
    hot_seat = [{"type": "human"}] + [{"type": "human", "holder": "host"}] * 2
    created = await create_match(client, ana, "mexican-train", hot_seat, {"rounds": 2})
    mid = created["id"]
    assert created["you"]["seats"] == [0, 1, 2] and created["ruleset"]["hand_size"] == 15
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    final = await play_to_end(client, mid, {0: ana, 1: ana, 2: ana})
    assert final["status"] == "finished" and final["hand_number"] == 2
    scores = final["result"]["scores"]
    lowest = [seat for seat, total in enumerate(scores) if total == min(scores)]
    assert final["result"]["winner"] == (lowest[0] if len(lowest) == 1 else None)
