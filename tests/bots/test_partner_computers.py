"""The computers play for their team in partnership (docs/RULES.md 14): a partner's points are
their own, an opponent's are not."""

from __future__ import annotations

import random

import pytest

from domino_api.bots.knowledge import known_voids, lacks
from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import PlannerStrategy, World, match_value, sample_world, start_hand
from domino_api.bots.rollout import Outcome, play_out
from domino_api.engine import PRESETS, Play, Start, apply, new_match, seat_view
from domino_api.engine.state import MatchState, rules_of
from tests.engine.helpers import position

FIVES = PRESETS["partners-all-fives"]
HANDS = [
    [(5, 5), (2, 3), (0, 1), (1, 1), (0, 2)],
    [(3, 4), (2, 6), (4, 5), (1, 6), (1, 5)],
    [(0, 0), (1, 2), (1, 3), (2, 2), (0, 3)],
    [(3, 3), (4, 4), (0, 4), (1, 4), (2, 4)],
]
STOCK = [(0, 5), (0, 6), (2, 5), (3, 5), (3, 6), (4, 6), (5, 6), (6, 6)]


def test_the_planner_values_its_partners_gains_as_its_own() -> None:
    view = seat_view(position(FIVES, HANDS, STOCK, scores=[60, 60, 60, 60]), 0)
    ours = match_value(view, Outcome((30, 0, 30, 0), 2, 10))
    theirs = match_value(view, Outcome((0, 30, 0, 30), 1, 10))
    level = match_value(view, Outcome((0, 0, 0, 0), None, 10))
    assert ours > level > theirs
    assert level == 0.5  # two teams level: an even race, whatever the four seats
    assert match_value(view, Outcome((90, 0, 90, 0), 2, 10)) == 1.0  # the team reaches 150


def test_playouts_credit_both_partners() -> None:
    # Seat 0 holds one tile: opening with it dominoes, and its team takes the opponents' pips.
    hands = [[(0, 1)], [(5, 6), (4, 4)], [(6, 6)], [(3, 3), (2, 5)]]
    state = position(FIVES, hands, STOCK)
    view = seat_view(state, 0)
    start = start_hand(view, World(tuple(map(tuple, hands)), tuple(STOCK)), rules_of(FIVES))
    outcome = play_out(start, view.legal[0], view.scores, FIVES.target)
    assert outcome.winner == 0 and outcome.gains == (30, 0, 30, 0)  # 19 + 13 = 32 -> 30


def test_the_planner_takes_the_points_that_win_for_its_team() -> None:
    # The team stands at 140 of 150: the [5,5] alone counts 10 and wins the match at once.
    state = position(FIVES, HANDS, STOCK, scores=[140, 0, 140, 0])
    action, reason = PlannerStrategy(max_samples=20).choose(seat_view(state, 0), random.Random(1))
    assert action == Play((5, 5), None)
    assert reason.startswith("planner: scores 10, wins 100%")


def _nines_mid_hand(preset: str) -> MatchState:
    """A real deal of `preset` played by Plains until some seat has passed (so it has voids)."""
    state = apply(new_match(PRESETS[preset], b"n" * 32), None, Start("nines")).state
    plain = PlainStrategy()
    while state.status == "playing":
        hand = state.hand
        assert hand is not None and state.turn is not None
        if any(move.action == "pass" for move in hand.moves) and len(hand.moves) >= 12:
            return state
        action, _ = plain.choose(seat_view(state, state.turn), random.Random(state.seq))
        state = apply(state, state.turn, action).state
    raise AssertionError("the hand ended before any seat passed")


@pytest.mark.parametrize("preset", ["partners-nines", "partners-block"])
def test_planner_deals_only_the_tiles_in_play_into_the_hidden_hands(preset: str) -> None:
    # partners-nines leaves 15 tiles out of play: nobody holds them and nobody draws them. The
    # Planner's imagined deals must give each other seat exactly its count, keep the rest out
    # of every hand, honour each seat's known voids, and never offer a draw.
    state = _nines_mid_hand(preset)
    hand = state.hand
    assert hand is not None
    in_hands = sum(hand.counts)
    rng = random.Random(7)
    for seat in range(4):
        view = seat_view(state, seat)
        voids = known_voids(view)
        for _ in range(50):
            world = sample_world(view, voids, rng)
            assert [len(h) for h in world.hands] == list(view.counts)
            assert sum(map(len, world.hands)) == in_hands
            assert len(world.stock) == view.stock == len(hand.deal.stock)
            held = [t for s, h in enumerate(world.hands) if s != seat for t in h]
            assert sorted(held + list(world.stock)) == sorted(view.unseen)
            assert all(lacks(t, voids[s]) for s, h in enumerate(world.hands) for t in h)
            if view.turn == seat:
                start = start_hand(view, world, rules_of(view.ruleset))
                assert start.counts == view.counts
                assert all(o.action != "draw" for o in start.legal)
