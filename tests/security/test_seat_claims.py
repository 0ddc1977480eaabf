"""Attack 1 (seat takeover by number and name) and 5 (a resigned seat kept seeing its hand);
attack 8 (autopilot on a connected opponent) needs sockets: tests/security/test_live_seats.py."""

from __future__ import annotations

import time
from typing import Any

import httpx

from domino_api.clock import FakeClock
from domino_api.matches.creation import JOIN_REFUSAL_S
from tests.security.conftest import Secured, player

LEASE = 30.0


async def _started(http: httpx.AsyncClient, seats: int = 2) -> tuple[dict[str, Any], ...]:
    """Ana hosts, Bob joins (and Cy for three seats); started."""
    people = [await player(http, name) for name in ("Ana", "Bob", "Cy")[:seats]]
    # Open to spectators (docs/API.md, Who may look), so a former holder and an outsider read
    # the public view and events, which the tests compare; a private table answers them 403.
    body = {
        "ruleset": "house-nines",
        "seats": [{"type": "human"}] * seats,
        "options": {"spectators": True},
    }
    made = (await http.post("/v1/matches", json=body, headers=people[0]["headers"])).json()
    for other in people[1:]:
        r = await http.post(
            "/v1/matches/join", json={"code": made["code"]}, headers=other["headers"]
        )
        assert r.status_code == 200, r.text
    r = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=people[0]["headers"])
    assert r.status_code == 200, r.text
    return (made, *people)


async def _join(http: httpx.AsyncClient, who: dict[str, Any], code: str) -> httpx.Response:
    return await http.post("/v1/matches/join", json={"code": code}, headers=who["headers"])


def _unused(code: str) -> str:
    return "0000" if code != "0000" else "0001"


async def test_a_present_holder_keeps_the_seat_and_nothing_tells_the_table_exists(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _started(http)
        fake_bob = await player(http, "Bob")
        clock.advance(LEASE / 2)
        await http.get(f"/v1/matches/{made['id']}", headers=bob["headers"])  # Bob is here
        clock.advance(LEASE / 2)
        refused = await _join(http, fake_bob, made["code"])
        unknown = await _join(http, fake_bob, _unused(made["code"]))
        stranger = await _join(http, await player(http, "Cy"), made["code"])
        # A started table answers as an unknown number does, and names nobody.
        assert refused.status_code == unknown.status_code == stranger.status_code == 404
        bodies = [r.json() for r in (refused, unknown, stranger)]
        assert {b["code"] for b in bodies} == {"code_not_found"}
        assert (
            bodies[0]["detail"]
            == bodies[2]["detail"]
            == bodies[1]["detail"].replace(_unused(made["code"]), made["code"])
        )
        assert not any("Bob" in r.text for r in (refused, unknown, stranger))
        # Nor does timing: every refusal answers no sooner than the same floor.
        for code in (made["code"], _unused(made["code"])):
            began = time.perf_counter()
            await _join(http, fake_bob, code)
            assert time.perf_counter() - began >= JOIN_REFUSAL_S
        mine = (await http.get(f"/v1/matches/{made['id']}", headers=bob["headers"])).json()
        assert mine["you"]["seat"] == 1 and len(mine["you"]["hand"]) > 0


async def test_a_waiting_table_refuses_a_same_name_join_without_naming(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        ana = await player(http, "Ana")
        body = {"ruleset": "all-fives", "seats": [{"type": "human"}, {"type": "human"}]}
        made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        fake_ana = await player(http, "Ana")
        refused = await _join(http, fake_ana, made["code"])
        assert refused.status_code == 409 and refused.json()["code"] == "seat_in_use"
        assert "Ana" not in refused.json()["detail"]
        host = (await http.get(f"/v1/matches/{made['id']}", headers=ana["headers"])).json()
        assert host["you"]["seat"] == 0


async def test_a_seat_gone_for_the_lease_is_claimed_and_every_seat_is_told(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _started(http)
        new_bob = await player(http, "Bob")  # the same person on a new device
        clock.advance(LEASE + 1)
        taken = await _join(http, new_bob, made["code"])
        assert taken.status_code == 200, taken.text
        assert taken.json()["you"]["seat"] == 1 and taken.json()["code"] == made["code"]
        events = await http.get(f"/v1/matches/{made['id']}/events", headers=ana["headers"])
        claims = [
            e["data"]
            for e in events.json()["events"]
            if e["type"] == "seat_joined" and e["data"].get("claimed")
        ]
        assert claims == [
            {"seat": 1, "name": "Bob", "type": "human", "strategy": None, "claimed": True}
        ]
        old = (await http.get(f"/v1/matches/{made['id']}", headers=bob["headers"])).json()
        assert old["you"] is None and old["code"] is None


async def test_failed_claims_are_limited_per_game_number_for_everyone(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE, claim_failures_per_code=3) as http:
        made, ana, bob = await _started(http)
        guesses = [
            await _join(http, await player(http, f"Guess{n}"), made["code"]) for n in range(5)
        ]
        assert [r.status_code for r in guesses] == [404, 404, 404, 429, 429]
        # The budget is the number's, not the caller's: a fresh caller is refused as well.
        fresh = await _join(http, await player(http, "Fresh"), made["code"])
        assert fresh.status_code == 429
        # Other numbers are not affected.
        other = await _join(http, await player(http, "Other"), _unused(made["code"]))
        assert other.status_code == 404


async def test_a_resigned_seat_sees_no_more_private_data(secured: Secured) -> None:
    async with secured() as http:
        made, ana, bob, cy = await _started(http, seats=3)
        mid = made["id"]
        before = (await http.get(f"/v1/matches/{mid}", headers=cy["headers"])).json()
        assert before["you"]["seat"] == 2 and before["you"]["hand"]
        seq = before["seq"]
        r = await http.post(f"/v1/matches/{mid}/resign", json={}, headers=cy["headers"])
        assert r.status_code == 200, r.text
        assert r.json()["you"] is None
        after = (await http.get(f"/v1/matches/{mid}", headers=cy["headers"])).json()
        assert after["status"] == "playing" and after["you"] is None and after["legal"] == []
        own = await http.get(f"/v1/matches/{mid}", params={"seat": 2}, headers=cy["headers"])
        assert own.status_code == 200 and own.json()["you"] is None
        # Play on: the computer now in seat 2 moves (and draws) between Ana's and Bob's turns.
        holders = {0: ana, 1: bob}
        for _ in range(30):
            v = (await http.get(f"/v1/matches/{mid}", headers=ana["headers"])).json()
            if v["status"] != "playing":
                break
            on_turn = holders[v["turn"]["seat"]]
            mine = (await http.get(f"/v1/matches/{mid}", headers=on_turn["headers"])).json()
            legal = {k: x for k, x in mine["legal"][0].items() if k != "points" and x is not None}
            body = {**legal, "seq": mine["seq"]}
            moved = await http.post(
                f"/v1/matches/{mid}/moves", json=body, headers=on_turn["headers"]
            )
            assert moved.status_code == 200, moved.text
        eve = await player(http, "Eve")
        params = {"after": seq}
        seen = await http.get(f"/v1/matches/{mid}/events", params=params, headers=cy["headers"])
        public = await http.get(f"/v1/matches/{mid}/events", params=params, headers=eve["headers"])
        by_computer = [e for e in public.json()["events"] if e["data"].get("seat") == 2]
        assert by_computer, "the computer in seat 2 never moved"
        # The former holder sees what anyone outside the table sees, nothing more.
        assert seen.json() == public.json()


async def test_a_locked_table_refuses_claims_until_the_host_releases(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _started(http)
        mid = made["id"]
        not_host = await http.put(f"/v1/matches/{mid}/lock", headers=bob["headers"])
        assert not_host.status_code == 403
        locked = await http.put(f"/v1/matches/{mid}/lock", headers=ana["headers"])
        assert locked.status_code == 200 and locked.json()["claims_locked"] is True
        clock.advance(LEASE + 1)  # Bob has gone: a claim by name would work, but for the lock
        fake_bob = await player(http, "Bob")
        refused = await _join(http, fake_bob, made["code"])
        assert refused.status_code == 404 and refused.json()["code"] == "code_not_found"
        still = (await http.get(f"/v1/matches/{mid}", headers=bob["headers"])).json()
        assert still["you"]["seat"] == 1  # Bob's own token still works: he is back
        clock.advance(LEASE + 1)  # and gone again for the lease (issue 41: release waits)
        # The host releases the seat: the next join by number takes it.
        released = await http.delete(f"/v1/matches/{mid}/seats/1/holder", headers=ana["headers"])
        assert released.status_code == 200, released.text
        gone = (await http.get(f"/v1/matches/{mid}", headers=bob["headers"])).json()
        assert gone["you"] is None
        robert = await player(http, "Robert")
        taken = await _join(http, robert, made["code"])
        assert taken.status_code == 200 and taken.json()["you"]["seat"] == 1
        assert taken.json()["you"]["hand"]
        unlocked = await http.delete(f"/v1/matches/{mid}/lock", headers=ana["headers"])
        assert unlocked.status_code == 200 and unlocked.json()["claims_locked"] is False
