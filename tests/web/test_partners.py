"""Partnership tables at /play (docs/RULES.md 14): one player and three computers, the partner
opposite, the teams' scores shown and kept to the end of a short match."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import (
    OVER_LINK,
    READY_BUTTON,
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
    # Both boxes read in one turn of the page: the computers' moves re-render the seats, and a
    # box asked for in between finds the old element gone.
    top, bottom = page.evaluate(
        """() => [2, 0].map((n) =>
            document.querySelector(`.seat[data-seat='${n}']`).getBoundingClientRect().y)"""
    )
    assert top < bottom, (top, bottom)
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


@pytest.mark.parametrize(
    ("preset", "target"), [("partners-nines", "20"), ("partners-all-fives", "25")]
)
def test_each_partnership_preset_is_played_whole_with_a_planner_partner(
    players: Callable[..., Player], preset: str, target: str
) -> None:
    """Double-nine Block (10 tiles each, 15 out of play) and All Fives in partnership, played to
    the end by clicking: Pia and a Planner partner against two Plains."""
    pia = players()
    page = pia.open("new")
    sign_in(page, "Pia")
    page.select_option("#preset", preset)
    page.fill("#opt-target", target)
    for seat, kind in [(1, "plain"), (2, "planner"), (3, "plain")]:
        page.select_option(f"#seat-{seat}", kind)
    page.click("button:text('Create the table')")  # only computers to wait for: dealt at once
    expect(page.locator(".hand .tile").first).to_be_visible()
    dealt = match_view(page)
    expect(page.locator(".hand .tile")).to_have_count(dealt["ruleset"]["hand_size"])
    expect(page.locator(".seat[data-seat='2']")).to_have_attribute("data-place", "top")

    actions = play_until_over(page)
    assert actions[-1] == "over" and "play" in actions
    final = match_view(page)
    team = final["result"]["team"]
    assert final["status"] == "finished" and team in (0, 1)
    winners = next(shown for shown in final["teams"] if shown["team"] == team)
    assert winners["won"] and winners["score"] >= int(target)
    scores = [seat["score"] for seat in final["seats"]]
    assert scores[0] == scores[2] == winners["score"] or scores[1] == scores[3] == winners["score"]
    expect(page.get_by_test_id(f"team-score-{team}")).to_contain_text("won")
    expect(page.locator(OVER_LINK)).to_be_visible()
    pia.shot(f"{preset}-over")


NEXT_HAND = f"{READY_BUTTON}:text-matches('^Next hand')"


def _play_four(pages: list[Page]) -> list[tuple[int, str]]:
    """Each seat acts on its own page when its turn comes (the turn goes round the table, seat
    after seat, a pass being an action too); between hands the host alone deals the next, and
    every page shows the new hand before the next turn is looked for. Returns (seat, action)
    pairs, the last action 'over'."""
    actions: list[tuple[int, str]] = []
    seat = match_view(pages[0])["turn"]["seat"]
    while not actions or actions[-1][1] != "over":
        assert len(actions) < 400, actions[-10:]
        actions.append((seat, take_turn(pages[seat], next_hand=False)))
        if actions[-1][1] == "hand_over":
            pages[0].locator(NEXT_HAND).click()
            for page in pages:
                expect(page.locator(NEXT_HAND)).to_have_count(0)
            seat = match_view(pages[0])["turn"]["seat"]
        else:
            seat = (seat + 1) % 4
    return actions


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
    # The talk travels over the socket and the start over REST: wait until the talk is said,
    # or the deal may land first and etiquette refuses it (one CI run saw no message at all).
    expect(host.locator(".messages li")).to_have_text(["Ada: good luck, partner"])
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

    actions = _play_four(pages)
    # Every seat played its own tiles (or passed) on its own page.
    assert {seat for seat, done in actions if done in ("play", "pass")} == {0, 1, 2, 3}

    final = match_view(host)
    team = final["result"]["team"]
    assert final["status"] == "finished" and team in (0, 1)
    for seat, page in enumerate(pages):
        expect(page.locator(OVER_LINK)).to_be_visible()
        expect(page.get_by_test_id(f"team-score-{seat % 2}")).to_contain_text("Your team")
        expect(page.get_by_test_id(f"team-score-{team}")).to_contain_text("won")
        expect(page.locator("#talk-input")).to_be_enabled()  # the match is over: talk is free
    people[0].shot("partners-four-browsers")
