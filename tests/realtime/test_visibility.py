"""Who sees a message as what is decided once per event by the hub (realtime/visibility.py),
not by a read per receiving socket: a real server in this process, real sockets, and every
statement it sends to PostgreSQL counted (asyncpg's query logger for the write core's own
statements, SQLAlchemy's hook for the sessions')."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest_asyncio
import uvicorn
from sqlalchemy import event

from domino_api.app.api import create_app
from domino_api.config import Settings
from tests.conftest import COMPUTERS, GENEROUS_LIMITS
from tests.realtime.wsclient import Socket, two_seat_match
from tests.support.servers import free_port

SOCKETS_EACH = 6  # per player: 12 receiving sockets


class Statements:
    """Every statement the app's engine sends, whichever way it goes."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self._seen: set[int] = set()

    def attach(self, engine: Any) -> None:
        sync = engine.sync_engine
        event.listen(sync, "before_cursor_execute", lambda *a: self.sent.append(a[2]))
        event.listen(sync, "checkout", self._on_checkout)

    def _on_checkout(self, dbapi: Any, _record: object, _proxy: object) -> None:
        driver = dbapi.driver_connection
        if id(driver) not in self._seen:
            self._seen.add(id(driver))
            driver.add_query_logger(lambda record: self.sent.append(record.query))


@pytest_asyncio.fixture(loop_scope="session")
async def served(clean_db: str) -> AsyncIterator[tuple[str, Any]]:
    settings = Settings(
        database_url=clean_db, log_json=False, sockets_per_token=50, **GENEROUS_LIMITS
    )
    app = create_app(settings, database_url=clean_db, start_background=False, computers=COMPUTERS)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None)
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        await task


async def _message(socket: Socket) -> dict[str, Any]:
    for _ in range(50):  # bounded: keepalives would keep an unbounded wait alive
        frame = await socket.recv()
        if frame["type"] == "event" and frame["event"]["type"] == "message":
            return dict(frame["event"])
    raise AssertionError("no message event in 50 frames")


async def test_one_message_to_many_sockets_reads_no_mutes_per_socket(
    served: tuple[str, Any],
) -> None:
    where, app = served
    statements = Statements()
    statements.attach(app.state.db_engine)
    async with httpx.AsyncClient(base_url=f"http://{where}") as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        r = await http.put(f"/v1/matches/{match_id}/seats/0/mute", headers=bob["headers"])
        assert r.status_code == 200, r.text
        ws = f"ws://{where}"
        bobs = [await Socket.open(ws, match_id, bob["token"]) for _ in range(SOCKETS_EACH)]
        anas = [await Socket.open(ws, match_id, ana["token"]) for _ in range(SOCKETS_EACH)]
        try:
            for socket in bobs + anas:
                assert (await socket.recv())["type"] == "snapshot"
            hub = app.state.realtime.hub
            await hub.sync(match_id)
            mute_reads, before = hub.mute_reads, len(statements.sent)
            await anas[0].send({"type": "message", "id": "m", "text": "hurry up"})
            got = [await _message(s) for s in bobs + anas]
            during = statements.sent[before:]
            answer = await anas[0].recv()
            assert answer["type"] == "ack", answer
        finally:
            for socket in bobs + anas:
                await socket.close()
    # Twelve receiving sockets, one message: not one read of the mutes, and fewer statements
    # than sockets (the message's own step: a load at most, and its save).
    assert [s for s in during if "mutes" in s.lower()] == []
    # A connection the pool opens meanwhile sets itself up (asyncpg's jit and type look-ups):
    # those are the pool's, not the message's.
    own = [s for s in during if "jit" not in s and "typeinfo" not in s]
    assert len(own) < SOCKETS_EACH, "\n---\n".join(own)
    assert hub.mute_reads == mute_reads
    # ... and still the visibility each receiver is owed: Bob's copies marked, Ana's not.
    assert all(m["seq"] == answer["seq"] for m in got)
    assert [m["data"].get("muted") for m in got] == [True] * SOCKETS_EACH + [None] * SOCKETS_EACH
    # The match's mutes were read for all twelve sockets together: when its feed started, and
    # once more if this process hears the mute's own announcement back after that, never per
    # socket (twelve sockets reading would be twelve reads).
    assert 1 <= hub.mute_reads <= 2
