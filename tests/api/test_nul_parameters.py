"""Every query and path parameter of every route in openapi.json, given a NUL character, huge
text or odd unicode: a 4xx problem document, never a 500 (PostgreSQL stores no NUL, and a
tournament entry's `?partner=` with one reached it). A NUL in a query parameter is refused
before any route as `422 validation_error` naming it; in a path, `404 not_found`."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.api.helpers import create_match, new_player

pytestmark = pytest.mark.asyncio(loop_scope="session")

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
# Percent-encoded as sent: a NUL, text of every odd kind, and bytes that are no UTF-8 at all.
NUL = ["%00", "ab%00cd", "%00" * 40]
ODD = [
    quote("x" * 5000),
    quote("\u202e" + "a" * 10),  # a right-to-left override
    quote("\ufeff"),
    quote("\U0001f0a0" * 9),
    quote("e\u0301"),
    quote("\uffff\u2028"),
    "%FF%FE",  # no UTF-8
    "%ED%A0%80",  # a lone surrogate's bytes
    "%25%30%30",  # "%00" as text
    "..%2F..%2Fetc",
]


def _sample(schema: dict[str, Any], name: str, ids: dict[str, str]) -> str:
    """A value the parameter takes, so that only the one under test is odd."""
    schema = next((s for s in schema.get("anyOf", [schema]) if s.get("type") != "null"), schema)
    if "enum" in schema:
        return str(schema["enum"][0])
    if schema.get("type") == "integer":
        return str(schema.get("minimum", 0))
    if schema.get("type") == "boolean":
        return "true"
    return ids.get(name, "x")


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    found = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            params = [p for p in operation.get("parameters", []) if p["in"] in ("query", "path")]
            if params:
                found.append((method.upper(), path, params))
    return found


def _url(path: str, params: list[dict[str, Any]], odd: str, value: str, ids: dict[str, str]) -> str:
    query = []
    for param in params:
        name = param["name"]
        sent = value if name == odd else quote(_sample(param["schema"], name, ids))
        if param["in"] == "path":
            path = path.replace("{" + name + "}", sent)
        else:
            query.append(f"{name}={sent}")
    return path + ("?" + "&".join(query) if query else "")


async def _ids(client: httpx.AsyncClient, host: dict[str, Any]) -> dict[str, str]:
    """Ids of things that are there, so an odd query parameter meets a real resource."""
    mid = (await create_match(client, host, "all-fives", SEATS))["id"]
    body = {"name": "Cup", "format": "round_robin", "preset": "partners-block"}
    body |= {"match": {"target": 50}, "max_entrants": 4}
    created = await client.post("/v1/tournaments", json=body, headers=host["headers"])
    assert created.status_code == 201, created.text
    return {
        "match_id": mid,
        "tournament_id": created.json()["id"],
        "player_id": host["id"],
        "players": host["id"],
    }


def _problem(r: httpx.Response) -> dict[str, Any]:
    assert r.headers["content-type"] == "application/problem+json", (r.request.url, r.text)
    body: dict[str, Any] = r.json()
    assert body["status"] == r.status_code
    return body


async def test_a_nul_in_any_query_or_path_parameter_is_a_4xx_problem(
    client: httpx.AsyncClient,
) -> None:
    host = await new_player(client, "Ana")
    ids = await _ids(client, host)
    operations = _operations((await client.get("/openapi.json")).json())
    assert len(operations) > 40  # the walk reaches the routes, not an empty document
    for method, path, params in operations:
        for param in params:
            for value in NUL:
                url = _url(path, params, param["name"], value, ids)
                body = {} if method in ("POST", "PUT", "PATCH") else None
                r = await client.request(method, url, json=body, headers=host["headers"])
                problem = _problem(r)
                if param["in"] == "path":
                    assert (r.status_code, problem["code"]) == (404, "not_found"), (url, r.text)
                else:
                    assert (r.status_code, problem["code"]) == (422, "validation_error"), url
                    assert problem["detail"].startswith(f"query.{param['name']}: "), r.text
                    assert "NUL" in problem["detail"]


async def test_huge_or_odd_text_in_any_query_or_path_parameter_is_never_a_500(
    client: httpx.AsyncClient,
) -> None:
    host = await new_player(client, "Ana")
    ids = await _ids(client, host)
    operations = _operations((await client.get("/openapi.json")).json())
    for method, path, params in operations:
        for param in params:
            for value in ODD:
                url = _url(path, params, param["name"], value, ids)
                body = {} if method in ("POST", "PUT", "PATCH") else None
                r = await client.request(method, url, json=body, headers=host["headers"])
                assert r.status_code < 500, (method, url, r.status_code, r.text[:300])
                if r.status_code >= 400:
                    _problem(r)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize("path", ["/v1/matches", "/v1/lobby?preset=all-fives", "/v1/tournaments"])
async def test_a_cursor_whose_keyset_holds_a_nul_is_not_one_this_server_gave(
    client: httpx.AsyncClient, path: str
) -> None:
    """The NUL hidden inside a cursor's base64 passes the query's own look: the cursor's
    reader refuses it, as anything else no page of this server gave."""
    host = await new_player(client, "Ana")
    for keyset in ("2026-12-01T00:00:00+00:00|ab\x00cd", "2026-12-01T00:00:00+00:00|\x00"):
        sep = "&" if "?" in path else "?"
        r = await client.get(f"{path}{sep}cursor={_b64(keyset.encode())}", headers=host["headers"])
        assert r.status_code == 422, (path, r.text)
        assert _problem(r)["detail"].startswith("cursor: "), r.text


async def test_a_leaderboard_cursor_naming_a_nul_player_is_not_one_this_server_gave(
    client: httpx.AsyncClient,
) -> None:
    host = await new_player(client, "Ana")
    for keyset in ([1500.0, "ab\x00cd", 3], [1500.0, "\x00", 0]):
        cursor = _b64(json.dumps(keyset).encode())
        params = {"preset": "all-fives", "cursor": cursor}
        r = await client.get("/v1/ratings/leaderboard", params=params, headers=host["headers"])
        assert r.status_code == 422, r.text
        assert _problem(r)["detail"].startswith("cursor: "), r.text
