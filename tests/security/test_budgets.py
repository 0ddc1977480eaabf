"""Attacks 2 (one account takes every game number), 3/4 (budgets: keys and memory) and 9 (chat
floods): each budget refuses with 429 and Retry-After, and only the caller who spent it."""

from __future__ import annotations

import asyncio
import contextlib
import gc

import pytest

from domino_api.config import Settings
from domino_api.errors import RateLimited
from domino_api.web.ratelimit import Limits, address_key
from tests.security.conftest import Secured, player

SEATS = [{"type": "human"}, {"type": "human"}]
BODY = {"ruleset": "all-fives", "seats": SEATS}


async def test_open_waiting_tables_are_capped_per_player(secured: Secured) -> None:
    async with secured(open_tables_per_player=3, create_match_rate_limit=100) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        made = [await http.post("/v1/matches", json=BODY, headers=ana["headers"]) for _ in range(5)]
        assert [r.status_code for r in made] == [201, 201, 201, 429, 429]
        assert made[3].json()["code"] == "rate_limited" and "retry-after" in made[3].headers
        # Someone else is not refused, and starting a table frees a place.
        assert (
            await http.post("/v1/matches", json=BODY, headers=bob["headers"])
        ).status_code == 201
        first = made[0].json()
        joined = await http.post(
            "/v1/matches/join", json={"code": first["code"]}, headers=bob["headers"]
        )
        assert joined.status_code == 200
        start = await http.post(f"/v1/matches/{first['id']}/start", json={}, headers=ana["headers"])
        assert start.status_code == 200
        again = await http.post("/v1/matches", json=BODY, headers=ana["headers"])
        assert again.status_code == 201, again.text


async def test_concurrent_creations_do_not_pass_the_cap_together(secured: Secured) -> None:
    async with secured(open_tables_per_player=2, create_match_rate_limit=100) as http:
        ana = await player(http, "Ana")
        answers = await asyncio.gather(
            *(http.post("/v1/matches", json=BODY, headers=ana["headers"]) for _ in range(8))
        )
        assert sorted(r.status_code for r in answers) == [201, 201] + [429] * 6


async def test_match_creation_is_limited_per_player(secured: Secured) -> None:
    async with secured(open_tables_per_player=100, create_match_rate_limit=4) as http:
        ana = await player(http, "Ana")
        codes = [
            (await http.post("/v1/matches", json=BODY, headers=ana["headers"])).status_code
            for _ in range(6)
        ]
        assert codes == [201] * 4 + [429] * 2


async def test_chat_is_limited_per_seat(secured: Secured) -> None:
    async with secured(chat_rate_limit=5) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        mid = (await http.post("/v1/matches", json=BODY, headers=ana["headers"])).json()
        await http.post("/v1/matches/join", json={"code": mid["code"]}, headers=bob["headers"])
        path = f"/v1/matches/{mid['id']}/messages"
        sent = [
            (await http.post(path, json={"text": f"hi {n}"}, headers=ana["headers"])).status_code
            for n in range(8)
        ]
        assert sent == [201] * 5 + [429] * 3
        # Bob's seat has its own budget.
        bobs = await http.post(path, json={"text": "hello"}, headers=bob["headers"])
        assert bobs.status_code == 201
        events = await http.get(f"/v1/matches/{mid['id']}/events", headers=bob["headers"])
        assert sum(e["type"] == "message" for e in events.json()["events"]) == 6


async def test_profile_changes_shown_at_tables_are_limited_per_player(secured: Secured) -> None:
    """300 tile-back changes in 4 s put 299 events into the player's live match (an attack
    run): each is shown at every live table, so they are budgeted like chat."""
    async with secured(profile_rate_limit=3) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        mid = (await http.post("/v1/matches", json=BODY, headers=ana["headers"])).json()
        await http.post("/v1/matches/join", json={"code": mid["code"]}, headers=bob["headers"])
        backs = ["apollo-11", "moon", "apollo-11"] + ["moon"] * 3  # each a change
        changed = [
            await http.patch("/v1/players/me", json={"tile_back": b}, headers=ana["headers"])
            for b in backs
        ]
        assert [r.status_code for r in changed] == [200] * 3 + [429] * 3
        assert changed[3].json()["code"] == "rate_limited" and "retry-after" in changed[3].headers
        # What changes nothing shown (the same tile back, match defaults) spends nothing.
        same = await http.patch(
            "/v1/players/me", json={"tile_back": "apollo-11"}, headers=ana["headers"]
        )
        assert same.status_code == 200
        events = await http.get(f"/v1/matches/{mid['id']}/events", headers=bob["headers"])
        assert sum(e["type"] == "tile_back_changed" for e in events.json()["events"]) == 3
        # Bob's budget is his own.
        bobs = await http.patch("/v1/players/me", json={"name": "Robert"}, headers=bob["headers"])
        assert bobs.status_code == 200


async def test_join_guesses_are_limited_per_token_too(secured: Secured) -> None:
    # A window of an hour: the sliding-window counter weighs the previous window's hits by the
    # part of it still in view, so a test that crossed a window's edge could see one more.
    async with secured(join_rate_limit=5, rate_window_s=3600) as http:
        eve = await player(http, "Eve")
        codes = [
            (
                await http.post(
                    "/v1/matches/join", json={"code": f"{n:04d}"}, headers=eve["headers"]
                )
            ).status_code
            for n in range(8)
        ]
        assert codes[:5] == [404] * 5 and codes[5:] == [429] * 3


def test_addresses_key_ipv6_by_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff:1:2:3")
    assert address_key("2001:db8:1:2::1") != address_key("2001:db8:1:3::1")
    assert address_key("203.0.113.7") == "203.0.113.7"
    assert address_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert address_key(None) == "unknown"


@pytest.mark.parametrize("keys", [100_000])
async def test_the_in_memory_budgets_forget_what_their_window_passed(keys: int) -> None:
    """100,000 addresses (attack 4): every one is remembered only for its window."""
    limits = Limits(Settings(join_rate_limit=3, rate_window_s=1))
    for n in range(keys):
        await limits.hit("join", f"10.{n >> 16}.{(n >> 8) & 255}.{n & 255}")
    assert limits._memory is not None
    storage = limits._memory.storage
    # Hits already dropped the keys of windows passed while the loop ran (more on a slow machine).
    assert len(storage.storage) >= 1_000  # type: ignore[attr-defined]
    # Two windows later (the sliding counter keeps the previous one) every key has expired;
    # each later hit, refused or not, drops a few of them (ratelimit_storage.WindowMemory).
    await asyncio.sleep(2.2)
    hits = 0
    while len(storage.storage) > 2 and hits < keys:  # type: ignore[attr-defined]
        with contextlib.suppress(RateLimited):
            await limits.hit("join", "192.0.2.1")
        hits += 1
    gc.collect()
    assert len(storage.storage) <= 2, hits  # type: ignore[attr-defined]


async def test_an_unreachable_shared_storage_keeps_budgets_in_memory_and_warns_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Port 1 on localhost: nothing listens there. Budgets are kept per process, logged once.
    limits = Limits(Settings(join_rate_limit=1, rate_limit_storage="redis://127.0.0.1:1/0"))
    with caplog.at_level("WARNING", logger="domino_api.web.ratelimit_storage"):
        await limits.hit("join", "192.0.2.9")
        for _ in range(3):
            with pytest.raises(RateLimited):
                await limits.hit("join", "192.0.2.9")
    assert limits.status() == "fallback"
    lines = [r for r in caplog.records if "storage unreachable" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
