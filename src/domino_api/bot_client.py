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
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit, urlunsplit

import msgspec
import typer
from msgspec import Struct

from domino_api import engine
from domino_api.bots import get_strategy, to_action
from domino_api.bots.reducer import apply_event, follows
from domino_api.bots.remote import current_hand_events, seat_view_from_public
from domino_api.engine.event_types import (
    AnyEvent,
    HandEndedEvent,
    HandStartedEvent,
    MatchEndedEvent,
    PassedEvent,
    TileDrawnEvent,
    TilePlayedEvent,
    TurnEvent,
)
from domino_api.engine.move_types import legal_of
from domino_api.engine.view_types import ViewOut
from domino_api.realtime import frames as f

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection

OVER = ("finished", "abandoned", "cancelled")
IDLE_RESYNC_S = 45.0
_READ_FRAME = msgspec.json.Decoder(f.ServerFrame).decode


def socket_url(server: str, match_id: str, after: int | None, seat: int | None) -> str:
    parts = urlsplit(server if "://" in server else f"http://{server}")
    scheme = {"https": "wss", "wss": "wss"}.get(parts.scheme, "ws")
    query = "&".join(f"{k}={v}" for k, v in (("after", after), ("seat", seat)) if v is not None)
    return urlunsplit((scheme, parts.netloc, f"/v1/matches/{match_id}/ws", query, ""))


class _Page(Struct, frozen=True):
    """`GET /v1/matches/{id}/events`'s answer, as far as the client reads it."""

    events: list[AnyEvent]


def move_frame(action: engine.Action, request_id: str, seq: int, seat: int) -> f.MoveFrame:
    """A seat action as a `move` frame names it (the reason stays with the computer)."""
    match action:
        case engine.Play(tile=tile, end=end):
            return f.MoveFrame(id=request_id, action="play", tile=tile, end=end, seq=seq, seat=seat)
        case engine.Draw():
            return f.MoveFrame(id=request_id, action="draw", seq=seq, seat=seat)
        case engine.Pass():
            return f.MoveFrame(id=request_id, action="pass", seq=seq, seat=seat)
    raise ValueError(f"not a seat's move: {action!r}")


def choose(
    strategy: str,
    view: engine.SeatView | None,
    options: tuple[engine.LegalAction, ...],
    rng: random.Random,
) -> tuple[engine.Action, bool]:
    """The move for one turn and whether the strategy chose it: the strategy's pick from the
    seat's rebuilt `SeatView`, else (no view, or one whose legal actions are not the ones just
    sent) any legal action."""
    if view is not None and view.legal != options:
        view = (
            msgspec.structs.replace(view, legal=options)
            if set(view.legal) == set(options)
            else None
        )
    if view is not None and options:
        action, _reason = get_strategy(strategy).choose(view, rng)
        return action, True
    return to_action(rng.choice(list(options))), False


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
        self.hand_events: list[AnyEvent] = []  # this hand's events, from hand_started
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
            frame = _READ_FRAME(await asyncio.wait_for(socket.recv(), IDLE_RESYNC_S))
            match frame:
                case f.SnapshotFrame(view=view):
                    done = await self._on_snapshot(socket, view)
                case f.EventFrame(event=event):
                    if self.view is not None and event.seq > self.view.seq + 1:
                        self.say(f"missed the events before {event.seq}; taking a fresh snapshot")
                        self.after, self.acted_at = None, -1
                        return None
                    done = await self._on_event(socket, event)
                case f.AckFrame(id=request_id):
                    if request_id == self.last_move_id and not self.turn_moved:
                        # Safe fallback: the events of a move come before its ack, so by now a
                        # `turn` (or the drawer's `tile_drawn` with `legal`) should have said
                        # what to do next. None did (an older server?): take a fresh snapshot.
                        self.after, self.acted_at = None, -1
                        return None
                    continue
                case f.ErrorFrame(error=error):
                    self.say(f"refused: {error.code}: {error.detail}")
                    self.after = None  # resync from a fresh snapshot, and decide again
                    self.acted_at = -1
                    return None
                case _:
                    continue
            if done is not None:
                return done

    async def _on_snapshot(self, socket: ClientConnection, view: ViewOut) -> str | None:
        self.after = view.seq
        if view.you is None:
            raise RuntimeError("this token holds no seat at the match")
        self.seat = seat = view.you.seat
        self.view = view
        if view.status in OVER:
            return view.status
        if view.status == "playing":
            self.hand_events = await self._fetch_hand_events(view.seq)
        if view.status == "hand_over":
            await self._send(socket, f.NextHandFrame(id=self._next_id()))
        elif view.status == "waiting" and view.tournament:
            # A tournament match starts once both seats have checked in (RULES 9, seed 004).
            if not view.seats[seat].ready:
                await self._send(socket, f.ReadyFrame(id=self._next_id()))
        elif view.turn and view.turn.seat == seat and view.legal:
            await self._move(socket, legal_of(view.legal))
        return None

    async def _fetch_hand_events(self, upto: int) -> list[AnyEvent]:
        """The current hand's events up to the snapshot's seq, for the history the snapshot
        lacks: `GET /v1/matches/{id}/events?after=N&seat=S` from this hand's `hand_started`
        when it is known, else from the start. If that fails the history stays empty (the
        strategies then know no other seat's voids) and play goes on."""
        import httpx

        known = [e.seq for e in self.hand_events if isinstance(e, HandStartedEvent)]
        after = known[-1] - 1 if known and known[-1] <= upto else 0
        parts = urlsplit(self.server if "://" in self.server else f"http://{self.server}")
        scheme = {"wss": "https", "ws": "http"}.get(parts.scheme, parts.scheme)
        base = urlunsplit((scheme, parts.netloc, "", "", ""))
        headers = {"Authorization": f"Bearer {self.token}"}
        events: list[AnyEvent] = []
        try:
            async with httpx.AsyncClient(base_url=base, headers=headers, timeout=10) as http:
                while after < upto:
                    params = {"after": after, "seat": self.seat, "limit": 1000}
                    r = await http.get(f"/v1/matches/{self.match_id}/events", params=params)
                    r.raise_for_status()
                    sent = msgspec.json.decode(r.content, type=_Page).events
                    page = [e for e in sent if e.seq <= upto]
                    if not page:
                        break
                    events.extend(page)
                    after = page[-1].seq
        except (httpx.HTTPError, ValueError) as exc:
            self.say(f"cannot fetch this hand's events ({exc}); playing without its history")
            return []
        return current_hand_events(events)

    async def _on_event(self, socket: ClientConnection, event: AnyEvent) -> str | None:
        if self.after is not None and event.seq <= self.after:
            return None  # a resume's missed event the snapshot before it already holds
        self.after = event.seq
        if isinstance(event, HandStartedEvent):
            self.hand_events = []
        if isinstance(event, HandStartedEvent | TilePlayedEvent | TileDrawnEvent | PassedEvent):
            self.hand_events.append(event)
        if self.view is not None and follows(self.view, event):
            try:
                self.view = apply_event(self.view, event)
            except (KeyError, ValueError, TypeError, IndexError) as exc:
                self.say(f"cannot follow event {event.seq} ({exc}); choosing at random")
                self.view = None
        return await self._react(socket, event)

    async def _react(self, socket: ClientConnection, event: AnyEvent) -> str | None:
        """What this seat does after an event: move, start the next hand, or stop."""
        drawn_by_me = isinstance(event, TileDrawnEvent) and event.data.seat == self.seat
        if isinstance(event, TurnEvent | HandEndedEvent | MatchEndedEvent) or drawn_by_me:
            self.turn_moved = True
        match event:
            case TurnEvent(data=data) if data.seat == self.seat and isinstance(data.legal, tuple):
                await self._move(socket, legal_of(data.legal))
            case TileDrawnEvent(data=data) if drawn_by_me:
                if isinstance(data.legal, tuple):
                    # The drawer keeps the turn: its own copy carries what it may do now.
                    await self._move(socket, legal_of(data.legal))
                else:
                    self.turn_moved = False  # an older server: the ack fallback takes a snapshot
            case HandEndedEvent():
                await self._send(socket, f.NextHandFrame(id=self._next_id()))
            case MatchEndedEvent(data=data):
                return "abandoned" if data.reason in ("abandoned", "cancelled") else "finished"
        return None

    def seat_view(self) -> engine.SeatView | None:
        """This seat's SeatView rebuilt from the view and this hand's events (None if it
        cannot be: the strategy then gives way to a random legal action)."""
        if self.view is None:
            return None
        try:
            return seat_view_from_public(self.view, self.hand_events)
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            self.say(f"cannot rebuild the seat view ({exc})")
            return None

    async def _move(self, socket: ClientConnection, legal: Sequence[engine.LegalAction]) -> None:
        if self.after is None or self.after <= self.acted_at:
            return
        assert self.seat is not None
        action, chosen = choose(self.strategy, self.seat_view(), tuple(legal), self.rng)
        if chosen:
            self.strategy_moves += 1
        else:
            self.fallback_moves += 1
        self.acted_at = self.after
        self.turn_moved = False
        self.last_move_id = self._next_id()
        await self._send(socket, move_frame(action, self.last_move_id, self.after, self.seat))

    def _next_id(self) -> str:
        self.requests += 1
        return f"b{self.requests}"

    async def _send(self, socket: ClientConnection, frame: f.RequestFrame) -> None:
        await socket.send(msgspec.json.encode(frame).decode())


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
