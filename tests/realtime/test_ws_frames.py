"""Refusals on the socket: bad frames, bad auth, bad targets. Each changes nothing."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from tests.realtime.wsclient import Socket, start, two_seat_match
from tests.support.servers import ServerProcess


async def _closed_with(socket: Socket) -> tuple[int, str]:
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(10):
            await socket.recv(timeout=5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


async def test_refused_sockets_close_with_4000_plus_status(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, _bob, created = await two_seat_match(http)
        match_id = created["id"]
        cases = [
            (match_id, "not-a-token", {}, (4401, "unauthenticated")),
            ("no-such-match", ana["token"], {}, (4404, "match_not_found")),
            ("ab%00cd", ana["token"], {}, (4404, "match_not_found")),  # PostgreSQL refuses NUL
            (match_id, ana["token"], {"seat": 1}, (4403, "not_your_seat")),
            (match_id, ana["token"], {"after": 10_000}, (4409, "stale_seq")),
            (match_id, ana["token"], {"after": -1}, (4422, "validation_error")),
        ]
        for target, token, query, expected in cases:
            socket = await Socket.open(a.ws_url, target, token, **query)
            assert await _closed_with(socket) == expected


async def test_auth_by_first_message_and_timeout(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, _bob, created = await two_seat_match(http)
        silent = await Socket.open(a.ws_url, created["id"], None)
        assert await _closed_with(silent) == (4408, "unauthenticated")
        browser = await Socket.open(a.ws_url, created["id"], None)
        await browser.send({"type": "auth", "token": ana["token"]})
        snapshot = await browser.recv()
        assert snapshot["type"] == "snapshot" and snapshot["view"]["you"]["seat"] == 0
        await browser.close()
        wrong = await Socket.open(a.ws_url, created["id"], None)
        await wrong.send("hello")
        assert await _closed_with(wrong) == (4401, "unauthenticated")


async def test_bad_frames_get_errors_and_change_nothing(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, _bob, created = await two_seat_match(http)
        match_id = created["id"]
        await start(http, ana, match_id)
        socket = await Socket.open(a.ws_url, match_id, ana["token"])
        snapshot = (await socket.recv())["view"]
        await asyncio.sleep(0.2)  # let this socket's own seat_connected settle
        before = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        frames = [
            ("{not json", None, 400, "bad_request"),
            (json.dumps([1, 2]), None, 422, "validation_error"),
            (json.dumps({"type": "teleport", "id": "t1"}), "t1", 422, "validation_error"),
            (
                json.dumps({"type": "move", "id": "m1", "action": "pass"}),
                "m1",
                422,
                "validation_error",
            ),
            (
                json.dumps({"type": "move", "id": "m2", "action": "fly", "seq": 1}),
                "m2",
                422,
                "validation_error",
            ),
            (
                json.dumps(
                    {"type": "move", "id": "m3", "action": "pass", "seq": before["seq"], "seat": 1}
                ),
                "m3",
                403,
                "not_your_seat",
            ),
            (
                json.dumps({"type": "move", "id": "m4", "action": "pass", "seq": 0}),
                "m4",
                409,
                "stale_seq",
            ),
            (
                json.dumps({"type": "message", "id": "c1", "text": ""}),
                "c1",
                422,
                "validation_error",
            ),
            (
                json.dumps({"type": "ping", "id": "p", "pad": "x" * 70_000}),
                None,
                400,
                "bad_request",
            ),
            (b"\x00\x01binary", None, 400, "bad_request"),
        ]
        for frame, client_id, status, code in frames:
            await socket.send(frame)
            answer = await socket.recv()
            while answer["type"] == "event":
                answer = await socket.recv()
            assert answer["type"] == "error", (frame[:60], answer)
            assert answer["id"] == client_id
            assert (answer["error"]["status"], answer["error"]["code"]) == (status, code), frame
        assert snapshot["you"]["hand"] and "hand" in snapshot["you"]
        after = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        assert after["seq"] == before["seq"] and after["you"]["hand"] == before["you"]["hand"]
        await socket.send({"type": "ping", "id": 7})
        assert await socket.recv() == {"type": "pong", "id": 7}
        await socket.close()


async def test_chat_ack_follows_its_event_and_keepalive(servers: list[ServerProcess]) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        watcher = await Socket.open(b.ws_url, match_id, bob["token"])
        await watcher.recv()
        talker = await Socket.open(a.ws_url, match_id, ana["token"])
        await talker.recv()
        await talker.send({"type": "message", "id": "hi", "text": "good luck"})
        seen: list[dict] = []
        while True:
            message = await talker.recv()
            seen.append(message)
            if message["type"] == "ack":
                break
        ack = seen[-1]
        chat = [
            m["event"] for m in seen if m["type"] == "event" and m["event"]["type"] == "message"
        ]
        assert chat and chat[-1]["seq"] == ack["seq"] and ack["id"] == "hi"
        while True:  # the other process delivers it too
            message = await watcher.recv()
            if message["type"] == "event" and message["event"]["type"] == "message":
                assert message["event"]["data"]["text"] == "good luck"
                break
        # The servers run with a 2 s keepalive: one arrives within 2 s of idling.
        keepalive = await watcher.recv(timeout=3, keepalive=True)
        while keepalive["type"] != "keepalive":
            keepalive = await watcher.recv(timeout=3, keepalive=True)
        assert keepalive["now"].endswith("Z")
        await talker.close()
        await watcher.close()


async def test_presence_connects_and_lapses_across_processes(servers: list[ServerProcess]) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        watcher = await Socket.open(a.ws_url, match_id, ana["token"])
        assert (await watcher.recv())["type"] == "snapshot"

        async def next_presence() -> dict:
            while True:
                message = await watcher.recv(timeout=8)
                if message["type"] == "event" and message["event"]["type"].startswith("seat_"):
                    return message["event"]

        # Bob's join made him present (docs/API.md, "The away rule"); with no socket and no
        # request since, his seat lapses after the lease (3 s) and he is away.
        away = await next_presence()
        assert (away["type"], away["data"]["seat"]) == ("seat_disconnected", 1)
        assert away["data"]["away_since"]  # when the lease ran out: the view's `away_since`
        # He comes back on process B: the watcher on A is told.
        bob_socket = await Socket.open(b.ws_url, match_id, bob["token"])
        await bob_socket.recv()
        back = await next_presence()
        assert back == {**back, "type": "seat_connected", "data": {"seat": 1}}
        view = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        assert view["seats"][1]["connected"] is True
        # Held past a lease by process B's refresher (lease 3 s, refresh 1 s).
        await asyncio.sleep(4)
        view = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        assert view["seats"][1]["connected"] is True
        await bob_socket.close()
        gone = await next_presence()
        assert (gone["type"], gone["data"]["seat"]) == ("seat_disconnected", 1)
        await watcher.close()
