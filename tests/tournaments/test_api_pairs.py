"""Tournaments of pairs on a partnership preset (issue 52): each player enters naming a
partner, a whole pair is one entrant, a match seats pair A at 0 and 2 and pair B at 1 and 3."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import play_to_end, view
from tests.tournaments.test_api_tournaments import (
    Players,
    check_in,
    check_single_elimination,
    create,
    make_players,
    open_matches,
    run_to_end,
    tview,
)


async def enter(
    client: httpx.AsyncClient, who: dict[str, Any], tid: str, partner: str | None = None
) -> httpx.Response:
    params = {"partner": partner} if partner is not None else {}
    return await client.post(
        f"/v1/tournaments/{tid}/entrants", params=params, headers=who["headers"]
    )


async def enter_pairs(client: httpx.AsyncClient, players: Players, tid: str) -> list[list[str]]:
    """Players 0&1, 2&3, ... enter as pairs, each naming the other; returns the pairs."""
    ids = list(players)
    pairs = [ids[i : i + 2] for i in range(0, len(ids), 2)]
    for a, b in pairs:
        r = await enter(client, players[a], tid, b)
        assert r.status_code == 200, r.text
        mine = next(e for e in r.json()["entrants"] if e["player_id"] == a)
        assert mine["partner"] == b and mine["paired"] is False  # not whole until b names a
        r = await enter(client, players[b], tid, a)
        assert r.status_code == 200, r.text
        assert all(e["paired"] for e in r.json()["entrants"] if e["player_id"] in (a, b))
    return pairs


async def check_in_all(client: httpx.AsyncClient, players: Players, match: dict[str, Any]) -> None:
    """All four players say ready (check_in covers the two leads, then the partners)."""
    for _, mate in match["teams"]:
        r = await client.post(f"/v1/matches/{match['id']}/ready", headers=players[mate]["headers"])
        assert r.status_code == 200, r.text
    await check_in(client, players, match)


async def play_out(
    client: httpx.AsyncClient, players: Players, match: dict[str, Any]
) -> dict[str, Any]:
    """Every seat plays its first legal move to the end (a resignation at a four-seat table
    hands the seat to the computer rather than end the match)."""
    a, b = match["teams"]
    holders = {seat: players[pid] for seat, pid in enumerate((a[0], b[0], a[1], b[1]))}
    return await play_to_end(client, match["id"], holders)


async def test_four_pairs_single_elimination_played_to_a_champion_pair(
    client: httpx.AsyncClient,
) -> None:
    players = await make_players(client, 8)
    host = next(iter(players.values()))
    t = await create(client, host, preset="partners-block", match={"target": 1}, max_entrants=4)
    assert t["preset"] == "partners-block"
    pairs = await enter_pairs(client, players, t["id"])
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    t = r.json()
    leads = {a: b for a, b in pairs}
    assert sorted(
        t["rounds"][0]["matches"][0]["players"] + t["rounds"][0]["matches"][1]["players"]
    ) == sorted(leads)
    for m in open_matches(t):
        assert m["teams"] == [[p, leads[p]] for p in m["players"]]
        assert m["names"] == [
            f"{players[p]['name']} & {players[leads[p]]['name']}" for p in m["players"]
        ]
        # Pair A at seats 0 and 2, pair B at 1 and 3.
        a, b = m["teams"]
        for seat, pid in enumerate((a[0], b[0], a[1], b[1])):
            v = await view(client, players[pid], m["id"])
            assert v["you"]["seat"] == seat and len(v["seats"]) == 4
    for _ in range(3):
        t = await tview(client, host, t["id"])
        for m in open_matches(t):
            await check_in_all(client, players, m)
            final = await play_out(client, players, m)
            assert final["status"] == "finished"
    t = await tview(client, host, t["id"])
    check_single_elimination(t, 4)
    assert t["champion"] in leads
    top = t["standings"][0]
    assert top["player_id"] == t["champion"] and top["partner"] == leads[t["champion"]]
    assert top["name"] == f"{players[top['player_id']]['name']} & {players[top['partner']]['name']}"
    assert sorted(s["player_id"] for s in t["standings"]) == sorted(leads)


async def test_two_pairs_round_robin_played_out(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 4)
    host = next(iter(players.values()))
    t = await create(
        client,
        host,
        preset="partners-all-fives",
        format="round_robin",
        match={"target": 10},
        clock={"allowance_s": 200, "grace_s": 100},
        max_entrants=2,
    )
    pairs = await enter_pairs(client, players, t["id"])
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    (m,) = open_matches(r.json())
    await check_in_all(client, players, m)
    final = await play_out(client, players, m)
    assert final["status"] == "finished"
    # The host's turn clock holds at a partnership table too (the preset overrides only target).
    played = await view(client, players[m["players"][0]], m["id"])
    assert played["ruleset"]["turn_clock"] == {"allowance_s": 200, "grace_s": 100}
    t = await tview(client, host, t["id"])
    assert t["status"] == "finished"
    (done,) = [m for rnd in t["rounds"] for m in rnd["matches"]]
    result = final["result"]
    # Either partner's win is the pair's: the winning team's lead is credited.
    assert done["winner"] == done["players"][result["team"]] == t["champion"]
    assert result["team"] == result["winner"] % 2
    assert done["points"] == result["scores"][:2] and done["hands_won"] == result["hands_won"][:2]
    assert [s["match_wins"] for s in t["standings"]] == [1, 0]
    assert {s["player_id"]: s["partner"] for s in t["standings"]} == {a: b for a, b in pairs}


async def test_incomplete_pairs_and_partners_refused(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 5)
    ids = list(players)
    host = players[ids[0]]
    t = await create(client, host, preset="partners-nines", match={"target": 100}, max_entrants=5)
    tid = t["id"]
    # A pairs tournament needs a partner, not oneself (409: the request is well formed, the
    # tournament refuses it), and one who exists (404).
    for partner in (None, ids[0]):
        r = await enter(client, host, tid, partner)
        assert r.status_code == 409 and r.json()["code"] == "partner_refused", r.text
    r = await enter(client, host, tid, "no-such-player")
    assert r.status_code == 404 and r.json()["code"] == "player_not_found", r.text
    assert (await enter(client, players[ids[0]], tid, ids[1])).status_code == 200
    # Nobody can name a player already entered naming another partner.
    r = await enter(client, players[ids[2]], tid, ids[0])
    assert r.status_code == 409 and r.json()["code"] == "partner_refused", r.text
    # Naming another partner needs leaving first.
    assert (await enter(client, players[ids[0]], tid, ids[3])).status_code == 409
    # Two halves of pairs are no entrants: the start is refused.
    assert (await enter(client, players[ids[3]], tid, ids[4])).status_code == 200
    r = await client.post(f"/v1/tournaments/{tid}/start", headers=host["headers"])
    assert r.status_code == 409 and "whole pairs" in r.json()["detail"], r.text
    # One whole pair is still not enough.
    assert (await enter(client, players[ids[1]], tid, ids[0])).status_code == 200
    r = await client.post(f"/v1/tournaments/{tid}/start", headers=host["headers"])
    assert r.status_code == 409, r.text
    # A partner on a classic tournament is refused.
    classic = await create(client, host)
    assert classic["preset"] == "classic"
    r = await enter(client, players[ids[1]], classic["id"], ids[2])
    assert r.status_code == 409 and r.json()["code"] == "partner_refused", r.text
    # An unknown preset is refused at creation.
    r = await client.post(
        "/v1/tournaments",
        json={
            "name": "x",
            "format": "round_robin",
            "match": {"best_of": 1},
            "max_entrants": 4,
            "preset": "block",
        },
        headers=host["headers"],
    )
    assert r.status_code == 422, r.text


async def test_a_classic_tournament_is_unchanged(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 3)
    host = next(iter(players.values()))
    t = await create(client, host, format="round_robin")
    for p in players.values():
        assert (await enter(client, p, t["id"])).status_code == 200
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    t = await run_to_end(client, players, t["id"])
    assert t["preset"] == "classic" and t["status"] == "finished"
    matches = [m for rnd in t["rounds"] for m in rnd["matches"]]
    assert len(matches) == 3 and all(m["teams"] is None for m in matches)
    assert all(len(m["players"]) == 2 and m["winner"] in m["players"] for m in matches)
    assert all(e["partner"] is None and e["order"] is not None for e in t["entrants"])
    assert all(s["partner"] is None for s in t["standings"])
    assert [s["name"] for s in t["standings"]] == [
        players[s["player_id"]]["name"] for s in t["standings"]
    ]


async def test_max_entrants_counts_pairs(client: httpx.AsyncClient) -> None:
    """In a tournament of pairs `max_entrants` is pairs (teams), each two players against the
    host plan's cap of players: a free host (10 players) has at most 5 pairs."""
    players = await make_players(client, 6)
    ids = list(players)
    host = players[ids[0]]
    body = {"name": "Pairs", "format": "round_robin", "preset": "partners-block"}
    body |= {"match": {"target": 50}, "max_entrants": 6}
    r = await client.post("/v1/tournaments", json=body, headers=host["headers"])
    assert r.status_code == 403 and r.json()["code"] == "entrant_limit", r.text
    assert r.json()["cap"] == 5 and "12 players" in r.json()["detail"]
    five = await create(client, host, preset="partners-block", match={"target": 9}, max_entrants=5)
    assert five["max_entrants"] == 5
    t = await create(client, host, preset="partners-block", match={"target": 50}, max_entrants=2)
    tid = t["id"]
    assert (await enter(client, players[ids[0]], tid, ids[1])).status_code == 200
    assert (await enter(client, players[ids[1]], tid, ids[0])).status_code == 200
    # A pair waiting for its partner is counted already: the tournament is full ...
    assert (await enter(client, players[ids[2]], tid, ids[3])).status_code == 200
    r = await enter(client, players[ids[4]], tid, ids[5])
    assert r.status_code == 409 and r.json()["code"] == "entrant_limit", r.text
    assert r.json()["max_entrants"] == 2 and "2 pairs" in r.json()["detail"]
    # ... but the partner completing it is no new entrant.
    r = await enter(client, players[ids[3]], tid, ids[2])
    assert r.status_code == 200, r.text
    assert len(r.json()["entrants"]) == 4 and all(e["paired"] for e in r.json()["entrants"])
    listed = await client.get("/v1/tournaments", params={"mine": "true"}, headers=host["headers"])
    summary = next(s for s in listed.json()["tournaments"] if s["id"] == tid)
    assert summary["entrants"] == 2 == summary["max_entrants"]
    r = await client.post(f"/v1/tournaments/{tid}/start", headers=host["headers"])
    assert r.status_code == 200 and len(r.json()["rounds"][0]["matches"]) == 1, r.text


async def test_entrant_joined_announces_the_pair_once_whole(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 3)
    first, second, classic_player = list(players)
    host = players[first]
    t = await create(client, host, preset="partners-block", match={"target": 50}, max_entrants=2)
    await enter_pairs(client, {p: players[p] for p in (first, second)}, t["id"])
    r = await client.get(f"/v1/tournaments/{t['id']}/events", headers=host["headers"])
    assert r.status_code == 200, r.text
    joined = [e["data"] for e in r.json()["events"] if e["type"] == "entrant_joined"]
    names = {p: players[p]["name"] for p in players}
    assert joined == [
        {"player_id": first, "name": names[first], "partner": second, "paired": False}
        | {"pair_name": None},
        {"player_id": second, "name": names[second], "partner": first, "paired": True}
        | {"pair_name": f"{names[first]} & {names[second]}"},
    ]
    classic = await create(client, host)
    r = await enter(client, players[classic_player], classic["id"])
    assert r.status_code == 200, r.text
    r = await client.get(f"/v1/tournaments/{classic['id']}/events", headers=host["headers"])
    (data,) = [e["data"] for e in r.json()["events"]]
    assert data["partner"] is None and data["paired"] is False and data["pair_name"] is None
