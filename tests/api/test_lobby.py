"""The lobby (issue 43) through two real server processes on one database, fanned out over a
real NATS: public tables listed by preset, their events on the lobby socket, quick pairing
across processes, concurrent seekers, leavers, and bad input changing nothing."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import asyncpg
import httpx
import pytest
import pytest_asyncio
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from domino_api.store import lobby_repo
from domino_api.store.db import to_plain_url
from tests.conftest import TEST_DB
from tests.support.servers import ServerProcess, fresh_database_sync, uvicorn_argv

LOBBY_DB = os.environ.get("DOMINO_LOBBY_DB", f"{TEST_DB}_lobby")
LEASE_S = 2.0
# A bound for waits on what the servers do by themselves (a sweep every 0.5 s), not a
# measurement: only a broken lobby reaches it.
BOUND_S = 20.0


@pytest.fixture(scope="module")
def lobby_database() -> str:
    return to_plain_url(fresh_database_sync(LOBBY_DB))


@pytest.fixture(scope="module")
def servers(
    lobby_database: str, nats_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two API processes, A and B, sharing the database and a NATS server."""
    logs = tmp_path_factory.mktemp("lobby")
    env = {
        "DOMINO_ANNOUNCE_BACKEND": "nats",
        "DOMINO_NATS_URL": nats_url,
        "DOMINO_SEEK_LEASE_S": str(LEASE_S),
        "DOMINO_LOG_JSON": "false",
    }
    started = [
        ServerProcess(lobby_database, logs / f"{n}.log", env=env, argv=uvicorn_argv) for n in "ab"
    ]
    try:
        for server in started:
            server.start()
        for server in started:
            server.wait_ready()
        yield started
    finally:
        for server in started:
            server.stop(signal.SIGTERM)


@pytest_asyncio.fixture(loop_scope="session")
async def http(servers: list[ServerProcess]) -> AsyncIterator[list[httpx.AsyncClient]]:
    clients = [httpx.AsyncClient(base_url=s.base_url, timeout=30) for s in servers]
    try:
        yield clients
    finally:
        for client in clients:
            await client.aclose()


async def player(client: httpx.AsyncClient, name: str) -> dict[str, Any]:
    r = await client.post("/v1/players", json={"name": name})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    body["headers"] = {"Authorization": f"Bearer {body['token']}"}
    return body


async def public_table(
    client: httpx.AsyncClient, host: dict[str, Any], preset: str, seats: int = 2
) -> dict[str, Any]:
    body = {"ruleset": preset, "seats": [{"type": "human"}] * seats}
    r = await client.post("/v1/lobby/tables", json=body, headers=host["headers"])
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


async def listing(client: httpx.AsyncClient, who: dict[str, Any], preset: str) -> list[str]:
    r = await client.get("/v1/lobby", params={"preset": preset}, headers=who["headers"])
    assert r.status_code == 200, r.text
    return [t["id"] for t in r.json()["tables"]]


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    deadline = time.monotonic() + BOUND_S
    while not await check():
        assert time.monotonic() < deadline, "the lobby never got there"
        await asyncio.sleep(0.05)


async def lobby_socket(
    server: ServerProcess, who: dict[str, Any], preset: str, seek: str | None = None
) -> ClientConnection:
    query = f"preset={preset}" + (f"&seek={seek}" if seek else "")
    ws = await connect(
        f"{server.ws_url}/v1/lobby/ws?{query}",
        additional_headers={"Authorization": f"Bearer {who['token']}"},
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))["type"] == "subscribed"
    return ws


async def next_event(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), BOUND_S))
    return message


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

    # Started by a route that knows nothing of the lobby: the sweep takes it out.
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
        # A join by number, a route of the matches: the lobby's sweep tells it as well.
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
    assert r.status_code == 200 and r.json()["status"] == "cancelled"
    r = await b.post("/v1/lobby/seeks", json=wanted, headers=late["headers"])
    assert r.status_code == 201 and r.json()["status"] == "open"
    await asyncio.sleep(1.0)  # two sweeps of each process
    still = await b.get(f"/v1/lobby/seeks/{r.json()['id']}", headers=late["headers"])
    assert still.json()["status"] == "open"
    left = await a.get(f"/v1/lobby/seeks/{lapsed['id']}", headers=gone["headers"])
    assert left.json()["status"] == "expired" and left.json()["match"] is None
    await b.delete(f"/v1/lobby/seeks/{r.json()['id']}", headers=late["headers"])


async def test_bad_input_is_refused_and_changes_nothing(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, _ = http
    ana, bob = await player(a, "Ana"), await player(a, "Bob")
    h = ana["headers"]
    cases: list[tuple[str, str, dict[str, Any] | None, int, str]] = [
        ("post", "/v1/lobby/seeks", {"ruleset": "chess"}, 422, "unknown_ruleset"),
        (
            "post",
            "/v1/lobby/seeks",
            {"ruleset": "all-fives", "options": {"draw": "x"}},
            422,
            "bad_options",
        ),
        (
            "post",
            "/v1/lobby/seeks",
            {"ruleset": "all-fives", "options": {"target": 10**30}},
            422,
            "bad_options",
        ),
        ("post", "/v1/lobby/seeks", {"ruleset": "all-fives\u0000"}, 422, "validation_error"),
        ("post", "/v1/lobby/seeks", {"ruleset": "all-fives", "x": 1}, 422, "validation_error"),
        ("get", "/v1/lobby?preset=nope", None, 422, "unknown_ruleset"),
        ("get", "/v1/lobby?preset=draw&cursor=abc", None, 422, "validation_error"),
        ("post", "/v1/lobby/tables/nosuchtable/join", {}, 404, "table_not_listed"),
        (
            "post",
            "/v1/lobby/tables",
            {"ruleset": "draw", "seats": [{"type": "human"}, {"type": "bot"}]},
            409,
            "match_full",
        ),
    ]
    for method, path, body, status, code in cases:
        kwargs: dict[str, Any] = {"headers": h} | ({"json": body} if body is not None else {})
        r = await getattr(a, method)(path, **kwargs)
        assert (r.status_code, r.json()["code"]) == (status, code), (path, body, r.text)
    huge = {"ruleset": "all-fives", "options": {"draw": "x" * 2_000_000}}
    r = await a.post("/v1/lobby/seeks", json=huge, headers=h)
    assert (r.status_code, r.json()["code"]) == (413, "payload_too_large")

    # Another player's seek: not found, and it stays as it was.
    mine = (await a.post("/v1/lobby/seeks", json={"ruleset": "draw-50"}, headers=h)).json()
    for method in ("get", "delete"):
        r = await getattr(a, method)(f"/v1/lobby/seeks/{mine['id']}", headers=bob["headers"])
        assert r.status_code == 404 and r.json()["code"] == "seek_not_found"
    assert (await a.get(f"/v1/lobby/seeks/{mine['id']}", headers=h)).json()["status"] == "open"
    await a.delete(f"/v1/lobby/seeks/{mine['id']}", headers=h)

    # Another's table: only its host lists it.
    before = await listing(a, bob, "draw")
    own = await a.post("/v1/matches", json={"ruleset": "draw"}, headers=h)
    r = await a.put(f"/v1/matches/{own.json()['id']}/public", headers=bob["headers"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    assert await listing(a, bob, "draw") == before

    with pytest.raises(ConnectionClosed) as refused:
        ws = await connect(
            f"{servers[0].ws_url}/v1/lobby/ws?preset=nope",
            additional_headers={"Authorization": f"Bearer {ana['token']}"},
        )
        await asyncio.wait_for(ws.recv(), BOUND_S)
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4422
    with pytest.raises(ConnectionClosed) as other:
        ws = await connect(
            f"{servers[0].ws_url}/v1/lobby/ws?preset=all-fives&seek={mine['id']}",
            additional_headers={"Authorization": f"Bearer {bob['token']}"},
        )
        await asyncio.wait_for(ws.recv(), BOUND_S)
    assert other.value.rcvd is not None and other.value.rcvd.code == 4404


async def test_a_lobby_socket_holds_its_seek_until_it_closes(
    servers: list[ServerProcess], http: list[httpx.AsyncClient], lobby_database: str
) -> None:
    a, b = http
    kim = await player(a, "Kim")
    wanted = {"ruleset": "draw-50", "options": {"target": 150}}
    seek = (await a.post("/v1/lobby/seeks", json=wanted, headers=kim["headers"])).json()
    ws = await lobby_socket(servers[1], kim, "draw-50", seek=seek["id"])
    try:
        await asyncio.sleep(LEASE_S * 2)  # two leases with no poll: the socket renewed it
        conn = await asyncpg.connect(lobby_database)
        try:
            row = await conn.fetchrow(
                "SELECT status, lease_until > now() AS alive FROM seeks WHERE id = $1", seek["id"]
            )
        finally:
            await conn.close()
        assert (row["status"], row["alive"]) == ("open", True)
    finally:
        await ws.close()
    await asyncio.sleep(LEASE_S + 0.5)  # the socket gone, the lease runs out
    lee = await player(b, "Lee")
    r = await b.post("/v1/lobby/seeks", json=wanted, headers=lee["headers"])
    assert r.json()["status"] == "open"  # not paired with the seeker who left
    left = await a.get(f"/v1/lobby/seeks/{seek['id']}", headers=kim["headers"])
    assert left.json()["status"] == "expired"
    await b.delete(f"/v1/lobby/seeks/{r.json()['id']}", headers=lee["headers"])


async def test_prune_forgets_old_events_and_closed_seeks_only(
    http: list[httpx.AsyncClient], lobby_database: str
) -> None:
    mo = await player(http[0], "Mo")
    wanted = {"ruleset": "block", "options": {"target": 60}}
    kept = (await http[0].post("/v1/lobby/seeks", json=wanted, headers=mo["headers"])).json()
    conn = await asyncpg.connect(lobby_database)
    try:
        old = "now() - interval '2 hours'"
        await conn.execute(
            f"INSERT INTO lobby_events (ruleset, body, at) VALUES ('block', '{{}}', {old})"
        )
        await conn.execute(
            "INSERT INTO seeks (id, player_id, ruleset, options, options_key, status,"
            f" lease_until, created_at) VALUES ('old-seek', $1, 'block', '{{}}', '{{}}',"
            f" 'cancelled', {old}, {old})",
            mo["id"],
        )
        events_before = await conn.fetchval("SELECT count(*) FROM lobby_events")
        await lobby_repo.prune(conn, 3600)
        events_after = await conn.fetchval("SELECT count(*) FROM lobby_events")
        seeks = {
            r["id"] for r in await conn.fetch("SELECT id FROM seeks WHERE player_id = $1", mo["id"])
        }
    finally:
        await conn.close()
    assert events_after == events_before - 1
    assert seeks == {kept["id"]}
