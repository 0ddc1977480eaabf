"""Batched sweeps: one transaction per batch writes what a match swept alone (a step of the
write core) writes."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import asyncpg
import httpx
import pytest
from sqlalchemy import select, text, update

from domino_api.clock import FakeClock
from domino_api.jobs import liveness, sweeper
from domino_api.jobs.sweeper import RETRY_AFTER, sweep_pass
from domino_api.realtime.announce import CHANNEL
from domino_api.store import matches_repo as repo
from domino_api.store.db import to_plain_url
from domino_api.store.models import Finish, Match, MatchEvent, Record, Seat
from tests.api.helpers import create_match, first_legal, new_player, view
from tests.jobs.factory import (
    BLITZ,
    HUMANS,
    clone_matches,
    count_due,
    events,
    parse,
    sweep_while_a_move_commits,
    two_seat_match,
)

TICK = timedelta(microseconds=1)


@pytest.fixture
def alone(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """The matches a pass handled one by one instead of in its batch."""
    handled: list[str | None] = []
    one_by_one = sweeper.sweep_one

    async def spy(*args: Any, **kwargs: Any) -> Any:
        handled.append(args[1])  # sweep_one(core, match_id, now, lifetimes, claimed)
        return await one_by_one(*args, **kwargs)

    monkeypatch.setattr(sweeper, "sweep_one", spy)
    return handled


def _plain(row: Any, *leave_out: str) -> dict[str, Any]:
    return {c.key: getattr(row, c.key) for c in row.__table__.columns if c.key not in leave_out}


async def _stored(maker: Any, match_id: str) -> dict[str, Any]:
    """Everything a sweep wrote about a match, without the ids that differ between copies."""
    async with maker() as session:
        match = await session.get(Match, match_id)
        seats = (await session.execute(select(Seat).where(Seat.match_id == match_id))).scalars()
        logged = (
            await session.execute(
                select(MatchEvent).where(MatchEvent.match_id == match_id).order_by(MatchEvent.seq)
            )
        ).scalars()
        finishes = list(
            (await session.execute(select(Finish).where(Finish.match_id == match_id))).scalars()
        )
        players = [finish.player_id for finish in finishes]
        records = (
            await session.execute(select(Record).where(Record.player_id.in_(players)))
        ).scalars()
        return {
            "match": _plain(match, "id"),
            "seats": sorted(
                (_plain(s, "match_id", "player_id") for s in seats), key=lambda s: s["seat"]
            ),
            "events": [_plain(e, "match_id") for e in logged],
            "finishes": sorted(
                (_plain(f, "match_id", "player_id") for f in finishes), key=lambda f: f["score"]
            ),
            "records": sorted(
                (_plain(r, "player_id", "best_score_match_id") for r in records),
                key=lambda r: r["best_score"],
            ),
        }


async def test_a_batch_writes_what_a_match_swept_alone_writes(
    client: httpx.AsyncClient,
    clock: FakeClock,
    maker: Any,
    core: Any,
    database_url: str,
    alone: list[str | None],
) -> None:
    _, _, v = await two_seat_match(client, options=BLITZ)
    one, *batched = await clone_matches(maker, v["id"], 3, own_players=True)
    clock.set(parse(v["turn"]["deadline"]) + timedelta(seconds=1))
    async with maker() as session:
        lifetimes = await liveness.lifetimes(session)
    async with core.pool.acquire() as connection:
        claimed = await repo.read(connection, one)
    assert claimed is not None
    swept = await sweeper.sweep_one(core, one, clock.now(), lifetimes, claimed.version)
    assert swept is not None and swept.action == "forfeit"
    listener = await asyncpg.connect(to_plain_url(database_url))
    heard: list[str] = []
    await listener.add_listener(CHANNEL, lambda *args: heard.append(args[-1]))
    try:
        alone.clear()
        report = await sweep_pass(core)
        await asyncio.sleep(0.2)  # notifications arrive after the commit
    finally:
        await listener.close()
    assert alone == []  # the batch carried every match
    assert sorted(o.match_id for o in report.outcomes) == sorted([v["id"], *batched])
    assert {(o.action, o.due, o.events) for o in report.outcomes} == {
        (swept.action, swept.due, swept.events)
    }
    reference = await _stored(maker, one)
    assert reference["match"]["status"] == "finished" and reference["finishes"]
    for match_id in batched:
        assert await _stored(maker, match_id) == reference
        assert f"{match_id}:{reference['match']['seq']}" in heard
    assert await count_due(maker, clock.now()) == 0


async def test_a_batch_leaves_a_match_a_move_saved_first_and_forfeits_the_others(
    client: httpx.AsyncClient,
    clock: FakeClock,
    maker: Any,
    core: Any,
    alone: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ana, bob, v = await two_seat_match(client, options=BLITZ)
    others = await clone_matches(maker, v["id"], 3, own_players=True)
    mover = ana if v["turn"]["seat"] == v["you"]["seat"] else bob
    raced = await sweep_while_a_move_commits(client, clock, core, mover, v, TICK, monkeypatch)
    assert sorted(o.match_id for o in raced.outcomes) == sorted(others)
    assert {o.action for o in raced.outcomes} == {"forfeit"} and alone == []
    # The move beat the deadline: its match has a new one, and the next pass leaves it be.
    assert [o for o in (await sweep_pass(core)).outcomes if o.action != "none"] == []
    assert (await view(client, ana, v["id"]))["status"] == "playing"
    assert "forfeit" not in [e["type"] for e in await events(client, ana, v["id"])]


async def test_one_batch_forfeits_on_the_clock_and_for_being_away(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any, alone: list[str | None]
) -> None:
    start = clock.now()
    _, _, clocked = await two_seat_match(client, options=BLITZ, names=("Ana", "Bob"))
    _, bob, away = await two_seat_match(client, "all-fives", names=("Cy", "Di"))
    _, _, tied = await two_seat_match(client, "all-fives", names=("Ed", "Flo"))
    clock.set(start + timedelta(seconds=100))
    await view(client, bob, away["id"])  # Di stays; Cy has been away since the start
    clock.set(start + timedelta(seconds=180))
    report = await sweep_pass(core)
    assert alone == []
    done = {o.match_id: (o.action, o.due, o.seat) for o in report.outcomes}
    assert done == {
        clocked["id"]: ("forfeit", "clock", clocked["turn"]["seat"]),
        away["id"]: ("forfeit", "away", 0),
        tied["id"]: ("abandon", "away_tie", None),
    }
    causes = [e["data"] for e in await events(client, bob, away["id"]) if e["type"] == "forfeit"]
    assert causes == [{"seat": 0, "cause": "away"}]
    assert (await view(client, bob, away["id"]))["result"]["winner"] == 1
    assert await count_due(maker, clock.now()) == 0


async def test_a_retry_later_never_undoes_a_writer_that_handled_the_match_meanwhile(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any
) -> None:
    ana, _, v = await two_seat_match(client, options=BLITZ)
    later = parse(v["turn"]["deadline"]) + timedelta(hours=1)
    async with core.pool.acquire() as connection:
        claimed = await repo.read(connection, v["id"])
    assert claimed is not None and claimed.info.due_at is not None
    # Another writer handles the match after the claim read it: the host resigns, so nothing
    # is due any more and the version has moved.
    resigned = await client.post(f"/v1/matches/{v['id']}/resign", json={}, headers=ana["headers"])
    assert resigned.status_code == 200, resigned.text
    async with core.pool.acquire() as connection:
        stale = await repo.retry_later(connection, v["id"], claimed.version, later)
        now_read = await repo.read(connection, v["id"])
    assert now_read is not None and now_read.info.due_at is None  # the resignation stands
    # On the version it was claimed at, a failed match is postponed.
    async with core.pool.acquire() as connection:
        kept = await repo.retry_later(connection, v["id"], now_read.version, later)
        postponed = await repo.read(connection, v["id"])
    assert postponed is not None and postponed.info.due_at == later
    assert (stale, kept) == (False, True)


async def test_a_match_that_fails_is_retried_later_and_its_batch_goes_on(
    client: httpx.AsyncClient, clock: FakeClock, maker: Any, core: Any, alone: list[str | None]
) -> None:
    _, _, v = await two_seat_match(client, options=BLITZ)
    broken, *others = await clone_matches(maker, v["id"], 3, own_players=True)
    async with maker() as session, session.begin():
        await session.execute(
            update(Match)
            .where(Match.id == broken)
            .values(snapshot=text("jsonb_set(snapshot::jsonb, '{version}', '999')::json"))
        )
    clock.set(parse(v["turn"]["deadline"]) + timedelta(seconds=1))
    report = await sweep_pass(core)
    # The others stayed in the batch. (A pass's claimers run concurrently: one may claim the
    # broken match again between another's batch commit and its retry_later, as a CI run saw.)
    assert set(alone) == {broken}
    done = {o.match_id: o.action for o in report.outcomes}
    assert done == {broken: "error", v["id"]: "forfeit", **{m: "forfeit" for m in others}}
    async with maker() as session:
        row = await session.get(Match, broken)
        assert row is not None and row.status == "playing"
        assert row.due_at == clock.now() + RETRY_AFTER
    assert await count_due(maker, clock.now()) == 0


async def _next_hand_opened_by_a_computer(
    client: httpx.AsyncClient, clock: FakeClock
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A classic match whose openers alternate, Ana against Bob's seat on autopilot, played to
    the end of its first hand opened by Ana: the next hand, due by the clock, is the
    computer's to open. (Ana, her view.)"""
    options = {"next_opener": "alternate_any"}
    for attempt in range(40):
        ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
        created = await create_match(client, ana, "classic", HUMANS, options)
        mid, headers = created["id"], ana["headers"]
        code = {"code": created["code"]}
        assert (await client.post("/v1/matches/join", json=code, headers=bob["headers"])).is_success
        cut = {"cut": f"carry-{attempt}"}
        v = (await client.post(f"/v1/matches/{mid}/start", json=cut, headers=headers)).json()
        if v["turn"]["seat"] != 0:
            continue
        clock.advance(31)  # Bob has gone: the host hands his seat to the computer
        on = await client.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=headers)
        assert on.status_code == 200, on.text
        v = on.json()
        while v["status"] == "playing":
            body = {**first_legal(v), "seq": v["seq"]}
            moved = await client.post(f"/v1/matches/{mid}/moves", json=body, headers=headers)
            assert moved.status_code == 200, moved.text
            v = moved.json()["view"]
        if v["status"] == "hand_over":
            return ana, v
    raise AssertionError("no cut gave Ana the first hand of a match that goes on")


async def test_a_swept_match_whose_turn_passes_to_a_computer_is_carried_in_the_same_pass(
    client: httpx.AsyncClient,
    clock: FakeClock,
    core: Any,
    alone: list[str | None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The next hand, due by the clock, is opened by a computer seat: the sweep starts it and
    the computer plays its opening on the table the batch committed, in the same pass; the
    match is neither handed to `sweep_one` nor enforced a second time."""
    ana, v = await _next_hand_opened_by_a_computer(client, clock)
    enforced: list[str] = []
    real = sweeper.enforce

    def spy(table: Any, *args: Any) -> Any:
        enforced.append(table.match.id)
        return real(table, *args)

    monkeypatch.setattr(sweeper, "enforce", spy)
    clock.set(parse(v["next_hand_at"]) + timedelta(seconds=1))
    alone.clear()
    report = await sweep_pass(core)
    assert [o.match_id for o in report.outcomes if o.action != "none"] == [v["id"]]
    assert alone == [] and enforced == [v["id"]]
    logged = await events(client, ana, v["id"])
    kinds = [(e["type"], e["data"].get("seat")) for e in logged if e["seq"] > v["seq"]]
    started = [n for n, (kind, _) in enumerate(kinds) if kind == "hand_started"]
    assert len(started) == 1
    moves = ("tile_played", "tile_drawn", "passed")
    assert any(kind in moves and seat == 1 for kind, seat in kinds[started[0] :])
    after = await view(client, ana, v["id"])
    assert after["hand_number"] == v["hand_number"] + 1 and after["seq"] == logged[-1]["seq"]
    assert after["turn"]["seat"] == 0  # the computer opened: Ana has the turn
