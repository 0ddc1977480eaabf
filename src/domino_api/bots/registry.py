"""Strategy names to strategies: one shared, stateless instance each."""

from __future__ import annotations

from domino_api.bots import RandomStrategy, Strategy
from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import PlannerStrategy

_STRATEGIES: dict[str, Strategy] = {
    "random": RandomStrategy(),
    "plain": PlainStrategy(),
    "planner": PlannerStrategy(),
}

NAMES = tuple(_STRATEGIES)


def get(name: str) -> Strategy:
    try:
        return _STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown strategy {name!r}; known: {', '.join(NAMES)}") from None
