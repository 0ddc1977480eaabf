"""Move requests on the asyncpg driver path (matches/fast.py) against the ORM path.

The driver path must store exactly what the ORM path stores, answer in the documented shape,
and hand back to the ORM path whatever it does not handle (the match ending, a due timeout).
"""

from __future__ import annotations

import asyncio
import json
import types
import uuid
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import httpx
import pytest
from prometheus_client import REGISTRY

from domino_api import engine
from domino_api.api import create_app
from domino_api.config import Settings
from domino_api.matches import fast, service, table
from domino_api.matches.event_models import MoveOut
from domino_api.store.db import to_plain_url
from tests.api.helpers import create_match, first_legal, new_player, view
from tests.conftest import TABLES

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
OPTIONS = {"target": 50}
ACTIONS = ("move", "start", "next_hand")
NEXT_HANDS: list[int] = []  # how many next hands each `play_match` asked for
MATCH_ID = "5f0c6a44-0b9e-4d7e-8f51-8a2f7d1c0e01"


def paths(action: str = "move") -> dict[str, float]:
    labels = {"action": action}
    return {
        path: REGISTRY.get_sample_value("domino_write_paths_total", {**labels, "path": path}) or 0.0
        for path in ("driver", "orm")
    }


@pytest.fixture
def same_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every match gets the same id, code and deal secret, so two runs can be compared."""
    monkeypatch.setattr(table, "secrets", types.SimpleNamespace(token_bytes=lambda n: bytes(n)))
    monkeypatch.setattr(service, "secrets", types.SimpleNamespace(randbelow=lambda n: 1234))
    monkeypatch.setattr(service, "uuid", types.SimpleNamespace(uuid4=lambda: uuid.UUID(MATCH_ID)))


async def client_for(url: str, clock: Any, driver_pool_size: int) -> AsyncIterator[Any]:
    settings = Settings(
        database_url=url,
        log_json=False,
        join_rate_limit=1000,
        create_player_rate_limit=1000,
        driver_pool_size=driver_pool_size,
    )
    app = create_app(settings, clock=clock, database_url=url, start_background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            yield http


async def play_match(
    http: httpx.AsyncClient, ruleset: str = "all-fives", seats: list[dict[str, Any]] = SEATS
) -> list[dict[str, Any]]:
    """One human against computers, first legal action each turn; every move's answer."""
    host = await new_player(http, "Ana")
    match = await create_match(http, host, ruleset, seats, OPTIONS)
    r = await http.post(f"/v1/matches/{match['id']}/start", json={"cut": "c"}, **_as(host))
    assert r.status_code == 200, r.text
    v, answers = r.json(), []
    NEXT_HANDS.append(0)
    while v["status"] in ("playing", "hand_over"):
        if v["status"] == "hand_over":
            r = await http.post(f"/v1/matches/{match['id']}/hands", json={}, **_as(host))
            v = r.json()
            NEXT_HANDS[-1] += 1
            continue
        body = {**first_legal(v), "seq": v["seq"]}
        r = await http.post(f"/v1/matches/{match['id']}/moves", json=body, **_as(host))
        assert r.status_code == 200, r.text
        answers.append(r.json())
        v = answers[-1]["view"]
    return answers


def _as(player: dict[str, Any]) -> dict[str, Any]:
    return {"headers": player["headers"]}


async def stored(url: str) -> dict[str, Any]:
    conn = await asyncpg.connect(to_plain_url(url))
    try:
        row = await conn.fetchrow(
            "SELECT status, seq, game_seq, snapshot::text, turn_deadline, next_hand_at, due_at,"
            " started_at, finished_at, updated_at FROM matches WHERE id = $1",
            MATCH_ID,
        )
        events = await conn.fetch(
            "SELECT seq, type, at, data::text, private::text, action::text FROM match_events"
            " WHERE match_id = $1 ORDER BY seq",
            MATCH_ID,
        )
        seats = await conn.fetch(
            "SELECT seat, type, forfeited, last_seen_at FROM seats"
            " WHERE match_id = $1 ORDER BY seat",
            MATCH_ID,
        )
        finishes = await conn.fetch(
            "SELECT f.ruleset, f.opponent, f.score, f.margin, f.won, f.default_target,"
            " f.finished_at, p.name FROM finishes f JOIN players p ON p.id = f.player_id"
        )
        records = await conn.fetch(
            "SELECT r.ruleset, r.opponent, r.best_score, r.best_score_at, r.best_margin,"
            " r.best_margin_at, r.leaderboard_eligible, p.name"
            " FROM records r JOIN players p ON p.id = r.player_id"
        )
        await conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return {
        "match": dict(row),
        "events": [dict(e) for e in events],
        "seats": [dict(s) for s in seats],
        "finishes": [dict(f) for f in finishes],
        "records": [dict(r) for r in records],
    }


@pytest.mark.usefixtures("same_deal")
async def test_both_paths_store_and_answer_the_same_match(clean_db: str, clock: Any) -> None:
    runs = {}
    for pool_size in (20, 0):
        before = {action: paths(action) for action in ACTIONS}
        async for http in client_for(clean_db, clock, pool_size):
            answers = await play_match(http)
        counted = {
            (action, path): paths(action)[path] - before[action][path]
            for action in ACTIONS
            for path in ("driver", "orm")
        }
        runs[pool_size] = (answers, await stored(clean_db), counted)
    (driver_answers, driver_rows, on_driver), (orm_answers, orm_rows, on_orm) = runs.values()
    # Every move went down the driver path, the last one (which finishes the match and
    # writes the players' finishes and records) included; the start and the next hands too.
    # With no pool, nothing takes the driver path (nor counts as handed back).
    assert on_driver[("move", "driver")] == len(driver_answers)
    assert on_driver[("move", "orm")] == 0
    assert on_driver[("start", "driver")] == 1
    assert on_driver[("start", "orm")] == on_driver[("next_hand", "orm")] == 0
    assert set(on_orm.values()) == {0}
    assert driver_answers == orm_answers
    assert driver_rows == orm_rows
    assert driver_rows["match"]["status"] == "finished"
    assert len(driver_rows["finishes"]) == 1
    # Records count only finishes at the preset's default target (docs/API.md), as the board
    # does; this match's custom target (OPTIONS) is kept as a finish but earns no record.
    assert driver_rows["finishes"][0]["default_target"] is False
    assert driver_rows["records"] == []


@pytest.mark.parametrize(
    ("ruleset", "bots"), [("all-fives", 1), ("house-nines", 2), ("draw-50", 1), ("classic", 1)]
)
async def test_every_answer_is_in_the_documented_shape(
    client: httpx.AsyncClient, ruleset: str, bots: int
) -> None:
    seats = [{"type": "human"}] + [{"type": "bot", "strategy": "planner"}] * bots
    before = paths("next_hand")
    answers = await play_match(client, ruleset, seats)
    assert answers
    for answer in answers:
        # Optional private fields absent from a copy stay absent (exclude_unset).
        dumped = MoveOut.model_validate(answer).model_dump(mode="json", exclude_unset=True)
        assert dumped == answer
    # Each next hand the human asked for was dealt on the driver path, but one in which the
    # computer's replies end the match (the ORM path finishes it).
    after = paths("next_hand")
    assert after["driver"] - before["driver"] + after["orm"] - before["orm"] == NEXT_HANDS[-1]
    assert after["orm"] - before["orm"] <= 1


async def test_refusals_on_the_driver_path_change_nothing(client: httpx.AsyncClient) -> None:
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
    assert paths() == before  # a refusal is not a fallback: it is answered where it arose


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
    """A host against a computer, one move played on the driver path (so a copy is kept)."""
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
    assert paths()["driver"] == before[1]["driver"] + 1
    seqs = await _event_seqs(clean_db, mid)
    assert seqs[-1] == r.json()["view"]["seq"]


async def test_a_copy_left_behind_by_the_orm_path_is_never_written_over(
    client: httpx.AsyncClient, clean_db: str
) -> None:
    host, mid, v = await _started(client)
    # The next move goes down the ORM path (an idempotency key), which keeps no copy: this
    # process's copy stays one move behind. (tests/realtime/test_two_process_moves.py does
    # the same across two processes.)
    headers = {**host["headers"], "Idempotency-Key": "orm-1"}
    r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), headers=headers)
    assert r.status_code == 200, r.text
    v = r.json()["view"]
    before = conflicts()
    r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
    assert r.status_code == 200, r.text
    assert conflicts() == before + 1  # the stale copy's write was refused by its guard
    assert r.json()["view"]["seq"] > v["seq"]
    # A seq the table itself has left behind is still refused, and changes nothing.
    r2 = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
    assert r2.status_code == 409 and r2.json()["code"] == "stale_seq"
    assert (await _event_seqs(clean_db, mid))[-1] == r.json()["view"]["seq"]


async def test_a_copy_shows_what_did_not_move_the_row_only_until_it_expires(
    client: httpx.AsyncClient, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, mid, v = await _started(client)
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        # A holder's name is read with the seats and changes without moving the match row.
        await conn.execute("UPDATE players SET name = 'Zed' WHERE id = $1", host["id"])
    finally:
        await conn.close()
    names = []
    for ttl in (60.0, 0.0):
        monkeypatch.setattr(fast, "COPY_TTL_S", ttl)
        r = await client.post(f"/v1/matches/{mid}/moves", json=_move(v), **_as(host))
        assert r.status_code == 200, r.text
        v = r.json()["view"]
        names.append(v["seats"][0]["name"])
    assert names == ["Ana", "Zed"]


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
    from domino_api.store import matches_repo

    host = await new_player(client, "Ana")
    mid, v, first, second = await _two_plays(client, host)
    # Both moves are computed before either writes; with the test's clock they even share
    # `updated_at`, so the loser's state would pass for the winner's row if it were kept.
    arrived: list[asyncio.Event] = [asyncio.Event(), asyncio.Event()]
    real = matches_repo._write_guarded

    async def after_both_computed(*args: Any, **kwargs: Any) -> int:
        index = 0 if not arrived[0].is_set() else 1
        arrived[index].set()
        await asyncio.wait_for(arrived[1].wait(), 5.0)
        return await real(*args, **kwargs)

    monkeypatch.setattr(matches_repo, "_write_guarded", after_both_computed)
    url = f"/v1/matches/{mid}/moves"
    answers = await asyncio.gather(
        *(
            client.post(url, json={**_move({**v, "legal": [play]})}, **_as(host))
            for play in (first, second)
        )
    )
    monkeypatch.setattr(matches_repo, "_write_guarded", real)
    assert sorted(r.status_code for r in answers) == [200, 409]
    winner = next(r for r in answers if r.status_code == 200).json()["view"]
    conn = await asyncpg.connect(to_plain_url(clean_db))
    try:
        snapshot = await conn.fetchval("SELECT snapshot::text FROM matches WHERE id = $1", mid)
    finally:
        await conn.close()
    stored = engine.from_json(json.loads(snapshot))
    # What the service shows (from its parsed-state cache) is what is stored, and the winner.
    shown = await view(client, host, mid)
    assert shown["board"] == winner["board"] == engine.view(stored, 0)["board"]
    assert shown["seq"] == stored.seq
