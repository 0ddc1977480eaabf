"""openapi/asyncapi.yaml against realtime/frames.py: one message per frame, each payload the
frame's generated schema, every example a frame the service reads (or sends)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import yaml

from domino_api.documents import asyncapi
from domino_api.realtime import frames

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.yaml"


def _document() -> dict:
    return yaml.safe_load(DOCUMENT.read_text())


def test_every_frame_is_a_message_and_nothing_else() -> None:
    documented = set(_document()["components"]["messages"])
    tags = {frames.tag_of(kind) for kind in (*frames.CLIENT_FRAMES, *frames.SERVER_FRAMES)}
    lobby = {"lobby_subscribed", "lobby_event", "lobby_player_event"}
    assert documented == (tags - {"subscribed"}) | lobby
    assert set(frames.CLIENT_TYPES) == {frames.tag_of(kind) for kind in frames.CLIENT_FRAMES}


def test_each_payload_is_its_frames_schema_tagged_by_type() -> None:
    document = _document()
    messages, schemas = document["components"]["messages"], document["components"]["schemas"]
    for name, kind in asyncapi.MESSAGES.items():
        ref = messages[name]["payload"]["$ref"]
        schema = schemas[ref.rsplit("/", 1)[1]]
        if isinstance(kind, type) and issubclass(kind, msgspec.Struct):
            assert set(schema["properties"]) == {"type", *kind.__struct_fields__}, name
            assert schema["properties"]["type"] == {"enum": [frames.tag_of(kind)]}
            assert schema["additionalProperties"] is False
    for union in ("ClientFrame", "ServerFrame", "Event", "LobbyEvent", "SocialEvent"):
        assert schemas[union]["discriminator"] == "type", union


def test_every_example_decodes_as_its_frame() -> None:
    messages = _document()["components"]["messages"]
    for name, spec in messages.items():
        assert spec.get("examples"), f"{name} has no example"
        kind = asyncapi.MESSAGES[name]
        for example in spec["examples"]:
            text = json.dumps(example["payload"])
            if name in frames.CLIENT_TYPES:
                assert isinstance(frames.read_frame(text, None), kind), (name, text)
            else:
                msgspec.json.decode(text, type=kind)


def test_close_codes_are_documented() -> None:
    text = DOCUMENT.read_text()
    for code in ("4401", "4403", "4404", "4408", "4409", "4422", str(frames.CLOSE_TOO_SLOW)):
        assert code in text
    assert frames.TOO_SLOW_REASON in text
