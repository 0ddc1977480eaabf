"""What every table shows: at a hand's end the other hands face up and the points scored, and a
table log that records autopilot on and off and seat claims."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import match_view, play_until_over, sign_in, start_solo


def test_a_hands_end_shows_the_other_hand_face_up_and_the_points(
    players: Callable[..., Player],
) -> None:
    pia = players()
    page = pia.open("solo")
    sign_in(page, "Pia")
    start_solo(page, "draw-50", "plain", cut="face up")
    expect(page.get_by_test_id("faceup-1")).to_have_count(0)  # in play: face down
    # The first hand may end the match too (50 pips in one hand): the same shows then.
    assert play_until_over(page, next_hand=False)[-1] in ("hand_over", "over")

    last = match_view(page)["last_hand"]
    status = page.locator("#status")
    if last["tied"]:
        expect(status).to_contain_text("Hand 1 is tied: nobody scores.")
    else:
        winner = "Pia" if last["winner"] == 0 else "Plain"
        points = f", +{last['points']}" if last["points"] else ""  # never "+0"
        expect(status).to_contain_text(f"Hand 1: {winner} wins ({last['reason']}){points}.")
    # The computer's remaining tiles lie face up under its seat, with their pips.
    shown = page.get_by_test_id("faceup-1")
    expect(shown.locator(".shown-tile")).to_have_count(len(last["hands"][1]))
    left = f"{last['pips'][1]} pips" if last["hands"][1] else "no tiles left"
    expect(shown).to_contain_text(left)
    labels = ", ".join(f"{a}-{b}" for a, b in last["hands"][1]) or "no tiles"
    expect(shown).to_have_attribute("aria-label", f"{labels} left, {last['pips'][1]} pips")
    expect(page.locator(".seat[data-seat='1'] .facedown")).to_have_count(0)
    pia.shot("hand-end-face-up")


def test_the_table_log_records_autopilot_and_seat_claims(players: Callable[..., Player]) -> None:
    ana, ben, ben_again = players(), players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "house-nines")
    host.select_option("#seat-count", "2")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    number = code.inner_text()

    def join(player: Player) -> Page:
        page = player.open("join")
        page.fill("#join-code", number)
        page.fill("#your-name", "Ben")
        page.click("button:text('Join the game')")
        expect(page.locator(".seats")).to_be_visible()
        return page

    guest = join(ben)
    host.click("button:text('Start the game')")
    expect(guest.locator(".hand .tile")).to_have_count(7)
    guest.close()  # Ben leaves; the host lets the computer play for him
    expect(host.get_by_test_id("dot-1")).not_to_have_class("dot on")
    host.click("button:text('Let the computer play for Ben')")
    log = host.locator(".log")
    expect(log).to_contain_text("Autopilot on: the computer plays for Ben")

    claimed = claim(ben_again, number)  # from another device, by number and name
    expect(log).to_contain_text("Ben claimed seat 2")
    expect(claimed.locator(".log")).to_contain_text("Ben claimed seat 2")
    claimed.click("button:text('Take my seat back')")  # the claim leaves the computer on
    expect(log).to_contain_text("Autopilot off: Ben plays again")
    ana.shot("table-log-autopilot-claims")


def claim(player: Player, number: str) -> Page:
    """Join by number and name as a player does after leaving: the server holds the old seat
    until it has seen the first device away (a busy machine may take longer than the host's
    dot does), and says to try again then, so the player tries again until it is theirs."""
    player.allowed.append(re.compile("status of 404"))  # each refusal while the seat is held
    page = player.open("join")
    page.fill("#join-code", number)
    page.fill("#your-name", "Ben")
    seats, button = page.locator(".seats"), page.locator("button:text('Join the game')")
    for _ in range(120):
        if seats.is_visible():
            break
        if button.is_visible():
            button.click()
        page.wait_for_timeout(500)
    expect(seats).to_be_visible()
    return page


def test_fives_and_threes_is_played_whole_against_the_planner(
    players: Callable[..., Player],
) -> None:
    pia = players()
    page = pia.open("solo")
    sign_in(page, "Pia")
    start_solo(page, "fives-and-threes", "planner", cut="pub")
    expect(page.locator(".hand .tile")).to_have_count(7)  # two seats: seven tiles each
    # A play's points on the glowing ends are the pub's (15 scores 8), shown as the hint.
    assert play_until_over(page)[-1] == "over"
    final = match_view(page)
    assert final["status"] == "finished"
    assert max(seat["score"] for seat in final["seats"]) >= 61
    assert final["ruleset"]["play_scoring"] == "fives_and_threes"
    pia.shot("fives-and-threes-over")
