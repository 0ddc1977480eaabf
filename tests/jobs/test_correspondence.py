"""Correspondence tables (issue 50, docs/API.md "Correspondence tables"): a move's time per
turn, no away forfeit, the clock forfeit by the recovery job, the your-turn list, and the turn
pushed to the player's devices (decrypted here, from a push endpoint the test runs)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
import pytest_asyncio
from fastapi import FastAPI

from domino_api.app.api import create_app
from domino_api.clock import FakeClock
from domino_api.config import Settings
from domino_api.errors import ValidationFailed
from domino_api.jobs.sweeper import sweep_pass
from domino_api.push.sender import _public
from domino_api.push.subscriptions import check_endpoint
from domino_api.turns.notices import TurnNotices
from tests.api.helpers import create_match, first_legal, new_player, view
from tests.conftest import COMPUTERS, GENEROUS_LIMITS
from tests.jobs.factory import HUMANS, parse, two_seat_match
from tests.support.push_endpoint import Device, PushEndpoint

DAY = 86_400
TICK = timedelta(microseconds=1)
CORRESPONDENCE = {"per_move_s": DAY}


@pytest_asyncio.fixture(loop_scope="session")
async def app(clean_db: str, clock: FakeClock) -> AsyncIterator[FastAPI]:
    """The suite's app, with push endpoints on 127.0.0.1 allowed (the test's own service)."""
    settings = Settings(
        database_url=clean_db, log_json=False, push_allow_local=True, **GENEROUS_LIMITS
    )
    application = create_app(
        settings, clock=clock, database_url=clean_db, start_background=False, computers=COMPUTERS
    )
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    with PushEndpoint() as running:
        yield running


async def delivered(app: FastAPI) -> int:
    """Store what the committed steps told (the followers' tasks), then send the outbox."""
    for follower in app.state.core.writer.followers:
        if isinstance(follower, TurnNotices):
            await follower.settled()
    return int(await app.state.push.sender.send_due())


async def test_a_correspondence_turn_lasts_its_time_and_nobody_forfeits_for_being_away(
    client: httpx.AsyncClient, clock: FakeClock, core: Any
) -> None:
    start = clock.now()
    ana, bob, seen = await two_seat_match(client, "all-fives", CORRESPONDENCE)
    assert seen["per_move_s"] == DAY
    assert seen["ruleset"]["away_forfeit_s"] is None and seen["ruleset"]["turn_clock"] is None
    assert parse(seen["turn"]["deadline"]) == start + timedelta(seconds=DAY)
    assert all(s["away_deadline"] is None for s in seen["seats"])
    # Half a day with nobody at the table: all-fives' 3-minute away rule, and the 30 minutes
    # that abandon a numbered table nobody is at, do not apply.
    clock.set(start + timedelta(hours=12))
    assert (await sweep_pass(core)).outcomes == []
    on_turn = seen["turn"]["seat"]
    clock.set(start + timedelta(seconds=DAY) - TICK)
    assert [o for o in (await sweep_pass(core)).outcomes if o.action != "none"] == []
    clock.set(start + timedelta(seconds=DAY))
    report = await sweep_pass(core)
    assert [(o.due, o.action != "none") for o in report.outcomes] == [("clock", True)]
    after = await view(client, ana, seen["id"])
    assert after["seats"][on_turn]["forfeited"] and after["status"] == "finished"
    assert after["result"]["winner"] == 1 - on_turn
    assert bob  # both were seated


async def test_the_options_are_checked_and_live_tables_keep_the_away_rule(
    client: httpx.AsyncClient,
) -> None:
    ana = await new_player(client, "Ana")
    wrong = [
        ({"per_move_s": 60}, "bad_options"),  # under an hour
        ({"per_move_s": 15 * DAY}, "bad_options"),
        ({"per_move_s": True}, "bad_options"),
        ({"per_move_s": DAY, "turn_clock": {"allowance_s": 60, "grace_s": 10}}, None),
    ]
    for options, code in wrong:
        body = {"ruleset": "classic", "seats": HUMANS, "options": options}
        answer = await client.post("/v1/matches", json=body, headers=ana["headers"])
        assert answer.status_code == 422, (options, answer.text)
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert code is None or answer.json()["code"] == code
    solo = {"ruleset": "draw", "seats": [HUMANS[0], {"type": "bot"}], "options": CORRESPONDENCE}
    answer = await client.post("/v1/matches", json=solo, headers=ana["headers"])
    assert answer.status_code == 422 and answer.json()["code"] == "option_not_allowed"
    mine = await client.get("/v1/matches", headers=ana["headers"])
    assert mine.json()["matches"] == []  # nothing was created
    _, _, live = await two_seat_match(client, "all-fives")  # a live table keeps the away rule
    assert live["per_move_s"] is None
    assert all(s["away_deadline"] is not None for s in live["seats"])


async def test_your_turn_lists_the_seat_on_turn_and_pushes_it_decrypted(
    client: httpx.AsyncClient, app: FastAPI, endpoint: PushEndpoint
) -> None:
    ana, bob = await new_player(client, "Ana"), await new_player(client, "Bob")
    devices = {"ana": Device(), "bob": Device()}
    for name, player in (("ana", ana), ("bob", bob)):
        sub = {"endpoint": endpoint.url(f"/{name}"), "keys": devices[name].keys()}
        made = await client.post("/v1/push/subscriptions", json=sub, headers=player["headers"])
        assert made.status_code == 201, made.text
    created = await create_match(client, ana, "block", HUMANS, CORRESPONDENCE)
    joined = await client.post(
        "/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"]
    )
    assert joined.status_code == 200
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"]
    )
    players, names = [ana, bob], ["ana", "bob"]
    seat = started.json()["turn"]["seat"]
    assert await delivered(app) == 1
    push = endpoint.next()
    assert push.path == f"/{names[seat]}" and push.headers["content-encoding"] == "aes128gcm"
    payload = devices[names[seat]].decrypt(push.body)
    assert payload == {
        "type": "your_turn",
        "match": created["id"],
        "seat": seat,
        "title": "Block",
        "body": "Your turn",
        "deadline": started.json()["turn"]["deadline"],
        "url": f"/play/#/match/{created['id']}",
    }
    turns = await client.get("/v1/turns", headers=players[seat]["headers"])
    listed = turns.json()["turns"]
    assert [(t["match"], t["seat"], t["per_move_s"]) for t in listed] == [
        (created["id"], seat, DAY)
    ]
    other = await client.get("/v1/turns", headers=players[1 - seat]["headers"])
    assert other.json()["turns"] == []
    mine = await view(client, players[seat], created["id"])
    moved = await client.post(
        f"/v1/matches/{created['id']}/moves",
        json=first_legal(mine) | {"seq": mine["seq"]},
        headers=players[seat]["headers"],
    )
    assert moved.status_code == 200, moved.text
    assert await delivered(app) == 1
    push = endpoint.next()
    assert push.path == f"/{names[1 - seat]}"
    assert devices[names[1 - seat]].decrypt(push.body)["seat"] == 1 - seat
    assert (await client.get("/v1/turns", headers=players[seat]["headers"])).json()["turns"] == []


async def test_a_failed_push_is_retried_a_gone_one_forgotten_and_bad_ones_refused(
    client: httpx.AsyncClient, app: FastAPI, endpoint: PushEndpoint
) -> None:
    ana = await new_player(client, "Ana")
    device = Device()
    good = {"endpoint": endpoint.url("/gone"), "keys": device.keys()}
    bad_keys = [
        {**device.keys(), "p256dh": device.keys()["p256dh"][:-4] + "AAAA"},  # off the curve
        {**device.keys(), "auth": "c2hvcnQ"},  # not 16 bytes
        {**device.keys(), "p256dh": "!" * 87},
    ]
    for keys in bad_keys:
        answer = await client.post(
            "/v1/push/subscriptions", json={**good, "keys": keys}, headers=ana["headers"]
        )
        assert answer.status_code == 422, answer.text
    for url in ("ftp://127.0.0.1/x", "not a url", "https://user:pw@push.example/x"):
        answer = await client.post(
            "/v1/push/subscriptions", json={**good, "endpoint": url}, headers=ana["headers"]
        )
        assert answer.status_code == 422, (url, answer.text)
    key = await client.get("/v1/push/key", headers=ana["headers"])
    assert key.status_code == 200 and len(key.json()["public_key"]) == 87
    made = await client.post("/v1/push/subscriptions", json=good, headers=ana["headers"])
    endpoint.failing.add("/gone")  # the push service is in trouble first (a 503)
    bob = await new_player(client, "Bob")
    created = await create_match(client, ana, "block", HUMANS, CORRESPONDENCE)
    await client.post("/v1/matches/join", json={"code": created["code"]}, headers=bob["headers"])
    started = await client.post(
        f"/v1/matches/{created['id']}/start", json={}, headers=ana["headers"]
    )
    if started.json()["turn"]["seat"] != 0:  # Ana is told at her next turn: play Bob's
        bob_view = await view(client, bob, created["id"])
        await client.post(
            f"/v1/matches/{created['id']}/moves",
            json=first_legal(bob_view) | {"seq": bob_view["seq"]},
            headers=bob["headers"],
        )
    assert await delivered(app) == 1
    assert endpoint.next().path == "/gone"
    # Kept for a retry, counted, not due again yet: claimed after the pause, sent again.
    async with app.state.core.pool.acquire() as connection:
        kept = await connection.fetch("SELECT attempts, next_at > now() AS later FROM push_outbox")
        assert [(row["attempts"], row["later"]) for row in kept] == [(1, True)]
        assert await app.state.push.sender.send_due() == 0
        await connection.execute("UPDATE push_outbox SET next_at = now()")
    endpoint.failing.clear()
    endpoint.gone.add("/gone")  # then it says the subscription is gone (a 410)
    assert await app.state.push.sender.send_due() == 1
    assert endpoint.next().path == "/gone"
    again = await client.delete(
        f"/v1/push/subscriptions/{made.json()['id']}", headers=ana["headers"]
    )
    assert again.status_code == 404 and again.json()["code"] == "subscription_not_found"


def test_endpoints_in_the_operators_network_are_refused() -> None:
    """Without DOMINO_PUSH_ALLOW_LOCAL: https on a public host only, when subscribed and when
    sent (a name may resolve into the network later)."""
    for url in (
        "http://push.example.com/x",
        "https://127.0.0.1/x",
        "https://10.1.2.3/x",
        "https://[::1]/x",
        "https://localhost/x",
        "https://printer.local/x",
    ):
        with pytest.raises(ValidationFailed):
            check_endpoint(url, allow_local=False)
    check_endpoint("https://fcm.googleapis.com/fcm/send/abc", allow_local=False)
    check_endpoint("http://127.0.0.1:9/x", allow_local=True)
    assert not _public("https://127.0.0.1/x") and not _public("https://[::1]/x")
    assert _public("https://8.8.8.8/x")
