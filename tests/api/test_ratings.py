"""Ratings (docs/API.md, "Ratings"): real matches played to their end move the ratings of
rated ones only, in the same commit as the records; the computers' stay fixed."""

from __future__ import annotations

from typing import Any

import asyncpg
import httpx

from domino_api.ratings.computers import COMPUTERS
from domino_api.store.db import to_plain_url
from tests.api.helpers import new_player, play_to_end, play_until_each_moved, view

HUMANS = [{"type": "human"}, {"type": "human"}]
FAST = {"target": 10}  # draw-50 to 10 points: a hand or two


async def _create(
    client: httpx.AsyncClient,
    host: dict[str, Any],
    seats: list[dict[str, Any]],
    rated: str | None = None,
    ruleset: str = "draw-50",
) -> httpx.Response:
    body = {"ruleset": ruleset, "seats": seats, "options": FAST if ruleset == "draw-50" else {}}
    params = {} if rated is None else {"rated": rated}
    return await client.post("/v1/matches", json=body, params=params, headers=host["headers"])


async def _table(client: httpx.AsyncClient, ana: dict, bob: dict, rated: str | None = None) -> str:
    created = await _create(client, ana, HUMANS, rated)
    assert created.status_code == 201, created.text
    code = created.json()["code"]
    joined = await client.post("/v1/matches/join", json={"code": code}, headers=bob["headers"])
    assert joined.status_code == 200, joined.text
    mid = str(created.json()["id"])
    started = await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert started.status_code == 200, started.text
    return mid


async def _ratings(client: httpx.AsyncClient, asker: dict, *players: dict) -> dict[str, Any]:
    ids = ",".join(p["id"] for p in players)
    got = await client.get(
        "/v1/ratings", params={"preset": "draw-50", "players": ids}, headers=asker["headers"]
    )
    assert got.status_code == 200, got.text
    return {row["player_id"]: row for row in got.json()["ratings"]} | {
        row["strategy"]: row for row in got.json()["computers"]
    }


async def establish(database_url: str, preset: str, *players: dict[str, Any]) -> None:
    """The players as if they had played 10 rated matches at the preset, still at 1500 ± 500:
    their results count fully for others (ratings/weights.py)."""
    db = await asyncpg.connect(to_plain_url(database_url))
    try:
        await db.executemany(
            "INSERT INTO ratings (player_id, preset, mu, sigma, games, updated_at)"
            " VALUES ($1, $2, 1500, 500, 10, now())",
            [(p["id"], preset) for p in players],
        )
    finally:
        await db.close()


def _unmoved(row: dict[str, Any]) -> bool:
    return (row["rating"], row["deviation"], row["games"]) == (1500, 500, 0)


async def test_a_rated_match_between_humans_moves_both_and_the_board_ranks_them(
    client: httpx.AsyncClient, database_url: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    await establish(database_url, "draw-50", ana, bob)
    before = await _ratings(client, ana, ana, bob)
    assert before[ana["id"]]["games"] == before[bob["id"]]["games"] == 10
    final = await play_to_end(client, await _table(client, ana, bob), {0: ana, 1: bob})
    assert final["status"] == "finished"
    winner, loser = (ana, bob) if final["result"]["winner"] == 0 else (bob, ana)
    after = await _ratings(client, ana, ana, bob)
    won, lost = after[winner["id"]], after[loser["id"]]
    assert won["rating"] > 1500 > lost["rating"]
    assert won["deviation"] < 500 and lost["deviation"] < 500
    assert won["games"] == lost["games"] == 11
    # The player's own page and the records say the same.
    mine = await client.get(f"/v1/players/{winner['id']}/ratings", headers=loser["headers"])
    assert mine.json()["ratings"] == [won]
    records = await client.get("/v1/players/me/records", headers=loser["headers"])
    assert records.json()["ratings"] == [lost]
    # The board a page at a time: the winner first, the cursor leads to the loser.
    board = "/v1/ratings/leaderboard"
    first = await client.get(
        board, params={"preset": "draw-50", "limit": 1}, headers=ana["headers"]
    )
    page = first.json()
    assert [(e["rank"], e["player_id"]) for e in page["entries"]] == [(1, winner["id"])]
    params = {"preset": "draw-50", "limit": 1, "cursor": page["next_cursor"]}
    second = (await client.get(board, params=params, headers=ana["headers"])).json()
    ranked = [(e["rank"], e["player_id"], e["name"]) for e in second["entries"]]
    assert ranked[0][:2] == (2, loser["id"])


async def test_unrated_and_hot_seat_matches_move_nothing(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    final = await play_to_end(client, await _table(client, ana, bob, "false"), {0: ana, 1: bob})
    assert final["status"] == "finished"
    # Hot-seat: Ana holds both seats; never rated, and asking for it is refused.
    hot = [{"type": "human"}, {"type": "human", "holder": "host"}]
    refused = await _create(client, ana, hot, "true")
    assert refused.status_code == 422 and refused.json()["code"] == "option_not_allowed"
    created = await _create(client, ana, hot)
    mid = created.json()["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert (await play_to_end(client, mid, {0: ana, 1: ana}))["status"] == "finished"
    # Against a computer without asking: not rated.
    solo = await _create(client, ana, [{"type": "human"}, {"type": "bot", "strategy": "plain"}])
    mid = solo.json()["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    assert (await play_to_end(client, mid, {0: ana}))["status"] == "finished"
    after = await _ratings(client, ana, ana, bob)
    assert _unmoved(after[ana["id"]]) and _unmoved(after[bob["id"]])
    board = await client.get(
        "/v1/ratings/leaderboard", params={"preset": "draw-50"}, headers=ana["headers"]
    )
    assert ana["id"] not in [e["player_id"] for e in board.json()["entries"]]


async def test_a_rated_match_against_the_computer_moves_the_human_only(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    fixed = {name: (round(mu), round(sigma)) for name, (mu, sigma) in COMPUTERS["draw-50"].items()}
    for strategy in ("plain", "planner"):
        seats = [{"type": "human"}, {"type": "bot", "strategy": strategy}]
        created = await _create(client, ana, seats, "true")
        mid = created.json()["id"]
        url = f"/v1/matches/{mid}/ratings"
        before = (await client.get(url, headers=ana["headers"])).json()
        assert before["rated"] is True
        await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        assert (await play_to_end(client, mid, {0: ana}))["status"] == "finished"
        seated = (await client.get(url, headers=ana["headers"])).json()["seats"]
        assert seated[1] == before["seats"][1]  # the computer's seat: as it was
        assert (seated[1]["rating"], seated[1]["deviation"]) == fixed[strategy]
        assert seated[1]["computer"] is True and seated[1]["games"] is None
        assert seated[0]["games"] == before["seats"][0]["games"] + 1
        assert seated[0]["rating"] != before["seats"][0]["rating"]
    after = await _ratings(client, ana, ana)
    assert after[ana["id"]]["games"] == 2 and after[ana["id"]]["deviation"] < 500
    assert after[ana["id"]]["rating"] != 1500
    shown = {name: (after[name]["rating"], after[name]["deviation"]) for name in fixed}
    assert shown == fixed


async def test_a_tables_seat_ratings_are_for_those_who_may_look(
    client: httpx.AsyncClient,
) -> None:
    ana, bob, cy = [await new_player(client, n) for n in ("Ana", "Bob", "Cy")]
    created = await _create(client, ana, HUMANS)
    mid = created.json()["id"]
    seated = await client.get(f"/v1/matches/{mid}/ratings", headers=ana["headers"])
    body = seated.json()
    assert (body["preset"], body["rated"]) == ("draw-50", True)
    # The open seat is left out: nobody's rating to show.
    assert [(s["seat"], s["rating"], s["games"]) for s in body["seats"]] == [(0, 1500, 0)]
    outsider = await client.get(f"/v1/matches/{mid}/ratings", headers=cy["headers"])
    assert outsider.status_code == 403 and outsider.json()["code"] == "not_seated"
    unknown = await client.get(f"/v1/matches/{'0' * 36}/ratings", headers=bob["headers"])
    assert unknown.status_code == 404 and unknown.json()["code"] == "match_not_found"
    casual = await _create(client, ana, HUMANS, "false")
    got = await client.get(f"/v1/matches/{casual.json()['id']}/ratings", headers=ana["headers"])
    assert got.json()["rated"] is False


async def test_a_forfeit_is_a_loss_and_an_abandoned_match_moves_nothing(
    client: httpx.AsyncClient, database_url: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    await establish(database_url, "draw-50", ana, bob)
    mid = await _table(client, ana, bob)
    await play_until_each_moved(client, mid, {0: ana, 1: bob})
    resigned = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=ana["headers"])
    assert resigned.json()["status"] == "finished"
    after = await _ratings(client, bob, ana, bob)
    assert after[ana["id"]]["rating"] < 1500 < after[bob["id"]]["rating"]
    # The last human seat in play leaves a three-seat table: abandoned, not rated.
    cy = await new_player(client, "Cy")
    seats = [{"type": "human"}, {"type": "bot"}, {"type": "bot"}]
    created = await _create(client, cy, seats, "true", ruleset="house-nines")
    assert created.status_code == 201, created.text
    mid = created.json()["id"]
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=cy["headers"])
    left = await client.post(f"/v1/matches/{mid}/resign", json={}, headers=cy["headers"])
    assert left.json()["status"] == "abandoned"
    mine = await client.get(f"/v1/players/{cy['id']}/ratings", headers=cy["headers"])
    assert mine.json()["ratings"] == []


async def test_bad_input_is_a_problem_document_and_changes_nothing(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    h = ana["headers"]
    cases = [
        ("/v1/ratings", {"preset": "chess", "players": ana["id"]}, 422, "unknown_ruleset"),
        ("/v1/ratings", {"preset": "draw-50"}, 422, "validation_error"),
        ("/v1/ratings", {"preset": "draw-50", "players": ""}, 422, "validation_error"),
        (
            "/v1/ratings",
            {"preset": "draw-50", "players": ",".join("x" * 9)},
            422,
            "validation_error",
        ),
        ("/v1/ratings", {"preset": "draw-50", "players": "no-such"}, 404, "player_not_found"),
        ("/v1/ratings", {"preset": "draw-50", "players": "a\x00b"}, 422, "validation_error"),
        # A NUL in any query parameter is refused before the route reads it.
        ("/v1/ratings", {"preset": "draw-50\x00", "players": ana["id"]}, 422, "validation_error"),
        ("/v1/ratings", {"preset": "draw-5", "players": ana["id"]}, 422, "unknown_ruleset"),
        (
            "/v1/ratings/leaderboard",
            {"preset": "draw-50", "cursor": "\x00"},
            422,
            "validation_error",
        ),
        ("/v1/players/nobody/ratings", {}, 404, "player_not_found"),
        ("/v1/ratings/leaderboard", {"preset": "draw-50", "cursor": "zz"}, 422, "validation_error"),
        (
            "/v1/ratings/leaderboard",
            {"preset": "draw-50", "cursor": "WzEsMiwzXQ"},
            422,
            "validation_error",
        ),
        ("/v1/ratings/leaderboard", {"preset": "draw-50", "limit": 0}, 422, "validation_error"),
        ("/v1/ratings/leaderboard", {"preset": "x" * 33}, 422, "validation_error"),
    ]
    for path, params, status, code in cases:
        got = await client.get(path, params=params, headers=h)
        assert (got.status_code, got.json()["code"]) == (status, code), (path, params, got.text)
        assert got.headers["content-type"].startswith("application/problem+json")
    maybe = await _create(client, ana, HUMANS, "maybe")
    assert maybe.status_code == 422 and maybe.json()["code"] == "validation_error"
    anonymous = await client.get("/v1/ratings/leaderboard", params={"preset": "draw-50"})
    assert anonymous.status_code == 401
    mine = await client.get(f"/v1/players/{ana['id']}/ratings", headers=h)
    assert mine.json()["ratings"] == []


REFUSE = """
CREATE FUNCTION ratings_refused() RETURNS trigger LANGUAGE plpgsql
AS $$ BEGIN RAISE EXCEPTION 'ratings refused (a test)'; END $$;
CREATE TRIGGER ratings_refused BEFORE INSERT OR UPDATE ON ratings
FOR EACH ROW EXECUTE FUNCTION ratings_refused();
"""
ALLOW = "DROP TRIGGER ratings_refused ON ratings; DROP FUNCTION ratings_refused();"


async def test_the_ratings_commit_with_the_end_or_nothing_does(
    app: Any, client: httpx.AsyncClient, database_url: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    mid = await _table(client, ana, bob)
    await play_until_each_moved(client, mid, {0: ana, 1: bob})  # else an abort, for ratings
    resign = f"/v1/matches/{mid}/resign"
    finishes = "SELECT count(*) FROM finishes WHERE match_id = $1"
    db = await asyncpg.connect(to_plain_url(database_url))
    try:
        await db.execute(REFUSE)  # PostgreSQL itself refuses the ratings' write
        try:
            transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as lenient:
                failed = await lenient.post(resign, json={}, headers=ana["headers"])
            assert failed.status_code == 500
        finally:
            await db.execute(ALLOW)
        # Nothing of the end was committed: no finish, no record, the match still on.
        assert (await view(client, bob, mid))["status"] == "playing"
        assert await db.fetchval(finishes, mid) == 0
        done = await client.post(resign, json={}, headers=ana["headers"])
        assert done.json()["status"] == "finished"
        assert await db.fetchval(finishes, mid) == 1  # Bob's; a resignation earns none
    finally:
        await db.close()
    after = await _ratings(client, bob, ana, bob)
    assert after[ana["id"]]["games"] == after[bob["id"]]["games"] == 1
