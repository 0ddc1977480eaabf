"""Tables shared by people: two browsers at one house-nines table, and one device passed
between two players (hot-seat)."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import play_until_over, sign_in


def test_two_browsers_at_one_house_nines_table(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "house-nines")
    host.select_option("#seat-count", "2")
    host.select_option("#seat-1", "remote")
    host.click("button:text('Create the table')")
    code = host.get_by_test_id("code")
    expect(code).to_have_text(re.compile(r"^\d{4}$"))
    number = code.inner_text()
    host.fill("#talk-input", "table open")  # said before Ben arrives: he reads it on arrival
    host.press("#talk-input", "Enter")
    expect(host.locator(".messages li")).to_have_text(["Ana: table open"])

    guest = ben.open("join")
    guest.fill("#join-code", number)
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(guest.locator("#status")).to_have_text("Waiting for the host to deal.")
    # The host sees Ben take the seat, with a green dot.
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Ben")
    expect(host.get_by_test_id("dot-1")).to_have_class("dot on")

    host.fill("#start-cut", "two of us")
    host.click("button:text('Start the game')")
    for page in (host, guest):
        expect(page.locator(".hand .tile")).to_have_count(7)
        expect(page.locator(".table-top h2")).to_have_text("House double-nines to 100")
    # Each sees the other's hand face down, in its tile back: Ben picks Io, Ana sees it.
    expect(guest.locator(".seat[data-seat='0'] .facedown img.back")).to_have_count(7)
    guest.click(".my-back button:text('Change')")
    guest.click("dialog.backs button[data-back='galileo-io']")
    ben_backs = host.locator(".seat[data-seat='1'] .facedown img.back")
    expect(ben_backs.first).to_have_attribute("src", re.compile(r"galileo-io\.svg$"))
    expect(ben_backs).to_have_count(7)

    host.fill("#talk-input", "good luck, Ben")
    host.press("#talk-input", "Enter")
    expect(guest.locator(".messages li")).to_have_text(["Ana: table open", "Ana: good luck, Ben"])
    guest.fill("#talk-input", "you too")
    guest.click(".talk-form button")
    expect(host.locator(".messages li").last).to_have_text("Ben: you too")
    ana.shot("house-nines-two-players")

    # While Ben is here, his seat is his: the host cannot hand it to the computer.
    autopilot = host.locator("button:text('Let the computer play for Ben')")
    expect(autopilot).to_have_count(0)

    table_url = guest.url
    ben.page.close()
    # Ben's socket is gone: once his lease lapses the host's dot for him goes out.
    expect(host.get_by_test_id("dot-1")).to_have_class("dot")
    expect(host.get_by_test_id("dot-0")).to_have_class("dot on")

    # Now the host lets the computer play for Ben; Ben comes back and takes his seat back.
    autopilot.click()
    expect(host.locator(".seat[data-seat='1'] .tag", has_text="autopilot")).to_be_visible()
    back = ben.new_page()
    back.goto(table_url)
    back.click("button:text('Take my seat back')")
    expect(host.locator(".seat[data-seat='1'] .tag", has_text="autopilot")).to_have_count(0)
    expect(host.get_by_test_id("dot-1")).to_have_class("dot on")


def test_a_hot_seat_hand_with_a_reveal_between_players(players: Callable[..., Player]) -> None:
    cleo = players()
    page = cleo.open("hotseat")
    sign_in(page, "Cleo")
    page.select_option("#preset", "draw")
    page.click("button:text('Deal')")
    expect(page.locator(".hand .tile, .reveal")).not_to_have_count(0)

    actions = play_until_over(page, next_hand=False)

    reveals = actions.count("reveal")
    assert reveals >= 2, actions  # the device went back and forth
    assert actions[-1] in ("hand_over", "over"), actions
    expect(page.locator("#status")).to_contain_text("Hand 1")
    cleo.shot("hot-seat-hand-over")


def test_the_reveal_screen_hides_the_next_hand(players: Callable[..., Player]) -> None:
    dan = players()
    page = dan.open("hotseat")
    sign_in(page, "Dan")
    page.select_option("#preset", "block")
    page.click("button:text('Deal')")
    # Block: the first seat opens with any tile, so the first handover follows one play.
    reveal = page.locator(".reveal")
    if reveal.count() == 0:
        page.locator(".hand .tile.playable:not([disabled])").first.click()
        page.locator(".end-target.glow").first.click()
    expect(reveal).to_contain_text("Pass the device to")
    expect(page.locator(".hand .tile")).to_have_count(0)
    expect(page.locator(".end-target.glow")).to_have_count(0)
    # The button names the player whose hand it shows, not a seat number (issue 50).
    expect(reveal.get_by_role("button")).to_have_text(
        re.compile(r"^Show (Dan|Player 2)( \(seat 2\))?'s hand$")
    )
    dan.shot("hot-seat-reveal")
    reveal.get_by_role("button").click()
    expect(page.locator(".hand .tile")).to_have_count(7)
    # Hot-seat play is never rated: its seats show no rating.
    expect(page.locator("ul.seats")).to_be_visible()
    page.wait_for_load_state("networkidle")
    expect(page.locator(".seat .rating")).to_have_count(0)


def test_the_away_deadline_counts_down_for_everyone(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host = ana.open("new")
    sign_in(host, "Ana")
    host.select_option("#preset", "all-fives")
    host.fill("#opt-away", "600")
    host.click("button:text('Create the table')")
    guest = ben.open("join")
    guest.fill("#join-code", host.get_by_test_id("code").inner_text())
    guest.fill("#your-name", "Ben")
    guest.click("button:text('Join the game')")
    expect(host.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Ben")
    host.click("button:text('Start the game')")
    expect(guest.locator(".hand .tile")).to_have_count(7)

    ben.page.close()
    away = host.locator(".seat[data-seat='1'] .away")
    expect(away).to_contain_text(re.compile(r"forfeits in (9|10):\d\d"))
    first = away.locator(".countdown").inner_text()
    expect(away.locator(".countdown")).not_to_have_text(first)  # it counts down
    ana.shot("away-deadline")
