"""Bad input on the partnership routes (issue 52): a tournament entry's `?partner=`, a
tournament's `preset`, a seek's `partner` and `options.talk`. Each try is a 4xx problem
document that changes nothing, never a 500."""

from __future__ import annotations

from typing import Any

import httpx

from tests.security.conftest import Secured, player

# Budgets no test here reaches: every refusal below must be the input's, not a budget's.
ROOMY = {"tournament_rate_limit": 1000, "create_match_rate_limit": 1000}

# Text no player id is: the empty string, huge, NUL, odd unicode, ids of other kinds.
ODD_TEXT = [
    "",
    "x" * 37,
    "x" * 100_000,
    "\x00",
    "a\x00b",
    "\u202e" + "a" * 10,
    "\ufeff",
    "\U0001f0a0" * 9,
    "e\u0301",
    "%00",
    "../../etc/passwd",
    "'; DROP TABLE players; --",
    "null",
    "123",
    "true",
]


def problem(r: httpx.Response, *statuses: int) -> None:
    assert r.status_code in statuses, (r.request.url, r.status_code, r.text[:300])
    assert r.headers["content-type"] == "application/problem+json", r.text[:300]
    assert r.json()["status"] == r.status_code


async def tournament(http: httpx.AsyncClient, host: dict[str, Any], preset: str) -> str:
    body = {"name": "Pairs", "format": "round_robin", "preset": preset}
    body |= {"match": {"target": 50}, "max_entrants": 4}
    r = await http.post("/v1/tournaments", json=body, headers=host["headers"])
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


async def state(http: httpx.AsyncClient, who: dict[str, Any], tid: str) -> tuple[Any, Any]:
    view = await http.get(f"/v1/tournaments/{tid}", headers=who["headers"])
    feed = await http.get(f"/v1/tournaments/{tid}/events", headers=who["headers"])
    assert view.status_code == feed.status_code == 200
    return view.json(), feed.json()


async def test_an_entrys_partner_of_any_odd_kind_is_a_problem_and_enters_nobody(
    secured: Secured,
) -> None:
    async with secured(**ROOMY) as http:
        host, ana = await player(http, "Host"), await player(http, "Ana")
        pairs, classic = (
            await tournament(http, host, "partners-block"),
            await tournament(http, host, "classic"),
        )
        others = [pairs, ana["id"] + "x", ana["id"].upper(), ana["id"]]  # no player; oneself
        before = {tid: await state(http, host, tid) for tid in (pairs, classic)}
        for tid in (pairs, classic):
            # A URL's query has room for less than a body's text (httpx stops at 64 KiB).
            for partner in [p[:8000] for p in ODD_TEXT] + others:
                if tid == classic and partner == ana["id"]:
                    continue  # naming nobody odd: a classic tournament refuses any partner
                sent = {"partner": partner}
                r = await http.post(
                    f"/v1/tournaments/{tid}/entrants", params=sent, headers=ana["headers"]
                )
                if partner == ana["id"]:  # oneself
                    problem(r, 409)
                    continue
                problem(r, 404, 409, 422)
            # Repeated and raw-byte queries: still problems.
            for query in ("partner=a&partner=b", "partner=%ff%fe", "partner=%ed%a0%80"):
                r = await http.post(
                    f"/v1/tournaments/{tid}/entrants?{query}", headers=ana["headers"]
                )
                problem(r, 400, 404, 409, 422)
        assert {tid: await state(http, host, tid) for tid in (pairs, classic)} == before


async def test_a_tournaments_odd_preset_or_options_create_nothing(secured: Secured) -> None:
    async with secured(**ROOMY) as http:
        host = await player(http, "Host")
        base = {"name": "Cup", "format": "round_robin", "match": {"target": 50}}
        base |= {"max_entrants": 4}
        presets: list[Any] = [
            "block",
            "partners",
            "PARTNERS-BLOCK",
            "partners-block ",
            "partners-block\x00",
            "x" * 10_000,
            "",
            5,
            None,
            True,
            ["partners-block"],
            {"name": "partners-block"},
        ]
        wrongs = [{**base, "preset": preset} for preset in presets]
        partners = {**base, "preset": "partners-nines"}
        wrongs += [
            {**partners, "match": {"best_of": 3}},
            {**partners, "match": {"target": 50, "best_of": 3}},
            {**partners, "next_opener": "alternate_any"},
            {**partners, "match": {"target": 0}},
            {**partners, "match": {"target": 2**64}},
            {**partners, "match": {"target": "100"}},
            {**partners, "match": {"hand_size": 9}},
            {**partners, "match": {}},
            {**partners, "match": None},
            {**partners, "match": {"target": 50, "talk": "etiquette"}},
            {**partners, "clock": {"allowance_s": 0, "grace_s": 1}},
            {**partners, "max_entrants": 6},  # 12 players: past the free plan's 10
            {**partners, "max_entrants": 1},
            {**partners, "max_entrants": "2"},
        ]
        for body in wrongs:
            r = await http.post("/v1/tournaments", json=body, headers=host["headers"])
            problem(r, 403, 413, 422)
        listed = await http.get("/v1/tournaments", params={"mine": "true"}, headers=host["headers"])
        assert listed.status_code == 200 and listed.json()["tournaments"] == []


async def test_a_seeks_odd_partner_or_talk_is_a_problem_and_seeks_nothing(
    secured: Secured,
) -> None:
    async with secured(**ROOMY) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        wanted = {"ruleset": "partners-block", "options": {"target": 40}}
        # An open seek of Ana's: a new seek of hers would cancel it, so it stays open only if
        # every try below stored nothing.
        held = await http.post("/v1/lobby/seeks", json=wanted, headers=ana["headers"])
        assert held.status_code == 201, held.text
        partners: list[Any] = [*ODD_TEXT, ana["id"], bob["id"] + "0", 5, True, [bob["id"]]]
        partners += [{"id": bob["id"]}, 1.5]
        bodies = [{**wanted, "partner": partner} for partner in partners]
        bodies += [{"ruleset": "block", "partner": bob["id"]}]
        bodies += [
            {**wanted, "options": {"target": 40, "talk": talk}}
            for talk in ("loud", "", "ETIQUETTE", "etiquette\x00", 1, ["etiquette"], {})
        ]
        bodies += [{"ruleset": "block", "options": {"talk": "etiquette"}}]
        for body in bodies:
            r = await http.post("/v1/lobby/seeks", json=body, headers=ana["headers"])
            problem(r, 404, 413, 422)
        polled = await http.get(f"/v1/lobby/seeks/{held.json()['id']}", headers=ana["headers"])
        assert polled.status_code == 200 and polled.json()["status"] == "open", polled.text
        assert polled.json()["partner"] is None and polled.json()["options"] == {"target": 40}
