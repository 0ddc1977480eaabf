"""Budgets found missing by issue 48's attack run, each replayed: 60 tournaments in a row
filled everyone's open list; 30 reports with 500-character reasons in 0.2 s; 4,800 link codes
a minute from one /24; rematches that spent no budget (web/ratelimit.py, docs/API.md)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.security.conftest import Secured, player

TOURNAMENT = {
    "name": "Mine",
    "format": "single_elimination",
    "match": {"best_of": 1},
    "max_entrants": 4,
}


def _from(http: httpx.AsyncClient, address: str) -> httpx.AsyncClient:
    """A client of the same app at another address."""
    transport = httpx.ASGITransport(app=http.app, client=(address, 40000))  # type: ignore[attr-defined]
    return httpx.AsyncClient(transport=transport, base_url="http://test")


def _refused(answer: httpx.Response) -> bool:
    return (
        answer.status_code == 429
        and answer.json()["code"] == "rate_limited"
        and bool(answer.headers.get("retry-after"))
    )


async def test_tournament_creation_is_budgeted(secured: Secured) -> None:
    async with secured(tournament_rate_limit=3) as http:
        eve, ana = await player(http, "Eve"), await player(http, "Ana")
        made = [
            await http.post("/v1/tournaments", json=TOURNAMENT, headers=eve["headers"])
            for _ in range(60)
        ]
        assert [r.status_code for r in made[:3]] == [201] * 3, made[0].text
        assert all(_refused(r) for r in made[3:])
        listed = await http.get("/v1/tournaments", headers=ana["headers"])
        assert len(listed.json()["tournaments"]) == 3, listed.text
        async with _from(http, "198.51.100.9") as elsewhere:  # another player elsewhere
            mine = await elsewhere.post("/v1/tournaments", json=TOURNAMENT, headers=ana["headers"])
        assert mine.status_code == 201, mine.text


async def test_reports_are_budgeted(secured: Secured) -> None:
    async with secured(report_rate_limit=10, chat_rate_limit=100) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        body: dict[str, Any] = {"ruleset": "draw-50", "seats": [{"type": "human"}] * 2}
        made = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        await http.post("/v1/matches/join", json={"code": made["code"]}, headers=bob["headers"])
        said = []
        for n in range(30):
            r = await http.post(
                f"/v1/matches/{made['id']}/messages", json={"text": f"m{n}"}, headers=ana["headers"]
            )
            said.append(r.json()["seq"])
        answers = [
            await http.post(
                f"/v1/matches/{made['id']}/messages/{seq}/report",
                json={"reason": "x" * 500},
                headers=bob["headers"],
            )
            for seq in said
        ]
        assert [r.status_code for r in answers[:10]] == [201] * 10
        assert all(_refused(r) for r in answers[10:])


async def test_link_codes_are_budgeted_per_network(secured: Secured) -> None:
    async with secured(sign_in_rate_limit=20, network_share=4) as http:
        answers = []
        for host in range(1, 11):  # ten addresses of one /24, 20 tries each
            async with _from(http, f"203.0.113.{host}") as one:
                for _ in range(20):
                    r = await one.post("/v1/sign-in/link", json={"code": "AAAA-AAAA"})
                    answers.append(r)
        wrong = [r for r in answers if r.status_code == 404]
        assert len(wrong) == 80  # the network's four addresses' worth
        assert all(_refused(r) for r in answers[80:])
        async with _from(http, "198.51.100.9") as elsewhere:  # another network is not refused
            r = await elsewhere.post("/v1/sign-in/link", json={"code": "AAAA-AAAA"})
            assert r.status_code == 404, r.text


async def test_rematches_spend_the_new_match_budget(secured: Secured) -> None:
    async with secured(create_match_rate_limit=4) as http:
        ana, bob = await player(http, "Ana"), await player(http, "Bob")
        body: dict[str, Any] = {"ruleset": "draw-50", "seats": [{"type": "human"}] * 2}
        match_id = (await http.post("/v1/matches", json=body, headers=ana["headers"])).json()
        await http.post("/v1/matches/join", json={"code": match_id["code"]}, headers=bob["headers"])
        match_id = match_id["id"]
        refused = None
        for _ in range(6):
            await http.post(f"/v1/matches/{match_id}/start", json={}, headers=ana["headers"])
            await http.post(f"/v1/matches/{match_id}/resign", json={}, headers=bob["headers"])
            await http.post(f"/v1/matches/{match_id}/rematch", json={}, headers=bob["headers"])
            r = await http.post(f"/v1/matches/{match_id}/rematch", json={}, headers=ana["headers"])
            if r.status_code != 200:
                refused = r
                break
            match_id = r.json()["rematch_match_id"]
        assert refused is not None and _refused(refused), "rematches were never refused"
