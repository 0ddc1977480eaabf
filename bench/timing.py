"""Does a computer's answer time tell its number of options? (issue 16, attack 7)

Positions where the planner has one distinct play and positions where it has three or more are
decided in turn, as the service decides them (`computers.choose` inside `Pacer.paced`), with the
floor off and with the default floor. For each, a threshold classifier on the decision time is
fitted on half of the decisions and scored on the other half: 0.5 is chance.

    flock /tmp/domino-bench.lock .venv/bin/python bench/timing.py --per-class 300
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domino_api.config import Settings
from domino_api.matches import pacing
from tests.security import test_bot_timing as timing


async def measure(per_class: int) -> None:
    timing.PER_CLASS = per_class
    one, many = timing._two_kinds()
    for label, think in (("no floor", 0.0), ("default floor", pacing.DEFAULT_FLOOR_S)):
        pacer = pacing.Pacer(Settings(computer_think_s=think))
        t_one, t_many = await timing._times(pacer, one, many, 1)
        accuracy = timing._held_out_accuracy(t_one, t_many)
        print(
            f"{label:14} one option: median {statistics.median(t_one) * 1000:7.2f} ms, "
            f"3+ options: median {statistics.median(t_many) * 1000:7.2f} ms, "
            f"held-out threshold accuracy {accuracy:.3f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--per-class", type=int, default=300)
    args = parser.parse_args()
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    print(f"commit {commit}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    asyncio.run(measure(args.per_class))


if __name__ == "__main__":
    main()
