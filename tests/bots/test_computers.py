"""The computers' worker processes (bots/computers.py, bots/processes.py): decisions beside
the event loop, the same whatever the load, and workers that outlive a dead one."""

from __future__ import annotations

import asyncio
import random
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import psutil
import pytest

from domino_api.bots import get_strategy, to_action
from domino_api.bots.computers import Computers
from domino_api.bots.planner import distinct_plays
from domino_api.bots.processes import WORKER_NICENESS, DecisionFailed, request
from domino_api.engine import PRESETS, NextHand, SeatView, Start, apply, new_match, seat_view
from tests.conftest import COMPUTERS as computers


def searched_views(count: int) -> list[SeatView]:
    """Positions of random All Fives matches where the Planner searches (3+ distinct plays)."""
    views: list[SeatView] = []
    for seed in range(100):
        rng = random.Random(seed)
        state = apply(new_match(PRESETS["all-fives"], b"p%d" % seed), None, Start("cut")).state
        while state.status in ("playing", "hand_over") and len(views) < count:
            if state.status == "hand_over":
                state = apply(state, None, NextHand()).state
                continue
            assert state.turn is not None
            view = seat_view(state, state.turn)
            plays = [o for o in view.legal if o.action == "play"]
            if plays and len(distinct_plays(view, plays)) >= 3:
                views.append(view)
            state = apply(state, state.turn, to_action(rng.choice(list(view.legal)))).state
        if len(views) == count:
            break
    assert len(views) == count
    return views


async def test_eight_tables_at_once_decide_as_one_table_alone() -> None:
    """Strength does not depend on load: the Planner reads no clock, so the same view and seed
    give the same move one at a time, eight at once, and in this process."""
    views = searched_views(16)
    alone = [await computers.choose("planner", view, f"m:{n}") for n, view in enumerate(views)]
    together: list[object] = []
    for start in range(0, len(views), 8):
        batch = views[start : start + 8]
        together += await asyncio.gather(
            *(computers.choose("planner", v, f"m:{start + n}") for n, v in enumerate(batch))
        )
    here = [get_strategy("planner").choose(v, random.Random(f"m:{n}")) for n, v in enumerate(views)]
    assert together == alone == here
    assert all(reason.startswith("planner: ") for _, reason in alone)  # searched, not forced


async def test_the_event_loop_turns_while_a_computer_decides() -> None:
    """A decision is awaited, not run: other coroutines run until its answer comes back."""
    view = searched_views(1)[0]
    await computers.start()
    decision = asyncio.ensure_future(computers.choose("planner", view, "loop"))
    turns = 0
    while not decision.done():
        turns += 1
        await asyncio.sleep(0)
    action, _ = decision.result()
    assert turns >= 2, turns  # run on the loop, the decision would end before the first turn
    assert action == get_strategy("planner").choose(view, random.Random("loop"))[0]


def _kill(pids: list[int]) -> None:
    processes = [psutil.Process(pid) for pid in pids]
    for process in processes:
        process.kill()
    gone, alive = psutil.wait_procs(processes, timeout=60)
    assert not alive, alive


async def test_dead_workers_are_replaced_on_the_next_decision() -> None:
    """Every worker killed (as the out-of-memory killer would): the next decision is made by
    new ones, and is the same decision."""
    view = searched_views(1)[0]
    await computers.start()
    dead = computers.pids()
    assert len(dead) == computers.size
    _kill(dead)
    action, reason = await computers.choose("planner", view, "after")
    assert (action, reason) == get_strategy("planner").choose(view, random.Random("after"))
    assert computers.pids() and not set(computers.pids()) & set(dead)


@asynccontextmanager
async def one_stopped_worker() -> AsyncIterator[tuple[Computers, psutil.Process]]:
    """Computers of one worker, started and then stopped (SIGSTOP), so that requests wait in
    its socket; closed afterwards."""
    one = Computers(1)
    try:
        await one.start()
        (pid,) = one.pids()
        worker = psutil.Process(pid)
        worker.suspend()
        yield one, worker
    finally:
        await one.stop()


async def asked(
    one: Computers, requests: list[tuple[str, SeatView, str]]
) -> list[asyncio.Future[Any]]:
    """Each (strategy, view, seed) asked of the computers at once, every request sent."""
    decisions = [asyncio.ensure_future(one.choose(*request)) for request in requests]
    await asyncio.sleep(0)  # each request is sent: they wait in the stopped worker's socket
    assert not any(decision.done() for decision in decisions)
    return decisions


async def test_a_worker_that_dies_while_deciding_is_replaced() -> None:
    """One worker, stopped (SIGSTOP) so that it cannot answer, is sent a decision and then
    killed: the decision is made again by the worker started in its place."""
    view = searched_views(1)[0]
    async with one_stopped_worker() as (one, worker):
        (decision,) = await asked(one, [("planner", view, "dies")])
        _kill([worker.pid])
        action, _ = await decision
        assert action == get_strategy("planner").choose(view, random.Random("dies"))[0]
        assert one.pids() and one.pids() != [worker.pid]


async def test_requests_queued_at_one_worker_each_get_their_own_reply() -> None:
    """One worker, stopped (SIGSTOP) while four decisions queue in its socket, one of them
    cancelled: resumed, it decides them in turn and each caller gets the move for its own view
    and seed; the cancelled one's reply is read and dropped, not handed to the next caller."""
    views = searched_views(4)
    async with one_stopped_worker() as (one, worker):
        decisions = await asked(one, [("planner", v, f"q:{n}") for n, v in enumerate(views)])
        decisions[1].cancel()
        worker.resume()
        answers = await asyncio.gather(*decisions, return_exceptions=True)
        assert isinstance(answers[1], asyncio.CancelledError)
        for n in (0, 2, 3):
            expected = get_strategy("planner").choose(views[n], random.Random(f"q:{n}"))
            assert answers[n] == expected
        assert one.pids() == [worker.pid]  # the same worker, in step with it


async def test_requests_beyond_what_the_socket_holds_wait_their_turn_to_be_sent() -> None:
    """One stopped worker is sent more requests than its socket's buffer holds: the rest wait
    in the API process and are written as the worker reads, and every caller gets its move."""
    views = searched_views(50)
    channel = socket.socketpair()[0]
    room = channel.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
    channel.close()
    count = 3 * room // min(len(request("plain", v, "s")) for v in views)
    async with one_stopped_worker() as (one, worker):
        decisions = await asked(one, [("plain", views[n % 50], f"b:{n}") for n in range(count)])
        worker.resume()
        answers = await asyncio.gather(*decisions)
        for n, answer in enumerate(answers):
            assert answer == get_strategy("plain").choose(views[n % 50], random.Random(f"b:{n}"))


async def test_a_strategy_that_raises_fails_the_decision_not_the_worker() -> None:
    view = searched_views(1)[0]
    await computers.start()
    before = computers.pids()
    with pytest.raises(DecisionFailed, match="no-such-strategy"):
        await computers.choose("no-such-strategy", view, "x")
    assert computers.pids() == before
    action, _ = await computers.choose("plain", view, "x")
    assert action == get_strategy("plain").choose(view, random.Random("x"))[0]


HOLDER = """
import asyncio, os, socket, sys
from domino_api.bots.computers import Computers
async def main():
    listening = socket.create_server(("127.0.0.1", 0))  # as the API's own socket
    computers = Computers()
    await computers.start()
    print(" ".join(str(p) for p in computers.pids()), flush=True)
    await asyncio.sleep(600)
if __name__ == "__main__":
    asyncio.run(main())
"""


def test_workers_think_below_their_api_process_and_leave_with_it(tmp_path: Path) -> None:
    """Workers run at a lower CPU priority and hold none of the API process's sockets; a
    SIGKILL runs no shutdown, yet they notice their parent is gone and exit."""
    script = tmp_path / "holder.py"
    script.write_text(HOLDER)
    holder = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    workers = [psutil.Process(int(pid)) for pid in holder.stdout.readline().split()]
    assert workers and all(w.ppid() == holder.pid for w in workers)
    niceness = psutil.Process(holder.pid).nice() + WORKER_NICENESS
    for _ in range(600):  # a worker may still be starting: its first step sets its priority
        if all(w.nice() == niceness for w in workers):
            break
        time.sleep(0.1)
    assert [w.nice() for w in workers] == [niceness] * len(workers)
    assert psutil.Process(holder.pid).net_connections("tcp")  # the holder's listening socket
    assert [w.net_connections("tcp") for w in workers] == [[]] * len(workers)
    holder.kill()
    holder.wait()
    gone, alive = psutil.wait_procs(workers, timeout=60)
    assert not alive, alive
