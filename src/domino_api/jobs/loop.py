"""The sweep loop inside each API process: clocks fire with nothing else running.

Every API process sweeps (`Settings.sweep_in_process`, on by default; DOMINO_SWEEP_IN_PROCESS
=false for operators who run `domino-api worker` instead) every `INTERVAL_S`, so a deadline is
enforced within about a second of its moment and the forfeit reaches the sockets. Claims skip
what another process or worker holds, so any number of them share one database.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import FastAPI

from domino_api.jobs.sweeper import run_worker

# Often enough that a deadline is enforced within about a second; an idle pass is a handful
# of index lookups.
INTERVAL_S = 0.5


def start_sweep_loop(app: FastAPI) -> None:
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(
        run_worker(app.state.core, INTERVAL_S, stop, heartbeat=False, expire_presence=False),
        name="sweep-loop",
    )
    app.state.sweep_loop = (stop, task)


async def stop_sweep_loop(app: FastAPI) -> None:
    """Let the pass under way finish, then stop."""
    running = getattr(app.state, "sweep_loop", None)
    if running is None:
        return
    stop, task = running
    stop.set()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(task, timeout=10)
    app.state.sweep_loop = None
