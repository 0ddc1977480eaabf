"""The other pages: every preset's options on the new-table form, tile backs, records and the
top 10, and a tournament from its bracket to both players' "I'm ready"."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import expect

from tests.web.conftest import Player
from tests.web.helpers import play_until_over, sign_in

PRESET_OPTIONS = {
    "all-fives": ["#opt-target", "#opt-hand-size", "#opt-opening", "#opt-away"],
    "house-nines": ["#opt-target", "#seat-count"],
    "draw-50": ["#opt-target"],
    "draw": ["#opt-target"],
    "block": ["#opt-target"],
    "classic": ["#opt-target", "#opt-draw", "#opt-next_opener", "#opt-best-of", "#opt-allowance"],
    "fives-and-threes": ["#opt-target", "#seat-count"],
    "mexican-train": ["#opt-rounds", "#seat-count"],
    "partners-block": ["#opt-target"],
    "partners-nines": ["#opt-target"],
    "partners-all-fives": ["#opt-target"],
}


def test_the_new_table_form_offers_each_presets_options(players: Callable[..., Player]) -> None:
    fay = players()
    page = fay.open("new")
    sign_in(page, "Fay")
    presets = page.locator("#preset option")
    expect(presets).to_have_count(len(PRESET_OPTIONS))
    for preset, controls in PRESET_OPTIONS.items():
        page.select_option("#preset", preset)
        for control in controls:
            expect(page.locator(control)).to_be_visible()
    # House nines and Fives and Threes seat 2 to 4; the others seat exactly two.
    page.select_option("#preset", "house-nines")
    page.select_option("#seat-count", "4")
    expect(page.locator("select[id^='seat-']:not(#seat-count)")).to_have_count(3)
    page.select_option("#preset", "draw")
    expect(page.locator("#seat-count")).to_have_count(0)
    expect(page.locator("select[id^='seat-']")).to_have_count(1)
    fay.shot("new-table")


def test_tile_backs_records_and_the_top_ten(players: Callable[..., Player]) -> None:
    gus = players()
    page = gus.open("solo")
    sign_in(page, "Gus")
    page.select_option("#preset", "draw-50")  # the top 10 counts default targets only
    page.select_option("#opponent", "plain")
    page.fill("#cut", "records")
    page.click("button:text('Deal')")
    expect(page.locator(".table-top h2")).to_have_text("Draw to 50")

    page.click(".my-back button:text('Change')")
    page.click("dialog.backs button[data-back='apollo-8']")
    expect(page.locator(".my-back img")).to_have_attribute("src", re.compile(r"apollo-8\.svg$"))

    play_until_over(page)
    page.goto(page.url.split("#")[0] + "#/records")
    mine = page.locator("table", has=page.locator("caption", has_text="Your records"))
    expect(mine.locator("tbody tr").first).to_contain_text("Draw to 50")
    page.select_option("#board-game", "draw-50")
    page.select_option("#board-opponent", "plain")
    top = page.locator("table", has=page.locator("caption", has_text="Top 10"))
    expect(top).to_contain_text("against Plain")
    expect(top.locator("tbody tr", has_text="Gus")).to_have_count(1)
    gus.shot("records")


def test_a_tournament_bracket_and_im_ready(players: Callable[..., Player]) -> None:
    ana, ben = players(), players()
    host = ana.open("tournaments")
    host.fill("#your-name", "Ana")
    host.fill("#t-name", "Tuesday cup")
    host.select_option("#t-format", "round_robin")
    host.fill("#t-size", "2")
    host.select_option("#t-goal", "best_of:1")
    host.click("button:text('Create the tournament')")
    expect(host.locator("h2")).to_have_text("Tuesday cup")
    host.click("button:text('Enter')")
    expect(host.locator("h3", has_text="Entrants")).to_have_text("Entrants (1/2)")

    guest = ben.open(host.url.split("#/")[1])
    sign_in(guest, "Ben")
    guest.click("button:text('Enter')")
    expect(host.locator("h3", has_text="Entrants")).to_have_text("Entrants (2/2)")
    host.click("button:text('Start the tournament')")

    for page in (host, guest):
        slot = page.locator(".bracket .slot")
        expect(slot).to_contain_text(re.compile(r"(Ana vs Ben|Ben vs Ana)"))
        page.click("a:text('Go to my match: I\\'m ready')")
        expect(page.locator('button:text("I\'m ready")')).to_be_visible()
    ana.shot("tournament-check-in")
    host.click('button:text("I\'m ready")')
    expect(host.locator(".controls-box")).to_contain_text("You are ready")
    guest.click('button:text("I\'m ready")')
    for page in (host, guest):
        expect(page.locator(".hand .tile")).to_have_count(7)
        expect(page.locator("#status .countdown")).to_have_text(re.compile(r"^\d+:\d\d$"))
    guest.go_back()
    expect(guest.locator(".bracket .slot")).to_contain_text("playing")
    expect(guest.locator("table.standings")).to_contain_text("Ben")
