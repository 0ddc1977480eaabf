"""openapi.json as a frontend reads it: descriptions, honest error lists, one problem-code
enum, the bearer scheme, examples that fit their schemas, and /docs served without a network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import msgspec

from domino_api import engine, errors
from domino_api.app.api import create_app
from domino_api.engine.event_types import EVENT_TYPES
from domino_api.engine.view_types import ViewOut
from domino_api.matches.answers import VIEW_EXAMPLE
from domino_api.web.problems import CATALOGUE, CODES

ROOT = Path(__file__).resolve().parents[2]


def _document() -> dict[str, Any]:
    return create_app().openapi()


def _operations(document: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def _subclasses(base: type) -> list[type]:
    out = []
    for cls in base.__subclasses__():
        out += [cls, *_subclasses(cls)]
    return out


def test_every_operation_has_a_summary_and_a_description() -> None:
    for method, path, operation in _operations(_document()):
        assert operation.get("summary"), (method, path)
        assert len(operation.get("description", "")) > 30, (method, path)


def test_error_responses_are_problems_with_their_codes_named() -> None:
    document = _document()
    assert "HTTPValidationError" not in document["components"]["schemas"]
    for method, path, operation in _operations(document):
        for status, response in operation["responses"].items():
            if status[0] not in "45" or not path.startswith("/v1"):
                continue
            content = response["content"]["application/problem+json"]
            assert content["schema"] == {"$ref": "#/components/schemas/Problem"}
            named = [c for c in CODES if f"`{c}`" in response["description"]]
            assert named, (method, path, status)
            assert all(int(status) in CATALOGUE[c][0] for c in named), (method, path, status)


def test_a_route_lists_only_what_it_can_answer() -> None:
    paths = _document()["paths"]
    # 503: the token is looked up in the database, which may have no connection free.
    assert set(paths["/v1/rulesets"]["get"]["responses"]) == {"200", "401", "503"}
    assert "409" not in paths["/v1/matches/{match_id}"]["get"]["responses"]
    moves = paths["/v1/matches/{match_id}/moves"]["post"]["responses"]
    assert "`stale_seq`" in moves["409"]["description"]


def test_every_error_class_is_in_the_catalogue_with_its_status() -> None:
    classes = _subclasses(errors.ServiceError) + _subclasses(engine.EngineError)
    assert len(classes) > 30
    for cls in classes:
        assert cls.code in CATALOGUE, cls
        # The engine's errors carry only their code; the API layer gives them their status.
        is_engine = issubclass(cls, engine.EngineError)
        status = errors.engine_status(cls.code) if is_engine else cls.status
        assert status in CATALOGUE[cls.code][0], cls


def test_the_problem_code_is_a_documented_enum() -> None:
    problem = _document()["components"]["schemas"]["Problem"]
    assert problem["properties"]["code"]["enum"] == list(CODES)


def test_every_v1_operation_but_sign_up_and_sign_in_needs_the_bearer_token() -> None:
    document = _document()
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"
    for method, path, operation in _operations(document):
        # Signing up, and signing a device in (docs/API.md, "Accounts"), need no token.
        open_doors = path == "/v1/players" or path.startswith("/v1/sign-in/")
        needs = path.startswith("/v1") and not (method == "post" and open_doors)
        assert (operation.get("security") == [{"HTTPBearer": []}]) == needs, (method, path)


def test_every_example_validates_against_its_own_schema() -> None:
    document = _document()
    schemas = document["components"]["schemas"]
    checked = 0
    for name, schema in schemas.items():
        for example in schema.get("examples", []):
            root = {"$ref": f"#/components/schemas/{name}", "components": document["components"]}
            jsonschema.Draft202012Validator(root).validate(example)
            checked += 1
    assert checked >= 5
    assert (
        msgspec.json.decode(msgspec.json.encode(msgspec.convert(VIEW_EXAMPLE, ViewOut)))
        == VIEW_EXAMPLE
    )


def test_the_event_union_is_in_the_document() -> None:
    schemas = _document()["components"]["schemas"]
    events = schemas["EventsOut"]["properties"]["events"]["items"]
    assert events["discriminator"]["propertyName"] == "type"
    assert set(events["discriminator"]["mapping"]) == set(EVENT_TYPES)
    assert schemas["Event"]["discriminator"] == events["discriminator"]


def test_the_committed_documents_are_current() -> None:
    committed = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    assert committed == json.loads(json.dumps(_document(), sort_keys=True))


async def test_docs_load_every_asset_from_this_server(client: httpx.AsyncClient) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200
    assert "https://" not in page.text and "http://" not in page.text
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css"):
        assert f"/static-offline-docs/{asset}" in page.text
        served = await client.get(f"/static-offline-docs/{asset}")
        assert served.status_code == 200 and len(served.content) > 10_000


def _unions(node: Any) -> list[dict[str, Any]]:
    """Every schema in `node` that is a `oneOf` or an `anyOf`."""
    if isinstance(node, list):
        return [u for item in node for u in _unions(item)]
    if not isinstance(node, dict):
        return []
    here = [node] if "oneOf" in node or "anyOf" in node else []
    return here + [u for value in node.values() for u in _unions(value)]


def _typed(branch: Any) -> bool:
    """A branch a type generator can type: a reference, or a schema of its own type."""
    return isinstance(branch, dict) and bool({"$ref", "type", "enum", "const"} & branch.keys())


def test_no_union_in_the_document_is_a_constraint_only_branch() -> None:
    """openapi-python-client could not type `MatchCreate`, `SeekCreate` or `MoveBody` when their
    properties were narrowed by `oneOf` branches holding constraints only: every branch of every
    union names a type now, and a union of objects is a `oneOf` with its discriminator."""
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    unions = _unions(document)
    assert len(unions) > 50
    for union in unions:
        for branch in union.get("oneOf", union.get("anyOf")):
            assert _typed(branch), union
        assert "discriminator" not in union or "oneOf" in union, union
    schemas = document["components"]["schemas"]
    for name, tag in (("MoveBody", "action"), ("Event", "type")):
        assert schemas[name]["discriminator"]["propertyName"] == tag
        assert "oneOf" in schemas[name]


def test_each_legal_option_with_seq_is_a_move_body() -> None:
    """A `legal` entry, sent back as it is with `seq`, decodes as the move body it offers."""
    from domino_api.engine.move_types import DrawMove, MoveBody, PassMove, PlayMove

    state = engine.new_match(engine.PRESETS["all-fives"], bytes(32))
    state = engine.apply(state, None, engine.Start("cut")).state
    shown = msgspec.to_builtins(engine.view(state, state.hand.turn if state.hand else 0).legal)
    assert shown
    for option in [*shown, {"action": "draw"}, {"action": "pass"}]:
        move = msgspec.convert({**option, "seq": state.seq}, MoveBody)
        assert isinstance(
            move, {"play": PlayMove, "draw": DrawMove, "pass": PassMove}[option["action"]]
        )
