"""Plain and the Planner at Mexican Train: whole matches to the end, and the Planner telling
one tile on two trains apart (a play on its own train and on the Mexican train differ)."""

from __future__ import annotations

import random

from domino_api.bots.plain import PlainStrategy
from domino_api.bots.planner import PlannerStrategy, distinct_plays
from domino_api.engine import NextHand, Start, apply, make_ruleset, new_match, seat_view

QUICK = PlannerStrategy(max_samples=8, work_budget=1_500)


def test_plain_and_the_planner_play_a_match_of_trains_to_its_end() -> None:
    rules = make_ruleset("mexican-train", {"players": 3, "rounds": 2})  # two rounds: NextHand
    strategies = (QUICK, PlainStrategy(), QUICK)
    rng = random.Random("trains-bots")
    state = apply(new_match(rules, bytes(range(32))), None, Start("bots")).state
    searched = 0
    while state.status in ("playing", "hand_over"):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        seat = state.turn
        assert seat is not None
        action, reason = strategies[seat].choose(seat_view(state, seat), rng)
        searched += reason.startswith("planner:")
        state = apply(state, seat, action).state  # a refused action raises
    assert state.status == "finished" and state.result is not None
    assert state.result.reason == "rounds" and state.hand_number == 2
    assert searched > 0  # the Planner searched, not only followed Plain


def test_the_planner_keeps_a_tile_on_two_trains_apart() -> None:
    rules = make_ruleset("mexican-train", {"players": 2, "rounds": 1})
    state = apply(new_match(rules, bytes(32)), None, Start("apart")).state
    view = seat_view(state, state.turn or 0)
    plays = [o for o in view.legal if o.action == "play"]
    # Round 1's engine is 12-12: every play is a 12 on the seat's own train or the Mexican one.
    assert plays and {o.end for o in plays} == {f"train{view.seat}", "mexican"}
    assert len(distinct_plays(view, plays)) == len(plays)
