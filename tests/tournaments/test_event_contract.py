"""The tournament feed's answers against their published contract: openapi.json's
`TournamentEventsOut` schema (generated from tournaments/event_types.py) and the Structs
themselves, decoded strictly, for every event type a tournament makes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import msgspec

from domino_api.clock import FakeClock
from domino_api.jobs.sweeper import sweep_pass
from domino_api.tournaments.event_types import EVENT_TYPE, TournamentEventsOut
from tests.api.helpers import new_player
from tests.tournaments.test_api_tournaments import create, make_players, run_to_end, started

OPENAPI = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def _validator() -> jsonschema.Draft202012Validator:
    document = json.loads(OPENAPI.read_text())
    root = {
        "$ref": "#/components/schemas/TournamentEventsOut",
        "components": document["components"],
    }
    return jsonschema.Draft202012Validator(root, format_checker=jsonschema.FormatChecker())


async def _answer(client: httpx.AsyncClient, who: dict[str, Any], tid: str) -> bytes:
    r = await client.get(f"/v1/tournaments/{tid}/events", headers=who["headers"])
    assert r.status_code == 200, r.text
    return r.content


async def test_every_event_type_meets_the_published_schema(
    client: httpx.AsyncClient, app: Any, clock: FakeClock
) -> None:
    answers = []
    players = await make_players(client, 5)
    host, t = await started(client, players, "single_elimination")
    await run_to_end(client, players, t["id"])
    answers.append(await _answer(client, host, t["id"]))
    # One who leaves, and a tournament cancelled because nobody checked in.
    leaver = await new_player(client, "Leaver")
    open_one = await create(client, leaver)
    for method, path in (("POST", "entrants"), ("DELETE", "entrants/me")):
        url = f"/v1/tournaments/{open_one['id']}/{path}"
        r = await client.request(method, url, headers=leaver["headers"])
        assert r.status_code == 200, r.text
    answers.append(await _answer(client, leaver, open_one["id"]))
    pair = await make_players(client, 2)
    pair_host, cancelled = await started(client, pair, "single_elimination")
    clock.advance(301)
    await sweep_pass(app.state.core)
    answers.append(await _answer(client, pair_host, cancelled["id"]))

    validator, seen = _validator(), set()
    for body in answers:
        validator.validate(json.loads(body))
        decoded = msgspec.json.decode(body, type=TournamentEventsOut, strict=True)
        seen |= {type(e.data) for e in decoded.events}
    assert seen == set(EVENT_TYPE)  # every type was checked


def test_a_changed_shape_fails_the_schema() -> None:
    bad = {
        "events": [
            {"seq": 1, "type": "entrant_left", "at": "2026-12-01T12:00:00Z", "data": {}},
        ]
    }
    assert list(_validator().iter_errors(bad))
    bad["events"][0]["data"] = {"player_id": "p", "extra": 1}
    assert list(_validator().iter_errors(bad))
