"""The away countdown at a two-person All Fives table: shown only under the seat of a player who
has left, counting to the view's own `away_deadline`, and renewed with every view."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, sign_in


def away_deadline(page: Page, seat: int) -> str:
    deadline: str = match_view(page)["seats"][seat]["away_deadline"]
    return deadline


def test_the_away_countdown_shows_only_for_an_away_seat_and_follows_the_view(
    players: Callable[..., Player],
) -> None:
    ana, ben = players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "all-fives")
    host.fill("#opt-away", "900")  # long enough that nobody forfeits during the test
    host.select_option("#seat-1", "remote")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    guest = ben.open("join")
    guest.fill("#join-code", code.inner_text())
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(host.get_by_test_id("dot-1")).to_have_class("dot on")
    host.click("button:text('Start the game')")
    for page in (host, guest):
        expect(page.locator(".hand .tile")).to_have_count(7)
    # Both are here: no seat shows an away countdown, on either page.
    for page in (host, guest):
        expect(page.get_by_test_id("dot-0")).to_have_class("dot on")
        expect(page.get_by_test_id("dot-1")).to_have_class("dot on")
        expect(page.locator(".seats .away")).to_have_count(0)

    match_url = guest.url
    guest.close()  # Ben leaves: his seat alone shows the countdown, to the view's deadline
    away = host.locator(".seat[data-seat='1'] .away")
    expect(away).to_be_visible()
    expect(host.locator(".seat[data-seat='0'] .away")).to_have_count(0)
    first = away_deadline(host, 1)
    clock = away.locator(".countdown")
    expect(clock).to_have_attribute("data-deadline", first)
    expect(away).to_have_text(re.compile(r"^Away: forfeits in 1[45]:\d\d$"))
    shown = clock.inner_text()
    expect(clock).not_to_have_text(shown)  # it counts down, second by second
    ana.shot("away-countdown")

    back = ben.new_page()  # Ben comes back: the countdown goes
    back.goto(match_url)
    expect(host.get_by_test_id("dot-1")).to_have_class("dot on")
    expect(host.locator(".seats .away")).to_have_count(0)
    expect(back.locator(".seats .away")).to_have_count(0)
    back.close()  # ... and leaves again: the countdown comes back with the new deadline
    expect(away).to_be_visible()
    second = away_deadline(host, 1)
    assert second > first, (first, second)
    expect(clock).to_have_attribute("data-deadline", second)
