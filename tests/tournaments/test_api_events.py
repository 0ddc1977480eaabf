"""The tournament events feed: GET /v1/tournaments/{id}/events (issue 7)."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from tests.api.helpers import new_player
from tests.tournaments.test_api_tournaments import (
    create,
    make_players,
    run_to_end,
    started,
)


async def feed(
    client: httpx.AsyncClient, who: dict[str, Any], tid: str, after: int | None = None
) -> list[dict[str, Any]]:
    params = {} if after is None else {"after": after}
    r = await client.get(f"/v1/tournaments/{tid}/events", params=params, headers=who["headers"])
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


def check_seqs(events: list[dict[str, Any]], first: int = 1) -> None:
    assert [e["seq"] for e in events] == list(range(first, first + len(events)))


async def test_five_entrants_single_elimination_feed(client: httpx.AsyncClient) -> None:
    players = await make_players(client, 5)
    host, t = await started(client, players, "single_elimination")
    final = await run_to_end(client, players, t["id"])
    assert final["status"] == "finished"
    # Any authenticated player may read the feed, entrant or not.
    outsider = await new_player(client, "Watcher")
    events = await feed(client, outsider, t["id"])
    check_seqs(events)
    assert [e["type"] for e in events] == [
        *["entrant_joined"] * 5,
        "tournament_started",
        "round_opened",  # round 1: one match, three byes
        "match_opened",
        "round_opened",  # round 2: the two adjacent byes meet at once
        "match_opened",
        "match_decided",  # round 1's match
        "round_completed",
        "match_opened",  # its winner meets the third bye
        "match_decided",
        "match_decided",
        "round_completed",
        "round_opened",  # the final
        "match_opened",
        "match_decided",
        "round_completed",
        "tournament_finished",
    ]
    by_type: dict[str, list[dict[str, Any]]] = {}
    for e in events:
        by_type.setdefault(e["type"], []).append(e["data"])
    assert [d["player_id"] for d in by_type["entrant_joined"]] == list(players)
    (begun,) = by_type["tournament_started"]
    order = [e["player_id"] for e in final["entrants"]]
    assert begun == {"seed": final["seed"], "order": order}
    assert [d["round"] for d in by_type["round_opened"]] == [1, 2, 3]
    assert by_type["round_opened"][0]["byes"] == order[:3]
    assert [d["round"] for d in by_type["round_completed"]] == [1, 2, 3]
    played = {m["id"]: (rnd["number"], m) for rnd in final["rounds"] for m in rnd["matches"]}
    assert sorted(d["match_id"] for d in by_type["match_opened"]) == sorted(played)
    for d in by_type["match_opened"]:
        number, m = played[d["match_id"]]
        assert d["round"] == number and d["players"] == m["players"]
        assert d["check_in_deadline"] is not None
    assert sorted(d["match_id"] for d in by_type["match_decided"]) == sorted(played)
    for d in by_type["match_decided"]:
        number, m = played[d["match_id"]]
        assert d["round"] == number and d["winner"] == m["winner"]
        assert d["reason"] == "forfeit"  # the second player resigned
    assert by_type["tournament_finished"] == [{"champion": final["champion"]}]
    # `after` filters: only later events, in order; past the end, none.
    later = await feed(client, host, t["id"], after=6)
    assert later == events[6:]
    check_seqs(later, first=7)
    assert await feed(client, host, t["id"], after=len(events)) == []


async def test_entrants_leaving_and_the_limit(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Host")
    guest = await new_player(client, "Guest")
    t = await create(client, host)
    for who in (host, guest, guest):  # entering twice records one event
        r = await client.post(f"/v1/tournaments/{t['id']}/entrants", headers=who["headers"])
        assert r.status_code == 200, r.text
    for _ in range(2):  # leaving twice too
        r = await client.delete(f"/v1/tournaments/{t['id']}/entrants/me", headers=guest["headers"])
        assert r.status_code == 200, r.text
    events = await feed(client, host, t["id"])
    check_seqs(events)
    assert [(e["type"], e["data"]["player_id"]) for e in events] == [
        ("entrant_joined", host["id"]),
        ("entrant_joined", guest["id"]),
        ("entrant_left", guest["id"]),
    ]
    assert events[1]["data"]["name"] == "Guest"
    r = await client.get(
        f"/v1/tournaments/{t['id']}/events", params={"limit": 1}, headers=host["headers"]
    )
    assert [e["seq"] for e in r.json()["events"]] == [1]


async def test_cancelled_when_nobody_checks_in(
    client: httpx.AsyncClient, app: Any, clock: FakeClock
) -> None:
    players = await make_players(client, 2)
    host, t = await started(client, players, "single_elimination")
    clock.advance(301)
    await sweep_pass(app.state.core)
    events = await feed(client, host, t["id"])
    check_seqs(events)
    assert [e["type"] for e in events][-3:] == [
        "match_opened",
        "match_decided",
        "tournament_cancelled",
    ]
    decided = events[-2]["data"]
    assert decided["winner"] is None and decided["reason"] == "no_show"


async def test_unknown_tournament_and_bad_queries(client: httpx.AsyncClient) -> None:
    player = await new_player(client, "P")
    r = await client.get("/v1/tournaments/no-such-tournament/events", headers=player["headers"])
    assert r.status_code == 404 and r.json()["code"] == "tournament_not_found"
    t = await create(client, player)
    r = await client.get(
        f"/v1/tournaments/{t['id']}/events", params={"after": -1}, headers=player["headers"]
    )
    assert r.status_code == 422
    r = await client.get(f"/v1/tournaments/{t['id']}/events")
    assert r.status_code == 401
    assert await feed(client, player, t["id"]) == []
