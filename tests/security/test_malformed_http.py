"""A request head the HTTP parser refuses is answered like every other refusal: a 400 problem
document with the security headers (uvicorn's own answer is text/plain), and the server goes on
serving. A head larger than 64 KiB is a 431 problem, whether it came in one read or several
(one read of 70 KB used to pass, and several were closed without an answer)."""

from __future__ import annotations

import asyncio
import json

from tests.security.conftest import LiveServer

BOUND_S = 60.0  # how long the test waits for the answer (not a speed limit)
MALFORMED = {
    "not http": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",
    "bad method": b"G(T / HTTP/1.1\r\nHost: x\r\n\r\n",
    "bad header": b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n",
    "NUL in the target": b"GET /health\x00z HTTP/1.1\r\nHost: x\r\n\r\n",
}


async def test_a_head_the_parser_refuses_is_a_400_problem(live_server: LiveServer) -> None:
    async with live_server() as server:
        for name, sent in MALFORMED.items():
            head, body = await _exchange(server.port, sent)
            lines = head.decode("latin-1").lower().split("\r\n")
            assert lines[0] == "http/1.1 400 bad request", (name, head)
            assert "content-type: application/problem+json" in lines
            assert f"content-length: {len(body)}" in lines
            assert "x-content-type-options: nosniff" in lines
            assert "x-frame-options: deny" in lines
            assert "content-security-policy: default-src 'none'; frame-ancestors 'none'" in lines
            assert "connection: close" in lines
            problem = json.loads(body)
            assert problem["status"] == 400 and problem["code"] == "bad_request", problem
            assert problem["type"].endswith("/bad_request")
        big = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 70_000 + b"\r\n\r\n"
        for pieces in (1, 3):
            head, body = await _exchange(server.port, big, pieces)
            assert head.startswith(b"HTTP/1.1 431 "), (pieces, head)
            assert json.loads(body)["status"] == 431
            assert b"content-type: application/problem+json" in head.lower()
        ordinary = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        head, _ = await _exchange(server.port, ordinary)
        assert head.startswith(b"HTTP/1.1 200")


async def _exchange(port: int, sent: bytes, pieces: int = 1) -> tuple[bytes, bytes]:
    """What the server answers to `sent` (written in `pieces`, each drained before the next)
    on a connection of its own: (head, body)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    step = -(-len(sent) // pieces)
    for start in range(0, len(sent), step):
        writer.write(sent[start : start + step])
        await writer.drain()
        await asyncio.sleep(0.05)  # separate reads on the server (not a speed bound)
    answer = await asyncio.wait_for(reader.read(), BOUND_S)
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body
