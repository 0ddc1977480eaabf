"""The computers' fixed ratings per preset: (rating, deviation), measured once from their own
games and never moved by a match (docs/API.md, "Ratings").

Written by `bench/computer_ratings.py` (its docstring tells how), with:

    .venv/bin/python bench/computer_ratings.py --matches 40 --seed 0

The random legal player is the anchor (1000 by definition); a deviation is the fit's
standard error, at least 25.
"""

from __future__ import annotations

from domino_api.ratings.model import Rating

COMPUTERS: dict[str, dict[str, tuple[float, float]]] = {
    "all-fives": {"random": (1000.0, 25.0), "plain": (1738.0, 155.0), "planner": (2161.0, 176.0)},
    "house-nines": {"random": (1000.0, 25.0), "plain": (983.0, 46.0), "planner": (1197.0, 47.0)},
    "draw-50": {"random": (1000.0, 25.0), "plain": (1354.0, 105.0), "planner": (1625.0, 116.0)},
    "draw": {"random": (1000.0, 25.0), "plain": (1340.0, 112.0), "planner": (1942.0, 148.0)},
    "block": {"random": (1000.0, 25.0), "plain": (1748.0, 168.0), "planner": (2496.0, 221.0)},
    "classic": {"random": (1000.0, 25.0), "plain": (1597.0, 137.0), "planner": (2132.0, 169.0)},
}


def computer_rating(preset: str, strategy: str) -> Rating:
    """A computer's fixed rating at a preset (an unknown strategy plays as the Planner)."""
    table = COMPUTERS[preset]
    mu, sigma = table.get(strategy, table["planner"])
    return Rating(mu=mu, sigma=sigma)
