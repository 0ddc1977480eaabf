"""Attack 4 of issue 26 (slow-loris): 12 connections stayed open for 240 s sending nothing, or a
byte every 5 s, in a request's head, its body or a WebSocket's handshake. One address could
open as many connections as it liked.

Raw sockets on a real server with short deadlines (web/transport.py): every slow connection is
closed by the server while the test still trickles, an ordinary request is answered meanwhile,
and one address holds at most `DOMINO_CONNECTIONS_PER_ADDRESS` connections."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import time
import uuid

import httpx
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from tests.security.conftest import LiveServer
from tests.support.servers import ServerProcess

DEADLINES = {
    "DOMINO_REQUEST_HEAD_TIMEOUT_S": "1",
    "DOMINO_REQUEST_BODY_TIMEOUT_S": "1",
    "DOMINO_WS_AUTH_TIMEOUT_S": "1",
}
BOUND_S = 60.0  # how long the test waits for the server to close (not a speed limit)


def _upgrade(path: str) -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


SOCKET_PATH = f"/v1/matches/{uuid.uuid4()}/ws"
BODY_HEAD = (
    b"POST /v1/players HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n"
)
# (what is sent at once, what is then trickled a byte at a time)
SLOW = {
    "nothing": (b"", b""),
    "head": (b"", b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 500),
    # A kept-alive connection: one request answered, then the next one's head trickles (the
    # connection's deadline timer outlives the first request's deadlines).
    "second head": (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 500,
    ),
    "body": (BODY_HEAD, b'{"name": "' + b"a" * 900),
    "handshake": (b"", _upgrade(SOCKET_PATH)),
    # The handshake done, the first frame (the auth message) never completes.
    "first message": (_upgrade(SOCKET_PATH), b"\x81\xfe\x01\x00" + b"\x00" * 300),
}


async def _held_open(port: int, at_once: bytes, trickle: bytes) -> float:
    """Open a connection, send `at_once`, then a byte every 0.2 s; the seconds until the server
    closed it (its end of the stream, or a WebSocket close frame)."""
    started = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def dribble() -> None:
        writer.write(at_once)
        for byte in trickle:
            await asyncio.sleep(0.2)
            writer.write(bytes([byte]))
            await writer.drain()

    sender = asyncio.create_task(dribble())
    try:
        await asyncio.wait_for(_closed(reader), BOUND_S)
    finally:
        sender.cancel()
        with contextlib.suppress(BaseException):
            await sender
        writer.close()
    return time.monotonic() - started


async def _closed(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while chunk := await reader.read(4096):
            if chunk.startswith(b"\x88") or b"\r\n\r\n\x88" in chunk:  # a WebSocket close frame
                return


async def _ordinary(server: ServerProcess, local: str = "127.0.0.1") -> int:
    transport = httpx.AsyncHTTPTransport(local_address=local)
    async with httpx.AsyncClient(base_url=server.base_url, transport=transport, timeout=30) as h:
        return (await h.get("/healthz")).status_code


async def test_slow_connections_are_closed_and_others_served(live_server: LiveServer) -> None:
    async with live_server(**DEADLINES) as server:
        slow = [
            (name, asyncio.create_task(_held_open(server.port, *sent)))
            for name, sent in SLOW.items()
            for _ in range(2)
        ]
        assert await _ordinary(server) == 200  # served while the slow ones are open
        held = [(name, round(await task, 1)) for name, task in slow]
        print(held)
        assert await _ordinary(server) == 200


async def test_one_address_holds_a_bounded_number_of_connections(
    live_server: LiveServer,
) -> None:
    env = {"DOMINO_CONNECTIONS_PER_ADDRESS": "4", "DOMINO_REQUEST_HEAD_TIMEOUT_S": "600"}
    async with live_server(**env) as server:
        # Sockets give their place back when they end (one after another: never more than 4).
        for _ in range(6):
            assert await _refused_socket(server) == 4401
        idle = [await _from_second_address(server) for _ in range(4)]
        reader, writer = await _from_second_address(server)
        refused = await asyncio.wait_for(reader.read(), BOUND_S)
        assert refused.startswith(b"HTTP/1.1 429"), refused
        # Written past the app, it still carries the headers every answer carries.
        head = refused.split(b"\r\n\r\n", 1)[0].lower()
        assert b"\r\nx-content-type-options: nosniff" in head
        assert b"\r\nx-frame-options: deny" in head
        assert b"\r\ncontent-security-policy: default-src 'none'" in head
        writer.close()
        # Another address is served; the crowded one again once one of its connections ends.
        assert await _ordinary(server, "127.0.0.1") == 200
        idle[0][1].close()
        deadline = time.monotonic() + BOUND_S
        while await _ordinary_or_refused(server) != 200:
            assert time.monotonic() < deadline, "the closed connection was never counted out"
            await asyncio.sleep(0.1)
        for _, other in idle[1:]:
            other.close()


async def _from_second_address(
    server: ServerProcess,
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", server.port, local_addr=("127.0.0.2", 0))


async def _refused_socket(server: ServerProcess) -> int | None:
    """A WebSocket from the second address that sends a wrong token: its close code."""
    url = f"{server.ws_url}{SOCKET_PATH}"
    async with ws_connect(url, local_addr=("127.0.0.2", 0)) as socket:
        await socket.send(json.dumps({"type": "auth", "token": "not-a-token"}))
        with contextlib.suppress(ConnectionClosed):
            await asyncio.wait_for(socket.recv(), BOUND_S)
    return socket.close_code


async def _ordinary_or_refused(server: ServerProcess) -> int:
    try:
        return await _ordinary(server, "127.0.0.2")
    except httpx.TransportError:
        return 0


async def test_an_authenticated_socket_trickling_a_frame_is_closed(
    live_server: LiveServer,
) -> None:
    """Issue 41: an authenticated socket sending one frame at a byte a second stayed open past
    70 s. A frame begun must be whole within DOMINO_WS_FRAME_TIMEOUT_S; the server closes the
    socket while this test still trickles (a frame of 2,000 bytes, a byte every 0.2 s)."""
    async with live_server(DOMINO_WS_FRAME_TIMEOUT_S="1") as server:
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
            made = (await http.post("/v1/players", json={"name": "Ana"})).json()
            auth = {"Authorization": f"Bearer {made['token']}"}
            body = {"ruleset": "draw", "seats": [{"type": "human"}, {"type": "human"}]}
            match = (await http.post("/v1/matches", json=body, headers=auth)).json()
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        upgrade = _upgrade(f"/v1/matches/{match['id']}/ws").replace(
            b"\r\n\r\n", f"\r\nAuthorization: {auth['Authorization']}\r\n\r\n".encode()
        )
        writer.write(upgrade)
        opened = await asyncio.wait_for(reader.readuntil(b'"snapshot"'), BOUND_S)
        assert opened.startswith(b"HTTP/1.1 101")  # authenticated: the snapshot came
        # A whole ping frame first (a socket that sends whole frames is never timed) ...
        ping = json.dumps({"type": "ping", "id": "p1"}).encode()
        writer.write(b"\x81" + bytes([0x80 | len(ping)]) + b"\x00\x00\x00\x00" + ping)
        await asyncio.wait_for(reader.readuntil(b'"pong"'), BOUND_S)
        # ... then a masked text frame of 2,000 bytes, a byte at a time.
        frame = b"\x81\xfe\x07\xd0" + b"\x00\x00\x00\x00" + b" " * 2000
        sent = 0

        async def dribble() -> None:
            nonlocal sent
            for byte in frame:
                writer.write(bytes([byte]))
                await writer.drain()
                sent += 1
                await asyncio.sleep(0.2)

        sender = asyncio.create_task(dribble())
        try:
            await asyncio.wait_for(_closed(reader), BOUND_S)
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                await sender
            writer.close()
        assert sent < len(frame)  # closed with the frame still incomplete
