"""Idempotency keys on moves: a retry with the same key and body answers what the first did;
the same key with another body is refused and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import httpx
import msgspec

from domino_api.engine.move_types import MoveBody, move_request
from domino_api.store.idempotency import key_for
from tests.api.helpers import first_legal, view
from tests.jobs.factory import two_seat_match

Player = dict[str, Any]


async def _mover(client: httpx.AsyncClient) -> tuple[str, Player, Player, dict[str, Any]]:
    """A started two-seat match: its id, the player to move, the other one, the mover's view."""
    ana, bob, started = await two_seat_match(client, "draw-50")
    mover, other = (ana, bob) if started["turn"]["seat"] == 0 else (bob, ana)
    return started["id"], mover, other, await view(client, mover, started["id"])


async def test_idempotency_key_returns_first_answer(client: httpx.AsyncClient) -> None:
    mid, mover, _, mv = await _mover(client)
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
    mid, mover, other, mv = await _mover(client)
    headers = {**mover["headers"], "Idempotency-Key": "k-2"}
    first = await client.post(
        f"/v1/matches/{mid}/moves", json={**first_legal(mv), "seq": mv["seq"]}, headers=headers
    )
    assert first.status_code == 200, first.text
    before = await _until_the_turn_of(client, mid, mover, other, mv["turn"]["seat"])
    # The mover's next move, legal, under the same key: not the first move's retry, so not
    # answered with the first answer (which would tell the client this move was made).
    again = {**first_legal(before), "seq": before["seq"]}
    refused = await client.post(f"/v1/matches/{mid}/moves", json=again, headers=headers)
    assert refused.status_code == 422, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "idempotency_key_reused"
    assert await view(client, mover, mid) == before
    # With a new key the same move is made.
    fresh = {**mover["headers"], "Idempotency-Key": "k-3"}
    made = await client.post(f"/v1/matches/{mid}/moves", json=again, headers=fresh)
    assert made.status_code == 200, made.text


async def test_a_tile_that_is_no_tile_is_refused_with_or_without_a_key(
    client: httpx.AsyncClient,
) -> None:
    """Found by the fuzz test: a pip beyond 64 bits with a key was a 500 (its digest could not
    be written); a pip outside 0-12 is no tile, refused before anything reads it."""
    mid, mover, _, mv = await _mover(client)
    for tile in ([21035814028367601074176, -1249], [3, 13], [-1, 2]):
        body = {"action": "play", "tile": tile, "end": None, "seq": mv["seq"]}
        for extra in ({}, {"Idempotency-Key": "k-4"}):
            refused = await client.post(
                f"/v1/matches/{mid}/moves", json=body, headers={**mover["headers"], **extra}
            )
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "validation_error"
    assert await view(client, mover, mid) == mv


def test_a_key_reads_the_move_not_its_spelling() -> None:
    """A tile named either way round is one move (the engine's canonical form); any other
    field that differs makes another request."""

    def digest(**fields: Any) -> str:
        body = msgspec.convert({"action": "play", "end": "left", "seq": 4, **fields}, MoveBody)
        return key_for("k", move_request(body)).request

    assert digest(tile=[3, 5]) == digest(tile=[5, 3])
    assert digest(tile=[3, 5]) != digest(tile=[3, 4])
    assert digest(tile=[3, 5]) != digest(tile=[3, 5], seq=5)
    assert digest(tile=[3, 5]) != digest(tile=[3, 5], end="right")
    assert digest(tile=[3, 5]) != digest(tile=[3, 5], seat=1)
    # What a play scores is sent back as `legal` offered it, and never read.
    assert digest(tile=[3, 5]) == digest(tile=[3, 5], points=10)


async def _until_the_turn_of(
    client: httpx.AsyncClient, mid: str, mover: Player, other: Player, seat: int
) -> dict[str, Any]:
    """The other player acts (plays, draws, passes) until it is `seat`'s turn: the mover's view."""
    for _ in range(40):  # a hand of draw-50 ends long before
        mine = await view(client, mover, mid)
        if (mine["turn"] or {}).get("seat") == seat:
            return mine
        theirs = await view(client, other, mid)
        acted = await client.post(
            f"/v1/matches/{mid}/moves",
            json={**first_legal(theirs), "seq": theirs["seq"]},
            headers=other["headers"],
        )
        assert acted.status_code == 200, acted.text
    raise AssertionError("the turn never came back")
