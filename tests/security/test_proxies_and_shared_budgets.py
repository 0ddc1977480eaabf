"""Attack 3: a rotating X-Forwarded-For no longer buys fresh budgets, a trusted proxy's users
no longer share one, and several API processes share one budget through Redis."""

from __future__ import annotations

import httpx

from tests.security.conftest import LiveServer, unique_prefix


async def _create_players(base_url: str, count: int, forwarded: list[str] | None) -> list[int]:
    statuses = []
    async with httpx.AsyncClient(base_url=base_url, timeout=10) as http:
        for n in range(count):
            headers = {"X-Forwarded-For": forwarded[n % len(forwarded)]} if forwarded else {}
            r = await http.post("/v1/players", json={"name": f"P{n}"}, headers=headers)
            statuses.append(r.status_code)
    return statuses


async def test_a_rotating_forwarded_header_is_ignored_by_default(live_server: LiveServer) -> None:
    async with live_server(DOMINO_CREATE_PLAYER_RATE_LIMIT="5") as server:
        rotating = [f"198.51.100.{n}" for n in range(1, 250)]
        statuses = await _create_players(server.base_url, 9, rotating)
        assert statuses == [201] * 5 + [429] * 4


async def test_behind_a_trusted_proxy_each_client_has_its_own_budget(
    live_server: LiveServer,
) -> None:
    env = {"DOMINO_CREATE_PLAYER_RATE_LIMIT": "3", "DOMINO_TRUSTED_PROXIES": "127.0.0.1"}
    async with live_server(**env) as server:
        # Two users behind the proxy: each gets the whole budget, not a share of the proxy's.
        first = await _create_players(server.base_url, 4, ["203.0.113.10"])
        second = await _create_players(server.base_url, 4, ["203.0.113.20"])
        assert first == [201, 201, 201, 429] and second == [201, 201, 201, 429]
        # A client's own header is kept to the left of what the proxy appends: the proxy's
        # (rightmost) entry is the client, so prepending addresses buys nothing.
        spoofed = [f"10.9.9.{n}, 203.0.113.30" for n in range(1, 9)]
        assert await _create_players(server.base_url, 5, spoofed) == [201] * 3 + [429] * 2
        # And IPv6 clients count by their /64.
        sixes = [f"2001:db8:7:7::{n:x}" for n in range(1, 9)]
        assert await _create_players(server.base_url, 5, sixes) == [201] * 3 + [429] * 2


async def test_two_processes_share_one_budget_in_redis(
    live_server: LiveServer, redis_url: str
) -> None:
    env = {
        "DOMINO_CREATE_PLAYER_RATE_LIMIT": "6",
        "DOMINO_RATE_LIMIT_STORAGE": redis_url,
        "DOMINO_RATE_LIMIT_PREFIX": unique_prefix(),
        # A loaded machine's stall must not pass for an outage (budgets per process then).
        "DOMINO_RATE_LIMIT_TIMEOUT_S": "5",
    }
    async with live_server(**env) as a, live_server(**env) as b:
        on_a = await _create_players(a.base_url, 4, None)
        on_b = await _create_players(b.base_url, 4, None)
        assert on_a == [201] * 4
        assert on_b == [201, 201, 429, 429]
        # In memory (the default) each process would have let all eight through.
        assert (await _create_players(a.base_url, 1, None)) == [429]
