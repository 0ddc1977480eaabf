"""Failover to a streaming standby (issue 41): a primary and its synchronous standby, two API
processes on a multi-host URL (`target_session_attrs=read-write`), players playing and
sockets watching on the other process. The primary is killed (SIGKILL, every process of it)
and the standby promoted (`pg_ctl promote`).

Held: every acknowledged move is on the new primary (the standby acknowledged each commit,
`synchronous_standby_names`); the service answers only 2xx, 4xx and 503 `service_busy`
throughout; writes resume by themselves; every socket stays open and receives every event
in order, with no gap. Reported: how long after the promotion writes resumed (never
asserted: the machine may be busy)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from domino_api.store.db import to_asyncpg_url, to_plain_url
from tests.faults.conftest import api_processes
from tests.faults.load import (
    RECOVERY_DEADLINE_S,
    Answers,
    answering,
    keep_playing,
    newcomers,
    seat_players,
)
from tests.faults.postgres import PgServer, ServerDir
from tests.ops.test_crash import Client, audit
from tests.realtime.wsclient import Socket
from tests.support.servers import fresh_database

PLAYERS_PER_PROCESS = 2


def test_a_multi_host_url_reaches_sqlalchemy_and_asyncpg_alike() -> None:
    plain = "postgresql://app:s%40cret@db1:5432,db2:5433/domino?target_session_attrs=read-write"
    ours = to_asyncpg_url(plain)
    assert ours == (
        "postgresql+asyncpg://app:s%40cret@/domino"
        "?host=db1:5432&host=db2:5433&target_session_attrs=read-write"
    )
    assert to_plain_url(ours) == plain
    single = "postgresql://postgres@127.0.0.1:5432/postgres"
    assert to_plain_url(to_asyncpg_url(single)) == single


async def synchronous(primary: PgServer) -> None:
    """The primary waits for its standby's flush on every commit, from when the standby
    streams (set once it does: before, every commit would wait for a standby to come)."""
    deadline = time.monotonic() + RECOVERY_DEADLINE_S
    connection = await asyncpg.connect(primary.url())
    try:
        await connection.execute("ALTER SYSTEM SET synchronous_standby_names = '*'")
        await connection.execute("SELECT pg_reload_conf()")
        while time.monotonic() < deadline:
            states = await connection.fetch("SELECT sync_state FROM pg_stat_replication")
            if [row["sync_state"] for row in states] == ["sync"]:
                return
            await asyncio.sleep(0.1)
    finally:
        await connection.close()
    pytest.fail(f"the standby never became synchronous:\n{primary.log_tail()}")


class Watcher:
    """A socket on a match, kept open through the fault: every event's seq, in order."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.seqs: list[int] = []
        self.closed: BaseException | None = None
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        try:
            while True:
                message = await self.socket.recv(timeout=RECOVERY_DEADLINE_S)
                if message["type"] == "event":
                    self.seqs.append(message["event"]["seq"])
        except Exception as exc:  # closed, or silent for a minute: the test says which
            self.closed = exc

    async def until(self, seq: int) -> None:
        deadline = time.monotonic() + RECOVERY_DEADLINE_S
        while (not self.seqs or self.seqs[-1] < seq) and time.monotonic() < deadline:
            assert self.closed is None, f"the socket stopped: {self.closed!r}"
            await asyncio.sleep(0.05)
        self.task.cancel()
        await self.socket.close()


async def watch(ws_base: str, player: Client) -> Watcher:
    """The player's own socket on the match, from the seq its view is at."""
    socket = await Socket.open(ws_base, player.match_id, player.token, after=player.view["seq"])
    return Watcher(socket)


async def test_failover_to_the_standby_loses_nothing_and_resumes_by_itself(
    pg_dir: ServerDir, tmp_path: Path, record_property: Any
) -> None:
    primary, standby = PgServer(pg_dir, "primary"), PgServer(pg_dir, "standby")
    primary.init()
    primary.start()
    await fresh_database("domino", primary.url())
    standby.clone_of(primary)
    standby.start()
    await synchronous(primary)
    hosts = f"127.0.0.1:{primary.port},127.0.0.1:{standby.port}"
    url = f"postgresql://postgres@{hosts}/domino?target_session_attrs=read-write"

    answers, stop = Answers(), asyncio.Event()
    async with api_processes(url, tmp_path, 2) as processes:
        clients = [httpx.AsyncClient(base_url=p.base_url, timeout=30.0) for p in processes]
        seated = {
            i: await seat_players(http, PLAYERS_PER_PROCESS, f"p{i}_")
            for i, http in enumerate(clients)
        }
        # Each match watched on the other process: its events reach it by LISTEN/NOTIFY.
        watchers = {
            player.match_id: await watch(processes[1 - i].ws_url, player)
            for i, players in seated.items()
            for player in players
        }
        load = [
            asyncio.create_task(keep_playing(clients[i], i, player, answers, stop))
            for i, players in seated.items()
            for player in players
        ]
        load += [
            asyncio.create_task(newcomers(http, i, answers, stop)) for i, http in enumerate(clients)
        ]
        await asyncio.sleep(2.0)

        await asyncio.to_thread(primary.kill)
        killed = time.monotonic()
        await asyncio.sleep(1.0)  # the service without a primary
        await asyncio.to_thread(standby.promote)  # `pg_ctl -w`: returns once it takes writes
        promoted = time.monotonic()
        resumed = [await answering(http, i, answers, promoted) for i, http in enumerate(clients)]
        await asyncio.sleep(2.0)  # and play on
        stop.set()
        await asyncio.gather(*load)
        players = [player for players in seated.values() for player in players]
        for player in players:
            await watchers[player.match_id].until(player.view["seq"])
        for http in clients:
            await http.aclose()

    assert answers.failures() == [], answers.failures()[:5]
    totals = await audit(to_asyncpg_url(standby.url("domino")), players)
    assert totals["acked_events"] > 0
    for player in players:
        seqs = watchers[player.match_id].seqs
        assert seqs, "the socket received nothing"
        assert seqs == list(range(seqs[0], player.view["seq"] + 1)), "a gap in the socket's events"
    after_kill = [a for a in answers.seen if a.at > killed]
    moves_after = sum(1 for a in after_kill if a.status == 200 and a.at > max(resumed))
    assert moves_after > 0, "nothing was played after the failover"
    resume_s = max(resumed) - promoted
    record_property("writes_resumed_s", round(resume_s, 3))
    print(
        f"failover: writes resumed {resume_s:.3f} s after the promotion on every process;"
        f" {len(answers.busy())} answers 503 service_busy, 0 other 5xx, of {len(answers.seen)};"
        f" {totals['acked_events']} acknowledged events all on the new primary;"
        f" {sum(len(w.seqs) for w in watchers.values())} socket events, no gap"
    )
