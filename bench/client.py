"""A small HTTP/1.1 client for the benchmarks: one keep-alive connection on asyncio streams,
JSON in, (status, JSON) out, so the load generator (which shares the machine's cores with the
server and PostgreSQL) costs as little as possible."""

from __future__ import annotations

import asyncio
import json
from typing import Any


class Http:
    """One keep-alive connection; JSON in, (status, JSON) out."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.requests = 0  # answered on this connection

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(payload)}"]
        if body is not None:
            head.append("Content-Type: application/json")
        if token:
            head.append(f"Authorization: Bearer {token}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
        data = await self.reader.readexactly(length)
        self.requests += 1
        return status, json.loads(data) if data else None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None
