"""The contract types what it sends and refuses what it does not know: the view's, the
catalogue's and the ledger's rulesets, the ledger's records and tournament events each have a
schema, and a match option outside MatchOptions is a 4xx that names it."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema

from domino_api.app.api import create_app
from tests.api.helpers import create_match, new_player


def _schemas() -> dict[str, Any]:
    schemas: dict[str, Any] = create_app().openapi()["components"]["schemas"]
    return schemas


def _open_objects(node: Any, path: str = "") -> list[str]:
    """Every object schema that takes any member: what a generator can only type as unknown."""
    found: list[str] = []
    if isinstance(node, dict):
        if node.get("additionalProperties") not in (None, False) or (
            node.get("type") == "object" and "properties" not in node and "$ref" not in node
        ):
            found.append(path)
        for key, value in node.items():
            found += _open_objects(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _open_objects(value, f"{path}/{i}")
    return found


def test_only_the_problem_document_is_open() -> None:
    assert _open_objects(_schemas()) == ["/Problem"]


async def test_an_unknown_match_option_is_refused_by_name(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Ana")
    body = {"ruleset": "all-fives", "options": {"target": 100, "colour": "red"}}
    refused = await client.post("/v1/matches", json=body, headers=host["headers"])
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "bad_options"
    assert "options.colour" in refused.json()["detail"]


async def test_the_ledger_and_the_catalogue_fit_their_typed_schemas(
    client: httpx.AsyncClient,
) -> None:
    host = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    match = await create_match(client, host, "all-fives", seats, {"target": 300})
    started = await client.post(
        f"/v1/matches/{match['id']}/start", json={}, headers=host["headers"]
    )
    assert started.status_code == 200, started.text
    resign = await client.post(
        f"/v1/matches/{match['id']}/resign", json={}, headers=host["headers"]
    )
    assert resign.status_code == 200, resign.text
    components = {"components": {"schemas": _schemas()}}
    ledger = await client.get(f"/v1/matches/{match['id']}/ledger", headers=host["headers"])
    catalogue = await client.get("/v1/rulesets", headers=host["headers"])
    for answer, name in ((ledger, "LedgerOut"), (catalogue, "RulesetsOut")):
        assert answer.status_code == 200, answer.text
        schema = {"$ref": f"#/components/schemas/{name}", **components}
        jsonschema.Draft202012Validator(schema).validate(answer.json())
    assert ledger.json()["ruleset"]["name"] == "all-fives"
    assert ledger.json()["ruleset"]["target"] == 300
    assert ledger.json()["hands"][0]["moves"] or ledger.json()["result"]["reason"] == "forfeit"


async def test_a_405_allows_every_method_of_its_path(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    match = await create_match(client, host, "all-fives", seats)
    cases = [
        (f"/v1/matches/{match['id']}/lock", "DELETE, PUT"),
        (f"/v1/matches/{match['id']}/seats/1/autopilot", "DELETE, PUT"),
        ("/v1/players/me", "GET, PATCH"),
        ("/v1/matches/join", "POST"),  # not /v1/matches/{match_id}'s GET
    ]
    for path, allowed in cases:
        other = "PATCH" if "POST" in allowed else "POST"
        answer = await client.request(other, path, headers=host["headers"])
        assert answer.status_code == 405, (path, answer.text)
        assert answer.headers["allow"] == allowed, path


async def test_a_slash_too_many_is_not_found_and_nothing_redirects_by_the_host(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    spoofed = {**ana["headers"], "Host": "evil.example"}
    for path in ("/v1/players/me/", "/healthz/", "/v1/rulesets/"):
        answer = await client.get(path, headers=spoofed)
        assert (answer.status_code, answer.json()["code"]) == (404, "not_found"), path
        assert "location" not in answer.headers
    play = await client.get("/play", headers=spoofed)
    assert (play.status_code, play.headers["location"]) == (307, "/play/")
    assert (await client.get("/play/")).status_code == 200


async def test_a_detail_names_fields_not_validators(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    # One fault in the body: a refusal names the first it meets (msgspec reads on no further).
    goal = {"target": 100, "best_of": 3}
    body = {"name": "Cup", "format": "single_elimination", "match": goal, "max_entrants": 4}
    refused = await client.post("/v1/tournaments", json=body, headers=ana["headers"])
    assert refused.status_code == 422, refused.text
    detail = refused.json()["detail"]
    assert detail.startswith("match.") and "[" not in detail and "function" not in detail, detail
    assert detail == "match.best_of: Extra inputs are not permitted", detail
    # An empty Idempotency-Key is no key: refused, not kept.
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    match = await create_match(client, ana, "all-fives", seats)
    keyed = {**ana["headers"], "Idempotency-Key": ""}
    empty = await client.post(
        f"/v1/matches/{match['id']}/moves", json={"action": "draw", "seq": 0}, headers=keyed
    )
    assert (empty.status_code, empty.json()["code"]) == (422, "validation_error"), empty.text


async def test_a_header_sent_twice_is_refused_not_guessed(client: httpx.AsyncClient) -> None:
    ana, eve = await new_player(client, "Ana"), await new_player(client, "Eve")
    seats = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    match = await create_match(client, ana, "all-fives", seats)
    for first, second in ((ana, eve), (eve, ana), (ana, ana)):
        twice = [("Authorization", first["headers"]["Authorization"])]
        twice.append(("Authorization", second["headers"]["Authorization"]))
        answer = await client.get("/v1/players/me", headers=twice)
        assert (answer.status_code, answer.json()["code"]) == (401, "unauthenticated")
    keys = [("Authorization", ana["headers"]["Authorization"])]
    keys += [("Idempotency-Key", "k1"), ("Idempotency-Key", "k2")]
    move = await client.post(
        f"/v1/matches/{match['id']}/moves", json={"action": "draw", "seq": 0}, headers=keys
    )
    assert (move.status_code, move.json()["code"]) == (422, "validation_error"), move.text
    assert "Idempotency-Key" in move.json()["detail"]


async def test_a_route_without_a_body_refuses_one_and_changes_nothing(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    seats = [{"type": "human"}, {"type": "human"}]
    match = await create_match(client, ana, "all-fives", seats)
    lock = f"/v1/matches/{match['id']}/lock"
    for stray in ("{bad", '{"locked": false}', "[]", "null"):
        headers = {**ana["headers"], "Content-Type": "application/json"}
        refused = await client.put(lock, content=stray, headers=headers)
        assert (refused.status_code, refused.json()["code"]) == (422, "validation_error"), stray
    view = await client.get(f"/v1/matches/{match['id']}", headers=ana["headers"])
    assert view.json()["claims_locked"] is False
    for nothing in ("", " { } "):
        headers = {**ana["headers"], "Content-Type": "application/json"}
        locked = await client.put(lock, content=nothing, headers=headers)
        assert locked.status_code == 200 and locked.json()["claims_locked"] is True, nothing


async def test_what_the_schema_allows_the_server_takes(client: httpx.AsyncClient) -> None:
    host = await new_player(client, "Ana")
    # JSON Schema's integer includes 2.0; an option's null is as if it were not given.
    body = {
        "ruleset": "all-fives",
        "options": {"target": 150.0, "spectators": None, "hand_size": None},
        "seats": [{"type": "human"}, {"type": "bot", "strategy": "plain"}],
    }
    created = await client.post("/v1/matches", json=body, headers=host["headers"])
    assert created.status_code == 201, created.text
    assert created.json()["ruleset"]["target"] == 150
    match_id = created.json()["id"]
    # A seat the match does not have is not found; a computer's seat takes no autopilot.
    missing = await client.put(f"/v1/matches/{match_id}/seats/3/autopilot", headers=host["headers"])
    assert (missing.status_code, missing.json()["code"]) == (404, "seat_not_found")
    bot = await client.put(f"/v1/matches/{match_id}/seats/1/autopilot", headers=host["headers"])
    assert (bot.status_code, bot.json()["code"]) == (409, "seat_unavailable")
    half = {**body, "options": {"target": 150.5}}
    refused = await client.post("/v1/matches", json=half, headers=host["headers"])
    assert refused.status_code == 422, refused.text


async def test_a_saved_setting_a_preset_does_not_take_is_ignored(
    client: httpx.AsyncClient,
) -> None:
    host = await new_player(client, "Ana")
    for opener in ("alternate_any", "winner_any"):
        settings = {"settings": {"next_opener": opener, "draw": "one"}}
        saved = await client.patch("/v1/players/me", json=settings, headers=host["headers"])
        assert saved.status_code == 200, saved.text
        created = await client.post(
            "/v1/matches", json={"ruleset": "all-fives"}, headers=host["headers"]
        )
        assert created.status_code == 201, created.text
        assert created.json()["ruleset"]["next_opener"] == "winner_any_lock_reshuffle"
    # Where the preset takes it, the setting still applies.
    classic = await client.post("/v1/matches", json={"ruleset": "classic"}, headers=host["headers"])
    assert classic.status_code == 201, classic.text
    assert classic.json()["ruleset"]["next_opener"] == "winner_any"
    assert classic.json()["ruleset"]["draw"] == "one"
