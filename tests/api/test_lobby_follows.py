"""The lobby as a read model of committed steps (issues 47, 48, 50), through two real server
processes over a real NATS: a table opened on A shows on B's lobby socket with no poll, a
table whose host went silent leaves the lobby and comes back with it, blocks hold in quick
pairing, a pairing is dealt at once and rated when both asked, and the numbered tables' cap
holds for seekers."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domino_api.lobby import runtime, tables
from tests.api.lobby_support import (
    listing,
    lobby_socket,
    next_event,
    player,
    public_table,
    two_servers,
    until,
)
from tests.support.servers import ServerProcess

PRESENCE = {
    # A seek's lease long enough for a loaded machine (a 2 s one lapsed between its insert
    # and its read); the hosts' presence short, to watch one go away.
    "DOMINO_SEEK_LEASE_S": "15",
    "DOMINO_PRESENCE_LEASE_S": "2",
    "DOMINO_PRESENCE_REFRESH_S": "0.5",
    "DOMINO_NUMBERED_TABLES_PER_PLAYER": "2",
    "DOMINO_CREATE_MATCH_RATE_LIMIT": "10000",
    "DOMINO_JOIN_RATE_LIMIT": "10000",
    "DOMINO_CREATE_PLAYER_RATE_LIMIT": "10000",
}


@pytest.fixture(scope="module")
def servers(
    lobby_database: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    env = {"DOMINO_ANNOUNCE_BACKEND": "nats", "DOMINO_NATS_URL": nats_url, **PRESENCE}
    with two_servers(lobby_database, tmp_path_factory.mktemp("follows"), env) as started:
        yield started


def test_the_lobby_keeps_no_timer_and_no_reconcile() -> None:
    """What the lobby knows comes from committed steps: nothing of it wakes up by itself."""
    source = inspect.getsource(runtime) + inspect.getsource(tables)
    assert "sleep(" not in source and "create_task" not in source
    assert not hasattr(tables, "reconcile")


async def test_a_table_opened_on_a_shows_on_a_lobby_socket_of_b(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, b = http
    ana, bob, dee = [await player(a, n) for n in ("Ana", "Bob", "Dee")]
    watcher = await lobby_socket(servers[1], dee, "draw")
    try:
        made = await public_table(a, ana, "draw")
        opened = await next_event(watcher)
        assert opened["type"] == "table_opened" and opened["table"]["id"] == made["table"]["id"]
        assert opened["table"]["host_connected"] is True
        # A join by number on B: the step, followed, closes the full table on B's socket.
        r = await b.post(
            "/v1/matches/join", json={"code": made["view"]["code"]}, headers=bob["headers"]
        )
        assert r.status_code == 200, r.text
        closed = await next_event(watcher)
        assert closed == {"type": "table_closed", "ruleset": "draw", "id": made["table"]["id"]}
    finally:
        await watcher.close()


async def test_a_table_whose_host_went_silent_leaves_the_lobby_until_it_is_back(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, b = http
    host, guest, dee = [await player(a, n) for n in ("Hal", "Gus", "Dot")]
    watcher = await lobby_socket(servers[1], dee, "block")
    try:
        made = await public_table(a, host, "block")
        table_id, match_id = made["table"]["id"], made["view"]["id"]
        assert (await next_event(watcher))["type"] == "table_opened"
        assert table_id in await listing(b, dee, "block")
        # The host says nothing more: its lease lapses, `seat_disconnected`, and the lobby
        # hears of it from that step.
        closed = await next_event(watcher)
        assert closed == {"type": "table_closed", "ruleset": "block", "id": table_id}
        assert table_id not in await listing(b, dee, "block")
        r = await b.post(f"/v1/lobby/tables/{table_id}/join", json={}, headers=guest["headers"])
        assert r.status_code == 404 and r.json()["code"] == "table_not_listed", r.text
        # The host is back (any request about its table): listed again, present.
        r = await a.get(f"/v1/matches/{match_id}", headers=host["headers"])
        assert r.status_code == 200
        back = await next_event(watcher)
        assert back["type"] == "table_opened" and back["table"]["id"] == table_id
        assert back["table"]["host_connected"] is True
        page = (await b.get("/v1/lobby", params={"preset": "block"}, headers=dee["headers"])).json()
        assert [t["host_connected"] for t in page["tables"] if t["id"] == table_id] == [True]
    finally:
        await watcher.close()


async def _seek(
    client: httpx.AsyncClient, who: dict[str, Any], body: dict[str, Any]
) -> dict[str, Any]:
    r = await client.post("/v1/lobby/seeks", json=body, headers=who["headers"])
    assert r.status_code == 201, r.text
    seek: dict[str, Any] = r.json()
    return seek


async def test_a_blocked_player_is_never_paired_with_the_one_who_blocked_it(
    http: list[httpx.AsyncClient],
) -> None:
    a, b = http
    ana, bob, cy = [await player(a, n) for n in ("Ann", "Ben", "Cyd")]
    created = await a.post("/v1/matches", json={"ruleset": "classic"}, headers=ana["headers"])
    code, match_id = created.json()["code"], created.json()["id"]
    r = await b.post("/v1/matches/join", json={"code": code}, headers=bob["headers"])
    assert r.status_code == 200, r.text
    r = await a.put(f"/v1/matches/{match_id}/seats/1/block", headers=ana["headers"])
    assert r.status_code == 200, r.text
    wanted = {"ruleset": "classic", "options": {"target": 75}}
    first = await _seek(a, ana, wanted)
    second = await _seek(b, bob, wanted)
    assert (first["status"], second["status"]) == ("open", "open")
    polled = await b.get(f"/v1/lobby/seeks/{second['id']}", headers=bob["headers"])
    assert polled.json()["status"] == "open"
    # A third seeker is paired with the oldest it may sit with.
    third = await _seek(a, cy, wanted)
    assert third["status"] == "paired"
    mine = (await a.get(f"/v1/lobby/seeks/{first['id']}", headers=ana["headers"])).json()
    assert mine["status"] == "paired" and mine["match"] == third["match"]
    await b.delete(f"/v1/lobby/seeks/{second['id']}", headers=bob["headers"])


async def test_a_pairing_is_dealt_at_once_and_rated_when_both_asked(
    http: list[httpx.AsyncClient],
) -> None:
    a, b = http
    for rated, other in ((True, True), (True, False)):
        one, two = await player(a, "Rae"), await player(b, "Sol")
        options = {"target": 100, "turn_clock": {"allowance_s": 30, "grace_s": 10}}
        wanted = {"ruleset": "classic", "options": options}
        await _seek(a, one, wanted | {"rated": rated})
        paired = await _seek(b, two, wanted | {"rated": other})
        assert paired["status"] == "paired" and paired["rated"] is other
        view = (await b.get(f"/v1/matches/{paired['match']}", headers=two["headers"])).json()
        assert view["status"] == "playing" and view["you"]["hand"], view  # dealt at once
        assert view["ruleset"]["turn_clock"]["allowance_s"] == 30  # the clock they chose
        ratings = await a.get(f"/v1/matches/{paired['match']}/ratings", headers=one["headers"])
        assert ratings.status_code == 200, ratings.text
        assert ratings.json()["rated"] is (rated and other)


async def test_a_seeker_holding_its_numbered_tables_cap_is_refused(
    http: list[httpx.AsyncClient],
) -> None:
    """DOMINO_NUMBERED_TABLES_PER_PLAYER=2 here: quick pairing gave one host 7 (issue 50)."""
    a, b = http
    host = await player(a, "Max")
    wanted = {"ruleset": "draw", "options": {"target": 90}}
    for _ in range(2):
        await _seek(a, host, wanted)
        paired = await _seek(b, await player(b, "Opp"), wanted)
        assert paired["status"] == "paired"
    r = await a.post("/v1/lobby/seeks", json=wanted, headers=host["headers"])
    assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text


async def test_the_listing_drops_a_started_table_from_the_step_itself(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, b = http
    ana, dee = await player(a, "Ivy"), await player(b, "Jo")
    made = await public_table(a, ana, "house-nines", seats=3)
    r = await a.post(
        f"/v1/matches/{made['view']['id']}/start",
        json={"fill_with_bots": True},
        headers=ana["headers"],
    )
    assert r.status_code == 200, r.text

    async def gone() -> bool:
        return made["table"]["id"] not in await listing(b, dee, "house-nines")

    await until(gone)
