"""Solo tables in the browser: a whole All Fives match against Planner by clicking, and moves
by keyboard alone."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.support.servers import ServerProcess
from tests.web.conftest import Player
from tests.web.helpers import (
    READY_TILE,
    next_step,
    play_until_over,
    setting,
    sign_in,
    start_solo,
    take_turn,
)


def test_all_fives_against_planner_played_by_clicking_to_its_end(
    players: Callable[..., Player],
) -> None:
    ana = players()
    page = ana.open("solo")
    sign_in(page, "Ana")
    start_solo(page, "all-fives", "planner", cut="full moon")
    expect(page.locator(".table-top h2")).to_have_text("All Fives to 150")
    ana.shot("all-fives-start")

    plays = 0  # a table in play, for the README (docs/play.png is a copy of it)
    while plays < 3 or not next_step(page).and_(page.locator(READY_TILE)).count():
        plays += take_turn(page) == "play"
    page.locator(READY_TILE).first.click()
    expect(page.locator(".end-target.glow").first).to_be_visible()
    ana.shot("table-in-play")
    # Tile hints off (seed 004's setting): no raised tiles, no points on the ends.
    hints = setting(page, "hints")
    hints.click()
    expect(hints).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".end-target.glow").first).not_to_contain_text("+")
    expect(page.locator(".hand .badge")).to_have_count(0)
    hints.click()
    expect(page.locator(".end-target.glow").first).to_contain_text("+")

    actions = play_until_over(page)

    # Her plays over the whole match: the deal is sealed anew each run, and a Planner that
    # wins fast leaves few after the hints check.
    assert plays + actions.count("play") >= 5, (plays, actions)
    expect(page.locator("#status")).to_contain_text(re.compile(r"wins the match \(target\)"))
    scores = [int(page.locator(f"[data-testid=score-{seat}]").inner_text()) for seat in (0, 1)]
    assert max(scores) >= 150, scores
    # Points are shown to everyone as they happen: the table log lists every score.
    expect(page.locator(".log li", has_text="+").first).to_be_visible()
    ana.shot("all-fives-over")


def test_moves_by_keyboard_alone(players: Callable[..., Player]) -> None:
    ben = players()
    page = ben.open("solo")
    sign_in(page, "Ben")
    start_solo(page, "draw", "plain", cut="keys")
    keyboard = page.keyboard
    # From the top of the page, Tab reaches the hand (one tab stop for the whole row).
    page.locator("body").focus()
    for _ in range(40):
        keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('tile')"):
            break
    expect(page.locator(".hand .tile:focus")).to_have_count(1)

    played = 0
    while played < 3:
        expect(page.locator(".table-page[aria-busy=true]")).to_have_count(0)
        expect(page.locator(".hand .tile:focus, .controls-box button:focus")).to_have_count(1)
        if page.locator(".hand .tile.playable").count() == 0:
            # Nothing fits: Tab on to Draw (or Pass) and press Enter.
            while not page.evaluate("/^(Draw|Pass)/.test(document.activeElement.textContent)"):
                keyboard.press("Tab")
            keyboard.press("Enter")
            continue
        while not page.evaluate("document.activeElement.classList.contains('playable')"):
            keyboard.press("ArrowRight")
        keyboard.press("Enter")
        expect(page.locator(".end-target.glow:focus")).to_have_count(1)
        if played == 0:  # Escape drops the choice and gives the focus back to the hand
            keyboard.press("Escape")
            expect(page.locator(".hand .tile[aria-pressed=true]")).to_have_count(0)
            expect(page.locator(".hand .tile.playable:focus")).to_have_count(1)
            keyboard.press("Enter")
        before = page.locator(".board .placed").count()
        keyboard.press("Enter")
        played += 1
        expect(page.locator(".board .placed")).not_to_have_count(before)
    ben.shot("keyboard")


def chimes(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.chimes || 0"))


def test_drag_onto_a_glowing_end_and_the_turn_chime_switch(players: Callable[..., Player]) -> None:
    ivy = players()
    page = ivy.open("solo")
    sign_in(page, "Ivy")
    start_solo(page, "block", "plain", cut="drag")  # Block: the first seat opens, any tile

    expect(page.locator(".link-state")).to_have_text("")  # the socket's snapshot is in
    tile = page.locator(READY_TILE).first
    expect(tile).to_be_visible()
    box = tile.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 20, steps=4)  # starts the drag
    end = page.locator(".end-target.glow")
    expect(end).to_have_count(1)
    end.hover()
    page.mouse.up()
    expect(page.locator(".board .placed")).not_to_have_count(0)
    # Plain answered and the turn came back: the chime played once.
    expect(page.locator("#status")).to_have_text(re.compile("^Your turn|^Plain"))
    page.wait_for_function("() => Number(document.body.dataset.chimes || 0) >= 1")  # CSP: no eval

    sound = setting(page, "sound")
    expect(sound).to_have_attribute("aria-pressed", "true")
    sound.click()
    expect(sound).to_have_attribute("aria-pressed", "false")
    expect(sound).to_have_text("Sound effects: off")
    heard = chimes(page)
    actions = [take_turn(page) for _ in range(3)]
    assert "play" in actions or "pass" in actions, actions
    assert chimes(page) == heard


def test_after_a_server_restart_the_page_reconnects_from_a_snapshot(
    players: Callable[..., Player], play_server: ServerProcess
) -> None:
    kim = players()
    # The browser reports the refused connections while the server is down (the socket's
    # retries, a read still under way): expected here.
    kim.allowed.append(re.compile(r"WebSocket connection to .* failed|ERR_CONNECTION_REFUSED"))
    page = kim.open("solo")
    sign_in(page, "Kim")
    start_solo(page, "draw", "plain", cut="restart")
    link = page.locator(".link-state")
    expect(link).to_have_text("")
    take_turn(page)

    expect(page.locator(".board .placed")).not_to_have_count(0)
    play_server.stop()
    expect(link).to_have_text("reconnecting…")
    play_server.start()
    play_server.wait_ready()
    # A fresh snapshot arrives on the new socket and the game goes on from it.
    expect(link).to_have_text("")
    before = page.locator(".board .placed").count()
    while page.locator(".board .placed").count() == before:
        take_turn(page)
    expect(page.locator("#error")).to_be_hidden()
