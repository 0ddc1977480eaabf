"""Worker processes that decide computers' moves, and the channel the API process talks over.

Each worker is a process of its own (started with `spawn`: it inherits none of the API
process's sockets, threads or event loop) holding one end of a socketpair; the API process
holds the other, non-blocking. The event loop reads the API's end as replies arrive (a reader
registered once per loop, not per decision: `loop.sock_recv` registered and removed it around
every reply, two system calls each), so no thread carries the decisions and nothing polls. A
decision is one frame each way, a 4-byte length then msgpack:

- request: `[strategy name, seed, SeatView]` (the view is the engine's own dataclasses, so
  msgspec encodes and decodes it typed: 7 and 11 us for a mid-game view, where pickling took
  55 and 50);
- reply: `[action type, action, reason]`, or `["error", null, traceback]` when the strategy
  raised (the caller gets `DecisionFailed`).

A worker decides its requests one at a time, in the order they came, so its replies come back
in that order: each completes the oldest request still owed. A request goes to the worker
owing the fewest replies, so requests that arrive together are spread over the workers and
queue in their sockets; a worker that wakes to several requests reads them at once and
decides them in turn (bench/capacity.md, "The computers' channel, pipelined"). A worker that
died (killed, out of memory) fails every request it owed with `WorkerGone`, and is replaced; a
decision is tried again once. A worker leaves when the API process is gone, even one killed
outright: the kernel closes the API's end, and the worker, which waits on its own end between
decisions, reads the end of the stream and exits.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import socket
import traceback
from collections import deque
from multiprocessing.process import BaseProcess
from typing import TypeVar, get_args

import msgspec

from domino_api import engine
from domino_api.bots import get_strategy

# How much lower the workers' CPU priority is than the API process's: on a busy machine the
# tables' requests are served first (a computer's answer waits for its floor anyway).
WORKER_NICENESS = 5
HEADER = 4  # bytes of a frame's length, big-endian
READY = b"ready"  # a new worker's first frame: its imports are done
ERROR = "error"
R = TypeVar("R")  # what a pending reply resolves to

_requests = msgspec.msgpack.Decoder(tuple[str, str, engine.SeatView])
_replies = msgspec.msgpack.Decoder(tuple[str, msgspec.Raw, str])
_encoder = msgspec.msgpack.Encoder()
ACTIONS: dict[str, type[engine.Action]] = {kind.__name__: kind for kind in get_args(engine.Action)}


class WorkerGone(Exception):
    """The worker's end of the channel closed: the process died or was stopped."""


class DecisionFailed(Exception):
    """The strategy raised in the worker; the message is its traceback."""


def decide(name: str, view: engine.SeatView, seed: str) -> tuple[engine.Action, str]:
    """A strategy's choice from a seat's view, seeded (what a worker runs for each request)."""
    return get_strategy(name).choose(view, random.Random(seed))


def frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(HEADER, "big") + payload


def request(name: str, view: engine.SeatView, seed: str) -> bytes:
    return frame(_encoder.encode((name, seed, view)))


def answer(payload: bytes) -> tuple[engine.Action, str]:
    """The decision a reply carries; DecisionFailed if the strategy raised."""
    kind, action, reason = _replies.decode(payload)
    if kind == ERROR:
        raise DecisionFailed(reason)
    return msgspec.msgpack.decode(action, type=ACTIONS[kind]), reason


# ---------------------------------------------------------------- in a worker


def serve(channel: socket.socket) -> None:
    """A worker's life: answer each request on `channel` until the API's end closes."""
    os.nice(WORKER_NICENESS)
    # Ctrl-C in a terminal reaches the whole process group; the worker leaves with its API
    # process instead (the end of the stream), not with a traceback of its own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    channel.setblocking(True)
    from domino_api.bots import registry  # noqa: F401  (every strategy imported before READY)

    try:
        channel.sendall(frame(READY))
        frames = Frames()
        while chunk := channel.recv(65536):
            # Every request that came together, in order, each answered as soon as it is
            # decided (a quick one must not wait for a search queued behind it to be sent).
            for payload in frames.feed(chunk):
                channel.sendall(frame(_decide_frame(payload)))
    except OSError:  # the API's end went away mid-reply
        pass


def _decide_frame(payload: bytes) -> bytes:
    try:
        name, seed, view = _requests.decode(payload)
        action, reason = decide(name, view, seed)
        return _encoder.encode((type(action).__name__, action, reason))
    except Exception:  # the caller raises it: a strategy's bug must not kill the worker
        return _encoder.encode((ERROR, None, traceback.format_exc()))


class Frames:
    """Bytes of a stream in, the payloads of its complete frames out (both ends use one)."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[bytes]:
        self._buffer += data
        payloads = []
        while len(self._buffer) >= HEADER:
            end = HEADER + int.from_bytes(self._buffer[:HEADER], "big")
            if len(self._buffer) < end:
                break
            payloads.append(bytes(self._buffer[HEADER:end]))
            del self._buffer[:end]
        return payloads


# ---------------------------------------------------------------- in the API process


class Worker:
    """One worker process and the API's end of its channel: the replies it owes, oldest first,
    each a future of the loop that asked; the channel read by whichever loop asks now."""

    def __init__(self, context: multiprocessing.context.SpawnContext) -> None:
        ours, theirs = socket.socketpair()
        self.process: BaseProcess = context.Process(
            target=serve, args=(theirs,), name="domino-computer", daemon=True
        )
        self.process.start()
        theirs.close()  # the worker holds its own copy: ours must be the only end left here
        ours.setblocking(False)
        self.channel = ours
        self.ready = False  # its READY has been read: its imports are done
        self.gone: WorkerGone | None = None
        self._frames = Frames()
        self._owed: deque[asyncio.Future[bytes]] = deque()
        self._greeting: asyncio.Future[None] | None = None
        self._unsent = b""
        self._loop: asyncio.AbstractEventLoop | None = None

    def owed(self) -> int:
        return len(self._owed)

    async def greeted(self) -> None:
        """Wait for the worker's READY (once): its imports are done."""
        loop = self._attach()
        if self.ready:
            return
        if self.gone is not None:
            raise self.gone
        if self._greeting is None or self._greeting.get_loop() is not loop:
            self._greeting = loop.create_future()
        await self._greeting

    def ask(self, message: bytes) -> asyncio.Future[bytes]:
        """Send one request; the future is its reply."""
        loop = self._attach()
        if self.gone is not None:
            raise self.gone
        reply: asyncio.Future[bytes] = loop.create_future()
        self._owed.append(reply)
        self._send(message)
        return reply

    def _attach(self) -> asyncio.AbstractEventLoop:
        """Read the channel on the running loop (tests run a loop each and share the workers);
        replies owed to a loop that has closed are read and dropped in turn, and requests still
        unsent are written by this loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop and self.gone is None:
            self._detach()
            loop.add_reader(self.channel.fileno(), self._readable)
            if self._unsent:
                loop.add_writer(self.channel.fileno(), self._writable)
            self._loop = loop
        return loop

    def _detach(self) -> None:
        old, self._loop = self._loop, None
        if old is not None and not old.is_closed():
            old.remove_reader(self.channel.fileno())
            old.remove_writer(self.channel.fileno())

    def _send(self, message: bytes) -> None:
        if self._unsent:  # the socket is full: the writer sends it in turn
            self._unsent += message
            return
        try:
            sent = self.channel.send(message)
        except BlockingIOError:
            sent = 0
        except OSError as exc:
            self._lose(WorkerGone(str(exc)))
            return
        if sent < len(message):
            self._unsent = message[sent:]
            assert self._loop is not None
            self._loop.add_writer(self.channel.fileno(), self._writable)

    def _writable(self) -> None:
        try:
            sent = self.channel.send(self._unsent)
        except BlockingIOError:
            return
        except OSError as exc:
            self._lose(WorkerGone(str(exc)))
            return
        self._unsent = self._unsent[sent:]
        if not self._unsent and self._loop is not None:
            self._loop.remove_writer(self.channel.fileno())

    def _readable(self) -> None:
        try:
            data = self.channel.recv(65536)
        except BlockingIOError:
            return
        except OSError as exc:
            self._lose(WorkerGone(str(exc)))
            return
        if not data:
            self._lose(WorkerGone("the worker closed its channel"))
            return
        for payload in self._frames.feed(data):
            self._complete(payload)

    def _complete(self, payload: bytes) -> None:
        if not self.ready:
            if payload != READY:
                self._lose(WorkerGone("the worker did not start"))
                return
            self.ready = True
            _settle(self._greeting, None)
            return
        if not self._owed:
            self._lose(WorkerGone("the worker sent a reply nobody asked for"))
            return
        _settle(self._owed.popleft(), payload)

    def _lose(self, gone: WorkerGone) -> None:
        """The channel is done for: every reply owed fails, and the worker is of no more use."""
        if self.gone is None:
            self.gone = gone
            self._detach()
            self.channel.close()
        _settle(self._greeting, gone)
        owed, self._owed = self._owed, deque()
        for reply in owed:
            _settle(reply, gone)

    def idle_and_alive(self) -> bool:
        """Whether a worker that owes nothing is fit to take a request: a live one has sent
        nothing unasked, so its channel has nothing to read; one that died has closed its end,
        so ours reads the end of the stream (this sees it before the loop's reader does)."""
        if self.gone is not None:
            return False
        if self._owed or not self.ready:
            return True
        try:
            self.channel.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            return True
        except OSError:
            pass
        self._lose(WorkerGone("the worker closed its channel"))
        return False

    def close(self) -> None:
        """Close our end (on the loop that reads it): the worker reads the end of the stream
        and exits on its own."""
        self._lose(WorkerGone("the computers' workers were stopped"))

    def join(self, timeout: float) -> None:
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)


def _settle(future: asyncio.Future[R] | None, outcome: R | BaseException) -> None:
    """Complete `future`, unless it is done (its caller was cancelled) or its loop has closed
    (a test's loop before this one): then its outcome is dropped."""
    if future is None or future.done() or future.get_loop().is_closed():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


class Deciders:
    """Up to `size` workers; each request goes to the one owing the fewest replies.

    Used from one event loop at a time (the API process's); tests that each run their own loop
    share the workers, whose channels follow the loop that asks."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[Worker] = []
        self._stopped = False

    async def start(self) -> None:
        """Every worker started now and ready, so the first decisions do not wait for them."""
        self._top_up()
        await asyncio.gather(*(self._greet(w) for w in self._workers))

    def _top_up(self) -> None:
        """The workers known gone replaced by new ones."""
        self._workers = [w for w in self._workers if w.gone is None]
        while len(self._workers) < self.size:
            self._workers.append(Worker(self._context))

    def _pick(self) -> Worker:
        """The live worker owing the fewest replies. Only the one picked is checked (one peek
        per decision, not one per worker); one found dead is replaced and another picked."""
        while True:
            self._top_up()
            worker = min(self._workers, key=Worker.owed)
            if worker.idle_and_alive():
                return worker

    async def _greet(self, worker: Worker) -> None:
        try:
            await worker.greeted()
        except WorkerGone:
            self._workers = [w for w in self._workers if w is not worker]
            raise

    async def decide(
        self, name: str, view: engine.SeatView, seed: str
    ) -> tuple[engine.Action, str]:
        message = request(name, view, seed)
        try:
            reply = await self._exchange(message)
        except WorkerGone:  # a worker that died is replaced, once per decision
            reply = await self._exchange(message)
        return answer(reply)

    async def _exchange(self, message: bytes) -> bytes:
        if self._stopped:
            raise WorkerGone("the computers' workers were stopped")
        worker = self._pick()
        await self._greet(worker)
        return await worker.ask(message)

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    def close(self) -> None:
        """Close every channel (on the loop that reads them): the workers leave on their own;
        decisions still owed fail."""
        self._stopped = True
        for worker in self._workers:
            worker.close()

    def join(self, timeout: float = 5.0) -> None:
        """Wait for the closed workers to leave (killed past `timeout`): blocks, so a loop runs
        it in a thread."""
        for worker in self._workers:
            worker.join(timeout)
