"""/readyz tells a database that is away (every replica alike: keep them all) from a process
that is broken (drain it). The away case is held with a real stopped server in
tests/faults/test_restart.py; here the database is there but not the one configured."""

from __future__ import annotations

import httpx

from domino_api.api import create_app
from domino_api.config import Settings
from tests.conftest import _with_database


async def test_readyz_answers_503_broken_when_the_round_trip_fails_otherwise(
    database_url: str,
) -> None:
    missing = _with_database(database_url, "domino_no_such_database")
    settings = Settings(database_url=missing, log_json=False)
    app = create_app(settings, database_url=missing, start_background=False)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 503, ready.text
            assert ready.json()["status"] == "broken"
            assert "domino_no_such_database" in ready.json()["detail"]
