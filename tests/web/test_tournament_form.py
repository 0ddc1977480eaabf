"""The tournament form at /play offers every option POST /v1/tournaments takes (issue 43): the
format, the entrants, the matches (best of 1 to 5 hands, or any points target: issue 50), who
leads each hand (alternating starters), the turn clock and the check-in window; the tournament
made has them all, its page shows them, and it is found again in the lists."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from playwright.sync_api import expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player


def test_the_form_sets_alternating_starters_the_clock_and_the_check_in_window(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    ana = players(width=1280, height=1000)
    page = ana.open("tournaments")
    page.fill("#your-name", "Ana")
    page.fill("#t-name", "Sunday league")
    page.select_option("#t-format", "round_robin")
    page.fill("#t-size", "6")
    page.select_option("#t-goal", "best_of:2")
    expect(page.locator("#t-target")).to_be_disabled()  # a best-of match has no target
    page.select_option("#t-opener", "alternate_any")
    page.fill("#t-allowance", "90")
    page.fill("#t-grace", "45")
    page.fill("#t-check-in", "600")
    ana.shot("tournament-form")
    page.click("button:text('Create the tournament')")
    page.wait_for_url("**/#/tournament/*")
    tid = page.url.split("#/tournament/")[1]
    token = page.evaluate("() => JSON.parse(localStorage.getItem('domino.identity')).token")
    with httpx.Client(base_url=play_server.base_url) as client:
        made = client.get(f"/v1/tournaments/{tid}", headers={"Authorization": f"Bearer {token}"})
    assert made.status_code == 200, made.text
    view = made.json()
    assert (view["name"], view["format"], view["max_entrants"]) == (
        "Sunday league",
        "round_robin",
        6,
    )
    assert view["match"] == {"best_of": 2}
    assert view["next_opener"] == "alternate_any"
    assert view["clock"] == {"allowance_s": 90, "grace_s": 45}
    assert view["check_in_s"] == 600
    terms = page.locator("#t-terms")
    expect(terms.locator("dd")).to_have_text(
        [
            "Best of 2 hands (level on hands: the higher points total wins)",
            "1 min 30 s a turn + 45 s grace",
            "10 min to say you are ready",
            "players in turn",
        ]
    )
    ana.shot("tournament-best-of-2")
    # Found again: the tournaments page lists the caller's own and those taking entrants.
    page.goto(page.url.split("#")[0] + "#/tournaments")
    expect(page.locator("#my-tournaments")).to_contain_text(
        "Sunday league (Round-robin, Best of 2 hands, open"
    )
    expect(page.locator("#open-tournaments")).to_contain_text("Sunday league")
    ana.shot("tournament-list")
    page.click("#my-tournaments a:text('Sunday league')")
    page.wait_for_url(f"**/#/tournament/{tid}")


def test_the_form_sets_any_points_target_and_the_page_shows_it(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    ana = players(width=1280, height=1000)
    page = ana.open("tournaments")
    page.fill("#your-name", "Ana")
    page.fill("#t-name", "Target cup")
    page.select_option("#t-goal", "best_of:4")
    page.select_option("#t-goal", "target")  # back to a target: its field takes input again
    page.fill("#t-target", "75")
    page.click("button:text('Create the tournament')")
    page.wait_for_url("**/#/tournament/*")
    expect(page.locator("#t-terms dd").first).to_have_text("First to 75 points")
    tid = page.url.split("#/tournament/")[1]
    token = page.evaluate("() => JSON.parse(localStorage.getItem('domino.identity')).token")
    with httpx.Client(base_url=play_server.base_url) as client:
        made = client.get(f"/v1/tournaments/{tid}", headers={"Authorization": f"Bearer {token}"})
    assert made.json()["match"] == {"target": 75}
    ana.shot("tournament-target")
