"""Helpers for engine tests: positions with chosen hands, scripted moves and random playouts."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from domino_api.engine import (
    Action,
    Draw,
    Event,
    MatchState,
    NextHand,
    Pass,
    Play,
    Ruleset,
    Start,
    Tile,
    Transition,
    apply,
    legal_actions,
    new_match,
)
from domino_api.engine.hand import deal_hand
from domino_api.engine.state import LegalAction, rules_of

SECRET = bytes(range(32))


def ruleset(base: Ruleset, **changes: object) -> Ruleset:
    return replace(base, **changes)


def position(
    rules: Ruleset,
    hands: Sequence[Sequence[Tile]],
    stock: Sequence[Tile] = (),
    opener: int = 0,
    opening_tile: Tile | None = None,
    scores: Sequence[int] | None = None,
    hands_won: Sequence[int] | None = None,
    hand_number: int = 1,
) -> MatchState:
    """A match in play at the start of a hand whose deal the test chooses."""
    hand = deal_hand(
        rules_of(rules),
        number=hand_number,
        attempt=0,
        opener=opener,
        dealt=tuple(tuple(h) for h in hands),
        stock=tuple(stock),
        opening_tile=opening_tile,
    )
    zeros = (0,) * rules.players
    return MatchState(
        ruleset=rules,
        secret=SECRET,
        status="playing",
        seq=0,
        game_seq=0,
        cut="test",
        hand_number=hand_number,
        scores=tuple(scores) if scores is not None else zeros,
        hands_won=tuple(hands_won) if hands_won is not None else zeros,
        forfeited=(False,) * rules.players,
        hand=hand,
        history=(),
        result=None,
    )


Step = tuple[Tile, str | None] | str


def step_action(step: Step) -> Play | Draw | Pass:
    if step == "draw":
        return Draw()
    if step == "pass":
        return Pass()
    assert isinstance(step, tuple)
    return Play(step[0], step[1])


def run(state: MatchState, *steps: Step) -> tuple[MatchState, list[Event]]:
    """Apply scripted moves, each by the seat whose turn it is; returns the state and all events."""
    events: list[Event] = []
    for step in steps:
        transition = apply(state, state.turn, step_action(step))
        state = transition.state
        events.extend(transition.events)
    return state, events


def events_of(events: Sequence[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


def to_action(option: LegalAction) -> Play | Draw | Pass:
    if option.action == "play":
        assert option.tile is not None
        return Play(option.tile, option.end)
    return Draw() if option.action == "draw" else Pass()


def random_match(
    rules: Ruleset, rng: random.Random, secret: bytes | None = None, cut: str = "cut"
) -> tuple[MatchState, list[Transition]]:
    """Play a whole match with uniformly random legal actions."""
    state = new_match(rules, secret or rng.randbytes(32))
    transitions = [apply(state, None, Start(cut))]
    state = transitions[-1].state
    while state.status in ("playing", "hand_over"):
        action: Action
        if state.status == "hand_over":
            action = NextHand()
            seat = None
        else:
            seat = state.turn
            action = to_action(rng.choice(legal_actions(state, seat)))
        transitions.append(apply(state, seat, action))
        state = transitions[-1].state
    return state, transitions


def wire(value: Any) -> Any:
    """A typed event (or its data) as the client reads it: its JSON text read back."""
    return msgspec.json.decode(msgspec.json.encode(value))


def plain(value: Any) -> Any:
    """A typed value as plain Python values (tuples kept as tuples)."""
    return msgspec.to_builtins(value)
