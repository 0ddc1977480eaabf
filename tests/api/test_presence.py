"""A request about the match counts as presence (docs/API.md, "The away rule"; issue 25): a seat
played over REST alone shows connected, announced by `seat_connected`, until its lease lapses."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import text

from domino_api import engine
from domino_api.clock import FakeClock
from domino_api.engine import table as tables
from domino_api.jobs.sweeper import sweep_pass
from domino_api.matches import presence
from domino_api.store import matches_repo as repo
from domino_api.store import presence_repo
from domino_api.store.db import to_plain_url, transaction
from tests.api.helpers import create_match, new_player, view

HUMANS = [{"type": "human"}, {"type": "human"}]
WAITING = "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = $1"


async def _presence(client: httpx.AsyncClient, who: dict[str, Any], mid: str) -> list[Any]:
    found = await client.get(f"/v1/matches/{mid}/events", headers=who["headers"])
    kinds = ("seat_connected", "seat_disconnected")
    return [(e["type"], e["data"]["seat"]) for e in found.json()["events"] if e["type"] in kinds]


async def test_a_seat_seen_only_over_rest_is_connected_until_its_lease_lapses(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200
    # Issue 41: the joiner is at the table in the answer to its join (and the host, at its
    # table from the creation on); the join announces it.
    assert [s["connected"] for s in joined.json()["seats"]] == [True, True]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    bobs = await view(client, bob, mid)  # Bob's own request: he is at the table
    seen = await view(client, ana, mid)
    assert [s["connected"] for s in seen["seats"]] == [True, True]
    assert [s["away_since"] for s in seen["seats"]] == [None, None]
    assert await _presence(client, ana, mid) == [("seat_connected", 1)]

    clock.advance(20)
    await view(client, ana, mid)  # Ana keeps looking in; Bob is quiet
    clock.advance(11)  # 31 s since Bob's last request: his lease (30 s) has lapsed
    await sweep_pass(core=app.state.core)  # the expiry records it
    seen = await view(client, ana, mid)
    assert [s["connected"] for s in seen["seats"]] == [True, False]
    # Away since the moment his lease ran out: his last request plus the lease (issue 41).
    last = bobs["now"].replace("Z", "+00:00")
    lease_end = datetime.fromisoformat(last) + timedelta(seconds=30)
    assert seen["seats"][1]["away_since"] == lease_end.isoformat().replace("+00:00", "Z")
    assert (await _presence(client, ana, mid))[-1] == ("seat_disconnected", 1)

    back = await view(client, bob, mid)  # one request brings him back
    assert back["seats"][1]["connected"] is True
    assert (await _presence(client, ana, mid))[-1] == ("seat_connected", 1)


async def test_a_late_lease_refresh_never_shows_a_present_seat_as_gone(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    """The flaky /play test (issue 25): on a loaded machine a socket's lease was renewed late, a
    view taken in between showed the seat gone, and no event ever turned it back on (the
    seat had never been marked gone). The view now shows what the events say."""
    core = app.state.core
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    await presence.connect_seats(core, mid, [0])  # Ana's socket opens on this process
    clock.advance(31)  # her lease ran out: the refresh is late
    seen = await view(client, bob, mid)
    assert seen["seats"][0]["connected"] is True  # nothing said she had gone
    await presence.hold_leases(core, [(mid, 0, ana["id"])])  # the late refresh renews it
    assert (await view(client, bob, mid))["seats"][0]["connected"] is True
    # She was never marked gone (connected from the creation), so no seat_connected follows.
    assert await _presence(client, bob, mid) == [("seat_connected", 1)]  # Bob's join


async def _lease_of(maker: Any, mid: str, seat: int) -> tuple[Any, int]:
    """The seat's socket lease and the match row's version, as stored."""
    async with transaction(maker) as session:
        row = (
            await session.execute(
                text(
                    "SELECT s.connected_until, m.xmin::text::bigint FROM seats s "
                    "JOIN matches m ON m.id = s.match_id WHERE m.id = :m AND s.seat = :s"
                ),
                {"m": mid, "s": seat},
            )
        ).one()
    return row[0], int(row[1])


async def test_a_lease_renewal_is_a_guarded_step_that_leaves_the_version_alone(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    core, maker = app.state.core, app.state.sessionmaker
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    await presence.connect_seats(core, mid, [0], by=ana["id"])
    _, version = await _lease_of(maker, mid, 0)
    clock.advance(10)
    await presence.hold_leases(core, [(mid, 0, ana["id"]), (mid, 1, ana["id"])])
    until, after = await _lease_of(maker, mid, 0)
    assert until == clock.now() + timedelta(seconds=presence.LEASE_S)
    assert after == version  # only lease marks: the row and its version stay
    # Bob's seat is not Ana's to renew: her socket never marks it present.
    assert (await _lease_of(maker, mid, 1))[0] is None
    assert (await _presence(client, ana, mid)).count(("seat_connected", 1)) == 1  # his join's


async def _marks_change(core: Any, mid: str, now: Any) -> repo.Change:
    async with core.pool.acquire() as connection:
        found = await repo.read(connection, mid)
        assert found is not None
        state = engine.from_json(await repo.snapshot(connection, mid, found.version))
    table = found.table(state)
    renewed = tables.step(table, tables.Connect((0,), 30.0), now)
    assert renewed.events == ()  # the seat is connected already: marks only
    change = repo.Change(table, renewed.table, found.version, renewed.events, now)
    assert change.marks_only()
    return change


async def test_a_lease_renewal_from_a_version_that_moved_writes_nothing(
    client: httpx.AsyncClient, clock: FakeClock, app: Any, clean_db: str
) -> None:
    """Moved before the renewal's statement, or while it waits on the row's lock (PostgreSQL
    re-checks the locked row's version): either way nothing is written."""
    core, maker = app.state.core, app.state.sessionmaker
    ana = await new_player(client, "Ana")
    mid = (await create_match(client, ana, "draw", HUMANS))["id"]
    await presence.connect_seats(core, mid, [0], by=ana["id"])
    before, _ = await _lease_of(maker, mid, 0)
    clock.advance(10)
    change = await _marks_change(core, mid, clock.now())
    writer = await asyncpg.connect(to_plain_url(clean_db))
    try:
        await writer.execute("UPDATE matches SET updated_at = updated_at WHERE id = $1", mid)
        with pytest.raises(repo.WriteConflict):
            async with core.pool.acquire() as connection:
                await repo.save_many(connection, [change])
        change = await _marks_change(core, mid, clock.now())
        async with writer.transaction():  # a writer holds the row while the renewal runs
            await writer.execute("UPDATE matches SET updated_at = updated_at WHERE id = $1", mid)
            async with core.pool.acquire() as connection:
                pid = connection.get_server_pid()
                renewal = asyncio.ensure_future(repo.save_many(connection, [change]))
                while not renewal.done() and not await writer.fetchval(WAITING, pid):
                    await asyncio.sleep(0.01)
        with pytest.raises(repo.WriteConflict):
            await renewal
    finally:
        await writer.close()
    assert (await _lease_of(maker, mid, 0))[0] == before


def _statements_of(core: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of the statements the calling task sends on the write core's pool from now
    on (not the announcer's, nor the lobby's; asyncpg logs each on the loop's next turn)."""
    sent: list[str] = []
    real, caller = core.pool.acquire, asyncio.current_task()

    @contextlib.asynccontextmanager
    async def logged() -> Any:
        def log(record: Any) -> None:
            if "jit" not in record.query and "typeinfo" not in record.query:
                sent.append(record.query)  # (not a new connection's type introspection)

        async with real() as connection:
            if asyncio.current_task() is not caller:
                yield connection
                return
            connection.add_query_logger(log)
            try:
                yield connection
            finally:
                connection.remove_query_logger(log)

    monkeypatch.setattr(core.pool, "acquire", logged)
    return sent


async def test_a_processs_leases_are_renewed_by_one_statement_that_reads_no_match(
    client: httpx.AsyncClient, clock: FakeClock, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    core, maker = app.state.core, app.state.sessionmaker
    ana = await new_player(client, "Ana")
    mids = [(await create_match(client, ana, "draw", HUMANS))["id"] for _ in range(3)]
    for mid in mids:
        await presence.connect_seats(core, mid, [0], by=ana["id"])
    versions = [(await _lease_of(maker, mid, 0))[1] for mid in mids]
    clock.advance(10)  # every copy has expired: a step would read the matches
    sent = _statements_of(core, monkeypatch)
    await presence.hold_leases(core, [(mid, 0, ana["id"]) for mid in mids])
    await asyncio.sleep(0)
    assert sent == [presence_repo.RENEW]  # no match read, none saved: one statement
    until = clock.now() + timedelta(seconds=presence.LEASE_S)
    assert [await _lease_of(maker, mid, 0) for mid in mids] == [(until, v) for v in versions]
    # This process's copies carry the marks written beside them.
    assert {core.copies[mid].table.seats[0].connected_until for mid in mids} == {until}


async def test_a_lapsed_seat_is_renewed_by_a_step_that_announces_it_back(
    client: httpx.AsyncClient, clock: FakeClock, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    core, maker = app.state.core, app.state.sessionmaker
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    clock.advance(31)
    assert await presence.expire_presence(core, clock.now()) == [(mid, 0), (mid, 1)]
    sent = _statements_of(core, monkeypatch)
    await presence.hold_leases(core, [(mid, 0, ana["id"]), (mid, 1, bob["id"])])
    await asyncio.sleep(0)
    # It renewed nothing (the seats had lapsed): the match is read and saved by a step.
    assert sent[0] == presence_repo.RENEW and sent.count(presence_repo.RENEW) == 1
    assert len(sent) >= 3
    until = clock.now() + timedelta(seconds=presence.LEASE_S)
    assert [(await _lease_of(maker, mid, n))[0] for n in (0, 1)] == [until, until]
    back = (await _presence(client, ana, mid))[-4:]
    assert back[:2] == [("seat_disconnected", 0), ("seat_disconnected", 1)]
    assert sorted(back[2:]) == [("seat_connected", 0), ("seat_connected", 1)]


async def test_autopilot_agrees_with_the_dot(
    client: httpx.AsyncClient, clock: FakeClock, app: Any
) -> None:
    """Issue 41: for about 30 s after a join autopilot answered 409 "connected" while the view
    showed the joiner away. A joiner is connected; the host's autopilot waits while the dot is
    green, and when it acts it records the lapse first, so its answer shows the dot grey."""
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw", HUMANS)
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    autopilot = f"/v1/matches/{mid}/seats/1/autopilot"
    clock.advance(20)
    assert (await view(client, ana, mid))["seats"][1]["connected"] is True
    refused = await client.put(autopilot, headers=ana["headers"])
    assert refused.status_code == 409 and refused.json()["code"] == "seat_in_use"
    clock.advance(11)  # Bob's lease (30 s from his join) has run out; no sweep has run
    taken = await client.put(autopilot, headers=ana["headers"])
    assert taken.status_code == 200, taken.text
    assert taken.json()["seats"][1]["connected"] is False
    assert taken.json()["seats"][1]["autopilot"] is True
    kinds = [e["type"] for e in await _events(client, ana, mid)]
    assert kinds.index("seat_disconnected") < kinds.index("autopilot_on")


async def _events(client: httpx.AsyncClient, who: dict[str, Any], mid: str) -> list[Any]:
    found = await client.get(f"/v1/matches/{mid}/events", headers=who["headers"])
    events: list[Any] = found.json()["events"]
    return events
