"""Worker processes that decide computers' moves, and the channel the API process talks over.

Each worker is a process of its own (started with `spawn`: it inherits none of the API
process's sockets, threads or event loop) holding one end of a socketpair; the API process
holds the other, non-blocking, and uses it only from its event loop (`loop.sock_sendall` and
`loop.sock_recv`: the loop waits on the socket like on any client's, so no thread carries the
decisions and nothing polls). A decision is one frame each way, a 4-byte length then msgpack:

- request: `[strategy name, seed, SeatView]` (the view is the engine's own dataclasses, so
  msgspec encodes and decodes it typed: 7 and 11 us for a mid-game view, where pickling took
  55 and 50);
- reply: `[action type, action, reason]`, or `["error", null, traceback]` when the strategy
  raised (the caller gets `DecisionFailed`).

A worker decides one view at a time, so a decision in flight holds its worker; the others wait
for one to be free (`Deciders._take`). A worker that died (killed, out of memory) fails the
exchange with `WorkerGone` and is replaced. A worker leaves when the API process is gone, even
one killed outright: the kernel closes the API's end, and the worker, which waits on its own
end between decisions, reads the end of the stream and exits.
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
from typing import get_args

import msgspec

from domino_api import engine
from domino_api.bots import get_strategy

# How much lower the workers' CPU priority is than the API process's: on a busy machine the
# tables' requests are served first (a computer's answer waits for its floor anyway).
WORKER_NICENESS = 5
HEADER = 4  # bytes of a frame's length, big-endian
READY = b"ready"  # a new worker's first frame: its imports are done
ERROR = "error"

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
        while (payload := _read_blocking(channel)) is not None:
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


def _read_blocking(channel: socket.socket) -> bytes | None:
    """One frame's payload, or None at the end of the stream."""
    data = b""
    while len(data) < HEADER or len(data) < HEADER + int.from_bytes(data[:HEADER], "big"):
        chunk = channel.recv(65536)
        if not chunk:
            return None
        data += chunk
    return data[HEADER:]


# ---------------------------------------------------------------- in the API process


class Worker:
    """One worker process and the API's end of its channel."""

    def __init__(self, context: multiprocessing.context.SpawnContext) -> None:
        ours, theirs = socket.socketpair()
        self.process: BaseProcess = context.Process(
            target=serve, args=(theirs,), name="domino-computer", daemon=True
        )
        self.process.start()
        theirs.close()  # the worker holds its own copy: ours must be the only end left here
        ours.setblocking(False)
        self.channel = ours
        self.ready = False

    async def exchange(self, message: bytes) -> bytes:
        """Send one request and read its reply (after the worker's READY, the first time)."""
        await self.greeted()
        loop = asyncio.get_running_loop()
        try:
            await loop.sock_sendall(self.channel, message)
        except OSError as exc:
            raise WorkerGone(str(exc)) from exc
        return await self._receive(loop)

    async def greeted(self) -> None:
        """Wait for the worker's READY (once): its imports are done."""
        if not self.ready:
            if await self._receive(asyncio.get_running_loop()) != READY:
                raise WorkerGone("the worker did not start")
            self.ready = True

    async def _receive(self, loop: asyncio.AbstractEventLoop) -> bytes:
        data = b""
        while len(data) < HEADER or len(data) < HEADER + int.from_bytes(data[:HEADER], "big"):
            try:
                chunk = await loop.sock_recv(self.channel, 65536)
            except OSError as exc:
                raise WorkerGone(str(exc)) from exc
            if not chunk:
                raise WorkerGone("the worker closed its channel")
            data += chunk
        return data[HEADER:]

    def alive(self) -> bool:
        """Whether an idle worker is fit to take a request: a live one has sent nothing
        unasked, so its channel has nothing to read; one that died has closed its end, so
        ours reads the end of the stream."""
        try:
            self.channel.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            return True
        except OSError:
            pass
        return False

    def close(self) -> None:
        """Close our end: the worker reads the end of the stream and exits on its own."""
        self.channel.close()

    def join(self, timeout: float) -> None:
        self.process.join(timeout)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout)


class Deciders:
    """Up to `size` workers, each deciding one view at a time; callers beyond wait in turn.

    Used from one event loop at a time (the API process's); nothing is bound to a loop between
    calls, so tests that each run their own loop share the workers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._idle: list[Worker] = []
        self._all: set[Worker] = set()
        self._waiters: deque[asyncio.Future[Worker | None]] = deque()
        self._stopped = False

    async def start(self) -> None:
        """Every worker started now and ready, so the first decisions do not wait for them."""
        while len(self._all) < self.size:
            worker = Worker(self._context)
            self._all.add(worker)
            self._idle.append(worker)
        starting = [w for w in self._idle if not w.ready]
        for worker in starting:
            self._idle.remove(worker)  # held while it is greeted, as a decision holds it
        await asyncio.gather(*(self._greet(w) for w in starting))

    async def _greet(self, worker: Worker) -> None:
        try:
            await worker.greeted()
        except WorkerGone:
            self._retire(worker)
            raise
        self._give_back(worker)

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
        worker = await self._take()
        try:
            reply = await worker.exchange(message)
        except BaseException:
            # Gone, or cancelled mid-exchange (its reply may still come): never used again.
            self._retire(worker)
            raise
        self._give_back(worker)
        return reply

    async def _take(self) -> Worker:
        while True:
            if self._stopped:
                raise WorkerGone("the computers' workers were stopped")
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    return worker
                self._retire(worker)
            if len(self._all) < self.size:
                worker = Worker(self._context)
                self._all.add(worker)
                return worker
            waiter: asyncio.Future[Worker | None] = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                handed = await waiter
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled():  # handed on just as it was cancelled
                    self._hand_on(waiter.result())
                raise
            if handed is not None:
                return handed

    def _give_back(self, worker: Worker) -> None:
        if self._stopped:
            self._retire(worker)
        elif not self._hand_on(worker):
            self._idle.append(worker)

    def _retire(self, worker: Worker) -> None:
        worker.close()
        self._all.discard(worker)
        self._hand_on(None)  # room for one more worker: the first waiter starts it

    def _hand_on(self, worker: Worker | None) -> bool:
        """Wake the first caller still waiting with `worker` (None: room to start one);
        without one, False (a free worker then goes back to the idle ones)."""
        while self._waiters:
            waiter = self._waiters.popleft()
            # (A waiter of a loop that has closed since, as a test's loop, is dropped.)
            if not waiter.done() and not waiter.get_loop().is_closed():
                waiter.set_result(worker)
                return True
        return False

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._all if w.process.pid is not None]

    def stop(self, timeout: float = 5.0) -> None:
        """Close the idle workers' channels and wait for them to leave (killed past
        `timeout`); a worker deciding now is closed when its decision is back (a socket the
        event loop waits on must not be closed under it)."""
        self._stopped = True
        idle, self._idle = self._idle, []
        for worker in idle:
            self._retire(worker)
        for worker in idle:
            worker.join(timeout)
