"""`GET /v1/matches/{id}/watch/ws`: a table watched, read only (openapi/asyncapi.yaml).

The spectators' socket, served by an API process and by a socket process alike
(docs/OPERATING.md, "Socket processes"): authenticated as the table's socket is, sent the
public view (`snapshot`, no seat's tiles, whoever asks) and then every event's public copy, in
order, with the keepalives; it answers `ping` with `pong` and anything else with an error
frame. Refused, once accepted, with 4000 + the HTTP status and the problem code as reason.

Opening one writes nothing: the caller's token comes from the process's auth cache, the table
from the process's copy of it (at most `COPY_TTL_S` old: the events after the copy follow it)
or one read (`Core.peek`), never a step of the write core; its snapshot frame is shared by
the spectators opening within 0.1 s on the same copy (`Snapshots`), and the hub reads nothing
for it when it already follows the match past that snapshot. Each socket is one reader task
beside the connection's own; its frames are written straight to the transport by the hub
(realtime/outbox.py; a writer task only under another ASGI server), and a revocation, a full
outbox or the reader's end each end it by a callback, not by a task of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import datetime, timedelta

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from domino_api import metrics
from domino_api.engine import EngineError
from domino_api.engine.errors import StaleSeq
from domino_api.engine.table import Table
from domino_api.errors import BadRequest, ServiceError
from domino_api.jsontext import dump_bytes
from domino_api.matches import access
from domino_api.matches.views import build_view
from domino_api.realtime import frames as f
from domino_api.realtime.hub import Subscriber
from domino_api.realtime.lifecycle import Realtime
from domino_api.realtime.outbox import Frame
from domino_api.realtime.refused import Refused, refusal
from domino_api.realtime.socket_auth import player_of, token_hash_of
from domino_api.store.models import Player
from domino_api.web.revocation import CLOSE_REVOKED, REVOKED_REASON, Credentials
from domino_api.web.transport import wire_of

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
    """A watching socket's place in the hub (its outbox: realtime/outbox.py), which tells it
    the moment it is too slow: its outbox full or its unsent bytes past the limit."""

    def __init__(
        self, match_id: str, cursor: int, queue: int, limit_bytes: int, on_full: Callable[[], None]
    ):
        super().__init__(match_id, None, cursor, queue, None, limit_bytes)
        self._on_full = on_full

    def offer(self, frame: Frame) -> bool:
        queued = super().offer(frame)
        if not queued:
            self._on_full()
        return queued

    def flush(self) -> None:
        super().flush()
        if self.too_slow.is_set():
            self._on_full()


class Snapshots:
    """The public snapshot's frame of each match (the view whoever asks), built once for a
    burst of spectators: reused while the table is the same copy and its `now` is at most
    `REUSE` old. A table whose copy changed (a step, a read) is built again."""

    REUSE = timedelta(seconds=0.1)
    KEPT = 256  # matches; the oldest is forgotten first

    def __init__(self) -> None:
        self._kept: dict[str, tuple[Table, datetime, Frame]] = {}

    def frame(self, table: Table, now: datetime) -> Frame:
        match_id = table.match.id
        kept = self._kept.get(match_id)
        if kept is not None and kept[0] is table and timedelta(0) <= now - kept[1] <= self.REUSE:
            return kept[2]
        view = build_view(table, None, [], now)
        frame = Frame(dump_bytes(f.SnapshotFrame(view=view)))
        self._kept.pop(match_id, None)
        self._kept[match_id] = (table, now, frame)
        if len(self._kept) > self.KEPT:
            del self._kept[next(iter(self._kept))]
        return frame


SNAPSHOTS = Snapshots()


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
        self.realtime.keepalives.add(subscriber)
        metrics.socket_opened()
        try:
            await self._serve(subscriber)
        finally:
            self.realtime.keepalives.remove(subscriber)
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
        cursor = seq if after is None else after
        subscriber = WatchSubscriber(
            self.match_id, cursor, settings.ws_send_queue, settings.ws_send_buffer_bytes, on_full
        )
        subscriber.wire = wire_of(self.ws.scope)
        subscriber.put(SNAPSHOTS.frame(table, core.clock.now()))
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
        subscriber.flush()  # the snapshot, and what came since it was taken
        tasks = [asyncio.ensure_future(self._read(subscriber))]
        if subscriber.wire is None:  # another ASGI server: a writer sends the outbox's queue
            tasks.append(asyncio.get_running_loop().create_task(self._write(subscriber)))
        for task in tasks:
            task.add_done_callback(lambda _: self._end((1000, "")))
        try:
            code, reason = await self.ending
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        await self._close(code, reason)

    async def _write(self, subscriber: WatchSubscriber) -> None:
        while True:
            await self.ws.send_text((await subscriber.queue.get()).text)

    async def _read(self, subscriber: WatchSubscriber) -> None:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    return
                answer = _answer(message.get("text"), message.get("bytes"))
                subscriber.send(Frame(dump_bytes(answer)))

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
