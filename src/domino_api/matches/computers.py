"""Computers decide beside the tables: in worker processes, never on an API event loop.

A Planner's search takes 10-30 ms of CPU (more on a busy machine); run on the event loop it held
every other table of the process for that long, three times per human move at a table of four.
So the write core (matches/unit.py) calls `reply` after each step: while a computer seat has the
turn, that seat's view (and nothing else) is sent to a process pool, and the move it chose is
applied and staged like any other, to be saved with the step by the unit's one guarded save.
Each decision is awaited, so other requests run meanwhile.

A decision is seeded by match id and seq (`table.computer_seed`), and no strategy reads a
clock, so it is the same in whichever worker, on however busy a machine. The pool is one per
process, started on first use (or by `start` when the service starts) with the `spawn` method:
a worker never inherits the API process's sockets, threads or event loop; and it leaves when
its API process is gone, even one killed outright (`_start_worker`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from domino_api import engine
from domino_api.bots import get_strategy
from domino_api.config import Settings
from domino_api.matches import pacing

_workers = 0  # 0: one per core
# How much lower the workers' CPU priority is than the API process's (see _start_worker).
WORKER_NICENESS = 5
_pool: ProcessPoolExecutor | None = None
_pool_size = 0


def configure(settings: Settings) -> None:
    """Size the pool from `DOMINO_COMPUTER_WORKERS` (a running pool of another size is replaced
    on its next use)."""
    global _workers
    _workers = settings.computer_workers


def workers() -> int:
    return _workers or os.cpu_count() or 1


def _executor() -> ProcessPoolExecutor:
    global _pool, _pool_size
    if _pool is not None and _pool_size != workers():  # reconfigured
        _pool.shutdown(wait=False, cancel_futures=True)
        _pool = None
    if _pool is None:
        context = multiprocessing.get_context("spawn")
        _pool = ProcessPoolExecutor(
            workers(), context, initializer=_start_worker, initargs=(os.getpid(),)
        )
        _pool_size = workers()
    return _pool


def _start_worker(parent: int) -> None:
    """In a worker: think at a lower priority than the API process, so that on a busy machine
    the tables' requests are served first (a computer's answer waits for its floor anyway);
    and exit once the API process is gone (a SIGKILL runs none of its shutdown, and an idle
    worker would wait for work forever)."""
    os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def decide(name: str, view: engine.SeatView, seed: str) -> tuple[engine.Action, str]:
    """A strategy's choice from a seat's view (runs in a worker process)."""
    return get_strategy(name).choose(view, random.Random(seed))


def _ready() -> bool:
    return True


async def start() -> None:
    """Start every worker now, so the first decisions do not wait for them to import."""
    loop = asyncio.get_running_loop()
    pool = _executor()
    await asyncio.gather(*(loop.run_in_executor(pool, _ready) for _ in range(workers())))


def stop() -> None:
    global _pool
    if _pool is not None:
        _pool.shutdown(wait=True, cancel_futures=True)
        _pool = None


async def choose(name: str, view: engine.SeatView, seed: str) -> tuple[engine.Action, str]:
    """`decide` in the pool; a pool whose worker died (killed, out of memory) is replaced once."""
    global _pool
    loop = asyncio.get_running_loop()
    started = time.perf_counter()
    try:
        choice = await loop.run_in_executor(_executor(), decide, name, view, seed)
    except BrokenProcessPool:
        _pool = None
        choice = await loop.run_in_executor(_executor(), decide, name, view, seed)
    pacing.decided(time.perf_counter() - started)
    return choice
