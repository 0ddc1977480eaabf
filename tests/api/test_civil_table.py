"""A civil table over REST: the host's talk switch, mutes on every device, reports kept for
the operators (`domino-api reports`), and blocks from the tables one hosts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import msgspec
import pytest
import typer
from typer.testing import CliRunner

from domino_api.engine.event_types import AnyEvent
from domino_api.matches import civil_cli
from tests.api.helpers import create_match, new_player

HUMANS = [{"type": "human"}, {"type": "human"}]


async def _table(client: httpx.AsyncClient) -> tuple[dict, dict, dict]:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    created = await create_match(client, ana, "draw-50", HUMANS)
    r = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert r.status_code == 200, r.text
    return ana, bob, created


async def _say(client: httpx.AsyncClient, who: dict, match_id: str, text: str) -> httpx.Response:
    return await client.post(
        f"/v1/matches/{match_id}/messages", json={"text": text}, headers=who["headers"]
    )


async def _events(client: httpx.AsyncClient, who: dict, match_id: str) -> list[dict[str, Any]]:
    r = await client.get(f"/v1/matches/{match_id}/events", headers=who["headers"])
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


async def test_the_host_turns_talk_off_and_on(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _table(client)
    url = f"/v1/matches/{created['id']}/talk-off"
    r = await client.put(url, headers=bob["headers"])
    assert r.status_code == 403 and r.json()["code"] == "not_host"
    r = await client.put(url, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["talk_off"] is True
    before = (await _events(client, bob, created["id"]))[-1]
    assert before["type"] == "talk_changed" and before["data"] == {"off": True}
    msgspec.convert(before, AnyEvent)  # its type, whose schema asyncapi.yaml publishes
    for who in (ana, bob):
        refused = await _say(client, who, created["id"], "hello?")
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "talk_off" and "turned table talk off" in refused.text
    assert (await _events(client, bob, created["id"]))[-1]["seq"] == before["seq"]
    again = await client.put(url, headers=ana["headers"])  # no second event
    assert again.status_code == 200 and again.json()["seq"] == before["seq"]
    r = await client.delete(url, headers=ana["headers"])
    assert r.status_code == 200 and r.json()["talk_off"] is False
    assert (await _say(client, bob, created["id"], "thanks")).status_code == 201


async def test_a_mute_marks_that_seats_talk_for_the_muter_only(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _table(client)
    match_id = created["id"]
    url = f"/v1/matches/{match_id}/seats/0/mute"
    r = await client.put(url, headers=bob["headers"])
    assert r.status_code == 200 and r.json() == {"seats": [0]}
    said = (await _say(client, ana, match_id, "you are slow")).json()
    mine = (await _say(client, bob, match_id, "sorry")).json()
    bobs = {e["seq"]: e for e in await _events(client, bob, match_id)}
    assert bobs[said["seq"]]["data"]["muted"] is True
    msgspec.convert(bobs[said["seq"]], AnyEvent)
    assert "muted" not in bobs[mine["seq"]]["data"]
    anas = {e["seq"]: e for e in await _events(client, ana, match_id)}
    assert "muted" not in anas[said["seq"]]["data"]
    # Another device of Bob's (the same player) reads the same mutes.
    r = await client.get(f"/v1/matches/{match_id}/mutes", headers=bob["headers"])
    assert r.json() == {"seats": [0]}
    r = await client.delete(url, headers=bob["headers"])
    assert r.status_code == 200 and r.json() == {"seats": []}
    bobs = {e["seq"]: e for e in await _events(client, bob, match_id)}
    assert "muted" not in bobs[said["seq"]]["data"]


async def test_mute_refusals(client: httpx.AsyncClient) -> None:
    ana, bob, created = await _table(client)
    eve = await new_player(client, "Eve")
    base = f"/v1/matches/{created['id']}/seats"
    cases = [
        (bob, f"{base}/1/mute", 409, "own_seat"),
        (bob, f"{base}/3/mute", 404, "seat_not_found"),
        (bob, f"{base}/4/mute", 404, "seat_not_found"),  # a seat number (up to 7), not here
        (bob, f"{base}/8/mute", 422, "validation_error"),
        (eve, f"{base}/0/mute", 403, "not_seated"),
        (bob, "/v1/matches/nope/seats/0/mute", 404, "match_not_found"),
    ]
    for who, url, status, code in cases:
        r = await client.put(url, headers=who["headers"])
        assert (r.status_code, r.json()["code"]) == (status, code), (url, r.text)
    r = await client.get(f"/v1/matches/{created['id']}/mutes", headers=bob["headers"])
    assert r.json() == {"seats": []}


async def test_reports_are_kept_once_and_listed_for_operators(
    client: httpx.AsyncClient, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ana, bob, created = await _table(client)
    match_id = created["id"]
    said = (await _say(client, ana, match_id, "rude words")).json()
    url = f"/v1/matches/{match_id}/messages/{said['seq']}/report"
    r = await client.post(url, json={"reason": "insults"}, headers=bob["headers"])
    assert r.status_code == 201, r.text
    first = r.json()
    assert (first["seq"], first["seat"], first["match_id"]) == (said["seq"], 0, match_id)
    again = await client.post(url, headers=bob["headers"])
    assert again.status_code == 201 and again.json()["id"] == first["id"]
    r = await client.post(url, headers=ana["headers"])
    assert (r.status_code, r.json()["code"]) == (409, "own_seat")
    r = await client.post(f"/v1/matches/{match_id}/messages/1/report", headers=bob["headers"])
    assert (r.status_code, r.json()["code"]) == (404, "message_not_found")
    r = await client.post(url, json={"reason": "x" * 501}, headers=bob["headers"])
    assert (r.status_code, r.json()["code"]) == (422, "validation_error")

    monkeypatch.setenv("DOMINO_DATABASE_URL", database_url)
    app = typer.Typer()
    civil_cli.register(app)
    app.command("noop")(lambda: None)  # a group of two, as the real CLI has
    with ThreadPoolExecutor(1) as pool:
        result = pool.submit(CliRunner().invoke, app, ["reports"]).result()
    assert result.exit_code == 0, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "'rude words'" in lines[0] and "reason: insults" in lines[0]
    assert f"#{first['id']}" in lines[0] and bob["id"] in lines[0] and ana["id"] in lines[0]


async def test_a_blocked_player_takes_no_seat_at_the_blockers_tables(
    client: httpx.AsyncClient,
) -> None:
    ana, bob, created = await _table(client)
    r = await client.put(f"/v1/matches/{created['id']}/seats/1/block", headers=ana["headers"])
    assert r.status_code == 200 and r.json()["player_id"] == bob["id"], r.text
    assert r.json()["name"] == "Bob"
    blocks = (await client.get("/v1/players/me/blocks", headers=ana["headers"])).json()
    assert [b["player_id"] for b in blocks["blocks"]] == [bob["id"]]
    # Bob keeps the seat he holds; a new table of Ana's refuses him.
    assert (await _say(client, bob, created["id"], "still here")).status_code == 201
    second = await create_match(client, ana, "draw-50", HUMANS)
    join = {"code": second["code"]}
    r = await client.post("/v1/matches/join", json=join, headers=bob["headers"])
    assert r.status_code == 403 and r.json()["code"] == "blocked", r.text
    seats = (await client.get(f"/v1/matches/{second['id']}", headers=ana["headers"])).json()
    assert seats["seats"][1]["name"] is None  # nothing changed
    # Bob's own tables are his: Ana may still join those.
    bobs = await create_match(client, bob, "draw-50", HUMANS)
    r = await client.post("/v1/matches/join", json={"code": bobs["code"]}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    r = await client.delete(f"/v1/players/me/blocks/{bob['id']}", headers=ana["headers"])
    assert r.status_code == 204
    r = await client.post("/v1/matches/join", json=join, headers=bob["headers"])
    assert r.status_code == 200, r.text


async def test_block_refusals(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    created = await create_match(
        client, ana, "draw-50", [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    )
    url = f"/v1/matches/{created['id']}/seats"
    r = await client.put(f"{url}/1/block", headers=ana["headers"])
    assert (r.status_code, r.json()["code"]) == (409, "seat_unavailable")
    r = await client.put(f"{url}/0/block", headers=ana["headers"])
    assert (r.status_code, r.json()["code"]) == (409, "own_seat")
    blocks = (await client.get("/v1/players/me/blocks", headers=ana["headers"])).json()
    assert blocks == {"blocks": []}


async def test_a_mute_survives_the_rematch(client: httpx.AsyncClient) -> None:
    """Issue 48: a rematch dropped the mute; the same seats, the same holders keep it."""
    ana, bob, created = await _table(client)
    match_id = created["id"]
    r = await client.put(f"/v1/matches/{match_id}/seats/0/mute", headers=bob["headers"])
    assert r.status_code == 200 and r.json()["seats"] == [0], r.text
    await client.post(f"/v1/matches/{match_id}/start", json={}, headers=ana["headers"])
    resigned = await client.post(f"/v1/matches/{match_id}/resign", json={}, headers=ana["headers"])
    assert resigned.json()["status"] == "finished", resigned.text
    for who in (ana, bob):
        offered = await client.post(
            f"/v1/matches/{match_id}/rematch", json={}, headers=who["headers"]
        )
        assert offered.status_code == 200, offered.text
    new = offered.json()["rematch_match_id"]
    assert new
    mutes = await client.get(f"/v1/matches/{new}/mutes", headers=bob["headers"])
    assert mutes.status_code == 200 and mutes.json()["seats"] == [0], mutes.text
    said = (await _say(client, ana, new, "again")).json()
    shown = [e for e in await _events(client, bob, new) if e["seq"] == said["seq"]]
    assert shown[0]["data"]["muted"] is True
    # Ana muted nobody: the rematch gave her no mute.
    assert (await client.get(f"/v1/matches/{new}/mutes", headers=ana["headers"])).json() == {
        "seats": []
    }
