"""A socket's outgoing frames: made once per audience, merged per step, written straight.

The hub (realtime/hub.py) encodes each event once per audience (a seat's copy, the spectators'
copy, a muted mark) into a whole WebSocket text frame (`Frame`), and hands it to every socket
of that audience (`Outbox.put`). What a socket was handed and has not yet sent is written in
ONE transport write when it is flushed (`Outbox.flush`): a step's events (and the ack that
follows them on the mover's socket) leave together, without an ASGI `send`, a writer task or a
queue per socket (web/transport.py `Wire`). A socket served by another ASGI server (no `Wire`)
gets the same frames through a queue that its writer task sends, one by one.

Who is flushed when (`Flusher`): the seated sockets of a match at once, the spectators in
slices of `SLICE` sockets, one slice per turn of the event loop, so a mover's ack (written by
the mover's own task as soon as it runs) and every other request never wait behind thousands
of spectators' writes (bench/sockets.py).

A socket whose kernel buffer holds more than `limit_bytes` unsent, or that was handed more
than `limit` frames it could not send, is too slow: it is closed `too_slow` and resumes with
`after=N`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

from domino_api.engine.event_types import AnyEvent
from domino_api.web.transport import Wire, text_frame

# Spectators flushed per turn of the event loop: each is one write (a few microseconds).
SLICE = 128


class Frame:
    """One frame as it is sent (the whole WebSocket frame), and the event it carries as its
    typed value (None for a snapshot, an ack, an error or a keepalive)."""

    __slots__ = ("event", "wire")

    def __init__(self, payload: bytes, event: AnyEvent | None = None) -> None:
        self.wire = text_frame(payload)
        self.event = event

    @classmethod
    def of_text(cls, text: str) -> Frame:
        return cls(text.encode())

    @property
    def text(self) -> str:
        size = self.wire[1]
        start = 2 if size < 126 else 4 if size == 126 else 10
        return self.wire[start:].decode()


class Outbox:
    """The frames handed to one socket and not yet written; its last write's time."""

    def __init__(self, limit: int, limit_bytes: int) -> None:
        self.limit = max(1, limit)
        self.limit_bytes = limit_bytes
        self.wire: Wire | None = None  # set by the socket when its server offers one
        self.pending: list[Frame] = []
        self.held = False  # nothing is written while set (a seat's loss being checked)
        self.too_slow = asyncio.Event()
        self.last_sent = 0.0  # loop time of the last flush that wrote (keepalives skip it)
        self.due = False  # waits in a Flusher
        # The task answering this socket's request: what a step of that task hands this
        # socket waits for the answer, which that task writes next (one write for both).
        self.answering: asyncio.Task[object] | None = None
        self._queue: asyncio.Queue[Frame] | None = None

    @property
    def queue(self) -> asyncio.Queue[Frame]:
        """Without a `Wire`: what the socket's writer task sends, in order."""
        if self._queue is None:
            self._queue = asyncio.Queue(maxsize=self.limit)
        return self._queue

    def put(self, frame: Frame) -> bool:
        """Hand one frame (written at the next flush); False when the socket is too slow."""
        if self.too_slow.is_set():
            return False
        if len(self.pending) >= self.limit:
            self.flush()  # a long batch: what fits goes first
            if len(self.pending) >= self.limit or self.too_slow.is_set():
                self.too_slow.set()
                return False
        self.pending.append(frame)
        return True

    def send(self, frame: Frame) -> bool:
        """Hand one frame and write it now, after whatever was handed before it."""
        handed = self.put(frame)
        self.flush()
        return handed

    def flush(self) -> None:
        if self.held or not self.pending or self.too_slow.is_set():
            return
        frames, self.pending = self.pending, []
        self.last_sent = asyncio.get_running_loop().time()
        if self.wire is None:
            for frame in frames:
                try:
                    self.queue.put_nowait(frame)
                except asyncio.QueueFull:
                    self.too_slow.set()
                    return
            return
        self.wire.write(frames[0].wire if len(frames) == 1 else b"".join(f.wire for f in frames))
        if self.wire.buffered() > self.limit_bytes:
            self.too_slow.set()


class Flusher:
    """Flushes outboxes later, `SLICE` per turn of the event loop, each once, in the order
    they were asked for."""

    def __init__(self) -> None:
        self._due: deque[Outbox] = deque()
        self._handle: asyncio.Handle | None = None
        self.turns = 0  # turns of the loop that flushed (tests count the slices)

    @property
    def waiting(self) -> int:
        """Outboxes still to be flushed."""
        return len(self._due)

    def later(self, outbox: Outbox) -> None:
        if not outbox.due:
            outbox.due = True
            self._due.append(outbox)
        if self._handle is None:
            self._handle = asyncio.get_running_loop().call_soon(self._turn)

    def _turn(self) -> None:
        self._handle = None
        self.turns += 1
        due = self._due
        for _ in range(min(SLICE, len(due))):
            outbox = due.popleft()
            outbox.due = False
            outbox.flush()
        if due:
            self._handle = asyncio.get_running_loop().call_soon(self._turn)


def flush_all(outboxes: list[Outbox], now: Callable[[Outbox], bool], flusher: Flusher) -> None:
    """Flush the outboxes `now` picks at once, the others in the flusher's slices; a socket
    whose own task is answering it (this one) is left to its answer, written right after."""
    task = asyncio.current_task()
    for outbox in outboxes:
        if outbox.answering is not None and outbox.answering is task:
            continue
        if now(outbox):
            outbox.flush()
        else:
            flusher.later(outbox)
