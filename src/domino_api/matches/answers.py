"""The answers carrying events, as msgspec Structs, and the published schemas of both: generated
from engine/event_types.py's types, for openapi.json (`openapi_doc.complete`) and asyncapi.yaml
(documents/asyncapi.py).

The service answers with these values (the view is engine/view_types.py's ViewOut), encoded
once at the edge (`responses.FastJSONResponse`); `struct_answer` names the schema on the route.
"""

from __future__ import annotations

import msgspec
from pydantic import JsonValue

from domino_api.engine.event_types import AnyEvent
from domino_api.engine.rulesets import PRESETS
from domino_api.engine.shapes import LedgerOut
from domino_api.engine.view_types import ViewOut
from domino_api.matches.ruleset_models import RulesetsOut
from domino_api.matches.watching import WatchOut
from domino_api.players.profile_types import ProfileOut
from domino_api.web.responses import REF

# ViewOut's published example (tests/api/test_openapi_contract.py decodes it into ViewOut).
VIEW_EXAMPLE: dict[str, JsonValue] = {
    "id": "7d1c2b8e-4f5a-4c1e-9a51-1f0c9d7e2a10",
    "code": "4821",
    "status": "playing",
    "ruleset": msgspec.to_builtins(PRESETS["all-fives"]),
    "seq": 42,
    "now": "2026-11-29T16:00:00Z",
    "hand_number": 2,
    "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
    "host_seat": 0,
    "tournament": None,
    "check_in_deadline": None,
    "next_hand_at": None,
    "seats": [
        {
            "seat": 0,
            "name": "Ana",
            "type": "human",
            "strategy": None,
            "connected": True,
            "away_since": None,
            "away_deadline": None,
            "autopilot": False,
            "forfeited": False,
            "ready": False,
            "score": 35,
            "hands_won": 1,
            "tiles": 3,
            "tile_back": "moon",
        },
        {
            "seat": 1,
            "name": "Planner",
            "type": "bot",
            "strategy": "planner",
            "connected": True,
            "away_since": None,
            "away_deadline": None,
            "autopilot": False,
            "forfeited": False,
            "ready": False,
            "score": 20,
            "hands_won": 0,
            "tiles": 4,
            "tile_back": "moon",
        },
    ],
    "you": {"seat": 0, "seats": [0], "hand": [[2, 6], [3, 4], [5, 5]]},
    "board": {
        "tiles": [
            {"tile": [6, 6], "end": None, "outer": None, "spinner": True},
            {"tile": [3, 6], "end": "right", "outer": 3, "spinner": False},
        ],
        "ends": [{"end": "left", "pips": 6}, {"end": "right", "pips": 3}],
        "ends_total": 15,
    },
    "stock": 12,
    "stock_back": "moon",
    "turn": {"seat": 0, "deadline": None, "must_cover": None},
    "legal": [
        {"action": "play", "tile": [2, 6], "end": "left", "points": 5},
        {"action": "play", "tile": [3, 4], "end": "right", "points": 0},
    ],
    "last_hand": None,
    "result": None,
    "teams": None,
    "rematch_match_id": None,
    "claims_locked": False,
    "talk_off": False,
    "talk_etiquette": False,
    "per_move_s": None,
}


class EventsOut(msgspec.Struct, frozen=True):
    """Events after a seq, in seq order, each as the caller's seat may see it."""

    events: list[AnyEvent]


class MoveOut(msgspec.Struct, frozen=True):
    """The mover's view after the move, and the events it caused (computer replies included)."""

    view: ViewOut
    events: list[AnyEvent]


ANSWERS: tuple[type[msgspec.Struct], ...] = (
    ViewOut,
    EventsOut,
    MoveOut,
    LedgerOut,
    RulesetsOut,
    WatchOut,
    ProfileOut,
)


MOVE_EXAMPLES: list[JsonValue] = [
    {"action": "play", "tile": [2, 6], "end": "left", "points": 5, "seq": 42},
    {"action": "draw", "seq": 42},
]


def schemas(answers: tuple[type[msgspec.Struct], ...] = ANSWERS) -> dict[str, JsonValue]:
    """The view, every event's schema, `Event` (their union), and the answers that carry them."""
    _, components = msgspec.json.schema_components(answers, ref_template=REF)
    published = {name: typable(schema) for name, schema in components.items()}
    view = published["ViewOut"]
    assert isinstance(view, dict)
    view["examples"] = [VIEW_EXAMPLE]
    return {**published, **json_schemas(REF)}


def json_schemas(
    ref_template: str = "#/components/schemas/{name}", tags_as_const: bool = True
) -> dict[str, JsonValue]:
    """`Event` (the union by `type`) and every schema it names, as the documents publish them."""
    (union,), components = msgspec.json.schema_components([AnyEvent], ref_template=ref_template)
    event = typable(union, tags_as_const)
    assert isinstance(event, dict)
    event["description"] = "An event: `data`'s shape is chosen by `type`."
    parts = {name: typable(s, tags_as_const) for name, s in sorted(components.items())}
    return {"Event": event, **parts}


def typable(node: JsonValue, tags_as_const: bool = True) -> JsonValue:
    """A tuple of like items (a tile) as `items` with its length, not `prefixItems`: type
    generators read `prefixItems` as the whole tuple (openapi-typescript made a tile `[[a, b],
    [a, b]]`), and schemathesis refused nested `prefixItems`. A tagged union is `oneOf` with its
    `discriminator` (msgspec writes `anyOf`): its members exclude each other, and
    openapi-python-client reads a discriminator only on a `oneOf`; a tag is a `const` in
    OpenAPI (AsyncAPI keeps the one-value `enum`: modelina's TypeScript of a `const` tag does not
    compile)."""
    if isinstance(node, list):
        return [typable(item, tags_as_const) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: typable(value, tags_as_const) for key, value in node.items()}
    if "discriminator" in out and "anyOf" in out:
        out["oneOf"] = out.pop("anyOf")
    match out.get("enum"):
        case [tag] if tags_as_const:
            # A union member's tag as `const`: generators type it as the literal itself
            # (openapi-python-client made a one-value enum class of each `enum`).
            del out["enum"]
            out["const"] = tag
    prefix = out.get("prefixItems")
    if isinstance(prefix, list) and prefix and all(item == prefix[0] for item in prefix):
        del out["prefixItems"]
        out["items"] = prefix[0]
    return out
