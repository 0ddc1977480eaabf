"""The socket write path (issue 49): a step reaches each socket in one write of frames encoded
once per audience; seated sockets are written at once and spectators in slices, so a mover's
ack never waits behind them; keepalives are spread over their interval, to quiet sockets only."""

from __future__ import annotations

import asyncio
import json
import math
import socket
from typing import Any

import httpx

from domino_api.matches.ports import Committed
from domino_api.realtime.hub import Hub, Subscriber
from domino_api.realtime.keepalive import Keepalives
from domino_api.realtime.outbox import SLICE, Frame, Outbox
from domino_api.web.transport import Wire
from tests.jobs.factory import two_seat_match
from tests.realtime.test_hub import AT, FakeLog
from tests.realtime.test_sent_once import _staged
from tests.realtime.wsclient import Socket
from tests.support.servers import ServerProcess


class CountedWire(Wire):
    """A real socket's transport, counting the writes made to it."""

    writes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        super().write(data)


async def _wired(subscriber: Subscriber) -> socket.socket:
    """Give `subscriber` a wire over one end of a real socket pair; returns the other end."""
    ours, theirs = socket.socketpair()
    transport, _ = await asyncio.get_running_loop().create_connection(asyncio.Protocol, sock=ours)
    subscriber.wire = CountedWire(transport)
    theirs.setblocking(False)
    return theirs


def _frames(data: bytes) -> list[dict[str, Any]]:
    """The JSON of each whole unmasked text frame in `data` (RFC 6455 5.2)."""
    out, at = [], 0
    while at + 2 <= len(data):
        assert data[at] == 0x81  # FIN, text
        size, start = data[at + 1], at + 2
        if size == 126:
            size, start = int.from_bytes(data[start : start + 2], "big"), start + 2
        if start + size > len(data):
            break
        out.append(json.loads(data[start : start + size]))
        at = start + size
    return out


async def _received(end: socket.socket, frames: int) -> list[dict[str, Any]]:
    data = await asyncio.get_running_loop().sock_recv(end, 1 << 20)
    while len(_frames(data)) < frames:
        data += await asyncio.get_running_loop().sock_recv(end, 1 << 20)
    return _frames(data)


def _writes(subscriber: Subscriber) -> int:
    assert isinstance(subscriber.wire, CountedWire)
    return subscriber.wire.writes


async def _hub_with(subscribers: list[Subscriber]) -> tuple[Hub, FakeLog]:
    log = FakeLog()
    hub = Hub(None, reader=log.read)
    for subscriber in subscribers:
        hub.subscribe(subscriber)
    await hub.sync("m")
    return hub, log


async def test_a_step_is_one_write_per_socket_encoded_once_per_audience() -> None:
    subscribers = [Subscriber("m", seat, 0, 100) for seat in (0, 1, None, None, None)]
    ends = [await _wired(s) for s in subscribers]
    hub, log = await _hub_with(subscribers)
    log.commit(3)
    hub.hand_over(Committed("m", 3, [_staged(row) for row in log.rows], AT))
    while hub.flusher.waiting:
        await asyncio.sleep(0)
    assert [_writes(s) for s in subscribers] == [1] * 5
    got = [await _received(end, 3) for end in ends]
    assert all([e["event"]["seq"] for e in frames] == [1, 2, 3] for frames in got)
    assert all(("tile" in e["event"]["data"]) == (n == 1) for n, f in enumerate(got) for e in f)
    assert got[2] == got[3] == got[4]  # the spectators' copy


async def test_the_movers_ack_is_written_before_the_spectators_frames() -> None:
    mover = Subscriber("m", 0, 0, 100)
    spectators = [Subscriber("m", None, 0, 100) for _ in range(2 * SLICE + 1)]
    mover_end = await _wired(mover)
    for spectator in spectators:
        await _wired(spectator)
    hub, log = await _hub_with([mover, *spectators])
    log.commit(2)
    turns = hub.flusher.turns
    hub.hand_over(Committed("m", 2, [_staged(row) for row in log.rows], AT))
    assert _writes(mover) == 1 and not any(_writes(s) for s in spectators)
    mover.send(Frame(b'{"type":"ack","id":"r1","seq":2}'))
    assert _writes(mover) == 2 and not any(_writes(s) for s in spectators)
    written = []
    while hub.flusher.waiting:
        await asyncio.sleep(0)
        written.append(sum(_writes(s) for s in spectators))
    assert all(b - a <= SLICE for a, b in zip([0, *written], written, strict=False))
    assert written[-1] == len(spectators)
    assert hub.flusher.turns - turns == math.ceil(len(spectators) / SLICE)
    assert [f["type"] for f in await _received(mover_end, 3)] == ["event", "event", "ack"]


async def test_the_movers_events_and_ack_are_one_write() -> None:
    """A step committed by the task answering a socket's request leaves that socket's events
    to the answer: events and ack leave in one write; the other seat is written at once."""
    mover, other = Subscriber("m", 0, 0, 100), Subscriber("m", 1, 0, 100)
    mover_end = await _wired(mover)
    await _wired(other)
    hub, log = await _hub_with([mover, other])
    log.commit(2)
    mover.answering = asyncio.current_task()
    hub.hand_over(Committed("m", 2, [_staged(row) for row in log.rows], AT))
    mover.answering = None
    assert (_writes(mover), _writes(other)) == (0, 1)
    mover.send(Frame(b'{"type":"ack","id":"r1","seq":2}'))
    assert _writes(mover) == 1
    assert [f["type"] for f in await _received(mover_end, 3)] == ["event", "event", "ack"]


async def test_a_step_of_another_task_is_written_to_an_answering_socket_at_once() -> None:
    mover = Subscriber("m", 0, 0, 100)
    await _wired(mover)
    hub, log = await _hub_with([mover])
    log.commit(2)
    mover.answering = asyncio.current_task()
    step = Committed("m", 2, [_staged(row) for row in log.rows], AT)
    await asyncio.get_running_loop().create_task(_hand_over(hub, step))
    assert _writes(mover) == 1  # not left waiting for an answer that is not this step's


async def _hand_over(hub: Hub, step: Committed) -> None:
    hub.hand_over(step)


async def test_keepalives_are_spread_and_only_quiet_sockets_get_them() -> None:
    made = []

    def make() -> Frame:
        made.append(1)
        return Frame(b'{"type":"keepalive","now":"2026-12-07T00:00:00Z"}')

    keepalives = Keepalives(20.0, make)
    outboxes = [Outbox(10, 1 << 20) for _ in range(1000)]
    for outbox in outboxes:
        keepalives.add(outbox)
    busy = outboxes[:50]
    now = asyncio.get_running_loop().time()
    for outbox in busy:
        outbox.send(Frame(b'{"type":"pong","id":1}'))  # written just now: not quiet
    bound = math.ceil(len(outboxes) / keepalives.slots)
    sent = [keepalives.tick(now) for _ in range(keepalives.slots)]
    assert keepalives.slots > 1 and max(sent) <= bound
    assert sum(sent) == len(outboxes) - len(busy)
    assert len(made) <= keepalives.slots  # encoded once per tick, never per socket
    assert all(o.queue.qsize() == 1 for o in outboxes)  # the busy ones: their pong alone
    keepalives.remove(outboxes[-1])
    assert sum(keepalives.tick(now + keepalives.period) for _ in range(keepalives.slots)) == 999


async def test_a_quiet_match_socket_is_sent_keepalives(servers: list[ServerProcess]) -> None:
    async with httpx.AsyncClient(base_url=servers[0].base_url) as http:
        ana, _, created = await two_seat_match(http)
        ws = await Socket.open(servers[0].ws_url, created["id"], ana["token"])
        kinds = [(await ws.recv(keepalive=True))["type"]]
        for _ in range(10):  # bounded: the seat's own events may come first
            kinds.append((await ws.recv(keepalive=True))["type"])
            if kinds[-1] == "keepalive":
                break
        await ws.close()
    assert kinds[0] == "snapshot" and kinds[-1] == "keepalive"
