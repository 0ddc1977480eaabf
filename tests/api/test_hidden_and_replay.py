"""Hidden information through whole matches, and snapshots that equal the replay of events."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from domino_api import engine
from domino_api.engine.shapes import snapshot_of
from domino_api.engine.table import replay
from domino_api.store import match_reads
from domino_api.store.db import transaction
from tests.api.helpers import create_match, first_legal, new_player, view

PRESETS = ["all-fives", "house-nines", "draw-50", "draw", "block", "classic", "fives-and-threes"]


def _assert_event_hides(event: dict[str, Any], seat: int, over: bool) -> None:
    data = event["data"]
    if event["type"] == "tile_drawn" and data["seat"] != seat:
        assert "tile" not in data, event
    if event["type"] == "hand_started":
        assert isinstance(data["stock"], int)
    if event["type"] == "turn" and data["seat"] != seat:
        assert "legal" not in data
    if event["type"] == "turn" and data["seat"] == seat:
        assert data["legal"] and all(isinstance(a, dict) and "action" in a for a in data["legal"])
    if not over:
        assert "secret" not in str(event)


def _assert_view_hides(v: dict[str, Any]) -> None:
    assert isinstance(v["stock"], int)
    assert all(isinstance(s["tiles"], int) for s in v["seats"])
    if v["status"] not in ("finished", "abandoned", "cancelled"):
        assert "secret" not in str(v)


async def _play_collecting(client: httpx.AsyncClient, mid: str, holders: dict[int, Any]):
    views: dict[int, list[dict[str, Any]]] = {s: [] for s in holders}
    for _ in range(5000):
        v = await view(client, holders[0], mid, 0)
        views[0].append(v)
        if v["turn"] is not None and v["turn"]["seat"] != 0:
            views[v["turn"]["seat"]].append(await view(client, holders[1], mid, 1))
        if v["status"] == "finished":
            return views
        if v["status"] == "hand_over":
            await client.post(f"/v1/matches/{mid}/hands", headers=holders[0]["headers"], json={})
            continue
        seat = v["turn"]["seat"]
        mine = views[seat][-1]
        body = {**first_legal(mine), "seq": mine["seq"], "seat": seat}
        r = await client.post(
            f"/v1/matches/{mid}/moves", json=body, headers=holders[seat]["headers"]
        )
        assert r.status_code == 200, r.text
        for event in r.json()["events"]:
            _assert_event_hides(event, seat, r.json()["view"]["status"] == "finished")
    raise AssertionError("did not finish")


@pytest.mark.parametrize("ruleset", PRESETS)
async def test_no_seat_sees_another_seats_tiles_and_replay_equals_snapshot(
    client: httpx.AsyncClient, app: Any, ruleset: str
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    seats = [{"type": "human"}, {"type": "human"}]
    if ruleset == "house-nines":
        seats.append({"type": "bot", "strategy": "plain"})
    # A low target keeps the test quick while still crossing several hands.
    created = await create_match(client, ana, ruleset, seats, {"target": 40})
    mid = created["id"]
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    await client.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
    views = await _play_collecting(client, mid, {0: ana, 1: bob})
    ledger = (await client.get(f"/v1/matches/{mid}/ledger", headers=ana["headers"])).json()
    for seat, player in ((0, ana), (1, bob)):
        for v in views[seat]:
            _assert_view_hides(v)
        events = (
            await client.get(
                f"/v1/matches/{mid}/events", params={"seat": seat}, headers=player["headers"]
            )
        ).json()["events"]
        hands_started = [e for e in events if e["type"] == "hand_started"]
        assert len(hands_started) == len(ledger["hands"])
        for event, hand in zip(hands_started, ledger["hands"], strict=True):
            assert event["data"]["hand"] == hand["dealt"][seat]  # own tiles, nobody else's
        for event in events:
            _assert_event_hides(event, seat, over=event["type"] == "match_ended")
    async with transaction(app.state.sessionmaker) as session:
        match = await match_reads.get(session, mid)
        rows = await match_reads.events_after(session, mid, 0)
    assert match is not None
    initial = engine.new_match(engine.Ruleset.from_dict(ledger["ruleset"]), match.secret)
    assert engine.to_json(replay(rows, initial)) == snapshot_of(match.snapshot)
