"""The request's unit of work (`deps.UnitOfWork`) on the real database: what a route stages
commits before the answer is sent, and what it asked to run after the commit runs then; a
route that raises leaves nothing behind and is answered as its problem document."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import httpx
from fastapi import FastAPI

from domino_api.clock import Clock
from domino_api.errors import TournamentStarted
from domino_api.players import service
from domino_api.store.db import after_commit, to_plain_url
from domino_api.web.deps import UnitOfWork

Log = list[str]


async def player_stored(database_url: str, player_id: str) -> bool:
    conn = await asyncpg.connect(to_plain_url(database_url))
    try:
        return bool(await conn.fetchval("SELECT count(*) FROM players WHERE id = $1", player_id))
    finally:
        await conn.close()


def recording(app: Any, log: Log) -> Callable[..., Awaitable[None]]:
    """The app as ASGI, noting in `log` when the answer starts to be sent."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        async def noted(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                log.append("answer sent")
            await send(message)

        await app(scope, receive, noted)

    return asgi


def add_routes(app: FastAPI, clock: Clock, database_url: str, log: Log) -> None:
    async def stage_and_answer(session: UnitOfWork) -> dict[str, Any]:
        created = await service.create_player(session, clock, "Staged")

        async def after() -> None:
            stored = await player_stored(database_url, created.id)
            log.append("after commit: stored" if stored else "after commit: missing")

        after_commit(session, after)
        return {"id": created.id}

    async def stage_and_fail(session: UnitOfWork) -> dict[str, Any]:
        created = await service.create_player(session, clock, "Rolled back")
        log.append(created.id)
        raise TournamentStarted("refused after staging a row")

    app.add_api_route("/test/unit-of-work/answer", stage_and_answer, methods=["POST"])
    app.add_api_route("/test/unit-of-work/fail", stage_and_fail, methods=["POST"])


async def test_a_unit_commits_before_the_answer_and_runs_its_after_commit_jobs_first(
    app: Any, clean_db: str
) -> None:
    log: Log = []
    add_routes(app, app.state.clock, clean_db, log)
    transport = httpx.ASGITransport(app=recording(app, log))  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        answer = await http.post("/test/unit-of-work/answer")
    assert answer.status_code == 200, answer.text
    assert log == ["after commit: stored", "answer sent"]
    assert await player_stored(clean_db, answer.json()["id"])


async def test_a_unit_whose_route_raises_rolls_back_and_answers_its_problem(
    app: Any, clean_db: str
) -> None:
    log: Log = []
    add_routes(app, app.state.clock, clean_db, log)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        answer = await http.post("/test/unit-of-work/fail")
    assert answer.status_code == 409
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "tournament_started"
    (staged_id,) = log
    assert not await player_stored(clean_db, staged_id)
