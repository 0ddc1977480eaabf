"""openapi/asyncapi.yaml's schemas, generated from the types the service speaks.

The channels, operations and messages of asyncapi.yaml are written by hand; its
`components.schemas` (every event type, the view, the problem document) are written by
`domino-api openapi` from engine/event_types.py and engine/view_types.py (msgspec) and
web/problems.py, so the socket's document cannot drift from the REST one (`domino-api openapi
--check` fails if it has).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, JsonValue

from domino_api.engine.view_types import ViewOut
from domino_api.lobby.events import LobbyEvent
from domino_api.matches import answers
from domino_api.web.problems import Problem

if TYPE_CHECKING:
    from yaml import SafeDumper

ASYNCAPI_PATH = Path("openapi/asyncapi.yaml")
# Schemas written by hand in asyncapi.yaml (the client messages' small parts); kept as they are.
HAND_WRITTEN = ("ClientId", "Seat", "Tile")
HEADER = (
    "# The WebSocket protocol. Written by hand except components.schemas past the first three,\n"
    "# which `domino-api openapi` generates from the service's types (do not edit those).\n"
)


class _Published(BaseModel):
    problem: Problem


def generated_schemas() -> dict[str, JsonValue]:
    """Event (the union by `type`), each event and data type, ViewOut and Problem."""
    schema = _Published.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas: dict[str, JsonValue] = {**schema["$defs"], **answers.schemas((ViewOut,))}
    union = schemas.pop("Event")
    assert isinstance(union, dict)
    event = dict(union)
    # AsyncAPI's discriminator is the property's name (OpenAPI's is an object with a mapping).
    event["discriminator"] = "type"
    schemas.update(_lobby_schemas())
    return {"Event": event, **dict(sorted(schemas.items()))}


def _lobby_schemas() -> dict[str, JsonValue]:
    """The lobby socket's events (lobby/events.py): `LobbyEvent`, the union by `type`."""
    import msgspec

    (union,), parts = msgspec.json.schema_components(
        [LobbyEvent], ref_template="#/components/schemas/{name}"
    )
    union["description"] = "A lobby event: its fields are chosen by `type`."
    union["discriminator"] = "type"
    return {"LobbyEvent": union, **parts}


def render(text: str) -> str:
    """asyncapi.yaml's text with its generated schemas brought up to date."""
    import yaml

    document = yaml.safe_load(text)
    schemas = document["components"]["schemas"]
    kept = {name: schemas[name] for name in HAND_WRITTEN}
    document["components"]["schemas"] = {**kept, **generated_schemas()}
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
