"""The Planner's view of a Mexican Train round: what a board's shape is and what a round's end
is worth, where the lowest total wins (docs/RULES.md 13) instead of a race to a target."""

from __future__ import annotations

import math

from domino_api.engine import Board, SeatView

# How far apart two totals must be to matter, per round still to play: a round leaves a seat
# holding a few tiles (tens of pips), so a lead of that size is not yet a win.
SPREAD_PER_ROUND = 25.0


def train_shape(board: Board) -> object:
    """What matters about a board of trains: each train's open pip and the markers."""
    return (tuple((end.name, end.pip) for end in board.ends), board.markers)


def train_value(view: SeatView, pips: list[int]) -> float:
    """The chance of finishing lowest once this round leaves each seat `pips` more: against
    each other seat a logistic of the gap between the totals, scaled by the rounds left."""
    rounds = view.ruleset.rounds or 1
    left = max(rounds - view.hand_number, 0)
    spread = SPREAD_PER_ROUND * math.sqrt(left + 1)
    totals = [score + more for score, more in zip(view.scores, pips, strict=True)]
    mine = totals[view.seat]
    others = [t for seat, t in enumerate(totals) if seat != view.seat]
    return sum(1.0 / (1.0 + math.exp((mine - t) / spread)) for t in others) / len(others)
