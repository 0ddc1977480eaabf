"""Engine speed: random playouts, single core, against two other Python domino engines.

Two comparisons, each the median of three runs:

- our `block` preset, one hand per game (2 seats, 7 tiles each, no drawing), against
  OpenSpiel's `python_block_dominoes` (the same game, dealt by chance nodes);
- 4 seats with all 28 tiles dealt (7 each, no stock, no drawing) against the `dominoes`
  package 6.1.0 (`Game.new()` and random valid moves).

Our games include the sealed deal (HMAC + SHA-256 stream + Fisher-Yates); the events the service
would store are built on first access of `Transition.events`, which a playout does not read
(`--events` reads them, to show what they cost). "plays" counts tiles placed (passes are not
plays). A peer that is not installed is skipped, and the output says so. The peers belong in a
throwaway venv:

    python3 -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install open_spiel dominoes==6.1.0
    PYTHONPATH=src /tmp/benchvenv/bin/python bench/engine.py
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from domino_api.engine import (
    PRESETS,
    Pass,
    Play,
    Start,
    apply,
    legal_actions,
    new_match,
)

Playout = Callable[[int, random.Random], int]  # (games, rng) -> plays made

BLOCK = PRESETS["block"]
FOUR_SEATS = dataclasses.replace(
    BLOCK, name="bench-4-seats", players=4, block_scoring="lowest_takes_others"
)
PASS = Pass()


def ours(rules: object, events: bool = False) -> Playout:
    def playout(games: int, rng: random.Random) -> int:
        plays = 0
        for game in range(games):
            state = new_match(rules, game.to_bytes(32, "big"))  # type: ignore[arg-type]
            state = apply(state, None, Start("bench")).state
            while state.status == "playing":
                seat = state.turn
                option = rng.choice(legal_actions(state, seat))
                if option.action == "play":
                    assert option.tile is not None
                    transition = apply(state, seat, Play(option.tile, option.end))
                    plays += 1
                else:
                    transition = apply(state, seat, PASS)
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


def measure(playout: Playout, games: int, runs: int, seed: int) -> tuple[float, float]:
    """Median games/s and plays/s over `runs` runs."""
    game_rates, play_rates = [], []
    playout(max(games // 20, 10), random.Random(seed))  # warm-up: imports, caches
    for run in range(runs):
        rng = random.Random(seed + run)
        start = time.process_time()  # CPU time: steady on a busy machine, single core anyway
        plays = playout(games, rng)
        elapsed = time.process_time() - start
        game_rates.append(games / elapsed)
        play_rates.append(plays / elapsed)
    return statistics.median(game_rates), statistics.median(play_rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000, help="games per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--events", action="store_true", help="also build every move's events")
    args = parser.parse_args()
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
        our_games, our_plays = measure(mine, args.games, args.runs, args.seed)
        print(f"{'domino-api engine':34} {our_games:9.0f} {our_plays:9.0f}")
        if isinstance(peer, str):
            print(f"{peer_name:34} skipped: {peer}\n")
            continue
        peer_games, peer_plays = measure(peer, args.games, args.runs, args.seed)
        print(f"{peer_name:34} {peer_games:9.0f} {peer_plays:9.0f}")
        ratio = f"{our_games / peer_games:8.2f}x {our_plays / peer_plays:8.2f}x"
        print(f"{'ratio (ours / peer)':34} {ratio}\n")


if __name__ == "__main__":
    main()
