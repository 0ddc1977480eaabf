"""The planner's lean simulator against the engine: the same playout, move for move."""

from __future__ import annotations

import random

import pytest

from domino_api.bots import sim, to_action
from domino_api.bots.sim import Position, play_out, sim_rules
from domino_api.engine import Action, Draw, MatchState, Pass, Play, Start, apply, new_match
from tests.bots.helpers import CONFIGS, rules_for


def position_of(state: MatchState) -> Position:
    hand = state.hand
    assert hand is not None and hand.turn is not None
    return Position(
        board=hand.board,
        hands=[list(held) for held in hand.hands],
        stock=list(reversed(hand.stock[hand.drawn :])),  # the simulator draws from the end
        turn=hand.turn,
        cover_ends=None if hand.must_cover is None else hand.must_cover[1],
        passes=hand.passes,
        scores=state.scores,
    )


def policy_action(state: MatchState) -> Action:
    """The rollout policy's choice, made through the simulator's own helpers."""
    hand = state.hand
    assert hand is not None and hand.turn is not None
    first = hand.legal[0]
    if first.action != "play":
        return Draw() if first.action == "draw" else Pass()
    rules = sim_rules(state.ruleset)
    pos = position_of(state)
    held = pos.hands[pos.turn]
    if rules.fast_line:
        left, right = pos.board.ends[0][1], pos.board.ends[1][1]
        fitting = [t for t in held if left in t or right in t]
        best = max(fitting, key=lambda t: (2 * (t[0] + t[1]) + (t[0] == t[1]), -fitting.index(t)))
        on_left = (left in best) and (
            right not in best or sim._keep_suits_end(held, best, left, right)
        )
        return Play(best, "left" if on_left else "right")
    options = sim._options(pos.board, held, pos.cover_ends)
    tile, end, _, _ = sim._choose(rules, pos.board, held, options, [0])
    return Play(tile, end)


@pytest.mark.parametrize(("preset", "players"), CONFIGS)
def test_playouts_match_the_engine(preset: str, players: int) -> None:
    rules = rules_for(preset, players)
    checked = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = apply(new_match(rules, f"sim-{seed}".encode()), None, Start("cut")).state
        for _ in range(rng.randrange(12)):  # a random way into the hand
            if state.status != "playing":
                break
            assert state.hand is not None
            state = apply(state, state.turn, to_action(rng.choice(state.hand.legal))).state
        if state.status != "playing" or state.hand is None or state.hand.legal[0].action != "play":
            continue
        first = state.hand.legal[0]
        assert first.tile is not None
        outcome = play_out(sim_rules(rules), position_of(state), (first.tile, first.end))
        engine_state = apply(state, state.turn, Play(first.tile, first.end)).state
        while engine_state.status == "playing":
            engine_state = apply(engine_state, engine_state.turn, policy_action(engine_state)).state
        assert engine_state.hand is not None and engine_state.hand.result is not None
        gains = [
            after - before for after, before in zip(engine_state.scores, state.scores, strict=True)
        ]
        assert (gains, engine_state.hand.result.winner) == (outcome.gains, outcome.winner)
        checked += 1
    assert checked >= 20
