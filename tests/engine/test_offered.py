"""An option of `legal_actions` is itself an action: `apply` plays it as the move it names."""

from __future__ import annotations

import json
import random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.engine import (
    PRESETS,
    IllegalMove,
    LegalAction,
    NextHand,
    Start,
    action_to_json,
    apply,
    legal_actions,
    new_match,
    to_json,
)
from tests.engine.helpers import position, run, to_action
from tests.engine.test_properties import CONFIGS

DRAW = PRESETS["draw"]
FIVES = PRESETS["all-fives"]


@settings(max_examples=6, deadline=None)
@given(name=st.sampled_from(list(CONFIGS)), seed=st.integers(0, 2**63))
def test_an_offered_option_plays_exactly_as_the_move_it_names(name: str, seed: int) -> None:
    rng = random.Random(seed)
    state = new_match(CONFIGS[name], rng.randbytes(32))
    state = apply(state, None, Start("cut")).state
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        seat = state.turn
        option = rng.choice(legal_actions(state, seat))
        offered, named = apply(state, seat, option), apply(state, seat, to_action(option))
        assert to_json(offered.state) == to_json(named.state)
        assert offered.events == named.events
        state = offered.state


def test_an_option_claiming_other_points_scores_what_the_rules_give() -> None:
    state = position(FIVES, [[(0, 1), (6, 6)], [(0, 4), (2, 2)]])
    state, _ = run(state, ((0, 1), None))
    forged = LegalAction(action="play", tile=(0, 4), end="left", points=99)
    after = apply(state, 1, forged).state
    assert after.scores[1] == 5  # ends 4 + 1
    assert after.hand is not None and after.hand.moves[-1].points == 5
    # Equal is not enough: the engine plays and records its own option, whole numbers.
    for floats in (
        LegalAction(action="play", tile=(0.0, 4.0), end="left", points=5),
        LegalAction(action="play", tile=(0.0, 4.0), end="left", points=0),
    ):
        moved = apply(state, 1, floats).state
        assert moved.hand is not None
        assert [type(p) for p in moved.hand.moves[-1].tile or ()] == [int, int]
        assert to_json(moved) == to_json(after)


def test_an_option_the_seat_may_not_take_is_refused_and_says_why() -> None:
    state = position(DRAW, [[(1, 2), (0, 0)], [(2, 3), (5, 5)]], stock=[(4, 4)])
    with pytest.raises(IllegalMove, match="does not hold"):
        apply(state, 0, LegalAction(action="play", tile=(2, 3), end=None, points=0))
    with pytest.raises(IllegalMove, match="playable tile"):
        apply(state, 0, LegalAction(action="pass", tile=None, end=None, points=None))
    with pytest.raises(IllegalMove, match="playable tile"):
        apply(state, 0, LegalAction(action="draw", tile=None, end=None, points=None))
    with pytest.raises(IllegalMove, match="unknown action 'resign'"):
        apply(state, 0, LegalAction(action="resign", tile=None, end=None, points=None))
    with pytest.raises(IllegalMove):
        apply(state, 0, LegalAction(action="play", tile=None, end=None, points=None))


def test_an_option_from_an_earlier_state_is_checked_against_the_current_one() -> None:
    state = position(DRAW, [[(1, 2), (0, 0), (2, 2)], [(2, 3), (5, 5)]], stock=[(4, 4)])
    stale = legal_actions(state, 0)
    state, _ = run(state, ((1, 2), None), ((2, 3), "right"))
    assert all(option.tile != (1, 2) for option in legal_actions(state, 0))
    with pytest.raises(IllegalMove, match="does not hold"):
        apply(state, 0, next(o for o in stale if o.tile == (1, 2)))


def _written(option: LegalAction) -> object:
    return json.loads(msgspec.json.encode(action_to_json(option)))


def test_an_option_is_written_as_the_move_it_names() -> None:
    assert _written(LegalAction(action="play", tile=(1, 2), end="left", points=5)) == {
        "action": "play",
        "tile": [1, 2],
        "end": "left",
    }
    assert _written(LegalAction(action="pass", tile=None, end=None, points=None)) == {
        "action": "pass"
    }
    assert _written(LegalAction(action="draw", tile=None, end=None, points=None)) == {
        "action": "draw"
    }
