"""Moves through two real server processes in turn: each keeps a copy of the match that the
other's moves leave behind (matches/unit.py), and no answer may come from a stale copy."""

from __future__ import annotations

import asyncpg
import httpx

from tests.support.servers import ServerProcess


def _move(view: dict) -> dict:
    action = {k: v for k, v in view["legal"][0].items() if k != "points"}
    if action["action"] != "play":
        action.pop("tile", None)
        action.pop("end", None)
    return {**action, "seq": view["seq"]}


def _driver_moves(metrics_text: str) -> float:
    """Moves this process saved (one statement, or a transaction for the match's end)."""
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in metrics_text.splitlines()
        if line.startswith('domino_write_paths_total{action="move",')
    )


async def test_moves_alternating_between_processes_are_all_answered_from_the_table(
    servers: list[ServerProcess], ws_database: str
) -> None:
    clients = [httpx.AsyncClient(base_url=server.base_url) for server in servers]
    try:
        a = clients[0]
        r = await a.post("/v1/players", json={"name": "Ana"})
        headers = {"Authorization": f"Bearer {r.json()['token']}"}
        seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
        body = {"ruleset": "all-fives", "seats": seats}  # to 150: dozens of moves each way
        match_id = (await a.post("/v1/matches", json=body, headers=headers)).json()["id"]
        before = [_driver_moves((await c.get("/metrics")).text) for c in clients]
        v = (await a.post(f"/v1/matches/{match_id}/start", json={}, headers=headers)).json()
        moves, turn = [0, 0], 0
        while v["status"] in ("playing", "hand_over"):
            http = clients[turn % 2]  # every request goes to the other process than the last
            turn += 1
            if v["status"] == "hand_over":
                r = await http.post(f"/v1/matches/{match_id}/hands", json={}, headers=headers)
                assert r.status_code == 200, r.text
                v = r.json()
                continue
            r = await http.post(f"/v1/matches/{match_id}/moves", json=_move(v), headers=headers)
            # The process's own copy is at least one move behind: on it this seq is from the
            # future. Only the table itself may answer.
            assert r.status_code == 200, r.text
            assert r.json()["view"]["seq"] > v["seq"]
            moves[(turn - 1) % 2] += 1
            v = r.json()["view"]
        assert v["status"] == "finished"
        after = [_driver_moves((await c.get("/metrics")).text) for c in clients]
        # Every move was answered on the driver path: none was handed to the ORM path.
        assert [x - y for x, y in zip(after, before, strict=True)] == moves
        # Each process moved at least twice: at least once on a copy the other had left behind.
        assert min(moves) >= 2
    finally:
        for client in clients:
            await client.aclose()
    conn = await asyncpg.connect(ws_database)
    try:
        seqs = [
            r["seq"]
            for r in await conn.fetch(
                "SELECT seq FROM match_events WHERE match_id = $1 ORDER BY seq", match_id
            )
        ]
        stored = await conn.fetchval("SELECT seq FROM matches WHERE id = $1", match_id)
    finally:
        await conn.close()
    assert seqs == list(range(1, stored + 1)) and stored == v["seq"]
