"""How uvicorn serves the app: forwarded headers believed only from the operator's proxies,
deadlines for slow clients, and WebSocket frames bounded before they are read.

uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise, so that a client on the
same machine (or any client behind a proxy that passes the header through) could name any
address it likes and rotate past every per-address budget. Both `domino-api serve` and the
tests' servers take their options from here.

uvicorn reads WebSocket messages of up to 16 MiB by default, decompressed: 20 unauthenticated
sockets each sending one 16 MiB frame of zeros (16 KB on the wire) took 565 MB. `ws_max_size`
is the protocol's own limit (`realtime.frames.MAX_FRAME_BYTES`): the `websockets` library
refuses a frame whose declared length is above it before reading its payload, and stops
inflating a compressed one as soon as the output passes it, closing with 1009.
"""

from __future__ import annotations

import uvicorn

from domino_api.config import Settings
from domino_api.realtime.frames import MAX_FRAME_BYTES
from domino_api.web.transport import GuardedHttp, GuardedWebSocket


def trusted_proxies(settings: Settings) -> list[str]:
    return [part.strip() for part in settings.trusted_proxies.split(",") if part.strip()]


def serve(settings: Settings, app: str, *, host: str, port: int, workers: int) -> None:
    """`uvicorn.run` with forwarded headers, the guarded protocols (web/transport.py), the
    WebSocket frame limit, and uvicorn's own access log and `server` header off: the app writes
    the access line (web/middleware.py; uvicorn's, silenced by its level, still gathered its
    fields for every request), and an answer need not name the server software. Logging is the
    app's (`log_config=None`) and so are the socket's keepalives (`ws_ping_interval=None`).
    Sockets are not compressed unless `DOMINO_WS_DEFLATE`: a fanned-out frame is one text for
    every socket, and deflate compressed it again on each (a fifth of a lobby send's CPU, and a
    compressor per socket)."""
    proxies = trusted_proxies(settings)
    uvicorn.run(
        app,
        host=host,
        port=port,
        workers=workers,
        log_config=None,
        ws_ping_interval=None,
        http=GuardedHttp,
        ws=GuardedWebSocket,
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=settings.ws_deflate,
        access_log=False,
        server_header=False,
        proxy_headers=bool(proxies),
        forwarded_allow_ips=",".join(proxies),
    )
