"""Strategy names to strategies."""

from __future__ import annotations

from domino_api.bots import RandomStrategy, Strategy

_STRATEGIES: dict[str, Strategy] = {"random": RandomStrategy()}


def get(name: str) -> Strategy:
    # Until plain and planner land, a legal random player stands behind both names.
    return _STRATEGIES.get(name, _STRATEGIES["random"])
