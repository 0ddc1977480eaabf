"""`domino-api bot`: a real bot client that plays one seat over the WebSocket to the end.

It is the reference for people writing bots: connect with the token in the header, read the
snapshot, act on the `turn` event addressed to this seat (it carries the legal actions), start
the next hand after `hand_ended`, and when the connection drops reconnect with `after=N` (the
last `seq` seen) so nothing is missed or repeated. After a refused move (someone else moved
first) it reconnects without `after` to get a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import urlsplit, urlunsplit

import typer

from domino_api import engine
from domino_api.bots import get_strategy

OVER = ("finished", "abandoned", "cancelled")
IDLE_RESYNC_S = 45.0


def socket_url(server: str, match_id: str, after: int | None, seat: int | None) -> str:
    parts = urlsplit(server if "://" in server else f"http://{server}")
    scheme = {"https": "wss", "wss": "wss"}.get(parts.scheme, "ws")
    query = "&".join(f"{k}={v}" for k, v in (("after", after), ("seat", seat)) if v is not None)
    return urlunsplit((scheme, parts.netloc, f"/v1/matches/{match_id}/ws", query, ""))


@dataclass
class LightView:
    """The parts of a seat's view a strategy reads, from the socket's JSON."""

    seat: int
    hand: tuple[tuple[int, int], ...]
    legal: tuple[engine.LegalAction, ...]
    raw: dict[str, Any] = field(default_factory=dict)


def legal_actions(items: list[Any]) -> tuple[engine.LegalAction, ...]:
    """Legal actions as sent: objects `{"action", "tile", "end", "points"}` (API.md), also
    read in the positional `[action, tile, end, points]` form some servers store."""
    out = []
    for item in items:
        if isinstance(item, list | tuple):
            item = dict(zip(("action", "tile", "end", "points"), item, strict=False))
        if item.get("action") not in ("play", "draw", "pass"):
            continue
        raw_tile = item.get("tile")
        tile = None if raw_tile is None else (int(raw_tile[0]), int(raw_tile[1]))
        out.append(engine.LegalAction(item["action"], tile, item.get("end"), item.get("points")))
    return tuple(out)


def choose(
    strategy: str, seat: int, hand: list[Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """The move body for one turn: the strategy's pick, or any legal action if it cannot read
    the light view (it was written against the engine's full seat view)."""
    options = legal_actions(legal)
    view = LightView(seat, tuple((int(t[0]), int(t[1])) for t in hand), options)
    try:
        action, _reason = get_strategy(strategy).choose(cast(Any, view), rng)
        body = engine.action_to_json(action)
    except Exception:
        pick = rng.choice(list(options))
        body = pick.to_dict()
    body.pop("points", None)
    body.pop("reason", None)
    return body


class BotClient:
    def __init__(
        self,
        server: str,
        match_id: str,
        token: str,
        strategy: str,
        seat: int | None = None,
        say: Callable[[str], None] | None = None,
    ) -> None:
        self.server, self.match_id, self.token = server, match_id, token
        self.strategy, self.named_seat = strategy, seat
        self.say = say or (lambda _text: None)
        self.after: int | None = None
        self.seat: int | None = seat
        self.hand: list[Any] = []
        self.acted_at = -1
        self.requests = 0
        self.turn_moved = True
        self.rng = random.Random(f"{match_id}:{seat}")

    async def play(self, max_connections: int = 100) -> str:
        """Play to the end; returns the match's final status."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        delay = 0.2
        for _ in range(max_connections):
            url = socket_url(self.server, self.match_id, self.after, self.named_seat)
            headers = {"Authorization": f"Bearer {self.token}"}
            try:
                async with connect(url, additional_headers=headers) as socket:
                    status = await self._session(socket)
                    if status is not None:
                        return status
                    delay = 0.2
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                if code is not None and 4400 <= code < 4500 and code not in (4408, 4409):
                    raise RuntimeError(
                        f"refused: {code} {closed.rcvd.reason if closed.rcvd else ''}"
                    ) from closed
                if code == 4409:
                    self.after = None
                self.say(f"connection closed ({code}); resuming after seq {self.after}")
            except (OSError, InvalidStatus, TimeoutError) as exc:
                self.say(f"cannot connect ({exc}); retrying")
            await asyncio.sleep(delay)
            delay = min(5.0, delay * 2)
        raise RuntimeError("gave up reconnecting")

    async def _session(self, socket: Any) -> str | None:
        """One connection: returns the final status, or None to reconnect."""
        while True:
            raw = await asyncio.wait_for(socket.recv(), IDLE_RESYNC_S)
            message = json.loads(raw)
            kind = message["type"]
            if kind == "snapshot":
                done = await self._on_snapshot(socket, message["view"])
            elif kind == "event":
                done = await self._on_event(socket, message["event"])
            elif kind == "ack":
                if not self.turn_moved:
                    # The seat keeps the turn (e.g. after a draw) and no new `turn` event said
                    # so: take a fresh snapshot to see what it may do now.
                    self.after, self.acted_at = None, -1
                    return None
                continue
            elif kind == "error":
                self.say(f"refused: {message['error']['code']}: {message['error']['detail']}")
                self.after = None  # resync from a fresh snapshot, and decide again
                self.acted_at = -1
                return None
            else:
                continue
            if done is not None:
                return done

    async def _on_snapshot(self, socket: Any, view: dict[str, Any]) -> str | None:
        self.after = view["seq"]
        if view["you"] is None:
            raise RuntimeError("this token holds no seat at the match")
        self.seat = view["you"]["seat"]
        self.hand = view["you"]["hand"]
        if view["status"] in OVER:
            return str(view["status"])
        if view["status"] == "hand_over":
            await self._send(socket, {"type": "next_hand"})
        elif view["turn"] and view["turn"]["seat"] == self.seat and view["legal"]:
            await self._move(socket, view["legal"])
        return None

    async def _on_event(self, socket: Any, event: dict[str, Any]) -> str | None:
        self.after = event["seq"]
        data, kind = event["data"], event["type"]
        if kind in ("turn", "hand_ended", "match_ended"):
            self.turn_moved = True
        if kind == "hand_started" and "hand" in data:
            self.hand = data["hand"]
        elif kind == "turn" and data.get("seat") == self.seat and data.get("legal"):
            await self._move(socket, data["legal"])
        elif kind == "hand_ended":
            await self._send(socket, {"type": "next_hand"})
        elif kind == "match_ended":
            reason = data.get("reason")
            return "abandoned" if reason in ("abandoned", "cancelled") else "finished"
        return None

    async def _move(self, socket: Any, legal: list[Any]) -> None:
        if self.after is None or self.after <= self.acted_at:
            return
        assert self.seat is not None
        body = choose(self.strategy, self.seat, self.hand, legal, self.rng)
        self.acted_at = self.after
        self.turn_moved = False
        await self._send(socket, {"type": "move", **body, "seq": self.after, "seat": self.seat})

    async def _send(self, socket: Any, message: dict[str, Any]) -> None:
        self.requests += 1
        await socket.send(json.dumps({**message, "id": f"b{self.requests}"}))


def register(app: typer.Typer) -> None:
    @app.command()
    def bot(
        server: str = typer.Option("http://127.0.0.1:8000", help="The server's base URL"),
        match: str = typer.Option(..., help="The match id"),
        token: str = typer.Option(..., help="The seat holder's token"),
        strategy: str = typer.Option("plain", help="plain | planner | random"),
        seat: int | None = typer.Option(None, help="Which of the token's seats to play"),
    ) -> None:
        """Play a seat over the WebSocket until the match ends (reconnecting when dropped)."""
        if strategy not in ("plain", "planner", "random"):
            raise typer.BadParameter("strategy must be plain, planner or random")
        client = BotClient(server, match, token, strategy, seat, say=typer.echo)
        status = asyncio.run(client.play())
        typer.echo(f"match {match}: {status}")
