"""`simulate` speed per hand: Mexican Train with 8 seats against All Fives and 4-seat house
nines, side by side in one run (the runs taken in turns, CPU time, medians).

Each run is `domino_api.simulate.simulate` (the `domino-api simulate` command without its
process start-up and table) with random players, timed by the process's CPU clock, so a busy
machine slows every side alike. The goal: a Mexican Train hand (a round) costs at most 3x an
All Fives hand.

    .venv/bin/python bench/trains_speed.py --runs 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from domino_api.simulate import simulate

# (label, preset, seats, matches per run): about the same CPU time each.
SIDES = (
    ("mexican-train, 8 seats", "mexican-train", 8, 2),
    ("all-fives, 2 seats", "all-fives", None, 60),
    ("house-nines, 4 seats", "house-nines", 4, 60),
)


def run(preset: str, seats: int | None, matches: int, seed: int) -> tuple[float, int, int]:
    """(CPU seconds, hands, moves) of one simulate run."""
    started = time.process_time()
    summary = simulate(preset, matches, seed, seats)
    return time.process_time() - started, summary.hands, summary.moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    per_hand: dict[str, list[float]] = {label: [] for label, *_ in SIDES}
    per_move: dict[str, list[float]] = {label: [] for label, *_ in SIDES}
    for index in range(args.runs):
        for label, preset, seats, matches in SIDES:
            cpu, hands, moves = run(preset, seats, matches, index)
            per_hand[label].append(1000 * cpu / hands)
            per_move[label].append(1e6 * cpu / moves)
    base = statistics.median(per_hand["all-fives, 2 seats"])
    print(f"{'side':26} {'ms/hand':>8} {'us/move':>8} {'x all-fives':>12}")
    for label, *_ in SIDES:
        hand_ms = statistics.median(per_hand[label])
        move_us = statistics.median(per_move[label])
        print(f"{label:26} {hand_ms:8.2f} {move_us:8.1f} {hand_ms / base:11.2f}x")


if __name__ == "__main__":
    main()
