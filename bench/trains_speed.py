"""`simulate` speed per hand: Mexican Train with 8 seats against All Fives with 4 seats and
with 2, and 4-seat house nines, side by side in one run (the runs taken in turns, CPU time,
medians).

Each run is `domino_api.simulate.simulate` (the `domino-api simulate` command without its
process start-up and table) with random players, timed by the process's CPU clock, so a busy
machine slows every side alike. The goal (issue 52): a Mexican Train hand (a round) of 8
players costs at most 3x an All Fives hand of 4. `partners-all-fives` is the one preset that
plays All Fives with 4 seats (two teams; the `all-fives` preset fixes 2 seats), so the goal's
figure is the ratio against it; the ratio against 2-seat All Fives is shown beside it.

    .venv/bin/python bench/trains_speed.py --runs 5
    .venv/bin/python bench/trains_speed.py --runs 8 --against main

`--against REF` runs the same sides on the code of git revision REF (its `src` exported to a
temporary directory) in a second worker process, the two workers taking each run in turn, and
prints both tables and the ratio of each run's pair: at a shared machine's load a ratio moves
by 0.9x from one minute to the next, so only runs taken side by side compare.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# (label, preset, seats, matches per run): about the same CPU time each, 0.1-0.2 s.
SIDES = (
    ("mexican-train, 8 seats", "mexican-train", 8, 24),
    ("partners-all-fives, 4 seats", "partners-all-fives", None, 300),
    ("all-fives, 2 seats", "all-fives", None, 240),
    ("house-nines, 4 seats", "house-nines", 4, 240),
)
# The sides a hand is weighed against: the goal's (All Fives with 4 seats) first.
BASES = ("partners-all-fives, 4 seats", "all-fives, 2 seats")
Run = dict[str, tuple[float, float]]  # label -> (ms a hand, us a move)


def one_run(index: int) -> Run:
    """Every side once, seeded by `index`: (ms a hand, us a move) of each."""
    from domino_api.simulate import simulate

    figures = {}
    for label, preset, seats, matches in SIDES:
        started = time.process_time()
        summary = simulate(preset, matches, index, seats)
        cpu = time.process_time() - started
        figures[label] = (1000 * cpu / summary.hands, 1e6 * cpu / summary.moves)
    return figures


def worker(src: str) -> None:
    """Run on request: one line in (the run's index), one JSON line out."""
    sys.path.insert(0, src)
    one_run(-1)  # warm: imports and the engine's tables, outside every timed run
    for line in sys.stdin:
        print(json.dumps(one_run(int(line))), flush=True)


def table(title: str, runs: list[Run]) -> None:
    """Medians of the runs; each ratio column is the median of the run by run ratios and
    their range."""
    heads = "".join(f" {'x AF ' + base.split(', ')[1]:>20}" for base in BASES)
    print(f"{title}\n{'side':28} {'ms/hand':>8} {'us/move':>8}{heads}")
    for label, *_ in SIDES:
        hand_ms = statistics.median(run[label][0] for run in runs)
        move_us = statistics.median(run[label][1] for run in runs)
        times = ""
        for base in BASES:
            ratios = sorted(run[label][0] / run[base][0] for run in runs)
            times += f" {statistics.median(ratios):8.2f}x {ratios[0]:5.2f}-{ratios[-1]:5.2f}"
        print(f"{label:28} {hand_ms:8.2f} {move_us:8.1f}{times}")


def exported(ref: str, into: Path) -> Path:
    """The `src` tree of git revision `ref`, written under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", ref, "src"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def side_by_side(ref: str, runs: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        sources = {"this code": str(ROOT / "src"), ref: str(exported(ref, Path(scratch)))}
        workers = {
            name: subprocess.Popen(
                [sys.executable, __file__, "--worker", src],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            for name, src in sources.items()
        }
        results: dict[str, list[Run]] = {name: [] for name in sources}
        for index in range(runs):
            # Alternate which code goes first, so neither always meets the same minute.
            order = list(workers) if index % 2 == 0 else list(reversed(workers))
            for name in order:
                process = workers[name]
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(f"{index}\n")
                process.stdin.flush()
                results[name].append(json.loads(process.stdout.readline()))
        for process in workers.values():
            assert process.stdin is not None
            process.stdin.close()
            process.wait()
    for name, got in results.items():
        table(f"\n{name}", got)
    print()
    label = SIDES[0][0]
    for base in BASES:
        pairs = [
            (mine[label][0] / mine[base][0]) / (theirs[label][0] / theirs[base][0])
            for mine, theirs in zip(results["this code"], results[ref], strict=True)
        ]
        better = sum(pair < 1 for pair in pairs)
        print(
            f"{label} / {base}, this code over {ref}, run by run: median "
            f"{statistics.median(pairs):.3f} ({min(pairs):.3f}-{max(pairs):.3f}), "
            f"lower in {better} of {len(pairs)}"
        )
    for label, *_ in SIDES:  # each side's own time, so a faster base cannot pass for a win
        own = [
            mine[label][0] / theirs[label][0]
            for mine, theirs in zip(results["this code"], results[ref], strict=True)
        ]
        print(f"{label} ms/hand, this code over {ref}: median {statistics.median(own):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", metavar="REF", help="a git revision to run side by side")
    parser.add_argument("--worker", metavar="SRC", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
    elif args.against:
        side_by_side(args.against, args.runs)
    else:
        sys.path.insert(0, str(ROOT / "src"))
        one_run(-1)
        table("", [one_run(index) for index in range(args.runs)])


if __name__ == "__main__":
    main()
