"""Revocation reaches open sockets (issue 48, item 2): a sign-out or a revoked API key closes
every socket opened with that credential, on every process (4401 `revoked`), and a lookup in
flight during the revocation cannot put the token back in the auth cache.

Before, the credential's open socket still had `move` and `message` acknowledged long after,
and on the revoking process 6 of 10 revoked tokens got 200 for seconds more."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from domino_api.clock import FakeClock
from domino_api.store import players_repo
from domino_api.store.db import to_plain_url
from domino_api.web.tokens import hash_token
from tests.realtime.wsclient import Socket
from tests.security.conftest import LiveServer, Secured, player

# Longer than any test: only the revocation's announcement can close another process's sockets
# (the catch-up, which repairs a lost one, would too, within `DOMINO_CATCH_UP_S`).
NO_CATCH_UP = {"DOMINO_CATCH_UP_S": "3600"}


async def _second_device(http: httpx.AsyncClient, ana: dict[str, Any]) -> dict[str, Any]:
    """A session of Ana's on another device (a link code), with its id."""
    code = await http.post("/v1/players/me/link-codes", headers=ana["headers"])
    assert code.status_code == 201, code.text
    signed = await http.post("/v1/sign-in/link", json={"code": code.json()["code"]})
    assert signed.status_code == 201, signed.text
    body: dict[str, Any] = signed.json()
    return {"token": body["token"], "id": body["session"]["id"], "headers": _bearer(body["token"])}


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def _table(http: httpx.AsyncClient, host: dict[str, Any]) -> str:
    body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "bot"}]}
    made = await http.post("/v1/matches", json=body, headers=host["headers"])
    assert made.status_code == 201, made.text
    mid: str = made.json()["id"]
    started = await http.post(f"/v1/matches/{mid}/start", json={}, headers=host["headers"])
    assert started.status_code == 200, started.text
    return mid


async def _closed_with(socket: Socket) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(100):
            await socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def _lobby_socket(ws_url: str, token: str) -> Any:
    url = f"{ws_url}/v1/lobby/ws?preset=all-fives"
    connection = await connect(url, additional_headers=_bearer(token))
    assert json.loads(await connection.recv())["type"] == "subscribed"
    return connection


async def _watch_socket(ws_url: str, match_id: str, token: str) -> Any:
    url = f"{ws_url}/v1/matches/{match_id}/watch/ws"
    connection = await connect(url, additional_headers=_bearer(token))
    assert json.loads(await connection.recv())["type"] == "snapshot"
    return connection


async def _lobby_closed_with(connection: Any) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(100):
            await asyncio.wait_for(connection.recv(), 10)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def _move_is_not_acknowledged(socket: Socket) -> None:
    """After the close, a move (or a message) is never answered."""
    with pytest.raises(ConnectionClosed):
        await socket.request({"type": "message", "text": "still here?"})


@pytest.mark.parametrize("backend", ["postgres", "nats"])
async def test_a_sign_out_on_one_process_closes_its_sockets_on_another(
    live_server: LiveServer, backend: str, request: pytest.FixtureRequest, record_property: Any
) -> None:
    env = {**NO_CATCH_UP, "DOMINO_ANNOUNCE_BACKEND": backend}
    if backend == "nats":
        env["DOMINO_NATS_URL"] = request.getfixturevalue("nats_url")
    async with (
        live_server(**env) as a,
        live_server(**env) as b,
        httpx.AsyncClient(base_url=a.base_url) as on_a,
        httpx.AsyncClient(base_url=b.base_url) as on_b,
    ):
        ana = await player(on_a, "Ana")
        mid = await _table(on_a, ana)
        phone = await _second_device(on_a, ana)
        kept = await Socket.open(b.ws_url, mid, ana["token"])  # the first device's: stays open
        socket = await Socket.open(b.ws_url, mid, phone["token"])
        lobby = await _lobby_socket(b.ws_url, phone["token"])
        watching = await _watch_socket(b.ws_url, mid, phone["token"])  # its token now cached
        for opened in (kept, socket):
            assert (await opened.recv())["type"] == "snapshot"
        ack = await socket.request({"type": "message", "text": "hello"})
        assert ack["type"] == "ack", ack

        out = await on_a.delete(f"/v1/players/me/sessions/{phone['id']}", headers=ana["headers"])
        assert out.status_code == 204, out.text
        signed_out = time.monotonic()
        assert await _closed_with(socket) == (4401, "revoked")
        # A figure, never asserted on: the machine may be busy.
        record_property("closed_after_s", round(time.monotonic() - signed_out, 3))
        assert await _lobby_closed_with(lobby) == (4401, "revoked")
        assert await _lobby_closed_with(watching) == (4401, "revoked")
        await _move_is_not_acknowledged(socket)
        for http in (on_a, on_b):
            me = await http.get("/v1/players/me", headers=phone["headers"])
            assert me.status_code == 401, me.text
        reopened = await Socket.open(b.ws_url, mid, phone["token"])
        assert await _closed_with(reopened) == (4401, "unauthenticated")
        with pytest.raises(ConnectionClosed) as rewatched:  # not from the cache either
            await _watch_socket(b.ws_url, mid, phone["token"])
        assert rewatched.value.rcvd is not None and rewatched.value.rcvd.code == 4401
        # The other device's socket is untouched.
        still = await kept.request({"type": "message", "text": "I am still in"})
        assert still["type"] == "ack", still
        await kept.close()


async def test_a_revoked_api_key_and_signing_oneself_out_close_their_sockets(
    live_server: LiveServer,
) -> None:
    async with (
        live_server(**NO_CATCH_UP) as a,
        live_server(**NO_CATCH_UP) as b,
        httpx.AsyncClient(base_url=a.base_url) as on_a,
    ):
        ana = await player(on_a, "Ana")
        mid = await _table(on_a, ana)
        made = await on_a.post(
            "/v1/players/me/api-keys", json={"name": "Bot"}, headers=ana["headers"]
        )
        assert made.status_code == 201, made.text
        key = made.json()
        bot = await Socket.open(b.ws_url, mid, key["token"])
        assert (await bot.recv())["type"] == "snapshot"
        revoked = await on_a.delete(f"/v1/players/me/api-keys/{key['id']}", headers=ana["headers"])
        assert revoked.status_code == 204, revoked.text
        assert await _closed_with(bot) == (4401, "revoked")
        await _move_is_not_acknowledged(bot)

        # The current session signs itself out: its own sockets close, here and elsewhere.
        phone = await _second_device(on_a, ana)
        here = await Socket.open(a.ws_url, mid, phone["token"])
        there = await Socket.open(b.ws_url, mid, phone["token"])
        for opened in (here, there):
            assert (await opened.recv())["type"] == "snapshot"
        own = await on_a.delete(f"/v1/players/me/sessions/{phone['id']}", headers=phone["headers"])
        assert own.status_code == 204, own.text
        assert await _closed_with(here) == (4401, "revoked")
        assert await _closed_with(there) == (4401, "revoked")
        assert (await on_a.get("/v1/players/me", headers=phone["headers"])).status_code == 401


async def test_a_lookup_in_flight_during_a_revocation_does_not_cache_the_token(
    secured: Secured, monkeypatch: pytest.MonkeyPatch, clean_db: str, clock: FakeClock
) -> None:
    """The race held open deterministically: a request's token lookup has read the token
    (still valid) when the key is revoked; only then does the lookup return. Before, it put
    the token in the auth cache, and the revoked key got 200 for `DOMINO_AUTH_CACHE_S`."""
    async with secured(auth_cache_s=60.0) as http:
        ana = await player(http, "Ana")
        made = await http.post(
            "/v1/players/me/api-keys", json={"name": "Bot"}, headers=ana["headers"]
        )
        key = made.json()
        held_hash = [hash_token(key["token"])]
        read, go = asyncio.Event(), asyncio.Event()
        real = players_repo.by_token_hash

        async def held_open(session: Any, token_hash: str, now: Any) -> Any:
            found = await real(session, token_hash, now)
            if token_hash == held_hash[0] and not read.is_set():
                read.set()
                await go.wait()
            return found

        # Its last use recorded as now, so the held lookup writes nothing and locks no row the
        # revocation needs.
        connection = await asyncpg.connect(to_plain_url(clean_db))
        try:
            await connection.execute(
                "UPDATE player_tokens SET last_used_at = $1 WHERE token_hash = $2",
                clock.now(),
                held_hash[0],
            )
        finally:
            await connection.close()
        monkeypatch.setattr(players_repo, "by_token_hash", held_open)
        in_flight = asyncio.create_task(http.get("/v1/players/me", headers=_bearer(key["token"])))
        await read.wait()
        revoked = await http.delete(f"/v1/players/me/api-keys/{key['id']}", headers=ana["headers"])
        assert revoked.status_code == 204, revoked.text
        go.set()
        assert (await in_flight).status_code == 200  # it began before the revocation
        answers = [
            (await http.get("/v1/players/me", headers=_bearer(key["token"]))).status_code
            for _ in range(10)
        ]
        assert answers == [401] * 10


async def test_a_revocation_whose_announcement_was_lost_is_repaired_by_the_catch_up(
    live_server: LiveServer, security_database: str
) -> None:
    """The token's row is gone with no announcement at all (as when the broker was away): the
    process's catch-up finds its socket's token missing and closes it."""
    async with (
        live_server(DOMINO_CATCH_UP_S="0.5") as a,
        httpx.AsyncClient(base_url=a.base_url) as http,
    ):
        ana = await player(http, "Ana")
        mid = await _table(http, ana)
        made = await http.post(
            "/v1/players/me/api-keys", json={"name": "Bot"}, headers=ana["headers"]
        )
        key = made.json()
        bot = await Socket.open(a.ws_url, mid, key["token"])
        assert (await bot.recv())["type"] == "snapshot"
        connection = await asyncpg.connect(to_plain_url(security_database))
        try:
            deleted = await connection.execute(
                "DELETE FROM player_tokens WHERE token_hash = $1", hash_token(key["token"])
            )
        finally:
            await connection.close()
        assert deleted == "DELETE 1"
        assert await _closed_with(bot) == (4401, "revoked")
