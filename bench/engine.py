"""Engine speed: random playouts, single core, against two other Python domino engines.

Two comparisons, each over three runs (`--runs`) taken in turns with the peer's; the rates are
medians, and the ratio is the median of the ratios of each pair of runs:

- our `block` preset, one hand per game (2 seats, 7 tiles each, no drawing), against
  OpenSpiel's `python_block_dominoes` (the same game, dealt by chance nodes);
- 4 seats with all 28 tiles dealt (7 each, no stock, no drawing) against the `dominoes`
  package 6.1.0 (`Game.new()` and random valid moves).

Our games include the sealed deal (HMAC + SHA-256 stream + Fisher-Yates); the events the service
would store are built on first access of `Transition.events`, which a playout does not read
(`--events` reads them, to show what they cost). "plays" counts tiles placed (passes are not
plays). A peer that is not installed is skipped, and the output says so. The peers belong in a
throwaway venv:

    python3 -m venv /tmp/benchvenv
    /tmp/benchvenv/bin/pip install open_spiel dominoes==6.1.0 msgspec  # msgspec: the engine's own
    PYTHONPATH=src /tmp/benchvenv/bin/python bench/engine.py
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from domino_api.engine import (
    PRESETS,
    Start,
    apply,
    legal_actions,
    new_match,
)

Playout = Callable[[int, random.Random], int]  # (games, rng) -> plays made

BLOCK = PRESETS["block"]


def _replace(ruleset: Any, **changes: object) -> Any:
    # A/B runs load older engines too, whose rulesets were dataclasses.
    if dataclasses.is_dataclass(ruleset):
        return dataclasses.replace(ruleset, **changes)
    return msgspec.structs.replace(ruleset, **changes)


FOUR_SEATS = _replace(BLOCK, name="bench-4-seats", players=4, block_scoring="lowest_takes_others")


def ours(rules: object, events: bool = False) -> Playout:
    def playout(games: int, rng: random.Random) -> int:
        plays = 0
        for game in range(games):
            state = new_match(rules, game.to_bytes(32, "big"))  # type: ignore[arg-type]
            state = apply(state, None, Start("bench")).state
            while state.status == "playing":
                seat = state.turn
                # An offered option is itself an action, as the peers' harnesses play theirs.
                option = rng.choice(legal_actions(state, seat))
                transition = apply(state, seat, option)
                if option.action == "play":
                    plays += 1
                if events:
                    transition.events  # noqa: B018  (built on first access)
                state = transition.state
        return plays

    return playout


def openspiel() -> Playout | str:
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers them)
    except ImportError:
        return "open_spiel is not installed"
    game = pyspiel.load_game("python_block_dominoes")

    def playout(games: int, rng: random.Random) -> int:
        plays = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcome = rng.choice(state.chance_outcomes())[0]
                    state.apply_action(outcome)
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    plays += 1
        return plays

    return playout


def dominoes_package() -> Playout | str:
    try:
        import dominoes
    except ImportError:
        return "dominoes is not installed"

    def playout(games: int, rng: random.Random) -> int:
        plays = 0
        random.seed(rng.random())  # the package deals with the global random module
        for _ in range(games):
            game = dominoes.Game.new()
            while game.result is None:
                game.make_move(*rng.choice(game.valid_moves))
                plays += 1
        return plays

    return playout


def timed(playout: Playout, games: int, seed: int) -> tuple[float, float]:
    """games/s and plays/s of one run."""
    rng = random.Random(seed)
    start = time.process_time()  # CPU time: steady on a busy machine, single core anyway
    plays = playout(games, rng)
    elapsed = time.process_time() - start
    return games / elapsed, plays / elapsed


def measure(
    mine: Playout, peer: Playout | None, games: int, runs: int, seed: int
) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """(games/s, plays/s) of each run of ours and of the peer's, the runs taken in turns.

    Taking turns (ours, the peer's, ours, ...) puts both engines through the same spells of a
    shared machine's speed, so the ratio of each pair is steadier than a ratio of two medians
    measured one after the other."""
    contenders = [mine] if peer is None else [mine, peer]
    for playout in contenders:
        playout(max(games // 20, 10), random.Random(seed))  # warm-up: imports, caches
    results: list[list[tuple[float, float]]] = [[] for _ in contenders]
    for run in range(runs):
        for playout, rates in zip(contenders, results, strict=True):
            rates.append(timed(playout, games, seed + run))
    return results[0], (results[1] if peer is not None else [])


def median_of(rates: list[tuple[float, float]], index: int) -> float:
    return statistics.median(rate[index] for rate in rates)


OURS = "domino-api engine"


def row(name: str, rates: list[tuple[float, float]]) -> None:
    print(f"{name:34} {median_of(rates, 0):9.0f} {median_of(rates, 1):9.0f}")


def cli_hands_per_s(command: list[str]) -> float:
    """Hands per CPU second of a whole `domino-api simulate` process (start-up included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"([\d,]+) hands \(", out)
    if found is None:
        raise SystemExit(f"no hand count in the simulate output:\n{out}")
    return int(found.group(1).replace(",", "")) / cpu


def compare_cli(cli: str, matches: int, runs: int, seed: int) -> None:
    """`domino-api simulate --ruleset block` (whole process) against OpenSpiel's hands/s."""
    peer = openspiel()
    command = [cli, "simulate", "--ruleset", "block", "--matches", str(matches), "--seed", "0"]
    print(f"## {' '.join(['domino-api', *command[1:]])}, whole process, vs OpenSpiel")
    if isinstance(peer, str):
        print(f"skipped: {peer}\n")
        return
    peer(200, random.Random(seed))  # warm-up
    pairs = []
    for run in range(runs):
        ours_rate = cli_hands_per_s(command)
        peer_rate = timed(peer, 3000, seed + run)[0]  # one hand per game
        pairs.append((ours_rate, peer_rate))
        print(f"  pair {run + 1}: simulate {ours_rate:8.0f} hands/s, OpenSpiel {peer_rate:8.0f}")
    ratio = statistics.median(o / p for o, p in pairs)
    print(f"{'ratio (ours / peer), median of pairs':34} {ratio:8.2f}x\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--events", action="store_true", help="also build every move's events")
    parser.add_argument("--cli", help="a domino-api executable: also time its `simulate` command")
    parser.add_argument("--cli-matches", type=int, default=3000)
    parser.add_argument("--cli-runs", type=int, default=3)
    parser.add_argument("--cli-only", action="store_true", help="only the simulate comparison")
    args = parser.parse_args()
    if args.cli_only:
        compare_cli(args.cli, args.cli_matches, args.cli_runs, args.seed)
        return
    print(f"Python {platform.python_version()} on {platform.machine()}, single core")
    built = "events built" if args.events else "events not read"
    print(f"{args.games} random games per run, median of {args.runs} runs, {built}\n")
    comparisons = [
        (
            "block, 2 seats, one hand",
            ours(BLOCK, args.events),
            "OpenSpiel python_block_dominoes",
            openspiel(),
        ),
        (
            "4 seats, all 28 dealt",
            ours(FOUR_SEATS, args.events),
            "dominoes 6.1.0",
            dominoes_package(),
        ),
    ]
    header = f"{'engine':34} {'games/s':>9} {'plays/s':>9}"
    for title, mine, peer_name, peer in comparisons:
        print(f"## {title}\n{header}")
        ours_rates, peer_rates = measure(
            mine, None if isinstance(peer, str) else peer, args.games, args.runs, args.seed
        )
        row(OURS, ours_rates)
        if isinstance(peer, str):
            print(f"{peer_name:34} skipped: {peer}\n")
            continue
        row(peer_name, peer_rates)
        pairs = [(o[0] / p[0], o[1] / p[1]) for o, p in zip(ours_rates, peer_rates, strict=True)]
        ratio = f"{median_of(pairs, 0):8.2f}x {median_of(pairs, 1):8.2f}x"
        print(f"{'ratio (ours / peer), median of pairs':34} {ratio}")
        each = ", ".join(f"{games:.2f}" for games, _ in pairs)
        print(f"{'  games/s ratio of each pair':34} {each}\n")
    if args.cli:
        compare_cli(args.cli, args.cli_matches, args.cli_runs, args.seed)


if __name__ == "__main__":
    main()
