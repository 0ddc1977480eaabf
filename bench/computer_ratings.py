"""The computers' fixed ratings, measured from their own games (docs/API.md, "Ratings").

For each preset, the random legal player, Plain and the Planner play each other on the pure
engine (`domino_api.simulate.play_match`, seeded: the same seed gives the same games). Each
pairing plays `--matches` matches, the seats taken in turns (a 4-seat preset seats A,B,A,B and
B,A,B,A). Every two seats of different computers that finished in different places make one
win (a tie counts half each way). The ratings are the maximum-likelihood Bradley-Terry fit of
those wins on the rating model's own scale (`ratings/model.py`: P(a beats b) =
1 / (1 + exp(-(mu_a - mu_b) / c)), c = sqrt(2) * BETA), with the random player anchored at
`ANCHOR` and half a win added each way per pairing (so a clean sweep has a finite rating).
The deviation is the fit's standard error, never below `FLOOR`.

    .venv/bin/python bench/computer_ratings.py --matches 80 --seed 0

prints the table `src/domino_api/ratings/computers.py` holds.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from domino_api.bots import get_strategy
from domino_api.engine import PRESETS
from domino_api.ratings.model import BETA, places
from domino_api.simulate import play_match

NAMES = ("random", "plain", "planner")
ANCHOR = 1000.0
FLOOR = 25.0
SCALE = math.sqrt(2) * BETA


def seatings(a: str, b: str, players: int, index: int) -> list[str]:
    first, second = (a, b) if index % 2 == 0 else (b, a)
    return [first if seat % 2 == 0 else second for seat in range(players)]


def pairing_wins(preset: str, a: str, b: str, matches: int, seed: int) -> float:
    """Wins of `a` over `b` (ties half) over `matches` matches, and how many comparisons."""
    players = PRESETS[preset].players
    wins = 0.0
    for index in range(matches):
        names = seatings(a, b, players, index)
        state = play_match(preset, {}, [get_strategy(n) for n in names], seed, index)
        assert state.result is not None
        lowest_wins = state.ruleset.layout == "trains"  # Mexican Train: the lowest total wins
        scores = [-s if lowest_wins else s for s in state.result.scores]
        ranks = places(scores, state.result.winner)
        for i, j in combinations(range(players), 2):
            if names[i] == names[j]:
                continue
            mine, theirs = (i, j) if names[i] == a else (j, i)
            wins += (
                1.0 if ranks[mine] < ranks[theirs] else 0.5 if ranks[mine] == ranks[theirs] else 0
            )
    return wins


def fit(
    wins: dict[tuple[str, str], float], games: dict[tuple[str, str], float]
) -> dict[str, tuple[float, float]]:
    """Bradley-Terry by Newton's method, `NAMES[0]` anchored: each name's (rating, error)."""
    free = NAMES[1:]
    mu = dict.fromkeys(NAMES, ANCHOR)
    for _ in range(50):
        grad = dict.fromkeys(free, 0.0)
        hess = {(x, y): 0.0 for x in free for y in free}
        for (a, b), n in games.items():
            p = 1 / (1 + math.exp(-(mu[a] - mu[b]) / SCALE))
            g, h = (wins[a, b] - n * p) / SCALE, n * p * (1 - p) / SCALE**2
            for x, sign in ((a, 1), (b, -1)):
                if x in free:
                    grad[x] += sign * g
                    hess[x, x] -= h
            if a in free and b in free:
                hess[a, b] += h
                hess[b, a] += h
        (p11, p12), (p21, p22) = [[hess[x, y] for y in free] for x in free]
        det = p11 * p22 - p12 * p21
        inverse = {
            (free[0], free[0]): p22 / det,
            (free[0], free[1]): -p12 / det,
            (free[1], free[0]): -p21 / det,
            (free[1], free[1]): p11 / det,
        }
        for x in free:
            mu[x] -= sum(inverse[x, y] * grad[y] for y in free)
    errors = {x: math.sqrt(-inverse[x, x]) for x in free} | {NAMES[0]: 0.0}
    return {x: (mu[x], max(errors[x], FLOOR)) for x in NAMES}


def measure(preset: str, matches: int, seed: int) -> dict[str, tuple[float, float]]:
    players = PRESETS[preset].players
    per_match = (players // 2) ** 2  # cross pairs of seats
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], float] = {}
    for a, b in combinations(NAMES, 2):
        won = pairing_wins(preset, a, b, matches, seed)
        games[a, b] = matches * per_match + 1.0  # the half win each way
        wins[a, b] = won + 0.5
        wins[b, a] = matches * per_match - won + 0.5
        print(f"  {preset}: {a} beat {b} {won:g} of {matches * per_match}", file=sys.stderr)
    return fit(wins, games)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=120, help="matches per pairing and preset")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--presets", default=",".join(PRESETS))
    args = parser.parse_args()
    started = time.perf_counter()
    print("COMPUTERS = {")
    for preset in args.presets.split(","):
        measured = measure(preset, args.matches, args.seed)
        row = ", ".join(f'"{n}": ({m:.0f}.0, {s:.0f}.0)' for n, (m, s) in measured.items())
        print(f'    "{preset}": {{{row}}},', flush=True)
    print("}")
    print(f"# {time.perf_counter() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
