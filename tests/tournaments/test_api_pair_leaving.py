"""A player leaving a tournament of pairs (issue 52): as at any partnership table, a resigning
or absent player's seat goes to the computer and the partner plays on; a pair only loses its
match once both partners have gone (docs/RULES.md 14, docs/API.md "Tournaments")."""

from __future__ import annotations

from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.engine import verify_ledger
from tests.api.helpers import play_to_end, view
from tests.tournaments.test_api_pairs import check_in_all, enter_pairs
from tests.tournaments.test_api_tournaments import Players, create, make_players, tview

Match = dict[str, Any]


async def two_pairs(client: httpx.AsyncClient) -> tuple[Players, dict[str, Any], Match]:
    """Two whole pairs in a started partners-block tournament, and its one match."""
    players = await make_players(client, 4)
    host = next(iter(players.values()))
    t = await create(client, host, preset="partners-block", match={"target": 1}, max_entrants=2)
    await enter_pairs(client, players, t["id"])
    r = await client.post(f"/v1/tournaments/{t['id']}/start", headers=host["headers"])
    assert r.status_code == 200, r.text
    (m,) = r.json()["rounds"][0]["matches"]
    return players, host, m


def seated(players: Players, m: Match) -> dict[int, dict[str, Any]]:
    """Seat -> player: pair A at 0 and 2, pair B at 1 and 3."""
    a, b = m["teams"]
    return {seat: players[pid] for seat, pid in enumerate((a[0], b[0], a[1], b[1]))}


async def resign(client: httpx.AsyncClient, who: dict[str, Any], mid: str) -> None:
    r = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=who["headers"])
    assert r.status_code == 200, r.text


async def decided(client: httpx.AsyncClient, host: dict[str, Any], tid: str) -> Match:
    t = await tview(client, host, tid)
    assert t["status"] == "finished", t["status"]
    (m,) = t["rounds"][0]["matches"]
    assert m["status"] == "finished" and t["champion"] == m["winner"]
    return m


async def test_a_resigning_partner_is_replaced_by_the_computer_and_the_pair_plays_on(
    client: httpx.AsyncClient,
) -> None:
    players, host, m = await two_pairs(client)
    seats = seated(players, m)
    await check_in_all(client, players, m)
    await resign(client, seats[2], m["id"])  # pair A's partner
    v = await view(client, seats[0], m["id"])
    assert v["status"] in ("playing", "hand_over"), v["status"]
    assert [s["forfeited"] for s in v["seats"]] == [False, False, True, False]
    t = await tview(client, host, v["tournament"])
    (row,) = t["rounds"][0]["matches"]
    assert row["status"] == "playing" and row["winner"] is None and t["status"] == "running"
    final = await play_to_end(client, m["id"], {s: seats[s] for s in (0, 1, 3)})
    assert final["status"] == "finished" and final["result"]["winner"] != 2  # it never wins
    ledger = await client.get(f"/v1/matches/{m['id']}/ledger", headers=seats[0]["headers"])
    assert ledger.status_code == 200 and verify_ledger(ledger.json()) == [], ledger.text[:300]
    row = await decided(client, host, t["id"])
    assert row["winner"] == m["players"][final["result"]["team"]] and row["reason"] == "played"


async def test_both_pairs_leaving_gives_the_match_to_the_pair_that_stayed_longer(
    client: httpx.AsyncClient,
) -> None:
    players, host, m = await two_pairs(client)
    seats = seated(players, m)
    await check_in_all(client, players, m)
    tid = (await view(client, seats[0], m["id"]))["tournament"]
    for seat in (0, 2, 1):  # pair A both gone: pair B's two play on against two computers
        await resign(client, seats[seat], m["id"])
        v = await view(client, seats[3], m["id"])
        assert v["status"] in ("playing", "hand_over"), v["status"]
    await resign(client, seats[3], m["id"])  # the last human leaves: the match is abandoned
    assert (await view(client, seats[3], m["id"]))["status"] == "abandoned"
    # The tournament is not cancelled: pair A had gone first, so pair B wins by forfeit.
    row = await decided(client, host, tid)
    assert row["winner"] == m["players"][1] and row["reason"] == "forfeit"


async def test_a_partner_who_resigns_during_check_in_is_replaced_and_the_match_starts(
    client: httpx.AsyncClient,
) -> None:
    players, _, m = await two_pairs(client)
    seats = seated(players, m)
    for seat in (0, 1, 3):
        r = await client.post(f"/v1/matches/{m['id']}/ready", headers=seats[seat]["headers"])
        assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
    await resign(client, seats[2], m["id"])
    v = await view(client, seats[0], m["id"])
    assert v["status"] in ("playing", "hand_over", "finished"), v["status"]
    assert [s["forfeited"] for s in v["seats"]] == [False, False, True, False]


async def test_check_in_ends_with_the_absent_seats_to_the_computer(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    players, host, m = await two_pairs(client)
    seats = seated(players, m)
    # Only pair B's partner (seat 3) checks in: the three others go to the computer, and pair
    # A, both gone, can never win (RULES 14).
    r = await client.post(f"/v1/matches/{m['id']}/ready", headers=seats[3]["headers"])
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
    clock.advance(301)
    v = await view(client, seats[3], m["id"])
    assert [s["forfeited"] for s in v["seats"]] == [True, True, True, False]
    tid = v["tournament"]
    final = await play_to_end(client, m["id"], {3: seats[3]})
    assert final["status"] == "finished" and final["result"]["team"] == 1
    # The ledger replays to the same result, the forfeited seats' computer moves included.
    ledger = await client.get(f"/v1/matches/{m['id']}/ledger", headers=seats[3]["headers"])
    assert ledger.status_code == 200 and verify_ledger(ledger.json()) == [], ledger.text[:300]
    row = await decided(client, host, tid)
    assert row["winner"] == m["players"][1]
