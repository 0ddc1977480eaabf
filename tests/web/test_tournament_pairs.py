"""A tournament of pairs at /play: the form makes one on a partnership preset, and two browsers
enter it as one pair. The first picks her partner (a friend) and waits for him; he enters with
the partner who named him, offered first; both pages then count the pair once."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import Page, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import sign_in

TOKEN = "() => JSON.parse(localStorage.getItem('domino.identity'))"


def me(page: Page) -> dict[str, str]:
    who = page.evaluate(TOKEN)
    return {"id": who["id"], "Authorization": f"Bearer {who['token']}"}


def auth(player: dict[str, str]) -> dict[str, str]:
    return {"Authorization": player["Authorization"]}


def test_two_browsers_enter_a_tournament_of_pairs_as_one_pair(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    ana, bo = players(width=1280, height=1000), players(width=1280, height=1000)
    host = ana.open("tournaments")
    host.fill("#your-name", "Ana")
    host.fill("#t-name", "Pairs cup")
    host.select_option("#t-preset", "partners-block")
    expect(host.locator("#t-goal")).to_be_disabled()  # a pairs' match plays to a target
    host.fill("#t-size", "4")
    host.fill("#t-target", "50")
    host.click("button:text('Create the tournament')")
    host.wait_for_url("**/#/tournament/*")
    tid = host.url.split("#/tournament/")[1]
    other = bo.open("friends")
    sign_in(other, "Bo")
    expect(other.locator("h2")).to_have_text("Friends")
    ana_id, bo_id = me(host), me(other)

    with httpx.Client(base_url=play_server.base_url) as client:
        view = client.get(f"/v1/tournaments/{tid}", headers=auth(ana_id)).json()
        assert (view["preset"], view["match"], view["max_entrants"]) == (
            "partners-block",
            {"target": 50},
            4,
        )
        # Friends, so each is offered to the other as a partner.
        for asker, asked in ((ana_id, bo_id), (bo_id, ana_id)):
            r = client.post("/v1/friends", json={"id": asked["id"]}, headers=auth(asker))
            assert r.status_code in (200, 201), r.text

        host.reload()
        expect(host.locator("#t-terms dd").first).to_have_text("Partners: Block, in pairs")
        expect(host.locator("h3", has_text="Pairs")).to_have_text("Pairs (0/4)")
        host.click("button:text('Enter')")  # no partner chosen: the page asks for one
        expect(host.locator("#error")).to_have_text("Choose your partner first.")
        expect(host.locator("h3", has_text="Pairs")).to_have_text("Pairs (0/4)")
        host.select_option("#t-partner", label="Bo (friend)")
        host.click("button:text('Enter')")
        expect(host.locator("#t-waiting")).to_have_text(
            "Waiting for your partner, Bo, to enter naming you."
        )
        expect(host.locator("#error")).to_be_hidden()
        expect(host.locator("h3", has_text="Pairs")).to_have_text("Pairs (1/4)")
        expect(host.locator("ul.entrants li")).to_have_text(["Ana (waiting for a partner)"])
        ana.shot("tournament-pairs-waiting")

        guest = bo.open(f"tournament/{tid}")
        # Whoever named him is offered first, chosen already.
        expect(guest.locator("#t-partner option:checked")).to_have_text("Ana (named you)")
        guest.click("button:text('Enter')")
        for page in (guest, host):
            expect(page.locator("h3", has_text="Pairs")).to_have_text("Pairs (1/4)")
            expect(page.locator("ul.entrants li")).to_have_text(["Ana & Bo"])
            expect(page.locator("#t-waiting")).to_have_count(0)
        bo.shot("tournament-pairs-whole")
        entrants = client.get(f"/v1/tournaments/{tid}", headers=auth(bo_id)).json()["entrants"]
        assert {(e["player_id"], e["partner"], e["paired"]) for e in entrants} == {
            (ana_id["id"], bo_id["id"], True),
            (bo_id["id"], ana_id["id"], True),
        }

        # A second pair enters by REST: both pages count pairs, not players.
        cy, di = (client.post("/v1/players", json={"name": n}).json() for n in ("Cy", "Di"))
        for one, two in ((cy, di), (di, cy)):
            r = client.post(
                f"/v1/tournaments/{tid}/entrants",
                params={"partner": two["id"]},
                headers={"Authorization": f"Bearer {one['token']}"},
            )
            assert r.status_code == 200, r.text
        expect(host.locator("h3", has_text="Pairs")).to_have_text("Pairs (2/4)")
        expect(host.locator("ul.entrants li")).to_have_text(["Ana & Bo", "Cy & Di"])
