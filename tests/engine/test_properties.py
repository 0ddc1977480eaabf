"""Property tests: random legal play under every preset and seat count keeps every invariant."""

from __future__ import annotations

import json
import random
from collections import Counter

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.engine import (
    PRESETS,
    Action,
    Draw,
    EngineError,
    Event,
    IllegalMove,
    MatchState,
    NextHand,
    NotYourTurn,
    Pass,
    Play,
    Ruleset,
    Start,
    apply,
    full_set,
    legal_actions,
    new_match,
    to_json,
)
from domino_api.engine.scoring import round5
from tests.engine import partnership_oracle
from tests.engine.helpers import ruleset, to_action, wire

CONFIGS = {
    **{name: rules for name, rules in PRESETS.items()},
    "house-nines-2": ruleset(PRESETS["house-nines"], players=2),
    "house-nines-3": ruleset(PRESETS["house-nines"], players=3),
    # Mexican Train's 13 rounds are as long as a dozen other matches: two rounds here.
    "mexican-train": ruleset(PRESETS["mexican-train"], rounds=2),
    "mexican-train-8": ruleset(PRESETS["mexican-train"], players=8, hand_size=10, rounds=1),
    "all-fives-9": ruleset(PRESETS["all-fives"], hand_size=9),
    "all-fives-any": ruleset(
        PRESETS["all-fives"], first_opener="seat_zero_any", next_opener="alternate_any"
    ),
    "classic-best-of-4": ruleset(PRESETS["classic"], best_of=4, draw="one"),
}


def check_tiles_conserved(state: MatchState) -> None:
    hand = state.hand
    assert hand is not None
    tiles = [t for held in hand.hands for t in held]
    tiles += [p.tile for p in hand.board.tiles]
    tiles += list(hand.stock[hand.drawn :])
    assert Counter(tiles) == Counter(full_set(state.ruleset.max_pip))


def check_offers(state: MatchState, rng: random.Random) -> None:
    """Every offered action is accepted, a sample of the rest refused, other seats refused."""
    seat = state.turn
    assert seat is not None
    offered = legal_actions(state, seat)
    assert offered and len(set(offered)) == len(offered)
    for option in offered:
        apply(state, seat, to_action(option))
    kinds = {o.action for o in offered}
    assert len(kinds) == 1  # plays, or a draw, or a pass: never a choice between them
    plays = {(o.tile, o.end) for o in offered}
    candidates: list[Action] = [Draw(), Pass()]
    ends = [None, "left", "right", "up", "down"]
    tiles = full_set(state.ruleset.max_pip)
    candidates += [Play(rng.choice(tiles), rng.choice(ends)) for _ in range(12)]
    for action in candidates:
        if isinstance(action, Play) and (action.tile, action.end) in plays:
            continue
        if type(action).__name__.lower() in kinds:
            continue
        with pytest.raises(IllegalMove):
            apply(state, seat, action)
    other = (seat + 1) % state.ruleset.players
    with pytest.raises(NotYourTurn):
        apply(state, other, to_action(offered[0]))


def check_hand_end(state: MatchState, events: tuple[Event, ...]) -> None:
    ended = [e for e in events if e.type == "hand_ended"]
    hand = state.hand
    assert hand is not None
    rules = state.ruleset
    if not ended:
        assert state.status == "playing"
        assert all(hand.hands) and hand.passes < rules.players
        return
    data = ended[0].data
    pips = [sum(a + b for a, b in held) for held in hand.hands]
    assert list(data.pips) == pips
    winner = data.winner
    if rules.partnership:
        check_team_hand_end(rules, data.reason, winner, pips, data.points)
        return
    if data.reason == "domino":
        assert isinstance(winner, int) and not hand.hands[winner]
        others = sum(pips) - pips[winner]
        expected = round5(others) if rules.domino_scoring.endswith("round5") else others
        if rules.domino_scoring == "one_point":
            expected = 1  # Fives and Threes: one point for chipping out
        if rules.domino_scoring == "own_pips":
            expected = 0  # Mexican Train: every seat counts its own pips against itself
        assert data.points == expected
    elif data.reason == "blocked":
        assert [m.action for m in hand.moves[-rules.players :]] == ["pass"] * rules.players
        assert all(hand.hands)
        low = min(pips)
        if rules.block_scoring == "nobody" or pips.count(low) > 1:
            assert winner is None and data.tied and data.points == 0
        else:
            assert winner == pips.index(low)
            rest = sum(pips) - low
            expected = {
                "lowest_takes_others": rest,
                "lowest_takes_others_round5": round5(rest),
                "lowest_takes_difference": rest - low * (rules.players - 1),
                "own_pips": 0,
            }[rules.block_scoring]
            assert data.points == expected
    else:
        assert data.reason == "target" and rules.end_mid_hand
        assert state.scores[winner] >= rules.target  # type: ignore[index]


def check_team_hand_end(
    rules: Ruleset, reason: str, winner: int | None, pips: list[int], points: int
) -> None:
    """A partnership hand's end as the oracle written from RULES 14 has it."""
    if reason == "domino":
        assert winner is not None
        assert points == partnership_oracle.domino(rules.domino_scoring, winner, pips)
    elif reason == "blocked":
        assert (winner, points) == partnership_oracle.blocked(rules.block_scoring, pips)


def play_checked(
    rules: Ruleset, seed: int, cut: str, deep: bool
) -> list[tuple[int | None, Action]]:
    rng = random.Random(seed)
    state = new_match(rules, rng.randbytes(32))
    transition = apply(state, None, Start(cut))
    state = transition.state
    actions: list[tuple[int | None, Action]] = [(None, Start(cut))]
    scored = [0] * rules.players
    while state.status in ("playing", "hand_over"):
        action: Action
        seat: int | None = None
        if state.status == "hand_over":
            action = NextHand()
        else:
            check_tiles_conserved(state)
            if deep:
                check_offers(state, rng)
            seat = state.turn
            action = to_action(rng.choice(legal_actions(state, seat)))
        before = msgspec.json.encode(to_json(state)) if deep else b""
        transition = apply(state, seat, action)
        if deep:
            assert msgspec.json.encode(to_json(state)) == before  # apply never changes its input
        assert [e.seq for e in transition.events] == list(
            range(state.seq + 1, state.seq + 1 + len(transition.events))
        )
        for event in transition.events:
            json.dumps(wire(event.for_seat(seat)))
            if event.type == "scored":
                for mate in scored_seats(rules, event.data.seat):  # type: ignore[union-attr]
                    scored[mate] += event.data.points  # type: ignore[union-attr]
        if seat is not None:
            check_hand_end(transition.state, transition.events)
        state = transition.state
        actions.append((seat, action))
    assert list(state.scores) == scored
    assert state.result is not None and state.status == "finished"
    return actions


def scored_seats(rules: Ruleset, seat: int) -> list[int]:
    """Who a seat's points count for: itself, and its partner in partnership (RULES 14)."""
    if rules.partnership:
        return [s for s in range(4) if partnership_oracle.team(s) == partnership_oracle.team(seat)]
    return [seat]


@pytest.mark.parametrize("name", list(CONFIGS))
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**63), cut=st.text(max_size=64))
def test_random_play_keeps_the_rules(name: str, seed: int, cut: str) -> None:
    play_checked(CONFIGS[name], seed, cut, deep=seed % 3 == 0)


@settings(max_examples=10, deadline=None)
@given(name=st.sampled_from(list(CONFIGS)), seed=st.integers(0, 2**63))
def test_replay_is_deterministic(name: str, seed: int) -> None:
    actions = play_checked(CONFIGS[name], seed, "same", deep=False)
    rules = CONFIGS[name]
    secret = random.Random(seed).randbytes(32)
    runs = []
    for _ in range(2):
        state = new_match(rules, secret)
        events: list[dict[str, object]] = []
        for seat, action in actions:
            try:
                transition = apply(state, seat, action)
            except EngineError as error:  # pragma: no cover - would be a determinism bug
                raise AssertionError(error) from error
            state = transition.state
            events += [wire(e.for_seat(seat)) for e in transition.events]
        runs.append((to_json(state), events))
    assert runs[0] == runs[1]
