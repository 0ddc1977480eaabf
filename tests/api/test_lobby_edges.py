"""The lobby's edges through two real server processes fanned out over PostgreSQL
(LISTEN/NOTIFY): its events cross processes, bad input is refused and changes nothing, a lobby
socket holds its seek while open, and what is old is pruned."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domino_api.store import lobby_repo
from tests.api.lobby_support import (
    BOUND_S,
    LEASE_S,
    listing,
    lobby_socket,
    next_event,
    player,
    public_table,
    two_servers,
)
from tests.support.servers import ServerProcess


@pytest.fixture(scope="module")
def servers(
    lobby_database: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    postgres = {"DOMINO_ANNOUNCE_BACKEND": "postgres"}
    with two_servers(lobby_database, tmp_path_factory.mktemp("lobby-pg"), postgres) as started:
        yield started


async def test_lobby_events_cross_processes_over_postgres(
    servers: list[ServerProcess], http: list[httpx.AsyncClient]
) -> None:
    a, b = http
    ana, bob, cy = [await player(a, n) for n in ("Ana", "Bob", "Cy")]
    watcher = await lobby_socket(servers[1], cy, "classic")  # on B; everything happens on A
    try:
        made = await public_table(a, ana, "classic")
        opened = await next_event(watcher)
        assert opened["type"] == "table_opened" and opened["table"]["id"] == made["table"]["id"]
        r = await a.post(
            f"/v1/lobby/tables/{made['table']['id']}/join", json={}, headers=bob["headers"]
        )
        assert r.status_code == 200, r.text
        closed = await next_event(watcher)
        assert closed == {"type": "table_closed", "ruleset": "classic", "id": made["table"]["id"]}
    finally:
        await watcher.close()
    assert made["table"]["id"] not in await listing(b, cy, "classic")


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
    with pytest.raises(ConnectionClosed) as long_id:
        ws = await connect(
            f"{servers[0].ws_url}/v1/lobby/ws?preset=all-fives&seek={'x' * 37}",
            additional_headers={"Authorization": f"Bearer {ana['token']}"},
        )
        await asyncio.wait_for(ws.recv(), BOUND_S)
    assert long_id.value.rcvd is not None and long_id.value.rcvd.code == 4422
    # A NUL in the seek's id (PostgreSQL stores none) is refused before the socket reads it.
    with pytest.raises(ConnectionClosed) as nul_id:
        ws = await connect(
            f"{servers[0].ws_url}/v1/lobby/ws?preset=all-fives&seek=ab%00cd",
            additional_headers={"Authorization": f"Bearer {ana['token']}"},
        )
        await asyncio.wait_for(ws.recv(), BOUND_S)
    assert nul_id.value.rcvd is not None
    assert (nul_id.value.rcvd.code, nul_id.value.rcvd.reason) == (4422, "validation_error")


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


async def test_a_listed_table_shows_its_hosts_rating_at_its_preset(
    http: list[httpx.AsyncClient], lobby_database: str
) -> None:
    """The lobby shows ratings (issue 43): the host's at the table's preset, null until rated."""
    rae, una = await player(http[0], "Rae"), await player(http[0], "Una")
    conn = await asyncpg.connect(lobby_database)
    try:
        await conn.execute(
            "INSERT INTO ratings (player_id, preset, mu, sigma, games, updated_at)"
            " VALUES ($1, 'draw', 1612.4, 140.0, 9, now())",
            rae["id"],
        )
    finally:
        await conn.close()
    rated = (await public_table(http[0], rae, "draw"))["table"]
    unrated = (await public_table(http[0], una, "draw"))["table"]
    assert (rated["host_rating"], unrated["host_rating"]) == (1612, None)
    r = await http[1].get("/v1/lobby", params={"preset": "draw"}, headers=una["headers"])
    shown = {t["id"]: t["host_rating"] for t in r.json()["tables"]}
    assert shown[rated["id"]] == 1612 and shown[unrated["id"]] is None
