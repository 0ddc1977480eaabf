"""A socket client written against the frame classes modelina generates from
openapi/asyncapi.yaml (`frames`, made by tests/clients/generate-frames.mjs): it opens a table
against the Planner, starts it and plays its seat to the match's end over the socket, then
prints the final status. Usage: python client.py <http base url> <ws base url>

modelina's Python classes read a frame (a dict) into typed properties, one level at a time: a
field whose schema is a union (the event of an event frame, a nullable object) stays a dict,
read by the class its `type` names; they have no writer, so a frame sent is a dict checked by
building its class first.
"""

from __future__ import annotations

import json
import sys

import frames  # generated
import httpx
from websockets.sync.client import ClientConnection, connect

SERVER_FRAMES = {
    "snapshot": frames.SnapshotFrame,
    "event": frames.EventFrame,
    "ack": frames.AckFrame,
    "error": frames.ErrorFrame,
    "pong": frames.PongFrame,
    "keepalive": frames.KeepaliveFrame,
}
EVENTS = {
    "turn": frames.TurnEvent,
    "tile_drawn": frames.TileDrawnEvent,
    "hand_ended": frames.HandEndedEvent,
    "match_ended": frames.MatchEndedEvent,
}
OPTIONS = {"play": frames.PlayOption, "draw": frames.DrawOption, "pass": frames.PassOption}


class Seat:
    """One seat's play: the seq last seen, and a request id per frame sent."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket, self.seat, self.seq, self.requests, self.moves = socket, -1, 0, 0, 0

    def send(self, kind: type, frame: dict[str, object]) -> None:
        self.requests += 1
        frame["id"] = f"p{self.requests}"
        kind(frame)  # the generated class reads it: its fields and their values are the contract's
        self.socket.send(json.dumps(frame))

    def move(self, legal: list[dict[str, object]]) -> None:
        option = legal[0]
        action = str(option["action"])
        OPTIONS[action](option)
        frame: dict[str, object] = {"type": "move", "action": action, "seq": self.seq}
        if action == "play":
            frame |= {"tile": option["tile"], "end": option["end"]}
        self.moves += 1
        self.send(frames.MoveFrame, {**frame, "seat": self.seat})

    def on_snapshot(self, frame: frames.SnapshotFrame) -> None:
        view = frame.view
        self.seq = view.seq
        self.seat = frames.YouOut(view.you).seat
        if view.status.value == "waiting":
            self.send(frames.StartFrame, {"type": "start", "fill_with_bots": False})
        turn = None if view.turn is None else frames.TurnOut(view.turn)
        if turn is not None and turn.seat == self.seat and view.legal:
            self.move(view.legal)

    def on_event(self, frame: frames.EventFrame) -> str | None:
        raw = frame.event
        self.seq = raw["seq"]
        kind = EVENTS.get(raw["type"])
        if kind is None:
            return None
        event = kind(raw)
        data = event.data
        legal = getattr(data, "legal", None)
        if raw["type"] in ("turn", "tile_drawn") and data.seat == self.seat and legal:
            self.move(legal)
        elif raw["type"] == "hand_ended":
            self.send(frames.NextHandFrame, {"type": "next_hand"})
        elif raw["type"] == "match_ended":
            reason = data.reason.value
            return reason if reason in ("abandoned", "cancelled") else "finished"
        return None


def main(base: str, ws_base: str) -> None:
    with httpx.Client(base_url=base, timeout=10) as http:
        token = http.post("/v1/players", json={"name": "Pym"}).raise_for_status().json()["token"]
        seats = [{"type": "human"}, {"type": "bot", "strategy": "planner"}]
        body = {"ruleset": "all-fives", "seats": seats, "options": {"target": 60}}
        headers = {"Authorization": f"Bearer {token}"}
        match = http.post("/v1/matches", json=body, headers=headers).raise_for_status().json()
    with connect(f"{ws_base}/v1/matches/{match['id']}/ws", additional_headers=headers) as socket:
        seat = Seat(socket)
        while True:
            raw = json.loads(socket.recv(timeout=30))
            frame = SERVER_FRAMES[raw["type"]](raw)
            if isinstance(frame, frames.SnapshotFrame):
                seat.on_snapshot(frame)
            elif isinstance(frame, frames.EventFrame) and (status := seat.on_event(frame)):
                break
            elif isinstance(frame, frames.ErrorFrame):
                sys.exit(f"refused: {frame.error.code}: {frame.error.detail}")
    answer = {"status": status, "moves": seat.moves, "match": match["id"], "token": token}
    print(json.dumps(answer))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
