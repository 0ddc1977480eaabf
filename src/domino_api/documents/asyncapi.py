"""openapi/asyncapi.yaml's messages and schemas, generated from the types the sockets speak.

Its prose (info, servers, channels, operations) and each message's examples are written by
hand; every message's payload and every schema are written by `domino-api openapi` from
realtime/frames.py (each frame a Struct, each union tagged by `type`), engine/event_types.py,
engine/view_types.py, lobby/events.py and social/events.py, so the socket's document cannot
drift from the code (`domino-api openapi --check` fails if it has). tests/clients/ generates
socket clients from it.
"""

from __future__ import annotations

from pathlib import Path
from types import UnionType
from typing import TYPE_CHECKING

import msgspec
from pydantic import JsonValue

from domino_api.engine.view_types import ViewOut
from domino_api.lobby.events import LobbyEvent
from domino_api.matches import answers
from domino_api.realtime import frames
from domino_api.social.events import SocialEvent
from domino_api.web.problems import problem_schema

if TYPE_CHECKING:
    from yaml import SafeDumper

ASYNCAPI_PATH = Path("openapi/asyncapi.yaml")
HEADER = (
    "# The WebSocket protocols. Written by hand: info, servers, channels, operations and the\n"
    "# messages' examples; `domino-api openapi` generates every message's payload and every\n"
    "# schema from realtime/frames.py and the contract's types (do not edit those).\n"
)
REF = "#/components/schemas/{name}"

# Each message of the document and the type its payload is: the frames by their `type`, the
# lobby's two by the names its channel gives them.
MESSAGES: dict[str, type | UnionType] = {
    **{frames.tag_of(frame): frame for frame in frames.CLIENT_FRAMES},
    **{frames.tag_of(frame): frame for frame in frames.SERVER_FRAMES},
    "lobby_subscribed": frames.SubscribedFrame,
    "lobby_event": LobbyEvent,
    "lobby_player_event": SocialEvent,
}
del MESSAGES["subscribed"]
# The unions published as named schemas, each tagged by `type`.
UNIONS: dict[str, UnionType] = {
    "ClientFrame": frames.ClientFrame,
    "ServerFrame": frames.ServerFrame,
    "LobbyEvent": LobbyEvent,
    "SocialEvent": SocialEvent,
}


def generated_schemas() -> dict[str, JsonValue]:
    """Every frame, the three unions, Event and every event, ViewOut and the lobby's events."""
    named, parts = msgspec.json.schema_components([*UNIONS.values(), ViewOut], ref_template=REF)
    schemas: dict[str, JsonValue] = {
        name: _tagged(schema) for name, schema in zip(UNIONS, named, strict=False)
    }
    schemas.update(
        {
            name: _tagged(answers.typable(schema, tags_as_const=False))
            for name, schema in parts.items()
        }
    )
    # An event frame's event is `Event`; an error frame's problem is `Problem`, whose `code` is
    # the catalogue's enum (web/problems.py; the frame carries it as errors.ProblemDoc).
    _refer(schemas, "EventFrame", "event", "Event")
    _refer(schemas, "ErrorFrame", "error", "Problem")
    del schemas["ProblemDoc"]
    problem = {"Problem": problem_schema(REF)}
    published = answers.json_schemas(REF, tags_as_const=False)
    events = {name: _tagged(schema) for name, schema in published.items()}
    return dict(sorted({**schemas, **problem, **events}.items()))


def _refer(schemas: dict[str, JsonValue], frame: str, field: str, schema: str) -> None:
    properties = schemas[frame]
    assert isinstance(properties, dict) and isinstance(properties["properties"], dict)
    properties["properties"][field] = {"$ref": REF.format(name=schema)}


def _tagged(node: JsonValue) -> JsonValue:
    """msgspec's unions with AsyncAPI's discriminator: the tag property's name (OpenAPI's is an
    object with a mapping), everywhere in the schema."""
    if isinstance(node, list):
        return [_tagged(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _tagged(value) for key, value in node.items()}
    tag = out.get("discriminator")
    if isinstance(tag, dict):
        out["discriminator"] = tag["propertyName"]
    return out


def messages(existing: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """Each message: its summary (the type's docstring), its payload and the examples the
    document already has."""
    out: dict[str, JsonValue] = {}
    for name, kind in MESSAGES.items():
        kept = existing.get(name)
        kept = kept if isinstance(kept, dict) else {}
        examples = kept.get("examples", [])
        # A union (the lobby's events) has no docstring of its own: its summary is the document's.
        summary = kept.get("summary", name)
        if isinstance(kind, type) and kind.__doc__:
            summary = kind.__doc__.strip().splitlines()[0]
        payload: JsonValue = {"$ref": REF.format(name=_schema_name(kind))}
        out[name] = {"summary": summary, "payload": payload, "examples": examples}
    return out


def _schema_name(kind: object) -> str:
    if isinstance(kind, type):
        return kind.__name__
    return next(name for name, union in UNIONS.items() if union is kind)


def render(text: str) -> str:
    """asyncapi.yaml's text with its generated messages and schemas brought up to date."""
    import yaml

    document = yaml.safe_load(text)
    components = document["components"]
    components["messages"] = messages(components.get("messages", {}))
    components["schemas"] = generated_schemas()
    document["components"] = {"messages": components["messages"], "schemas": components["schemas"]}
    return HEADER + yaml.dump(
        document, Dumper=_Dumper, sort_keys=False, width=100, allow_unicode=True
    )


def _block_strings() -> type[SafeDumper]:
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return Dumper


_Dumper = _block_strings()
