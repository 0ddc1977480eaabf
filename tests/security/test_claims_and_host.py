"""Issue 26, item 7 (second and third parts) and issue 25's "Rejoin too early".

- A flood of wrong guesses at one number spends that number's budget of failures, but never
  locks out the table's own players, and each guessing caller (token or address) has its own
  budget whichever numbers it tries.
- Host rights go with seat 0: the host who comes back from a new device and claims it is the
  host again; the old token keeps no host power.
- A rejoin from a new device while the old one still holds the seat says how long a seat
  stays held (`Retry-After`), in the one answer every caller not at the table gets.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

import httpx

from domino_api.clock import FakeClock
from tests.security.conftest import Secured, player

LEASE = 30.0


@asynccontextmanager
async def _from(http: httpx.AsyncClient, address: str) -> Any:
    """A client of the same app, from another address."""
    transport = httpx.ASGITransport(app=http.app, client=(address, 40000))  # type: ignore[attr-defined]
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as other:
        yield other


async def _join(http: httpx.AsyncClient, who: dict[str, Any], code: str) -> httpx.Response:
    return await http.post("/v1/matches/join", json={"code": code}, headers=who["headers"])


async def _table(http: httpx.AsyncClient, start: bool = True) -> tuple[dict[str, Any], ...]:
    ana, bob = await player(http, "Ana"), await player(http, "Bob")
    body = {"ruleset": "house-nines", "seats": [{"type": "human"}] * 2}
    made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
    assert (await _join(http, bob, made["code"])).status_code == 200
    if start:
        r = await http.post(f"/v1/matches/{made['id']}/start", json={}, headers=ana["headers"])
        assert r.status_code == 200, r.text
    return made, ana, bob


def _other(code: str, n: int) -> str:
    return f"{(int(code) + 1 + n) % 10_000:04d}"


async def test_a_flood_of_guesses_locks_out_no_player_of_the_table(secured: Secured) -> None:
    async with secured(claim_failures_per_code=3, claim_failures_per_caller=5) as http:
        made, ana, bob = await _table(http)
        async with _from(http, "10.6.6.6") as attacker:
            guesses = [
                (await _join(attacker, await player(attacker, f"G{n}"), made["code"])).status_code
                for n in range(12)
            ]
        assert guesses == [404] * 3 + [429] * 9
        # The table's own players are not refused, nor is anyone on another number.
        for holder, seat in ((ana, 0), (bob, 1)):
            again = await _join(http, holder, made["code"])
            assert again.status_code == 200 and again.json()["you"]["seat"] == seat, again.text
        async with _from(http, "10.1.2.3") as elsewhere:
            dan = await player(elsewhere, "Dan")
            body = {"ruleset": "house-nines", "seats": [{"type": "human"}] * 2}
            other = await elsewhere.post("/v1/matches", json=body, headers=dan["headers"])
            cy = await player(elsewhere, "Cy")
            assert (await _join(elsewhere, cy, other.json()["code"])).status_code == 200


async def test_each_guessing_caller_has_its_own_budget(secured: Secured) -> None:
    async with secured(claim_failures_per_caller=4) as http:
        made, _, _ = await _table(http)
        async with _from(http, "10.7.7.7") as attacker:
            eve = await player(attacker, "Eve")
            tries = [
                (await _join(attacker, eve, _other(made["code"], n))).status_code for n in range(6)
            ]
            assert tries == [404] * 4 + [429] * 2
            # Spent by address: another token from there is refused too ...
            fay = await player(attacker, "Fay")
            assert (await _join(attacker, fay, made["code"])).status_code == 429
        async with _from(http, "10.8.8.8") as moved:
            # ... and by token: the same token from another address as well.
            assert (await _join(moved, eve, made["code"])).status_code == 429
            # A caller of its own, there, is not.
            gus = await player(moved, "Gus")
            assert (await _join(moved, gus, _other(made["code"], 9))).status_code == 404


async def test_host_rights_follow_seat_zero_when_the_host_claims_it_back(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _table(http, start=False)
        mid = made["id"]
        clock.advance(LEASE + 1)  # Ana's old device has been gone for the lease
        new_ana = await player(http, "Ana")
        taken = await _join(http, new_ana, made["code"])
        assert taken.status_code == 200 and taken.json()["you"]["seat"] == 0, taken.text
        assert taken.json()["host_seat"] == 0
        # The old token is no host any more: it holds no seat.
        for verb, path in (("PUT", "/lock"), ("POST", "/start")):
            r = await http.request(verb, f"/v1/matches/{mid}{path}", headers=ana["headers"])
            assert r.status_code == 403 and r.json()["code"] in ("not_host", "not_seated"), r.text
        # The host at seat 0 is the host: it locks the table and starts the match.
        locked = await http.put(f"/v1/matches/{mid}/lock", headers=new_ana["headers"])
        assert locked.status_code == 200 and locked.json()["claims_locked"] is True
        r = await http.post(f"/v1/matches/{mid}/start", json={}, headers=new_ana["headers"])
        assert r.status_code == 200 and r.json()["status"] == "playing", r.text
        r = await http.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=new_ana["headers"])
        assert r.status_code in (200, 409), r.text  # a host's right (409 only if Bob is here)
        r = await http.put(f"/v1/matches/{mid}/seats/1/autopilot", headers=bob["headers"])
        assert r.status_code == 403 and r.json()["code"] == "not_host"


async def test_a_rejoin_too_early_says_when_to_try_again_and_names_nobody(
    secured: Secured, clock: FakeClock
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _table(http)
        new_bob = await player(http, "Bob")  # Bob on a new device, his phone still at the table
        early = await _join(http, new_bob, made["code"])
        unknown = await _join(http, new_bob, _other(made["code"], 0))
        stranger = await _join(http, await player(http, "Cy"), made["code"])
        for r in (early, unknown, stranger):
            assert r.status_code == 404 and r.json()["code"] == "code_not_found", r.text
            assert r.headers["Retry-After"] == "30" and r.json()["retry_after"] == 30
            assert "stays held" in r.json()["detail"] and "Bob" not in r.text
        assert early.json() == stranger.json()
        other = _other(made["code"], 0)
        assert unknown.json()["detail"] == early.json()["detail"].replace(made["code"], other)
        clock.advance(LEASE + 1)  # as the answer said: the seat is Bob's again
        late = await _join(http, new_bob, made["code"])
        assert late.status_code == 200 and late.json()["you"]["seat"] == 1, late.text


async def test_a_waiting_tables_same_name_refusal_says_when_to_try_again(
    secured: Secured,
) -> None:
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _table(http, start=False)
        refused = await _join(http, await player(http, "Bob"), made["code"])
        assert refused.status_code == 409 and refused.json()["code"] == "seat_in_use"
        assert refused.headers["Retry-After"] == "30" and "Bob" not in refused.text


async def test_the_host_cannot_take_a_present_players_seat_for_a_second_account(
    secured: Secured, clock: FakeClock
) -> None:
    """Issue 41: the host released a connected opponent's seat, a second account of the host
    joined by the number and read the whole hand. A seat is released only once its holder has
    been away for the lease, as autopilot waits."""
    async with secured(presence_lease_s=LEASE) as http:
        made, ana, bob = await _table(http)
        mid = made["id"]
        alt = await player(http, "Ana2")  # the host's second account
        for _ in range(3):
            clock.advance(LEASE - 5)
            seen = await http.get(f"/v1/matches/{mid}", headers=bob["headers"])  # Bob is here
            assert seen.status_code == 200
            hand = seen.json()["you"]["hand"]
            released = await http.delete(
                f"/v1/matches/{mid}/seats/1/holder", headers=ana["headers"]
            )
            assert released.status_code == 409, released.text
            assert released.json()["code"] == "seat_in_use" and "Bob" not in released.text
            joined = await _join(http, alt, made["code"])
            assert joined.status_code == 404, joined.text
            autopilot = await http.put(
                f"/v1/matches/{mid}/seats/1/autopilot", headers=ana["headers"]
            )
            assert autopilot.status_code == 409  # the same rule, the same answer
        after = await http.get(f"/v1/matches/{mid}", headers=bob["headers"])
        assert after.json()["you"]["seat"] == 1 and after.json()["you"]["hand"] == hand
        assert after.json()["seats"][1]["connected"] is True
        # Gone for the lease: now the host may hand the seat on, as the dot shows.
        clock.advance(LEASE + 1)
        released = await http.delete(f"/v1/matches/{mid}/seats/1/holder", headers=ana["headers"])
        assert released.status_code == 200, released.text
        assert released.json()["seats"][1]["connected"] is False
