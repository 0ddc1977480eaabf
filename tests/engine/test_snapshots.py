"""Snapshots round-trip exactly: to_json -> JSON text -> from_json gives the same state."""

from __future__ import annotations

import json
import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domino_api.engine import PRESETS, MatchState, from_json, new_match, to_json
from domino_api.engine.shapes import decode_snapshot, snapshot_of
from tests.engine.helpers import random_match, ruleset

RULESETS = [*PRESETS.values(), ruleset(PRESETS["house-nines"], players=2)]


def round_trip(state: MatchState) -> MatchState:
    snapshot = to_json(state)
    text = msgspec.json.encode(snapshot)
    # Read back from its text, and from the plain values a JSON column gives: the same snapshot.
    stored = decode_snapshot(text)
    assert stored == snapshot == snapshot_of(json.loads(text))
    return from_json(stored)


@settings(max_examples=40, deadline=None)
@given(
    rules=st.sampled_from(RULESETS),
    seed=st.integers(0, 2**32),
    cut_at=st.integers(0, 400),
)
def test_snapshot_round_trip_anywhere_in_a_match(rules: object, seed: int, cut_at: int) -> None:
    _, transitions = random_match(rules, random.Random(seed))  # type: ignore[arg-type]
    state = transitions[min(cut_at, len(transitions) - 1)].state
    assert round_trip(state) == state
    final = transitions[-1].state
    assert round_trip(final) == final


def test_waiting_match_round_trips() -> None:
    state = new_match(PRESETS["classic"], b"\x00\xff" * 16)
    assert round_trip(state) == state


def test_finished_hands_are_encoded_once_and_as_before() -> None:
    """A snapshot reuses its finished hands' encodings (engine/serialize.py `_PAST`): the same
    objects in the next snapshot, and the snapshot equals one encoded with nothing kept."""
    from domino_api.engine import serialize

    _, transitions = random_match(PRESETS["all-fives"], random.Random(7))
    state = next(t.state for t in transitions if t.state.history and t.state.hand is not None)
    first = to_json(state)
    again = to_json(state)
    assert all(a is b for a, b in zip(first.history, again.history, strict=True))
    serialize._PAST.clear()
    assert msgspec.json.encode(to_json(state)) == msgspec.json.encode(first)
    assert from_json(first) == state
