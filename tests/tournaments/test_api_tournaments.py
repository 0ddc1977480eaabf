"""Whole tournaments through the API with the injectable clock (seed 004)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from domino_api.clock import FakeClock
from domino_api.tournaments import pairing
from tests.api.helpers import new_player, play_to_end, view

Players = dict[str, dict[str, Any]]


async def make_players(client: httpx.AsyncClient, n: int) -> Players:
    players: Players = {}
    for i in range(n):
        p = await new_player(client, f"P{i}")
        players[p["id"]] = p
    return players


async def create(
    client: httpx.AsyncClient, host: dict[str, Any], **overrides: Any
) -> dict[str, Any]:
    body = {
        "name": "Friday cup",
        "format": "single_elimination",
        "match": {"best_of": 1},
        "max_entrants": 10,
        **overrides,
    }
    r = await client.post("/v1/tournaments", json=body, headers=host["headers"])
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


async def tview(client: httpx.AsyncClient, who: dict[str, Any], tid: str) -> dict[str, Any]:
    r = await client.get(f"/v1/tournaments/{tid}", headers=who["headers"])
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


async def started(
    client: httpx.AsyncClient, players: Players, fmt: str, **overrides: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    host = next(iter(players.values()))
    t = await create(client, host, format=fmt, **overrides)
    for p in players.values():
        r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=p["headers"])
        assert r.status_code == 200, r.text
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    return host, r.json()


def open_matches(t: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for rnd in t["rounds"] for m in rnd["matches"] if m["status"] == "check_in"]


async def check_in(client: httpx.AsyncClient, players: Players, match: dict[str, Any]) -> None:
    for pid in match["players"]:
        r = await client.post(f"/v1/matches/{match['id']}/ready", headers=players[pid]["headers"])
        assert r.status_code == 200, r.text
    v = await view(client, players[match["players"][0]], match["id"])
    assert v["status"] in ("playing", "finished"), v["status"]
    assert v["tournament"] is not None and v["host_seat"] is None


async def run_to_end(
    client: httpx.AsyncClient, players: Players, tid: str, play: bool = False
) -> dict[str, Any]:
    """Check every open match in and finish it: the second player resigns, or both play."""
    host = next(iter(players.values()))
    for _ in range(100):
        t = await tview(client, host, tid)
        if t["status"] != "running":
            return t
        pending = open_matches(t)
        assert pending, t
        for m in pending:
            await check_in(client, players, m)
            a, b = (players[pid] for pid in m["players"])
            if play:
                final = await play_to_end(client, m["id"], {0: a, 1: b})
                assert final["status"] == "finished"
            else:
                r = await client.post(f"/v1/matches/{m['id']}/resign", headers=b["headers"])
                assert r.status_code == 200, r.text
    raise AssertionError("tournament did not finish")


def check_single_elimination(t: dict[str, Any], n: int) -> None:
    assert t["status"] == "finished"
    matches = [m for rnd in t["rounds"] for m in rnd["matches"]]
    assert len(matches) == n - 1
    assert all(m["status"] == "finished" and m["winner"] in m["players"] for m in matches)
    losers = [p for m in matches for p in m["players"] if p != m["winner"]]
    assert len(losers) == len(set(losers)) == n - 1
    assert t["champion"] is not None and t["champion"] not in losers
    final = t["rounds"][-1]["matches"]
    assert len(final) == 1 and final[0]["winner"] == t["champion"]
    assert all(rnd["status"] == "complete" for rnd in t["rounds"])


async def test_five_entrants_single_elimination_to_a_champion(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 5)
    host, t = await started(client, players, "single_elimination")
    assert t["status"] == "running" and len(bytes.fromhex(t["seed"])) == 32
    # Anyone can recompute the bracket from the seed: entry order in, seeded order out.
    entry = list(players)
    order = pairing.seeded_order(bytes.fromhex(t["seed"]), entry)
    assert [e["player_id"] for e in t["entrants"]] == order
    assert [e["order"] for e in t["entrants"]] == list(range(5))
    first = t["rounds"][0]
    assert first["byes"] == order[:3]
    assert [m["players"] for m in first["matches"]] == [order[3:5]]
    match_id = first["matches"][0]["id"]
    v = await view(client, players[order[3]], match_id)
    assert v["status"] == "waiting" and v["check_in_deadline"] is not None
    assert v["ruleset"]["name"] == "classic" and v["ruleset"]["best_of"] == 1
    assert v["ruleset"]["turn_clock"] == {"allowance_s": 180, "grace_s": 120}
    # Two adjacent byes make a round-2 match that is ready at once.
    assert [m["players"] for m in t["rounds"][1]["matches"]] == [order[:2]]
    final = await run_to_end(client, players, t["id"])
    check_single_elimination(final, 5)
    # Byes count as no win: the bye entrants' wins are only their match wins.
    wins = {s["player_id"]: s["match_wins"] for s in final["standings"]}
    played = [m for rnd in final["rounds"] for m in rnd["matches"]]
    for pid in players:
        assert wins[pid] == sum(m["winner"] == pid for m in played)


async def test_eight_entrants_single_elimination_played_out(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 8)
    _, t = await started(client, players, "single_elimination", match={"best_of": 1})
    assert t["rounds"][0]["byes"] == [] and len(t["rounds"][0]["matches"]) == 4
    final = await run_to_end(client, players, t["id"], play=True)
    check_single_elimination(final, 8)
    assert [len(r["matches"]) for r in final["rounds"]] == [4, 2, 1]
    assert all(m["reason"] == "played" for r in final["rounds"] for m in r["matches"])


async def test_five_entrants_round_robin(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 5)
    _, t = await started(client, players, "round_robin", match={"best_of": 1})
    assert len(t["rounds"]) == 1 and len(t["rounds"][0]["rests"]) == 1
    assert len(t["rounds"][0]["matches"]) == 2
    final = await run_to_end(client, players, t["id"], play=True)
    assert final["status"] == "finished"
    assert len(final["rounds"]) == 5
    pairs = [frozenset(m["players"]) for r in final["rounds"] for m in r["matches"]]
    assert len(pairs) == len(set(pairs)) == 10
    rests = [p for r in final["rounds"] for p in r["rests"]]
    assert sorted(rests) == sorted(players)
    assert final["standings"][0]["player_id"] == final["champion"]
    assert sum(s["match_wins"] for s in final["standings"]) == 10
    assert [s["rank"] for s in final["standings"]] == [1, 2, 3, 4, 5]


async def test_round_robin_opens_a_round_only_when_the_current_is_complete(
    client: httpx.AsyncClient,
) -> None:
    players = await make_players(client, 4)
    _, t = await started(client, players, "round_robin")
    assert len(t["rounds"]) == 1
    first, second = t["rounds"][0]["matches"]
    await check_in(client, players, first)
    loser = players[first["players"][1]]
    r = await client.post(f"/v1/matches/{first['id']}/resign", headers=loser["headers"])
    assert r.status_code == 200
    t = await tview(client, loser, t["id"])
    assert len(t["rounds"]) == 1 and t["rounds"][0]["status"] == "open"
    assert t["rounds"][0]["matches"][0]["reason"] == "forfeit"
    await check_in(client, players, second)
    r = await client.post(
        f"/v1/matches/{second['id']}/resign", headers=players[second["players"][0]]["headers"]
    )
    t = await tview(client, loser, t["id"])
    assert len(t["rounds"]) == 2 and t["rounds"][0]["status"] == "complete"


async def test_best_of_two_tournament_match_records_hands_and_points(
    client: httpx.AsyncClient,
) -> None:
    players = await make_players(client, 2)
    _, t = await started(client, players, "single_elimination", match={"best_of": 2})
    final = await run_to_end(client, players, t["id"], play=True)
    assert final["status"] == "finished"
    (m,) = final["rounds"][0]["matches"]
    a, _ = m["players"]
    v = await view(client, players[a], m["id"])
    result = v["result"]
    assert result["reason"] == "best_of"
    winner_seat = m["players"].index(m["winner"])
    assert result["winner"] == winner_seat
    hands = result["hands_won"]
    if hands[0] == hands[1]:  # level on hands: decided by total points
        assert result["scores"][winner_seat] > result["scores"][1 - winner_seat]
    top = {s["player_id"]: s for s in final["standings"]}[m["winner"]]
    assert top["hand_diff"] == hands[winner_seat] - hands[1 - winner_seat]
    assert top["point_diff"] == result["scores"][winner_seat] - result["scores"][1 - winner_seat]


async def test_one_player_never_checks_in_the_other_advances_by_forfeit(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    players = await make_players(client, 2)
    host, t = await started(client, players, "single_elimination")
    (m,) = t["rounds"][0]["matches"]
    ready, absent = m["players"]
    r = await client.post(f"/v1/matches/{m['id']}/ready", headers=players[ready]["headers"])
    assert r.status_code == 200 and r.json()["status"] == "waiting"
    clock.advance(299)
    t = await tview(client, host, t["id"])
    assert t["rounds"][0]["matches"][0]["status"] == "check_in"
    clock.advance(2)
    t = await tview(client, host, t["id"])  # opening the tournament enforces the check-in
    (m,) = t["rounds"][0]["matches"]
    assert m["winner"] == ready and m["reason"] == "forfeit" and m["status"] == "finished"
    assert t["status"] == "finished" and t["champion"] == ready


async def test_nobody_checks_in_cancels_the_tournament(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    players = await make_players(client, 4)
    host, t = await started(client, players, "single_elimination")
    first, second = t["rounds"][0]["matches"]
    await check_in(client, players, first)
    clock.advance(301)
    # Opening the match (not the tournament) enforces the check-in just the same.
    v = await view(client, players[second["players"][0]], second["id"])
    assert v["status"] == "cancelled"
    t = await tview(client, host, t["id"])
    assert t["status"] == "cancelled" and t["champion"] is None
    cancelled = t["rounds"][0]["matches"][1]
    assert cancelled["status"] == "cancelled" and cancelled["reason"] == "no_show"
    assert cancelled["winner"] is None


async def test_timeout_is_a_forfeit_loss(client: httpx.AsyncClient, clock: FakeClock) -> None:
    players = await make_players(client, 2)
    host, t = await started(client, players, "single_elimination", match={"target": 100})
    (m,) = t["rounds"][0]["matches"]
    await check_in(client, players, m)
    v = await view(client, host, m["id"])
    on_turn = m["players"][v["turn"]["seat"]]
    clock.advance(180 + 120 + 1)
    t = await tview(client, host, t["id"])
    v = await view(client, host, m["id"])
    assert v["status"] == "finished" and v["result"]["reason"] == "forfeit"
    (m,) = t["rounds"][0]["matches"]
    assert m["reason"] == "forfeit" and m["winner"] != on_turn
    assert t["champion"] == m["winner"]


async def test_entrant_limits_and_plans(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 4)
    host, other, third, fourth = players.values()
    body = {"name": "Big", "format": "round_robin", "match": {"target": 100}}
    r = await client.post(
        "/v1/tournaments", json={**body, "max_entrants": 11}, headers=host["headers"]
    )
    assert r.status_code == 403 and r.json()["code"] == "entrant_limit"
    t = await create(client, host, max_entrants=3)
    for p in (host, other, third):
        r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=p["headers"])
        assert r.status_code == 200
    r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=fourth["headers"])
    assert r.status_code == 409 and r.json()["code"] == "entrant_limit"
    r = await client.delete(f"/v1/tournaments/{t['id']}/entrants/me", headers=third["headers"])
    assert r.status_code == 200 and len(r.json()["entrants"]) == 2
    r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=fourth["headers"])
    assert r.status_code == 200 and len(r.json()["entrants"]) == 3
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=other["headers"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200
    r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=third["headers"])
    assert r.status_code == 409 and r.json()["code"] == "tournament_started"
    r = await client.delete(f"/v1/tournaments/{t['id']}/entrants/me", headers=other["headers"])
    assert r.status_code == 409 and r.json()["code"] == "tournament_started"
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 409 and r.json()["code"] == "tournament_started"


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"name": "x", "format": "swiss", "match": {"target": 100}, "max_entrants": 4}, "format"),
        ({"name": "x", "format": "round_robin", "match": {}, "max_entrants": 4}, "match.best_of"),
        (
            {"name": "x", "format": "round_robin", "match": {"best_of": 6}, "max_entrants": 4},
            "match.best_of",
        ),
        (
            {"name": "x", "format": "round_robin", "match": {"best_of": 0}, "max_entrants": 4},
            "match.best_of",
        ),
        (
            {"name": "x", "format": "round_robin", "match": {"target": 0}, "max_entrants": 4},
            "match.target",
        ),
        (
            {
                "name": "x",
                "format": "round_robin",
                "match": {"best_of": 3, "target": 5},
                "max_entrants": 4,
            },
            "match.best_of",
        ),
        ({"name": "x", "format": "round_robin", "match": 3, "max_entrants": 4}, "match"),
        ({"name": "", "format": "round_robin", "match": {"best_of": 3}, "max_entrants": 4}, "name"),
        (
            {"name": "x", "format": "round_robin", "match": {"best_of": 3}, "max_entrants": 1},
            "max_entrants",
        ),
        ({"name": "x", "format": "round_robin", "match": {"best_of": 3}}, "max_entrants"),
        (
            {
                "name": "x",
                "format": "round_robin",
                "match": {"best_of": 3},
                "max_entrants": 4,
                "clock": {"allowance_s": 0},
            },
            "clock.allowance_s",
        ),
    ],
)
async def test_bad_bodies_are_422_naming_the_field(
    client: httpx.AsyncClient, body: dict[str, Any], named: str
) -> None:
    host = await new_player(client, "Host")
    r = await client.post("/v1/tournaments", json=body, headers=host["headers"])
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "validation_error"
    assert r.json()["detail"].startswith(f"{named}: "), r.json()["detail"]


async def test_a_body_that_is_not_json_is_400(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Host")
    headers = {**host["headers"], "Content-Type": "application/json"}
    r = await client.post("/v1/tournaments", content=b"{name: x", headers=headers)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "bad_request"


async def test_unknown_tournament_and_too_few_entrants(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Host")
    r = await client.get("/v1/tournaments/nope", headers=host["headers"])
    assert r.status_code == 404 and r.json()["code"] == "tournament_not_found"
    t = await create(client, host)
    assert t["status"] == "open" and t["seed"] is None and t["rounds"] == []
    await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=host["headers"])
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 409 and r.json()["code"] == "not_enough_entrants"
