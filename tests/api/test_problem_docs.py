"""A refusal reads the same over REST and over the socket: app/api.py's handlers and the socket's
error frame both take their problem document from problem_docs.problem_of."""

from __future__ import annotations

import httpx
import msgspec
import pytest
from fastapi import FastAPI
from sqlalchemy.exc import TimeoutError as PoolTimeout

from domino_api.app.api import PROBLEM, install_error_handlers
from domino_api.engine.errors import IllegalMove
from domino_api.errors import RateLimited
from domino_api.realtime.frames import error_frame
from domino_api.web.problem_docs import problem_of

FAILURES: dict[str, Exception] = {
    "service": RateLimited("Slow down.", retry_after=7),
    "engine": IllegalMove("That tile fits no open end."),
    "busy": RuntimeError("pool"),
    "bug": KeyError("secret detail"),
}
FAILURES["busy"].__cause__ = PoolTimeout("QueuePool limit reached")


def _app() -> FastAPI:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/fail/{name}")
    async def fail(name: str) -> None:
        raise FAILURES[name]

    return app


@pytest.mark.parametrize(
    ("name", "status", "code", "retry"),
    [
        ("service", 429, "rate_limited", "7"),
        ("engine", 409, "illegal_move", None),
        ("busy", 503, "service_busy", "2"),
        ("bug", 500, "internal_error", None),
    ],
)
async def test_rest_and_socket_answer_one_problem(
    name: str, status: int, code: str, retry: str | None
) -> None:
    transport = httpx.ASGITransport(app=_app(), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        answer = await client.get(f"/fail/{name}")
    assert answer.status_code == status
    assert answer.headers["content-type"] == PROBLEM
    assert answer.headers.get("retry-after") == retry
    assert answer.json()["code"] == code
    body = problem_of(FAILURES[name])
    assert answer.json() == msgspec.to_builtins(body)
    assert error_frame(3, FAILURES[name]).error == body


def test_an_unexpected_failure_tells_nothing_of_itself() -> None:
    body = problem_of(FAILURES["bug"])
    assert body.status == 500 and "secret" not in str(body)
