"""The move body as engine/move_types.py types it, read by web/struct_bodies.py: a `legal`
entry is sent back as it is, and a bad body gets the problem a pydantic body got (400
`bad_request` for what is not JSON, 422 `validation_error` naming the field) and changes
nothing."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.helpers import create_match, new_player, view

PLANNER = [{"type": "human"}, {"type": "bot", "strategy": "planner"}]


async def _started(client: httpx.AsyncClient) -> tuple[dict[str, Any], str, dict[str, Any]]:
    ana = await new_player(client, "Ana")
    match = await create_match(client, ana, "all-fives", PLANNER)
    started = await client.post(
        f"/v1/matches/{match['id']}/start", json={"cut": "moon"}, headers=ana["headers"]
    )
    assert started.status_code == 200, started.text
    return ana, match["id"], started.json()


async def _until_a_play(
    client: httpx.AsyncClient, ana: dict[str, Any], match_id: str, shown: dict[str, Any]
) -> dict[str, Any]:
    """The deal is random: the human may have to draw before a tile can be played."""
    while not any(o["action"] == "play" for o in shown["legal"]):
        assert shown["status"] == "playing" and shown["legal"], shown
        sent = await client.post(
            f"/v1/matches/{match_id}/moves",
            json={**shown["legal"][0], "seq": shown["seq"]},
            headers=ana["headers"],
        )
        assert sent.status_code == 200, sent.text
        shown = sent.json()["view"]
    return shown


async def test_every_legal_entry_is_sent_back_as_it_is(client: httpx.AsyncClient) -> None:
    ana, match_id, shown = await _started(client)
    moved = 0
    while shown["status"] == "playing" and moved < 20:
        assert shown["legal"], shown
        entry = shown["legal"][-1]
        sent = await client.post(
            f"/v1/matches/{match_id}/moves",
            json={**entry, "seq": shown["seq"]},
            headers=ana["headers"],
        )
        assert sent.status_code == 200, sent.text
        shown = sent.json()["view"]
        moved += 1
    assert moved > 0


async def test_a_bad_move_body_is_a_problem_and_changes_nothing(
    client: httpx.AsyncClient,
) -> None:
    ana, match_id, shown = await _started(client)
    shown = await _until_a_play(client, ana, match_id, shown)
    seq = shown["seq"]
    play = next(o for o in shown["legal"] if o["action"] == "play")
    url, headers = f"/v1/matches/{match_id}/moves", ana["headers"]
    cases: list[tuple[bytes | dict[str, Any], int, str, str]] = [
        (b"{bad", 400, "bad_request", "not valid JSON"),
        (b"", 422, "validation_error", "body"),
        ({**play, "seq": seq, "extra": 1}, 422, "validation_error", "extra"),
        ({**play, "tile": [3, 13], "seq": seq}, 422, "validation_error", "tile.1"),
        ({**play, "tile": [3, 10], "seq": seq}, 409, "illegal_move", "not in a double-six set"),
        ({**play, "seq": True}, 422, "validation_error", "seq"),
        ({**play, "seq": "3"}, 422, "validation_error", "seq"),
        ({"action": "draw", "tile": [1, 2], "seq": seq}, 422, "validation_error", "tile"),
        ({"action": "jump", "seq": seq}, 422, "validation_error", "action"),
        ({**play, "seq": seq, "end": "middle"}, 422, "validation_error", "end"),
        ({**play, "seq": seq, "name": "a\u0000b"}, 422, "validation_error", "NUL"),
    ]
    for body, status, code, named in cases:
        if isinstance(body, bytes):
            sent = await client.post(
                url, content=body, headers={**headers, "content-type": "application/json"}
            )
        else:
            sent = await client.post(url, json=body, headers=headers)
        assert sent.status_code == status, (body, sent.text)
        problem = sent.json()
        assert problem["code"] == code and named in problem["detail"], (body, problem)
        assert sent.headers["content-type"] == "application/problem+json"
    assert (await view(client, ana, match_id))["seq"] == seq


async def test_a_whole_number_written_as_a_float_is_the_number(
    client: httpx.AsyncClient,
) -> None:
    ana, match_id, shown = await _started(client)
    entry = shown["legal"][0]
    sent = await client.post(
        f"/v1/matches/{match_id}/moves",
        json={**entry, "seq": float(shown["seq"])},
        headers=ana["headers"],
    )
    assert sent.status_code == 200, sent.text
