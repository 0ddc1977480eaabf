"""The bot client plays a whole match over the socket alone, through a dropped connection."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from domino_api.bot_client import BotClient, socket_url
from domino_api.engine.event_types import (
    HandStartedEvent,
    PassedEvent,
    TileDrawnEvent,
    TilePlayedEvent,
)
from tests.realtime.wsclient import new_player
from tests.support.servers import ServerProcess


async def _started_table(http: httpx.AsyncClient, opponent: str) -> tuple[dict[str, Any], str]:
    """A started house-nines table to 30: Ana against a computer seat."""
    ana = await new_player(http, "Ana")
    body = {
        "ruleset": "house-nines",
        "seats": [{"type": "human"}, {"type": "bot", "strategy": opponent}],
        "options": {"target": 30},
    }
    created = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
    r = await http.post(f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    return ana, created["id"]


async def driver_moves(http: httpx.AsyncClient) -> float:
    """Moves the server saved (matches/unit.py), from its /metrics."""
    text = (await http.get("/metrics")).text
    wanted = 'domino_write_paths_total{action="move",path="statement"} '
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(wanted))


async def test_bot_client_plays_a_match_to_the_end(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, match_id = await _started_table(http, "random")
        before = await driver_moves(http)
        notes: list[str] = []
        client = BotClient(a.base_url, match_id, ana["token"], "random", say=notes.append)
        status = await asyncio.wait_for(client.play(), 40)
        assert status == "finished", notes
        final = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        assert final["status"] == "finished" and final["result"]["winner"] in (0, 1)
        assert client.after is not None and client.after >= final["seq"] - 1
        # The socket's moves are steps of the write core, as REST moves are.
        assert await driver_moves(http) > before


def test_socket_urls() -> None:
    assert socket_url("http://h:1", "m", None, None) == "ws://h:1/v1/matches/m/ws"
    assert socket_url("https://h", "m", 5, 1) == "wss://h/v1/matches/m/ws?after=5&seat=1"


async def test_planner_bot_decides_from_the_rebuilt_seat_view(servers: list[ServerProcess]) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, match_id = await _started_table(http, "plain")
        notes: list[str] = []
        client = BotClient(a.base_url, match_id, ana["token"], "planner", say=notes.append)
        status = await asyncio.wait_for(client.play(), 60)
        assert status == "finished", notes
        # Every move came from the planner over the SeatView rebuilt from the stream.
        assert client.strategy_moves > 0 and client.fallback_moves == 0, notes
        assert client.hand_events and isinstance(client.hand_events[0], HandStartedEvent)
        view = client.seat_view()
        assert view is not None and view.status == "finished" and view.history
        # What a snapshot lacks comes over REST: the last hand's events, from its hand_started.
        final = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        fetched = await client._fetch_hand_events(final["seq"])
        moves = (HandStartedEvent, TilePlayedEvent, TileDrawnEvent, PassedEvent)
        assert [e.seq for e in fetched if isinstance(e, moves)] == [
            e.seq for e in client.hand_events if isinstance(e, moves)
        ]
