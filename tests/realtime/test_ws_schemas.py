"""Every socket message of a played match against realtime/frames.py and asyncapi.yaml.

Two seats watch a whole match over the socket while a guest goes away and comes back, and it is
played, talked over, handed to the computer and back, re-skinned (a tile back change) and
rematched; every message either socket receives (keepalives, pongs, errors included) is
decoded strictly as its frame type (realtime/frames.py) and validated against the payload
schema openapi/asyncapi.yaml publishes for it, events by their `type`.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import msgspec
import yaml

from domino_api.realtime import frames
from tests.realtime.wsclient import OVER, Socket, rest_step, start, two_seat_match
from tests.support.servers import ServerProcess

ASYNCAPI = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.yaml"


class RecordingSocket(Socket):
    """A Socket that keeps every message it receives, keepalives included."""

    received: list[dict[str, Any]]

    async def recv(self, timeout: float = 5.0, keepalive: bool = False) -> dict[str, Any]:
        while True:
            raw = await asyncio.wait_for(self.connection.recv(), timeout)
            message: dict[str, Any] = json.loads(raw)
            self.received.append(message)
            if message["type"] == "keepalive" and not keepalive:
                continue
            return message


async def _recording(ws_url: str, match_id: str, token: str) -> RecordingSocket:
    socket = await RecordingSocket.open(ws_url, match_id, token)
    assert isinstance(socket, RecordingSocket)
    socket.received = []
    return socket


# The match socket's server frames by their `type` (the lobby's `subscribed` is not sent here).
MATCH_FRAMES = {
    frames.tag_of(kind): kind for kind in frames.SERVER_FRAMES if kind is not frames.SubscribedFrame
}


def _validators() -> dict[str, jsonschema.protocols.Validator]:
    components = yaml.safe_load(ASYNCAPI.read_text())["components"]
    return {
        name: jsonschema.Draft202012Validator(
            {"$ref": f"#/components/messages/{name}/payload", "components": components}
        )
        for name in MATCH_FRAMES
    }


async def _play_talk_and_rematch(
    http: httpx.AsyncClient, match_id: str, holders: dict[int, dict[str, Any]], socket: Socket
) -> None:
    ana, bob = holders[0], holders[1]
    answer = await socket.request({"type": "message", "text": "good luck"})
    assert answer["type"] == "ack", answer
    assert (await socket.request({"type": "move", "action": "pass", "seq": 0}))["type"] == "error"
    await socket.send("not json")
    await socket.send({"type": "ping", "id": 7})
    backs = (await http.get("/v1/tile-backs", headers=ana["headers"])).json()
    other = next(b["id"] for b in backs if b["id"] != ana["tile_back"])
    r = await http.patch("/v1/players/me", json={"tile_back": other}, headers=ana["headers"])
    assert r.status_code == 200, r.text
    # The host hands only a disconnected holder's seat to the computer: her own, here.
    seat_path = f"/v1/matches/{match_id}/seats/0/autopilot"
    assert (await http.put(seat_path, headers=ana["headers"])).status_code == 200
    assert (await http.delete(seat_path, headers=ana["headers"])).status_code == 200
    status = "playing"
    for _ in range(3000):
        status = await rest_step(http, match_id, holders)
        if status in OVER:
            break
    assert status == "finished"
    for player in (ana, bob):
        r = await http.post(f"/v1/matches/{match_id}/rematch", headers=player["headers"], json={})
        assert r.status_code == 200, r.text


async def _presence_of(socket: Socket, kind: str) -> dict[str, Any]:
    """The next event of that kind the socket receives (the ones before it are skipped)."""
    while True:
        message = await socket.recv(timeout=10.0)
        if message["type"] == "event" and message["event"]["type"] == kind:
            return dict(message["event"]["data"])


async def _away_and_back(
    ws_url: str, match_id: str, bob: dict[str, Any], sockets: list[RecordingSocket]
) -> None:
    """Bob's join made him present; with no request since, his seat lapses after the lease
    (3 s here), and he comes back on a socket of his own: the host's socket sees both."""
    gone = await _presence_of(sockets[0], "seat_disconnected")
    assert gone["seat"] == 1 and gone["away_since"]
    sockets.append(await _recording(ws_url, match_id, bob["token"]))
    assert (await sockets[1].recv())["type"] == "snapshot"
    assert await _presence_of(sockets[0], "seat_connected") == {"seat": 1}


async def test_every_socket_message_of_a_played_match_fits_its_schema(
    servers: list[ServerProcess],
) -> None:
    a, _ = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http, ruleset="all-fives", target=30)
        match_id = created["id"]
        holders = {0: ana, 1: bob}
        sockets = [await _recording(a.ws_url, match_id, ana["token"])]
        # Subscribed once its snapshot is here: then the start follows.
        assert (await sockets[0].recv())["type"] == "snapshot"
        await _away_and_back(a.ws_url, match_id, bob, sockets)
        await start(http, ana, match_id)
        await _play_talk_and_rematch(http, match_id, holders, sockets[0])
        final = (await http.get(f"/v1/matches/{match_id}", headers=ana["headers"])).json()
        for socket in sockets:
            await socket.events_until(final["seq"])
            await socket.recv(timeout=10.0, keepalive=True)  # one keepalive at least
            await socket.close()
    validators = _validators()
    kinds: Counter[str] = Counter()
    events: Counter[str] = Counter()
    for socket in sockets:
        assert socket.received[0]["type"] == "snapshot"
        for message in socket.received:
            kind = message["type"]
            decoded = msgspec.json.decode(json.dumps(message), type=frames.ServerFrame)
            assert isinstance(decoded, MATCH_FRAMES[kind])
            validators[kind].validate(message)
            kinds[kind] += 1
            if kind == "event":
                events[message["event"]["type"]] += 1
    print(f"\nsocket messages: {sum(kinds.values())} {dict(kinds)}; events {dict(events)}")
    assert set(kinds) == set(MATCH_FRAMES)
    wanted = {
        "seat_disconnected",
        "seat_connected",
        "match_started",
        "message",
        "autopilot_on",
        "autopilot_off",
    }
    wanted |= {"tile_back_changed", "rematch_offered", "rematch_created", "match_ended"}
    assert wanted <= set(events)
