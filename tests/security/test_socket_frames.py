"""Attacks 6 and 9 on the socket: NUL in a frame is a 422 error frame as on REST (it was a
500), any frame at all gets no 5xx-like error (a hypothesis fuzz over frames), chat is limited
per seat and sockets per token.

Issue 26, attacks 5 and 10: 20 unauthenticated sockets each sent one 16 MiB frame of zeros
(16 KB on the wire, deflated) and the server's RSS went from 159 to 724 MB; a 20,000-deep JSON
array closed a socket with 1000, no error frame, nothing logged. Now the frames are refused by
the server's WebSocket protocol before they are read or inflated (close 1009) and the RSS stays
put; the deep array is an error frame, and logged."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import psutil
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from domino_api.realtime.frames import CLIENT_TYPES
from tests.security.conftest import LiveServer, module_server
from tests.support.servers import ServerProcess

FUZZ_DB = os.environ.get("DOMINO_SECURITY_WS_DB", f"domino_security_ws_{os.getpid()}")
# Deflate on, as an operator may turn it (DOMINO_WS_DEFLATE; off by default): the compressed
# frames of attack 5 are refused before they are inflated.
ENV = {"DOMINO_CHAT_RATE_LIMIT": "5", "DOMINO_SOCKETS_PER_TOKEN": "3", "DOMINO_WS_DEFLATE": "true"}


class Table:
    def __init__(self, server: ServerProcess, match_id: str, token: str) -> None:
        self.server, self.match_id, self.token = server, match_id, token
        self.url = f"{server.ws_url}/v1/matches/{match_id}/ws"

    def open(self, stack: ExitStack) -> ClientConnection:
        headers = {"Authorization": f"Bearer {self.token}"}
        socket = stack.enter_context(connect(self.url, additional_headers=headers))
        first = json.loads(socket.recv(timeout=10))
        assert first["type"] == "snapshot", first
        return socket


def _table(http: httpx.Client, server: ServerProcess) -> Table:
    ana = http.post("/v1/players", json={"name": "Ana"}).json()
    headers = {"Authorization": f"Bearer {ana['token']}"}
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    body = {"ruleset": "all-fives", "seats": seats, "options": {"target": 10_000}}
    match = http.post("/v1/matches", json=body, headers=headers).json()
    started = http.post(f"/v1/matches/{match['id']}/start", json={}, headers=headers)
    assert started.status_code == 200, started.text
    return Table(server, match["id"], ana["token"])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with module_server(tmp_path_factory, FUZZ_DB, ENV) as process:
        yield process


@pytest.fixture
def table(server: ServerProcess) -> Table:
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        return _table(http, server)


def _answer(socket: ClientConnection) -> dict[str, Any]:
    """The next ack, error or pong (events and keepalives are skipped)."""
    while True:
        message: dict[str, Any] = json.loads(socket.recv(timeout=10))
        if message["type"] in ("ack", "error", "pong"):
            return message


def test_nul_in_any_frame_is_a_422_error_frame(table: Table) -> None:
    with ExitStack() as stack:
        socket = table.open(stack)
        frames: list[dict[str, Any]] = [
            {"type": "message", "id": 1, "text": "hi\u0000"},
            {"type": "message", "id": 2, "text": "hi", "\u0000": 1},
            {"type": "move", "id": 3, "action": "draw", "seq": 0, "end": "\u0000"},
            {"type": "ping", "id": "a\u0000b"},
        ]
        for frame in frames:
            socket.send(json.dumps(frame))
            answer = _answer(socket)
            assert answer["type"] == "error", answer
            assert answer["error"]["status"] == 422 and "NUL" in answer["error"]["detail"]
        socket.send(json.dumps({"type": "message", "id": 9, "text": "still here"}))
        assert _answer(socket)["type"] == "ack"


def test_chat_on_the_socket_is_limited_per_seat(table: Table) -> None:
    with ExitStack() as stack:
        socket = table.open(stack)
        answers = []
        for n in range(8):
            socket.send(json.dumps({"type": "message", "id": n, "text": f"flood {n}"}))
            answers.append(_answer(socket))
        kinds = [a["type"] if a["type"] == "ack" else a["error"]["status"] for a in answers]
        assert kinds == ["ack"] * 5 + [429] * 3


def test_sockets_per_token_are_limited(table: Table) -> None:
    with ExitStack() as stack:
        for _ in range(3):
            table.open(stack)
        headers = {"Authorization": f"Bearer {table.token}"}
        with (
            connect(table.url, additional_headers=headers) as extra,
            pytest.raises(ConnectionClosed) as closed,
        ):
            extra.recv(timeout=10)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4429, "rate_limited")
    with ExitStack() as stack:  # the three closed: places are free again
        for _ in range(3):
            table.open(stack)


# ------------------------------------------------------------------ the fuzz

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.sampled_from(["\u0000", "\ud7ff", "play", "draw", "pass", "left", "right", "x" * 600])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(["id", "action", "tile", "end", "seq", "seat", "text", "token", "zz"])
OBJECTS = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    st.sampled_from([*CLIENT_TYPES, "nope", ""]) | SCALARS,
    st.dictionaries(FIELDS, VALUES, max_size=6),
)
# Frames close to valid ones, so the fuzz reaches the service and not only the parser.
PLAUSIBLE = st.fixed_dictionaries(
    {
        "type": st.sampled_from(CLIENT_TYPES),
        "id": st.integers(0, 10**6) | st.text(min_size=1, max_size=8),
    },
    optional={
        "action": st.sampled_from(["play", "draw", "pass"]),
        "tile": st.lists(st.integers(-1, 10), min_size=2, max_size=2),
        "end": st.sampled_from(["left", "right", "up", "down"]),
        "seq": st.integers(0, 40) | st.integers(-5, 2**40),
        "seat": st.integers(-1, 4) | st.none(),
        "text": st.text(min_size=1, max_size=20),
    },
)
FRAMES = (
    PLAUSIBLE.map(json.dumps)
    | PLAUSIBLE.map(json.dumps)
    | OBJECTS.map(json.dumps)
    | VALUES.map(json.dumps)
    | st.text(max_size=60)
    | st.binary(max_size=60)
)


class Fuzzer:
    def __init__(self, table: Table, stack: ExitStack) -> None:
        self.table, self.stack = table, stack
        self.socket = table.open(stack)
        self.frames = 0
        self.answers: dict[str, int] = {}

    def send(self, frame: str | bytes) -> None:
        self.frames += 1
        try:
            self.socket.send(frame)
            answer = _answer(self.socket)
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            assert code is not None and code != 1011 and not 4500 <= code < 4600, code
            self.socket = self.table.open(self.stack)
            return
        kind = answer["type"]
        if kind == "error":
            status = int(answer["error"]["status"])
            assert status < 500, (frame, answer)
            kind = str(status)
        self.answers[kind] = self.answers.get(kind, 0) + 1


def test_no_frame_gets_a_5xx_like_answer(table: Table) -> None:
    with ExitStack() as stack:
        fuzzer = Fuzzer(table, stack)

        @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
        @given(frame=FRAMES)
        def one_frame(frame: str | bytes) -> None:
            fuzzer.send(frame)

        one_frame()
    assert fuzzer.frames >= 400
    # The fuzz reached both the parser's refusals and the service behind it.
    answers = fuzzer.answers
    assert answers.get("400", 0) > 0 and answers.get("422", 0) > 0, answers
    assert answers.get("ack", 0) + answers.get("409", 0) + answers.get("403", 0) > 0, answers


# ------------------------------------------------------------------ issue 26

SOCKETS = 20
FRAME = b"\x00" * (16 * 1024 * 1024)
MB = 1024 * 1024


def _refused(url: str, frame: bytes | str, compression: str | None) -> int | None:
    """Send one frame on a new unauthenticated socket; the close code the server sent."""
    with connect(url, max_size=None, compression=compression) as socket:
        try:
            socket.send(frame)
            while True:
                socket.recv(timeout=30)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


def _extensions(server: ServerProcess) -> list[str]:
    """What the server agreed to of a client offering permessage-deflate, as browsers do."""
    with connect(f"{server.ws_url}/v1/lobby/ws?preset=draw", compression="deflate") as socket:
        return [extension.name for extension in socket.protocol.extensions]


async def test_sockets_are_compressed_only_when_the_operator_says(
    server: ServerProcess, live_server: LiveServer
) -> None:
    """Off by default (app/serving.py): a fanned-out frame was compressed again per socket."""
    async with live_server() as default:
        assert await asyncio.to_thread(_extensions, default) == []
    assert _extensions(server) == ["permessage-deflate"]  # DOMINO_WS_DEFLATE=true


def test_big_frames_are_refused_before_they_are_read(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        table = _table(http, server)
    rss = psutil.Process(server.pid)
    before = rss.memory_info().rss
    codes = [_refused(table.url, FRAME, "deflate") for _ in range(SOCKETS)]
    grown = rss.memory_info().rss - before
    print(f"RSS {before / MB:.1f} MB, +{grown / MB:.1f} MB after {SOCKETS} x 16 MiB frames")
    assert codes == [1009] * SOCKETS
    # One frame held whole would be 16 MiB; twenty were 320.
    assert grown < 8 * MB
    # Uncompressed, the frame's declared length alone refuses it.
    assert _refused(table.url, "x" * (1024 * 1024), None) == 1009


def test_a_deeply_nested_frame_is_an_error_frame_and_logged(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        table = _table(http, server)
    with ExitStack() as stack:
        socket = table.open(stack)
        socket.send("[" * 20_000 + "]" * 20_000)
        answer = _answer(socket)
        assert answer["type"] == "error" and answer["error"]["status"] == 400, answer
        assert "nested too deeply" in answer["error"]["detail"]
        socket.send(json.dumps({"type": "ping", "id": 1}))
        assert _answer(socket) == {"type": "pong", "id": 1}
    assert server.log_path is not None
    assert "nested too deeply" in server.log_path.read_text()


# ------------------------------------------------------------------ the attack run of 2026-12-04


def test_ids_no_answer_could_carry_are_refused_and_apply_nothing(table: Table) -> None:
    """A move with id 10**30 was applied and the socket closed 1000 without its ack: the
    answer could not be written (JSON numbers beyond 64 bits, lone surrogates)."""
    with ExitStack() as stack:
        socket = table.open(stack)
        with httpx.Client(base_url=table.server.base_url, timeout=10) as http:
            headers = {"Authorization": f"Bearer {table.token}"}
            view = http.get(f"/v1/matches/{table.match_id}", headers=headers).json()
            legal = {k: v for k, v in view["legal"][0].items() if k in ("action", "tile", "end")}
            move = {"type": "move", "seq": view["seq"], **{k: v for k, v in legal.items() if v}}
            for bad_id in ("10" + "0" * 29, "-9223372036854775809", '"\\ud800"'):
                socket.send(json.dumps(move)[:-1] + f', "id": {bad_id}}}')
                answer = _answer(socket)
                assert answer["type"] == "error" and answer["id"] is None, answer
                assert answer["error"]["status"] == 422, answer
                # The detail names the field, not pydantic's members of a union (a lone
                # surrogate is already not JSON the parser reads).
                detail = answer["error"]["detail"]
                field = "body: Invalid JSON" if "ud800" in bad_id else "move.id: "
                assert detail.startswith(field) and "[" not in detail, detail
            after = http.get(f"/v1/matches/{table.match_id}", headers=headers).json()
        assert after["seq"] == view["seq"]
        socket.send(json.dumps({**move, "id": 2**63 - 1}))
        assert _answer(socket)["type"] == "ack"


def test_digits_other_than_ascii_in_the_query_close_4422_and_free_the_slot(
    server: ServerProcess,
) -> None:
    """`?after=²` passed str.isdigit(), then int() raised: the socket dropped (1006) and kept
    one of the player's slots (3 here) for good."""
    with httpx.Client(base_url=server.base_url, timeout=10) as http:
        table = _table(http, server)
    headers = {"Authorization": f"Bearer {table.token}"}
    for query in ("after=%C2%B2", "seat=%C2%B3", "after=%E2%91%A0", "after=%C2%B2"):
        with connect(f"{table.url}?{query}", additional_headers=headers) as socket:
            with pytest.raises(ConnectionClosed) as closed:
                socket.recv(timeout=10)
            assert closed.value.rcvd is not None
            assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4422, "validation_error")
    with ExitStack() as stack:
        sockets = [table.open(stack) for _ in range(3)]  # every slot is free again
        sockets[0].send(json.dumps({"type": "ping", "id": 1}))
        assert _answer(sockets[0]) == {"type": "pong", "id": 1}
