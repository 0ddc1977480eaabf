"""The write core (matches/unit.py): one unit of work per step, saved guarded by the row
version, computed again on conflict; a copy per process; idempotency keys per match;
announcements after the commit."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg
import httpx
import msgspec
import pytest
from prometheus_client import REGISTRY

from domino_api import engine
from domino_api.clock import FakeClock
from domino_api.engine import table as tables
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.shapes import decode_snapshot
from domino_api.engine.view_types import ViewOut
from domino_api.matches import unit
from domino_api.realtime.announce import CHANNEL
from domino_api.store import matches_repo as repo
from domino_api.store.db import to_plain_url
from tests.api.helpers import create_match, first_legal, new_player, view
from tests.jobs.factory import clone_matches

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
OPTIONS = {"target": 50}


def paths(action: str = "move") -> dict[str, float]:
    labels = {"action": action}
    return {
        path: REGISTRY.get_sample_value("domino_write_paths_total", {**labels, "path": path}) or 0.0
        for path in ("statement", "transaction")
    }


async def play_match(
    http: httpx.AsyncClient, ruleset: str = "all-fives", seats: list[dict[str, Any]] = SEATS
) -> tuple[list[dict[str, Any]], int]:
    """One human against computers, first legal action each turn: every move's answer, and
    how many next hands the human started."""
    host = await new_player(http, "Ana")
    match = await create_match(http, host, ruleset, seats, OPTIONS)
    r = await http.post(f"/v1/matches/{match['id']}/start", json={"cut": "c"}, **_as(host))
    assert r.status_code == 200, r.text
    v, answers, hands = r.json(), [], 0
    while v["status"] in ("playing", "hand_over"):
        if v["status"] == "hand_over":
            r = await http.post(f"/v1/matches/{match['id']}/hands", json={}, **_as(host))
            v, hands = r.json(), hands + 1
            continue
        body = {**first_legal(v), "seq": v["seq"]}
        r = await http.post(f"/v1/matches/{match['id']}/moves", json=body, **_as(host))
        assert r.status_code == 200, r.text
        answers.append(r.json())
        v = answers[-1]["view"]
    return answers, hands


def _as(player: dict[str, Any]) -> dict[str, Any]:
    return {"headers": player["headers"]}


@pytest.mark.parametrize(
    ("ruleset", "bots"), [("all-fives", 1), ("house-nines", 2), ("draw-50", 1), ("classic", 1)]
)
async def test_every_answer_is_in_the_documented_shape(
    client: httpx.AsyncClient, ruleset: str, bots: int
) -> None:
    seats = [{"type": "human"}] + [{"type": "bot", "strategy": "planner"}] * bots
    before = {action: paths(action) for action in ("move", "next_hand")}
    answers, hands = await play_match(client, ruleset, seats)
    assert answers
    for answer in answers:
        # The events read back as the contract's types and written again are what was sent
        # (optional private fields absent from a copy stay absent).
        events = msgspec.convert(answer["events"], list[AnyEvent])
        assert msgspec.json.decode(msgspec.json.encode(events)) == answer["events"]
        assert set(answer) == {"view", "events"}
        view = msgspec.convert(answer["view"], ViewOut)
        assert msgspec.json.decode(msgspec.json.encode(view)) == answer["view"]
    # Every move and next hand but the one ending the match is one statement; the end is a
    # transaction (finishes and records with it).
    # (The end may come from a move or from a next hand whose computer replies end it.)
    after = {action: paths(action) for action in ("move", "next_hand")}
    grew = {
        path: sum(after[a][path] - before[a][path] for a in after)
        for path in ("statement", "transaction")
    }
    assert grew == {"statement": len(answers) + hands - 1, "transaction": 1}


async def test_refusals_change_nothing(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Ana")
    other = await new_player(client, "Bo")
    match = await create_match(client, host, "all-fives", SEATS, OPTIONS)
    mid = match["id"]
    v = (await client.post(f"/v1/matches/{mid}/start", json={}, **_as(host))).json()
    url = f"/v1/matches/{mid}/moves"
    good = {**first_legal(v), "seq": v["seq"]}
    before = paths()
    cases = [
        (host, {**good, "seq": v["seq"] - 1}, 409, "stale_seq"),
        (host, {"action": "play", "tile": [9, 9], "end": None, "seq": v["seq"]}, 409, None),
        (other, good, 403, "not_seated"),
    ]
    for who, body, status, code in cases:
        r = await client.post(url, json=body, **_as(who))
        assert r.status_code == status, r.text
        assert r.headers["content-type"] == "application/problem+json"
        if code:
            assert r.json()["code"] == code
    assert (await view(client, host, mid))["seq"] == v["seq"]
    r = await client.post(f"/v1/matches/{'0' * 36}/moves", json=good, **_as(host))
    assert r.status_code == 404
    assert paths() == before  # a refusal writes nothing


async def test_a_move_that_waited_for_the_lock_sees_the_seats_of_the_writer_before_it(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    host = await new_player(client, "Ana")
    mid = (await create_match(client, host, "all-fives", SEATS, OPTIONS))["id"]
    v = (await client.post(f"/v1/matches/{mid}/start", json={}, **_as(host))).json()
    assert v["seats"][1]["ready"] is False
    writer = await asyncpg.connect(to_plain_url(clean_db))
    try:
        # Another writer holds the match, changes a seat and moves the row, as the write
        # path does; the move reads the row as it was, and its guarded write waits for the
        # lock, then finds the row moved and computes the move again on a fresh read.
        transaction = writer.transaction()
        await transaction.start()
        await writer.execute("SELECT 1 FROM matches WHERE id = $1 FOR UPDATE", mid)
        await writer.execute("UPDATE seats SET ready = true WHERE match_id = $1 AND seat = 1", mid)
        await writer.execute("UPDATE matches SET updated_at = updated_at WHERE id = $1", mid)
        body = {**first_legal(v), "seq": v["seq"]}
        move = asyncio.create_task(client.post(f"/v1/matches/{mid}/moves", json=body, **_as(host)))
        await asyncio.sleep(0.5)
        assert not move.done()
        await transaction.commit()
        r = await move
    finally:
        await writer.close()
    assert r.status_code == 200, r.text
    assert r.json()["view"]["seats"][1]["ready"] is True


def conflicts(action: str = "move") -> float:
    labels = {"action": action}
    return REGISTRY.get_sample_value("domino_write_conflicts_total", labels) or 0.0


async def _started(client: httpx.AsyncClient) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A host against a computer, one move played (so this process keeps a copy)."""
    host = await new_player(client, "Ana")
    mid = (await create_match(client, host, "all-fives", SEATS, OPTIONS))["id"]
    v = (await client.post(f"/v1/matches/{mid}/start", json={}, **_as(host))).json()
    r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
    assert r.status_code == 200, r.text
    return host, mid, r.json()["view"]


def _move(v: dict[str, Any]) -> dict[str, Any]:
    return {**first_legal(v), "seq": v["seq"]}


async def _event_seqs(url: str, match_id: str) -> list[int]:
    conn = await asyncpg.connect(to_plain_url(url))
    try:
        rows = await conn.fetch("SELECT seq FROM match_events WHERE match_id = $1", match_id)
        seq = await conn.fetchval("SELECT seq FROM matches WHERE id = $1", match_id)
    finally:
        await conn.close()
    assert sorted(r["seq"] for r in rows) == list(range(1, seq + 1))  # none lost, none twice
    return sorted(r["seq"] for r in rows)


async def test_a_step_whose_row_moved_since_it_was_read_is_computed_again(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    host, mid, v = await _started(client)
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        # Another writer moves the row (a new version) without changing the game: the copy
        # this process kept is now behind, and its guarded write must not go through.
        await conn.execute("UPDATE matches SET updated_at = updated_at WHERE id = $1", mid)
    finally:
        await conn.close()
    before = (conflicts(), paths())
    r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
    assert r.status_code == 200, r.text
    assert conflicts() == before[0] + 1
    assert paths()["statement"] == before[1]["statement"] + 1
    seqs = await _event_seqs(clean_db, mid)
    assert seqs[-1] == r.json()["view"]["seq"]


async def test_a_one_match_save_finds_its_row_by_the_primary_key(
    client: httpx.AsyncClient, app: Any, clock: FakeClock
) -> None:
    """Even under a plan made for any key (as a prepared statement's generic plan is): on a
    table of a few dozen pages PostgreSQL read every row for each move, since it cannot tell
    how many rows an `unnest` gives (`git log -S 'one index probe' -- bench/README.md`)."""
    core = app.state.core
    host, mid, _ = await _started(client)
    await clone_matches(app.state.sessionmaker, mid, 40)  # a few dozen pages
    async with core.pool.acquire() as connection:
        await connection.execute("ANALYZE matches")
        found = await repo.read(connection, mid)
        assert found is not None
        table = found.table(engine.from_json(await repo.snapshot(connection, mid, found.version)))
        said = tables.step(table, tables.Chat(host["id"], "hello"), clock.now())
        change = repo.Change(table, said.table, found.version, said.events, clock.now())
        async with connection.transaction():
            await connection.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            await repo.save(connection, change)
            scans = await connection.fetchval(
                "SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'matches'"
            )
    assert scans == 0


async def test_a_match_read_alone_finds_its_seats_by_the_key(
    client: httpx.AsyncClient, app: Any
) -> None:
    """The load of one match, under a generic plan too: with `ANY` of its one id PostgreSQL
    guessed ten matches and read every seat (store/matches_repo.py `read_many`)."""
    core = app.state.core
    _, mid, _ = await _started(client)
    await clone_matches(app.state.sessionmaker, mid, 300)  # seats over a few dozen pages
    async with core.pool.acquire() as connection:
        await connection.execute("ANALYZE matches, seats")
        async with connection.transaction():
            await connection.execute("SET LOCAL plan_cache_mode = force_generic_plan")
            found = await repo.read(connection, mid)
            scans = await connection.fetchval(
                "SELECT sum(seq_scan) FROM pg_stat_xact_user_tables "
                "WHERE relname IN ('matches', 'seats')"
            )
    assert found is not None and found.info.id == mid
    assert scans == 0


async def test_a_copy_shows_what_did_not_move_the_row_only_until_it_expires(
    client: httpx.AsyncClient, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, mid, v = await _started(client)
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        # A holder's tile back is read with the seats and changes without moving the row.
        await conn.execute("UPDATE players SET tile_back = 'apollo-11' WHERE id = $1", host["id"])
    finally:
        await conn.close()
    backs = []
    for ttl in (60.0, 0.0):
        monkeypatch.setattr(unit, "COPY_TTL_S", ttl)
        r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
        assert r.status_code == 200, r.text
        v = r.json()["view"]
        backs.append(v["seats"][0]["tile_back"])
    assert backs == ["moon", "apollo-11"]


async def _two_plays(
    client: httpx.AsyncClient, host: dict[str, Any]
) -> tuple[str, dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A started match where the host is on turn with two different tiles to play."""
    for _ in range(40):
        mid = (await create_match(client, host, "all-fives", SEATS, OPTIONS))["id"]
        v = (await client.post(f"/v1/matches/{mid}/start", json={}, **_as(host))).json()
        on_turn = v["turn"] is not None and v["turn"]["seat"] == 0
        plays = [o for o in v["legal"] if o["action"] == "play"] if on_turn else []
        others = [o for o in plays if o["tile"] != plays[0]["tile"]]
        if others:
            return mid, v, plays[0], others[0]
    raise AssertionError("no deal gave the host two different tiles to play")


async def test_a_step_that_loses_the_race_leaves_no_state_behind(
    client: httpx.AsyncClient, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from domino_api.matches.grouped import Grouped

    host = await new_player(client, "Ana")
    mid, v, first, second = await _two_plays(client, host)
    # Both moves are computed before either writes; with the test's clock they even share
    # `updated_at`, so the loser's state would pass for the winner's row if it were kept.
    arrived: list[asyncio.Event] = [asyncio.Event(), asyncio.Event()]
    real = Grouped.save

    async def after_both_computed(grouped: Grouped, change: repo.Change) -> int:
        index = 0 if not arrived[0].is_set() else 1
        arrived[index].set()
        await asyncio.wait_for(arrived[1].wait(), 5.0)
        return await real(grouped, change)

    monkeypatch.setattr(Grouped, "save", after_both_computed)
    url = f"/v1/matches/{mid}/moves"
    answers = await asyncio.gather(
        *(
            client.post(url, json={**_move({**v, "legal": [play]})}, **_as(host))
            for play in (first, second)
        )
    )
    monkeypatch.setattr(Grouped, "save", real)
    assert sorted(r.status_code for r in answers) == [200, 409]
    winner = next(r for r in answers if r.status_code == 200).json()["view"]
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        snapshot = await conn.fetchval("SELECT snapshot::text FROM matches WHERE id = $1", mid)
    finally:
        await conn.close()
    stored = engine.from_json(decode_snapshot(snapshot))
    # What the service shows (from its parsed-state cache) is what is stored, and the winner.
    shown = await view(client, host, mid)
    assert (
        shown["board"]
        == winner["board"]
        == msgspec.json.decode(msgspec.json.encode(engine.view(stored, 0).board))
    )
    assert shown["seq"] == stored.seq


async def test_an_idempotency_key_answers_once_per_match_and_is_scoped_to_it(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    host, mid, v = await _started(client)
    _, other, w = await _started_for(client, host)
    headers = {**host["headers"], "Idempotency-Key": "k-1"}
    first = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), headers=headers)
    again = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), headers=headers)
    assert first.status_code == again.status_code == 200, again.text
    assert again.json() == first.json()  # the same answer, and the move applied once
    assert (await _event_seqs(clean_db, mid))[-1] == first.json()["view"]["seq"]
    # The same key on another match is another request (it used to be a 500).
    elsewhere = await client.post(f"/v1/matches/{other}/moves", json=_move(w), headers=headers)
    assert elsewhere.status_code == 200, elsewhere.text
    assert elsewhere.json()["view"]["id"] == other
    assert elsewhere.json()["view"]["seq"] > w["seq"]


async def _started_for(
    client: httpx.AsyncClient, host: dict[str, Any]
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    mid = (await create_match(client, host, "all-fives", SEATS, OPTIONS))["id"]
    v = (await client.post(f"/v1/matches/{mid}/start", json={}, **_as(host))).json()
    return host, mid, v


async def test_each_step_is_announced_after_its_commit(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    host, mid, v = await _started(client)
    heard: asyncio.Queue[str] = asyncio.Queue()
    conn = await asyncpg.connect(to_plain_url(clean_db))
    seen: list[int] = []
    try:
        await conn.add_listener(CHANNEL, lambda *args: heard.put_nowait(args[3]))
        r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
        assert r.status_code == 200, r.text
        expected = f"{mid}:{r.json()['view']['seq']}"
        # Earlier steps' announcements (the creation's, the start's) may still be on their way:
        # they leave after their answers.
        payload = await asyncio.wait_for(heard.get(), 10)
        while payload != expected and int(payload.rpartition(":")[2]) <= v["seq"]:
            payload = await asyncio.wait_for(heard.get(), 10)
        # When the announcement is heard, the events it names are committed and readable.
        seen = [
            row["seq"]
            for row in await conn.fetch(
                "SELECT seq FROM match_events WHERE match_id = $1 ORDER BY seq", mid
            )
        ]
    finally:
        await conn.close()
    assert payload == expected
    assert seen[-1] == r.json()["view"]["seq"]
