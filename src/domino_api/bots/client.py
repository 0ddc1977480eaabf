"""`domino-api bot`: a real bot client that plays one seat over the WebSocket to the end.

It is the reference for people writing bots: connect with the token in the header, read the
snapshot (every connection starts with one), check in with `ready` at a tournament match, act
on the `turn` event addressed to this seat (it carries the legal actions) or on its own
`tile_drawn` copy when that carries `legal` (it drew and keeps the turn), start the next hand
after `hand_ended`, and when the connection drops reconnect with `after=N` (the last `seq`
seen) so nothing is missed or repeated (missed events the new snapshot already holds are
skipped). After a refused move (someone else moved first) it reconnects without `after` to get
a fresh snapshot.

The strategies decide from the engine's `SeatView`, rebuilt by `bots.remote` from the snapshot
moved on by every event (`bots.reducer`; a gap in the events takes a fresh snapshot), plus the
current hand's move events (kept from its `hand_started`). A snapshot has no history: after
one, the hand's events so far come from `GET /v1/matches/{id}/events?after=N&seat=S`; if that
fails the history stays empty.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import msgspec
import typer
from msgspec import Struct

from domino_api import engine
from domino_api.bots import get_strategy, to_action
from domino_api.bots.reducer import apply_event, follows
from domino_api.bots.remote import current_hand_events, legal_from_json, seat_view_from_public
from domino_api.engine.event_types import AnyEvent
from domino_api.engine.shapes import MoveJSON
from domino_api.engine.view_types import ViewOut

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

OVER = ("finished", "abandoned", "cancelled")
IDLE_RESYNC_S = 45.0


def socket_url(server: str, match_id: str, after: int | None, seat: int | None) -> str:
    parts = urlsplit(server if "://" in server else f"http://{server}")
    scheme = {"https": "wss", "wss": "wss"}.get(parts.scheme, "ws")
    query = "&".join(f"{k}={v}" for k, v in (("after", after), ("seat", seat)) if v is not None)
    return urlunsplit((scheme, parts.netloc, f"/v1/matches/{match_id}/ws", query, ""))


# What the client reads of a server message, of the view and of an event (msgspec reads them);
# the view and the events themselves are kept as sent, for the reducer to move on.
class _Refusal(Struct, frozen=True):
    code: str
    detail: str


class _Message(Struct, frozen=True):
    type: str
    view: dict[str, object] | None = None
    event: dict[str, object] | None = None
    id: str | None = None
    error: _Refusal | None = None


class _You(Struct, frozen=True):
    seat: int
    hand: list[engine.Tile] | None = None


class _Ready(Struct, frozen=True):
    ready: bool = False


class _TurnSeat(Struct, frozen=True):
    seat: int


class _Snapshot(Struct, frozen=True):
    seq: int
    status: str
    you: _You | None
    seats: list[_Ready]
    tournament: object = None
    turn: _TurnSeat | None = None
    legal: list[object] | None = None


class _EventData(Struct, frozen=True):
    seat: int | None = None
    legal: list[object] | None = None
    reason: str | None = None


class _Page(Struct, frozen=True):
    events: list[dict[str, object]]


class _Event(Struct, frozen=True):
    seq: int
    type: str
    data: _EventData


def _seq(item: Mapping[str, object]) -> int:
    return msgspec.convert(item.get("seq"), int)


def move_body(action: engine.Action) -> MoveJSON:
    """A seat action as a `move` names it (the reason stays with the computer)."""
    match action:
        case engine.Play(tile=tile, end=end):
            return {"action": "play", "tile": list(tile), "end": end}
        case engine.Draw():
            return {"action": "draw"}
        case engine.Pass():
            return {"action": "pass"}
    raise ValueError(f"not a seat's move: {action!r}")


def choose(
    strategy: str,
    view: engine.SeatView | None,
    legal: list[object],
    rng: random.Random,
) -> tuple[MoveJSON, bool]:
    """The move body for one turn and whether the strategy chose it: the strategy's pick from
    the seat's rebuilt `SeatView`, else (no view, or one whose legal actions are not the ones
    just sent) any legal action."""
    options = legal_from_json(legal)
    if view is not None and view.legal != options:
        view = (
            msgspec.structs.replace(view, legal=options)
            if set(view.legal) == set(options)
            else None
        )
    if view is not None and options:
        action, _reason = get_strategy(strategy).choose(view, rng)
        return move_body(action), True
    return move_body(to_action(rng.choice(list(options)))), False


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
        self.view: ViewOut | None = None  # the last snapshot, moved on by each event
        self.hand_events: list[dict[str, object]] = []  # this hand's events, from hand_started
        self.acted_at = -1
        self.requests = 0
        self.last_move_id: str | None = None
        self.turn_moved = True
        self.strategy_moves = 0  # moves the strategy chose from the rebuilt SeatView
        self.fallback_moves = 0  # moves picked at random (no usable view)
        self.rng = random.Random(f"{match_id}:{seat}")

    @property
    def hand(self) -> list[engine.Tile]:
        """This seat's tiles as last seen."""
        you = None if self.view is None else self.view.you
        return [] if you is None else list(you.hand)

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

    async def _session(self, socket: ClientConnection) -> str | None:
        """One connection: returns the final status, or None to reconnect."""
        while True:
            raw = await asyncio.wait_for(socket.recv(), IDLE_RESYNC_S)
            message = msgspec.json.decode(raw, type=_Message)
            kind = message.type
            if kind == "snapshot" and message.view is not None:
                done = await self._on_snapshot(socket, message.view)
            elif kind == "event" and message.event is not None:
                event = message.event
                if self.view is not None and _seq(event) > self.view.seq + 1:
                    self.say(f"missed the events before {_seq(event)}; taking a fresh snapshot")
                    self.after, self.acted_at = None, -1
                    return None
                done = await self._on_event(socket, event)
            elif kind == "ack":
                if message.id == self.last_move_id and not self.turn_moved:
                    # Safe fallback: the events of a move come before its ack, so by now a
                    # `turn` (or the drawer's `tile_drawn` with `legal`) should have said what
                    # to do next. None did (an older server?): take a fresh snapshot.
                    self.after, self.acted_at = None, -1
                    return None
                continue
            elif kind == "error" and message.error is not None:
                self.say(f"refused: {message.error.code}: {message.error.detail}")
                self.after = None  # resync from a fresh snapshot, and decide again
                self.acted_at = -1
                return None
            else:
                continue
            if done is not None:
                return done

    async def _on_snapshot(self, socket: ClientConnection, raw: dict[str, object]) -> str | None:
        view = msgspec.convert(raw, _Snapshot)
        self.after = view.seq
        if view.you is None:
            raise RuntimeError("this token holds no seat at the match")
        self.seat = view.you.seat
        self.view = msgspec.convert(raw, ViewOut)
        if view.status in OVER:
            return view.status
        if view.status == "playing":
            self.hand_events = await self._fetch_hand_events(view.seq)
        if view.status == "hand_over":
            await self._send(socket, {"type": "next_hand"})
        elif view.status == "waiting" and view.tournament:
            # A tournament match starts once both seats have checked in (RULES 9, seed 004).
            if not view.seats[self.seat].ready:
                await self._send(socket, {"type": "ready"})
        elif view.turn and view.turn.seat == self.seat and view.legal:
            await self._move(socket, view.legal)
        return None

    async def _fetch_hand_events(self, upto: int) -> list[dict[str, object]]:
        """The current hand's events up to the snapshot's seq, for the history the snapshot
        lacks: `GET /v1/matches/{id}/events?after=N&seat=S` from this hand's `hand_started`
        when it is known, else from the start. If that fails the history stays empty (the
        strategies then know no other seat's voids) and play goes on."""
        import httpx

        known = [_seq(e) for e in self.hand_events if e["type"] == "hand_started"]
        after = known[-1] - 1 if known and known[-1] <= upto else 0
        parts = urlsplit(self.server if "://" in self.server else f"http://{self.server}")
        scheme = {"wss": "https", "ws": "http"}.get(parts.scheme, parts.scheme)
        base = urlunsplit((scheme, parts.netloc, "", "", ""))
        headers = {"Authorization": f"Bearer {self.token}"}
        events: list[dict[str, object]] = []
        try:
            async with httpx.AsyncClient(base_url=base, headers=headers, timeout=10) as http:
                while after < upto:
                    params = {"after": after, "seat": self.seat, "limit": 1000}
                    r = await http.get(f"/v1/matches/{self.match_id}/events", params=params)
                    r.raise_for_status()
                    sent = msgspec.json.decode(r.content, type=_Page).events
                    page = [e for e in sent if _seq(e) <= upto]
                    if not page:
                        break
                    events.extend(page)
                    after = _seq(page[-1])
        except (httpx.HTTPError, ValueError) as exc:
            self.say(f"cannot fetch this hand's events ({exc}); playing without its history")
            return []
        return current_hand_events(events)

    async def _on_event(self, socket: ClientConnection, event: dict[str, object]) -> str | None:
        head = msgspec.convert(event, _Event)
        if self.after is not None and head.seq <= self.after:
            return None  # a resume's missed event the snapshot before it already holds
        self.after = head.seq
        data, kind = head.data, head.type
        if kind == "hand_started":
            self.hand_events = []
        if kind in ("hand_started", "tile_played", "tile_drawn", "passed"):
            self.hand_events.append(event)
        typed = msgspec.convert(event, AnyEvent)
        if self.view is not None and follows(self.view, typed):
            try:
                self.view = apply_event(self.view, typed)
            except (KeyError, ValueError, TypeError, IndexError) as exc:
                self.say(f"cannot follow event {head.seq} ({exc}); choosing at random")
                self.view = None
        mine = data.seat == self.seat
        if kind in ("turn", "hand_ended", "match_ended") or (kind == "tile_drawn" and mine):
            self.turn_moved = True
        if kind == "turn" and mine and data.legal:
            await self._move(socket, data.legal)
        elif kind == "tile_drawn" and mine and data.legal:
            # The drawer keeps the turn: its own copy carries what it may do now.
            await self._move(socket, data.legal)
        elif kind == "tile_drawn" and mine and data.legal is None:
            self.turn_moved = False  # an older server: the ack fallback takes a snapshot
        elif kind == "hand_ended":
            await self._send(socket, {"type": "next_hand"})
        elif kind == "match_ended":
            return "abandoned" if data.reason in ("abandoned", "cancelled") else "finished"
        return None

    def seat_view(self) -> engine.SeatView | None:
        """This seat's SeatView rebuilt from the view and this hand's events (None if it
        cannot be: the strategy then gives way to a random legal action)."""
        if self.view is None:
            return None
        try:
            shown = msgspec.json.decode(msgspec.json.encode(self.view))  # the view as sent
            return seat_view_from_public(shown, self.hand_events)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            self.say(f"cannot rebuild the seat view ({exc})")
            return None

    async def _move(self, socket: ClientConnection, legal: list[object]) -> None:
        if self.after is None or self.after <= self.acted_at:
            return
        assert self.seat is not None
        body, chosen = choose(self.strategy, self.seat_view(), legal, self.rng)
        if chosen:
            self.strategy_moves += 1
        else:
            self.fallback_moves += 1
        self.acted_at = self.after
        self.turn_moved = False
        self.last_move_id = await self._send(
            socket, {"type": "move", **body, "seq": self.after, "seat": self.seat}
        )

    async def _send(self, socket: ClientConnection, message: Mapping[str, object]) -> str:
        self.requests += 1
        request_id = f"b{self.requests}"
        await socket.send(json.dumps({**message, "id": request_id}))
        return request_id


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
