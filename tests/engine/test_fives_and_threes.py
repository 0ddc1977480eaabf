"""Fives and Threes (docs/RULES.md, sections 3, 7 and 8): the pub game's scoring table, the one
point for chipping out, a blocked hand for nobody, hand sizes by seats and the end at 61."""

from __future__ import annotations

import random

import pytest

from domino_api.engine import MatchState, NextHand, Start, apply, make_ruleset, new_match
from domino_api.engine.errors import BadOptions
from domino_api.engine.layout import play_points
from domino_api.engine.state import HandState

# The pub's table of ends totals and points (a cribbage board's pegs).
PUB_TABLE = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8, 25: 5}


def test_a_play_scores_one_point_per_five_and_per_three() -> None:
    for total, points in PUB_TABLE.items():
        assert play_points("fives_and_threes", total) == points, total
    assert [play_points("fives_and_threes", n) for n in (0, 1, 2, 4, 7, 8, 11)] == [0] * 7
    assert play_points("fives_and_threes", 30) == 6 + 10  # both again: 6 fives, 10 threes
    assert play_points("none", 15) == 0 and play_points("fives", 15) == 15


@pytest.mark.parametrize(("players", "hand"), [(2, 7), (3, 5), (4, 5)])
def test_hand_size_follows_the_seats(players: int, hand: int) -> None:
    rules = make_ruleset("fives-and-threes", {"players": players})
    assert (rules.players, rules.hand_size, rules.draw, rules.layout) == (
        players,
        hand,
        "none",
        "line",
    )
    assert (rules.target, rules.end_mid_hand) == (61, True)


def test_only_the_target_and_seats_are_set_by_a_match() -> None:
    with pytest.raises(BadOptions):
        make_ruleset("fives-and-threes", {"draw": "until_playable"})
    assert make_ruleset("fives-and-threes", {"target": 121}).target == 121


def _play_out(players: int, seed: int) -> tuple[MatchState, list[HandState]]:
    rules = make_ruleset("fives-and-threes", {"players": players})
    rng = random.Random(f"f3:{players}:{seed}")
    state = apply(new_match(rules, rng.randbytes(32)), None, Start(str(seed))).state
    hands: list[HandState] = []
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            assert state.hand is not None
            hands.append(state.hand)
            state = apply(state, None, NextHand()).state
            continue
        assert state.hand is not None and state.turn is not None
        state = apply(state, state.turn, rng.choice(state.hand.legal)).state
    assert state.hand is not None
    return state, [*hands, state.hand]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hands_end_as_the_pub_game_scores_them(players: int) -> None:
    seen = {"domino": 0, "blocked": 0, "target": 0}
    for seed in range(30):
        final, hands = _play_out(players, seed)
        assert final.status == "finished"
        assert max(final.scores) >= 61
        for hand in hands:
            result = hand.result
            if result is None:
                continue
            seen[result.reason] = seen.get(result.reason, 0) + 1
            if result.reason == "domino":
                assert result.points == 1  # chipping out is one point
            if result.reason == "blocked":
                assert (result.winner, result.points) == (None, 0)  # nobody scores a block
    assert seen["domino"] > 0 and seen["target"] > 0
