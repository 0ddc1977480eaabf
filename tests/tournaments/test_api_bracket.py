"""A tournament view a bracket can be drawn from: slots and where each winner goes, names,
scores and results; elimination standings by the round reached; the host's turn clock."""

from __future__ import annotations

import httpx

from tests.api.helpers import first_legal, view
from tests.tournaments.test_api_tournaments import (
    check_in,
    make_players,
    run_to_end,
    started,
    tview,
)


async def test_a_bracket_can_be_drawn_from_the_view(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 5)  # P = 8: three byes, one round-1 match
    host, t = await started(client, players, "single_elimination")
    final = await run_to_end(client, players, t["id"], play=True)
    matches = [m for rnd in final["rounds"] for m in rnd["matches"]]
    names = {e["player_id"]: e["name"] for e in final["entrants"]}
    rounds = max(m["round"] for m in matches)
    slots = {(m["round"], m["index"]): m for m in matches}
    for m in matches:
        assert m["names"] == [names[p] for p in m["players"]]
        assert m["winner"] in m["players"] and m["reason"] == "played"
        assert len(m["points"]) == 2 and min(m["points"]) >= 0  # a domino may score 0
        assert m["hands_won"][m["players"].index(m["winner"])] >= 1  # best of 1: it won one
        if m["round"] == rounds:
            assert m["next"] is None
            continue
        nxt = m["next"]
        assert nxt == {"round": m["round"] + 1, "index": m["index"] // 2, "side": m["index"] % 2}
        if (nxt["round"], nxt["index"]) in slots:  # its winner is in that slot, on that side
            assert slots[nxt["round"], nxt["index"]]["players"][nxt["side"]] == m["winner"]
    # Standings by the round reached: the champion, the final's loser, then the rest by round.
    standings = final["standings"]
    assert standings[0]["player_id"] == final["champion"]
    assert standings[0]["round_reached"] == rounds + 1
    reached = [s["round_reached"] for s in standings]
    assert reached == sorted(reached, reverse=True)
    (first_round,) = [m for m in matches if m["round"] == 1]
    loser = next(p for p in first_round["players"] if p != first_round["winner"])
    assert standings[-1]["player_id"] == loser and standings[-1]["round_reached"] == 1


async def test_the_host_sets_the_turn_clock(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 2)
    clock = {"allowance_s": 60, "grace_s": 30}
    host, t = await started(client, players, "single_elimination", clock=clock)
    assert t["clock"] == clock
    (match,) = t["rounds"][0]["matches"]
    seen = await view(client, players[match["players"][0]], match["id"])
    assert seen["ruleset"]["turn_clock"] == clock
    _, plain = await started(client, await make_players(client, 2), "round_robin")
    assert plain["clock"] == {"allowance_s": 180, "grace_s": 120}  # the default
    bad = {
        "name": "x",
        "format": "round_robin",
        "match": {"target": 50},
        "max_entrants": 4,
        "clock": {"allowance_s": 0},
    }
    r = await client.post("/v1/tournaments", json=bad, headers=host["headers"])
    assert r.status_code == 422 and r.json()["code"] == "validation_error"


async def test_the_host_and_entrants_watch_the_matches_and_nobody_else(
    client: httpx.AsyncClient,
) -> None:
    from tests.api.helpers import new_player

    players = await make_players(client, 4)
    host, t = await started(client, players, "single_elimination")
    first, second = t["rounds"][0]["matches"]
    outsider = await new_player(client, "Eve")
    other_entrant = players[second["players"][0]]
    for who in (host, other_entrant):
        if who["id"] in first["players"]:
            continue
        r = await client.get(f"/v1/matches/{first['id']}", headers=who["headers"])
        assert r.status_code == 200, r.text
        assert r.json()["you"] is None and r.json()["legal"] == []
    refused = await client.get(f"/v1/matches/{first['id']}/events", headers=outsider["headers"])
    assert refused.status_code == 403 and refused.json()["code"] == "not_seated"


async def test_a_match_in_play_shows_its_live_score(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 2)
    host, t = await started(client, players, "single_elimination", match={"target": 500})
    (slot,) = t["rounds"][0]["matches"]
    assert slot["live"] is None  # at check-in
    await check_in(client, players, slot)
    a, b = (players[pid] for pid in slot["players"])
    (slot,) = (await tview(client, host, t["id"]))["rounds"][0]["matches"]
    assert slot["live"] == {"points": [0, 0], "hands_won": [0, 0]}

    # Play the first hand out: the slot shows the table's score, in slot order.
    v = await view(client, a, slot["id"])
    seat_of = {v["you"]["seat"]: a}
    seat_of[1 - v["you"]["seat"]] = b
    while v["status"] == "playing":
        seat = v["turn"]["seat"]
        mine = await view(client, seat_of[seat], slot["id"])
        body = {**first_legal(mine), "seq": mine["seq"]}
        r = await client.post(
            f"/v1/matches/{slot['id']}/moves", json=body, headers=seat_of[seat]["headers"]
        )
        assert r.status_code == 200, r.text
        v = r.json()["view"]
    assert v["status"] == "hand_over"
    scores = {seat_of[s["seat"]]["id"]: s["score"] for s in v["seats"]}
    hands = {seat_of[s["seat"]]["id"]: s["hands_won"] for s in v["seats"]}
    assert sum(scores.values()) == v["last_hand"]["points"]
    (slot,) = (await tview(client, host, t["id"]))["rounds"][0]["matches"]
    assert slot["live"] == {
        "points": [scores[p] for p in slot["players"]],
        "hands_won": [hands[p] for p in slot["players"]],
    }
    assert slot["points"] == [0, 0]  # the result's own totals wait for the decision

    r = await client.post(f"/v1/matches/{slot['id']}/resign", headers=b["headers"])
    assert r.status_code == 200, r.text
    (slot,) = (await tview(client, host, t["id"]))["rounds"][0]["matches"]
    assert slot["live"] is None and slot["winner"] == a["id"]
