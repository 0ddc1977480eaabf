"""Every event the engine makes, each seat's copy and a spectator's, against the event models.

Matches of every preset (and every seat count a preset allows) are played by computers to
their end, some cut short by a forfeit or an abandonment; every event of every transition is
validated, as JSON, in the copy each seat and a spectator receive, against the union of
engine/event_types.py (decoded from its JSON, strictly) and against the JSON schema
openapi/asyncapi.yaml publishes.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import msgspec
import pytest
import yaml
from msgspec import UnsetType

from domino_api.engine import (
    PRESETS,
    Abandon,
    Forfeit,
    MatchState,
    NextHand,
    Start,
    apply,
    make_ruleset,
    new_match,
    ruleset_catalog,
    seat_view,
)
from domino_api.engine.event_types import EVENT_TYPES, AnyEvent
from domino_api.simulate import load_strategy, match_secret

AT = "2026-12-01T12:00:00Z"
ASYNCAPI = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.yaml"
# Events only the service makes (joins, presence, chat, ...): tests/realtime checks them.
SERVICE_ONLY = {
    "deadline_moved",
    "seat_joined",
    "seat_connected",
    "seat_disconnected",
    "autopilot_on",
    "autopilot_off",
    "message",
    "ready",
    "rematch_offered",
    "rematch_created",
    "tile_back_changed",
    "talk_changed",  # tests/api/test_civil_table.py
}


def _seat_counts(name: str) -> list[int]:
    if name == "mexican-train":
        return [2, 8]  # the fewest and the most seats: the ones between add no new shape
    entry = next(r for r in ruleset_catalog() if r.name == name)
    players = entry.overrides.players
    return [entry.players] if isinstance(players, UnsetType) else list(players)


def _play(name: str, players: int, index: int, cut_short: str | None) -> list[Any]:
    """Every event of one computer match; `cut_short` ends it early by forfeit or abandon."""
    # A short match: a low target, or Mexican Train's one round (it has no target).
    options: dict[str, object] = {"rounds": 1} if name == "mexican-train" else {"target": 60}
    if players != PRESETS[name].players:
        options["players"] = players
    rules = make_ruleset(name, options)
    rng = random.Random(index)
    strategy = load_strategy("plain" if index % 2 else "random")
    state: MatchState = new_match(rules, match_secret(15, index))
    transition = apply(state, None, Start(f"schema-{index}"))
    events = list(transition.events)
    state = transition.state
    moves = 0
    while state.status in ("playing", "hand_over"):
        if cut_short and moves == 12:
            action = Forfeit(1, "resign") if cut_short == "forfeit" else Abandon("abandoned")
            transition = apply(state, None, action)
        elif state.status == "hand_over":
            transition = apply(state, None, NextHand())
        else:
            seat = state.turn
            assert seat is not None
            action, _ = strategy.choose(seat_view(state, seat), rng)
            transition = apply(state, seat, action)
        events.extend(transition.events)
        state = transition.state
        moves += 1
    return events


Validator = jsonschema.protocols.Validator


def _asyncapi_validators() -> tuple[Validator, dict[str, Validator]]:
    """The published `Event` union, and each of its branches by the event type it names.

    The union's `oneOf` tries every branch on every event, which is where nearly all of this
    walk's time went: each copy is validated against its own type's branch, and the union once
    per type (the other branches refuse a `type` they do not name, so once says it all)."""
    document = yaml.safe_load(ASYNCAPI.read_text())
    components = document["components"]

    def validator(ref: str) -> Validator:
        return jsonschema.Draft202012Validator({"$ref": ref, "components": components})

    branches: dict[str, Validator] = {}
    for branch in components["schemas"]["Event"]["oneOf"]:
        schema = components["schemas"][branch["$ref"].rsplit("/", 1)[1]]
        for event_type in schema["properties"]["type"]["enum"]:
            branches[event_type] = validator(branch["$ref"])
    return validator("#/components/schemas/Event"), branches


def test_every_engine_event_of_every_preset_fits_its_schema() -> None:
    union, branches = _asyncapi_validators()
    counts: Counter[str] = Counter()
    copies = 0
    validated: set[str] = set()  # a copy the JSON schema accepted: an equal one needs no rerun
    by_union: set[str] = set()  # the event types the whole union accepted a copy of
    index = 0
    for name in PRESETS:
        for players in _seat_counts(name):
            for cut_short in (None, None, "forfeit", "abandon"):
                index += 1
                for event in _play(name, players, index, cut_short):
                    counts[event.type] += 1
                    for seat in (None, *range(players)):
                        copy = msgspec.structs.replace(event.for_seat(seat), at=AT)
                        text = msgspec.json.encode(copy).decode()
                        model = msgspec.json.decode(text, type=AnyEvent)
                        assert type(model) is EVENT_TYPES[event.type] and model == copy
                        if text not in validated:
                            branches[event.type].validate(json.loads(text))
                            if event.type not in by_union:  # it takes it, by this branch alone
                                union.validate(json.loads(text))
                                by_union.add(event.type)
                            validated.add(text)
                        copies += 1
    print(f"\nengine events: {sum(counts.values())} events, {copies} copies", end=" ")
    print(f"({len(validated)} distinct), {dict(counts)}")
    assert set(counts) == by_union == set(EVENT_TYPES) - SERVICE_ONLY
    assert copies > 10_000


def test_private_parts_are_optional_and_typed() -> None:
    turn: dict[str, Any] = {"seq": 3, "type": "turn", "at": AT, "data": {"seat": 0}}
    turn["data"] |= {"deadline": None, "must_cover": None}
    msgspec.convert(turn, AnyEvent)
    turn["data"]["legal"] = [{"action": "play", "tile": [1, 2], "end": "left", "points": 0}]
    msgspec.convert(turn, AnyEvent)
    for bad in (
        {**turn, "data": {**turn["data"], "stray": 1}},  # an unknown field
        {**turn, "data": {**turn["data"], "legal": [{"action": "fly"}]}},  # not an action
        {**turn, "type": "turned"},  # not a type
    ):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bad, AnyEvent)
