"""Crash: SIGKILL the server while several clients play, restart it, and audit the database.
(The fault suite's SIGKILL of an API process: tests/faults reuses its clients and audit.)

Every move the server acknowledged (answered 200) must be stored with the events it answered;
a move that was in flight at the kill is either wholly there or wholly absent; and every
match's snapshot equals the replay of its events.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy.ext.asyncio import create_async_engine

from domino_api import engine
from domino_api.engine.shapes import snapshot_of
from domino_api.engine.table import replay
from domino_api.store import match_reads
from domino_api.store.db import make_sessionmaker, transaction
from tests.support.servers import serving

CLIENTS = 6
LOAD_BEFORE_KILL_S = 3.0


@dataclass
class Client:
    token: str
    match_id: str = ""
    view: dict[str, Any] = field(default_factory=dict)
    acked: list[dict[str, Any]] = field(default_factory=list)  # the answered events
    in_flight: dict[str, Any] | None = None
    moves: int = 0

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}


def move_body(view: dict[str, Any]) -> dict[str, Any]:
    choice = random.choice(view["legal"])
    action = {k: v for k, v in choice.items() if k != "points"}
    if action["action"] != "play":
        action.pop("tile", None)
        action.pop("end", None)
    return {**action, "seq": view["seq"]}


async def new_match(http: httpx.AsyncClient, client: Client) -> None:
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    body = {"ruleset": "all-fives", "options": {"target": 1000}, "seats": seats}
    created = await http.post("/v1/matches", json=body, headers=client.headers)
    assert created.status_code == 201, created.text
    client.match_id = created.json()["id"]
    started = await http.post(
        f"/v1/matches/{client.match_id}/start", json={}, headers=client.headers
    )
    assert started.status_code == 200, started.text
    client.view = started.json()


async def play(http: httpx.AsyncClient, client: Client) -> None:
    """Move until the connection breaks: every 200 is an acknowledgement to be kept."""
    mid = client.match_id
    while True:
        view = client.view
        if view["status"] == "hand_over":
            path, body = f"/v1/matches/{mid}/hands", {}
        else:
            assert view["status"] == "playing", view["status"]
            path, body = f"/v1/matches/{mid}/moves", move_body(view)
        client.in_flight = {"path": path, "body": body, "seq": view["seq"]}
        try:
            response = await http.post(path, json=body, headers=client.headers)
        except httpx.TransportError:
            return
        assert response.status_code == 200, response.text
        client.in_flight = None
        answer = response.json()
        if "events" in answer:
            client.acked.extend(answer["events"])
            client.view = answer["view"]
            client.moves += 1
        else:
            client.view = answer


async def audit(database_url: str, clients: list[Client]) -> dict[str, int]:
    db = create_async_engine(database_url)
    maker = make_sessionmaker(db)
    totals = {"acked_events": 0, "in_flight_applied": 0, "in_flight_absent": 0}
    try:
        for client in clients:
            async with transaction(maker) as session:
                match = await match_reads.get(session, client.match_id)
                rows = await match_reads.events_after(session, client.match_id, 0)
            assert match is not None
            seqs = [row.seq for row in rows]
            assert seqs == list(range(1, len(rows) + 1)), "events have gaps"
            assert match.seq == len(rows), "the match row and its events disagree"
            stored = {row.seq: row for row in rows}
            for event in client.acked:  # every acknowledged event is there, as answered
                row = stored.get(event["seq"])
                assert row is not None, f"acknowledged event {event['seq']} lost"
                assert row.type == event["type"]
                totals["acked_events"] += 1
            last_acked = max(
                [e["seq"] for e in client.acked] + [client.view.get("seq", 0)], default=0
            )
            human_actions_after = [
                row
                for row in rows
                if row.seq > last_acked and row.action and row.action.get("seat") == 0
            ]
            # At most the one request in flight at the kill was applied after the last answer.
            assert len(human_actions_after) <= (1 if client.in_flight else 0)
            key = "in_flight_applied" if human_actions_after else "in_flight_absent"
            totals[key] += 1 if client.in_flight else 0
            ruleset = snapshot_of(match.snapshot).ruleset
            initial = engine.new_match(ruleset, match.secret)
            assert engine.to_json(replay(rows, initial)) == snapshot_of(match.snapshot)
    finally:
        await db.dispose()
    return totals


async def test_sigkill_mid_load_loses_nothing_acknowledged(
    tmp_path: Path, record_property: Any
) -> None:
    async with serving(f"domino_ops_crash_{os.getpid()}", tmp_path / "server.log") as server:
        timeout = httpx.Timeout(10.0)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=timeout) as http:
            clients = []
            for index in range(CLIENTS):
                created = await http.post("/v1/players", json={"name": f"crash{index}"})
                assert created.status_code == 201, created.text
                clients.append(Client(token=created.json()["token"]))
            for client in clients:
                await new_match(http, client)
            players = [asyncio.create_task(play(http, c)) for c in clients]
            await asyncio.sleep(LOAD_BEFORE_KILL_S)
            server.kill()
            await asyncio.wait_for(asyncio.gather(*players), timeout=20)
        assert sum(c.moves for c in clients) >= CLIENTS, "too little load before the kill"

        restarted = time.monotonic()
        server.start()
        await server.wait_ready_async()
        ready_s = time.monotonic() - restarted  # reported (the fault suite's figure), not held
        totals = await audit(server.database_url, clients)
        assert totals["acked_events"] > 0
        record_property("recovery_s", round(ready_s, 3))
        record_property("acked_events", totals["acked_events"])
        print(
            f"crash audit: {sum(c.moves for c in clients)} acknowledged moves, {totals}, all"
            f" stored; the restarted process was ready in {ready_s:.2f} s"
        )

        # The restarted server carries on with every match from where the database says.
        async with httpx.AsyncClient(base_url=server.base_url, timeout=timeout) as http:
            for client in clients:
                fresh = await http.get(f"/v1/matches/{client.match_id}", headers=client.headers)
                assert fresh.status_code == 200, fresh.text
                view = fresh.json()
                if view["status"] == "playing" and view["legal"]:
                    body = move_body(view)
                    moved = await http.post(
                        f"/v1/matches/{client.match_id}/moves",
                        json=body,
                        headers={**client.headers, "Idempotency-Key": str(uuid.uuid4())},
                    )
                    assert moved.status_code == 200, moved.text
