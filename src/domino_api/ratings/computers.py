"""The computers' fixed ratings per preset: (rating, deviation), measured once from their own
games and never moved by a match (docs/API.md, "Ratings").

Written by `bench/computer_ratings.py` (its docstring tells how), with:

    .venv/bin/python bench/computer_ratings.py --matches 120 --seed 0

(2026-12-05, 1,341 s on one core of a shared 2-core AMD EPYC). The random legal player is the
anchor (1000 by definition); a deviation is the fit's standard error, at least 25.
"""

from __future__ import annotations

from domino_api.ratings.model import Rating

COMPUTERS: dict[str, dict[str, tuple[float, float]]] = {
    "all-fives": {"random": (1000.0, 25.0), "plain": (1830.0, 103.0), "planner": (2371.0, 120.0)},
    "house-nines": {"random": (1000.0, 25.0), "plain": (1014.0, 27.0), "planner": (1223.0, 27.0)},
    "draw-50": {"random": (1000.0, 25.0), "plain": (1259.0, 59.0), "planner": (1647.0, 68.0)},
    "draw": {"random": (1000.0, 25.0), "plain": (1499.0, 75.0), "planner": (2170.0, 102.0)},
    "block": {"random": (1000.0, 25.0), "plain": (1992.0, 129.0), "planner": (2659.0, 151.0)},
    "classic": {"random": (1000.0, 25.0), "plain": (1556.0, 78.0), "planner": (2177.0, 102.0)},
    # --presets fives-and-threes --matches 120 --seed 0 (2026-12-07, 898 s, the same machine)
    "fives-and-threes": {
        "random": (1000.0, 25.0),
        "plain": (2565.0, 252.0),
        "planner": (2891.0, 256.0),
    },
    # --presets mexican-train --matches 4 --seed 0 (2026-12-07, 1,161 s at load 11-16: 13
    # rounds of 4 seats are long, so few matches and wide deviations)
    "mexican-train": {
        "random": (1000.0, 25.0),
        "plain": (1275.0, 175.0),
        "planner": (2141.0, 284.0),
    },
}
# Not measured yet: each partnership preset borrows its heads-up game's figures (the same
# players' strength at the same tiles), until bench/computer_ratings.py rates four-seat teams.
COMPUTERS |= {
    "partners-block": COMPUTERS["block"],
    "partners-nines": COMPUTERS["house-nines"],
    "partners-all-fives": COMPUTERS["all-fives"],
}


def computer_rating(preset: str, strategy: str) -> Rating:
    """A computer's fixed rating at a preset (an unknown strategy plays as the Planner)."""
    table = COMPUTERS[preset]
    mu, sigma = table.get(strategy, table["planner"])
    return Rating(mu=mu, sigma=sigma)
