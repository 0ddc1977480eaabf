"""Issue 26, item 2: the game numbers ran out (1,100 addresses held 9,487 tables: started solo
tables kept theirs for 24 h, and rematches were not counted).

A table holds a number only while a remote human can join or rejoin it, and live numbered
tables are capped per host and per creating address, rematches included."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from domino_api.store import match_codes
from tests.security.conftest import Secured, player

TWO = {"ruleset": "house-nines", "seats": [{"type": "human"}] * 2}
SOLO = {"ruleset": "draw-50", "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}]}
HOT_SEAT = {
    "ruleset": "house-nines",
    "seats": [{"type": "human"}, {"type": "human", "holder": "host"}],
}


@asynccontextmanager
async def _from(http: httpx.AsyncClient, address: str) -> Any:
    transport = httpx.ASGITransport(app=http.app, client=(address, 40000))  # type: ignore[attr-defined]
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as other:
        yield other


async def _create(
    http: httpx.AsyncClient, who: dict[str, Any], body: dict[str, Any]
) -> httpx.Response:
    return await http.post("/v1/matches", json=body, headers=who["headers"])


async def test_a_table_nobody_can_join_holds_no_number(secured: Secured) -> None:
    async with secured(numbered_tables_per_player=1, open_tables_per_player=100) as http:
        ana = await player(http, "Ana")
        # Against computers, or hot-seat: no number, and no cap on numbered tables.
        for body in (SOLO, HOT_SEAT, SOLO, SOLO):
            made = await _create(http, ana, body)
            assert made.status_code == 201 and made.json()["code"] is None, made.text
        started = await http.post(
            f"/v1/matches/{made.json()['id']}/start", json={}, headers=ana["headers"]
        )
        assert started.status_code == 200 and started.json()["code"] is None
        # A table a guest can join has one.
        assert (await _create(http, ana, TWO)).json()["code"] is not None


async def test_the_number_is_freed_when_the_last_guest_leaves(secured: Secured) -> None:
    async with secured() as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        body = {"ruleset": "house-nines", "seats": [{"type": "human"}] * 2 + [{"type": "bot"}]}
        made = (await _create(http, ana, body)).json()
        code, mid = made["code"], made["id"]
        r = await http.post("/v1/matches/join", json={"code": code}, headers=bob["headers"])
        assert r.status_code == 200
        r = await http.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        assert r.status_code == 200 and r.json()["code"] == code
        r = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
        assert r.status_code == 200, r.text
        view = (await http.get(f"/v1/matches/{mid}", headers=ana["headers"])).json()
        assert view["status"] == "playing" and view["code"] is None  # Ana plays on, alone
        cy = await player(http, "Cy")
        gone = await http.post("/v1/matches/join", json={"code": code}, headers=cy["headers"])
        assert gone.status_code == 404 and gone.json()["code"] == "code_not_found"
        # The number is free for a new table (the draw is random, so take it by the index).
        assert await _number_is_free(http, code)


async def _number_is_free(http: httpx.AsyncClient, code: str) -> bool:
    from sqlalchemy import select

    from domino_api.engine.kinds import OVER
    from domino_api.store.models import Match

    maker = http.app.state.sessionmaker  # type: ignore[attr-defined]
    async with maker() as session:
        stmt = select(Match.id).where(Match.code == code, Match.status.not_in(OVER))
        return (await session.execute(stmt)).first() is None


async def test_numbered_tables_are_capped_per_host_and_per_address(secured: Secured) -> None:
    caps = {"numbered_tables_per_player": 2, "numbered_tables_per_address": 3}
    async with secured(open_tables_per_player=100, **caps) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        answers = [(await _create(http, ana, TWO)).status_code for _ in range(3)]
        assert answers == [201, 201, 429]
        assert (await _create(http, ana, SOLO)).status_code == 201  # needs no number
        # Bob, from the same address: one more, then the address is full.
        assert [(await _create(http, bob, TWO)).status_code for _ in range(2)] == [201, 429]
        refused = await _create(http, bob, TWO)
        assert refused.json()["code"] == "rate_limited" and "Retry-After" in refused.headers
        async with _from(http, "10.9.9.9") as elsewhere:
            cy = await player(elsewhere, "Cy")
            assert (await _create(elsewhere, cy, TWO)).status_code == 201


async def test_a_rematch_counts_against_the_hosts_numbered_tables(secured: Secured) -> None:
    async with secured(numbered_tables_per_player=1, open_tables_per_player=100) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        made = (await _create(http, ana, TWO)).json()
        mid = made["id"]
        r = await http.post("/v1/matches/join", json={"code": made["code"]}, headers=bob["headers"])
        assert r.status_code == 200
        assert (
            await http.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        ).status_code == 200
        r = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=bob["headers"])
        assert r.json()["status"] == "finished"  # two seats: over, its number given back
        assert (await _create(http, ana, TWO)).status_code == 201  # Ana's one numbered table
        offer = await http.post(f"/v1/matches/{mid}/rematch", json={}, headers=bob["headers"])
        assert offer.status_code == 200
        last = await http.post(f"/v1/matches/{mid}/rematch", json={}, headers=ana["headers"])
        assert last.status_code == 429 and last.json()["code"] == "rate_limited", last.text
        after = (await http.get(f"/v1/matches/{mid}", headers=ana["headers"])).json()
        assert after["rematch_match_id"] is None


async def test_with_every_number_in_use_only_tables_that_need_one_are_refused(
    secured: Secured, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The 4-digit numbers only: holding every 5- and 6-digit one too would take a million rows
    # (tests/ops/test_number_space.py holds the growth itself).
    monkeypatch.setattr(match_codes, "SPACES", match_codes.SPACES[:1])
    async with secured(numbered_tables_per_player=100, open_tables_per_player=100) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        solo = (await _create(http, ana, SOLO)).json()
        mid = solo["id"]
        r = await http.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        assert r.status_code == 200
        r = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=ana["headers"])
        assert r.json()["status"] == "finished"
        pair = await _finished_between(http, ana, bob)
        await _hold_every_number(http, template=mid)
        # A table a guest could join needs a number: refused, with when to try again.
        full = await _create(http, ana, TWO)
        assert full.status_code == 409 and full.json()["code"] == "match_full", full.text
        assert full.headers["retry-after"] == "60"
        # A rematch against the computer needs none: it goes ahead.
        again = await http.post(f"/v1/matches/{mid}/rematch", json={}, headers=ana["headers"])
        assert again.status_code == 200, again.text
        new_id = again.json()["rematch_match_id"]
        assert new_id is not None
        new = (await http.get(f"/v1/matches/{new_id}", headers=ana["headers"])).json()
        assert new["code"] is None and new["status"] != "finished"
        # A rematch between two people needs one: refused, and no new table.
        offer = await http.post(f"/v1/matches/{pair}/rematch", json={}, headers=bob["headers"])
        assert offer.status_code == 200, offer.text
        last = await http.post(f"/v1/matches/{pair}/rematch", json={}, headers=ana["headers"])
        assert last.status_code == 409 and last.json()["code"] == "match_full", last.text
        assert last.headers["retry-after"] == "60"
        after = (await http.get(f"/v1/matches/{pair}", headers=ana["headers"])).json()
        assert after["rematch_match_id"] is None


async def _finished_between(http: httpx.AsyncClient, host: Any, guest: Any) -> str:
    """A match of two people, over (the guest resigned): its id."""
    made = (await _create(http, host, TWO)).json()
    joined = await http.post(
        "/v1/matches/join", json={"code": made["code"]}, headers=guest["headers"]
    )
    assert joined.status_code == 200, joined.text
    started = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=host["headers"])
    assert started.status_code == 200, started.text
    r = await http.post(f"/v1/matches/{made['id']}/resign", json={}, headers=guest["headers"])
    assert r.json()["status"] == "finished"
    return str(made["id"])


async def _hold_every_number(http: httpx.AsyncClient, template: str) -> None:
    """All 10,000 game numbers held by live copies of the `template` match's row (every
    number, so that drawing one fails for certain: past 9,000 it fails by chance)."""
    from sqlalchemy import text

    from domino_api.store.models import Match

    # Hosted by nobody, so that no host's or address's cap is what refuses.
    made = ("id", "code", "status", "host_player_id", "host_address")
    columns = ", ".join(c.name for c in Match.__table__.columns if c.name not in made)
    maker = http.app.state.sessionmaker  # type: ignore[attr-defined]
    async with maker() as session, session.begin():
        await session.execute(
            text(
                f"INSERT INTO matches (id, code, status, host_player_id, host_address, {columns}) "
                "SELECT gen_random_uuid()::text, lpad(n::text, 4, '0'), 'playing', NULL, NULL, "
                f"{columns} "
                "FROM matches, generate_series(0, 9999) AS n WHERE id = :template"
            ),
            {"template": template},
        )
