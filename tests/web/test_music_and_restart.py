"""Seed 003 at a solo table: Music and Effects switches that are independent and kept (the music
made in the page with WebAudio), and Restart, which asks before abandoning the match and dealing
a new one."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.web.conftest import Player
from tests.web.helpers import setting, sign_in, start_solo, take_turn


def notes(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.musicNotes || 0"))


def wait_for_more_notes(page: Page) -> None:
    """The music's clock runs: more notes get scheduled as the AudioContext's time goes on."""
    # A function, not an expression: the page's CSP forbids the eval Playwright would need.
    page.wait_for_function(
        "(least) => Number(document.body.dataset.musicNotes || 0) > least", arg=notes(page) + 4
    )


def test_music_and_effects_switch_independently_and_are_kept(
    players: Callable[..., Player],
) -> None:
    mo = players()
    page = mo.open("solo")
    sign_in(page, "Mo")
    start_solo(page, "draw", "planner", cut="tunes")
    music, effects = setting(page, "music"), setting(page, "sound")
    expect(music).to_have_text("Music: off")  # music waits to be asked for
    expect(effects).to_have_text("Sound effects: on")

    music.click()
    expect(music).to_have_attribute("aria-pressed", "true")
    wait_for_more_notes(page)
    effects.click()  # effects off: the music plays on
    expect(effects).to_have_attribute("aria-pressed", "false")
    expect(music).to_have_attribute("aria-pressed", "true")
    wait_for_more_notes(page)
    mo.shot("music-and-effects")
    music.click()  # music off: the effects switch stays as it was
    expect(page.locator("body")).to_have_attribute("data-music-playing", "false")
    expect(effects).to_have_text("Sound effects: off")
    effects.click()
    expect(effects).to_have_text("Sound effects: on")
    expect(page.locator("body")).to_have_attribute("data-music-playing", "false")

    music.click()
    effects.click()
    page.reload()  # both kept: music on (it starts with the first gesture), effects off
    expect(page.locator("#music")).to_have_text("Music: on")
    expect(page.locator("#sound")).to_have_text("Sound effects: off")
    page.locator("h2").first.click()
    expect(page.locator("body")).to_have_attribute("data-music-playing", "true")
    wait_for_more_notes(page)


def test_restart_asks_then_abandons_the_match_and_deals_a_new_one(
    players: Callable[..., Player],
) -> None:
    ray = players()
    page = ray.open("solo")
    sign_in(page, "Ray")
    start_solo(page, "block", "plain", cut="first deal")
    take_turn(page)
    first = page.url
    restart = page.locator(".controls-box button:text('Restart')")

    restart.click()  # it asks; "Keep playing" changes nothing
    dialog = page.locator("dialog.confirm")
    expect(dialog).to_contain_text("abandons the match")
    expect(dialog.locator("button:focus")).to_have_text("Keep playing")
    ray.shot("restart-asks")
    dialog.locator("button:text('Keep playing')").click()
    expect(dialog).to_have_count(0)
    assert page.url == first
    expect(page.locator(".table-top h2")).to_have_text("Block to 100")

    restart.click()
    page.locator("dialog.confirm button:text('Abandon and deal again')").click()
    expect(page).not_to_have_url(first)
    expect(page).to_have_url(re.compile(r"#/match/[0-9a-f-]{36}$"))
    expect(page.locator(".hand .tile")).to_have_count(7)  # a new deal, same game
    expect(page.locator(".table-top h2")).to_have_text("Block to 100")
    expect(page.locator(".table-top")).to_contain_text("Hand 1")
    expect(page.get_by_test_id("score-0")).to_have_text("0")
    expect(page.locator(".seat[data-seat='1'] .seat-name")).to_have_text("Plain")
    # The old match is over: its table offers the ledger.
    page.goto(first)
    expect(page.locator(".controls-box a:text('Open the deal ledger')")).to_be_visible()
