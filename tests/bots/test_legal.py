"""Every strategy plays only legal actions, with a reason, in every preset and seat count."""

from __future__ import annotations

import pytest

from domino_api.bots import RandomStrategy, get_strategy
from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import PlannerStrategy
from domino_api.bots.registry import NAMES
from tests.bots.helpers import CONFIGS, play_checked_match, rules_for

# A small search keeps the suite fast; the full-size planner is timed in test_planner.py.
QUICK_PLANNER = PlannerStrategy(max_samples=6, work_budget=1_500)


def test_registry_names() -> None:
    assert set(NAMES) == {"random", "plain", "planner"}
    for name in NAMES:
        assert get_strategy(name).name == name
    with pytest.raises(KeyError, match="unknown strategy"):
        get_strategy("oracle")


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_mixed_table_plays_legal_matches(preset: str, players: int) -> None:
    lineup = [QUICK_PLANNER, PlainStrategy(), RandomStrategy(), PlainStrategy()][:players]
    for seed in range(2):
        rotated = lineup[seed % players :] + lineup[: seed % players]
        state = play_checked_match(rules_for(preset, players, target=40), rotated, seed)
        assert state.status == "finished"


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_plain_against_itself(preset: str, players: int) -> None:
    state = play_checked_match(rules_for(preset, players), [PlainStrategy()] * players, 7)
    assert state.status == "finished"
