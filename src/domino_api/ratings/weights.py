"""How much one rated result counts (docs/API.md, "Ratings", "What a result is worth"): the
answer to farming a rating with one's own accounts or a weak computer (issue 48). Pure.

- **Established opponents.** A result counts in proportion to how established the other
  seats' ratings are: a human opponent with n rated matches at the preset counts
  min(1, n / ESTABLISHED); a computer's fixed rating counts fully. A crowd of fresh accounts
  lifts nobody.
- **The same opponent again.** Within REPEAT_WINDOW, each earlier rated result against the same
  opponent halves the next one: a rematch series against one account is worth at most twice
  its first match.
- **Computers.** A gain at a table with a computer is at most the Elo gain of the places won:
  K_COMPUTER times (1 - the expected score) against each seat finished above, from that
  seat's rating (a computer's fixed one). Beating a computer rated far below gains ~nothing.

The weight scales the model's whole move (mean and deviation alike): a result that counts
for nothing teaches the model nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import timedelta

from domino_api.ratings.model import Rating

ESTABLISHED = 10  # rated matches at a preset before a player's results count fully for others
REPEAT_WINDOW = timedelta(days=1)
K_COMPUTER = 32.0  # Elo's K: the most one place above a seat can gain at a computer's table
ELO_SCALE = 400.0  # the ratings read like Elo's (ratings/model.py), so its expectation applies


def establishment(opponent_games: Sequence[int | None]) -> float:
    """The mean of the other seats' weights: a human's by its rated matches, a computer's
    (None) fully."""
    if not opponent_games:
        return 1.0
    each = [1.0 if games is None else min(1.0, games / ESTABLISHED) for games in opponent_games]
    return sum(each) / len(each)


def repeat_factor(earlier: int) -> float:
    """How much a result counts after `earlier` rated results against the same opponent in
    the window: half as much each time."""
    return 0.5 ** max(0, earlier)


def expected(mine: float, theirs: float) -> float:
    """Elo's expected score against a seat rated `theirs`."""
    return 1.0 / (1.0 + math.pow(10.0, (theirs - mine) / ELO_SCALE))


def computer_cap(mine: float, beaten: Sequence[float]) -> float:
    """The most a player rated `mine` may gain at a table with a computer, having finished
    above seats rated `beaten`."""
    return sum(K_COMPUTER * (1.0 - expected(mine, theirs)) for theirs in beaten)


def weighted(before: Rating, after: Rating, weight: float, cap: float | None) -> Rating:
    """`after` scaled back toward `before` by `weight`, its gain at most `cap` (if any)."""
    mu = before.mu + weight * (after.mu - before.mu)
    sigma = before.sigma + weight * (after.sigma - before.sigma)
    if cap is not None:
        mu = min(mu, before.mu + cap)
    return Rating(mu=mu, sigma=sigma, games=after.games)
