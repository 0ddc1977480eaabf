"""A partnership table at /play (docs/RULES.md 14): one player and three computers, the partner
opposite, the teams' scores shown and kept to the end of a short match."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, play_until_over, sign_in


def test_a_partnership_match_shows_the_partner_opposite_and_the_team_scores(
    players: Callable[..., Player],
) -> None:
    pia = players()
    page = pia.open("new")
    sign_in(page, "Pia")
    page.select_option("#preset", "partners-block")
    page.fill("#opt-target", "15")  # a hand or two: the match ends soon
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
