"""Tournaments with the operators' tools: plans set from the command line, the recovery job
enforcing check-in, and a best-of-2 match that ends level on hands."""

from __future__ import annotations

import asyncio
import secrets
import types
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from domino_api.cli import app as cli_app
from domino_api.clock import FakeClock
from domino_api.jobs import sweeper
from domino_api.jobs.sweeper import sweep_pass
from domino_api.tournaments import service as tournament_service
from domino_api.tournaments.cli import register
from tests.api.helpers import new_player, play_to_end, view
from tests.tournaments.test_api_tournaments import check_in, create, make_players, started, tview


def _cli(args: list[str]) -> Any:
    if not any(getattr(g, "name", None) == "plan" for g in cli_app.registered_groups):
        register(cli_app)
    return CliRunner().invoke(cli_app, args)


async def _plan_set(monkeypatch: pytest.MonkeyPatch, url: str, *args: str) -> Any:
    monkeypatch.setenv("DOMINO_DATABASE_URL", url)
    # The command runs its own event loop: keep it off the test's.
    return await asyncio.to_thread(_cli, ["plan", "set", *args])


async def test_plan_set_raises_the_entrant_cap(
    client: httpx.AsyncClient, clean_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    host = await new_player(client, "Host")
    body = {"name": "Club night", "format": "round_robin", "match": {"target": 100}}

    async def post(max_entrants: int) -> httpx.Response:
        return await client.post(
            "/v1/tournaments", json={**body, "max_entrants": max_entrants}, headers=host["headers"]
        )

    assert (await post(10)).status_code == 201
    assert (await post(11)).json()["code"] == "entrant_limit"
    result = await _plan_set(monkeypatch, clean_db, host["id"], "club")
    assert result.exit_code == 0, result.output
    me = await client.get("/v1/players/me", headers=host["headers"])
    assert me.json()["plan"] == "club"
    assert (await post(20)).status_code == 201
    r = await post(21)
    assert r.status_code == 403 and r.json()["code"] == "entrant_limit"
    result = await _plan_set(monkeypatch, clean_db, host["id"], "corporate")
    assert result.exit_code == 0, result.output
    assert (await post(500)).status_code == 201
    result = await _plan_set(monkeypatch, clean_db, host["id"], "platinum")
    assert result.exit_code == 2
    result = await _plan_set(monkeypatch, clean_db, "no-such-player", "club")
    assert result.exit_code == 1


async def test_the_recovery_job_enforces_check_in(
    client: httpx.AsyncClient, app: Any, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The sweep's batch itself finishes the match for the tournament (its hook, in the
    batch's transaction through the write driver, opening the final): nothing is left to a
    step of its own."""
    alone: list[Any] = []
    handled_alone = sweeper.sweep_one

    async def spy(*args: Any, **kwargs: Any) -> Any:
        alone.append(args[1])
        return await handled_alone(*args, **kwargs)

    monkeypatch.setattr(sweeper, "sweep_one", spy)
    players = await make_players(client, 3)
    host, t = await started(client, players, "single_elimination")
    (m,) = t["rounds"][0]["matches"]
    bye = t["rounds"][0]["byes"][0]
    ready = m["players"][1]
    r = await client.post(f"/v1/matches/{m['id']}/ready", headers=players[ready]["headers"])
    assert r.status_code == 200
    clock.advance(301)
    await sweep_pass(app.state.core)
    # The sweeper ruled: the ready player advanced by forfeit and the final opened at once.
    t = await tview(client, host, t["id"])
    first = t["rounds"][0]["matches"][0]
    assert first["winner"] == ready and first["reason"] == "forfeit"
    (final,) = t["rounds"][1]["matches"]
    assert sorted(final["players"]) == sorted([bye, ready]) and final["status"] == "check_in"
    v = await view(client, players[bye], final["id"])
    assert v["check_in_deadline"] is not None
    # Nobody checks in to the final: the recovery job cancels the tournament.
    clock.advance(301)
    await sweep_pass(app.state.core)
    t = await tview(client, host, t["id"])
    assert t["status"] == "cancelled" and t["champion"] is None
    assert t["rounds"][1]["matches"][0]["reason"] == "no_show"
    assert alone == []


async def test_best_of_two_level_on_hands_is_decided_by_points(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A deal secret and cut known to end 1-1 on hands when both seats play their first legal
    # action (found with the engine; the server normally draws both at random).
    zeros = types.SimpleNamespace(token_bytes=lambda n: bytes(n))
    # the seeding shuffle and the match's deal secret
    monkeypatch.setattr(tournament_service, "secrets", zeros)
    monkeypatch.setattr(secrets, "token_hex", lambda n=None: "0123456789abcdef")
    players = await make_players(client, 2)
    host, t = await started(client, players, "single_elimination", match={"best_of": 2})
    (m,) = t["rounds"][0]["matches"]
    await check_in(client, players, m)
    a, b = (players[pid] for pid in m["players"])
    final = await play_to_end(client, m["id"], {0: a, 1: b})
    assert final["result"]["hands_won"] == [1, 1]
    assert final["result"]["reason"] == "best_of"
    scores = final["result"]["scores"]
    assert scores[0] != scores[1]
    winner_seat = 0 if scores[0] > scores[1] else 1
    assert final["result"]["winner"] == winner_seat
    t = await tview(client, host, t["id"])
    assert t["champion"] == m["players"][winner_seat]
    (row,) = t["rounds"][0]["matches"]
    assert row["reason"] == "played"
    top = t["standings"][0]
    assert top["player_id"] == t["champion"]
    assert top["match_wins"] == 1 and top["hand_diff"] == 0
    assert top["point_diff"] == abs(scores[0] - scores[1])


async def test_max_entrants_default_cap_counts_the_host_plan(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Host")
    t = await create(client, host, max_entrants=10)
    assert t["max_entrants"] == 10 and t["host"] == host["id"]
