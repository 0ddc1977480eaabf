"""Records and leaderboards (seed 003): best final score and widest margin per game and opponent."""

from __future__ import annotations

import httpx

from tests.api.helpers import create_match, new_player, play_to_end

SOLO = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def _solo_match(client: httpx.AsyncClient, player: dict, ruleset: str, options: dict):
    created = await create_match(client, player, ruleset, SOLO, options)
    mid = created["id"]
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=player["headers"])
    assert started.status_code == 200
    return await play_to_end(client, mid, {0: player})


async def test_records_and_board_count_the_same_finishes_with_the_same_margin(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    await _solo_match(client, ana, "draw-50", {"target": 20})  # not at the preset's target
    records = (await client.get("/v1/players/me/records", headers=ana["headers"])).json()
    assert records["records"] == []  # counted in neither
    final = await _solo_match(client, ana, "draw-50", {})
    scores = final["result"]["scores"]
    records = (await client.get("/v1/players/me/records", headers=ana["headers"])).json()
    (entry,) = records["records"]
    assert (entry["ruleset"], entry["opponent"]) == ("draw-50", "plain")
    assert entry["best_score"] == scores[0]
    # One margin, wins and losses alike: the score minus the best other seat's.
    assert entry["best_margin"] == scores[0] - scores[1]
    board = await client.get("/v1/leaderboards/draw-50", headers=ana["headers"])
    assert board.json()["opponent"] == "planner"  # the documented default, said in the answer
    board = await client.get(
        "/v1/leaderboards/draw-50", params={"opponent": "plain"}, headers=ana["headers"]
    )
    (row,) = board.json()["entries"]
    assert (row["score"], row["margin"]) == (entry["best_score"], entry["best_margin"])


async def test_leaderboard_counts_only_default_target_and_ranks_by_score(
    client: httpx.AsyncClient,
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    await _solo_match(client, ana, "draw-50", {"target": 20})  # not at the preset's target
    board = await client.get(
        "/v1/leaderboards/draw-50", params={"opponent": "plain"}, headers=ana["headers"]
    )
    assert board.status_code == 200 and board.json()["entries"] == []
    finals = {
        "Ana": await _solo_match(client, ana, "draw-50", {}),
        "Bob": await _solo_match(client, bob, "draw-50", {}),
    }
    entries = (
        await client.get(
            "/v1/leaderboards/draw-50", params={"opponent": "plain"}, headers=ana["headers"]
        )
    ).json()["entries"]
    assert {e["name"] for e in entries} == {"Ana", "Bob"}
    assert [e["score"] for e in entries] == sorted(
        (f["result"]["scores"][0] for f in finals.values()), reverse=True
    )
    assert [e["rank"] for e in entries] == [1, 2]


async def test_leaderboard_refuses_unknown_ruleset_and_opponent(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    unknown = await client.get("/v1/leaderboards/chess", headers=ana["headers"])
    assert unknown.status_code == 422
    assert unknown.json()["code"] == "unknown_ruleset"  # the code POST /v1/matches answers
    bad = await client.get(
        "/v1/leaderboards/draw", params={"opponent": "alien"}, headers=ana["headers"]
    )
    assert bad.status_code == 422


async def test_resigning_a_solo_match_reveals_its_ledger(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    created = await create_match(client, ana, "all-fives", SOLO, {})
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={"cut": "moon"}, headers=ana["headers"])
    reloaded = await client.get(f"/v1/matches/{mid}", headers=ana["headers"])
    assert reloaded.json()["commitment"] == created["commitment"]  # reload: the same sealed deal
    resigned = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=ana["headers"])
    # docs/API.md: at two seats resigning against the computer is a loss, not an abandonment.
    assert resigned.json()["status"] == "finished"
    assert resigned.json()["result"]["winner"] == 1
    assert resigned.json()["result"]["reason"] == "forfeit"
    ledger = await client.get(f"/v1/matches/{mid}/ledger", headers=ana["headers"])
    assert ledger.status_code == 200 and ledger.json()["deal"]["cut"] == "moon"
    records = (await client.get("/v1/players/me/records", headers=ana["headers"])).json()
    assert records["records"] == []  # a resignation earns no record


async def test_the_last_human_resigning_at_three_seats_abandons(client: httpx.AsyncClient) -> None:
    """docs/API.md: at three or four seats the last human seat in play leaving abandons."""
    ana = await new_player(client, "Ana")
    bots = [{"type": "bot", "strategy": "plain"}, {"type": "bot", "strategy": "random"}]
    created = await create_match(client, ana, "house-nines", [{"type": "human"}, *bots])
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    resigned = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=ana["headers"])
    assert resigned.json()["status"] == "abandoned"
    assert resigned.json()["result"]["winner"] is None


async def test_self_play_counts_on_no_board_and_in_no_record(client: httpx.AsyncClient) -> None:
    """Issue 25: a hot-seat match (one player, both seats) was filed twice, as a finish against
    a human: records took the winning seat's score, the board the losing seat's."""
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "human", "holder": "host", "name": "Kid"}]
    created = await create_match(client, ana, "draw-50", seats)
    mid = created["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    final = await play_to_end(client, mid, {0: ana, 1: ana})
    assert final["status"] == "finished" and final["result"]["winner"] in (0, 1)
    records = (await client.get("/v1/players/me/records", headers=ana["headers"])).json()
    assert records["records"] == []
    for opponent in ("human", "plain", "planner"):
        board = await client.get(
            "/v1/leaderboards/draw-50", params={"opponent": opponent}, headers=ana["headers"]
        )
        assert board.json()["entries"] == [], opponent
    # A table where she holds one seat still counts, against the computer.
    solo = await _solo_match(client, ana, "draw-50", {})
    (entry,) = (await client.get("/v1/players/me/records", headers=ana["headers"])).json()[
        "records"
    ]
    assert entry["opponent"] == "plain" and entry["best_score"] == solo["result"]["scores"][0]
