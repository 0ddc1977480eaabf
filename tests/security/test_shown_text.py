"""Table talk and a cut are shown to every seat: no control character (a terminal's escapes, a
line break that forges a log line), no bidi control (it reorders what the others read), over
REST and over the socket alike. Emoji joined by U+200D stay."""

from __future__ import annotations

import json

import httpx
import pytest

from domino_api.realtime import frames
from tests.api.helpers import create_match, new_player

REFUSED = [
    "\u0007\u001b[31mred\u001b[0m",
    "ok\r\nINFO forged",
    "\u202eevil",
    "\u2066x\u2069",
    "a\u2028b",
]
TAKEN = ["good game!", "\U0001f468\u200d\U0001f469\u200d\U0001f467 gg", "ça va ?"]


async def test_talk_and_cut_refuse_control_and_bidi_characters(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    match = await create_match(client, ana, "all-fives", seats)
    path = f"/v1/matches/{match['id']}"
    for text in REFUSED:
        said = await client.post(f"{path}/messages", json={"text": text}, headers=ana["headers"])
        assert (said.status_code, said.json()["code"]) == (422, "validation_error"), text
        cut = await client.post(f"{path}/start", json={"cut": text}, headers=ana["headers"])
        assert (cut.status_code, cut.json()["code"]) == (422, "validation_error"), text
    events = await client.get(f"{path}/events", headers=ana["headers"])
    assert not [e for e in events.json()["events"] if e["type"] in ("message", "match_started")]
    for text in TAKEN:
        said = await client.post(f"{path}/messages", json={"text": text}, headers=ana["headers"])
        assert said.status_code == 201 and said.json()["data"]["text"] == text, said.text
    started = await client.post(f"{path}/start", json={"cut": TAKEN[1]}, headers=ana["headers"])
    assert started.status_code == 200, started.text


@pytest.mark.parametrize("text", REFUSED)
def test_the_socket_refuses_the_same(text: str) -> None:
    for frame in (
        {"type": "message", "id": 1, "text": text},
        {"type": "start", "id": 1, "cut": text},
    ):
        refused = frames.read_frame(json.dumps(frame), None)
        assert isinstance(refused, frames.ErrorFrame), frame
        assert refused.error.code == "validation_error" and refused.id == 1
        assert "control or bidi character" in refused.error.detail
    taken = frames.read_frame(json.dumps({"type": "message", "id": 1, "text": TAKEN[1]}), None)
    assert taken == frames.MessageFrame(id=1, text=TAKEN[1])
