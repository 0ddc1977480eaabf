"""Helpers for the computer players' tests: whole matches with checked decisions."""

from __future__ import annotations

import random
from collections.abc import Sequence

from msgspec.structs import replace

from domino_api.bots import Strategy
from domino_api.engine import (
    PRESETS,
    MatchState,
    NextHand,
    Play,
    Ruleset,
    Start,
    apply,
    new_match,
    seat_view,
    with_reason,
)
from domino_api.engine.state import LegalAction

# Every preset (partnership's with its four seats), and house-nines with each count it allows.
CONFIGS: list[tuple[str, int]] = [
    (name, players)
    for name in PRESETS
    for players in (
        (2, 3, 4) if name == "house-nines" else (4,) if PRESETS[name].partnership else (2,)
    )
]


def rules_for(name: str, players: int, target: int | None = None) -> Ruleset:
    base = PRESETS[name]
    if base.rounds is not None:  # Mexican Train: one round, as long as a short match
        return replace(base, players=players, rounds=1)
    return replace(base, players=players, target=target or base.target)


def is_listed(action: object, legal: Sequence[LegalAction]) -> bool:
    if isinstance(action, Play):
        return any(
            o.action == "play" and o.tile == action.tile and o.end == action.end for o in legal
        )
    kind = type(action).__name__.lower()
    return any(o.action == kind for o in legal)


def play_checked_match(
    rules: Ruleset, strategies: Sequence[Strategy], seed: int, max_moves: int = 2_000
) -> MatchState:
    """Play a match, asserting that every decision is listed as legal and has a reason."""
    state = apply(new_match(rules, f"secret-{seed}".encode()), None, Start(f"cut-{seed}")).state
    rng = random.Random(seed)
    for _ in range(max_moves):
        if state.status == "hand_over":
            state = apply(state, None, NextHand()).state
            continue
        if state.status != "playing":
            break
        seat = state.turn
        assert seat is not None
        view = seat_view(state, seat)
        action, reason = strategies[seat].choose(view, rng)
        assert reason.strip(), f"{strategies[seat].name} gave no reason"
        assert is_listed(action, view.legal), (strategies[seat].name, action, view.legal)
        state = apply(state, seat, with_reason(action, reason)).state
    return state
