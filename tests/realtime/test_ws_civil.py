"""A civil table over the socket: talk off refuses a message with the same problem as REST,
and a mute made on another device marks the muted seat's talk on an open socket at once."""

from __future__ import annotations

import httpx

from tests.realtime.wsclient import Socket, two_seat_match
from tests.support.servers import ServerProcess


async def _next_message(socket: Socket) -> dict:
    for _ in range(50):  # bounded: keepalives would keep an unbounded wait alive
        frame = await socket.recv()
        if frame["type"] == "event" and frame["event"]["type"] == "message":
            return dict(frame["event"])
    raise AssertionError("no message event in 50 frames")


async def _say(socket: Socket, text: str) -> tuple[dict, dict]:
    """Send a message; its own event (which comes before the ack) and the ack."""
    await socket.send({"type": "message", "id": text, "text": text})
    event = None
    while True:
        frame = await socket.recv()
        if frame["type"] == "event" and frame["event"]["type"] == "message":
            event = frame["event"]
        if frame["type"] in ("ack", "error") and frame.get("id") == text:
            assert event is not None, frame
            return event, frame


async def test_talk_off_and_a_mute_over_the_socket(servers: list[ServerProcess]) -> None:
    a, b = servers
    async with httpx.AsyncClient(base_url=a.base_url) as http:
        ana, bob, created = await two_seat_match(http)
        match_id = created["id"]
        bobs = await Socket.open(b.ws_url, match_id, bob["token"])
        anas = await Socket.open(a.ws_url, match_id, ana["token"])
        await bobs.recv()
        await anas.recv()

        # The mute is made over REST (another device of Bob's), after his socket opened.
        r = await http.put(f"/v1/matches/{match_id}/seats/0/mute", headers=bob["headers"])
        assert r.status_code == 200, r.text
        own, ack = await _say(anas, "hurry up")
        assert ack["type"] == "ack" and "muted" not in own["data"], (own, ack)
        muted = await _next_message(bobs)
        assert muted["seq"] == ack["seq"] and muted["data"]["muted"] is True
        r = await http.delete(f"/v1/matches/{match_id}/seats/0/mute", headers=bob["headers"])
        assert r.status_code == 200
        await _say(anas, "please")
        assert "muted" not in (await _next_message(bobs))["data"]

        r = await http.put(f"/v1/matches/{match_id}/talk-off", headers=ana["headers"])
        assert r.status_code == 200 and r.json()["talk_off"] is True
        refused = await bobs.request({"type": "message", "text": "hello?"})
        assert refused["type"] == "error", refused
        assert (refused["error"]["status"], refused["error"]["code"]) == (409, "talk_off")
        await anas.close()
        await bobs.close()
