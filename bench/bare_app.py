"""The bare route that bench/capacity.py sets the service's move beside: FastAPI + asyncpg, the
same shape as a move and nothing else.

`POST /bare/{match_id}/moves` with a bearer token and a move body: the token is looked up in a
process cache (as the service's auth cache answers most requests), the body is validated by a
pydantic model, the match row is read (version and JSON snapshot, parsed), and the new snapshot
and one event are saved by one statement guarded by the version; the answer is the state as
JSON. No rules, no computers, no events beyond one, no pacing, no logging, no metrics.

`/bare/ws` is the bare socket bench/socket_opens.py sets the service's beside: a token looked
up in the process's dict, accept, one text of a snapshot's size, then read until closed.

    DOMINO_BARE_DATABASE_URL=postgresql://... python -m uvicorn bare_app:app --app-dir bench
"""

from __future__ import annotations

import json
import os
import uuid
from typing import Any, Literal

import asyncpg
from fastapi import FastAPI, Header, HTTPException, WebSocket
from pydantic import BaseModel, Field

SCHEMA = """
CREATE TABLE IF NOT EXISTS bare_matches (id text PRIMARY KEY, version int NOT NULL,
                                         snapshot json NOT NULL);
CREATE TABLE IF NOT EXISTS bare_events (match_id text, seq int, data jsonb,
                                        PRIMARY KEY (match_id, seq));
"""
SAVE = """
WITH moved AS (
    UPDATE bare_matches SET version = version + 1, snapshot = $3::json
    WHERE id = $1 AND version = $2 RETURNING version)
INSERT INTO bare_events SELECT $1, version, $4::jsonb FROM moved RETURNING seq
"""


class Move(BaseModel):
    action: Literal["play", "draw", "pass"]
    tile: list[int] | None = Field(default=None, max_length=2)
    end: str | None = None
    seq: int = Field(ge=0)


app = FastAPI()
tokens: dict[str, str] = {}
SOCKET_TOKENS = {"t"}
SNAPSHOT = json.dumps({"type": "snapshot", "view": {"board": [[6, 6]] * 300}})


@app.on_event("startup")
async def open_pool() -> None:
    app.state.pool = await asyncpg.create_pool(os.environ["DOMINO_BARE_DATABASE_URL"])
    async with app.state.pool.acquire() as connection:
        await connection.execute(SCHEMA)


@app.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@app.post("/bare/matches", status_code=201)
async def create(snapshot: dict[str, Any], authorization: str = Header()) -> dict[str, str]:
    match_id = str(uuid.uuid4())
    tokens[authorization] = match_id
    async with app.state.pool.acquire() as connection:
        await connection.execute(
            "INSERT INTO bare_matches VALUES ($1, 0, $2::json)", match_id, json.dumps(snapshot)
        )
    return {"id": match_id}


@app.post("/bare/{match_id}/moves")
async def move(match_id: str, body: Move, authorization: str = Header()) -> dict[str, Any]:
    if tokens.get(authorization) != match_id:
        raise HTTPException(403, "not your match")
    async with app.state.pool.acquire() as connection:
        row = await connection.fetchrow(
            "SELECT version, snapshot FROM bare_matches WHERE id = $1", match_id
        )
        state = json.loads(row["snapshot"])
        state["seq"] = row["version"] + 1
        event = {"type": "tile_played", "seat": 0, "tile": body.tile, "end": body.end}
        saved = await connection.fetchval(
            SAVE, match_id, row["version"], json.dumps(state), json.dumps(event)
        )
    if saved is None:
        raise HTTPException(409, "stale")
    return {"view": state, "events": [event]}


@app.websocket("/bare/ws")
async def socket(websocket: WebSocket) -> None:
    if websocket.headers.get("authorization") not in SOCKET_TOKENS:
        await websocket.close(4401)
        return
    await websocket.accept()
    await websocket.send_text(SNAPSHOT)
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass
