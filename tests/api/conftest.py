"""What the lobby's API tests share (test_lobby.py, test_lobby_edges.py): their database, and an
HTTP client for each of the two servers each module starts (its own `servers` fixture)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
import pytest_asyncio

from domino_api.store.db import to_plain_url
from tests.api.lobby_support import LOBBY_DB
from tests.support.servers import ServerProcess, fresh_database_sync


@pytest.fixture(scope="module")
def lobby_database() -> str:
    return to_plain_url(fresh_database_sync(LOBBY_DB))


@pytest_asyncio.fixture(loop_scope="session")
async def http(servers: list[ServerProcess]) -> AsyncIterator[list[httpx.AsyncClient]]:
    clients = [httpx.AsyncClient(base_url=s.base_url, timeout=30) for s in servers]
    try:
        yield clients
    finally:
        for client in clients:
            await client.aclose()
