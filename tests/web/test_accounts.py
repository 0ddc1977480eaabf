"""Accounts at /play in Chromium with its virtual authenticator (CDP `WebAuthn`): a player adds
a passkey on the first page, a second browser holding the same passkey signs in and sees the
player's matches, and a third browser is linked by a one-time code. The page is served at
http://localhost:PORT: passkeys need a domain (`localhost`) as their relying-party id.

Screenshot: test-output/web/accounts.png (the account panel: a passkey, three devices, a key)."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, CDPSession, Page, expect

from domino_api.store.db import to_plain_url
from tests.support.servers import ServerProcess, drop_database, fresh_database_sync
from tests.web.conftest import SERVER_ENV, Player
from tests.web.helpers import sign_in, start_solo

DB = f"{os.environ.get('DOMINO_TEST_DB', 'domino_test')}_web_accounts_{os.getpid()}"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    url = to_plain_url(fresh_database_sync(DB))
    log = tmp_path_factory.mktemp("accounts") / "server.log"
    served = ServerProcess(url, log, env=SERVER_ENV, ready_path="/readyz")
    served.start()
    try:
        served.wait_ready()
        yield served
    finally:
        served.stop()
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, drop_database(DB)).result()


@pytest.fixture
def people(browser: Browser, server: ServerProcess) -> Iterator[Callable[[], Player]]:
    """people() -> a new browser (context) at http://localhost:PORT; no console errors."""
    made: list[Player] = []

    def new() -> Player:
        context = browser.new_context(viewport={"width": 1280, "height": 1300})
        person = Player(context, f"http://localhost:{server.port}")
        made.append(person)
        return person

    yield new
    errors = [error for person in made for error in person.errors]
    for person in made:
        person.context.close()
    assert errors == [], f"console errors: {errors}"


def authenticator(page: Page) -> tuple[CDPSession, str]:
    """A platform authenticator with user verification, as a phone's or a laptop's."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    return cdp, str(made["authenticatorId"])


def credentials(cdp: CDPSession, authenticator_id: str) -> list[dict[str, Any]]:
    found = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator_id})
    return list(found["credentials"])


def open_account(page: Page) -> None:
    page.locator("details.account summary").click()
    expect(page.locator("details.account ul.devices li").first).to_be_visible()


def test_passkey_and_link_code_bring_the_player_to_other_browsers(
    people: Callable[[], Player],
) -> None:
    ana = people()
    cdp, phone = authenticator(ana.page)
    page = ana.open("solo")
    sign_in(page, "Ana")
    start_solo(page, "all-fives", "plain")
    match_id = page.url.split("#/match/")[1]

    page = ana.open("")
    open_account(page)
    page.locator("button:text('Add a passkey')").click()
    expect(page.locator("ul.passkeys li[data-id]")).to_have_count(1)
    expect(page.locator("ul.passkeys")).to_contain_text("Passkey 1")
    [passkey] = credentials(cdp, phone)
    assert passkey["isResidentCredential"] and passkey["rpId"] == "localhost"

    # A second browser holding the same passkey (as a synced one would be) signs in with it.
    laptop = people()
    laptop_cdp, laptop_key = authenticator(laptop.page)
    shared = {"authenticatorId": laptop_key, "credential": passkey}
    laptop_cdp.send("WebAuthn.addCredential", shared)
    second = laptop.open("")
    expect(second.locator("h2")).to_have_text("Play dominoes")
    second.locator("button:text('Sign in with a passkey')").click()
    expect(second.locator("h2")).to_have_text("Welcome back, Ana")
    row = second.locator(f".my-match[data-match='{match_id}']")
    expect(row.locator("a:text('Continue')")).to_be_visible()
    row.locator("a:text('Continue')").click()
    expect(second.locator(".hand .tile").first).to_be_visible()  # the seat's own hand
    assert credentials(laptop_cdp, laptop_key)[0]["signCount"] >= 1

    # A third browser, with no passkey at all, is linked by a code the first one shows.
    page.locator("button:text('Link a device')").click()
    code = page.locator(".link-code").inner_text()
    tablet = people()
    third = tablet.open("")
    third.fill("#link-code", code)
    third.locator("button:text('Link this device')").click()
    expect(third.locator("h2")).to_have_text("Welcome back, Ana")
    expect(third.locator(f".my-match[data-match='{match_id}']")).to_be_visible()

    # The first browser lists the three devices; signing the tablet out ends its session.
    page.reload()
    open_account(page)
    devices = page.locator("ul.devices li[data-id]")
    expect(devices).to_have_count(3)
    expect(page.locator("ul.devices")).to_contain_text("(this device)")
    page.fill("#api-key-name", "Bot")
    page.locator("button:text('Create key')").click()
    expect(page.locator("ul.api-keys li[data-id]")).to_have_count(1)
    key = page.locator(".api-key").inner_text()
    assert len(key) >= 40 and key not in page.locator("ul.api-keys").inner_text()
    ana.shot("accounts")
    devices.filter(has_text="Linked device").locator("button:text('Sign out')").click()
    expect(devices).to_have_count(2)
    tablet.allowed.append(re.compile("status of 401"))  # Chromium logs the refused fetch
    answer = third.evaluate(
        """async () => { try { await (await import("./api.js")).call("GET", "/v1/players/me"); }
           catch (e) { return e.status; } return 200; }"""
    )
    assert answer == 401
    # The signed-out browser forgot the player: it offers to sign in again.
    third.reload()
    expect(third.locator("h2")).to_have_text("Play dominoes")
    expect(third.locator("button:text('Sign in with a passkey')")).to_be_visible()


def test_a_browser_signed_out_elsewhere_shows_the_sign_in_choices(
    people: Callable[[], Player], server: ServerProcess
) -> None:
    """Issue 50: a browser whose session was signed out on another device showed a blank home
    page with "The token is not valid" and no way to sign in until a menu link was clicked."""
    ana = people()
    page = ana.open("solo")
    sign_in(page, "Ana")
    expect(page.locator("#preset")).to_be_visible()
    token = page.evaluate("() => JSON.parse(localStorage.getItem('domino.identity')).token")
    base = f"http://localhost:{server.port}"
    with httpx.Client(base_url=base, timeout=30) as api:
        mine = {"Authorization": f"Bearer {token}"}
        code = api.post("/v1/players/me/link-codes", headers=mine).json()["code"]
        phone = api.post("/v1/sign-in/link", json={"code": code}).json()
        theirs = {"Authorization": f"Bearer {phone['token']}"}
        sessions = api.get("/v1/players/me/sessions", headers=theirs).json()
        [first] = [s["id"] for s in sessions if not s["current"]]
        assert api.delete(f"/v1/players/me/sessions/{first}", headers=theirs).status_code == 204
    ana.allowed.append(re.compile("status of 401"))  # Chromium logs the refused fetch
    page.goto("about:blank")
    page = ana.open("")  # the browser opened again later, its dead token still kept
    expect(page.locator("h2")).to_have_text("Play dominoes")
    expect(page.locator("button:text('Sign in with a passkey')")).to_be_visible()
    expect(page.locator("#link-code")).to_be_visible()
    expect(page.locator("#error")).to_contain_text("signed out elsewhere")
    assert page.evaluate("() => localStorage.getItem('domino.identity')") is None
