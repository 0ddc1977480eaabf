"""`GET /v1/matches/{id}/ws`: the live table over a WebSocket (openapi/asyncapi.yaml).

A socket is accepted first and then refused, if it must be, with a close code of 4000 + the
HTTP status and the problem code as reason, because browsers cannot read a refused handshake.
Every request on the socket is the same service call as its REST route (a step of the write
core), answered `ack` (after the events it caused, on this socket) or `error`. A step's events
come to this process's sockets from the step itself (realtime/hub.py `hand_over`): the ack
follows them without reading anything back, written at once with whatever this socket still
had to send, never behind other sockets' frames (realtime/outbox.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterable
from typing import Annotated

from fastapi import APIRouter, Depends, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from domino_api import metrics
from domino_api.engine import EngineError
from domino_api.engine import table as tables
from domino_api.engine.errors import NotYourSeat, StaleSeq
from domino_api.engine.move_types import DrawMove, MoveBody, PassMove, PlayMove
from domino_api.engine.view_types import ViewOut
from domino_api.errors import BadRequest, ServiceError, ValidationFailed
from domino_api.jsontext import dump_bytes
from domino_api.matches import access, creation, hosting, presence, service
from domino_api.matches.unit import Stage
from domino_api.realtime import frames as f
from domino_api.realtime.hub import Subscriber
from domino_api.realtime.lifecycle import Realtime, realtime_of
from domino_api.realtime.outbox import Frame
from domino_api.realtime.refused import Refused, refusal
from domino_api.realtime.seat_subscriber import SeatSubscriber
from domino_api.realtime.socket_auth import player_of, token_hash_of
from domino_api.store.models import Player
from domino_api.web.ratelimit import Limits, SocketCount
from domino_api.web.revocation import CLOSE_REVOKED, REVOKED_REASON, Credentials
from domino_api.web.transport import wire_of

log = logging.getLogger(__name__)

router = APIRouter(prefix="/v1", tags=["matches"])


def move_of(request: f.MoveFrame, seat: int | None) -> MoveBody:
    """The move a `move` frame asks for, as engine/move_types.py types it."""
    if request.action == "play":
        if request.tile is None:
            raise ValidationFailed("tile: a play names its tile, e.g. [3, 5].")
        return PlayMove(tile=request.tile, end=request.end, seq=request.seq, seat=seat)
    if request.tile is not None or request.end is not None:
        raise ValidationFailed(f"A {request.action} takes no tile or end.")
    kind = DrawMove if request.action == "draw" else PassMove
    return kind(seq=request.seq, seat=seat)


@router.websocket("/matches/{match_id}/ws")
async def match_socket(
    websocket: WebSocket, match_id: str, realtime: Annotated[Realtime, Depends(realtime_of)]
) -> None:
    """A snapshot, the events after `after` (if given), then every event, for the viewing seat."""
    await MatchSocket(websocket, match_id, realtime).run()


class MatchSocket:
    def __init__(self, websocket: WebSocket, match_id: str, realtime: Realtime) -> None:
        self.ws = websocket
        self.match_id = match_id
        self.realtime = realtime
        self.hub = realtime.hub
        self.maker = realtime.maker
        self.clock = realtime.clock
        self.settings = realtime.settings
        self.player: Player | None = None
        self.named_seat: int | None = None
        self.my_seats: list[int] = []
        self._counted: str | None = None
        self._credential: tuple[str, asyncio.Event] | None = None  # (token hash, revoked)

    async def run(self) -> None:
        await self.ws.accept()
        try:
            self.player = await self._authenticate()
            self._count_socket()
            after, self.named_seat = self._query()
            await self.realtime.ensure_started()
            subscriber = await self._open(after)
        except Refused as refused:
            self._uncount_socket()
            self._drop_credential()
            await self._close(refused.code, refused.reason)
            return
        except WebSocketDisconnect:
            self._uncount_socket()
            self._drop_credential()
            return
        except BaseException:
            self._uncount_socket()  # an opening that failed holds no slot of the player's
            self._drop_credential()
            raise
        self.hub.hold_seats(self.match_id, self.my_seats, self.player.id)
        self.hub.subscribe(subscriber)
        self.realtime.keepalives.add(subscriber)
        metrics.socket_opened()
        try:
            await self._serve(subscriber)
        finally:
            self.realtime.keepalives.remove(subscriber)
            metrics.socket_closed()
            self._uncount_socket()
            self._drop_credential()
            self.hub.unsubscribe(subscriber)
            await self._release()

    # ------------------------------------------------------------ opening

    async def _authenticate(self) -> Player:
        token_hash = await token_hash_of(self.ws, self.settings.ws_auth_timeout_s)
        # Held before it is looked up: a revocation committed meanwhile still closes it.
        credentials: Credentials = self.ws.app.state.credentials
        self._credential = (token_hash, credentials.hold(token_hash))
        return await player_of(self.ws, token_hash)  # the process's auth cache, as REST's

    def _drop_credential(self) -> None:
        if self._credential is not None:
            self.ws.app.state.credentials.release(*self._credential)
            self._credential = None

    def _count_socket(self) -> None:
        """At most `sockets_per_token` open sockets per player in this process (4429)."""
        assert self.player is not None
        counts: SocketCount = self.ws.app.state.socket_count
        if not counts.open(self.player.id, self.settings.sockets_per_token):
            raise Refused(4429, "rate_limited")
        self._counted = self.player.id

    def _uncount_socket(self) -> None:
        if self._counted is not None:
            self.ws.app.state.socket_count.close(self._counted)
            self._counted = None

    def _query(self) -> tuple[int | None, int | None]:
        params = self.ws.query_params
        after = _whole(params.get("after"), "after", 2**31 - 1)
        seat = _whole(params.get("seat"), "seat", 3)
        return after, seat

    async def _open(self, after: int | None) -> SeatSubscriber:
        """Open the table (timeouts first), announce the seats, take the snapshot and cursor.
        A spectator's open (no seat of the caller's in a fresh read) is that read alone: no
        step of the write core, nothing due applied (the sweep's), nothing saved."""
        assert self.player is not None
        player, core, lease = self.player, self.realtime.core, self.settings.presence_lease_s
        named = self.named_seat

        def look(table: tables.Table) -> tuple[list[int], int | None, str | None]:
            pending = access.watch_check(table, player)
            mine = table.seats_of(player.id)
            if named is not None and named not in mine:
                raise NotYourSeat(f"Seat {named} is not yours; yours: {mine}.")
            if after is not None and after > table.state.seq:
                raise StaleSeq(f"after={after} is beyond the match's seq {table.state.seq}.")
            # The seat whose private data the socket carries: REST's rule, so a resigned or
            # forfeited seat opens as a spectator does (issue 26, item 1).
            return mine, tables.viewer_seat(table, mine, named), pending

        def opened(table: tables.Table) -> tuple[list[int], int | None, ViewOut, int, str | None]:
            mine, viewer, pending = look(table)
            # A snapshot on every connection, resumes too: a client whose turn it already is
            # learns its `legal` here, not from an event it has seen before.
            view = hosting.shown_to(service.view_for(table, player, core, named))
            return mine, viewer, view, table.state.seq if after is None else after, pending

        def step(stage: Stage) -> tuple[list[int], int | None, ViewOut, int, str | None]:
            look(stage.table)
            return opened(stage.do(tables.Connect(tuple(stage.table.seats_of(player.id)), lease)))

        try:
            table = None if named is not None else await core.peek(self.match_id, fresh=True)
            if table is not None and not table.seats_of(player.id):  # a spectator
                mine, viewer, view, cursor, pending = opened(table)
            else:
                mine, viewer, view, cursor, pending = await core.run(
                    self.match_id, step, player_id=player.id, fresh=True
                )
            await access.require_member_in(core.maker, pending, player.id)
        except (ServiceError, EngineError) as exc:
            raise refusal(exc) from exc
        self.my_seats = mine
        settings = self.settings
        subscriber = SeatSubscriber(
            self.match_id,
            viewer,
            cursor,
            settings.ws_send_queue,
            player.id,
            settings.ws_send_buffer_bytes,
            mine,
        )
        subscriber.wire = wire_of(self.ws.scope)
        subscriber.put(Frame(dump_bytes(f.SnapshotFrame(view=view))))
        return subscriber

    # ------------------------------------------------------------ serving

    async def _serve(self, subscriber: SeatSubscriber) -> None:
        loop = asyncio.get_running_loop()
        subscriber.flush()  # the snapshot, and what came since it was taken
        # No writer task when frames go straight to the transport (realtime/outbox.py).
        writer = loop.create_task(
            self._watch_seats(subscriber) if subscriber.wire else self._write(subscriber)
        )
        reader = loop.create_task(self._read(subscriber))
        slow = loop.create_task(subscriber.too_slow.wait())
        assert self._credential is not None
        revoked = loop.create_task(self._credential[1].wait())  # signed out, key revoked
        tasks = {writer, reader, slow, revoked}
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if revoked in done:
            await self._close(CLOSE_REVOKED, REVOKED_REASON)
        elif slow in done:
            await self._close(f.CLOSE_TOO_SLOW, f.TOO_SLOW_REASON)
        elif refused := _refusal_of(done & {reader, writer}):
            await self._close(refused.code, refused.reason)
        else:
            await self._close(1000, "")

    async def _write(self, subscriber: SeatSubscriber) -> None:
        """Without a `Wire` (another ASGI server): send what the outbox queued, in order."""
        watch = asyncio.get_running_loop().create_task(self._watch_seats(subscriber))
        try:
            while not watch.done():
                # Sent as the hub made it: its visibility (the seat's copy, its mutes) was
                # decided once for the event (realtime/visibility.py).
                frame = await subscriber.queue.get()
                await self.ws.send_text(frame.text)
            watch.result()
        finally:
            watch.cancel()

    async def _watch_seats(self, subscriber: SeatSubscriber) -> None:
        """A seat of this socket was claimed by name or released by the host: nothing more is
        written until it is known whether the seat is still ours (else it is closed)."""
        while True:
            await subscriber.seat_news.wait()
            subscriber.seat_news.clear()
            if await self._lost_a_seat(subscriber.questioned):
                raise Refused(f.CLOSE_SEAT_CLAIMED, f.SEAT_CLAIMED_REASON)
            subscriber.held = False
            subscriber.flush()

    async def _lost_a_seat(self, seat: int) -> bool:
        """Is `seat` (engine/table/seats.py: claimed or released) still ours?"""
        assert self.player is not None
        player_id = self.player.id
        mine = await self.realtime.core.run(
            self.match_id, lambda stage: stage.table.seats_of(player_id), fresh=True
        )
        return seat not in mine

    async def _read(self, subscriber: Subscriber) -> None:
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            answer = await self._answer(message.get("text"), message.get("bytes"), subscriber)
            # Written now, after this socket's own events: the spectators' wait their slices.
            subscriber.send(Frame(dump_bytes(answer)))

    async def _answer(
        self, text: str | None, data: bytes | None, subscriber: Subscriber
    ) -> f.Answer:
        """One client frame -> its answer; a refused frame changes nothing."""
        request = f.read_frame(text, data)
        if isinstance(request, f.ErrorFrame):
            return request
        return await self._dispatch(request, subscriber)

    async def _dispatch(self, request: f.ClientFrame, subscriber: Subscriber) -> f.Answer:
        if isinstance(request, f.PingFrame):
            return f.PongFrame(id=request.id)
        if isinstance(request, f.AuthFrame):
            return f.error_frame(None, BadRequest("This socket is already authenticated."))
        try:
            # Computers' answers take their floor (matches/pacing.py).
            async with self.realtime.pacer.paced():
                seq = await self._act_answering(request, subscriber)
        except (ServiceError, EngineError) as exc:
            return f.error_frame(request.id, exc)
        except Exception as exc:
            log.exception("socket request failed", exc_info=exc)
            return f.error_frame(request.id, exc)
        # Events first, then the ack: the step's own events were queued as it committed; a
        # socket that lacks some (a gap) has them read first.
        if subscriber.cursor < seq:
            await self.hub.sync(self.match_id)
        return f.AckFrame(id=request.id, seq=seq)

    async def _act_answering(self, request: f.RequestFrame, subscriber: Subscriber) -> int:
        """`_act`, the step's events for this socket left for its answer (one write for both,
        realtime/outbox.py `flush_all`); written at once if the answer waits for a floor."""
        subscriber.answering = asyncio.current_task()
        try:
            return await self._act(request)
        finally:
            subscriber.answering = None
            if self.realtime.pacer.holds():
                subscriber.flush()

    async def _act(self, request: f.RequestFrame) -> int:
        assert self.player is not None
        player, core, match_id = self.player, self.realtime.core, self.match_id
        if isinstance(request, f.StartFrame):  # names no seat: the host starts
            cut, fill = request.cut, request.fill_with_bots
            return (await service.start(core, player, match_id, cut, fill)).seq
        seat = request.seat if request.seat is not None else self.named_seat
        if isinstance(request, f.MoveFrame):
            started = time.perf_counter()
            seq = await service.move_on_socket(core, player, match_id, move_of(request, seat))
            metrics.observe_move(time.perf_counter() - started, "ws")
            return seq
        if isinstance(request, f.MessageFrame):
            limits: Limits = self.ws.app.state.limits
            await limits.hit("chat", f"{match_id}:{player.id}")
            event = await service.message(core, player, match_id, request.text, seat)
            return event.seq
        if isinstance(request, f.RematchFrame):
            caps = hosting.caps_of(self.settings)
            return await creation.offer_rematch(core, player, match_id, seat, caps, service.seq_of)
        kind = _seat_step(request)
        return await service.seat_step(core, player, match_id, kind, seat, service.seq_of)

    # ------------------------------------------------------------ closing

    async def _close(self, code: int, reason: str) -> None:
        if self.ws.application_state == WebSocketState.DISCONNECTED:
            return
        # The peer may be gone or stuck: then there is nothing more to tell it.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.ws.close(code, reason), 2.0)

    async def _release(self) -> None:
        assert self.player is not None
        freed = self.hub.drop_seats(self.match_id, self.my_seats, self.player.id)
        if not freed:
            return
        try:
            # The seats stay present for one more lease from now, then lapse.
            await presence.connect_seats(
                self.realtime.core,
                self.match_id,
                freed,
                self.settings.presence_lease_s,
                by=self.player.id,
            )
        except Exception:
            log.exception("releasing presence of match %s failed", self.match_id)


def _seat_step(frame: f.NextHandFrame | f.ReadyFrame | f.ResignFrame) -> service.SeatStep:
    match frame:
        case f.NextHandFrame():
            return "next_hand"
        case f.ResignFrame():
            return "resign"
        case f.ReadyFrame():
            return "ready"


def _refusal_of(tasks: Iterable[asyncio.Task[object]]) -> Refused | None:
    for task in tasks:
        error = None if task.cancelled() else task.exception()
        if isinstance(error, Refused):
            return error
    return None


def _whole(value: str | None, name: str, highest: int) -> int | None:
    if value is None:
        return None
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    if not (value.isascii() and value.isdigit()) or int(value) > highest:
        raise Refused(4422, "validation_error")
    return int(value)
