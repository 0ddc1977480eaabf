"""Accounts on every device (docs/API.md, "Accounts"): real WebAuthn ceremonies from a software
authenticator (tests/api/authenticator.py) verified by the service, link codes, sessions and
API keys. The refusals of bad input are in tests/api/test_accounts_wrongs.py."""

from __future__ import annotations

import logging
from typing import Any

import httpx
import pytest

from domino_api.clock import FakeClock
from tests.api.authenticator import Authenticator
from tests.api.helpers import create_match, new_player, view


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(
    client: httpx.AsyncClient, player: dict[str, Any], device: Authenticator, name: str = ""
) -> dict[str, Any]:
    """Register the authenticator's passkey for the player; the answer's body."""
    options = await client.post("/v1/players/me/passkeys/options", headers=player["headers"])
    assert options.status_code == 200, options.text
    body: dict[str, Any] = {
        "ceremony": options.json()["ceremony"],
        "credential": device.create(options.json()),
    }
    if name:
        body["name"] = name
    answer = await client.post("/v1/players/me/passkeys", json=body, headers=player["headers"])
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


async def sign_in(client: httpx.AsyncClient, device: Authenticator) -> httpx.Response:
    """A new device signing in with the authenticator's passkey."""
    options = await client.post("/v1/sign-in/passkey/options")
    assert options.status_code == 200, options.text
    body = {"ceremony": options.json()["ceremony"], "credential": device.get(options.json())}
    return await client.post("/v1/sign-in/passkey", json=body)


async def link_code(client: httpx.AsyncClient, headers: dict[str, str]) -> str:
    answer = await client.post("/v1/players/me/link-codes", headers=headers)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["code"])


async def test_a_passkey_signs_in_another_device_as_the_same_player_with_its_seats(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    match = await create_match(
        client, ana, "all-fives", [{"type": "human"}, {"type": "bot", "strategy": "plain"}]
    )
    started = await client.post(
        f"/v1/matches/{match['id']}/start", json={"cut": "moon"}, headers=ana["headers"]
    )
    assert started.status_code == 200, started.text
    saved = {"settings": {"target": 150}}
    assert (await client.patch("/v1/players/me", json=saved, headers=ana["headers"])).is_success
    phone = Authenticator()
    passkey = await register(client, ana, phone, "Phone")
    assert passkey["name"] == "Phone" and passkey["last_used_at"] is None

    signed = await sign_in(client, phone)
    assert signed.status_code == 201, signed.text
    body = signed.json()
    assert body["player"]["id"] == ana["id"] and body["token"] != ana["token"]
    assert body["session"]["current"] is True
    laptop = bearer(body["token"])
    me = await client.get("/v1/players/me", headers=laptop)
    assert me.json()["id"] == ana["id"] and me.json()["settings"]["target"] == 150
    listed = await client.get("/v1/matches", headers=laptop)
    assert match["id"] in [m["id"] for m in listed.json()["matches"]], listed.text
    # The seat is the player's: the new device sees its hand and moves at it.
    seen = await view(client, {"headers": laptop}, match["id"])
    assert seen["you"]["seat"] == 0 and seen["you"]["hand"]
    if seen["turn"] and seen["turn"]["seat"] == 0:
        move = {**{k: v for k, v in seen["legal"][0].items() if k != "points"}, "seq": seen["seq"]}
        moved = await client.post(f"/v1/matches/{match['id']}/moves", json=move, headers=laptop)
        assert moved.status_code == 200, moved.text
    keys = await client.get("/v1/players/me/passkeys", headers=laptop)
    assert [k["name"] for k in keys.json()] == ["Phone"]
    assert keys.json()[0]["last_used_at"] is not None


async def test_a_player_registers_several_passkeys_and_removes_all_but_its_last_way_in(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    first = await register(client, ana, Authenticator())
    second = await register(client, ana, Authenticator())
    assert [first["name"], second["name"]] == ["Passkey 1", "Passkey 2"]
    gone = await client.delete(f"/v1/players/me/passkeys/{first['id']}", headers=ana["headers"])
    assert gone.status_code == 204
    # The last passkey, while this device's session is the only token: refused.
    kept = await client.delete(f"/v1/players/me/passkeys/{second['id']}", headers=ana["headers"])
    assert kept.status_code == 409 and kept.json()["code"] == "last_way_in", kept.text
    listed = await client.get("/v1/players/me/passkeys", headers=ana["headers"])
    assert [k["id"] for k in listed.json()] == [second["id"]]
    # With a second device signed in, it can go: that device can show a link code.
    code = await link_code(client, ana["headers"])
    assert (await client.post("/v1/sign-in/link", json={"code": code})).status_code == 201
    kept = await client.delete(f"/v1/players/me/passkeys/{second['id']}", headers=ana["headers"])
    assert kept.status_code == 204
    assert (await client.get("/v1/players/me/passkeys", headers=ana["headers"])).json() == []


async def test_a_removed_passkey_signs_nobody_in(client: httpx.AsyncClient) -> None:
    ana = await new_player(client, "Ana")
    phone, spare = Authenticator(), Authenticator()
    doomed = await register(client, ana, phone)
    await register(client, ana, spare)
    await client.delete(f"/v1/players/me/passkeys/{doomed['id']}", headers=ana["headers"])
    refused = await sign_in(client, phone)
    assert refused.status_code == 403 and refused.json()["code"] == "passkey_rejected"
    assert (await sign_in(client, spare)).status_code == 201


async def test_the_same_authenticator_cannot_register_twice(client: httpx.AsyncClient) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    phone = Authenticator()
    await register(client, ana, phone)
    options = await client.post("/v1/players/me/passkeys/options", headers=ana["headers"])
    excluded = options.json()["publicKey"]["excludeCredentials"]
    assert [c["id"] for c in excluded] == [phone.create(options.json())["id"]]
    # Bob's browser would not stop it (not his passkey): the service does.
    options = await client.post("/v1/players/me/passkeys/options", headers=bob["headers"])
    body = {"ceremony": options.json()["ceremony"], "credential": phone.create(options.json())}
    again = await client.post("/v1/players/me/passkeys", json=body, headers=bob["headers"])
    assert again.status_code == 409 and again.json()["code"] == "passkey_registered"
    assert (await client.get("/v1/players/me/passkeys", headers=bob["headers"])).json() == []


async def test_a_link_code_signs_one_device_in_once(
    client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    ana = await new_player(client, "Ana")
    code = await link_code(client, ana["headers"])
    assert len(code) == 9 and code[4] == "-"
    # Typed in lower case, without the hyphen, with O for 0 and I/L for 1: still the code.
    typed = code.replace("-", " ").lower().replace("0", "o").replace("1", "l")
    entered = await client.post("/v1/sign-in/link", json={"code": typed, "device": "Tablet"})
    assert entered.status_code == 201, entered.text
    assert entered.json()["player"]["id"] == ana["id"]
    assert entered.json()["session"]["name"] == "Tablet"
    tablet = bearer(entered.json()["token"])
    assert (await client.get("/v1/players/me", headers=tablet)).json()["id"] == ana["id"]
    again = await client.post("/v1/sign-in/link", json={"code": code})
    assert again.status_code == 404 and again.json()["code"] == "link_code_not_found"
    assert code not in again.text
    # Every request was logged (its access line), and no line holds the code.
    assert caplog.text.count("/v1/sign-in/link") >= 2
    assert code not in caplog.text and code.replace("-", "") not in caplog.text


async def test_a_link_code_expires_and_a_newer_one_replaces_it(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana = await new_player(client, "Ana")
    old = await link_code(client, ana["headers"])
    new = await link_code(client, ana["headers"])
    replaced = await client.post("/v1/sign-in/link", json={"code": old})
    assert replaced.status_code == 404 and replaced.json()["code"] == "link_code_not_found"
    clock.advance(301)  # DOMINO_LINK_CODE_TTL_S is 300
    expired = await client.post("/v1/sign-in/link", json={"code": new})
    assert expired.status_code == 404 and expired.json()["code"] == "link_code_not_found"
    sessions = await client.get("/v1/players/me/sessions", headers=ana["headers"])
    assert len(sessions.json()) == 1


async def test_sessions_are_listed_and_a_device_is_signed_out(
    client: httpx.AsyncClient, clock: FakeClock
) -> None:
    ana = await new_player(client, "Ana")
    clock.advance(1)  # oldest first
    code = await link_code(client, ana["headers"])
    other = (await client.post("/v1/sign-in/link", json={"code": code})).json()
    listed = (await client.get("/v1/players/me/sessions", headers=ana["headers"])).json()
    assert [(s["name"], s["current"]) for s in listed] == [
        ("First device", True),
        ("Linked device", False),
    ]
    assert all("token" not in s for s in listed)
    out = await client.delete(
        f"/v1/players/me/sessions/{other['session']['id']}", headers=ana["headers"]
    )
    assert out.status_code == 204
    gone = await client.get("/v1/players/me", headers=bearer(other["token"]))
    assert gone.status_code == 401 and gone.json()["code"] == "unauthenticated"
    # Ana's one session, and no passkey: signing it out would lock her out for good.
    mine = listed[0]["id"]
    kept = await client.delete(f"/v1/players/me/sessions/{mine}", headers=ana["headers"])
    assert kept.status_code == 409 and kept.json()["code"] == "last_way_in"
    await register(client, ana, Authenticator())
    out = await client.delete(f"/v1/players/me/sessions/{mine}", headers=ana["headers"])
    assert out.status_code == 204
    assert (await client.get("/v1/players/me", headers=ana["headers"])).status_code == 401


async def test_api_keys_are_named_listed_without_secrets_and_revoked_at_once(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    made = await client.post(
        "/v1/players/me/api-keys", json={"name": "Bot"}, headers=ana["headers"]
    )
    assert made.status_code == 201, made.text
    key = made.json()
    bot = bearer(key["token"])
    assert (await client.get("/v1/players/me", headers=bot)).json()["id"] == ana["id"]
    listed = (await client.get("/v1/players/me/api-keys", headers=ana["headers"])).json()
    assert [(k["id"], k["name"]) for k in listed] == [(key["id"], "Bot")]
    assert listed[0]["last_used_at"] is not None and "token" not in listed[0]
    assert key["token"] not in str(listed)
    # A key plays, but manages no account.
    for method, path in (
        ("GET", "/v1/players/me/api-keys"),
        ("POST", "/v1/players/me/link-codes"),
        ("POST", "/v1/players/me/passkeys/options"),
        ("GET", "/v1/players/me/sessions"),
    ):
        refused = await client.request(method, path, headers=bot)
        assert refused.status_code == 403 and refused.json()["code"] == "session_required"
    revoked = await client.delete(f"/v1/players/me/api-keys/{key['id']}", headers=ana["headers"])
    assert revoked.status_code == 204
    after = await client.get("/v1/players/me", headers=bot)
    assert after.status_code == 401 and after.headers["content-type"] == "application/problem+json"
    assert (await client.get("/v1/players/me/api-keys", headers=ana["headers"])).json() == []


async def test_an_api_key_is_no_way_in_so_the_last_session_stays(
    client: httpx.AsyncClient,
) -> None:
    """Issue 48: with one session and one API key, signing the session out left only the key,
    which can make no session (403 session_required): the player was locked out for good."""
    ana = await new_player(client, "Ana")
    made = await client.post(
        "/v1/players/me/api-keys", json={"name": "bot"}, headers=ana["headers"]
    )
    assert made.status_code == 201, made.text
    key = bearer(made.json()["token"])
    mine = (await client.get("/v1/players/me/sessions", headers=ana["headers"])).json()[0]["id"]
    kept = await client.delete(f"/v1/players/me/sessions/{mine}", headers=ana["headers"])
    assert kept.status_code == 409 and kept.json()["code"] == "last_way_in", kept.text
    assert (await client.get("/v1/players/me", headers=ana["headers"])).status_code == 200
    refused = await client.post("/v1/players/me/link-codes", headers=key)
    assert refused.status_code == 403 and refused.json()["code"] == "session_required"
    # The key itself may go: the session is still a way in.
    out = await client.delete(
        f"/v1/players/me/api-keys/{made.json()['id']}", headers=ana["headers"]
    )
    assert out.status_code == 204
    # A passkey is a way in: then the session may be signed out.
    await register(client, ana, Authenticator())
    out = await client.delete(f"/v1/players/me/sessions/{mine}", headers=ana["headers"])
    assert out.status_code == 204
