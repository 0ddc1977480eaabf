"""What one computer decision costs through the workers' channel (bots/processes.py).

    .venv/bin/python bench/channel.py [--decisions 3000] [--in-flight 1,16] [--workers 2]
    /path/to/baseline/.venv/bin/python bench/channel.py ...   (an earlier commit, in turn)

Plain decisions (about 10 us of the strategy's own work) on searched mid-game positions, through
`Deciders.decide` as the write core asks for them: `--in-flight` at a time (1: one table; 16:
many tables waiting on their computers at once, as under load). Reports, per decision, the CPU
of the API process (encoding, the channel's system calls, the event loop's wake-ups, decoding)
and of the workers, user and system apart, the best of `--rounds`. A strategy's own time is
the same either way, so the difference between two commits is the channel's.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from domino_api.bots.processes import Deciders  # noqa: E402
from tests.bots.test_computers import searched_views  # noqa: E402


def cpu(processes: list[psutil.Process]) -> tuple[float, float]:
    times = [p.cpu_times() for p in processes]
    return sum(t.user for t in times), sum(t.system for t in times)


async def measure(deciders: Deciders, in_flight: int, decisions: int) -> dict[str, float]:
    views = searched_views(50)
    api = psutil.Process()
    workers = [p for p in api.children() if p.pid in deciders.pids()]
    api_before, workers_before = cpu([api]), cpu(workers)
    for start in range(0, decisions, in_flight):
        asked = range(start, min(start + in_flight, decisions))
        await asyncio.gather(*(deciders.decide("plain", views[n % 50], f"c{n}") for n in asked))
    api_after, workers_after = cpu([api]), cpu(workers)
    per = 1e6 / decisions
    return {
        "API user": (api_after[0] - api_before[0]) * per,
        "API system": (api_after[1] - api_before[1]) * per,
        "workers user": (workers_after[0] - workers_before[0]) * per,
        "workers system": (workers_after[1] - workers_before[1]) * per,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=3000)
    parser.add_argument("--in-flight", default="1,16")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    deciders = Deciders(args.workers)
    await deciders.start()
    try:
        for in_flight in [int(n) for n in args.in_flight.split(",")]:
            rounds = [
                await measure(deciders, in_flight, args.decisions) for _ in range(args.rounds)
            ]
            best = min(rounds, key=lambda r: sum(r.values()))
            figures = "  ".join(f"{name} {value:5.1f}" for name, value in best.items())
            total = sum(best.values())
            print(f"{in_flight:3d} in flight: {figures}  total {total:6.1f} us/decision")
    finally:
        # A checkout older than the pipelined channel has `stop` and no `close`.
        close = getattr(deciders, "close", None) or deciders.stop  # type: ignore[attr-defined]
        close()


if __name__ == "__main__":
    import uvloop

    uvloop.run(main())
