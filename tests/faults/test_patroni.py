"""Failover run by Patroni (issue 48): etcd and two Patroni nodes, a primary and its synchronous
standby (tests/faults/patroni.py), an API process on the multi-host URL
(`target_session_attrs=read-write`) while players play. The primary's node, its Patroni and its
PostgreSQL, is (a) SIGKILLed (the machine died), or (b) frozen with SIGSTOP (it hung: its
sockets stay open and nothing answers, the case that once held writes for 45 s, until the
frozen server was killed). Its leader key lapses after the ttl and Patroni elects the standby.

Held: every request is answered, 2xx, 4xx or 503 `service_busy` with Retry-After, none left to
the client's own timeout (set well above the documented bound, docs/OPERATING.md "Failover");
writes succeed again on the new leader by themselves, the old one still frozen; every
acknowledged event is on the new leader. Reported, never asserted (the machine may be busy):
how long after the leader changed writes resumed (`writes_resumed_s`), the slowest answer."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from domino_api.store.db import to_asyncpg_url
from tests.faults.conftest import api_processes
from tests.faults.load import (
    RECOVERY_DEADLINE_S,
    Answers,
    answering,
    keep_playing,
    newcomers,
    seat_players,
)
from tests.faults.patroni import Cluster, PatroniNode
from tests.faults.postgres import ServerDir
from tests.ops.test_crash import audit
from tests.support.servers import fresh_database

PLAYERS = 3
# Well above the documented bound of a request during a failover (pool wait + one statement:
# 10 s with the defaults), so an answer held past it shows as a timeout here, not a 503.
CLIENT_TIMEOUT_S = 45.0
FAULTS = {"killed": signal.SIGKILL, "frozen": signal.SIGSTOP}


class CountingTransport(httpx.AsyncHTTPTransport):
    """httpx's transport, counting the requests that the client's own timeout ended."""

    def __init__(self) -> None:
        super().__init__()
        self.timeouts: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return await super().handle_async_request(request)
        except httpx.TimeoutException:
            self.timeouts.append(f"{request.method} {request.url.path}")
            raise


async def new_leader(cluster: Cluster, old: PatroniNode) -> tuple[PatroniNode, float]:
    """The node Patroni promoted once it runs as the primary, and that moment."""
    deadline = time.monotonic() + RECOVERY_DEADLINE_S
    while time.monotonic() < deadline:
        leader = await asyncio.to_thread(cluster.leader)
        if leader is not None and leader is not old:
            return leader, time.monotonic()
        await asyncio.sleep(0.1)
    pytest.fail(cluster.why("Patroni elected no new leader"))


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_patroni_elects_the_standby_and_writes_resume_losing_nothing(
    fault: str, pg_dir: ServerDir, tmp_path: Path, record_property: Any
) -> None:
    cluster = Cluster(pg_dir)
    try:
        await asyncio.to_thread(cluster.start)
        old = cluster.leader()
        assert old is not None
        await fresh_database("domino", old.url())
        answers, stop, transport = Answers(), asyncio.Event(), CountingTransport()
        async with api_processes(cluster.url("domino"), tmp_path, 1) as processes:
            http = httpx.AsyncClient(
                base_url=processes[0].base_url, timeout=CLIENT_TIMEOUT_S, transport=transport
            )
            players = await seat_players(http, PLAYERS, "p")
            load = [asyncio.create_task(keep_playing(http, 0, p, answers, stop)) for p in players]
            load.append(asyncio.create_task(newcomers(http, 0, answers, stop)))
            await asyncio.sleep(2.0)

            await asyncio.to_thread(old.signal_node, FAULTS[fault])
            faulted = time.monotonic()
            leader, elected = await new_leader(cluster, old)
            resumed = await answering(http, 0, answers, elected)
            await asyncio.sleep(2.0)  # and play on, the old primary still down or frozen
            stop.set()
            await asyncio.gather(*load)
            await http.aclose()

        assert transport.timeouts == [], f"held past the client's timeout: {transport.timeouts}"
        assert answers.failures() == [], answers.failures()[:5]
        totals = await audit(to_asyncpg_url(leader.url("domino")), players)
        assert totals["acked_events"] > 0
        moves_after = [a for a in answers.seen if a.status == 200 and a.sent > resumed]
        assert moves_after, "nothing was played after the failover"
    finally:
        await asyncio.to_thread(cluster.stop)

    slowest = max(a.at - a.sent for a in answers.seen)
    record_property("leader_elected_s", round(elected - faulted, 3))
    record_property("writes_resumed_s", round(resumed - elected, 3))
    record_property("slowest_answer_s", round(slowest, 3))
    print(
        f"patroni, primary {fault}: new leader {elected - faulted:.3f} s after the fault,"
        f" writes resumed {resumed - elected:.3f} s after it; slowest answer {slowest:.3f} s;"
        f" {len(answers.busy())} answers 503 of {len(answers.seen)};"
        f" {totals['acked_events']} acknowledged events all on the new leader"
    )
