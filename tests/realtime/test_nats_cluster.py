"""A NATS cluster losing nodes under moves: three `nats-server` nodes routed to each other, two
API processes on different nodes (each lists every node, its own first), sockets on both for
two tables. While moves go on through both processes, the node of process A dies, then the
node both have moved to; then both come back, and the third node, where both are now, hangs
(SIGSTOP). Every socket must get every event of its match,
in order, once; the longest commit-to-receipt time in each phase is printed.

Both processes run with the catch-up off: what repairs the announcements lost with a node is
the reconnect (the listener reads every watched match once it is connected again) and nothing
else. The nodes run without JetStream, as the backend uses core subjects only.
"""

from __future__ import annotations

import asyncio
import itertools
import signal
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from tests.realtime.conftest import SERVER_ENV
from tests.realtime.test_lost_announcement import stored_seqs
from tests.realtime.wsclient import Socket, rest_step, start, two_seat_match
from tests.support.servers import ServerProcess
from tests.support.services import NatsNode, cluster, stop_all

CATCH_UP_OFF = "3600"
TABLES = 2
MOVES_PER_PHASE = 8
WAIT_S = 120.0  # a bound on any one wait, generous for a loaded machine


@dataclass
class Watch:
    """One socket's receipts: (seq, commit moment, receipt moment) per event."""

    match_id: str
    socket: Socket
    got: list[tuple[int, float, float]] = field(default_factory=list)

    async def run(self) -> None:
        while True:
            message = await self.socket.recv(timeout=WAIT_S)
            if message["type"] == "event":
                event = message["event"]
                at = datetime.fromisoformat(event["at"].replace("Z", "+00:00")).timestamp()
                self.got.append((event["seq"], at, time.time()))

    def seqs(self) -> list[int]:
        return [seq for seq, _, _ in self.got]


@dataclass
class Moves:
    """Moves through both processes in turn, on both tables, until stopped."""

    clients: list[httpx.AsyncClient]
    tables: list[tuple[str, dict[int, dict[str, Any]]]]
    made: int = 0
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        turns = itertools.product(range(len(self.clients)), range(len(self.tables)))
        for client, table in itertools.cycle(list(turns)):
            if self.stop.is_set():
                return
            match_id, holders = self.tables[table]
            status = await rest_step(self.clients[client], match_id, holders)
            assert status in ("playing", "hand_over"), status
            self.made += 1

    async def until(self, count: int) -> None:
        while self.made < count:
            await asyncio.sleep(0.05)


def listener_on(node: NatsNode, server: ServerProcess) -> bool:
    return f"domino-listener-{server.pid}" in node.client_names()


async def test_every_socket_gets_every_event_while_nats_nodes_die(
    ws_database: str, tmp_path: Path
) -> None:
    nodes = cluster(3, tmp_path)
    n1, n2, n3 = nodes
    base = {**SERVER_ENV, "DOMINO_ANNOUNCE_BACKEND": "nats", "DOMINO_CATCH_UP_S": CATCH_UP_OFF}
    a = ServerProcess(
        ws_database,
        tmp_path / "a.log",
        env={**base, "DOMINO_NATS_URL": ",".join(n.url for n in (n1, n2, n3))},
    )
    b = ServerProcess(
        ws_database,
        tmp_path / "b.log",
        env={**base, "DOMINO_NATS_URL": ",".join(n.url for n in (n2, n3, n1))},
    )
    tasks: list[asyncio.Task[None]] = []
    clients: list[httpx.AsyncClient] = []
    watches: list[Watch] = []
    try:
        for node in nodes:
            node.start()
        for node in nodes:
            await node.wait_ready(routes=2)
        for server in (a, b):
            server.start()
        for server in (a, b):
            await server.wait_ready_async()
        clients = [httpx.AsyncClient(base_url=s.base_url, timeout=30.0) for s in (a, b)]
        tables = []
        for _ in range(TABLES):
            ana, bob, created = await two_seat_match(clients[0], target=500)
            await start(clients[0], ana, created["id"])
            tables.append((created["id"], {0: ana, 1: bob}))
            for server in (a, b):
                socket = await Socket.open(server.ws_url, created["id"], ana["token"], after=0)
                watches.append(Watch(created["id"], socket))
        # Each process listens on a node of its own (the first of its list).
        assert listener_on(n1, a) and listener_on(n2, b)
        moves = Moves(clients, tables)
        tasks = [asyncio.create_task(w.run()) for w in watches]
        tasks.append(asyncio.create_task(moves.run()))

        phases: list[tuple[str, float]] = [("steady", time.time())]
        await asyncio.wait_for(moves.until(MOVES_PER_PHASE), WAIT_S)
        n1.kill()  # A's node
        phases.append(("n1 lost (A's node)", time.time()))
        await asyncio.wait_for(moves.until(2 * MOVES_PER_PHASE), WAIT_S)
        n2.kill()  # B's node, where A went too
        phases.append(("n1 and n2 lost", time.time()))
        await asyncio.wait_for(moves.until(3 * MOVES_PER_PHASE), WAIT_S)
        assert listener_on(n3, a) and listener_on(n3, b)
        for node in (n1, n2):
            node.start()
        for node in (n1, n2):
            await node.wait_ready(routes=2)
        phases.append(("n1 and n2 back", time.time()))
        await asyncio.wait_for(moves.until(4 * MOVES_PER_PHASE), WAIT_S)
        n3.pause()  # where both are now: hung, its connections open, no answer
        phases.append(("n3 hung", time.time()))
        await asyncio.wait_for(moves.until(5 * MOVES_PER_PHASE), WAIT_S)
        # Both leave the hung node (its pings go unanswered) and every move reaches the
        # other process's sockets while it is still stopped.
        hung = {m: (await stored_seqs(ws_database, m))[-1] for m, _ in tables}
        await asyncio.wait_for(_all_through(watches, hung), WAIT_S)
        assert n3.paused()
        moves.stop.set()
        await asyncio.wait_for(tasks.pop(), WAIT_S)

        last = {m: (await stored_seqs(ws_database, m))[-1] for m, _ in tables}
        await asyncio.wait_for(_all_through(watches, last), WAIT_S)
        for watch in watches:
            # Every event in order, none lost or doubled, through the last move at least (a
            # presence event may follow the moves: it must then come in order too).
            seqs = watch.seqs()
            assert seqs == list(range(1, seqs[-1] + 1)) and seqs[-1] >= last[watch.match_id]
        _report(phases, watches)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for watch in watches:
            await watch.socket.close()
        for client in clients:
            await client.aclose()
        for server in (a, b):
            server.stop(signal.SIGTERM)
        stop_all(nodes)


async def _all_through(watches: list[Watch], last: dict[str, int]) -> None:
    while any(not w.got or w.got[-1][0] < last[w.match_id] for w in watches):
        await asyncio.sleep(0.05)


def _report(phases: list[tuple[str, float]], watches: list[Watch]) -> None:
    """The longest commit-to-receipt time of the events committed in each phase."""
    bounds = [moment for _, moment in phases[1:]] + [float("inf")]
    print()
    for (name, began), ended in zip(phases, bounds, strict=True):
        lags = [received - at for w in watches for _, at, received in w.got if began <= at < ended]
        worst = max(lags, default=0.0) * 1000
        print(f"NATS cluster, {name}: {len(lags)} receipts, longest delivery {worst:.0f} ms")
