"""The answers carrying events, as msgspec Structs, and the published schemas of both: generated
from engine/event_types.py's types, for openapi.json (`openapi_doc.install`) and asyncapi.yaml
(documents/asyncapi.py).

The service answers with these values (the view is matches/view_types.py's ViewOut), encoded
once at the edge (`responses.FastJSONResponse`); `struct_answer` names the schema on the route.
"""

from __future__ import annotations

import msgspec
from pydantic import JsonValue

from domino_api.engine.event_types import AnyEvent
from domino_api.matches.view_types import VIEW_EXAMPLE, ViewOut

REF = "#/components/schemas/{name}"


class EventsOut(msgspec.Struct, frozen=True):
    """Events after a seq, in seq order, each as the caller's seat may see it."""

    events: list[AnyEvent]


class MoveOut(msgspec.Struct, frozen=True):
    """The mover's view after the move, and the events it caused (computer replies included)."""

    view: ViewOut
    events: list[AnyEvent]


ANSWERS: tuple[type[msgspec.Struct], ...] = (ViewOut, EventsOut, MoveOut)


def schemas(answers: tuple[type[msgspec.Struct], ...] = ANSWERS) -> dict[str, JsonValue]:
    """The view, every event's schema, `Event` (their union), and the answers that carry them."""
    _, components = msgspec.json.schema_components(answers, ref_template=REF)
    published = {name: _typable(schema) for name, schema in components.items()}
    view = published["ViewOut"]
    assert isinstance(view, dict)
    view["examples"] = [VIEW_EXAMPLE]
    return {**published, **json_schemas(REF)}


def struct_answer(kind: type, status: int = 200) -> dict[int | str, dict[str, JsonValue]]:
    """A route's `responses=` entry for an answer typed by a Struct (or an event type)."""
    schema: dict[str, JsonValue] = {"$ref": REF.format(name=kind.__name__)}
    description = (kind.__doc__ or "").strip().splitlines()[0]
    return {
        status: {"description": description, "content": {"application/json": {"schema": schema}}}
    }


def json_schemas(ref_template: str = "#/components/schemas/{name}") -> dict[str, JsonValue]:
    """`Event` (the union by `type`) and every schema it names, as the documents publish them."""
    (event,), components = msgspec.json.schema_components([AnyEvent], ref_template=ref_template)
    event["description"] = "An event: `data`'s shape is chosen by `type`."
    return {"Event": event, **{name: _typable(s) for name, s in sorted(components.items())}}


def _typable(node: JsonValue) -> JsonValue:
    """A tuple of like items (a tile) as `items` with its length, not `prefixItems`: type
    generators read `prefixItems` as the whole tuple (openapi-typescript made a tile `[[a, b],
    [a, b]]`), and schemathesis refused nested `prefixItems`."""
    if isinstance(node, list):
        return [_typable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _typable(value) for key, value in node.items()}
    prefix = out.get("prefixItems")
    if isinstance(prefix, list) and prefix and all(item == prefix[0] for item in prefix):
        del out["prefixItems"]
        out["items"] = prefix[0]
    return out
