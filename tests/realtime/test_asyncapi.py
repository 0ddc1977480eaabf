"""openapi/asyncapi.yaml against the message models: same messages, fields and examples."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from domino_api.realtime import messages as m

DOCUMENT = Path(__file__).resolve().parents[2] / "openapi" / "asyncapi.yaml"


def _document() -> dict:
    return yaml.safe_load(DOCUMENT.read_text())


# The lobby socket's own messages (tests/api/test_lobby.py checks them).
LOBBY = {"lobby_subscribed", "lobby_event"}


def test_every_message_is_documented_and_nothing_else() -> None:
    documented = set(_document()["components"]["messages"])
    assert documented == set(m.CLIENT_MODELS) | set(m.SERVER_MESSAGES) | LOBBY
    assert set(m.CLIENT_MODELS) == set(m.CLIENT_TYPES)


def test_documented_fields_match_the_models() -> None:
    messages = _document()["components"]["messages"]
    for name, model in {**m.CLIENT_MODELS, **m.SERVER_MESSAGES}.items():
        payload = messages[name]["payload"]
        assert set(payload["properties"]) == set(model.model_fields), name
        required = {k for k, f in model.model_fields.items() if f.is_required()}
        assert set(payload.get("required", [])) == required, name
        assert payload["properties"]["type"] == {"const": name}


def test_every_example_validates_against_its_model() -> None:
    messages = _document()["components"]["messages"]
    for name, spec in messages.items():
        assert spec.get("examples"), f"{name} has no example"
        if name in LOBBY:
            continue
        for example in spec["examples"]:
            payload = example["payload"]
            if name in m.CLIENT_MODELS:
                parsed = m.CLIENT_MESSAGES.validate_json(json.dumps(payload))
                assert isinstance(parsed, m.CLIENT_MODELS[name])
            else:
                m.SERVER_MESSAGES[name].model_validate(payload)


def test_close_codes_are_documented() -> None:
    text = DOCUMENT.read_text()
    for code in ("4401", "4403", "4404", "4408", "4409", "4422", str(m.CLOSE_TOO_SLOW)):
        assert code in text
    assert m.TOO_SLOW_REASON in text
