"""The bare WebSocket app that bench/sockets.py sets the service's sockets beside: Starlette on
uvicorn, nothing else.

`/ws` holds a watcher open (it is sent what the mover sends, and nothing else: no keepalive);
`/mover` answers each text message it is sent with two frames to every watcher (as a move's
events come as two frames, its own and the turn that follows), sent one after another with
Starlette's `send_text`, then an ack to the mover. `/healthz` answers at once.

    python -m uvicorn bare_sockets:app --app-dir bench
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

watchers: set[WebSocket] = set()
PAD = "x" * 160  # an event frame of the service's size (about 250 bytes)


async def healthz(_: object) -> JSONResponse:
    return JSONResponse({"status": "ok"})


async def watch(websocket: WebSocket) -> None:
    await websocket.accept()
    watchers.add(websocket)
    try:
        while True:
            await websocket.receive_text()
    except WebSocketDisconnect:
        pass
    finally:
        watchers.discard(websocket)


async def mover(websocket: WebSocket) -> None:
    await websocket.accept()
    seq = 0
    try:
        while True:
            request = await websocket.receive_text()
            for _ in range(2):
                seq += 1
                frame = f'{{"type":"event","event":{{"seq":{seq},"pad":"{PAD}"}}}}'
                for watcher in list(watchers):
                    try:
                        await watcher.send_text(frame)
                    except Exception:  # a watcher gone meanwhile
                        watchers.discard(watcher)
            await websocket.send_text(f'{{"type":"ack","id":{request},"seq":{seq}}}')
    except WebSocketDisconnect:
        pass


app = Starlette(
    routes=[
        Route("/healthz", healthz),
        WebSocketRoute("/ws", watch),
        WebSocketRoute("/mover", mover),
    ]
)
