"""Wrong input to the accounts' routes: forged, replayed and misdirected passkey answers,
spent or guessed link codes, another player's ids, huge bodies and NUL characters. Each is a
4xx problem document and changes nothing (docs/API.md, "Accounts")."""

from __future__ import annotations

from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric import ec

from domino_api.clock import FakeClock
from tests.api.authenticator import Authenticator, b64
from tests.api.helpers import new_player
from tests.api.test_accounts import bearer, link_code, register, sign_in


async def options_for_sign_in(client: httpx.AsyncClient) -> dict[str, Any]:
    answer = await client.post("/v1/sign-in/passkey/options")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def sessions_of(client: httpx.AsyncClient, player: dict[str, Any]) -> int:
    return len((await client.get("/v1/players/me/sessions", headers=player["headers"])).json())


def refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/problem+json"
    assert answer.json()["code"] == code, answer.text


async def test_forged_misdirected_and_replayed_assertions_sign_nobody_in(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    phone = Authenticator()
    await register(client, ana, phone)
    wrongs: list[tuple[str, dict[str, Any]]] = [
        ("another key", {"signer": ec.generate_private_key(ec.SECP256R1())}),
        ("another origin", {"origin": "https://evil.example"}),
        ("another site", {"rp_id": "evil.example"}),
        ("inside another site's frame", {"top_origin": "https://evil.example"}),
    ]
    for _, wrong in wrongs:
        options = await options_for_sign_in(client)
        body = {"ceremony": options["ceremony"], "credential": phone.get(options, **wrong)}
        refused(await client.post("/v1/sign-in/passkey", json=body), 403, "passkey_rejected")
    # A genuine answer, replayed: its ceremony is spent, and another ceremony's challenge
    # is not the one it signed.
    options = await options_for_sign_in(client)
    body = {"ceremony": options["ceremony"], "credential": phone.get(options)}
    assert (await client.post("/v1/sign-in/passkey", json=body)).status_code == 201
    refused(await client.post("/v1/sign-in/passkey", json=body), 404, "ceremony_not_found")
    fresh = await options_for_sign_in(client)
    replayed = {**body, "ceremony": fresh["ceremony"]}
    refused(await client.post("/v1/sign-in/passkey", json=replayed), 403, "passkey_rejected")
    assert await sessions_of(client, ana) == 2  # the first device and the one genuine sign-in


async def test_a_cloned_authenticator_behind_on_its_counter_is_refused(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    phone = Authenticator()
    await register(client, ana, phone)
    phone.counter = 5
    assert (await sign_in(client, phone)).status_code == 201  # counter 6 stored
    phone.counter = 2  # a copy of the key that has signed less
    refused(await sign_in(client, phone), 403, "passkey_rejected")
    assert (await sign_in(client, phone)).status_code == 403  # 4: still behind
    phone.counter = 10
    assert (await sign_in(client, phone)).status_code == 201


async def test_ceremonies_are_the_callers_own_one_purpose_and_expire(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    phone = Authenticator()
    options = (await client.post("/v1/players/me/passkeys/options", headers=ana["headers"])).json()
    body = {"ceremony": options["ceremony"], "credential": phone.create(options)}
    as_bob = await client.post("/v1/players/me/passkeys", json=body, headers=bob["headers"])
    refused(as_bob, 404, "ceremony_not_found")
    sign_in_ceremony = (await options_for_sign_in(client))["ceremony"]
    wrong_purpose = {**body, "ceremony": sign_in_ceremony}
    answer = await client.post(
        "/v1/players/me/passkeys", json=wrong_purpose, headers=ana["headers"]
    )
    refused(answer, 404, "ceremony_not_found")
    clock.advance(301)  # DOMINO_WEBAUTHN_TIMEOUT_S is 300
    late = await client.post("/v1/players/me/passkeys", json=body, headers=ana["headers"])
    refused(late, 404, "ceremony_not_found")
    for player in (ana, bob):
        listed = await client.get("/v1/players/me/passkeys", headers=player["headers"])
        assert listed.json() == []


async def test_a_registration_that_does_not_verify_keeps_nothing(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    options = (await client.post("/v1/players/me/passkeys/options", headers=ana["headers"])).json()
    good = Authenticator().create(options)
    bad_parts = {
        "another origin": Authenticator().create(options, origin="https://evil.example"),
        "another site": Authenticator().create(options, rp_id="evil.example"),
        "inside another site's frame": Authenticator().create(
            options, top_origin="https://evil.example"
        ),
        "not CBOR": {**good, "response": {**good["response"], "attestationObject": b64(b"x")}},
        "not JSON": {**good, "response": {**good["response"], "clientDataJSON": b64(b"{")}},
        "not base64url": {**good, "rawId": "abcde"},
    }
    for what, credential in bad_parts.items():
        body = {"ceremony": options["ceremony"], "credential": credential}
        answer = await client.post("/v1/players/me/passkeys", json=body, headers=ana["headers"])
        assert answer.status_code == 403, (what, answer.text)
        assert answer.json()["code"] == "passkey_rejected", (what, answer.text)
    # Nothing was kept, and the ceremony is still good for the genuine answer.
    assert (await client.get("/v1/players/me/passkeys", headers=ana["headers"])).json() == []
    body = {"ceremony": options["ceremony"], "credential": good}
    assert (
        await client.post("/v1/players/me/passkeys", json=body, headers=ana["headers"])
    ).status_code == 201


async def test_another_players_ids_are_not_found_and_left_alone(
    client: httpx.AsyncClient,
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    key = (
        await client.post("/v1/players/me/api-keys", json={"name": "Bot"}, headers=ana["headers"])
    ).json()
    passkey = await register(client, ana, Authenticator())
    session = (await client.get("/v1/players/me/sessions", headers=ana["headers"])).json()[0]
    for path, code in (
        (f"/v1/players/me/api-keys/{key['id']}", "api_key_not_found"),
        (f"/v1/players/me/passkeys/{passkey['id']}", "passkey_not_found"),
        (f"/v1/players/me/sessions/{session['id']}", "session_not_found"),
        (f"/v1/players/me/sessions/{key['id']}", "session_not_found"),  # a key is no session
    ):
        refused(await client.delete(path, headers=bob["headers"]), 404, code)
    assert (await client.get("/v1/players/me", headers=bearer(key["token"]))).status_code == 200
    assert len((await client.get("/v1/players/me/passkeys", headers=ana["headers"])).json()) == 1
    assert (await client.get("/v1/players/me", headers=ana["headers"])).status_code == 200
    odd = await client.delete("/v1/players/me/api-keys/a%20b", headers=ana["headers"])
    refused(odd, 422, "validation_error")


async def test_nul_huge_and_malformed_bodies_are_refused(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    for path, body in (
        ("/v1/players/me/api-keys", {"name": "Bot\u0000"}),
        ("/v1/players/me/api-keys", {"name": "Bot", "scope": "all"}),
        ("/v1/players/me/api-keys", {"name": 7}),
        ("/v1/sign-in/link", {"code": "ABCD\u0000EFGH"}),
        ("/v1/sign-in/link", {"code": "A" * 33}),
        ("/v1/sign-in/link", {"code": "ABCD-EFGH", "device": "\u202etablet"}),
        ("/v1/sign-in/passkey", {"ceremony": "x", "credential": {"id": "\u0000"}}),
    ):
        refused(await client.post(path, json=body, headers=ana["headers"]), 422, "validation_error")
    huge = {"name": "Bot", "pad": "x" * 2_000_000}
    answer = await client.post("/v1/players/me/api-keys", json=huge, headers=ana["headers"])
    refused(answer, 413, "payload_too_large")
    assert (await client.get("/v1/players/me/api-keys", headers=ana["headers"])).json() == []
    refused(await client.post("/v1/players/me/passkeys/options"), 401, "unauthenticated")


async def test_link_code_entries_are_budgeted_per_address(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    code = await link_code(client, ana["headers"])
    wrong = "ZZZZ-ZZZZ" if code != "ZZZZ-ZZZZ" else "YYYY-YYYY"
    for _ in range(20):  # DOMINO_SIGN_IN_RATE_LIMIT
        refused(
            await client.post("/v1/sign-in/link", json={"code": wrong}), 404, "link_code_not_found"
        )
    answer = await client.post("/v1/sign-in/link", json={"code": code})
    refused(answer, 429, "rate_limited")
    assert int(answer.headers["retry-after"]) >= 1
    assert await sessions_of(client, ana) == 1
