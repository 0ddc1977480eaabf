"""A partnership table at /play (docs/RULES.md 14): one player and three computers, the partner
opposite, the teams' scores shown and kept to the end of a short match."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import (
    OVER_LINK,
    READY_BUTTON,
    READY_TILE,
    match_view,
    play_until_over,
    sign_in,
    take_turn,
)


def test_a_partnership_match_shows_the_partner_opposite_and_the_team_scores(
    players: Callable[..., Player],
) -> None:
    pia = players()
    page = pia.open("new")
    sign_in(page, "Pia")
    page.select_option("#preset", "partners-block")
    page.fill("#opt-target", "15")  # a hand or two: the match ends soon
    page.select_option("#opt-talk", "etiquette")
    for select in page.locator("select[id^='seat-']:not(#seat-count)").all():
        select.select_option("plain")
    page.click("button:text('Create the table')")  # only computers to wait for: dealt at once
    expect(page.locator(".hand .tile").first).to_be_visible()

    # Pia (seat 0) at the bottom, her partner seat 2 at the top, the opponents at the sides.
    places = {n: page.locator(f".seat[data-seat='{n}']") for n in range(4)}
    for seat, place in [(0, "bottom"), (1, "left"), (2, "top"), (3, "right")]:
        expect(places[seat]).to_have_attribute("data-place", place)
    top, bottom = places[2].bounding_box(), places[0].bounding_box()
    assert top is not None and bottom is not None and top["y"] < bottom["y"]
    expect(page.get_by_test_id("team-score-0")).to_contain_text("Your team")
    expect(page.get_by_test_id("team-score-1")).to_contain_text("Their team")
    # Partnership etiquette (options.talk): no table talk while the hand is in play.
    talk = page.locator("#talk-input")
    expect(talk).to_be_disabled()
    expect(talk).to_have_attribute("placeholder", re.compile("^Partnership etiquette"))
    assert match_view(page)["talk_etiquette"] is True
    pia.shot("partners-table")

    assert play_until_over(page)[-1] == "over"
    final = match_view(page)
    team = final["result"]["team"]
    assert team in (0, 1) and final["teams"][team]["score"] >= 15
    for shown in final["teams"]:
        expect(page.get_by_test_id(f"team-score-{shown['team']}")).to_contain_text(
            str(shown["score"])
        )
    expect(page.get_by_test_id(f"team-score-{team}")).to_contain_text("won")
    expect(page.locator("#status")).to_contain_text(" win the match (target)")
    pia.shot("partners-over")


def _act(pages: list[Page]) -> str | None:
    """One action by whichever seat's page offers one now (a tile to play, or Pass / Draw), or
    the host's Next hand; None when no page offers anything yet (an event still on its way).
    Only the host starts a hand, so no page presses a Next hand another already pressed."""
    for page in pages:
        if page.locator(f"{READY_TILE}, {READY_BUTTON}:text-matches('^(Draw|Pass)')").count():
            return take_turn(page)
    if pages[0].locator(OVER_LINK).count():
        return "over"
    if pages[0].locator(f"{READY_BUTTON}:text-matches('^Next hand')").count():
        return take_turn(pages[0])
    return None


def test_four_browsers_play_a_whole_partnership_match(players: Callable[..., Player]) -> None:
    people = [players() for _ in range(4)]
    host = people[0].open("new")
    sign_in(host, "Ada")
    host.select_option("#preset", "partners-block")
    host.fill("#opt-target", "1")  # the first hand's points end the match
    host.select_option("#opt-talk", "etiquette")
    host.click("button:text('Create the table')")
    number = host.get_by_test_id("code").inner_text()
    for seat, (person, name) in enumerate(zip(people[1:], ["Bea", "Cal", "Dot"], strict=True), 1):
        guest = person.open("join")
        guest.fill("#join-code", number)
        guest.fill("#your-name", name)
        guest.click("button:text('Join the game')")
        expect(host.locator(f".seat[data-seat='{seat}'] .seat-name")).to_have_text(name)
    host.fill("#talk-input", "good luck, partner")  # before the deal talk is free
    host.press("#talk-input", "Enter")
    host.fill("#start-cut", "four browsers")
    host.click("button:text('Start the game')")
    pages = [person.page for person in people]
    for seat, page in enumerate(pages):
        expect(page.locator(".hand .tile")).to_have_count(7)
        # Each sees themself at the bottom and their partner opposite, at the top.
        expect(page.locator(f".seat[data-seat='{seat}']")).to_have_attribute("data-place", "bottom")
        partner = page.locator(f".seat[data-seat='{(seat + 2) % 4}']")
        expect(partner).to_have_attribute("data-place", "top")
        expect(page.locator(".messages li")).to_have_text(["Ada: good luck, partner"])
        expect(page.locator("#talk-input")).to_be_disabled()  # etiquette: not during the hand

    actions: list[str] = []
    waits = 0
    while not actions or actions[-1] != "over":
        done = _act(pages)
        waits = 0 if done else waits + 1
        assert waits < 100_000 and len(actions) < 400, actions[-10:]
        if done:
            actions.append(done)
    assert actions.count("play") >= 4, actions  # every seat played its own tiles

    final = match_view(host)
    team = final["result"]["team"]
    assert final["status"] == "over" and team in (0, 1)
    for seat, page in enumerate(pages):
        expect(page.locator(OVER_LINK)).to_be_visible()
        expect(page.get_by_test_id(f"team-score-{seat % 2}")).to_contain_text("Your team")
        expect(page.get_by_test_id(f"team-score-{team}")).to_contain_text("won")
        expect(page.locator("#talk-input")).to_be_enabled()  # the match is over: talk is free
    people[0].shot("partners-four-browsers")
