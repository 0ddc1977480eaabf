"""The answers carrying events, as msgspec Structs, and the published schemas of both: generated
from engine/event_types.py's types, for openapi.json (`openapi_doc.install`) and asyncapi.yaml
(documents/asyncapi.py).

The service answers with plain dicts of these shapes holding the typed events, encoded once at
the edge (`responses.FastJSONResponse`); `struct_answer` names the schema on the route.
"""

from __future__ import annotations

from typing import Any

import msgspec
from pydantic import BaseModel

from domino_api.engine.event_types import AnyEvent
from domino_api.matches.schemas import ViewOut

REF = "#/components/schemas/{name}"


class EventsOut(msgspec.Struct, frozen=True):
    """Events after a seq, in seq order, each as the caller's seat may see it."""

    events: list[AnyEvent]


class MoveOut(msgspec.Struct, frozen=True):
    """The mover's view after the move, and the events it caused (computer replies included)."""

    view: ViewOut
    events: list[AnyEvent]


ANSWERS: tuple[type[msgspec.Struct], ...] = (EventsOut, MoveOut)


def _pydantic_ref(kind: type) -> dict[str, Any]:
    # The view is still a pydantic model: FastAPI publishes its schema under its name.
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return {"$ref": REF.format(name=kind.__name__)}
    raise NotImplementedError(kind)


def schemas() -> dict[str, Any]:
    """Every event's schema, `Event` (their union), and the answers that carry them."""
    _, components = msgspec.json.schema_components(
        ANSWERS, schema_hook=_pydantic_ref, ref_template=REF
    )
    return {**components, **json_schemas(REF)}


def struct_answer(kind: type, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """A route's `responses=` entry for an answer typed by a Struct (or an event type)."""
    schema = {"$ref": REF.format(name=kind.__name__)}
    description = (kind.__doc__ or "").strip().splitlines()[0]
    return {
        status: {"description": description, "content": {"application/json": {"schema": schema}}}
    }


def json_schemas(ref_template: str = "#/components/schemas/{name}") -> dict[str, Any]:
    """`Event` (the union by `type`) and every schema it names, as the documents publish them."""
    (event,), components = msgspec.json.schema_components([AnyEvent], ref_template=ref_template)
    event["description"] = "An event: `data`'s shape is chosen by `type`."
    return {"Event": event, **{name: _typable(s) for name, s in sorted(components.items())}}


def _typable(node: Any) -> Any:
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
