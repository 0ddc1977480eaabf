"""A raw WebSocket load generator for bench/sockets.py: asyncio protocols that count the event
frames they are sent (a frame-header walk per read, no JSON), a /healthz prober, CPU readings."""

from __future__ import annotations

import asyncio
import os
import resource
import time
from pathlib import Path
from typing import Any

EVENT = b'{"type":"event"'


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Milestones:
    """Per move: when it was sent, the event count a spectator has once it has it, and the
    latest receipt of it by any spectator."""

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.sent: list[float] = []
        self.last: list[float] = []

    def add(self, count: int, sent: float) -> None:
        self.counts.append(count)
        self.sent.append(sent)
        self.last.append(0.0)


class Watcher(asyncio.Protocol):
    """A raw WebSocket client that counts the event frames it is sent."""

    def __init__(self, request: bytes, opened: asyncio.Future[None]) -> None:
        self.request = request
        self.opened = opened
        self.buffer = b""
        self.events = 0
        self.frames = 0
        self.base = 0
        self.next = 0  # the next milestone it has not reached
        self.milestones: Milestones | None = None
        self.seen_at = 0.0  # when its latest event frame came
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: Any) -> None:  # uvloop's is no asyncio.Transport
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer + data
        if not self.opened.done():
            head, found, rest = buffer.partition(b"\r\n\r\n")
            if not found:
                self.buffer = buffer
                return
            if b" 101 " not in head.split(b"\r\n", 1)[0]:
                self.opened.set_exception(RuntimeError(head[:200].decode()))
                return
            self.opened.set_result(None)
            buffer = rest
        at = 0
        while at + 2 <= len(buffer):
            size, start = buffer[at + 1] & 0x7F, at + 2
            if size == 126:
                size, start = int.from_bytes(buffer[start : start + 2], "big"), start + 2
            elif size == 127:
                size, start = int.from_bytes(buffer[start : start + 8], "big"), start + 8
            if start + size > len(buffer):
                break
            self.frames += 1
            if buffer.startswith(EVENT, start):
                self.events += 1
                self.seen_at = time.perf_counter()
            at = start + size
        self.buffer = buffer[at:]
        self.reach(self.seen_at)

    def reach(self, at: float) -> None:
        """The milestones its event count reached, received at `at` (or earlier)."""
        marks = self.milestones
        if marks is None:
            return
        count = self.events - self.base
        while self.next < len(marks.counts) and count >= marks.counts[self.next]:
            marks.last[self.next] = max(marks.last[self.next], at)
            self.next += 1

    def watch(self, milestones: Milestones) -> None:
        self.base, self.next, self.milestones = self.events, 0, milestones


async def open_watchers(port: int, path: str, token: str | None, count: int) -> list[Watcher]:
    loop = asyncio.get_running_loop()
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\n{auth}\r\n"
    ).encode()

    async def one() -> Watcher:
        opened: asyncio.Future[None] = loop.create_future()
        _, watcher = await loop.create_connection(
            lambda: Watcher(request, opened), "127.0.0.1", port
        )
        await opened
        return watcher

    out: list[Watcher] = []
    for start in range(0, count, 200):  # 200 opening at a time
        out += await asyncio.gather(*(one() for _ in range(min(200, count - start))))
    return out


async def probe(port: int, seconds: float) -> list[float]:
    """/healthz every 10 ms on one keep-alive connection: each answer's time, in ms."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
    times, end = [], time.perf_counter() + seconds
    while time.perf_counter() < end:
        began = time.perf_counter()
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
        await reader.readexactly(length)
        times.append((time.perf_counter() - began) * 1000)
        await asyncio.sleep(0.01)
    writer.close()
    return times


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"p50 {ordered[len(ordered) // 2]:.1f} p99 {p99:.1f} max {ordered[-1]:.1f} ms"
