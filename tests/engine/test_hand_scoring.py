"""RULES section 8: ending a hand (domino, blocked) and scoring it."""

from __future__ import annotations

import pytest

from domino_api.engine import PRESETS
from domino_api.engine.scoring import blocked_outcome, round5
from tests.engine.helpers import events_of, plain, position, ruleset, run

FIVES = PRESETS["all-fives"]
BLOCK = PRESETS["block"]
NINES = PRESETS["house-nines"]


@pytest.mark.parametrize(
    ("n", "rounded"),
    [(0, 0), (1, 0), (2, 0), (3, 5), (5, 5), (7, 5), (8, 10), (11, 10), (12, 10), (21, 20)],
)
def test_round5_table(n: int, rounded: int) -> None:
    assert round5(n) == rounded


def test_all_fives_locked_11_vs_21_scores_20() -> None:
    # [0,0] opens; nobody holds another blank and the stock is empty: both pass, the hand locks.
    state = position(FIVES, [[(0, 0), (5, 6)], [(6, 6), (4, 5)]])
    state, events = run(state, ((0, 0), None), "pass", "pass")
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["reason"] == "blocked" and ended["pips"] == (11, 21)
    assert ended["winner"] == 0 and ended["points"] == 20 and ended["tied"] is False
    assert state.scores == (20, 0) and state.hands_won == (1, 0)
    assert plain(events_of(events, "scored")[-1].data) == {
        "seat": 0,
        "points": 20,
        "score": 20,
        "cause": "blocked",
    }


def test_domino_scores_opponents_pips_rounded_to_5() -> None:
    state = position(FIVES, [[(1, 2)], [(2, 4), (3, 4)]])
    state, events = run(state, ((1, 2), None))
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["reason"] == "domino" and ended["winner"] == 0
    assert ended["points"] == 15  # 13 rounds to 15
    assert ended["hands"] == ((), ((2, 4), (3, 4)))


def test_domino_scores_opponents_pips_unrounded_in_block() -> None:
    state = position(BLOCK, [[(1, 2)], [(2, 4), (3, 4)]])
    state, _ = run(state, ((1, 2), None))
    assert state.scores == (13, 0) and state.status == "hand_over"


def test_block_lowest_takes_difference() -> None:
    state = position(BLOCK, [[(0, 0), (1, 4)], [(5, 6), (1, 1)]])
    state, events = run(state, ((0, 0), None), "pass", "pass")
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["pips"] == (5, 13) and ended["winner"] == 0 and ended["points"] == 8


def test_blocked_tie_nobody_scores() -> None:
    state = position(BLOCK, [[(0, 0), (1, 4)], [(2, 3)]])
    state, events = run(state, ((0, 0), None), "pass", "pass")
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["tied"] is True and ended["winner"] is None and ended["points"] == 0
    assert state.scores == (0, 0) and state.hands_won == (0, 0)
    assert not events_of(events, "scored")


def test_three_seats_lowest_takes_others() -> None:
    rules = ruleset(NINES, players=3)
    state = position(rules, [[(0, 1), (2, 2)], [(8, 9), (3, 4)], [(7, 7), (5, 6)]])
    state, events = run(state, ((0, 1), None), "pass", "pass", "pass")
    ended = plain(events_of(events, "hand_ended")[0].data)
    assert ended["pips"] == (4, 24, 25) and ended["winner"] == 0 and ended["points"] == 49


def test_blocked_outcome_variants() -> None:
    assert blocked_outcome(FIVES, (11, 21)) == (0, 20)
    assert blocked_outcome(BLOCK, (13, 5)) == (1, 8)
    assert blocked_outcome(NINES, (10, 3, 12, 4)) == (1, 26)
    assert blocked_outcome(NINES, (3, 3, 12, 4)) == (None, 0)
