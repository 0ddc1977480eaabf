"""The sweep loop: `domino-api worker`'s, and the one inside each API process, so clocks fire
with nothing else running.

Every API process sweeps (`Settings.sweep_in_process`, on by default; DOMINO_SWEEP_IN_PROCESS
=false for operators who run `domino-api worker` instead) every `INTERVAL_S`, so a deadline is
enforced within about a second of its moment and the forfeit reaches the sockets. Claims skip
what another process or worker holds, so any number of them share one database. An API
process's pass first reads the earliest `due_at` (one indexed statement) and goes no further
while nothing is due: an idle process pays one statement a pass, not two transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from fastapi import FastAPI

from domino_api.errors import database_state
from domino_api.jobs import CONCURRENCY, liveness
from domino_api.jobs.report import PassReport
from domino_api.jobs.sweeper import sweep_pass
from domino_api.matches.unit import Core

log = logging.getLogger(__name__)

# Often enough that a deadline is enforced within about a second; an idle pass is one indexed
# read, and a due moment nearer than this is met at that moment (`_until_next`).
INTERVAL_S = 0.5
# The shortest wait before a pass timed to a due moment (the clock's reading may be just short).
MIN_WAIT_S = 0.01


def start_sweep_loop(app: FastAPI) -> None:
    stop = asyncio.Event()
    sweeping = run_worker(
        app.state.core, INTERVAL_S, stop, heartbeat=False, expire_presence=False, only_if_due=True
    )
    task = asyncio.get_running_loop().create_task(sweeping, name="sweep-loop")
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


async def run_worker(
    core: Core,
    interval_s: float,
    stop: asyncio.Event,
    on_report: Callable[[PassReport], None] | None = None,
    concurrency: int = CONCURRENCY,
    *,
    heartbeat: bool = True,
    expire_presence: bool = True,
    only_if_due: bool = False,
) -> int:
    """Sweep every `interval_s` until `stop` is set; the pass under way always finishes.

    `heartbeat`: record this sweeper in service_starts as a worker (`domino-api worker`); the
    loop inside an API process has the process's own heartbeat (jobs/liveness.py).
    `only_if_due` (`sweep_pass`): a pass that found the earliest due moment nearer than
    `interval_s` is followed by the next at that moment, not later.
    """
    passes = 0
    beat = liveness.Heartbeat(core.maker, core.clock, kind=liveness.WORKER) if heartbeat else None
    if beat is not None:
        await beat.start()
    try:
        while not stop.is_set():
            wait_s = interval_s
            try:
                report = await sweep_pass(
                    core,
                    concurrency=concurrency,
                    expire_presence=expire_presence,
                    only_if_due=only_if_due,
                )
            except Exception as exc:
                if database_state(exc) is not None:  # a restart, a failover: wait it out
                    log.warning("the sweep waits for the database (%s)", type(exc).__name__)
                elif heartbeat:
                    raise
                else:
                    log.exception("the in-process sweep failed; the next pass tries again")
            else:
                passes += 1
                if on_report is not None:
                    on_report(report)
                wait_s = _until_next(report, interval_s)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=wait_s)
    finally:
        if beat is not None:
            await beat.stop()
    return passes


def _until_next(report: PassReport, interval_s: float) -> float:
    """The wait before the next pass: `interval_s`, or less when a pass that found nothing due
    saw the earliest due moment come sooner (then a deadline is enforced at its moment)."""
    if report.next_due is None:
        return interval_s
    ahead = (report.next_due - report.now).total_seconds()
    return min(interval_s, max(MIN_WAIT_S, ahead))
