"""The lobby follows committed steps without touching the database for steps that cannot change
a listing (lobby/follower.py `concerns_lobby`): a join at a listed table is told to the lobby,
talk at a listed waiting table and a move at a table in play send no statement about the lobby
at all. Every statement the app
sends is counted (tests/realtime/test_visibility.py's `Statements`)."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from fastapi import FastAPI

from tests.api.helpers import first_legal, view
from tests.api.lobby_support import player, public_table
from tests.realtime.test_visibility import Statements


def lobby_statements(sent: list[str]) -> list[str]:
    return [text for text in sent if "lobby" in text.lower()]


async def settled(app: FastAPI) -> None:
    """The followers done, and every statement sent so far counted (asyncpg calls its query
    loggers soon after the statement, not during it)."""
    for follower in app.state.core.writer.followers:
        await follower.settled()
    await asyncio.sleep(0)


async def test_talk_and_moves_send_no_statement_about_the_lobby(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    statements = Statements()
    statements.attach(app.state.db_engine)
    ana, bob = await player(client, "Ana"), await player(client, "Bob")
    made = await public_table(client, ana, "draw")
    match_id, table_id = made["view"]["id"], made["table"]["id"]
    await settled(app)
    # Talk at a listed waiting table: a step, but nothing the lobby shows.
    before = len(statements.sent)
    r = await client.post(
        f"/v1/matches/{match_id}/messages", json={"text": "hello"}, headers=ana["headers"]
    )
    assert r.status_code == 201, r.text
    await settled(app)
    said = statements.sent[before:]
    assert any("match_events" in text for text in said), "the message's save was not counted"
    assert lobby_statements(said) == []
    before = len(statements.sent)
    r = await client.post(f"/v1/lobby/tables/{table_id}/join", json={}, headers=bob["headers"])
    assert r.status_code == 200, r.text
    await settled(app)
    # The join filled the table: the follower took it out of the lobby.
    assert lobby_statements(statements.sent[before:]), "the join was not told to the lobby"
    r = await client.post(
        f"/v1/matches/{match_id}/start", json={"cut": "moon"}, headers=ana["headers"]
    )
    assert r.status_code == 200, r.text
    holders: dict[int, dict[str, Any]] = {0: ana, 1: bob}
    seat = r.json()["turn"]["seat"]
    mine = await view(client, holders[seat], match_id, seat)
    await settled(app)
    before = len(statements.sent)
    body = {**first_legal(mine), "seq": mine["seq"], "seat": seat}
    r = await client.post(
        f"/v1/matches/{match_id}/moves", json=body, headers=holders[seat]["headers"]
    )
    assert r.status_code == 200, r.text
    await settled(app)
    during = statements.sent[before:]
    assert any("match_events" in text for text in during), "the move's save was not counted"
    assert lobby_statements(during) == []
