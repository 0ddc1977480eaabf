"""Both announcement backends against the real PostgreSQL and NATS: an announcement after a
commit pokes the hub, which reads the committed events by seq; NATS subscribes per match."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import asyncpg
import httpx
import pytest
import pytest_asyncio

from domino_api.config import Settings
from domino_api.matches.ports import Committed
from domino_api.realtime import announce
from domino_api.realtime.announce import Announcer, make_announcer
from domino_api.realtime.hub import Hub, Subscriber
from domino_api.realtime.listener import NatsListener, make_listener
from domino_api.realtime.nats_link import connect
from domino_api.store.db import to_plain_url
from tests.realtime.steps import commit_step
from tests.realtime.wsclient import new_player
from tests.support.servers import free_port

BACKENDS = ["postgres", "nats"]


@pytest_asyncio.fixture(loop_scope="session")
async def pool(clean_db: str) -> AsyncIterator[asyncpg.Pool]:
    created = await asyncpg.create_pool(to_plain_url(clean_db), min_size=1, max_size=2)
    try:
        yield created
    finally:
        await created.close()


async def new_match(client: httpx.AsyncClient) -> tuple[str, int]:
    """A waiting match made over REST; its id and seq."""
    ana = await new_player(client, "Ana")
    body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
    created = await client.post("/v1/matches", json=body, headers=ana["headers"])
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["seq"]


async def next_events(subscriber: Subscriber, count: int) -> list[dict[str, Any]]:
    return [json.loads((await subscriber.queue.get()).text)["event"] for _ in range(count)]


class Side:
    """One process's fan-out: an announcer, a hub over the real table, and its listener."""

    def __init__(
        self, backend: str, app: Any, pool: asyncpg.Pool, database_url: str, nats_url: str
    ) -> None:
        settings = Settings(announce_backend=backend, nats_url=nats_url)  # type: ignore[arg-type]
        self.announcer: Announcer = make_announcer(settings, pool)
        self.hub = Hub(app.state.sessionmaker)
        self.listener = make_listener(settings, database_url, self.hub)

    async def __aenter__(self) -> Side:
        await self.announcer.start()
        await self.listener.start()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.listener.stop()
        await self.announcer.close()

    async def settled(self) -> None:
        if isinstance(self.listener, NatsListener):
            await self.listener.settled()


@pytest.mark.parametrize("backend", BACKENDS)
async def test_one_announcement_delivers_every_committed_event_in_order(
    backend: str,
    app: Any,
    client: httpx.AsyncClient,
    pool: asyncpg.Pool,
    clean_db: str,
    nats_url: str,
) -> None:
    match_id, seq = await new_match(client)
    async with Side(backend, app, pool, clean_db, nats_url) as side:
        watcher = Subscriber(match_id, 0, seq, 100)
        side.hub.subscribe(watcher)
        await side.settled()
        await side.hub.sync(match_id)
        assert watcher.queue.empty()
        # Three commits, announced only by the last: the two before it were lost, and the hub
        # reads them by seq all the same.
        seqs = [await commit_step(pool, match_id, seat) for seat in (0, 1, 0)]
        await side.announcer.announce(match_id, seqs[-1])
        events = await next_events(watcher, 3)
        assert [e["seq"] for e in events] == [seq + 1, seq + 2, seq + 3] == seqs
        assert [e["data"]["seat"] for e in events] == [0, 1, 0]
        assert events[0]["type"] == "seat_connected"


async def test_nats_subscribes_only_to_matches_with_local_subscribers(
    app: Any, client: httpx.AsyncClient, pool: asyncpg.Pool, clean_db: str, nats_url: str
) -> None:
    (watched, w_seq), (other, _) = await new_match(client), await new_match(client)
    async with Side("nats", app, pool, clean_db, nats_url) as side:
        assert isinstance(side.listener, NatsListener)
        first, second = Subscriber(watched, 0, w_seq, 100), Subscriber(watched, 1, w_seq, 100)
        side.hub.subscribe(first)
        side.hub.subscribe(second)
        await side.settled()
        assert side.listener.subscribed() == {watched}
        side.hub.unsubscribe(first)
        await side.settled()
        assert side.listener.subscribed() == {watched}  # one socket still watches it
        # Another match's announcement is not even delivered to this process: published just
        # before the watched one's, on one connection, had it come it would have come first.
        # (The event itself may reach `second` first through a read of the hub's own.)
        before, counted_at = side.listener.received, []
        hub_notify = side.hub.notify

        def notify(match_id: str, seq: int | None = None) -> None:
            if match_id == watched:
                counted_at.append(side.listener.received)
            hub_notify(match_id, seq)

        side.hub.notify = notify  # type: ignore[method-assign]
        await side.announcer.announce(other, await commit_step(pool, other))
        await side.announcer.announce(watched, await commit_step(pool, watched))
        assert (await next_events(second, 1))[0]["seq"] == w_seq + 1
        while not counted_at:  # the watched match's announcement, handled by the listener
            await asyncio.sleep(0.01)
        assert counted_at[0] == before + 1
        side.hub.unsubscribe(second)
        await side.settled()
        assert side.listener.subscribed() == set()
        assert not side.hub.watches(watched)


async def test_nats_watch_and_unwatch_in_quick_turns_end_as_the_hub_is(
    app: Any, client: httpx.AsyncClient, pool: asyncpg.Pool, clean_db: str, nats_url: str
) -> None:
    match_id, seq = await new_match(client)
    async with Side("nats", app, pool, clean_db, nats_url) as side:
        assert isinstance(side.listener, NatsListener)
        for _ in range(5):  # no await between: the reconciliations queue up behind one lock
            gone = Subscriber(match_id, 0, seq, 100)
            side.hub.subscribe(gone)
            side.hub.unsubscribe(gone)
        await side.settled()
        assert side.listener.subscribed() == set()
        stays = Subscriber(match_id, 0, seq, 100)
        side.hub.subscribe(stays)
        side.hub.unsubscribe(Subscriber(match_id, 1, seq, 100))  # never subscribed: no effect
        await side.settled()
        assert side.listener.subscribed() == {match_id}
        await side.announcer.announce(match_id, await commit_step(pool, match_id))
        assert (await next_events(stays, 1))[0]["seq"] == seq + 1


async def test_the_catch_up_reads_exactly_the_matches_behind_the_table(
    app: Any, client: httpx.AsyncClient, pool: asyncpg.Pool
) -> None:
    (behind, b_seq), (level, l_seq) = await new_match(client), await new_match(client)
    realtime = app.state.realtime  # the app's own hub; its listener is not started here
    lagging, current = Subscriber(behind, 0, b_seq, 100), Subscriber(level, 0, l_seq, 100)
    realtime.hub.subscribe(lagging)
    realtime.hub.subscribe(current)
    await asyncio.gather(realtime.hub.sync(behind), realtime.hub.sync(level))
    assert await realtime.catch_up() == []
    await commit_step(pool, behind)  # committed, never announced
    assert await realtime.catch_up() == [behind]
    assert (await next_events(lagging, 1))[0]["seq"] == b_seq + 1
    assert current.queue.empty()
    assert await realtime.catch_up() == []
    realtime.hub.unsubscribe(lagging)
    realtime.hub.unsubscribe(current)


async def test_nats_unreachable_fails_the_start_and_never_an_announcement() -> None:
    closed = f"nats://127.0.0.1:{free_port()}"  # nothing listens there
    with pytest.raises(ConnectionError, match="did not answer"):
        await connect([closed], "test", timeout=0.5)
    settings = Settings(announce_backend="nats", nats_url=closed)
    announcer = make_announcer(settings, None)  # type: ignore[arg-type]  # no pool for NATS
    await announcer.announce("m", 1)  # not started: logged and dropped, the table repairs it
    await announcer.close()


def test_the_nats_url_may_list_several_servers() -> None:
    settings = Settings(nats_url=" nats://n1:4222, nats://n2:4222,,nats://n3:4222 ")
    assert settings.nats_servers == ["nats://n1:4222", "nats://n2:4222", "nats://n3:4222"]
    assert Settings(nats_url="nats://solo:4222").nats_servers == ["nats://solo:4222"]


async def test_a_process_connects_to_the_first_listed_server_that_answers(nats_url: str) -> None:
    closed = f"nats://127.0.0.1:{free_port()}"  # nothing listens there
    nc = await connect([closed, nats_url], "test", timeout=10)
    try:
        assert nc.is_connected
        assert nc.connected_url is not None
        assert nc.connected_url.port == urlsplit(nats_url).port
    finally:
        await nc.close()


async def test_a_local_hand_over_comes_before_the_backend_and_without_it() -> None:
    """Local first: `announce` hands the step to this process's hook at once, even when the
    backend is not even started (as when it is unreachable)."""
    settings = Settings(announce_backend="nats", nats_url=f"nats://127.0.0.1:{free_port()}")
    announcer = make_announcer(settings, None)  # type: ignore[arg-type]  # no pool for NATS
    handed: list[tuple[str, int]] = []
    announcer.deliver_locally(lambda step: handed.append((step.match_id, step.seq)))
    await announcer.announce("m", 1)
    await announcer.announce_many([("m", 2), ("n", 7)])
    await announcer.announce_committed([Committed("n", 8, (), datetime.now(UTC))])
    assert handed == [("m", 1), ("m", 2), ("n", 7), ("n", 8)]
    announcer.deliver_locally(None)
    await announcer.announce("m", 3)
    assert handed[-1] == ("n", 8)
    await announcer.close()


async def heard_after(conn: asyncpg.Connection, heard: list[str]) -> list[str]:
    # A round trip on the listening connection: NOTIFYs committed before it arrive first.
    await conn.execute("SELECT 1")
    return list(heard)


async def test_queued_announcements_keep_each_matchs_highest_seq_in_order_of_latest_arrival(
    pool: asyncpg.Pool, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    heard: list[str] = []
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        await conn.add_listener(announce.CHANNEL, lambda *args: heard.append(args[3]))
        announcer = make_announcer(Settings(), pool)
        await announcer.start()
        # Queued without a pause, so the sending task sees them all in one batch.
        await announcer.announce_many([("a", 1), ("b", 5), ("a", 3)])
        await announcer.announce("a", 2)  # older than what is queued: adds nothing
        await announcer.close()  # sends what is queued
        assert await heard_after(conn, heard) == ["b:5", "a:3"]
        # A full queue drops a match it does not hold yet, and still raises a held one's seq.
        heard.clear()
        monkeypatch.setattr(announce, "QUEUE_MATCHES", 2)
        stopped = make_announcer(Settings(), pool)  # never started: close() sends the queue
        await stopped.announce_many([("a", 1), ("b", 1), ("c", 1), ("a", 4)])
        await stopped.close()
        assert await heard_after(conn, heard) == ["b:1", "a:4"]
        # A mute announced between two steps of its match goes out before the later step, so
        # another process reads the mutes again before it delivers that step's talk.
        heard.clear()
        monkeypatch.setattr(announce, "QUEUE_MATCHES", 10)
        muting = make_announcer(Settings(), pool)
        await muting.announce("m", 1)
        await muting.announce_visibility("m")
        await muting.announce("m", 2)
        await muting.close()
        assert await heard_after(conn, heard) == ["m:visibility", "m:2"]
    finally:
        await conn.close()


class CountingPool:
    """An asyncpg pool that counts the statements sent through it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.statements = 0

    async def execute(self, query: str, *args: object) -> str:
        self.statements += 1
        return await self.pool.execute(query, *args)


async def test_announcements_gather_before_a_send_so_one_statement_carries_them(
    pool: asyncpg.Pool, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first announcement wakes the sending task, which lets `GATHER_S` pass before it
    sends: steps announced meanwhile, each in a turn of the loop of its own (as concurrent
    requests commit), share the one NOTIFY statement."""
    monkeypatch.setattr(announce, "GATHER_S", 0.5)  # far longer than the turns below take
    heard: list[str] = []
    counting = CountingPool(pool)
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        await conn.add_listener(announce.CHANNEL, lambda *args: heard.append(args[3]))
        announcer = make_announcer(Settings(), counting)  # type: ignore[arg-type]
        await announcer.start()
        for step in [("a", 1), ("b", 1), ("c", 2)]:
            await announcer.announce(*step)
            for _ in range(3):
                await asyncio.sleep(0)  # the sending task runs: it is waiting, not sending
        assert counting.statements == 0
        while len(await heard_after(conn, heard)) < 3:
            await asyncio.sleep(0.05)
        assert heard == ["a:1", "b:1", "c:2"]
        assert counting.statements == 1
        await announcer.close()
    finally:
        await conn.close()
