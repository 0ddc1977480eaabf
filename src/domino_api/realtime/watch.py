"""`GET /v1/matches/{id}/watch/ws`: a table watched, read only (openapi/asyncapi.yaml).

The spectators' socket, served by an API process and by a socket process alike
(docs/OPERATING.md, "Socket processes"): authenticated as the table's socket is, sent the
public view (`snapshot`, no seat's tiles, whoever asks) and then every event's public copy, in
order, with the keepalives; it answers `ping` with `pong` and anything else with an error
frame. Refused, once accepted, with 4000 + the HTTP status and the problem code as reason.

Opening one writes nothing: the caller's token comes from the process's auth cache, the table
from the process's copy of it (at most `COPY_TTL_S` old: the events after the copy follow it)
or one read (`Core.peek`), never a step of the write core. Each socket is one writer task
beside the connection's own: its reader is the connection's task, and a revocation, a full
queue or the writer's end each end it by a callback, not by a task of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from domino_api import metrics
from domino_api.engine import EngineError
from domino_api.engine.errors import StaleSeq
from domino_api.engine.event_types import AnyEvent
from domino_api.errors import BadRequest, ServiceError
from domino_api.matches import access
from domino_api.matches.views import build_view
from domino_api.realtime import frames as f
from domino_api.realtime.hub import Subscriber
from domino_api.realtime.lifecycle import Realtime
from domino_api.realtime.refused import Refused, refusal
from domino_api.realtime.socket_auth import player_of, token_hash_of
from domino_api.store.models import Player
from domino_api.web.revocation import CLOSE_REVOKED, REVOKED_REASON, Credentials

router = APIRouter(prefix="/v1", tags=["matches"])

# (close code, reason) a socket ends with.
Ending = tuple[int, str]
WATCH_ONLY = "The watch socket takes `ping` frames only."


@router.websocket("/matches/{match_id}/watch/ws")
async def watch_socket(websocket: WebSocket, match_id: str) -> None:
    """The table's public view, then every event's public copy, live."""
    await Watch(websocket, match_id, websocket.app.state.realtime).run()


class Bell(asyncio.Event):
    """A revocation's event (web/revocation.py) that also rings: the socket ends at once."""

    def __init__(self, ring: Callable[[], None]) -> None:
        super().__init__()
        self._ring = ring

    def set(self) -> None:
        super().set()
        self._ring()


class WatchSubscriber(Subscriber):
    """A watching socket's place in the hub, which tells it the moment its queue is full."""

    def __init__(self, match_id: str, cursor: int, queue: int, on_full: Callable[[], None]):
        super().__init__(match_id, None, cursor, queue)
        self._on_full = on_full

    def offer(self, text: str, event: AnyEvent | None = None) -> bool:
        queued = super().offer(text, event)
        if not queued:
            self._on_full()
        return queued


class Watch:
    def __init__(self, websocket: WebSocket, match_id: str, realtime: Realtime) -> None:
        self.ws = websocket
        self.match_id = match_id
        self.realtime = realtime
        self.credentials: Credentials = websocket.app.state.credentials
        self.credential: tuple[str, asyncio.Event] | None = None
        self.player: Player | None = None
        # Set once, by whatever ends the socket first: how it closes.
        self.ending: asyncio.Future[Ending] = asyncio.get_running_loop().create_future()

    async def run(self) -> None:
        await self.ws.accept()
        try:
            subscriber = await self._open()
        except Refused as refused:
            self._let_go()
            await self._close(refused.code, refused.reason)
            return
        except BaseException:
            self._let_go()
            raise
        self.realtime.hub.subscribe(subscriber)
        metrics.socket_opened()
        try:
            await self._serve(subscriber)
        finally:
            metrics.socket_closed()
            self.realtime.hub.unsubscribe(subscriber)
            self._let_go()

    # ------------------------------------------------------------ opening

    async def _open(self) -> WatchSubscriber:
        settings = self.realtime.settings
        token_hash = await token_hash_of(self.ws, settings.ws_auth_timeout_s)
        revoked = Bell(lambda: self._end((CLOSE_REVOKED, REVOKED_REASON)))
        self.credential = (token_hash, self.credentials.hold(token_hash, revoked))
        self.player = player = await player_of(self.ws, token_hash)
        counts = self.ws.app.state.socket_count
        if not counts.open(player.id, settings.sockets_per_token):
            self.player = None  # holds no slot
            raise Refused(4429, "rate_limited")
        after = _after(self.ws.query_params.get("after"))
        await self.realtime.ensure_started()
        core = self.realtime.core
        try:
            table = await core.peek(self.match_id)
            if after is not None and after > table.state.seq:  # the copy may be behind
                table = await core.peek(self.match_id, fresh=True)
            await access.require_member_in(core.maker, access.watch_check(table, player), player.id)
            seq = table.state.seq
            if after is not None and after > seq:
                raise StaleSeq(f"after={after} is beyond the match's seq {seq}.")
        except (ServiceError, EngineError) as exc:
            raise refusal(exc) from exc
        on_full = lambda: self._end((f.CLOSE_TOO_SLOW, f.TOO_SLOW_REASON))  # noqa: E731
        queue = settings.ws_send_queue
        subscriber = WatchSubscriber(self.match_id, seq if after is None else after, queue, on_full)
        view = build_view(table, None, [], core.clock.now())  # the public view, whoever asks
        subscriber.offer(f.text_of(f.SnapshotFrame(view=view)))
        return subscriber

    def _let_go(self) -> None:
        if self.credential is not None:
            self.credentials.release(*self.credential)
            self.credential = None
        if self.player is not None:
            self.ws.app.state.socket_count.close(self.player.id)
            self.player = None

    # ------------------------------------------------------------ serving

    def _end(self, ending: Ending) -> None:
        if not self.ending.done():
            self.ending.set_result(ending)

    async def _serve(self, subscriber: WatchSubscriber) -> None:
        writer = asyncio.get_running_loop().create_task(self._write(subscriber))
        writer.add_done_callback(lambda _: self._end((1000, "")))
        reader = asyncio.ensure_future(self._read(subscriber))
        reader.add_done_callback(lambda _: self._end((1000, "")))
        try:
            code, reason = await self.ending
        finally:
            writer.cancel()
            reader.cancel()
            await asyncio.gather(writer, reader, return_exceptions=True)
        await self._close(code, reason)

    async def _write(self, subscriber: WatchSubscriber) -> None:
        while True:
            text, _ = await subscriber.queue.get()
            await self.ws.send_text(text)

    async def _read(self, subscriber: WatchSubscriber) -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                subscriber.offer(f.text_of(_answer(message.get("text"), message.get("bytes"))))

    async def _close(self, code: int, reason: str) -> None:
        if self.ws.application_state == WebSocketState.DISCONNECTED:
            return
        with contextlib.suppress(Exception):  # the peer may be gone or stuck
            await asyncio.wait_for(self.ws.close(code, reason), 2.0)


def _answer(text: str | None, data: bytes | None) -> f.Answer:
    request = f.read_frame(text, data)
    if isinstance(request, f.ErrorFrame):
        return request
    if isinstance(request, f.PingFrame):
        return f.PongFrame(id=request.id)
    return f.error_frame(getattr(request, "id", None), BadRequest(WATCH_ONLY))


def _after(value: str | None) -> int | None:
    if value is None:
        return None
    # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
    if not (value.isascii() and value.isdigit()) or int(value) > 2**31 - 1:
        raise Refused(4422, "validation_error")
    return int(value)
