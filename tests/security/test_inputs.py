"""Attacks 6 (numbers no table can live with), 9 (bodies of any size), 11 (look-alike names)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.security.conftest import Secured, player

SEATS = [{"type": "human"}, {"type": "bot", "strategy": "plain"}]


async def test_numbers_beyond_their_bounds_are_422_and_documented(secured: Secured) -> None:
    async with secured() as http:
        ana = await player(http, "Ana")
        huge: list[tuple[str, dict[str, Any]]] = [
            ("all-fives", {"target": 2**64}),
            ("all-fives", {"away_forfeit_s": 10**12}),
            ("classic", {"turn_clock": {"allowance_s": 10**12, "grace_s": 10}}),
            ("classic", {"turn_clock": {"allowance_s": 60, "grace_s": 10**12}}),
            ("classic", {"best_of": 2**40}),
        ]
        for ruleset, options in huge:
            body = {"ruleset": ruleset, "seats": SEATS, "options": options}
            r = await http.post("/v1/matches", json=body, headers=ana["headers"])
            assert r.status_code == 422, (options, r.text)
            assert r.headers["content-type"] == "application/problem+json"
        patch = await http.patch(
            "/v1/players/me", json={"settings": {"target": 2**64}}, headers=ana["headers"]
        )
        assert patch.status_code == 422
        # The largest allowed values make a table that starts and shows its clock.
        # With a human opponent: a solo table refuses any clock (422 option_not_allowed).
        body = {
            "ruleset": "classic",
            "seats": [{"type": "human"}, {"type": "human"}],
            "options": {"target": 10_000, "turn_clock": {"allowance_s": 3600, "grace_s": 3600}},
        }
        created = await http.post("/v1/matches", json=body, headers=ana["headers"])
        assert created.status_code == 201, created.text
        mid = created.json()["id"]
        bob = await player(http, "Bob")
        code = created.json()["code"]
        joined = await http.post("/v1/matches/join", json={"code": code}, headers=bob["headers"])
        assert joined.status_code == 200, joined.text
        started = await http.post(f"/v1/matches/{mid}/start", json={}, headers=ana["headers"])
        assert started.status_code == 200, started.text
        assert started.json()["status"] == "playing"
        schemas = (await http.get("/openapi.json")).json()["components"]["schemas"]
        assert schemas["MatchOptions"]["properties"]["target"]["anyOf"][0]["maximum"] == 10_000
        clock = schemas["TurnClockOptions"]["properties"]
        assert clock["allowance_s"]["maximum"] == 3600 and clock["grace_s"]["maximum"] == 3600


async def test_a_deeply_nested_body_is_a_422_problem(secured: Secured) -> None:
    """500 to 999 levels passed the JSON parser, then overflowed the stack when the body was
    walked again (a 500 with a traceback, without a token); now refused past 32 levels."""
    async with secured() as http:
        ana_headers = (await player(http, "Ana"))["headers"]
        for depth in (33, 500, 700, 990):
            nested = "[" * depth + "]" * depth
            for path, text, headers in (
                ("/v1/players", f'{{"name": {nested}}}', {}),
                ("/v1/matches", f'{{"ruleset": "all-fives", "options": {nested}}}', ana_headers),
            ):
                sent = {**headers, "content-type": "application/json"}
                r = await http.post(path, content=text, headers=sent)
                # Near a thousand levels the JSON parser itself may refuse first (400).
                assert r.status_code in ((422,) if depth < 900 else (400, 422)), (path, depth)
                assert r.headers["content-type"] == "application/problem+json"
                assert r.status_code == 400 or "nested more than 32 levels" in r.text
        shallow = await http.post("/v1/players", json={"name": "Bo"})
        assert shallow.status_code == 201, shallow.text


async def test_a_body_above_the_limit_is_a_413_problem(secured: Secured) -> None:
    async with secured(max_body_bytes=4096) as http:
        big = {"name": "x" * (10 * 1024 * 1024)}
        r = await http.post("/v1/players", json=big)
        assert r.status_code == 413
        assert r.json()["code"] == "payload_too_large"
        assert r.headers["content-type"] == "application/problem+json"

        async def chunks() -> Any:  # no Content-Length: read until the limit, then refused
            for _ in range(10):
                yield b"x" * 1024

        r = await http.post("/v1/players", content=chunks())
        assert r.status_code == 413, r.text
        # Below the limit the same route still works.
        assert (await http.post("/v1/players", json={"name": "Ana"})).status_code == 201


LOOK_ALIKES = [
    "\u202eboB",  # right-to-left override
    "Bob\u200b",  # zero-width space
    "B\u200dob",  # zero-width joiner
    "\u2066Bob\u2069",  # isolates
    "Bob\ufeff",  # byte-order mark
    "   ",
    "\u3164",  # Hangul filler, renders as nothing
    "Bo\x07b",  # a control character
    "\u200b\u200b",
]


async def test_names_refuse_control_bidi_zero_width_and_blank(secured: Secured) -> None:
    async with secured() as http:
        for name in LOOK_ALIKES:
            r = await http.post("/v1/players", json={"name": name})
            assert r.status_code == 422, (name, r.text)
        bob = await player(http, "Bob")
        for name in LOOK_ALIKES:
            r = await http.patch("/v1/players/me", json={"name": name}, headers=bob["headers"])
            assert r.status_code == 422, (name, r.text)
        # NFC: a decomposed "é" is stored composed; spaces are folded.
        composed = await player(http, "  Jose\u0301   Luis ")
        assert composed["name"] == "Jos\u00e9 Luis"
        tournament = {
            "name": "Cup\u202e",
            "format": "round_robin",
            "match": {"target": 100},
            "max_entrants": 4,
        }
        r = await http.post("/v1/tournaments", json=tournament, headers=bob["headers"])
        assert r.status_code == 422, r.text
        assert r.json()["detail"].startswith("name:")
        tournament["name"] = "Cup"
        r = await http.post("/v1/tournaments", json=tournament, headers=bob["headers"])
        assert r.status_code == 201, r.text


async def test_unicode_names_people_use_still_work(client: httpx.AsyncClient) -> None:
    for name in ("Ana", "José", "Zoë", "李小龍", "Мария", "O'Brien-Smith", "🐉 dragon"):
        r = await client.post("/v1/players", json={"name": name})
        assert r.status_code == 201, (name, r.text)
        assert r.json()["name"] == name


async def test_seat_names_at_a_table_are_held_to_the_same_rule(secured: Secured) -> None:
    # A name given for one table (joining by number and name, a hot-seat seat) is shown to
    # every seat exactly like a profile name, so it is refused alike.
    async with secured() as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        for name in LOOK_ALIKES:
            seats = [{"type": "human"}, {"type": "human", "holder": "host", "name": name}]
            body = {"ruleset": "house-nines", "seats": seats}
            r = await http.post("/v1/matches", json=body, headers=ana["headers"])
            assert r.status_code == 422, (name, r.text)
        body = {"ruleset": "house-nines", "seats": [{"type": "human"}, {"type": "human"}]}
        created = await http.post("/v1/matches", json=body, headers=ana["headers"])
        assert created.status_code == 201, created.text
        code = created.json()["code"]
        for name in LOOK_ALIKES:
            join = {"code": code, "name": name}
            r = await http.post("/v1/matches/join", json=join, headers=bob["headers"])
            assert r.status_code == 422, (name, r.text)
        view = await http.get(f"/v1/matches/{created.json()['id']}", headers=ana["headers"])
        assert [s["name"] for s in view.json()["seats"]][1] in (None, "")  # nobody sat down
        join = {"code": code, "name": "  Bo\u0301b "}
        r = await http.post("/v1/matches/join", json=join, headers=bob["headers"])
        assert r.status_code == 200, r.text
        assert r.json()["seats"][1]["name"] == "B\u00f3b"
