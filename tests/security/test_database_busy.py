"""Issue 26 item 10 (and issue 23): with PostgreSQL out of connections, requests answered 500.
A pool that gives no connection in time is now 503 `service_busy` with Retry-After, over REST,
and nothing is written."""

from __future__ import annotations

from sqlalchemy import text

from tests.security.conftest import Secured


async def test_an_exhausted_pool_answers_503_service_busy(secured: Secured) -> None:
    async with secured(db_pool_size=1, db_max_overflow=0, db_pool_timeout_s=0.2) as http:
        engine = http.app.state.db_engine  # type: ignore[attr-defined]
        async with engine.connect() as held:  # the pool's only connection, held
            await held.execute(text("SELECT 1"))
            refused = await http.post("/v1/players", json={"name": "Ana"})
            assert refused.status_code == 503, refused.text
            assert refused.headers["content-type"] == "application/problem+json"
            assert refused.json()["code"] == "service_busy"
            assert int(refused.headers["retry-after"]) >= 1
            players = await held.execute(text("SELECT count(*) FROM players"))
            assert players.scalar() == 0
        # The connection back in the pool, the same request goes through.
        assert (await http.post("/v1/players", json={"name": "Ana"})).status_code == 201
