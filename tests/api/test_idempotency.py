"""Idempotency keys on moves: a retry with the same key and body answers what the first did;
the same key with another body is refused and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.api.helpers import first_legal, view
from tests.jobs.factory import two_seat_match


async def _mover(client: httpx.AsyncClient) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A started two-seat match: its id, the player to move and that player's view."""
    ana, bob, started = await two_seat_match(client, "draw-50")
    mover = ana if started["turn"]["seat"] == 0 else bob
    return started["id"], mover, await view(client, mover, started["id"])


async def test_idempotency_key_returns_first_answer(client: httpx.AsyncClient) -> None:
    mid, mover, mv = await _mover(client)
    body = {**first_legal(mv), "seq": mv["seq"]}
    headers = {**mover["headers"], "Idempotency-Key": "k-1"}
    first = await client.post(f"/v1/matches/{mid}/moves", json=body, headers=headers)
    second = await client.post(f"/v1/matches/{mid}/moves", json=body, headers=headers)
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    after = await view(client, mover, mid)
    assert after["seq"] == first.json()["view"]["seq"]
    # The same body with its members in another order is the same request.
    reordered = json.dumps(dict(reversed(list(body.items()))))
    third = await client.post(
        f"/v1/matches/{mid}/moves",
        content=reordered,
        headers={**headers, "Content-Type": "application/json"},
    )
    assert third.status_code == 200 and third.json() == first.json()


async def test_an_idempotency_key_sent_with_another_body_is_refused(
    client: httpx.AsyncClient,
) -> None:
    mid, mover, mv = await _mover(client)
    headers = {**mover["headers"], "Idempotency-Key": "k-2"}
    first = await client.post(
        f"/v1/matches/{mid}/moves", json={**first_legal(mv), "seq": mv["seq"]}, headers=headers
    )
    assert first.status_code == 200, first.text
    before = await view(client, mover, mid)
    # Another request under the same key (here a draw at the new seq) is not the first one's
    # retry: answering the first answer would tell the client its draw was made.
    other = {"action": "draw", "seq": before["seq"]}
    refused = await client.post(f"/v1/matches/{mid}/moves", json=other, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "idempotency_key_reused"
    after = await view(client, mover, mid)
    assert after == before
