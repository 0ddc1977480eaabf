"""Computer players: pure strategies that choose from a seat's own view (never hidden tiles)."""

from __future__ import annotations

import random
from typing import Any, Protocol

from domino_api import engine


class Strategy(Protocol):
    name: str

    def choose(self, view: Any, rng: random.Random) -> tuple[Any, str]: ...


class RandomStrategy:
    """Any legal action, uniformly: the baseline for simulations."""

    name = "random"

    def choose(self, view: Any, rng: random.Random) -> tuple[Any, str]:
        legal = rng.choice(list(view.legal))
        return to_action(legal), "random legal action"


def to_action(legal: Any) -> Any:
    if legal.action == "play":
        return engine.Play(tuple(legal.tile), legal.end)
    return engine.Draw() if legal.action == "draw" else engine.Pass()


def get_strategy(name: str) -> Strategy:
    from domino_api.bots import registry

    return registry.get(name)
