"""uvicorn's protocols with deadlines for slow clients and a cap on connections per address.

uvicorn bounds only the idle time between requests (`timeout_keep_alive`): a connection that
sends nothing, or a byte every few seconds in its head or body, stays open for as long as the
client likes (a slow-loris held 12 connections for 240 s). `GuardedHttp` (httptools, uvicorn's
default parser) closes a connection whose request head is not complete within
`request_head_timeout_s` of its first byte (or of the connection), whose body is not complete
within `request_body_timeout_s` of the head, or whose head grows past `MAX_HEAD_BYTES` (431). The
deadlines run from a fixed moment: trickling bytes does not move them.

A WebSocket's upgrade request is a request head like any other; after it the socket must
authenticate within `ws_auth_timeout_s` (realtime/socket.py), its frames are bounded by
`ws_max_size` before they are read (app/serving.py), and a frame begun must be whole within
`ws_frame_timeout_s` (`GuardedWebSocket`).

Both protocols count open connections per client address (an IPv6 client by its /64, as the
budgets do): a connection beyond `connections_per_address` is answered 429 and closed. The peer
counted is the TCP peer; addresses in `DOMINO_TRUSTED_PROXIES` are not capped (a proxy carries
many clients, and must cap them itself). Counts are per process, like the sockets per token:
the app builds one `Guard` (its settings and counts) and hands it to the protocols uvicorn makes
through its lifespan state.

What the parser refuses (a request head that is not HTTP) is answered 400 with a problem
document and the security headers, like every refusal the app writes, not uvicorn's plain text.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable

from starlette.types import Scope
from typing_extensions import TypeIs
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from domino_api import metrics
from domino_api.config import Settings
from domino_api.errors import problem
from domino_api.jsontext import dump_bytes
from domino_api.web.headers import API_POLICY, FIXED, POLICY
from domino_api.web.ratelimit import address_key

# A request head (request line and headers) larger than this is refused: no route needs more,
# and httptools sets no bound of its own.
MAX_HEAD_BYTES = 64 * 1024
CLOCK_STEP_S = 0.001


class AddressCount:
    """Open connections per client address in this process."""

    def __init__(self, settings: Settings) -> None:
        self.most = settings.connections_per_address
        self.exempt = [
            ipaddress.ip_network(part.strip(), strict=False)
            for part in settings.trusted_proxies.split(",")
            if part.strip()
        ]
        self._open: dict[str, int] = {}

    def open(self, client: tuple[str, int] | None) -> str | None:
        """The key counted for `client`, or None when it holds too many connections already.
        A trusted proxy is counted under "" (never refused)."""
        host = client[0] if client else None
        if host and _within(host, self.exempt):
            return ""
        key = address_key(host)
        current = self._open.get(key, 0)
        if self.most > 0 and current >= self.most:
            return None
        self._open[key] = current + 1
        return key

    def close(self, key: str | None) -> None:
        if not key:
            return
        left = self._open.get(key, 0) - 1
        if left > 0:
            self._open[key] = left
        else:
            self._open.pop(key, None)


def _within(host: str, networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in networks)


# The key of the app's lifespan state under which the app hands its `Guard` to the protocols.
GUARD_STATE = "connection_guard"


class Guard:
    """What the protocols of one serving process are handed: the app's settings and its
    per-address counts. The app builds it from its Settings (app/api.py) and hands it over
    in its lifespan state, which uvicorn gives every protocol it makes (`app_state`)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.count = AddressCount(settings)


def guard_of(protocol: HttpToolsProtocol | WebSocketsSansIOProtocol) -> Guard:
    """The Guard in the lifespan state uvicorn handed the protocol (its `app_state`)."""
    guard = protocol.app_state.get(GUARD_STATE)
    if not isinstance(guard, Guard):
        raise RuntimeError("the app's lifespan handed no Guard (serve it with its lifespan on)")
    return guard


def _raw_problem(status: str, code: str, title: str, detail: str, *more: str) -> bytes:
    """A whole problem answer written past the app (it closes the connection): with the
    security headers every answer carries, which are otherwise added by the app."""
    body = dump_bytes(problem(int(status[:3]), code, title, detail))
    secure = [*FIXED, (POLICY, API_POLICY.encode("latin-1"))]
    lines = [
        f"HTTP/1.1 {status}".encode("ascii"),
        b"content-type: application/problem+json",
        b"content-length: %d" % len(body),
        *(line.encode("ascii") for line in more),
        b"connection: close",
        *(name + b": " + value for name, value in secure),
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


TOO_MANY = _raw_problem(
    "429 Too Many Requests",
    "rate_limited",
    "Too many connections",
    "Too many open connections.",
    "retry-after: 5",
)


HEAD_TOO_LARGE = _raw_problem(
    "431 Request Header Fields Too Large",
    "bad_request",
    "Request head too large",
    f"A request's target and headers may hold at most {MAX_HEAD_BYTES} bytes.",
)


class HeadTooLarge(Exception):
    """Raised in a parser callback: the head passed MAX_HEAD_BYTES."""


def _stream(transport: asyncio.BaseTransport) -> TypeIs[asyncio.Transport]:
    """A transport one writes to: asyncio's `Transport`, or uvloop's, which is one without
    subclassing it (asyncio.Protocol's hook names only the base; uvicorn's narrows it)."""
    return callable(getattr(transport, "write", None))


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol with head and body deadlines and the per-address cap.
    uvicorn's constructor is kept as it is: the Guard is read when the connection is made."""

    _settings: Settings
    _count: AddressCount
    _address: str | None = None
    # The deadline in force (loop time) and what its passing means; None: none runs.
    _due: float | None = None
    _reason = ""
    _timer: asyncio.TimerHandle | None = None
    _head_bytes = 0  # bytes read while a head is due (across reads)
    _head_too_large = False  # a head complete within one read, past MAX_HEAD_BYTES

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not _stream(transport):
            raise TypeError(f"HTTP needs a stream transport, not {type(transport).__name__}")
        guard = guard_of(self)
        self._settings, self._count = guard.settings, guard.count
        super().connection_made(transport)
        self._address = self._count.open(self.client)
        if self._address is None:
            metrics.connection_closed("per_address")
            transport.write(TOO_MANY)
            transport.close()
            return
        self._arm(self._settings.request_head_timeout_s, "head_timeout")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._count.close(self._address)
        self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:  # a request head is due
            if self._due is None:  # the first byte of a kept-alive connection's request
                self._arm(self._settings.request_head_timeout_s, "head_timeout")
            self._head_bytes += len(data)
        super().data_received(data)
        # Reset once the head is complete: what is counted still is an unfinished head.
        if self._head_bytes > MAX_HEAD_BYTES and not self.transport.is_closing():
            self._refuse_head()

    def send_400_response(self, msg: str) -> None:
        # uvicorn's own answer to what its parser refuses is text/plain: a problem instead,
        # like every other refusal.
        if self._head_too_large:
            self._refuse_head()
            return
        self.transport.write(
            _raw_problem("400 Bad Request", "bad_request", "Malformed request", msg)
        )
        self.transport.close()

    def _refuse_head(self) -> None:
        metrics.connection_closed("head_too_large")
        self.transport.write(HEAD_TOO_LARGE)
        self.transport.close()

    def on_headers_complete(self) -> None:
        # A head that came whole in one read was never counted unfinished: measured here, once.
        # Raising stops the parser; uvicorn then answers through `send_400_response`.
        if len(self.url) + sum(len(n) + len(v) for n, v in self.headers) > MAX_HEAD_BYTES:
            self._head_too_large = True
            raise HeadTooLarge()
        self._disarm()
        self._head_bytes = 0
        super().on_headers_complete()
        # Armed here, disarmed by on_message_complete (at once when there is no body).
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm(self._settings.request_body_timeout_s, "body_timeout")

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        # The socket's protocol takes the connection, and its count with it.
        self._disarm()
        super().handle_websocket_upgrade()
        protocol = self.transport.get_protocol()
        if isinstance(protocol, GuardedWebSocket):
            protocol.address, self._address = self._address, None

    # Two deadlines per request (the head's, then the body's) are set and lifted by changing
    # `_due`; the connection's one timer only checks it. A timer per deadline was made and
    # cancelled twice per request, and every cancelled one stayed in the loop's heap until
    # its time came (measured in the history of bench/README.md: `git log -p`).
    def _arm(self, seconds: float, reason: str) -> None:
        self._due, self._reason = self.loop.time() + seconds, reason
        if self._timer is None:
            self._timer = self.loop.call_at(self._due, self._expire)

    def _disarm(self) -> None:
        self._due = None

    def _expire(self) -> None:
        self._timer = None
        if self._due is None:
            return  # lifted: the next deadline starts the timer again
        # A later deadline replaced the one timed. (The loop's clock counts whole milliseconds,
        # so a timer may wake up to one early: that is on time, not a reason to wait again.)
        if self.loop.time() < self._due - CLOCK_STEP_S:
            self._timer = self.loop.call_at(self._due, self._expire)
            return
        self._close(self._reason)

    def _close(self, reason: str) -> None:
        self._due = None
        if not self.transport.is_closing():
            metrics.connection_closed(reason)
            self.transport.close()


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, giving back its address's count when it closes, with a
    frame deadline: bytes that do not yet make a whole frame must become one within
    `ws_frame_timeout_s` (issue 41: an authenticated socket trickling one frame at a byte a
    second stayed open past 70 s). The deadline runs from the first read that completed no
    frame, and only a complete frame (or the handshake) lifts it: trickling does not move it.
    A socket that sends nothing between frames has no deadline (it may only listen)."""

    address: str | None = None
    _frame_timer: asyncio.TimerHandle | None = None
    _completed = False

    def data_received(self, data: bytes) -> None:
        self._completed = False
        super().data_received(data)
        if self._completed:
            self._lift_frame_deadline()
        elif data and self._frame_timer is None and not self.transport.is_closing():
            self._frame_timer = self.loop.call_later(
                guard_of(self).settings.ws_frame_timeout_s, self._frame_expired
            )

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        # The app's socket routes find the protocol here and write frames straight to it.
        scope: Scope | None = getattr(self, "scope", None)
        if scope is not None:
            scope[WIRE_SCOPE] = self

    def handle_events(self) -> None:
        # The parser holds what it completed until this drains it: a frame, or the handshake.
        if self.conn.events:
            self._completed = True
        super().handle_events()

    def _lift_frame_deadline(self) -> None:
        if self._frame_timer is not None:
            self._frame_timer.cancel()
            self._frame_timer = None

    def _frame_expired(self) -> None:
        self._frame_timer = None
        if not self.transport.is_closing():
            metrics.connection_closed("frame_timeout")
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._lift_frame_deadline()
        guard_of(self).count.close(self.address)
        self.address = None
        super().connection_lost(exc)


# The key under which `GuardedWebSocket` puts itself in its connection's ASGI scope: the socket
# routes write frames straight to its transport through a `Wire` (realtime/outbox.py).
WIRE_SCOPE = "domino.wire"


def text_frame(payload: bytes) -> bytes:
    """One whole, unmasked WebSocket text frame (RFC 6455 5.2) carrying `payload` (UTF-8): a
    server's frame, made once and written to every socket that is sent it."""
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 1 << 16:
        return b"\x81\x7e" + size.to_bytes(2, "big") + payload
    return b"\x81\x7f" + size.to_bytes(8, "big") + payload


class Wire:
    """An open socket's transport, written to without the ASGI `send` (a task switch, the
    `websockets` framing and uvicorn's checks per frame: half the CPU of a spectator's frame,
    bench/sockets.py). Frames written here are whole text frames (`text_frame`); uvicorn's own
    writes (the close, a pong) go to the same transport, so the order of writes is kept. Never
    compressed: RFC 7692 lets a server send any message uncompressed."""

    def __init__(
        self, transport: asyncio.WriteTransport, closed: Callable[[], bool] = lambda: False
    ) -> None:
        self._transport = transport
        self._closed = closed  # the protocol sent its close, or the peer is gone

    @property
    def open(self) -> bool:
        return not (self._closed() or self._transport.is_closing())

    def write(self, data: bytes) -> None:
        if self.open:
            self._transport.write(data)

    def buffered(self) -> int:
        """Bytes the kernel has not taken yet (a slow reader's backlog)."""
        return self._transport.get_write_buffer_size()


def wire_of(scope: Scope) -> Wire | None:
    """The connection's `Wire`, when `GuardedWebSocket` serves it and its handshake is done."""
    protocol = scope.get(WIRE_SCOPE)
    if isinstance(protocol, WebSocketsSansIOProtocol) and protocol.handshake_complete:
        return Wire(protocol.transport, lambda: protocol.close_sent or protocol.disconnected)
    return None
