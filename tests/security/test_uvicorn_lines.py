"""What uvicorn logs of its own, made safe and fair:

- a text frame that is not UTF-8 is the client's fault: the socket is closed 1007, and the server
  logs one warning without a traceback (uvicorn logs it as an error with one, which a client
  could repeat to fill an operator's error log and alerts);
- a socket's opening line carries its path without the query string, where a careless client
  may put its token (uvicorn writes the whole query).
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import struct
import uuid

from domino_api.logs import ClientFaults
from tests.security.conftest import LiveServer

SECRET = "a-token-in-the-query"
BOUND_S = 60.0  # how long the test waits for the server (not a speed limit)


def _masked_text_frame(payload: bytes) -> bytes:
    mask = os.urandom(4)
    masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
    return struct.pack("!BB", 0x81, 0x80 | len(payload)) + mask + masked


async def test_a_text_frame_that_is_not_utf8_closes_1007_and_logs_no_error_nor_query(
    live_server: LiveServer,
) -> None:
    async with live_server(DOMINO_LOG_LEVEL="INFO") as server:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /v1/matches/{uuid.uuid4()}/ws?after=0&token={SECRET} HTTP/1.1\r\n"
                "Host: 127.0.0.1\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), BOUND_S)
        assert head.startswith(b"HTTP/1.1 101"), head
        writer.write(_masked_text_frame(b'{"type": "auth", "token": "\xff\xfe"}'))
        closing = await asyncio.wait_for(reader.read(), BOUND_S)
        writer.close()
        assert closing[0] == 0x88 and struct.unpack("!H", closing[2:4])[0] == 1007, closing
        # The line is written before the socket closes; the log is read once the server stops.
    log = server.log_path.read_text(errors="replace") if server.log_path else ""
    lines = [json.loads(line) for line in log.splitlines() if "Invalid UTF-8" in line]
    assert len(lines) == 1, log[-3000:]
    assert lines[0]["level"] == "warning" and "exc" not in lines[0], lines
    assert "Traceback" not in log and "UnicodeDecodeError" not in log, log[-3000:]
    opened = [line for line in log.splitlines() if '\\"WebSocket /v1/matches/' in line]
    assert opened and all("?" not in line for line in opened), opened
    assert SECRET not in log


def test_the_warning_is_kept_only_where_warnings_are_written() -> None:
    """Lowered to a warning after the logger let it through as an error: at level ERROR it is
    left out, as every warning is."""
    errors = logging.getLogger("uvicorn.error")
    level = errors.level
    faults = ClientFaults()
    try:
        for threshold, kept in ((logging.WARNING, True), (logging.ERROR, False)):
            errors.setLevel(threshold)
            record = errors.makeRecord(
                errors.name,
                logging.ERROR,
                __file__,
                1,
                next(iter(ClientFaults.MESSAGES)),
                (),
                (ValueError, ValueError("x"), None),
            )
            assert faults.filter(record) is kept
            assert (record.levelname, record.exc_info) == ("WARNING", None)
    finally:
        errors.setLevel(level)
