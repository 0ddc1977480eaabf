"""The lobby (issue 43) through two real server processes on one database, fanned out over a
real NATS: public tables listed by preset, their events on the lobby socket, quick pairing
across processes, concurrent seekers, a leaver dropped. tests/api/test_lobby_edges.py holds
bad input and the same fan-out over PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import asyncpg
import httpx
import pytest

from tests.api.lobby_support import (
    LEASE_S,
    listing,
    lobby_socket,
    next_event,
    player,
    public_table,
    two_servers,
    until,
)
from tests.support.servers import ServerProcess


@pytest.fixture(scope="module")
def servers(
    lobby_database: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    nats = {"DOMINO_ANNOUNCE_BACKEND": "nats", "DOMINO_NATS_URL": nats_url}
    with two_servers(lobby_database, tmp_path_factory.mktemp("lobby"), nats) as started:
        yield started


async def test_public_tables_are_listed_newest_first_with_free_seats_and_no_number(
    http: list[httpx.AsyncClient],
) -> None:
    a, b = http
    ana, bob, cy = await player(a, "Ana"), await player(b, "Bob"), await player(a, "Cy")
    made = [await public_table(a, ana, "draw") for _ in range(3)]
    hidden = await a.post("/v1/matches", json={"ruleset": "draw"}, headers=ana["headers"])
    other = await public_table(a, ana, "block")
    ids = [m["table"]["id"] for m in made]

    first = await b.get("/v1/lobby", params={"preset": "draw", "limit": 2}, headers=bob["headers"])
    page = first.json()
    assert [t["id"] for t in page["tables"]] == ids[::-1][:2]
    assert all(t["free_seats"] == 1 and t["seats"] == 2 for t in page["tables"])
    rest = await b.get(
        "/v1/lobby",
        params={"preset": "draw", "cursor": page["next_cursor"]},
        headers=bob["headers"],
    )
    assert [t["id"] for t in rest.json()["tables"]] == ids[:1]
    assert rest.json()["next_cursor"] is None
    # An outsider learns no game number and no match id from the lobby.
    for m in made:
        assert m["view"]["code"] not in first.text + rest.text
        assert m["view"]["id"] not in first.text + rest.text
    assert other["table"]["id"] not in await listing(b, bob, "draw")
    assert hidden.json()["id"] not in first.text

    joined = await b.post(f"/v1/lobby/tables/{ids[0]}/join", json={}, headers=bob["headers"])
    assert joined.status_code == 200, joined.text
    assert joined.json()["you"]["seat"] == 1
    assert ids[0] not in await listing(a, cy, "draw")  # full: out at once
    again = await a.post(f"/v1/lobby/tables/{ids[0]}/join", json={}, headers=cy["headers"])
    assert again.status_code == 404 and again.json()["code"] == "table_not_listed"

    # Started by a route of the matches: the lobby follows the step and takes it out.
    start = {"fill_with_bots": True}
    r = await a.post(
        f"/v1/matches/{made[1]['view']['id']}/start", json=start, headers=ana["headers"]
    )
    assert r.status_code == 200, r.text

    async def gone() -> bool:
        return ids[1] not in await listing(b, bob, "draw")

    await until(gone)
    listed = f"/v1/matches/{made[2]['view']['id']}/public"
    r = await a.get(listed, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["table"]["id"] == ids[2] and r.json()["listed"]
    r = await a.get(listed, headers=bob["headers"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await a.delete(listed, headers=ana["headers"])
    assert r.status_code == 204
    r = await a.get(listed, headers=ana["headers"])
    assert r.json() == {"listed": False, "table": None}
    assert ids[2] not in await listing(b, bob, "draw")
    # ... and back under a new public id.
    r = await a.put(f"/v1/matches/{made[2]['view']['id']}/public", headers=ana["headers"])
    assert r.status_code == 200 and r.json()["id"] != ids[2]
    assert await listing(b, bob, "draw") == [r.json()["id"]]


async def test_the_lobby_socket_tells_opened_seats_changed_and_closed_across_processes(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, b = http
    ana, bob, cy, dee = [await player(a, n) for n in ("Ana", "Bob", "Cy", "Dee")]
    watcher = await lobby_socket(servers[1], dee, "house-nines")  # on B; the table is on A
    elsewhere = await lobby_socket(servers[1], dee, "all-fives")
    try:
        made = await public_table(a, ana, "house-nines", seats=3)
        table_id = made["table"]["id"]
        opened = await next_event(watcher)
        assert opened["type"] == "table_opened" and opened["table"]["id"] == table_id
        assert opened["table"]["free_seats"] == 2 and "code" not in json.dumps(opened)
        assert made["view"]["code"] not in json.dumps(opened)

        r = await a.post(f"/v1/lobby/tables/{table_id}/join", json={}, headers=bob["headers"])
        assert r.status_code == 200, r.text
        changed = await next_event(watcher)
        assert changed["type"] == "seats_changed" and changed["table"]["free_seats"] == 1
        # A join by number, a route of the matches: the lobby follows its step as well.
        code = {"code": made["view"]["code"]}
        r = await b.post("/v1/matches/join", json=code, headers=cy["headers"])
        assert r.status_code == 200, r.text
        closed = await next_event(watcher)
        assert closed == {"type": "table_closed", "ruleset": "house-nines", "id": table_id}

        # The other preset's socket heard none of it: its next frame is the answer to a ping.
        await elsewhere.send(json.dumps({"type": "ping", "id": 7}))
        assert await next_event(elsewhere) == {"type": "pong", "id": 7}
        await elsewhere.send(json.dumps({"type": "move", "id": 8}))
        refused = await next_event(elsewhere)
        assert refused["type"] == "error" and refused["error"]["status"] in (400, 422)
    finally:
        await watcher.close()
        await elsewhere.close()


async def test_two_seekers_on_two_processes_are_seated_together(
    servers: list[ServerProcess],
    http: list[httpx.AsyncClient],
    record_property: Callable[[str, object], None],
) -> None:
    a, b = http
    ana, bob = await player(a, "Ana"), await player(b, "Bob")
    wanted = {"ruleset": "all-fives", "options": {"target": 100}}
    r = await a.post("/v1/lobby/seeks", json=wanted, headers=ana["headers"])
    assert r.status_code == 201, r.text
    ana_seek = r.json()
    assert ana_seek["status"] == "open" and ana_seek["match"] is None
    ws = await lobby_socket(servers[0], ana, "all-fives", seek=ana_seek["id"])  # on A
    try:
        started = time.perf_counter()
        r = await b.post("/v1/lobby/seeks", json=wanted, headers=bob["headers"])  # on B
        assert r.status_code == 201, r.text
        bob_seek = r.json()
        paired = await next_event(ws)
        took = time.perf_counter() - started
    finally:
        await ws.close()
    record_property("pairing_across_processes_s", round(took, 4))
    print(f"two seekers on two processes paired, socket told, in {took * 1000:.0f} ms")
    assert bob_seek["status"] == "paired"
    assert paired == {
        "type": "seek_paired",
        "ruleset": "all-fives",
        "seek": ana_seek["id"],
        "match": bob_seek["match"],
        "seat": 0,
    }
    polled = await b.get(f"/v1/lobby/seeks/{ana_seek['id']}", headers=ana["headers"])
    assert polled.json()["status"] == "paired" and polled.json()["seat"] == 0
    for who, client, seat in ((ana, a, 0), (bob, b, 1)):
        view = await client.get(f"/v1/matches/{bob_seek['match']}", headers=who["headers"])
        assert view.status_code == 200 and view.json()["you"]["seat"] == seat
        assert view.json()["ruleset"]["target"] == 100


async def test_concurrent_seekers_are_each_seated_once(
    http: list[httpx.AsyncClient], lobby_database: str
) -> None:
    names = [f"S{n}" for n in range(12)]
    seekers = [await player(http[n % 2], name) for n, name in enumerate(names)]
    wanted = {"ruleset": "block", "options": {}}

    async def seek(n: int) -> dict[str, Any]:
        r = await http[n % 2].post("/v1/lobby/seeks", json=wanted, headers=seekers[n]["headers"])
        assert r.status_code == 201, r.text
        answer: dict[str, Any] = r.json()
        return answer

    seeks = await asyncio.gather(*(seek(n) for n in range(len(seekers))))
    final: dict[int, dict[str, Any]] = {}

    async def all_paired() -> bool:
        for n, s in enumerate(seeks):
            r = await http[n % 2].get(f"/v1/lobby/seeks/{s['id']}", headers=seekers[n]["headers"])
            final[n] = r.json()
        return all(s["status"] == "paired" for s in final.values())

    await until(all_paired)
    by_match: dict[str, list[int]] = {}
    for s in final.values():
        by_match.setdefault(s["match"], []).append(s["seat"])
    assert len(by_match) == len(seekers) // 2
    assert all(sorted(seats) == [0, 1] for seats in by_match.values())
    conn = await asyncpg.connect(lobby_database)
    try:
        ids = [p["id"] for p in seekers]
        rows = await conn.fetch(
            "SELECT player_id, count(*) AS n FROM seats WHERE player_id = ANY($1)"
            " GROUP BY player_id",
            ids,
        )
    finally:
        await conn.close()
    assert {r["player_id"]: r["n"] for r in rows} == dict.fromkeys(ids, 1)


async def test_a_seeker_who_leaves_is_never_paired(http: list[httpx.AsyncClient]) -> None:
    a, b = http
    gone, quitter, late = await player(a, "Gone"), await player(a, "Quit"), await player(b, "Late")
    wanted = {"ruleset": "classic", "options": {}}
    lapsed = (await a.post("/v1/lobby/seeks", json=wanted, headers=gone["headers"])).json()
    await asyncio.sleep(LEASE_S + 0.5)  # no poll, no socket: its lease runs out
    cancelled = (await a.post("/v1/lobby/seeks", json=wanted, headers=quitter["headers"])).json()
    r = await a.delete(f"/v1/lobby/seeks/{cancelled['id']}", headers=quitter["headers"])
    assert r.status_code == 204
    # A cancelled seek is gone (issue 48: it read 200 as if it still stood).
    r = await a.get(f"/v1/lobby/seeks/{cancelled['id']}", headers=quitter["headers"])
    assert r.status_code == 404 and r.json()["code"] == "seek_not_found"
    r = await b.post("/v1/lobby/seeks", json=wanted, headers=late["headers"])
    assert r.status_code == 201 and r.json()["status"] == "open"
    await asyncio.sleep(1.0)
    still = await b.get(f"/v1/lobby/seeks/{r.json()['id']}", headers=late["headers"])
    assert still.json()["status"] == "open"
    left = await a.get(f"/v1/lobby/seeks/{lapsed['id']}", headers=gone["headers"])
    assert left.json()["status"] == "expired" and left.json()["match"] is None
    await b.delete(f"/v1/lobby/seeks/{r.json()['id']}", headers=late["headers"])
