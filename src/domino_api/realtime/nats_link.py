"""The process's NATS connections (announcements, their listener, the lobby's feed): one way to
connect that survives a node's loss, and one way to let a connection go."""

from __future__ import annotations

import asyncio
import logging
import os

import nats
from nats.aio.client import Callback
from nats.aio.client import Client as Nats

log = logging.getLogger(__name__)

# A NATS node that hangs (its connections stay open) is left for another once this many pings
# in a row, one every NATS_PING_S, go unanswered: 10-15 s, against nats-py's 4-6 minutes.
NATS_PING_S = 5
NATS_PINGS_OUTSTANDING = 2


async def connect(
    servers: list[str],
    name: str,
    timeout: float = 10.0,
    reconnected_cb: Callback | None = None,
) -> Nats:
    """A NATS connection to the first server of `servers` that answers, which reconnects for
    ever once made (a process outlives a NATS restart or the loss of its node: it moves to the
    next server of the list, or to one the cluster announced). The first connection must
    succeed within `timeout`, else ConnectionError (a process configured for NATS does not
    start without it). The name carries the process id, so a server's connection list
    (`/connz`) tells which process is where."""

    async def on_error(exc: Exception) -> None:
        log.warning("NATS (%s): %s", name, exc)

    first = nats.connect(
        servers,
        name=f"{name}-{os.getpid()}",
        max_reconnect_attempts=-1,
        reconnect_time_wait=0.5,
        ping_interval=NATS_PING_S,
        max_outstanding_pings=NATS_PINGS_OUTSTANDING,
        # In the order given: each process's list may put its nearest node first.
        dont_randomize=True,
        error_cb=on_error,
        reconnected_cb=reconnected_cb,
    )
    try:
        return await asyncio.wait_for(first, timeout)
    except TimeoutError as exc:
        where = ", ".join(servers)
        raise ConnectionError(f"NATS at {where} did not answer within {timeout:g} s") from exc


async def close_quietly(nc: Nats) -> None:
    try:
        await nc.drain()
    except Exception:
        await nc.close()
