"""Small wrongs a product test saw (issue 43): two computers sharing a name, a cut's error in
"items", best-of-1 scores on the top 10 of games to 100, and `<bool>` beside every flag."""

from __future__ import annotations

import httpx
from typer.testing import CliRunner

from domino_api import cli
from tests.api.helpers import create_match, new_player, play_to_end

PLANNERS = [{"type": "human"}, *[{"type": "bot", "strategy": "planner"}] * 2]


async def test_two_computers_of_one_kind_go_by_distinct_names(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    created = await create_match(client, ana, "house-nines", PLANNERS)
    assert [s["name"] for s in created["seats"]] == ["Ana", "Planner", "Planner 2"]
    r = await client.get(f"/v1/matches/{created['id']}/events", headers=ana["headers"])
    joined = [e["data"]["name"] for e in r.json()["events"] if e["type"] == "seat_joined"]
    assert joined == ["Ana", "Planner", "Planner 2"]


async def test_a_long_cut_is_refused_in_characters(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    created = await create_match(client, ana, "draw-50", PLANNERS[:2])
    r = await client.post(
        f"/v1/matches/{created['id']}/start", json={"cut": "x" * 65}, headers=ana["headers"]
    )
    assert r.status_code == 422 and r.json()["code"] == "validation_error"
    assert "at most 64 characters" in r.json()["detail"] and "items" not in r.json()["detail"]
    r = await client.post(
        f"/v1/matches/{created['id']}/messages", json={"text": "y" * 501}, headers=ana["headers"]
    )
    assert r.status_code == 422 and "at most 500 characters" in r.json()["detail"]


async def test_best_of_one_scores_are_not_on_the_top_ten_of_games_to_100(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    created = await create_match(client, ana, "classic", seats, {"best_of": 1})
    r = await client.post(f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    final = await play_to_end(client, created["id"], {0: ana})
    assert final["status"] == "finished"
    board = await client.get(
        "/v1/leaderboards/classic", params={"opponent": "plain"}, headers=ana["headers"]
    )
    assert board.json()["entries"] == []
    records = await client.get("/v1/players/me/records", headers=ana["headers"])
    assert records.json()["records"] == []


def test_help_shows_no_type_beside_a_flag() -> None:
    result = CliRunner().invoke(cli.app, ["serve", "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "--no-migrate" in result.output and "<int>" in result.output
    assert "<bool>" not in result.output


async def test_a_parameter_out_of_range_is_named_in_the_problem(client: httpx.AsyncClient) -> None:
    """FastAPI checks query and path parameters (pydantic); the problem names where, as a
    body's does: `query.limit`, `path.seat`."""
    ana = await new_player(client, "Ana")
    r = await client.get("/v1/matches?limit=0", headers=ana["headers"])
    assert (r.status_code, r.json()["code"]) == (422, "validation_error"), r.text
    assert r.json()["detail"] == "query.limit: Input should be greater than or equal to 1"
    created = await create_match(client, ana, "draw-50", PLANNERS[:2])
    r = await client.put(f"/v1/matches/{created['id']}/seats/9/autopilot", headers=ana["headers"])
    assert r.status_code == 422 and r.json()["detail"].startswith("path.seat: "), r.text
