"""Computer players: pure strategies that choose from a seat's own view (never hidden tiles).

A strategy gets a `SeatView` (the seat's tiles, the board, counts, the public history; no other
seat's tiles and no stock order) and an rng, and returns a legal action with a short reason
for the ledger. `get_strategy` maps the names "random", "plain" and "planner" to them.
"""

from __future__ import annotations

import random
from typing import Protocol

from domino_api.engine import Action, Draw, LegalAction, Pass, Play, SeatView


class Strategy(Protocol):
    name: str

    def choose(self, view: SeatView, rng: random.Random) -> tuple[Action, str]: ...


class RandomStrategy:
    """A legal action drawn uniformly: the baseline for simulations."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> tuple[Action, str]:
        legal = rng.choice(list(view.legal))
        return to_action(legal), "random legal action"


def to_action(legal: LegalAction) -> Play | Draw | Pass:
    if legal.action == "play":
        assert legal.tile is not None
        return Play(legal.tile, legal.end)
    return Draw() if legal.action == "draw" else Pass()


def get_strategy(name: str) -> Strategy:
    """The strategy called `name`; an unknown name is a KeyError naming the known ones."""
    from domino_api.bots import registry

    return registry.get(name)
