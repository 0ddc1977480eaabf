"""One LISTEN connection per process: NOTIFY payloads `match_id:seq` poke the hub.

The payload is only a hint of which match moved; the hub reads the events themselves from the
event table. When the connection drops, the listener reconnects and pokes every match, since
NOTIFYs sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncpg

from domino_api.realtime.hub import Hub
from domino_api.store.db import to_plain_url
from domino_api.store.matches_repo import CHANNEL

log = logging.getLogger(__name__)


def parse_payload(payload: str) -> str | None:
    """The match id of a `match_id:seq` payload, or None when it is not one."""
    match_id, sep, seq = payload.rpartition(":")
    if not sep or not match_id or len(match_id) > 36 or not seq.isdigit():
        return None
    return match_id


class Listener:
    def __init__(self, database_url: str, hub: Hub) -> None:
        self._url = to_plain_url(database_url)
        self._hub = hub
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._lost = asyncio.Event()

    async def start(self, timeout: float = 10.0) -> None:
        """Start listening; returns once LISTEN is in place (so nothing after it is missed)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())
        await asyncio.wait_for(self._ready.wait(), timeout)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        match_id = parse_payload(payload)
        if match_id is not None:
            self._hub.notify(match_id)

    def _on_terminate(self, _conn: Any) -> None:
        self._lost.set()

    async def _run(self) -> None:
        delay = 0.2
        while True:
            connection = None
            try:
                connection = await asyncpg.connect(self._url)
                connection.add_termination_listener(self._on_terminate)
                await connection.add_listener(CHANNEL, self._on_notify)
                self._lost.clear()
                self._ready.set()
                delay = 0.2
                self._hub.poke_all()
                await self._watch(connection)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("LISTEN connection lost (%s); reconnecting in %.1fs", exc, delay)
            finally:
                if connection is not None and not connection.is_closed():
                    await _close_quietly(connection)
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)

    async def _watch(self, connection: asyncpg.Connection) -> None:
        """Wait for the connection to drop; a cheap query now and then notices a dead peer."""
        while not self._lost.is_set():
            try:
                await asyncio.wait_for(self._lost.wait(), 15.0)
            except TimeoutError:
                await asyncio.wait_for(connection.execute("SELECT 1"), 10.0)
        raise ConnectionError("LISTEN connection closed")


async def _close_quietly(connection: asyncpg.Connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), 2.0)
    except Exception:
        connection.terminate()
