"""`GET /v1/lobby/ws[?preset=P][&seek=S]`: the lobby of one preset, live, and the caller's own
events (openapi/asyncapi.yaml).

Authenticated as a match socket is (a bearer header, or an `auth` frame first); refused, once
accepted, with 4000 + the HTTP status and the problem code as reason. It is sent `subscribed`,
then every lobby event of the preset (`table_opened`, `seats_changed`, `table_closed`) as it
happens, in order (realtime/lobby_feed.py). With `seek`, one of the caller's own open seeks,
the socket holds that seek's lease while it is open (a seek needs no polling then) and is sent
its `seek_paired`. It answers `ping` with `pong`, anything else with an error frame, and
sends `keepalive` as the match socket does (realtime/keepalive.py). Without `preset` it
watches no preset's tables. Whatever it watches, it is sent its player's own events:
`your_turn` (turns/notices.py) and its friends' and challenges' (social/events.py); its player
is online while it is open (social/presence.py).
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from domino_api.engine.rulesets import PRESETS
from domino_api.errors import BadRequest, SeekNotFound
from domino_api.jsontext import dump_bytes, dumps
from domino_api.lobby import seeks
from domino_api.lobby.events import SeekPaired
from domino_api.lobby.runtime import Lobby, lobby_of
from domino_api.realtime import frames
from domino_api.realtime.lifecycle import realtime_of
from domino_api.realtime.lobby_feed import LobbySubscriber
from domino_api.realtime.outbox import Frame
from domino_api.realtime.refused import Refused, refusal
from domino_api.realtime.socket_auth import player_of, token_hash_of
from domino_api.store.models import Player
from domino_api.web.revocation import CLOSE_REVOKED, REVOKED_REASON, Credentials
from domino_api.web.transport import wire_of

router = APIRouter(prefix="/v1", tags=["lobby"])


@router.websocket("/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby of `preset`, live; with `seek`, that seek held and its pairing told."""
    await websocket.accept()
    lobby = lobby_of(websocket)
    counts = websocket.app.state.socket_count
    credentials: Credentials = websocket.app.state.credentials
    # A revoked credential closes it (web/revocation.py): the process hears revocations.
    await realtime_of(websocket).ensure_started()
    player: Player | None = None
    credential: tuple[str, asyncio.Event] | None = None
    subscriber: LobbySubscriber | None = None
    try:
        token_hash = await token_hash_of(websocket, lobby.settings.ws_auth_timeout_s)
        credential = (token_hash, credentials.hold(token_hash))  # before it is looked up
        player = await player_of(websocket, token_hash)  # the process's auth cache
        if not counts.open(player.id, lobby.settings.sockets_per_token):
            player = None
            raise Refused(4429, "rate_limited")
        await lobby.feed.start()
        subscriber = await _open(websocket, lobby, player)
    except Refused as refused:
        if player is not None:
            counts.close(player.id)
        if credential is not None:
            credentials.release(*credential)
        await _close(websocket, refused.code, refused.reason)
        return
    except WebSocketDisconnect:
        if player is not None:
            counts.close(player.id)
        if credential is not None:
            credentials.release(*credential)
        if subscriber is not None:
            lobby.feed.unsubscribe(subscriber)
        return
    online = websocket.app.state.online
    keepalives = realtime_of(websocket).keepalives
    keepalives.add(subscriber)  # spread over the interval with every socket's (issue 49)
    try:
        await online.arrive(player.id)
        await _serve(websocket, lobby, player, subscriber, credential[1])
    finally:
        keepalives.remove(subscriber)
        lobby.feed.unsubscribe(subscriber)
        counts.close(player.id)
        credentials.release(*credential)
        await online.left(player.id)


async def _open(websocket: WebSocket, lobby: Lobby, player: Player) -> LobbySubscriber:
    """Subscribe first, then read the seek: a pairing committed in between is both in the
    read and in the feed, and the socket sends `seek_paired` once (never none)."""
    params = websocket.query_params
    preset = params.get("preset")
    if preset is not None and preset not in PRESETS:
        raise Refused(4422, "unknown_ruleset")
    seek_id = params.get("seek")
    if seek_id is not None and not 0 < len(seek_id) <= 36:
        raise Refused(4422, "validation_error")
    held: set[str] = {seek_id} if seek_id is not None else set()
    settings = lobby.settings
    subscriber = LobbySubscriber(
        preset, held, settings.ws_send_queue, settings.ws_send_buffer_bytes, player.id
    )
    subscriber.wire = wire_of(websocket.scope)
    subscriber.held = True  # nothing is sent before the seek is read: it may refuse the socket
    subscriber.put(Frame(dump_bytes(frames.SubscribedFrame(preset=preset or ""))))
    lobby.feed.subscribe(subscriber)
    if seek_id is None:
        return subscriber
    try:
        seek = await seeks.read(
            lobby.core, player, seek_id, lobby.lease_s, lobby.caps, lobby.publish
        )
    except SeekNotFound as exc:
        lobby.feed.unsubscribe(subscriber)
        raise refusal(exc) from exc
    if seek.match is not None and seek.seat is not None:  # paired before the socket came
        paired = SeekPaired(ruleset=seek.ruleset, seek=seek.id, match=seek.match, seat=seek.seat)
        subscriber.tell_paired(seek.id, dumps(paired))
    return subscriber


async def _serve(
    websocket: WebSocket,
    lobby: Lobby,
    player: Player,
    subscriber: LobbySubscriber,
    revoked: asyncio.Event,
) -> None:
    loop = asyncio.get_running_loop()
    subscriber.held = False
    subscriber.flush()
    slow = loop.create_task(subscriber.too_slow.wait())
    signed_out = loop.create_task(revoked.wait())
    tasks: set[asyncio.Task[object]] = {
        signed_out,
        # Written straight to the transport when the server offers it (realtime/outbox.py).
        loop.create_task(_write(websocket, subscriber) if subscriber.wire is None else _idle()),
        loop.create_task(_read(websocket, subscriber)),
        slow,
    }
    if subscriber.seeks:  # a socket that holds no seek needs no task for it
        tasks.add(loop.create_task(_hold(lobby, player, subscriber)))
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    if signed_out in done:
        await _close(websocket, CLOSE_REVOKED, REVOKED_REASON)
    elif slow in done:
        await _close(websocket, frames.CLOSE_TOO_SLOW, frames.TOO_SLOW_REASON)
    else:
        await _close(websocket, 1000, "")


async def _write(websocket: WebSocket, subscriber: LobbySubscriber) -> None:
    while True:
        await websocket.send_text((await subscriber.queue.get()).text)


async def _idle() -> None:
    await asyncio.Event().wait()


async def _read(websocket: WebSocket, subscriber: LobbySubscriber) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        answer = _answer(message.get("text"), message.get("bytes"))
        subscriber.send(Frame(dump_bytes(answer)))


def _answer(text: str | None, data: bytes | None) -> frames.Answer:
    request = frames.read_frame(text, data)
    if isinstance(request, frames.ErrorFrame):
        return request
    if isinstance(request, frames.PingFrame):
        return frames.PongFrame(id=request.id)
    return frames.error_frame(
        getattr(request, "id", None), BadRequest("The lobby socket takes `ping` frames only.")
    )


async def _hold(lobby: Lobby, player: Player, subscriber: LobbySubscriber) -> None:
    """Renew the held seeks' leases a few times per lease while the socket is open."""
    while True:
        await asyncio.sleep(lobby.lease_s / 3)
        held = sorted(subscriber.seeks)
        await seeks.hold(lobby.core, player, held, lobby.lease_s, lobby.caps, lobby.publish)


async def _close(websocket: WebSocket, code: int, reason: str) -> None:
    if websocket.application_state == WebSocketState.DISCONNECTED:
        return
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(code, reason), 2.0)
