"""The OpenAPI document's text around the routes: its description, and examples kept whole.

FastAPI renders the document with `exclude_none`, which strips every `null` out of schema
examples too (a view's example lost `end`, `outer`, `deadline`, ... and failed its own schema);
`complete` (app/documented.py calls it) adds the msgspec types' schemas, examples included
(tests/api/test_openapi_contract.py validates every example against its schema).
"""

from __future__ import annotations

import json
import re
from types import UnionType

import msgspec
from pydantic import JsonValue

from domino_api.accounts import schemas as account_bodies
from domino_api.engine.move_types import MoveBody
from domino_api.lobby import models as lobby_models
from domino_api.matches import answers, civil_models, listing_models
from domino_api.matches import schemas as matches
from domino_api.matches.ledger_models import VerifyBody, VerifyOut
from domino_api.players import schemas as player_bodies
from domino_api.push import subscriptions
from domino_api.ratings import schemas as ratings
from domino_api.social import models as social_models
from domino_api.tournaments import event_types as tournament_events
from domino_api.tournaments import listing as tournament_listing
from domino_api.tournaments import schemas as tournaments
from domino_api.turns import routes as turns
from domino_api.web.inputs import document_no_nul
from domino_api.web.problems import problem_schema
from domino_api.web.responses import REF

DESCRIPTION = """\
The contract frontends and bots build on; docs/API.md explains it in prose.

* **Auth**: `POST /v1/players` answers a token; send it as `Authorization: Bearer <token>`
  (the Authorize button). Every other `/v1` route needs it.
* **Errors** are RFC 9457 problem documents with a stable `code`: each operation lists the codes
  it can answer, and the `Problem` schema's `code` enum is the whole list (docs/API.md,
  "Problem codes", gives each one's status and meaning).
* **Events** (the events feed, move answers, the WebSocket): `data`'s shape is chosen by `type`;
  see the `EventsOut` union. The WebSocket protocol is openapi/asyncapi.yaml.
"""


# Every request body (web/struct_bodies.py), by the name its routes' `request_body` gives it: a
# Struct, or a union of them (MoveBody).
BODIES: dict[str, type[msgspec.Struct] | UnionType] = {
    "MoveBody": MoveBody,
    "MatchCreate": matches.MatchCreate,
    "JoinBody": matches.JoinBody,
    "StartBody": matches.StartBody,
    "NextHandBody": matches.NextHandBody,
    "SeatBody": matches.SeatBody,
    "MessageBody": matches.MessageBody,
    "VerifyBody": VerifyBody,
    "PublicJoinBody": lobby_models.PublicJoinBody,
    "SeekCreate": lobby_models.SeekCreate,
    "ReportBody": civil_models.ReportBody,
    "PlayerCreate": player_bodies.PlayerCreate,
    "PlayerPatch": player_bodies.PlayerPatch,
    "SubscriptionIn": subscriptions.SubscriptionIn,
    "Named": social_models.Named,
    "LinkSignIn": account_bodies.LinkSignIn,
    "ApiKeyCreate": account_bodies.ApiKeyCreate,
    "PasskeyRegister": account_bodies.PasskeyRegister,
    "PasskeySignIn": account_bodies.PasskeySignIn,
    "ChallengeCreate": social_models.ChallengeCreate,
    "TournamentCreate": tournaments.TournamentCreate,
    # Its `match`'s two shapes, which msgspec cannot name from the field (tournaments/schemas.py).
    "PointsTarget": tournaments.PointsTarget,
    "BestOfHands": tournaments.BestOfHands,
}
EXAMPLES: dict[str, list[JsonValue]] = {
    "MoveBody": answers.MOVE_EXAMPLES,
    "MatchCreate": matches.MATCH_CREATE_EXAMPLES,
}
DESCRIPTIONS = {"MoveBody": "A move: one of the view's `legal` options with `seq`."}
# What a body's schema says beyond its fields' (a Struct carries no schema of its own).
ADDED: dict[str, dict[str, JsonValue]] = {"Named": social_models.ONE_OF_TWO}
# Every answer typed by a Struct, each published under its type's name (each route names its
# schema with `struct_answer`).
ANSWERS: tuple[type[msgspec.Struct], ...] = (
    answers.ANSWERS
    + lobby_models.ANSWERS
    + social_models.ANSWERS
    + account_bodies.ANSWERS
    + player_bodies.ANSWERS
    + subscriptions.ANSWERS
    + turns.ANSWERS
    + civil_models.ANSWERS
    + listing_models.ANSWERS
    + (VerifyOut,)
    + ratings.ANSWERS
    + tournaments.ANSWERS
    + tournament_listing.ANSWERS
)


def body_schemas() -> dict[str, JsonValue]:
    """Each body's schema and every schema it names, generated from its type."""
    refs, components = msgspec.json.schema_components(BODIES.values(), ref_template=REF)
    published = {name: answers.typable(schema) for name, schema in components.items()}
    for name, ref in zip(BODIES, refs, strict=True):
        if ref != {"$ref": REF.format(name=name)}:  # a union (MoveBody) is published by name
            published[name] = answers.typable(ref)
    for name, examples in EXAMPLES.items():
        body = published[name]
        assert isinstance(body, dict)
        body["examples"] = examples
        if name in DESCRIPTIONS:
            body["description"] = DESCRIPTIONS[name]
    for name, added in ADDED.items():
        body = published[name]
        assert isinstance(body, dict)
        body.update(added)
    return published


def _add(schemas: dict[str, JsonValue], generated: dict[str, JsonValue]) -> None:
    """One group of msgspec types' schemas beside those already in (FastAPI's, the groups added
    before): two types of one name would make one schema stand for both (a tournament's clock
    once lost its minimum this way)."""
    clash = [name for name, schema in generated.items() if schemas.get(name, schema) != schema]
    if clash:
        raise RuntimeError(f"two schemas named {', '.join(clash)}: rename one of the types")
    schemas.update(generated)


def _sent_schemas(document: dict[str, JsonValue], schemas: dict[str, JsonValue]) -> set[str]:
    """The names of the schemas a request body holds, at any depth."""
    seen: set[str] = set()
    todo = [text for text in _refs(document.get("paths")) if "requestBody" in text]
    names = [ref.rsplit("/", 1)[-1] for text in todo for ref in _refs_in(text)]
    while names:
        name = names.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            names.extend(ref.rsplit("/", 1)[-1] for ref in _refs_in(json.dumps(schemas[name])))
    return seen


def _refs(paths: JsonValue) -> list[str]:
    """Each operation's request body, as JSON text."""
    assert isinstance(paths, dict)
    bodies = []
    for item in paths.values():
        assert isinstance(item, dict)
        for operation in item.values():
            if isinstance(operation, dict) and "requestBody" in operation:
                bodies.append(json.dumps({"requestBody": operation["requestBody"]}))
    return bodies


def _refs_in(text: str) -> list[str]:
    return re.findall(r'"\$ref": "(#/components/schemas/[^"]+)"', text)


def _defaults_said(schema: JsonValue) -> None:
    """A default in what a client sends is said in its description, not as `default`:
    openapi-typescript types a property with a `default` as always there (right for answers),
    which made `fill_with_bots` required in `{cut: "moon"}`. The server applies the default."""
    if not isinstance(schema, dict):
        return
    properties = schema.get("properties")
    for part in properties.values() if isinstance(properties, dict) else ():
        if isinstance(part, dict) and "default" in part:
            default = part.pop("default")
            if default not in (None, [], {}):
                said = f"Default: {json.dumps(default)}."
                text = part.get("description")
                part["description"] = f"{text} ({said})" if isinstance(text, str) else said


def complete(document: dict[str, JsonValue]) -> None:
    """FastAPI's document of the routes, completed in place: the msgspec types' schemas
    (examples included), defaults in request bodies said in words."""
    components = document.setdefault("components", {})
    assert isinstance(components, dict)
    schemas = components.setdefault("schemas", {})
    assert isinstance(schemas, dict)
    _add(schemas, answers.schemas(ANSWERS))
    _add(schemas, body_schemas())
    tournament = tournament_events.schemas(REF)
    _add(schemas, {name: answers.typable(s) for name, s in tournament.items()})
    _add(schemas, {"Problem": problem_schema(REF)})
    for name in _sent_schemas(document, schemas):
        sent = schemas[name]
        assert isinstance(sent, dict)
        _defaults_said(sent)
        document_no_nul(sent)
    _query_texts_no_nul(document.get("paths"))


def _query_texts_no_nul(paths: object) -> None:
    """Every free text query parameter gets the no-NUL pattern: the edge refuses a NUL in any
    query parameter (`422 validation_error`, before any route), and the schema says so."""
    assert isinstance(paths, dict)
    for item in paths.values():
        assert isinstance(item, dict)
        for operation in item.values():
            params = operation.get("parameters", []) if isinstance(operation, dict) else []
            for param in params if isinstance(params, list) else []:
                if isinstance(param, dict) and param.get("in") == "query":
                    schema = param.get("schema")
                    if isinstance(schema, dict):
                        document_no_nul(schema)
